"""Ladders written once: every pair of a population of players in a mirror-paired duel, and
what the duels show together, over any :class:`~rummikub.play.protocol.Game`.

A ladder is a set of duels (:mod:`rummikub.play.duel`), one per pair of strategies, each on
deals of its own: the pair's duel seed is a hash of the ladder's seed and the two names
(:func:`pair_seed`), so that the games of a pair are the same whatever the other strategies
of the ladder and their order, and adding a strategy adds games without changing any. The
duel's seatings are the duel's own (the mirror pair at 2 players, the distinct rotations at
3-4); where they give the two strategies unequal seats (at 3 players A holds two seats of
three) the pair plays the duel both ways on the same deals, so that every pair's figure is
a share of wins between equal seats (half each between equal players).

The report (:func:`summarize`, pure arithmetic on the pairs, read in the ladder's order):

* the win-rate matrix: the row's share of the wins against the column (a tie for the win
  counted as a share), with its 95% Wilson interval;
* Bradley-Terry ratings (:func:`bradley_terry`), fitted by Hunter's MM algorithm, on the
  Elo scale (400 log10 of the strength, mean 0), each with a 95% interval from the Fisher
  information of the fit;
* Nash averaging (Balduzzi et al., "Re-evaluating evaluation", 2018; :func:`nash`): the
  meta-game whose payoff is the win rate less one half (made antisymmetric), its
  equilibrium mixture (which no strategy of the ladder beats, so that a strategy that only
  beats weak ones gains nothing from them), and each strategy's expected win rate against
  that mixture.

Ratings assume the matchups are transitive; they are not always (one strategy may beat a
second that beats a third that beats the first), which is why the Nash view is given too.

A ladder's games may be kept in a file as they finish (:func:`play` with ``save``,
:mod:`rummikub.play.kept`): a rerun with the same settings plays only the others, and gives
the same report.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.core.cluster import Progress
from rummikub.core.errors import RummikubError
from rummikub.core.stats import Z95, wilson
from rummikub.play import duel as duels
from rummikub.play import kept, selfplay
from rummikub.play.duel import Pairing
from rummikub.play.selfplay import Seating, Table

__all__ = [
    "CSV_HEADER",
    "DEFAULT_DEALS",
    "MAX_STRATEGIES",
    "SAVE_KIND",
    "Ladder",
    "LadderReport",
    "Matchup",
    "PairResult",
    "Rating",
    "bradley_terry",
    "games_to_play",
    "ladder_of",
    "nash",
    "pair_seed",
    "play",
    "summarize",
    "to_csv",
    "to_text",
]

#: The most strategies in one ladder (the Nash view enumerates supports: 2^n of them).
MAX_STRATEGIES = 12
#: Deals a pair plays when no count of games is given.
DEFAULT_DEALS = 20
#: The file of ``--save``: every game of the ladder's duels as it finishes (version 2), and
#: the finished pairs that version 1 kept (still read, and kept as they are).
SAVE_KIND = kept.SaveKind(
    "rummikub-ladder-pairs", 2, "a file of ladder pairs", older=(1,), sections=("pairs",)
)
#: Elo points per natural-log unit of Bradley-Terry strength (400 per factor of ten).
ELO = 400 / math.log(10)
#: Virtual games added to every pair before the ratings are fitted, half won by each side:
#: a strategy that won (or lost) every game would otherwise have an infinite rating.
PRIOR_GAMES = 1.0
#: What counts as zero in the Nash view's arithmetic (win rates are given to 6 places).
TOLERANCE = 1e-9


def pair_seed(seed: int, a: str, b: str) -> int:
    """The duel seed of the pair ``a``, ``b`` in a ladder seeded ``seed``: a hash of the
    seed and the two names in name order, whatever the order they are given in."""
    first, second = sorted((a, b))
    digest = hashlib.sha256(f"rummikub-ladder:{seed}:{first}:{second}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class Matchup:
    """One pair of a ladder: ``a`` (the first by name) against ``b``, as one duel, or as
    the duel both ways where its seatings give the two unequal seats."""

    a: str
    b: str
    duels: tuple[Pairing, ...]
    #: Games of each duel.
    games: int

    def schedule(self) -> list[Seating]:
        return [seating for setup in self.duels for seating in setup.schedule(self.games)]

    @property
    def total(self) -> int:
        return self.games * len(self.duels)


@dataclass(frozen=True, slots=True)
class Ladder:
    """Every pair of ``strategies`` (in their given order) at ``players`` seats, ``games``
    games a pair, seeded ``seed``."""

    strategies: tuple[str, ...]
    players: int
    seed: int
    games: int
    matchups: tuple[Matchup, ...]

    @property
    def game(self) -> Any:
        return self.matchups[0].duels[0].game

    def table(self) -> Table:
        return Table.of(self.game, self.strategies)

    @property
    def total(self) -> int:
        """The games of every pair."""
        return self.games * len(self.matchups)

    def key(self, matchup: Matchup) -> dict[str, Any]:
        """What a finished pair of a file of version 1 must match to stand for ``matchup``
        of this ladder: its first duel's key (:meth:`Pairing.key`) with the ladder's seed and
        its games a pair."""
        return {**matchup.duels[0].key(), "seed": self.seed, "games": self.games}

    def head_data(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "strategies": list(self.strategies),
            "players": self.players,
            "seed": self.seed,
            "games_per_pair": self.games,
            "seatings": [list(roles) for roles in self.matchups[0].duels[0].seatings],
            "both_ways": len(self.matchups[0].duels) > 1,
            **self.matchups[0].duels[0].setup_data(),
        }


def ladder_of(
    strategies: Sequence[str],
    players: int,
    seed: int,
    games: int | None,
    make: Callable[[str, str, int], Pairing],
) -> Ladder:
    """The ladder of ``strategies``, ``games`` games a pair (None: :data:`DEFAULT_DEALS`
    deals), each pair's duel made by ``make(a, b, seed)`` (a domain's :class:`Pairing`); a
    :class:`RummikubError` for fewer than two strategies, one named twice, or a count of
    games a pair cannot play."""
    names = tuple(strategies)
    if len(names) < 2:
        raise RummikubError(
            f"a ladder needs at least two strategies (got {len(names)}: {', '.join(names)})"
        )
    if len(set(names)) < len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise RummikubError(f"strategy {twice!r} is named twice: a ladder pairs distinct ones")
    if len(names) > MAX_STRATEGIES:
        raise RummikubError(
            f"a ladder of {len(names)} strategies: at most {MAX_STRATEGIES} (the Nash view "
            "looks at every subset of them)"
        )
    if games is not None and games < 1:
        raise RummikubError(f"--games {games}: expected at least 1 game a pair")
    matchups = []
    for i, j in itertools.combinations(range(len(names)), 2):
        a, b = sorted((names[i], names[j]))
        first = make(a, b, pair_seed(seed, a, b))
        both = not math.isclose(first.even_rate, 0.5)
        setups = (first, make(b, a, first.seed)) if both else (first,)
        per = len(first.seatings) * len(setups)
        if games is None:
            games = DEFAULT_DEALS * per
        if games % per:
            ways = " and each strategy as A" if both else ""
            raise RummikubError(
                f"--games {games}: at {players} players a ladder plays every deal {per} "
                f"times (once per seating{ways}), so --games must be a positive multiple "
                f"of {per}"
            )
        first.check_games(games // len(setups))
        matchups.append(Matchup(a, b, setups, games // len(setups)))
    assert games is not None  # set by the first pair
    return Ladder(names, players, seed, games, tuple(matchups))


# -- playing it ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairResult:
    """What the games of one pair showed: ``a``'s share of the wins over ``games`` (the
    games of whole deals), and the duels' reports (:meth:`DuelReport.to_data`)."""

    a: str
    b: str
    games: int
    a_wins: float
    failures: int
    duels: tuple[dict[str, Any], ...]

    @classmethod
    def of(cls, a: str, b: str, reports: Sequence[Mapping[str, Any]]) -> PairResult:
        games = sum(int(r["games"]) for r in reports)
        wins = math.fsum(
            float(r["a_wins"]) if r["a"] == a else int(r["games"]) - float(r["a_wins"])
            for r in reports
        )
        failures = sum(len(r["failures"]) for r in reports)
        return cls(a, b, games, wins, failures, tuple(dict(r) for r in reports))

    def wins_of(self, name: str) -> float:
        return self.a_wins if name == self.a else self.games - self.a_wins


