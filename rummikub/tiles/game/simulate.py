"""Self-play: whole games between strategies, and what they show.

:func:`play_game` plays one seeded game to its end. :func:`simulate` plays many, in this
process or in parallel through Dask distributed (:mod:`rummikub.core.cluster`, an optional
extra, ``[cluster]``), and :func:`summarize` turns the games into win rates and mean scores
with 95% confidence intervals, per strategy and per seat, game lengths and how often the pool
ran out.

A strategy that raises, or returns a move the engine refuses, costs its game and nothing
more: the game comes back as a :class:`GameSummary` with its :class:`GameFailure` (which
turn, which seat and strategy, the message), the summary leaves it out of the figures and
lists it, with Dask or without.

Determinism: game ``i`` of a run with seed ``s`` is dealt with its own seed (:func:`game_seed`)
and seats strategies in a fixed rotation, and the summary reads the games in index order, so
the same seed gives the same games and the same report whatever the number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.core.arguments import whole
from rummikub.core.cluster import Progress as Progress
from rummikub.core.cluster import dask_available as dask_available
from rummikub.core.cluster import default_workers as default_workers
from rummikub.core.documents import field, field_list
from rummikub.core.errors import ArgumentError
from rummikub.core.stats import mean_ci as mean_ci
from rummikub.core.stats import wilson as wilson
from rummikub.play import selfplay
from rummikub.play.selfplay import CSV_HEADER as CSV_HEADER
from rummikub.play.selfplay import GameFailed as GameFailed
from rummikub.play.selfplay import GameFailure as GameFailure
from rummikub.play.selfplay import Line as Line
from rummikub.play.selfplay import Seating as Seating
from rummikub.play.selfplay import Table as Table
from rummikub.play.selfplay import failures_of as failures_of
from rummikub.play.selfplay import failures_text as failures_text
from rummikub.play.selfplay import play_seated as play_seated
from rummikub.play.selfplay import simulate as simulate
from rummikub.tiles.game.engine import GameState
from rummikub.tiles.game.plugin import TileGame
from rummikub.tiles.game.record import MAX_PLAYERS, RACK_SIZE, Record
from rummikub.tiles.game.strategies import Strategy, strategy
from rummikub.tiles.rules import STANDARD, Rules, rules_argument, rules_data

__all__ = [
    "GameFailed",
    "GameFailure",
    "GameSummary",
    "Report",
    "Seating",
    "Setup",
    "Table",
    "game_seed",
    "lineup_of",
    "play_game",
    "play_seated",
    "simulate",
    "summarize",
]


@dataclass(frozen=True, slots=True)
class Setup(selfplay.Lineup):
    """What every game of a run shares."""

    strategies: tuple[str, ...]
    players: int = 4
    rules: Rules = STANDARD
    rack_size: int = RACK_SIZE
    seed: int = 0

    def __post_init__(self) -> None:
        selfplay.check_lineup(
            self.strategies,
            self.players,
            self.seed,
            MAX_PLAYERS,
            strategy,
            "a game has 2-4 players",
        )
        rules_argument(self.rules)
        whole(self.rack_size, "rack_size", 1)
        if self.players * self.rack_size > self.rules.tile_count:
            raise ArgumentError(
                f"{self.players} racks of {self.rack_size} tiles need more than the "
                f"{self.rules.tile_count} tiles of the box"
            )

    @property
    def game(self) -> TileGame:
        return TileGame(self.rules, self.rack_size)


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game, small enough to send back from a worker; a game that failed has its
    ``error``, no winners and no scores (``turns`` counts the turns before the failure)."""

    index: int
    seed: int
    #: The strategy at each seat.
    seats: tuple[str, ...]
    ending: str
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    turns: int
    pool_exhausted: bool
    error: GameFailure | None = None

    @property
    def endings(self) -> dict[str, int]:
        """How the game ended, as a duel counts the endings."""
        return {self.ending: 1}

    def to_data(self) -> dict[str, Any]:
        """The game as JSON data (:meth:`from_data` reads it back): a ``--save`` file keeps
        it."""
        error = {} if self.error is None else {"error": self.error.to_data()}
        return {
            "index": self.index,
            "seed": self.seed,
            "seats": list(self.seats),
            "ending": self.ending,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "turns": self.turns,
            "pool_exhausted": self.pool_exhausted,
            **error,
        }

    @classmethod
    def from_data(cls, data: object) -> GameSummary:
        """The game :meth:`to_data` wrote; a :class:`ValueError` naming the field that is not
        as written."""
        return cls(
            field(data, "index", int),
            field(data, "seed", int),
            field_list(data, "seats", str),
            field(data, "ending", str),
            field_list(data, "winners", int),
            field_list(data, "scores", float),
            field(data, "turns", int),
            field(data, "pool_exhausted", bool),
            selfplay.read_failure(data),
        )


