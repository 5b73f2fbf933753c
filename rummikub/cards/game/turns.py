"""A card turn built for a player: from cards to lay, from a whole new table, from a
strategy's choices; and the next hand dealt from the game's seed when one ends.

``rummikub game apply`` (its options) and ``rummikub play --game`` (the lines typed) read
what the player means and build the turn here; the engine judges it afterwards. A mistake
is a :class:`RummikubError` whose message names the option it came from, as both say it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from rummikub.cards.cards import Card, format_cards, sort_key
from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState, TurnError
from rummikub.cards.game.record import CardRecord, Hand, Layoff, Turn
from rummikub.cards.melds import CardMeld, RawCardMeld
from rummikub.cards.position import CardPosition, Draw
from rummikub.core.arguments import described, instance
from rummikub.core.errors import RummikubError

if TYPE_CHECKING:  # the strategies (and the solver) load only when a turn is built
    from rummikub.cards.game.strategies import Lay

__all__ = ["dealt_next", "lay_cards", "turn_of_lay", "whole_table"]


def turn_of_lay(chosen: Draw, lay: Lay, claim: int | None = None) -> Turn:
    """The turn of a strategy's choices: its draw, its lay-down (:class:`Lay`: the new
    melds, the lay-offs and the discard) and the claim made meanwhile."""
    return Turn(
        chosen,
        None,
        tuple(m.raw() for m in lay.melds),
        tuple(Layoff(i, m.raw()) for i, m in lay.layoffs),
        lay.discard,
        claim,
    )


def dealt_next(record: CardRecord, state: CardGameState) -> tuple[CardRecord, CardGameState]:
    """After a hand ends, the next one dealt from the game's seed (a real table deals with
    'rummikub game deal'; the scores of a hand the engine cannot count come first)."""
    if not state.hand_over or state.over or record.seed is None:
        return record, state
    if state.results[-1].scores is None:
        return record, state
    deal = engine.next_deal(state)
    return record.with_hands((*record.hands, Hand(deal))), engine.start_hand(state, deal)


def lay_cards(state: CardGameState, cards: Sequence[Card], rest: Turn) -> Turn:
    """The turn that lays exactly ``cards`` after the claim and the draw, arranged by the card
    solver into new melds and lay-offs, then discards the discard (``rest``: the turn's
    draw, card drawn, discard, claim and penalty; its melds are not read). The engine judges it
    afterwards (the opening, the contract, the deepest card of a pick). Raises
    :class:`RummikubError` when the cards are not the player's or cannot all be laid."""
    from rummikub.cards.game.strategies import lay_of
    from rummikub.cards.solver import solve

    instance(rest, Turn, "rest", "Turn(draw='stock')")
    if isinstance(cards, str) or not all(isinstance(c, Card) for c in cards):
        raise TypeError(
            f"cards must be a sequence of Card (e.g. parse_cards('7S 8S')), got {described(cards)}"
        )
    draw, discard = rest.draw, rest.discard
    if not cards:
        raise RummikubError("--lay: give the cards to lay, e.g. --lay '7S 8S 9S'")
    try:
        after = engine.draw_and_claim(state, rest)
    except TurnError as error:
        raise RummikubError(f"--lay: {'; '.join(error.problems)}") from None
    if after.hand_over:
        raise RummikubError("--lay: the stock ran out and the hand ended: nothing more is laid")
    seat = after.to_move
    position = after.position(seat) if after.hands[seat] is not None else None
    held = (
        position.hand_after(draw)
        if position is not None
        else Counter(cards) + Counter([discard] if discard else [])
    )
    given = Counter(cards) + Counter([discard] if discard is not None else [])
    missing = given - held
    if missing:
        raise RummikubError(
            f"--lay: not in {after.players[seat]}'s hand: "
            f"{format_cards(sorted(missing.elements(), key=sort_key))}"
        )
    # The solver lays the cards given (and discards the one given) from a hand of just
    # those: the most it can lay is all of them.
    hand = tuple(sorted(given.elements(), key=sort_key))
    trial = CardPosition(
        after.rules, hand, after.table, after.opened[seat], after.deal_number, (), True
    )
    turn = solve(trial).best
    laid = Counter(turn.played)
    if laid != Counter(cards) or turn.discard != discard:
        most = format_cards(sorted(turn.played, key=sort_key)) or "nothing"
        raise RummikubError(
            f"--lay {format_cards(cards)}: these cards cannot all be laid (at most {most}); "
            "give the melds with --meld and --layoff"
        )
    lay = lay_of(turn, after.table)
    return replace(
        rest,
        melds=tuple(_written(m) for m in lay.melds),
        layoffs=tuple(Layoff(index, _written(meld)) for index, meld in lay.layoffs),
    )


def whole_table(state: CardGameState, melds: Sequence[RawCardMeld], rest: Turn) -> Turn:
    """The turn that makes ``melds`` the whole new table, as ``check --after`` takes one:
    every old meld at its place (a changed one is a lay-off on it), then the new melds
    (``rest``: the turn's draw, discard and claim, as for :func:`lay_cards`). Raises
    :class:`RummikubError` for a table shorter than the old one."""
    old = state.table
    if len(melds) < len(old):
        raise RummikubError(
            f"the new table has {len(melds)} melds, the table {len(old)}: give every old meld "
            "at its place, then the new ones"
        )
    layoffs = tuple(
        Layoff(index, meld)
        for index, meld in enumerate(melds[: len(old)])
        if meld.cards != old[index].raw().cards
    )
    return replace(rest, melds=tuple(melds[len(old) :]), layoffs=layoffs)


def _written(meld: CardMeld) -> RawCardMeld:
    return meld.raw()