def play(
    ladder: Ladder,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
    save: str | os.PathLike[str] | None = None,
) -> list[PairResult]:
    """The results of every pair of ``ladder``, in its order: all its games in one run of
    :func:`rummikub.core.cluster.run` (in this process, or on Dask); with ``save``, the games
    kept in that file taken from it and every game played added to it as it finishes
    (:mod:`rummikub.play.kept`), so that an interrupted ladder resumes where it stopped, in
    the middle of a pair too. The same seed gives the same results either way."""
    found = _kept_pairs(ladder, save)
    missing = [n for n in range(len(ladder.matchups)) if n not in found]
    games = iter(
        kept.play(
            _duels(ladder, missing),
            ladder.table(),
            save=save,
            kind=SAVE_KIND,
            workers=workers,
            scheduler=scheduler,
            batch_size=batch_size,
            progress=progress,
        )
    )
    for number in missing:
        matchup = ladder.matchups[number]
        reports = [duels.summarize(setup, next(games)).to_data() for setup in matchup.duels]
        found[number] = PairResult.of(matchup.a, matchup.b, reports)
    return [found[n] for n in range(len(ladder.matchups))]


def games_to_play(ladder: Ladder, save: str | os.PathLike[str] | None = None) -> int:
    """The games :func:`play` will play: those not kept in ``save``."""
    found = _kept_pairs(ladder, save)
    missing = [n for n in range(len(ladder.matchups)) if n not in found]
    return kept.to_play(_duels(ladder, missing), save, SAVE_KIND)


