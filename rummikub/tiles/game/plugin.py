"""The tile game as the game layer sees it (:class:`rummikub.play.protocol.Game`).

The rules of play stay in their modules (:mod:`.engine` the deal, the turns and the ending,
:mod:`.view` what a player knows); :class:`TileGame` only hands the layer's questions to
them, for one rule set and one size of deal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from rummikub.core.errors import RummikubError
from rummikub.tiles.game.engine import (
    GameState,
    Replay,
    advance,
    deal,
    replay,
    start,
    turn_of_move,
)
from rummikub.tiles.game.record import RACK_SIZE, Record, Result, Turn
from rummikub.tiles.game.strategies import Strategy
from rummikub.tiles.game.view import View, determinize, view_of
from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules

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


def _result(state: GameState) -> Result:
    if state.result is None:
        raise RummikubError("the game is not over")
    return state.result
