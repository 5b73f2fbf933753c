"""A card position (CARDS.md section 4): the game, the hand, the table, and the draw."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from rummikub.cards.cards import Card
from rummikub.cards.melds import CardMeld
from rummikub.cards.rules import CardRules

#: A draw: ``"stock"`` (an unknown card, or no draw to make) or the depth taken from the
#: discard pile (0 = its top card only).
Draw = Literal["stock"] | int


@dataclass(frozen=True, slots=True)
class CardPosition:
    """The player to move: their ``hand`` and the ``table`` (every meld laid, by anyone).

    ``discard`` is the discard pile, bottom to top; ``drawn = False`` means the turn's draw
    is still to be made (then a pick from the pile is part of the move).
    """

    rules: CardRules
    hand: tuple[Card, ...]
    table: tuple[CardMeld, ...] = ()
    opened: bool = False
    deal: int | None = None
    discard: tuple[Card, ...] = ()
    drawn: bool = True

    def picks(self) -> list[int]:
        """The pile depths the player may take (none once drawn)."""
        if self.drawn or not self.discard:
            return []
        if self.rules.discard_pick == "top":
            return [0]
        return list(range(len(self.discard)))

    def taken(self, draw: Draw) -> tuple[Card, ...]:
        """The cards a draw takes from the pile (none from the stock)."""
        if draw == "stock":
            return ()
        return self.discard[len(self.discard) - 1 - draw :]

    def hand_after(self, draw: Draw) -> Counter[Card]:
        return Counter(self.hand) + Counter(self.taken(draw))

    def deepest(self, draw: Draw) -> Card | None:
        """The card a pick from below the top must use this turn."""
        if draw == "stock" or draw == 0:
            return None
        return self.discard[len(self.discard) - 1 - draw]