def _duels(ladder: Ladder, numbers: Sequence[int]) -> list[tuple[Pairing, int]]:
    """The duels of the pairs ``numbers`` (by their place), each with its count of games."""
    return [
        (setup, ladder.matchups[n].games) for n in numbers for setup in ladder.matchups[n].duels
    ]


def _kept_pairs(ladder: Ladder, save: str | os.PathLike[str] | None) -> dict[int, PairResult]:
    """The finished pairs of ``ladder`` (by their place) that a file of version 1 keeps."""
    if save is None:
        return {}
    saved = kept.Saved.read(save, SAVE_KIND)
    where = f"{saved.name}: not a file of ladder pairs"
    pairs: dict[str, list[dict[str, Any]]] = {}
    for place, entry in enumerate(saved.sections["pairs"]):
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("key"), dict)
            and isinstance(entry.get("duels"), list)
            and all(_duel_data(d) for d in entry["duels"])
        ):
            raise RummikubError(f"{where} (pair {place + 1} is not a key and duel reports)")
        pairs[kept.key_text(entry["key"])] = entry["duels"]
    found = {}
    for number, matchup in enumerate(ladder.matchups):
        entry = pairs.get(kept.key_text(ladder.key(matchup)))
        if entry is not None:
            found[number] = PairResult.of(matchup.a, matchup.b, entry)
    return found


def _duel_data(data: Any) -> bool:
    return (
        isinstance(data, dict)
        and isinstance(data.get("a"), str)
        and type(data.get("games")) is int
        and isinstance(data.get("a_wins"), int | float)
        and isinstance(data.get("failures"), list)
    )


# -- the maths -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rating:
    """A strategy's Bradley-Terry rating on the Elo scale, with its 95% interval."""

    name: str
    rating: float
    ci: tuple[float, float]


