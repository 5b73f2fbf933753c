"""What a card player knows (CARDS.md section 7): their own hand, the table and who laid
each card, the discard pile, every hand's size, who has opened, the stock's size, the
scores so far and every turn played; never another hand or the stock's order.

:func:`view_of` builds a :class:`CardView` from a
:class:`~rummikub.cards.game.engine.CardGameState`, reading only what is public and the
seat's own hand; a strategy sees nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummikub.cards.cards import Card
from rummikub.cards.game.engine import CardGameState, HandResult, Seen
from rummikub.cards.melds import CardMeld
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.rules import CardRules
from rummikub.core.errors import RummikubError

__all__ = ["CardView", "view_of"]


@dataclass(frozen=True, slots=True)
class CardView:
    """What seat ``seat`` knows of the game."""

    seat: int
    rules: CardRules
    hand: tuple[Card, ...]
    table: tuple[CardMeld, ...]
    #: Who laid each card of each table meld.
    owners: tuple[tuple[int, ...], ...]
    #: The discard pile, bottom to top; its bottom ``dead`` cards are dead.
    pile: tuple[Card, ...]
    dead: int
    counts: tuple[int, ...]
    opened: tuple[bool, ...]
    stock_count: int
    #: The hand in play (from 0) and, in a contract game, its deal (1-7).
    hand_number: int
    deal: int | None
    to_move: int
    #: The draw made this turn by the player to move (None: still to make).
    drawn: Draw | None
    #: This hand's turns as the table saw them, and the hands finished before it.
    history: tuple[Seen, ...]
    results: tuple[HandResult, ...]

    @property
    def players(self) -> int:
        return len(self.counts)

    def opponents(self) -> tuple[int, ...]:
        """The hand sizes of the other players."""
        return tuple(n for s, n in enumerate(self.counts) if s != self.seat)

    def live_pile(self) -> tuple[Card, ...]:
        return self.pile[self.dead :]

    def position(self) -> CardPosition:
        """The seat's position for the solver and the checker: before the draw (the pile to
        pick from, ``drawn = False``), after a pick (the same, the pick to be made) or
        after a stock draw (the card in hand)."""
        drawn = self.seat != self.to_move or self.drawn == "stock"
        return CardPosition(
            self.rules,
            self.hand,
            self.table,
            self.opened[self.seat],
            self.deal,
            self.live_pile(),
            drawn,
        )


def view_of(state: CardGameState, seat: int | None = None) -> CardView:
    """What ``seat`` (default: the player to move) knows of ``state``; only its own hand
    is read, never another's or the stock."""
    seat = state.to_move if seat is None else seat
    hand = state.hands[seat]
    if hand is None:
        raise RummikubError(f"the hand of {state.players[seat]} is not known")
    return CardView(
        seat=seat,
        rules=state.rules,
        hand=hand,
        table=state.table,
        owners=state.owners,
        pile=state.pile,
        dead=state.dead,
        counts=state.counts,
        opened=state.opened,
        stock_count=state.stock_count,
        hand_number=state.hand,
        deal=state.deal_number,
        to_move=state.to_move,
        drawn=state.drawn,
        history=state.history,
        results=state.results,
    )
