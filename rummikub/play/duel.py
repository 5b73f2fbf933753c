"""Duels written once: two players on the same deals, the seats swapped, so that the luck of
the deal cancels, over any :class:`~rummikub.play.protocol.Game`.

A duel of player A against player B plays every deal once per *seating*: the distinct
rotations of the seats, A and B filling them in turn as
:func:`rummikub.play.selfplay.lineup_of` does (A, B, A, B, ... from the first seat to
move). At 2 players that is the mirror pair ``A B`` / ``B A``; at 3 players ``A B A`` /
``B A A`` / ``A A B`` (A holds two seats of three in every game); at 4 players ``A B A B``
/ ``B A B A`` (the two other rotations repeat these, so they are not played again). ``N``
games are ``N / k`` deals of ``k`` seatings.

The report (:func:`summarize`, pure arithmetic on the games, read in index order):

* A's win rate over the games, a tie for the win counted as a share, with its 95% Wilson
  interval (as ``simulate``), beside what equal players would get (A's share of the seats);
* the mean score difference (per game: the mean score of A's seats less that of B's,
  turned round where the lowest score wins, so that a positive difference always favours
  A), with a *paired* 95% interval: the mean of each deal's games is one value, and the
  interval is the normal one (±1.96 standard errors) over the deals;
* decisive deals (one player won the game in every seating) and split deals;
* the game length, and the endings.

A game whose player failed (:class:`~rummikub.play.selfplay.GameFailure`) is listed, and
its whole deal is left out of the figures, so that every deal counted is a whole set of
seatings.

What differs between the domains (the title, the setup's keys, the card games' hands and
their lowest-total-wins scoring) is the duel's :class:`Pairing`, which each domain's setup
extends.
"""

from __future__ import annotations

import abc
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummikub.core.arguments import names
from rummikub.core.errors import ArgumentError
from rummikub.core.stats import mean_ci, wilson
from rummikub.play import selfplay
from rummikub.play.selfplay import MAX_GAMES, GameFailure, Seating, Summary, Table

if TYPE_CHECKING:
    from rummikub.play.protocol import SelfPlay

__all__ = [
    "CSV_HEADER",
    "MAX_GAMES",
    "ROLES",
    "DuelReport",
    "Pairing",
    "a_share",
    "deal_seed",
    "duel",
    "score_difference",
    "seatings",
    "summarize",
    "to_csv",
    "to_text",
]

#: The roles at the seats before any rotation: A first, then B, in turn.
ROLES = ("A", "B", "A", "B")


class Pairing(abc.ABC):
    """What every game of a duel shares: player ``a`` against player ``b`` (by name, as the
    game's strategies know them; the same name twice is allowed), ``players`` seats, the
    ``seed`` of the deals. A domain's setup extends it with its game and the parts of the
    report that are its own."""

    __slots__ = ()

    a: str
    b: str
    players: int
    seed: int

    # -- what a domain's setup says ------------------------------------------------------

    @property
    @abc.abstractmethod
    def game(self) -> SelfPlay[Any, Any, Any, Any]:
        """The game both play."""
        raise NotImplementedError

    #: What salts the deals' seeds (:func:`deal_seed`).
    deal_salt = "rummikub-duel"
    #: The endings the report counts, in its order (each at 0 when none happened).
    ending_names: tuple[str, ...] = ()

    @property
    def lowest_wins(self) -> bool:
        """Whether the lowest score wins (then the difference is B's less A's)."""
        return False

    def title(self) -> str:
        """The report's first line."""
        return f"A {self.a} against B {self.b}: {self.players} players, seed {self.seed}"

    def head_data(self) -> dict[str, Any]:
        """The report's first JSON keys (before ``a``)."""
        return {}

    def setup_data(self) -> dict[str, Any]:
        """The setup's JSON keys after ``seed`` (the rules)."""
        return {}

    def score_line(self, mean: float, ci: tuple[float, float]) -> str:
        """The line of the score difference."""
        return (
            f"Score A-B: mean {mean:+.1f} a game "
            f"(95% CI {ci[0]:+.1f} to {ci[1]:+.1f}, paired by deal)"
        )

    def extras(self, games: Sequence[Summary]) -> dict[str, Any]:
        """The JSON keys of the domain's own figures over the games counted (before
        ``endings``)."""
        return {}

    def extra_lines(self, extras: dict[str, Any]) -> list[str]:
        """The lines of the domain's own figures (:meth:`extras`), after the turns."""
        return []

    def endings_line(self, endings: dict[str, int]) -> str:
        """The line of the endings counted."""
        return ", ".join(f"{count} {name.replace('_', ' ')}" for name, count in endings.items())

    # -- the duel's seatings -------------------------------------------------------------

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

    def key(self) -> dict[str, Any]:
        """**The** settings that decide the duel's games, deal by deal (the count of games
        does not: a deal's seed is the duel's seed and the deal's number): what a game kept
        in a ``--save`` file (:mod:`rummikub.play.kept`) must match to stand for one of this
        duel's."""
        return {
            "game": self.game.name,
            "a": self.a,
            "b": self.b,
            "players": self.players,
            "seed": self.seed,
            **self.setup_data(),
        }

    def pair(self) -> tuple[str, ...]:
        """``a`` and ``b``, checked to be names: the domain's setup then checks them as a
        run's strategies (:func:`rummikub.play.selfplay.check_lineup`)."""
        return names((self.a, self.b), "a and b")

    def name(self, role: str) -> str:
        return self.a if role == "A" else self.b

    def table(self) -> Table:
        return Table.of(self.game, (self.a, self.b))

    def schedule(self, games: int) -> list[Seating]:
        return seatings(self, self.check_games(games))

    def check_games(self, games: int) -> int:
        """The number of deals of ``games`` games, or a :class:`RummikubError`."""
        per = len(self.seatings)
        if games < per or games % per:
            raise ArgumentError(
                f"--games {games}: a duel of {self.players} players plays every deal "
                f"{per} times (once per seating), so --games must be a positive multiple "
                f"of {per}"
            )
        if games > MAX_GAMES:
            raise ArgumentError(f"--games {games}: a duel plays at most {MAX_GAMES:,} games")
        return games // per