def bradley_terry(
    wins: Sequence[Sequence[float]],
    games: Sequence[Sequence[float]],
    prior: float = PRIOR_GAMES,
) -> tuple[list[float], list[float]]:
    """The Bradley-Terry log-strengths (mean 0) of the players of ``wins[i][j]`` (i's wins
    against j, shares of ties counted) over ``games[i][j]``, and their standard errors.

    The fit is Hunter's MM algorithm (2004), iterated from equal strengths until no
    log-strength moves by 1e-12 (at most 100,000 rounds): deterministic. ``prior`` virtual
    games are added to every pair, half won by each. The standard errors are those of the
    Fisher information at the fit, under the constraint that the log-strengths sum to 0
    (its pseudo-inverse); they treat the games as independent, which the mirror pairs make
    cautious (a pair's luck of the deal cancels, so its rate varies less than that).

    >>> theta, _ = bradley_terry([[0, 2], [1, 0]], [[0, 3], [3, 0]], prior=0)
    >>> round((theta[0] - theta[1]) / 2, 6) == round(math.log(2) / 2, 6)
    True
    """
    n = len(wins)
    w = [[wins[i][j] + (prior / 2 if i != j else 0) for j in range(n)] for i in range(n)]
    g = [[games[i][j] + (prior if i != j else 0) for j in range(n)] for i in range(n)]
    theta = [0.0] * n
    for _ in range(100_000):
        strength = [math.exp(t) for t in theta]
        new = []
        for i in range(n):
            won = math.fsum(w[i])
            rate = math.fsum(
                g[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i and g[i][j]
            )
            new.append(math.log(won / rate) if won > 0 and rate > 0 else theta[i] - 50)
        mean = math.fsum(new) / n
        new = [t - mean for t in new]
        moved = max(abs(a - b) for a, b in zip(new, theta, strict=True))
        theta = new
        if moved < 1e-12:
            break
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and g[i][j]:
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                info[i][j] = -g[i][j] * p * (1 - p)
                info[i][i] += g[i][j] * p * (1 - p)
    # The information is a Laplacian, whose null space is the constant: its pseudo-inverse
    # is (I + J/n)^-1 - J/n for J the matrix of ones.
    shifted = [[info[i][j] + 1 / n for j in range(n)] for i in range(n)]
    inverse = _inverse(shifted)
    errors = [
        math.sqrt(max(0.0, inverse[i][i] - 1 / n)) if inverse is not None else math.inf
        for i in range(n)
    ]
    return theta, errors


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]] | None:
    """The inverse by Gauss-Jordan elimination with partial pivoting (None if singular)."""
    n = len(matrix)
    rows = [
        [*map(float, row), *(1.0 if c == r else 0.0 for c in range(n))]
        for r, row in enumerate(matrix)
    ]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-300:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]


def _solve(equations: Sequence[Sequence[float]], rhs: Sequence[float]) -> list[float] | None:
    """The one solution of an (over)determined linear system, or None when it has none or
    more than one (Gaussian elimination with partial pivoting)."""
    unknowns = len(equations[0])
    rows = [[*row, value] for row, value in zip(equations, rhs, strict=True)]
    place = 0
    for col in range(unknowns):
        pivot = max(range(place, len(rows)), key=lambda r: abs(rows[r][col]), default=None)
        if pivot is None or abs(rows[pivot][col]) < TOLERANCE:
            return None  # a free unknown: many solutions (or none)
        rows[place], rows[pivot] = rows[pivot], rows[place]
        head = rows[place][col]
        rows[place] = [x / head for x in rows[place]]
        for r in range(len(rows)):
            if r != place and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[place], strict=True)]
        place += 1
    if any(abs(row[-1]) > TOLERANCE for row in rows[place:]):
        return None  # inconsistent
    return [rows[c][-1] for c in range(unknowns)]


def nash(payoff: Sequence[Sequence[float]]) -> list[float]:
    """An equilibrium mixture of the symmetric zero-sum game of the antisymmetric
    ``payoff`` (the row's gain against the column): the mixture against which no strategy
    gains, whose value is 0.

    Every support is tried (support enumeration): the mixture on it that leaves each of its
    strategies indifferent, if it is the only one, is positive there, and no strategy gains
    against it. Where ties leave no support's mixture determined, the indifference of one
    strategy outside the support is asked too, then of two, and so on, until some are
    found. Where the game has one equilibrium (almost always with measured rates, though
    few games give exact ties) that is the one; where it has many, the answer is the mean
    of those found,
    itself an equilibrium (they form a convex set), unchanged by the order of the
    strategies and splitting the weight evenly between copies of one strategy, as
    Balduzzi et al.'s maximum-entropy choice does, though not always equal to it.

    >>> [round(x, 6) for x in nash([[0, 1, -1], [-1, 0, 1], [1, -1, 0]])]
    [0.333333, 0.333333, 0.333333]
    """
    n = len(payoff)
    # An equilibrium at a vertex of the set of equilibria is the one solution of its
    # support's indifference, sometimes only with that of a few strategies outside the
    # support too (ties): the fewest such extra conditions that find any are taken.
    for extra in range(n):
        found = [
            mixture
            for size in range(1, n + 1)
            for support in itertools.combinations(range(n), size)
            for outside in itertools.combinations(
                [j for j in range(n) if j not in support], min(extra, n - size)
            )
            if (mixture := _equilibrium_on(payoff, support, outside)) is not None
        ]
        if found:
            return [math.fsum(m[i] for m in found) / len(found) for i in range(n)]
    raise RummikubError("the meta-game's equilibrium was not found")  # one always exists


