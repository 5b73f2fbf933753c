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

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from rummikub.core import cluster
from rummikub.core.cluster import Progress as Progress
from rummikub.core.cluster import dask_available as dask_available
from rummikub.core.cluster import default_workers as default_workers
from rummikub.core.errors import RummikubError
from rummikub.core.stats import mean_ci as mean_ci
from rummikub.core.stats import wilson as wilson
from rummikub.tiles.game.engine import GameState, TurnError, advance, deal, start, turn_of_move
from rummikub.tiles.game.record import RACK_SIZE, Record
from rummikub.tiles.game.strategies import Strategy, strategy
from rummikub.tiles.game.view import view_of
from rummikub.tiles.rules import STANDARD, Rules, rules_data

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
class Setup:
    """What every game of a run shares."""

    strategies: tuple[str, ...]
    players: int = 4
    rules: Rules = STANDARD
    rack_size: int = RACK_SIZE
    seed: int = 0

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise RummikubError(f"--players {self.players}: a game has 2-4 players")
        if not self.strategies:
            raise RummikubError("no strategy given")
        for name in self.strategies:
            strategy(name)  # an unknown name fails here, before any game is played
        if self.players * self.rack_size > self.rules.tile_count:
            raise RummikubError(
                f"{self.players} racks of {self.rack_size} tiles need more than the "
                f"{self.rules.tile_count} tiles of the box"
            )

    def table(self) -> Table:
        return Table.of(self.rules, self.rack_size, self.strategies)


@dataclass(frozen=True, slots=True)
class GameFailure:
    """Why a game stopped before its end: the strategy at ``seat`` (from 0) raised, or
    returned a move the engine refused, at turn ``turn`` (from 1)."""

    game: int
    seed: int
    turn: int
    seat: int
    strategy: str
    message: str

    def to_data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "turn": self.turn,
            "seat": self.seat + 1,
            "strategy": self.strategy,
            "error": self.message,
        }

    def __str__(self) -> str:
        return (
            f"game {self.game} (seed {self.seed}): turn {self.turn}, seat {self.seat + 1} "
            f"({self.strategy}): {self.message}"
        )


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


class GameFailed(RummikubError):
    """A strategy raised, or returned a move the engine refused, in :func:`play_game`."""

    def __init__(self, turn: int, seat: int, message: str) -> None:
        self.turn, self.seat, self.message = turn, seat, message
        super().__init__(f"turn {turn}, seat {seat + 1}: {message}")


def game_seed(seed: int, index: int) -> int:
    """The deal's seed of game ``index`` of a run: a hash, so runs with nearby seeds share
    no games."""
    digest = hashlib.sha256(f"rummikub-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def lineup_of(setup: Setup, index: int) -> tuple[str, ...]:
    """The strategy at each seat in game ``index``: the strategies fill the seats in order
    (repeating when fewer), rotated by one seat each game so every strategy plays every seat."""
    base = [setup.strategies[s % len(setup.strategies)] for s in range(setup.players)]
    shift = index % setup.players
    return tuple(base[(s + shift) % setup.players] for s in range(setup.players))


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
    players = list(names) if names is not None else [f"P{s + 1}" for s in range(len(strategies))]
    record = deal(players, rules, seed, rack_size)
    state = start(record)
    turns = []
    while not state.over:
        seat = state.to_move
        try:
            move = strategies[seat](*view_of(state, seat))
            turn = turn_of_move(state, move)
            after = advance(state, turn)
        except TurnError as error:
            raise GameFailed(state.turns + 1, seat, "; ".join(error.problems)) from error
        except Exception as error:  # a strategy's own failure: costs this game only
            text = " ".join(str(error).split())
            message = f"{type(error).__name__}: {text}" if text else type(error).__name__
            raise GameFailed(state.turns + 1, seat, message) from error
        state = after
        turns.append(turn)
    return record.with_turns(turns, state.result), state


@dataclass(frozen=True, slots=True)
class Table:
    """What a worker needs to play any game of a run: the rules, the deal's size and the
    strategies by name (looked up once, where the run starts, so that a worker plays the
    strategies the run was given)."""

    rules: Rules
    rack_size: int
    roster: tuple[tuple[str, Strategy], ...]

    @classmethod
    def of(cls, rules: Rules, rack_size: int, names: Sequence[str]) -> Table:
        roster = tuple((name, strategy(name)) for name in dict.fromkeys(names))
        return cls(rules, rack_size, roster)

    def strategy(self, name: str) -> Strategy:
        return dict(self.roster)[name]


@dataclass(frozen=True, slots=True)
class Seating:
    """One game to play: its index in the run, the deal's seed and the strategy at each seat."""

    index: int
    seed: int
    seats: tuple[str, ...]


def play_seated(table: Table, game: Seating) -> GameSummary:
    """Play one game of a run to its end, or to the turn its strategy failed (one task)."""
    players = [table.strategy(name) for name in game.seats]
    try:
        _, state = play_game(table.rules, players, game.seed, rack_size=table.rack_size)
    except GameFailed as failed:
        error = GameFailure(
            game.index,
            game.seed,
            failed.turn,
            failed.seat,
            game.seats[failed.seat],
            failed.message,
        )
        return GameSummary(
            game.index, game.seed, game.seats, "failed", (), (), failed.turn - 1, False, error
        )
    result = state.result
    assert result is not None and result.scores is not None
    return GameSummary(
        index=game.index,
        seed=game.seed,
        seats=game.seats,
        ending=result.ending,
        winners=result.winners,
        scores=result.scores,
        turns=state.turns,
        pool_exhausted=state.pool_count == 0,
    )


def seatings(setup: Setup, games: int) -> list[Seating]:
    """The games of a run, in index order."""
    return [Seating(i, game_seed(setup.seed, i), lineup_of(setup, i)) for i in range(games)]


def simulate(
    setup: Setup,
    games: int,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
) -> list[GameSummary]:
    """Play ``games`` games, in index order; in this process when ``workers`` is 1 and no
    ``scheduler`` is given, else through Dask (a ``LocalCluster`` of ``workers`` processes,
    or the cluster at ``scheduler``; see :func:`rummikub.core.cluster.run`). ``progress`` is
    called with the number of games just finished."""
    if games < 1:
        raise RummikubError(f"--games {games}: expected at least 1")
    return cluster.run(
        partial(play_seated, setup.table()),
        seatings(setup, games),
        workers=workers,
        scheduler=scheduler,
        batch_size=batch_size,
        progress=progress,
    )


# -- what the games show ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """Win rate and mean score of one strategy or one seat, with 95% intervals."""

    name: str
    games: int
    wins: float
    win_rate: float
    win_ci: tuple[float, float]
    mean_score: float
    score_ci: tuple[float, float]

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": _round(self.wins),
            "win_rate": _round(self.win_rate),
            "win_rate_ci": [_round(x) for x in self.win_ci],
            "mean_score": _round(self.mean_score),
            "mean_score_ci": [_round(x) for x in self.score_ci],
        }


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


