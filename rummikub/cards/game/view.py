"""What a card player knows (CARDS.md section 7): their own hand, the table and who laid
each card, the discard pile, every hand's size, who has opened, the stock's size, the
scores so far and every turn played; never another hand or the stock's order.

:func:`view_of` builds a :class:`CardView` from a
:class:`~rummikub.cards.game.engine.CardGameState`, reading only what is public and the
seat's own hand; a strategy sees nothing else.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from rummikub.cards.cards import Card, sort_key
from rummikub.cards.game.engine import CardGameState, HandResult, Seen, pack
from rummikub.cards.melds import CardMeld
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.rules import CardRules
from rummikub.core import arguments
from rummikub.core.arguments import instance
from rummikub.core.errors import RummikubError

__all__ = ["CardView", "check_view", "determinize", "known_cards", "seat_of", "unseen", "view_of"]


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
    #: Public too, for a state rebuilt from the view (:func:`determinize`): the points each
    #: seat laid this hand and whether it has laid a card, the turns taken in the hand and
    #: how often its stock was turned over.
    laid: tuple[int, ...] = ()
    has_laid: tuple[bool, ...] = ()
    turns: int = 0
    turned: int = 0

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


def seat_of(state: object, seat: object) -> int:
    """**The** check of a card game's ``state`` and a ``seat`` of it (None: the player to
    move), for every public function that takes them."""
    found = instance(state, CardGameState, "state", "replay(record).state")
    return found.to_move if seat is None else arguments.seat(seat, len(found.players))


def check_view(view: object) -> CardView:
    """**The** check of what a seat knows, as :func:`view_of` gives it."""
    return instance(view, CardView, "view", "view_of(state)")


def view_of(state: CardGameState, seat: int | None = None) -> CardView:
    """What ``seat`` (default: the player to move) knows of ``state``; only its own hand
    is read, never another's or the stock."""
    seat = seat_of(state, seat)
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
        laid=state.laid,
        has_laid=state.has_laid,
        turns=state.turns,
        turned=state.turned,
    )


# -- what a seat cannot see, dealt at random (the determinized Monte Carlo) ---------------


def known_cards(view: CardView) -> tuple[Counter[Card], ...]:
    """The cards of each other hand that ``view``'s seat knows are there: those the hand
    took from the discard pile this hand (:attr:`Seen.taken`, seen by all), less the cards
    of their kinds it has laid or discarded since. The seat's own entry is empty.

    A card taken with a "May I?" claim is not in the history (:class:`Seen` of a turn
    records the mover's pick only): it counts among the unseen cards, as the stock's do.
    """
    check_view(view)
    known: list[Counter[Card]] = [Counter() for _ in view.counts]
    for seen in view.history:
        if seen.seat == view.seat:
            continue
        hand = known[seen.seat]
        hand.update(seen.taken)
        used = [c for meld in seen.melds for c in meld.cards]
        used += [c for _, cards in seen.layoffs for c in cards]
        if seen.discard is not None:
            used.append(seen.discard)
        hand.subtract(used)
        known[seen.seat] = +hand
    for seat, count in enumerate(view.counts):
        # Never more than the hand holds (a hand that laid a copy of a kind it took keeps
        # the other copy known, which a stricter reading would not).
        if known[seat].total() > count:
            kept = sorted(known[seat].elements(), key=sort_key)[:count]
            known[seat] = Counter(kept)
    return tuple(known)


def unseen(view: CardView) -> list[Card]:
    """The cards out of ``view``'s seat's sight, in pack order: the pack less its own hand,
    the table and the whole discard pile (its dead cards too), less the cards it knows to
    be in another hand (:func:`known_cards`)."""
    check_view(view)
    seen = Counter(view.hand)
    seen.update(c for meld in view.table for c in meld.cards)
    seen.update(view.pile)
    for cards in known_cards(view):
        seen.update(cards)
    left = Counter(pack(view.rules)) - seen
    return sorted(left.elements(), key=sort_key)


def determinize(view: CardView, rng: random.Random) -> CardGameState:
    """One whole state consistent with ``view`` (CARDS.md section 7, what a player knows):
    the unseen cards (:func:`unseen`) shuffled by ``rng`` alone and dealt into the other
    hands, each after the cards known to be in it, to its known size, the rest the stock
    in draw order. Every unseen card is taken to be equally likely anywhere (nobody's
    discards or passes are read as hints). The players are named ``P1``, ``P2``, ...; the
    game's seed is not known, so no next hand can be dealt: the state is for one hand."""
    cards = unseen(view)
    known = known_cards(view)
    needed = sum(n - known[s].total() for s, n in enumerate(view.counts) if s != view.seat)
    if needed + view.stock_count != len(cards):
        raise RummikubError(
            f"the other hands ({needed} unknown cards) and the stock ({view.stock_count}) "
            f"do not hold the {len(cards)} cards out of sight"
        )
    rng.shuffle(cards)
    hands: list[tuple[Card, ...] | None] = []
    for seat, count in enumerate(view.counts):
        if seat == view.seat:
            hands.append(view.hand)
            continue
        mine = list(known[seat].elements())
        take = count - len(mine)
        mine += cards[:take]
        del cards[:take]
        hands.append(tuple(sorted(mine, key=sort_key)))
    return CardGameState(
        rules=view.rules,
        players=tuple(f"P{s + 1}" for s in range(view.players)),
        hand=view.hand_number,
        results=view.results,
        hands=tuple(hands),
        counts=view.counts,
        table=view.table,
        owners=view.owners,
        pile=view.pile,
        dead=view.dead,
        stock=tuple(cards),
        stock_count=view.stock_count,
        opened=view.opened,
        laid=view.laid or (0,) * view.players,
        has_laid=view.has_laid or (False,) * view.players,
        turns=view.turns,
        history=view.history,
        drawn=view.drawn,
        turned=view.turned,
    )