def _equilibrium_on(
    payoff: Sequence[Sequence[float]], support: Sequence[int], outside: Sequence[int]
) -> list[float] | None:
    """The equilibrium on ``support`` that leaves its strategies and those of ``outside``
    indifferent, if there is exactly one such mixture and it is an equilibrium."""
    n = len(payoff)
    equations = [[payoff[j][i] for i in support] for j in (*support, *outside)]
    equations.append([1.0] * len(support))
    weights = _solve(equations, [0.0] * (len(equations) - 1) + [1.0])
    if weights is None or min(weights) <= TOLERANCE:
        return None
    mixture = [0.0] * n
    for i, weight in zip(support, weights, strict=True):
        mixture[i] = weight
    if any(_against(payoff, mixture, j) > TOLERANCE for j in range(n)):
        return None
    return mixture


def _against(payoff: Sequence[Sequence[float]], mixture: Sequence[float], j: int) -> float:
    """Strategy ``j``'s expected gain against ``mixture``."""
    return math.fsum(payoff[j][i] * p for i, p in enumerate(mixture))


# -- the report ------------------------------------------------------------------------------


def _round(value: float) -> float:
    return round(value, 6)


@dataclass(frozen=True, slots=True)
class LadderReport:
    ladder: Ladder
    pairs: tuple[PairResult, ...]
    #: ``wins[i][j]``: strategy i's share of the wins against j; ``games[i][j]`` the games.
    wins: tuple[tuple[float, ...], ...]
    games: tuple[tuple[int, ...], ...]
    ratings: tuple[Rating, ...]
    #: The Nash mixture's weight of each strategy, and each one's win rate against it.
    mixture: tuple[float, ...]
    against_nash: tuple[float, ...]

    @property
    def strategies(self) -> tuple[str, ...]:
        return self.ladder.strategies

    @property
    def failures(self) -> tuple[Any, ...]:
        return tuple(f for pair in self.pairs for d in pair.duels for f in d["failures"])

    def rate(self, i: int, j: int) -> float | None:
        return self.wins[i][j] / self.games[i][j] if self.games[i][j] else None

    def interval(self, i: int, j: int) -> tuple[float, float]:
        return wilson(self.wins[i][j], self.games[i][j])

    def ranked(self) -> list[int]:
        """The strategies' indices, the highest rating first (then the given order)."""
        return sorted(range(len(self.strategies)), key=lambda i: -self.ratings[i].rating)

    def to_data(self) -> dict[str, Any]:
        n = len(self.strategies)
        return {
            "ladder": self.ladder.head_data(),
            "pairs": [
                {
                    "a": pair.a,
                    "b": pair.b,
                    "games": pair.games,
                    "a_wins": _round(pair.a_wins),
                    "duels": list(pair.duels),
                }
                for pair in self.pairs
            ],
            "matrix": {
                "win_rate": [
                    [None if (r := self.rate(i, j)) is None else _round(r) for j in range(n)]
                    for i in range(n)
                ],
                "ci": [
                    [None if i == j else [_round(x) for x in self.interval(i, j)] for j in range(n)]
                    for i in range(n)
                ],
                "games": [list(row) for row in self.games],
            },
            "ratings": [
                {
                    "name": r.name,
                    "rating": _round(r.rating),
                    "ci": [_round(x) for x in r.ci],
                }
                for r in self.ratings
            ],
            "nash": {
                "mixture": {
                    s: _round(p) for s, p in zip(self.strategies, self.mixture, strict=True)
                },
                "win_rate": {
                    s: _round(v) for s, v in zip(self.strategies, self.against_nash, strict=True)
                },
            },
            "failures": list(self.failures),
        }