def game_seed(seed: int, index: int) -> int:
    """The deal's seed of game ``index`` of a run: a hash, so runs with nearby seeds share
    no games."""
    return selfplay.game_seed(seed, index, "rummikub-simulate")


def lineup_of(setup: Setup, index: int) -> tuple[str, ...]:
    """The strategy at each seat in game ``index``: the strategies fill the seats in order
    (repeating when fewer), rotated by one seat each game so every strategy plays every seat."""
    return selfplay.lineup_of(setup.strategies, setup.players, index)


def play_game(
    rules: Rules,
    strategies: Sequence[Strategy],
    seed: int,
    *,
    rack_size: int = RACK_SIZE,
    names: Sequence[str] | None = None,
) -> tuple[Record, GameState]:
    """Play one game to its end: the record of every turn and the final state.

    A strategy that raises (any :class:`Exception`) or returns a move the engine refuses
    raises :class:`GameFailed`, naming the turn and the seat.
    """
    record, state = selfplay.play_out(TileGame(rules, rack_size), strategies, seed, names=names)
    return record, state


def seatings(setup: Setup, games: int) -> list[Seating]:
    """The games of a run, in index order."""
    return selfplay.seatings(setup.game, setup.strategies, setup.players, setup.seed, games)


# -- what the games show ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Report:
    setup: Setup
    games: int
    strategies: tuple[Line, ...]
    seats: tuple[Line, ...]
    mean_turns: float
    turns_ci: tuple[float, float]
    min_turns: int
    max_turns: int
    pool_exhausted: float
    pool_exhausted_ci: tuple[float, float]
    endings: dict[str, int]
    #: The games that failed, in index order, left out of every figure above.
    failures: tuple[GameFailure, ...] = ()

    def to_data(self) -> dict[str, Any]:
        setup = self.setup
        return {
            "games": self.games,
            "players": setup.players,
            "strategies": list(setup.strategies),
            "seed": setup.seed,
            "rack_size": setup.rack_size,
            "rules": rules_data(setup.rules),
            "by_strategy": [line.to_data() for line in self.strategies],
            "by_seat": [line.to_data() for line in self.seats],
            "turns": {
                "mean": _round(self.mean_turns),
                "ci": [_round(x) for x in self.turns_ci],
                "min": self.min_turns,
                "max": self.max_turns,
            },
            "pool_exhausted": {
                "rate": _round(self.pool_exhausted),
                "ci": [_round(x) for x in self.pool_exhausted_ci],
            },
            "endings": dict(self.endings),
            "failures": [failure.to_data() for failure in self.failures],
        }


def _round(value: float) -> float:
    return round(value, 6)


def summarize(setup: Setup, games: Sequence[GameSummary]) -> Report:
    """Win rates, mean scores, lengths and endings of ``games`` (read in index order); the
    games that failed are left out and listed."""
    found = selfplay.tally(setup.strategies, setup.players, games)
    ordered: Sequence[GameSummary] = found.played
    mean_turns, turns_ci = mean_ci([float(g.turns) for g in ordered])
    exhausted = sum(1 for g in ordered if g.pool_exhausted)
    endings = {"went_out": 0, "pool_empty": 0}
    for game in ordered:
        endings[game.ending] = endings.get(game.ending, 0) + 1
    return Report(
        setup=setup,
        games=len(ordered),
        strategies=found.strategies,
        seats=found.seats,
        mean_turns=mean_turns,
        turns_ci=turns_ci,
        min_turns=min((g.turns for g in ordered), default=0),
        max_turns=max((g.turns for g in ordered), default=0),
        pool_exhausted=exhausted / len(ordered) if ordered else 0.0,
        pool_exhausted_ci=wilson(exhausted, len(ordered)),
        endings=endings,
        failures=found.failures,
    )


def to_csv(report: Report) -> str:
    """One row per strategy and per seat."""
    return selfplay.lines_csv(report.strategies, report.seats)


def to_text(report: Report) -> str:
    """The report as a table for people."""
    lines = [
        f"{report.games} games, {report.setup.players} players, seed {report.setup.seed}",
        *selfplay.lines_text((*report.strategies, *report.seats), "mean score", 17),
    ]
    lo, hi = report.turns_ci
    lines.append(
        f"Turns: mean {report.mean_turns:.1f} (95% CI {lo:.1f}-{hi:.1f}), "
        f"min {report.min_turns}, max {report.max_turns}"
    )
    plo, phi = report.pool_exhausted_ci
    lines.append(
        f"Pool ran out: {report.pool_exhausted:.1%} of games (95% CI {plo:.1%}-{phi:.1%}); "
        f"endings: {report.endings['went_out']} went out, "
        f"{report.endings['pool_empty']} pool empty"
    )
    lines += failures_text(report.failures, "left out of the figures above")
    return "\n".join(lines)
