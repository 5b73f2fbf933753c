"""Self-play: whole games between strategies, and what they show.

:func:`play_game` plays one seeded game to its end. :func:`simulate` plays many, in this
process or in parallel through Dask distributed (an optional extra, ``[cluster]``), and
:func:`summarize` turns the games into win rates and mean scores with 95% confidence
intervals, per strategy and per seat, game lengths and how often the pool ran out.

Determinism: game ``i`` of a run with seed ``s`` is dealt with its own seed (:func:`game_seed`)
and seats strategies in a fixed rotation, and the summary reads the games in index order, so
the same seed gives the same games and the same report whatever the number of workers.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.core.errors import RummikubError
from rummikub.game.engine import GameState, advance, deal, start, turn_of_move
from rummikub.game.record import RACK_SIZE, Record
from rummikub.game.strategies import Strategy, strategy
from rummikub.game.view import view_of
from rummikub.tiles.rules import STANDARD, Rules, rules_data

__all__ = [
    "GameSummary",
    "Report",
    "Setup",
    "game_seed",
    "lineup_of",
    "play_game",
    "simulate",
    "summarize",
]

#: 95% two-sided normal quantile.
Z95 = 1.959963984540054


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


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One finished game, small enough to send back from a worker."""

    index: int
    seed: int
    #: The strategy at each seat.
    seats: tuple[str, ...]
    ending: str
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    turns: int
    pool_exhausted: bool


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
    """Play one game to its end: the record of every turn and the final state."""
    players = list(names) if names is not None else [f"P{s + 1}" for s in range(len(strategies))]
    record = deal(players, rules, seed, rack_size)
    state = start(record)
    turns = []
    while not state.over:
        seat = state.to_move
        move = strategies[seat](*view_of(state, seat))
        turn = turn_of_move(state, move)
        state = advance(state, turn)
        turns.append(turn)
    return record.with_turns(turns, state.result), state


def _play_one(setup: Setup, index: int) -> GameSummary:
    seats = lineup_of(setup, index)
    seed = game_seed(setup.seed, index)
    _, state = play_game(setup.rules, [strategy(n) for n in seats], seed, rack_size=setup.rack_size)
    result = state.result
    assert result is not None and result.scores is not None
    return GameSummary(
        index=index,
        seed=seed,
        seats=seats,
        ending=result.ending,
        winners=result.winners,
        scores=result.scores,
        turns=state.turns,
        pool_exhausted=state.pool_count == 0,
    )


def play_batch(setup: Setup, indices: Sequence[int]) -> list[GameSummary]:
    """Play the games ``indices`` (one Dask task)."""
    return [_play_one(setup, index) for index in indices]


def batches(games: int, size: int) -> list[range]:
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def default_workers(games: int) -> int:
    """Local workers when none are asked for: one per core, if Dask is installed, there is
    more than one core and enough games to share (a cluster costs about a second to start)."""
    cores = os.cpu_count() or 1
    if cores < 2 or games < 4 * cores or not dask_available():
        return 1
    return cores


def dask_available() -> bool:
    return importlib.util.find_spec("distributed") is not None


Progress = Callable[[int], None]


def simulate(
    setup: Setup,
    games: int,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
) -> list[GameSummary]:
    """Play ``games`` games; in this process when ``workers`` is 1 and no ``scheduler`` is
    given, else through Dask (a ``LocalCluster`` of ``workers`` processes, or the cluster at
    ``scheduler``). ``progress`` is called with the number of games just finished."""
    if games < 1:
        raise RummikubError(f"--games {games}: expected at least 1")
    if scheduler is None and workers <= 1:
        found = []
        for index in range(games):
            found.append(_play_one(setup, index))
            if progress is not None:
                progress(1)
        return found
    return sorted(
        _simulate_dask(setup, games, workers, scheduler, batch_size, progress),
        key=lambda g: g.index,
    )


def _simulate_dask(
    setup: Setup,
    games: int,
    workers: int,
    scheduler: str | None,
    batch_size: int | None,
    progress: Progress | None,
) -> Iterator[GameSummary]:
    try:
        # Through importlib: Dask is optional and untyped, so it stays out of mypy's sight.
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise RummikubError(
            "parallel games need Dask distributed: pip install 'rummikub[cluster]' "
            "(or run with --workers 1)"
        ) from None
    cluster: Any = None
    if scheduler is None:
        # Processes, one thread each: a solve holds the GIL, so threads would not help.
        cluster = distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = distributed.Client(cluster)
    else:
        try:
            client = distributed.Client(scheduler, timeout=10)
        except OSError as error:
            raise RummikubError(f"cannot reach the Dask scheduler {scheduler}: {error}") from None
    try:
        cores = sum(client.nthreads().values()) or 1
        # About four batches per worker: few enough that scheduling costs little, enough
        # that a slow batch does not keep the others waiting at the end.
        size = batch_size or max(1, math.ceil(games / (4 * cores)))
        futures = [
            client.submit(play_batch, setup, list(chunk), pure=False)
            for chunk in batches(games, size)
        ]
        for future in distributed.as_completed(futures):
            found = future.result()
            if progress is not None:
                progress(len(found))
            yield from found
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


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
        }


def _round(value: float) -> float:
    return round(value, 6)


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate (sound near 0 and 1 and for few trials).

    >>> [round(x, 3) for x in wilson(5, 10)]
    [0.237, 0.763]
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean and its 95% normal interval (±1.96 standard errors; a point for one value).

    >>> mean_ci([1.0, 2.0, 3.0])[0]
    2.0
    """
    n = len(values)
    if n == 0:
        return (0.0, (0.0, 0.0))
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, (mean, mean))
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return (mean, (mean - half, mean + half))


def _line(name: str, outcomes: Sequence[tuple[float, float]]) -> Line:
    """``outcomes``: (share of a win, score) of each game played."""
    wins = math.fsum(w for w, _ in outcomes)
    mean, ci = mean_ci([s for _, s in outcomes])
    n = len(outcomes)
    return Line(name, n, wins, wins / n if n else 0.0, wilson(wins, n), mean, ci)


def summarize(setup: Setup, games: Sequence[GameSummary]) -> Report:
    """Win rates, mean scores, lengths and endings of ``games`` (read in index order)."""
    ordered = sorted(games, key=lambda g: g.index)
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
    )


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
    return "\n".join(lines)