def summarize(ladder: Ladder, pairs: Sequence[PairResult]) -> LadderReport:
    """The report of a ladder's pairs (:func:`play`)."""
    names = ladder.strategies
    n = len(names)
    place = {name: i for i, name in enumerate(names)}
    wins = [[0.0] * n for _ in range(n)]
    games = [[0] * n for _ in range(n)]
    for pair in pairs:
        i, j = place[pair.a], place[pair.b]
        wins[i][j], wins[j][i] = pair.wins_of(pair.a), pair.wins_of(pair.b)
        games[i][j] = games[j][i] = pair.games
    theta, errors = bradley_terry(wins, games)
    ratings = tuple(
        Rating(name, ELO * t, (ELO * (t - Z95 * e), ELO * (t + Z95 * e)))
        for name, t, e in zip(names, theta, errors, strict=True)
    )
    # The meta-game: the row's win rate less one half, made antisymmetric (a game nobody
    # won counts for neither side); an unplayed pair (every deal failed) is even.
    rates = [[wins[i][j] / games[i][j] if games[i][j] else 0.5 for j in range(n)] for i in range(n)]
    payoff = [
        [(rates[i][j] - rates[j][i]) / 2 if i != j else 0.0 for j in range(n)] for i in range(n)
    ]
    mixture = nash(payoff)
    against = tuple(0.5 + _against(payoff, mixture, j) for j in range(n))
    return LadderReport(
        ladder,
        tuple(pairs),
        tuple(tuple(row) for row in wins),
        tuple(tuple(row) for row in games),
        ratings,
        tuple(mixture),
        against,
    )


def to_text(report: LadderReport) -> str:
    """The report for people: the matrix, the ratings and the Nash view."""
    ladder = report.ladder
    names = report.strategies
    n = len(names)
    both = " each way" if ladder.matchups[0].duels[1:] else ""
    seatings = " | ".join(" ".join(roles) for roles in ladder.matchups[0].duels[0].seatings)
    lines = [
        f"Ladder of {n} strategies at {ladder.game.name}: {ladder.players} players, "
        f"{ladder.games} games a pair (seatings {seatings}{both}), seed {ladder.seed}",
        "Win rate of the row against the column (95% Wilson interval in --json and --csv):",
    ]
    width = max(6, *(len(name) for name in names))
    lines.append(" " * width + "".join(f" {name[:7]:>7}" for name in names))
    for i, name in enumerate(names):
        cells = "".join(
            f" {'-':>7}" if (r := report.rate(i, j)) is None else f" {r:>7.1%}" for j in range(n)
        )
        lines.append(f"{name:<{width}}{cells}")
    lines.append(
        "Bradley-Terry ratings (Elo scale, mean 0; 95% interval from the Fisher information):"
    )
    for rank, i in enumerate(report.ranked(), 1):
        rating = report.ratings[i]
        lo, hi = rating.ci
        lines.append(
            f"{rank:>3}. {rating.name:<{width}} {rating.rating:+7.0f} ({lo:+.0f} to {hi:+.0f})"
        )
    mix = ", ".join(
        f"{names[i]} {report.mixture[i]:.1%}"
        for i in sorted(range(n), key=lambda i: -report.mixture[i])
        if report.mixture[i] > 0.0005
    )
    lines.append(f"Nash mixture (no strategy of the ladder beats it): {mix}")
    against = ", ".join(
        f"{names[i]} {report.against_nash[i]:.1%}"
        for i in sorted(range(n), key=lambda i: -report.against_nash[i])
    )
    lines.append(f"Win rate against the Nash mixture: {against}")
    failed = [
        f"{pair.a} against {pair.b}: {_failure_of(data)}"
        for pair in report.pairs
        for report_data in pair.duels
        for data in report_data["failures"]
    ]
    lines += selfplay.failures_text(failed, "their deals are left out of the figures above")
    return "\n".join(lines)


def _failure_of(data: Mapping[str, Any]) -> selfplay.GameFailure:
    return selfplay.GameFailure(
        data["game"],
        data["seed"],
        data["turn"],
        data["seat"] - 1,
        data["strategy"],
        data["error"],
        data.get("hand"),
    )


CSV_HEADER = "strategy,opponent,games,wins,win_rate,low,high"


def to_csv(report: LadderReport) -> str:
    """One row per ordered pair: the strategy's games and wins against the opponent, its
    win rate and the 95% Wilson interval."""
    names = report.strategies
    rows = [CSV_HEADER]
    for i, j in itertools.permutations(range(len(names)), 2):
        rate = report.rate(i, j)
        lo, hi = report.interval(i, j)
        rows.append(
            f"{names[i]},{names[j]},{report.games[i][j]},{_round(report.wins[i][j])},"
            f"{'' if rate is None else _round(rate)},{_round(lo)},{_round(hi)}"
        )
    return "\n".join(rows) + "\n"