def deal_seed(seed: int, deal: int, salt: str = "rummikub-duel") -> int:
    """The seed of deal ``deal`` of a duel: a hash, so duels with nearby seeds share no
    deals, and none with ``simulate``'s games."""
    digest = hashlib.sha256(f"{salt}:{seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seatings(setup: Pairing, deals: int) -> list[Seating]:
    """The games of a duel in index order: game ``d * k + r`` plays deal ``d`` in seating
    ``r`` (``k`` seatings), so the games of a deal are neighbours and share its seed."""
    found = []
    lineups = setup.seatings
    for deal in range(deals):
        seed = deal_seed(setup.seed, deal, setup.deal_salt)
        for rotation, roles in enumerate(lineups):
            seats = tuple(setup.name(role) for role in roles)
            found.append(Seating(deal * len(lineups) + rotation, seed, seats))
    return found


#: A duel's games (:func:`rummikub.play.selfplay.play` on a :class:`Pairing`).
duel = selfplay.play


# -- the report ------------------------------------------------------------------------------


def _round(value: float) -> float:
    return round(value, 6)


@dataclass(frozen=True, slots=True)
class DuelReport:
    setup: Any  # a domain's Pairing (a dataclass of its own)
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
    #: The domain's own figures (:meth:`Pairing.extras`), as JSON keys.
    extras: dict[str, Any] | None = None

    def to_data(self) -> dict[str, Any]:
        setup: Pairing = self.setup
        return {
            **setup.head_data(),
            "a": setup.a,
            "b": setup.b,
            "players": setup.players,
            "seed": setup.seed,
            **setup.setup_data(),
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
            **(self.extras or {}),
            "endings": dict(self.endings),
            "failures": [failure.to_data() for failure in self.failures],
        }


def a_share(game: Summary, roles: Sequence[str]) -> float:
    """A's share of the win of ``game`` (seated as ``roles``): a tie shares the win."""
    if not game.winners:
        return 0.0
    return sum(1 for seat in game.winners if roles[seat] == "A") / len(game.winners)


def score_difference(game: Summary, roles: Sequence[str], lowest_wins: bool = False) -> float:
    """The mean score of A's seats less the mean score of B's; B's less A's where the
    lowest score wins (so that a positive difference favours A either way)."""
    a = [score for score, role in zip(game.scores, roles, strict=True) if role == "A"]
    b = [score for score, role in zip(game.scores, roles, strict=True) if role == "B"]
    difference = math.fsum(a) / len(a) - math.fsum(b) / len(b)
    return -difference if lowest_wins else difference


def summarize(setup: Pairing, games: Sequence[Any]) -> DuelReport:
    """The report of a duel's ``games`` (read in index order, grouped by deal)."""
    lineups = setup.seatings
    per = len(lineups)
    everything = selfplay.in_order(games)
    deals: dict[int, list[Any]] = {}
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
    counted: list[Any] = []
    endings = dict.fromkeys(setup.ending_names, 0)
    decisive_a = decisive_b = 0
    for found in whole:
        deal_shares = [a_share(g, lineups[g.index % per]) for g in found]
        deal_differences = [
            score_difference(g, lineups[g.index % per], setup.lowest_wins) for g in found
        ]
        shares += deal_shares
        differences.append(math.fsum(deal_differences) / per)
        turns += [g.turns for g in found]
        counted += found
        decisive_a += all(share == 1.0 for share in deal_shares)
        decisive_b += all(share == 0.0 for share in deal_shares)
    for game in counted:
        for name, count in game.endings.items():
            endings[name] = endings.get(name, 0) + count
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
        failures=selfplay.failures_of(everything),
        extras=setup.extras(counted),
    )


def to_text(report: DuelReport) -> str:
    """The report for people."""
    setup: Pairing = report.setup
    lo, hi = report.a_win_ci
    tlo, thi = report.turns_ci
    seatings = " | ".join(" ".join(roles) for roles in setup.seatings)
    lines = [
        setup.title(),
        f"{report.games} games: {report.deals} deals, each in {len(setup.seatings)} "
        f"seatings ({seatings})",
        f"A wins {report.a_win_rate:.1%} of the games (95% CI {lo:.1%}-{hi:.1%}; "
        f"even: {setup.even_rate:.1%})",
        setup.score_line(report.score_difference, report.score_difference_ci),
        f"Deals won in every seating: {report.decisive_a} by A, {report.decisive_b} by B; "
        f"{report.split} split",
        f"Turns: mean {report.mean_turns:.1f} (95% CI {tlo:.1f}-{thi:.1f}), "
        f"min {report.min_turns}, max {report.max_turns}",
        *setup.extra_lines(report.extras or {}),
        setup.endings_line(report.endings),
    ]
    lines += selfplay.failures_text(
        report.failures, "their deals are left out of the figures above"
    )
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
