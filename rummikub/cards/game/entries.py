"""What the record commands of a card game change (``rummikub game`` on a card record): a
turn added (and the next hand dealt from the seed when it ends one), the last entry taken
back, a strategy's turn worked out, and at a real table the next deal and a hand's scores.

Each refuses what the game's state does not allow with an :class:`EntryError` in words
(the command line names the record or the option before it); the engine judges the turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from rummikub.cards.cards import Card, sort_key
from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState
from rummikub.cards.game.record import CardRecord, Deal, Hand, Turn
from rummikub.cards.game.turns import dealt_next, turn_of_lay
from rummikub.cards.game.view import view_of
from rummikub.cards.position import Draw
from rummikub.core.errors import RummikubError

if TYPE_CHECKING:  # the strategies (and the solver) load only when one is asked
    from rummikub.cards.game.strategies import CardStrategy, Lay

__all__ = [
    "EntryError",
    "deal_at_table",
    "dealable",
    "enter_hand_scores",
    "playable",
    "played_on",
    "scores_wanted",
    "strategy_turn",
    "undone",
]


class EntryError(RummikubError):
    """An entry the record's game does not allow now."""


def playable(state: CardGameState) -> CardGameState:
    """The state, refused where no turn can be played: the game over, a hand waiting for its
    scores or the next deal."""
    if state.over:
        raise EntryError("the game is over")
    if state.hand_over:
        if state.results[-1].scores is None:
            raise EntryError(
                f"hand {state.hand + 1} is over and its scores are not known: enter them "
                "with 'rummikub game score'"
            )
        raise EntryError(
            f"hand {state.hand + 1} is over: deal the next one with 'rummikub game deal'"
        )
    return state


def played_on(
    record: CardRecord, state: CardGameState, turn: Turn
) -> tuple[CardRecord, CardGameState]:
    """The record and the state after ``turn`` (raises the engine's ``TurnError``); after a
    hand's last turn, the next hand is dealt from the game's seed."""
    after = engine.advance(state, turn)
    return dealt_next(record.with_turn(turn), after)


def undone(record: CardRecord) -> tuple[CardRecord, str]:
    """The record without its last entry, and the entry in words: the last turn (with the
    next hand, where that turn ended a hand and it was dealt from the seed), or the last
    deal or scores entered at a real table."""
    hands = list(record.hands)
    what: str
    last = hands[-1] if hands else None
    if last is not None and last.scores is not None and record.seed is None:
        hands[-1] = replace(last, scores=None)
        what = f"the scores of hand {len(hands)}"
    elif last is not None and last.turns:
        hands[-1] = replace(last, turns=last.turns[:-1], scores=None)
        what = f"hand {len(hands)}, turn {len(last.turns)}"
    elif len(hands) > 1 and record.seed is not None:
        hands.pop()
        ended = hands[-1]
        hands[-1] = replace(ended, turns=ended.turns[:-1], scores=None)
        what = f"hand {len(hands)}, turn {len(ended.turns)} (and the deal of hand {len(hands) + 1})"
    elif len(hands) > 1:
        hands.pop()
        what = f"the deal of hand {len(hands) + 1}"
    else:
        raise EntryError("no turn to undo")
    return record.with_hands(hands), what


def strategy_turn(state: CardGameState, chosen: CardStrategy) -> tuple[Draw, Lay, Turn]:
    """The turn the strategy ``chosen`` plays, seeing what the player to move sees: its
    draw, its lay-down and the whole turn."""
    draw = chosen.draw(view_of(state))
    after = engine.draw(state, draw)
    lay = chosen.lay(view_of(after, state.to_move))
    return draw, lay, turn_of_lay(draw, lay)


def dealable(record: CardRecord, state: CardGameState) -> None:
    """Refuse a real table's next deal where the game does not want one."""
    if record.me is None:
        raise EntryError("a game dealt from a seed deals its hands itself")
    if state.over:
        raise EntryError("the game is over")
    if not state.hand_over:
        raise EntryError(f"hand {state.hand + 1} is still being played")
    if state.results[-1].scores is None:
        raise EntryError(f"enter the scores of hand {state.hand + 1} first ('rummikub game score')")


def deal_at_table(
    record: CardRecord, state: CardGameState, hand: Sequence[Card], up: Card
) -> tuple[CardRecord, CardGameState]:
    """A real table's next hand (:func:`dealable`): the hand dealt to the one using this
    program and the card turned up (the others' unknown); the record and the state after."""
    hands: list[tuple[Card, ...] | None] = [None] * len(state.players)
    assert record.me is not None
    hands[record.me] = tuple(sorted(hand, key=sort_key))
    new = Deal(tuple(hands), up)
    try:
        after = engine.start_hand(state, new)
    except RummikubError as error:
        raise EntryError(str(error)) from None
    return record.with_hands((*record.hands, Hand(new))), after


def scores_wanted(state: CardGameState) -> None:
    """Refuse a hand's scores where they are not wanted: only a hand that has ended and
    whose scores the engine could not count takes them."""
    if not state.hand_over or state.results[-1].scores is not None:
        raise EntryError(
            "scores are entered only for a hand that has ended and whose scores "
            "the engine could not count"
        )


def enter_hand_scores(
    record: CardRecord, state: CardGameState, scores: tuple[int, ...]
) -> tuple[CardRecord, CardGameState]:
    """The record and the state with the last hand's ``scores`` (:func:`scores_wanted`),
    one per player, as the game's scoring rule allows them (the engine's judgement,
    :func:`engine.score_problems`, the one the record's reader makes)."""
    if len(scores) != len(state.players):
        raise EntryError(f"{len(scores)} scores for {len(state.players)} players")
    try:
        engine.enter_scores(state, scores)
    except engine.ScoreError as error:
        raise EntryError("; ".join(error.problems)) from None
    hands = list(record.hands)
    hands[-1] = replace(hands[-1], scores=scores)
    record = record.with_hands(hands)
    return record, engine.replay(record).state