def _line(name: str, outcomes: Sequence[tuple[float, float]]) -> Line:
    """``outcomes``: (share of a win, score) of each game played."""
    wins = math.fsum(w for w, _ in outcomes)
    mean, ci = mean_ci([s for _, s in outcomes])
    n = len(outcomes)
    return Line(name, n, wins, wins / n if n else 0.0, wilson(wins, n), mean, ci)


def summarize(setup: Setup, games: Sequence[GameSummary]) -> Report:
    """Win rates, mean scores, lengths and endings of ``games`` (read in index order); the
    games that failed are left out and listed."""
    everything = sorted(games, key=lambda g: g.index)
    ordered = [game for game in everything if game.error is None]
    by_strategy: dict[str, list[tuple[float, float]]] = {name: [] for name in setup.strategies}
    by_seat: list[list[tuple[float, float]]] = [[] for _ in range(setup.players)]
    for game in ordered:
        for seat, name in enumerate(game.seats):
            # A tie for the win (pool empty) counts as a share of one win.
            share = 1 / len(game.winners) if seat in game.winners else 0.0
            outcome = (share, game.scores[seat])
            by_strategy[name].append(outcome)
            by_seat[seat].append(outcome)
    turns = [float(g.turns) for g in ordered]
    mean_turns, turns_ci = mean_ci(turns)
    exhausted = sum(1 for g in ordered if g.pool_exhausted)
    endings = {"went_out": 0, "pool_empty": 0}
    for game in ordered:
        endings[game.ending] = endings.get(game.ending, 0) + 1
    return Report(
        setup=setup,
        games=len(ordered),
        strategies=tuple(_line(name, by_strategy[name]) for name in by_strategy),
        seats=tuple(_line(f"seat {s + 1}", by_seat[s]) for s in range(setup.players)),
        mean_turns=mean_turns,
        turns_ci=turns_ci,
        min_turns=min((g.turns for g in ordered), default=0),
        max_turns=max((g.turns for g in ordered), default=0),
        pool_exhausted=exhausted / len(ordered) if ordered else 0.0,
        pool_exhausted_ci=wilson(exhausted, len(ordered)),
        endings=endings,
        failures=failures_of(everything),
    )


def failures_of(games: Sequence[GameSummary]) -> tuple[GameFailure, ...]:
    """The failures of ``games``, in their order."""
    return tuple(game.error for game in games if game.error is not None)


def failures_text(failures: Sequence[GameFailure], what: str) -> list[str]:
    """Lines naming every failed game (none when no game failed); ``what`` says what the
    figures leave out."""
    if not failures:
        return []
    count = f"{len(failures)} game{'s' if len(failures) > 1 else ''} failed"
    return [f"{count} ({what}):", *(f"  {failure}" for failure in failures)]


CSV_HEADER = (
    "group,name,games,wins,win_rate,win_rate_low,win_rate_high,"
    "mean_score,mean_score_low,mean_score_high"
)


def to_csv(report: Report) -> str:
    """One row per strategy and per seat."""
    rows = [CSV_HEADER]
    for group, lines in (("strategy", report.strategies), ("seat", report.seats)):
        for line in lines:
            d = line.to_data()
            values = [
                group,
                line.name,
                d["games"],
                d["wins"],
                d["win_rate"],
                *d["win_rate_ci"],
                d["mean_score"],
                *d["mean_score_ci"],
            ]
            rows.append(",".join(str(v) for v in values))
    return "\n".join(rows) + "\n"


def to_text(report: Report) -> str:
    """The report as a table for people."""
    lines = [
        f"{report.games} games, {report.setup.players} players, seed {report.setup.seed}",
        f"{'':12} {'games':>6} {'win rate':>8} {'95% CI':>15} {'mean score':>10} {'95% CI':>17}",
    ]
    for line in (*report.strategies, *report.seats):
        lo, hi = line.win_ci
        slo, shi = line.score_ci
        lines.append(
            f"{line.name:12} {line.games:6d} {line.win_rate:8.1%} "
            f"{f'{lo:.1%}-{hi:.1%}':>15} {line.mean_score:10.1f} "
            f"{f'{slo:.1f} to {shi:.1f}':>17}"
        )
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
