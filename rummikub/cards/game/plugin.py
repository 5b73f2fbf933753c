"""A card rummy as the game layer sees it (:class:`rummikub.play.protocol.Game`).

The rules of play stay in their modules (:mod:`.engine` the deal, the turn in its steps,
each hand's scores and the game's end; :mod:`.view` what a player knows);
:class:`CardGame` only hands the layer's questions to them, for one rule set. A game is
several hands: the turn that finds a hand over deals the next one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState, GameResult
from rummikub.cards.game.record import CardRecord, Deal, Hand, Turn
from rummikub.cards.game.strategies import REGISTRY, CardStrategy
from rummikub.cards.game.view import CardView, view_of
from rummikub.cards.game.view import determinize as deal_unseen
from rummikub.cards.rules import CardRules
from rummikub.core.errors import RummikubError
from rummikub.play.registry import Registry
from rummikub.play.selfplay import GameFailure, Seating

if TYPE_CHECKING:
    from rummikub.cards.game.simulate import CardGameSummary

__all__ = ["MAX_TURNS", "CardGame"]

#: A hand stopped after this many turns costs its game (a failure, never a silent end).
MAX_TURNS = 2000


@dataclass(frozen=True, slots=True)
class CardGame:
    """The card rummy of ``rules`` (its ``game`` names it)."""

    rules: CardRules

    @property
    def name(self) -> str:
        return self.rules.game

    def deal(self, names: Sequence[str], seed: int) -> CardRecord:
        return engine.new_game(list(names), self.rules, seed)

    def start(self, record: CardRecord) -> CardGameState:
        return engine.start(record)

    def players(self, state: CardGameState) -> int:
        return len(state.players)

    def to_move(self, state: CardGameState) -> int:
        return state.to_move

    def over(self, state: CardGameState) -> bool:
        return state.over

    def winners(self, state: CardGameState) -> tuple[int, ...]:
        return _result(state).winners

    def scores(self, state: CardGameState) -> tuple[float, ...]:
        return tuple(float(t) for t in _result(state).totals)

    def view(self, state: CardGameState, seat: int) -> CardView:
        return view_of(state, seat)

    def apply(self, state: CardGameState, turn: Turn) -> CardGameState:
        return engine.advance(state, turn)

    # -- the determinized Monte Carlo: what a seat cannot see, dealt --------------------------

    def determinize(self, view: CardView, rng: random.Random) -> CardGameState:
        return deal_unseen(view, rng)

    # -- records: replaying one

    def replay(self, record: CardRecord) -> engine.Replay:
        return engine.replay(record)

    # -- self-play (rummikub.play.selfplay) --------------------------------------------------

    def play_turn(
        self, state: CardGameState, players: Sequence[CardStrategy]
    ) -> tuple[CardGameState, Turn]:
        from rummikub.cards.game.simulate import play_turn

        return play_turn(state, players)

    #: The players by name, the salt of a run's seeds, and the turns a hand may take.
    strategies: ClassVar[Registry[CardStrategy]] = REGISTRY
    seed_salt: ClassVar[str] = "rummikub-cards-simulate"
    max_turns: ClassVar[int | None] = MAX_TURNS

    def moment(self, state: CardGameState) -> tuple[int | None, int]:
        return state.hand + 1, state.turns + 1

    def refused(self, error: Exception) -> tuple[str, ...] | None:
        return error.problems if isinstance(error, engine.TurnError) else None

    def next_hand(self, state: CardGameState) -> CardGameState | None:
        if not state.hand_over or state.over:
            return None
        return engine.start_hand(state, engine.next_deal(state))

    def record_of(
        self,
        record: CardRecord,
        hands: Sequence[tuple[CardGameState, Sequence[Turn]]],
        state: CardGameState,
    ) -> CardRecord:
        played = []
        for number, (first, turns) in enumerate(hands):
            # The first hand's deal is the record's; the next ones were dealt from the
            # game's seed into their first state.
            dealt = record.hands[0].deal if number == 0 else _deal_of(first)
            played.append(Hand(dealt, tuple(turns), state.results[number].scores))
        return record.with_hands(played)

    def summary(
        self, seating: Seating, record: CardRecord, state: CardGameState
    ) -> CardGameSummary:
        from rummikub.cards.game.simulate import CardGameSummary

        result, hands = _result(state), record.hands
        turns = sum(len(hand.turns) for hand in hands)
        stock_endings = sum(1 for r in state.results if r.out is None)
        rummies = sum(1 for r in state.results if r.rummy)
        claims = sum(1 for hand in hands for t in hand.turns if t.claim is not None)
        index, seed, seats = seating.index, seating.seed, seating.seats
        totals, played = result.totals, len(state.results)
        return CardGameSummary(
            index,
            seed,
            seats,
            result.winners,
            totals,
            played,
            turns,
            stock_endings,
            rummies,
            claims,
        )

    def read_summary(self, data: object) -> CardGameSummary:
        from rummikub.cards.game.simulate import CardGameSummary

        return CardGameSummary.from_data(data)

    def failed_summary(self, seating: Seating, failure: GameFailure) -> CardGameSummary:
        from rummikub.cards.game.simulate import CardGameSummary

        return CardGameSummary(
            seating.index, seating.seed, seating.seats, (), (), 0, 0, 0, error=failure
        )


def _deal_of(state: CardGameState) -> Deal:
    """The deal of the hand ``state`` starts (as :func:`engine.start_hand` laid it out)."""
    return Deal(state.hands, state.pile[0], state.stock)


def _result(state: CardGameState) -> GameResult:
    if state.result is None:
        raise RummikubError("the game is not over")
    return state.result
