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
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from rummikub.core import cluster
from rummikub.core.cluster import Progress
from rummikub.core.errors import RummikubError
from rummikub.core.stats import mean_ci, wilson
from rummikub.tiles.game.record import RACK_SIZE
from rummikub.tiles.game.simulate import (
    GameFailure,
    GameSummary,
    Seating,
    Setup,
    Table,
    failures_of,
    failures_text,
    play_seated,
)
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

#: The most games one duel plays (its games are held in memory until the report).
MAX_GAMES = 1_000_000
#: The roles at the seats before any rotation: A first, then B, in turn.
ROLES = ("A", "B", "A", "B")


@dataclass(frozen=True, slots=True)
class DuelSetup:
    """What every game of a duel shares: strategy ``a`` against strategy ``b`` (by name, as
    :func:`rummikub.tiles.game.strategies.strategy` knows them; the same name twice is allowed)."""

    a: str
    b: str
    players: int = 2
    rules: Rules = STANDARD
    rack_size: int = RACK_SIZE
    seed: int = 0

    def __post_init__(self) -> None:
        # The same checks as a simulation's: players, known strategies, the box's size.
        Setup((self.a, self.b), self.players, self.rules, self.rack_size, self.seed)

    @property
    def seatings(self) -> tuple[tuple[str, ...], ...]:
        """The roles (``"A"``/``"B"``) at each seat of each seating, first seat first."""
        base = ROLES[: self.players]
        found: list[tuple[str, ...]] = []
        for shift in range(self.players):
            lineup = tuple(base[(s + shift) % self.players] for s in range(self.players))
            if lineup not in found:
                found.append(lineup)
        return tuple(found)

    @property
    def even_rate(self) -> float:
        """A's win rate between equal players: A's share of the seats."""
        return ROLES[: self.players].count("A") / self.players

    def name(self, role: str) -> str:
        return self.a if role == "A" else self.b

    def check_games(self, games: int) -> int:
        """The number of deals of ``games`` games, or a :class:`RummikubError`."""
        per = len(self.seatings)
        if games < per or games % per:
            raise RummikubError(
                f"--games {games}: a duel of {self.players} players plays every deal "
                f"{per} times (once per seating), so --games must be a positive multiple "
                f"of {per}"
            )
        if games > MAX_GAMES:
            raise RummikubError(f"--games {games}: a duel plays at most {MAX_GAMES:,} games")
        return games // per


