"""Duels: two strategies on the same deals, the seats swapped, so that the luck of the deal
cancels.

A duel of strategy A against strategy B plays every deal once per *seating*: the distinct rotations
of the seats, A and B filling them in turn as :func:`rummikub.tiles.game.simulate.lineup_of` does
(A, B, A, B, ... from the first seat to move). At 2 players that is the mirror pair ``A B`` / ``B
A``; at 3 players ``A B A`` / ``B A A`` / ``A A B`` (A holds two seats of three in every game); at 4
players ``A B A B`` / ``B A B A`` (the two other rotations repeat these, so they are not played
again). ``N`` games are ``N / k`` deals of ``k`` seatings.

The report (:func:`summarize`, pure arithmetic on the games, read in index order):

* A's win rate over the games, a tie for the win counted as a share, with its 95% Wilson
  interval (as ``simulate``), beside what equal players would get (A's share of the seats);
* the mean score difference A - B (per game: the mean score of A's seats less that of B's),
  with a *paired* 95% interval: the mean of each deal's games is one value, and the
  interval is the normal one (±1.96 standard errors) over the deals;
* decisive deals (one strategy won the game in every seating) and split deals;
* the game length, and the endings.

A game whose strategy failed (:class:`~rummikub.tiles.game.simulate.GameFailure`) is listed, and its
whole deal is left out of the figures, so that every deal counted is a whole set of seatings.

The duel itself is written once for every game (:mod:`rummikub.play.duel`); this module is
the tile game's setup of it (the rules, the rack size, the endings).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummikub.play.duel import CSV_HEADER as CSV_HEADER
from rummikub.play.duel import MAX_GAMES as MAX_GAMES
from rummikub.play.duel import ROLES as ROLES
from rummikub.play.duel import DuelReport as DuelReport
from rummikub.play.duel import Pairing
from rummikub.play.duel import a_share as a_share
from rummikub.play.duel import deal_seed as deal_seed
from rummikub.play.duel import duel as duel
from rummikub.play.duel import score_difference as score_difference
from rummikub.play.duel import seatings as seatings
from rummikub.play.duel import summarize as summarize
from rummikub.play.duel import to_csv as to_csv
from rummikub.play.duel import to_text as to_text
from rummikub.tiles.game.plugin import TileGame
from rummikub.tiles.game.record import RACK_SIZE
from rummikub.tiles.game.simulate import Setup
from rummikub.tiles.rules import STANDARD, Rules, rules_data

__all__ = [
    "MAX_GAMES",
    "DuelReport",
    "DuelSetup",
    "deal_seed",
    "duel",
    "seatings",
    "summarize",
    "to_csv",
    "to_text",
]


@dataclass(frozen=True, slots=True)
class DuelSetup(Pairing):
    """What every game of a duel shares: strategy ``a`` against strategy ``b`` (by name, as
    :func:`rummikub.tiles.game.strategies.strategy` knows them; the same name twice is allowed)."""

    a: str
    b: str
    players: int = 2
    rules: Rules = STANDARD
    rack_size: int = RACK_SIZE
    seed: int = 0

    ending_names = ("went_out", "pool_empty")

    def __post_init__(self) -> None:
        # The same checks as a simulation's: players, known strategies, the box's size.
        Setup(self.pair(), self.players, self.rules, self.rack_size, self.seed)

    @property
    def game(self) -> TileGame:
        return TileGame(self.rules, self.rack_size)

    def setup_data(self) -> dict[str, Any]:
        return {"rack_size": self.rack_size, "rules": rules_data(self.rules)}

    def endings_line(self, endings: dict[str, int]) -> str:
        return f"Endings: {endings['went_out']} went out, {endings['pool_empty']} pool empty"
