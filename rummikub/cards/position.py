"""A card position (CARDS.md section 4): the game, the hand, the table, and the draw."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rummikub.cards.cards import Card, card_problem, sort_key, type_of
from rummikub.cards.melds import CardMeld
from rummikub.cards.rules import CONTRACTS, CardRules
from rummikub.core.errors import MeldError, PositionError

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

    def check_built(self) -> None:
        """Judge the position as the puzzle reader does (one place, :func:`problems`):
        :class:`TypeError` for a field of the wrong type, :class:`PositionError` with every
        problem of a position that no deal can give (a card the pack does not hold as often,
        a joker in a game without, a table meld not valid in the game, a missing deal)."""
        wrong = _type_problem(self)
        if wrong is not None:
            raise TypeError(wrong)
        found = problems(self)
        if found:
            raise PositionError(found)

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


# -- judging a position: the one place (the puzzle reader and the API ask here) ---------


def no_jokers(rules: CardRules) -> str:
    """A joker in a game played without: the words."""
    return f"{rules.game} is played without jokers"


def too_often(counts: Counter[Card], rules: CardRules) -> list[str]:
    """Every card used more often than the pack holds it, in hand order."""
    return [
        f"{card} is used {counts[card]} times in hand, table and discard pile, "
        f"but the {rules.game} pack has {rules.copies(card)}"
        for card in sorted(counts, key=sort_key)
        if counts[card] > rules.copies(card)
    ]


def deal_problem(deal: object, rules: CardRules) -> str | None:
    """What is wrong with the deal number of a position in ``rules``, if anything: a
    contract game needs one (1-7); another game has no deals to number."""
    if rules.opening == "contract":
        if deal is None:
            return f"missing key 'deal' (1-7): {rules.game} needs the deal for its contract"
        if isinstance(deal, bool) or not isinstance(deal, int) or deal not in CONTRACTS:
            return f"deal: expected a deal number 1-7, got {deal!r}"
        return None
    if deal is not None:
        return (
            f"deal {deal!r}: {rules.game} has no contracts (the deal goes with a contract "
            "game such as continental or california)"
        )
    return None


def problems(position: CardPosition) -> list[str]:
    """Every problem of a position whose fields have their types (see
    :meth:`CardPosition.check_built`)."""
    rules = position.rules
    found: list[str] = []
    cards = [*position.hand, *position.discard, *(c for m in position.table for c in m.cards)]
    found += _card_problems(cards, rules)
    for index, meld in enumerate(position.table):
        try:
            again = meld.raw().read(rules)
        except MeldError as error:
            found.append(f"table[{index}] {str(meld)!r}: {error}")
            continue
        if again.raw() != meld.raw():
            found.append(f"table[{index}] {str(meld)!r}: reads as {str(again)!r} in {rules.game}")
    if not found:
        found += too_often(Counter(cards), rules)
    deal = deal_problem(position.deal, rules)
    if deal is not None:
        found.append(deal)
    return found


def _card_problems(cards: Iterable[Card], rules: CardRules) -> list[str]:
    found = []
    for card in cards:
        problem = card_problem(card)
        if problem is not None:
            found.append(problem)
        elif card.is_joker and rules.jokers == 0:
            found.append(f"{card}: {no_jokers(rules)}")
    return list(dict.fromkeys(found))


def _type_problem(position: CardPosition) -> str | None:
    """The first field of the wrong type, in words."""
    if not isinstance(position.rules, CardRules):
        return (
            f"CardPosition.rules must be a CardRules (e.g. preset('rummy')), "
            f"got {type_of(position.rules)}"
        )
    for name in ("hand", "discard"):
        value = getattr(position, name)
        if not isinstance(value, tuple):
            return (
                f"CardPosition.{name} must be a tuple of cards (e.g. parse_cards('7S 8S')), "
                f"got {type_of(value)}"
            )
    if not isinstance(position.table, tuple) or not all(
        isinstance(meld, CardMeld) for meld in position.table
    ):
        bad = (
            position.table
            if not isinstance(position.table, tuple)
            else next(m for m in position.table if not isinstance(m, CardMeld))
        )
        return (
            "CardPosition.table must be a tuple of CardMeld (e.g. read_meld('7H 7D 7C', rules)), "
            f"got {type_of(bad)}"
        )
    for name in ("opened", "drawn"):
        value = getattr(position, name)
        if not isinstance(value, bool):
            return f"CardPosition.{name} must be True or False, got {type_of(value)}"
    return None