def deal_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal`` of a duel: a hash, so duels with nearby seeds share no
    deals, and none with ``simulate``'s games."""
    digest = hashlib.sha256(f"rummikub-duel:{seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seatings(setup: DuelSetup, deals: int) -> list[Seating]:
    """The games of a duel in index order: game ``d * k + r`` plays deal ``d`` in seating
    ``r`` (``k`` seatings), so the games of a deal are neighbours and share its seed."""
    found = []
    lineups = setup.seatings
    for deal in range(deals):
        seed = deal_seed(setup.seed, deal)
        for rotation, roles in enumerate(lineups):
            seats = tuple(setup.name(role) for role in roles)
            found.append(Seating(deal * len(lineups) + rotation, seed, seats))
    return found


def duel(
    setup: DuelSetup,
    games: int,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
) -> list[GameSummary]:
    """Play the ``games`` games of a duel, in index order (in this process or on Dask, as
    :func:`rummikub.core.cluster.run`)."""
    deals = setup.check_games(games)
    table = Table.of(setup.rules, setup.rack_size, (setup.a, setup.b))
    return cluster.run(
        partial(play_seated, table),
        seatings(setup, deals),
        workers=workers,
        scheduler=scheduler,
        batch_size=batch_size,
        progress=progress,
    )


# -- the report ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DuelReport:
    setup: DuelSetup
    #: Deals counted (whole: no game of theirs failed) and their games.
    deals: int
    games: int
    a_wins: float
    a_win_rate: float
    a_win_ci: tuple[float, float]
    score_difference: float
    score_difference_ci: tuple[float, float]
    #: Deals A (B) won in every seating, and the others.
    decisive_a: int
    decisive_b: int
    split: int
    mean_turns: float
    turns_ci: tuple[float, float]
    min_turns: int
    max_turns: int
    endings: dict[str, int]
    #: Games that failed, in index order; their deals are left out of every figure.
    failures: tuple[GameFailure, ...] = ()

    def to_data(self) -> dict[str, Any]:
        setup = self.setup
        return {
            "a": setup.a,
            "b": setup.b,
            "players": setup.players,
            "seed": setup.seed,
            "rack_size": setup.rack_size,
            "rules": rules_data(setup.rules),
            "seatings": [list(roles) for roles in setup.seatings],
            "deals": self.deals,
            "games": self.games,
            "a_wins": _round(self.a_wins),
            "a_win_rate": _round(self.a_win_rate),
            "a_win_rate_ci": [_round(x) for x in self.a_win_ci],
            "even_rate": _round(setup.even_rate),
            "score_difference": {
                "mean": _round(self.score_difference),
                "ci": [_round(x) for x in self.score_difference_ci],
            },
            "deals_won": {"a": self.decisive_a, "b": self.decisive_b, "split": self.split},
            "turns": {
                "mean": _round(self.mean_turns),
                "ci": [_round(x) for x in self.turns_ci],
                "min": self.min_turns,
                "max": self.max_turns,
            },
            "endings": dict(self.endings),
            "failures": [failure.to_data() for failure in self.failures],
        }


def _round(value: float) -> float:
    return round(value, 6)


def a_share(game: GameSummary, roles: Sequence[str]) -> float:
    """A's share of the win of ``game`` (seated as ``roles``): a tie shares the win."""
    if not game.winners:
        return 0.0
    return sum(1 for seat in game.winners if roles[seat] == "A") / len(game.winners)


def score_difference(game: GameSummary, roles: Sequence[str]) -> float:
    """The mean score of A's seats less the mean score of B's."""
    a = [score for score, role in zip(game.scores, roles, strict=True) if role == "A"]
    b = [score for score, role in zip(game.scores, roles, strict=True) if role == "B"]
    return math.fsum(a) / len(a) - math.fsum(b) / len(b)


def summarize(setup: DuelSetup, games: Sequence[GameSummary]) -> DuelReport:
    """The report of a duel's ``games`` (read in index order, grouped by deal)."""
    lineups = setup.seatings
    per = len(lineups)
    everything = sorted(games, key=lambda g: g.index)
    deals: dict[int, list[GameSummary]] = {}
    for game in everything:
        deals.setdefault(game.index // per, []).append(game)
    whole = [
        found
        for _, found in sorted(deals.items())
        if len(found) == per and all(g.error is None for g in found)
    ]
    shares: list[float] = []
    differences: list[float] = []
    turns: list[int] = []
    endings = {"went_out": 0, "pool_empty": 0}
    decisive_a = decisive_b = 0
    for found in whole:
        deal_shares = [a_share(g, lineups[g.index % per]) for g in found]
        deal_differences = [score_difference(g, lineups[g.index % per]) for g in found]
        shares += deal_shares
        differences.append(math.fsum(deal_differences) / per)
        turns += [g.turns for g in found]
        for game in found:
            endings[game.ending] = endings.get(game.ending, 0) + 1
        decisive_a += all(share == 1.0 for share in deal_shares)
        decisive_b += all(share == 0.0 for share in deal_shares)
    wins = math.fsum(shares)
    mean_difference, difference_ci = mean_ci(differences)
    mean_turns, turns_ci = mean_ci([float(t) for t in turns])
    return DuelReport(
        setup=setup,
        deals=len(whole),
        games=len(shares),
        a_wins=wins,
        a_win_rate=wins / len(shares) if shares else 0.0,
        a_win_ci=wilson(wins, len(shares)),
        score_difference=mean_difference,
        score_difference_ci=difference_ci,
        decisive_a=decisive_a,
        decisive_b=decisive_b,
        split=len(whole) - decisive_a - decisive_b,
        mean_turns=mean_turns,
        turns_ci=turns_ci,
        min_turns=min(turns, default=0),
        max_turns=max(turns, default=0),
        endings=endings,
        failures=failures_of(everything),
    )


def to_text(report: DuelReport) -> str:
    """The report for people."""
    setup = report.setup
    lo, hi = report.a_win_ci
    dlo, dhi = report.score_difference_ci
    tlo, thi = report.turns_ci
    seatings = " | ".join(" ".join(roles) for roles in setup.seatings)
    lines = [
        f"A {setup.a} against B {setup.b}: {setup.players} players, seed {setup.seed}",
        f"{report.games} games: {report.deals} deals, each in {len(setup.seatings)} "
        f"seatings ({seatings})",
        f"A wins {report.a_win_rate:.1%} of the games (95% CI {lo:.1%}-{hi:.1%}; "
        f"even: {setup.even_rate:.1%})",
        f"Score A-B: mean {report.score_difference:+.1f} a game "
        f"(95% CI {dlo:+.1f} to {dhi:+.1f}, paired by deal)",
        f"Deals won in every seating: {report.decisive_a} by A, {report.decisive_b} by B; "
        f"{report.split} split",
        f"Turns: mean {report.mean_turns:.1f} (95% CI {tlo:.1f}-{thi:.1f}), "
        f"min {report.min_turns}, max {report.max_turns}",
        f"Endings: {report.endings['went_out']} went out, "
        f"{report.endings['pool_empty']} pool empty",
    ]
    lines += failures_text(report.failures, "their deals are left out of the figures above")
    return "\n".join(lines)


CSV_HEADER = "measure,value,low,high"


def to_csv(report: DuelReport) -> str:
    """One row per figure: A's win rate, the score difference and the game length with
    their intervals, then the deals won (no interval)."""
    data = report.to_data()
    rows = [
        CSV_HEADER,
        _row("a_win_rate", data["a_win_rate"], data["a_win_rate_ci"]),
        _row("score_difference", data["score_difference"]["mean"], data["score_difference"]["ci"]),
        _row("turns", data["turns"]["mean"], data["turns"]["ci"]),
        f"deals_won_a,{report.decisive_a},,",
        f"deals_won_b,{report.decisive_b},,",
        f"deals_split,{report.split},,",
    ]
    return "\n".join(rows) + "\n"


def _row(measure: str, value: float, ci: Sequence[float]) -> str:
    return f"{measure},{value},{ci[0]},{ci[1]}"
