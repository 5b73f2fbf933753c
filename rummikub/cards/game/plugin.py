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

from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState, GameResult
from rummikub.cards.game.record import CardRecord
from rummikub.cards.game.view import CardView, determinize, view_of
from rummikub.cards.rules import CardRules
from rummikub.core.errors import RummikubError

__all__ = ["CardGame"]


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

    # -- the determinized Monte Carlo (branch cardplay): what a seat cannot see, dealt ------

    def determinize(self, view: CardView, rng: random.Random) -> CardGameState:
        return determinize(view, rng)


def _result(state: CardGameState) -> GameResult:
    if state.result is None:
        raise RummikubError("the game is not over")
    return state.result
