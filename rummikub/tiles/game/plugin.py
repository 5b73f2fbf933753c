"""The tile game as the game layer sees it (:class:`rummikub.play.protocol.Game`).

The rules of play stay in their modules (:mod:`.engine` the deal, the turns and the ending,
:mod:`.view` what a player knows); :class:`TileGame` only hands the layer's questions to
them, for one rule set and one size of deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rummikub.core.errors import RummikubError
from rummikub.play.registry import Registry
from rummikub.play.selfplay import GameFailure, Seating
from rummikub.tiles.game.engine import (
    GameState,
    Replay,
    TurnError,
    advance,
    deal,
    replay,
    start,
    turn_of_move,
)
from rummikub.tiles.game.record import RACK_SIZE, Record, Result, Turn
from rummikub.tiles.game.strategies import REGISTRY, Strategy
from rummikub.tiles.game.view import View, determinize, view_of
from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules

if TYPE_CHECKING:
    from rummikub.tiles.game.simulate import GameSummary

__all__ = ["TileGame", "TileView"]

#: What a seat knows: its position (own rack, the table) and the public rest.
TileView = tuple[Position, View]


@dataclass(frozen=True, slots=True)
class TileGame:
    """The tile game under ``rules``, each rack dealt ``rack_size`` tiles."""

    rules: Rules
    rack_size: int = RACK_SIZE

    @property
    def name(self) -> str:
        return "tiles"

    def deal(self, names: Sequence[str], seed: int) -> Record:
        return deal(list(names), self.rules, seed, self.rack_size)

    def start(self, record: Record) -> GameState:
        return start(record)

    def players(self, state: GameState) -> int:
        return len(state.players)

    def to_move(self, state: GameState) -> int:
        return state.to_move

    def over(self, state: GameState) -> bool:
        return state.over

    def winners(self, state: GameState) -> tuple[int, ...]:
        return _result(state).winners

    def scores(self, state: GameState) -> tuple[float, ...]:
        scores = _result(state).scores
        if scores is None:
            raise RummikubError("the scores are unknown: a rack is not known")
        return scores

    def view(self, state: GameState, seat: int) -> TileView:
        return view_of(state, seat)

    def determinize(self, view: TileView, rng: random.Random) -> GameState:
        return determinize(*view, rng)

    def play_turn(self, state: GameState, players: Sequence[Strategy]) -> tuple[GameState, Turn]:
        seat = state.to_move
        move = players[seat](*view_of(state, seat))
        turn = turn_of_move(state, move)
        return advance(state, turn), turn

    def apply(self, state: GameState, turn: Turn) -> GameState:
        return advance(state, turn)

    # -- records: replaying one

    def replay(self, record: Record) -> Replay:
        return replay(record)

    # -- self-play (rummikub.play.selfplay) --------------------------------------------------

    #: The players by name, the salt of a run's seeds; no limit on the turns (the rules end
    #: every tile game: the pool runs out, then every player passes).
    strategies: ClassVar[Registry[Strategy]] = REGISTRY
    seed_salt: ClassVar[str] = "rummikub-simulate"
    max_turns: ClassVar[int | None] = None

    def moment(self, state: GameState) -> tuple[int | None, int]:
        return None, state.turns + 1

    def refused(self, error: Exception) -> tuple[str, ...] | None:
        return error.problems if isinstance(error, TurnError) else None

    def next_hand(self, state: GameState) -> GameState | None:
        return None  # a tile game is one hand

    def record_of(
        self, record: Record, hands: Sequence[tuple[GameState, Sequence[Turn]]], state: GameState
    ) -> Record:
        ((_, turns),) = hands
        return record.with_turns(list(turns), state.result)

    def summary(self, seating: Seating, record: Record, state: GameState) -> GameSummary:
        from rummikub.tiles.game.simulate import GameSummary

        result = _result(state)
        assert result.scores is not None
        ending, winners, scores = result.ending, result.winners, result.scores
        exhausted = state.pool_count == 0
        index, seed, seats = seating.index, seating.seed, seating.seats
        return GameSummary(index, seed, seats, ending, winners, scores, state.turns, exhausted)

    def read_summary(self, data: object) -> GameSummary:
        from rummikub.tiles.game.simulate import GameSummary

        return GameSummary.from_data(data)

    def failed_summary(self, seating: Seating, failure: GameFailure) -> GameSummary:
        from rummikub.tiles.game.simulate import GameSummary

        turns = failure.turn - 1  # the turns before the failure
        return GameSummary(
            seating.index, seating.seed, seating.seats, "failed", (), (), turns, False, failure
        )


def _result(state: GameState) -> Result:
    if state.result is None:
        raise RummikubError("the game is not over")
    return state.result
