"""Determinized Monte Carlo, written once for every game: the equity of a decision.

A player who cannot see the other hands or the pool asks which of a few candidate decisions
is most likely to win. The answer here, for any game that says what it needs
(:class:`Search`):

1. **Deals** (:func:`deals`): ``samples`` full states consistent with what the player sees
   (:meth:`Search.determinize`), each from its own seed ``base + i``, ``base`` drawn from
   everything the player sees (:meth:`Search.seed_of`): the same view and budget give the
   same deals whatever the load or the order decisions are taken in.
2. **Playouts** (:func:`play_out`): every candidate is applied to *every* deal (common random
   numbers: two candidates are compared on equal luck, which is what decides between them)
   and the hand played on for ``rounds`` rounds (:meth:`Search.playout`); with ``explore``
   the playouts' players sometimes play a variant of their best decision, and the variants
   of one deal come from one random stream (seeded ``f"{base}:{index}"``) shared by every
   candidate, again so that they meet the same luck.
3. **Scoring** (:meth:`Search.scored`): 1 for a won hand, 0 for a lost one, a share of a
   shared win, and the game's own estimate for a hand still running; with the lead and the
   score as tie-break and margin.
4. **The answer** (:class:`Outcome`, :func:`ranked`): each candidate's mean win with an
   honest 95% interval (:func:`interval`: the central 95% of its playouts, not the interval
   of the mean, which counts only the luck of the deals), best first.

The budget (:class:`Budget`) is a count of samples and rounds, never a clock, so a decision
is the same on any machine. A clock may only stop the work: a time limit or a stop signal
(:mod:`rummikub.core.deadline`, :func:`limited`) ends :func:`play_out` between playouts,
whole deals only, and the answer then says it stopped (:class:`Stopped`, or
:attr:`Outcome.stopped` where a partial answer is asked for). Nothing here knows a tile or
a card: each domain implements :class:`Search` (the tiles:
:class:`rummikub.tiles.game.equity.TileSearch`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from rummikub.core import deadline
from rummikub.core.arguments import flag, fraction, instance, whole
from rummikub.core.errors import ArgumentError
from rummikub.core.stats import mean_ci, wilson

__all__ = [
    "Budget",
    "Outcome",
    "Progress",
    "Search",
    "Stopped",
    "deals",
    "interval",
    "limited",
    "mean_interval",
    "play_out",
    "ranked",
    "stopped_by",
    "stopped_data",
    "stopped_words",
    "wins_of",
]

State = TypeVar("State")
View = TypeVar("View")
Decision = TypeVar("Decision")
_View_contra = TypeVar("_View_contra", contravariant=True)
_Decision_contra = TypeVar("_Decision_contra", contravariant=True)


@dataclass(frozen=True, slots=True)
class Budget:
    """How much work one decision may do: deals sampled, and rounds played out on each.

    ``explore`` is the chance that a player of a playout, at each turn, plays a variant of
    the best decision instead of it (the game's :meth:`Search.playout` says which): 0 plays
    every playout greedily, so that a deal has one line; above 0 the playouts of one deal
    differ, and their spread shows how much the result hangs on how the hand is played (the
    ``analyse --equity`` budget explores; the ``equity`` strategy's does not).

    ``fast`` plays the playouts' turns with the game's fast move rather than its best one:
    for tiles :func:`rummikub.tiles.fastplay.fast_move` instead of an exact solve (several
    times cheaper, not always the best move: ``benchmarks/RESULTS.md``, "The fast playout
    move"); a card game's playouts already play its strategies' own quick moves, so there it
    changes nothing. The candidates themselves are always the game's exact ones.
    """

    samples: int = 6
    rounds: int = 1
    explore: float = 0.0
    fast: bool = False

    def __post_init__(self) -> None:
        # Types first (a sample count of 1.5 or "6" is a mistake, not a budget), one line each.
        whole(self.samples, "samples")
        whole(self.rounds, "rounds")
        fraction(self.explore, "explore")
        flag(self.fast, "fast")
        if self.samples < 1 or self.rounds < 0:
            raise ArgumentError(
                f"an equity budget needs at least 1 sample and 0 rounds, not "
                f"{self.samples} and {self.rounds}"
            )


class Search(Protocol[State, _View_contra, _Decision_contra]):
    """What determinized Monte Carlo needs of a game.

    ``State`` is a full state (hidden parts included), ``View`` what the deciding seat sees,
    ``Decision`` one candidate (a move, a draw, a discard: whatever the game decides).
    Every method is a pure function of its arguments and ``rng``.
    """

    def seat_of(self, view: _View_contra) -> int:
        """The seat deciding (from 0)."""
        ...

    def seed_of(self, view: _View_contra) -> int:
        """A seed from everything the seat sees, so that a decision is the same whatever the
        load or the order decisions are taken in."""
        ...

    def determinize(self, view: _View_contra, rng: random.Random) -> State:
        """One full state consistent with ``view``, what it hides dealt by ``rng`` alone."""
        ...

    def apply(self, state: State, decision: _Decision_contra) -> State:
        """The state after the seat to move takes ``decision`` on one deal (not judged: a
        candidate is legal by construction)."""
        ...

    def over(self, state: State) -> bool:
        """Whether the hand (the game, for the playouts) has ended."""
        ...

    def playout(
        self, state: State, rounds: int, explore: float, rng: random.Random | None
    ) -> State:
        """The state after every player in turn plays on for ``rounds`` rounds (or to the
        end): the best decision, or with chance ``explore`` (drawn from ``rng``, None when
        ``explore`` is 0) a variant of it."""
        ...

    def scored(self, state: State, seat: int) -> tuple[float, float, float]:
        """A playout's end for ``seat``: its win (1, 0 or a share of a finished hand; an
        estimate of a running one), its lead over the others (a tie-break), its score."""
        ...


@dataclass(frozen=True, slots=True)
class Outcome(Generic[Decision]):
    """One candidate's playouts on the common deals."""

    label: str
    decision: Decision
    #: The win on each deal, in the deals' order.
    wins: tuple[float, ...]
    #: The mean of :attr:`wins`, and its honest 95% interval (:func:`interval`).
    win: float
    ci: tuple[float, float]
    #: The 95% normal interval of the mean (the deals' luck alone: :func:`mean_interval`).
    mean_ci: tuple[float, float]
    #: The mean lead and score at the playouts' ends.
    lead: float
    score: float
    samples: int
    #: The share of the playouts whose hand ended (the others were scored by an estimate).
    finished: float
    #: True when the candidate itself ends the hand on every deal: :attr:`ci` is a point.
    certain: bool
    #: True when the time limit or the stop signal cut the playouts short: :attr:`samples`
    #: deals were played (the same for every candidate), fewer than the budget's.
    stopped: bool = False


class Stopped(Exception):
    """The time limit or the stop signal (:mod:`rummikub.core.deadline`) cut an estimate
    short: ``done`` of the ``asked`` deals were played out for every candidate. Raised where
    no answer may come from unfinished work (a strategy's decision, a review, a request that
    did not take a partial answer), and where not even one deal was done."""

    def __init__(self, done: int, asked: int, *, stopped: bool = False) -> None:
        self.done = done
        self.asked = asked
        #: True when told to stop (the client went away, the server stops), not out of time.
        self.stopped = stopped
        cause = "the work was stopped" if stopped else "the time limit ran out"
        super().__init__(
            f"{cause} after {done} of {asked} playouts per candidate: too few to compare "
            "the candidates (ask for fewer playouts or rounds, or allow more time)"
        )


#: ``progress(done, total)``: called after every playout of :func:`play_out`.
Progress = Callable[[int, int], None]


class _Ranked(Protocol):
    @property
    def win(self) -> float: ...

    @property
    def lead(self) -> float: ...


_R = TypeVar("_R", bound=_Ranked)


def deals(
    search: Search[State, View, Decision],
    view: View,
    budget: Budget,
    *,
    seed: int | None = None,
) -> list[State]:
    """The ``budget.samples`` deals every candidate is played out on: deal ``i`` from
    ``random.Random(base + i)``, ``base`` being ``seed`` or :meth:`Search.seed_of` the view."""
    instance(budget, Budget, "budget", "Budget(samples=6)")
    base = search.seed_of(view) if seed is None else seed
    return [search.determinize(view, random.Random(base + i)) for i in range(budget.samples)]


def play_out(
    search: Search[State, View, Decision],
    view: View,
    candidates: Sequence[tuple[str, Decision]],
    budget: Budget,
    *,
    seed: int | None = None,
    deals: Sequence[State] | None = None,
    progress: Progress | None = None,
    partial: bool = False,
) -> list[Outcome[Decision]]:
    """Each ``(label, decision)`` candidate played out on the same deals, in candidate order.

    ``deals`` are :func:`deals` of the view at ``seed`` unless given (they must come from the
    same ``seed`` for the explore streams to match them). Playout ``index`` of every candidate
    draws its variants from ``random.Random(f"{base}:{index}")`` when ``budget.explore`` > 0.
    ``progress(done, total)`` follows every playout.

    The deals are taken in turn, every candidate played out on one before the next, and the
    time limit and the stop signal (:mod:`rummikub.core.deadline`) are looked at between
    playouts: once either cuts the work, a solve inside a playout may have answered "no move"
    for want of time (a playout where nobody moves), so the deal at work is dropped whole
    and the playouts end. Every candidate then has the same deals, fewer than asked: with
    ``partial`` the outcomes say so (:attr:`Outcome.stopped`, :attr:`Outcome.samples`), else
    :class:`Stopped` is raised; with no deal done it is raised either way. A run that no
    limit cuts gives the same outcomes as before, playout for playout.
    """
    instance(budget, Budget, "budget", "Budget(samples=6)")
    base = search.seed_of(view) if seed is None else seed
    states = list(deals) if deals is not None else _deals(search, view, budget, base)
    seat = search.seat_of(view)
    total, done = len(candidates) * len(states), 0
    # Per candidate: each deal's (win, lead, score), whether the candidate itself ended the
    # hand on it, and whether the playout's did.
    tallies: list[list[tuple[float, float, float, bool, bool]]] = [[] for _ in candidates]
    for index, state in enumerate(states):
        if deadline.passed():
            break
        row: list[tuple[float, float, float, bool, bool]] = []
        for _, decision in candidates:
            if deadline.passed():
                break  # the deal is dropped below: no need to finish it
            after = search.apply(state, decision)
            # Every candidate meets the same variants on the same deal (common random
            # numbers, as for the deals).
            rng = random.Random(f"{base}:{index}") if budget.explore > 0 else None
            end = search.playout(after, budget.rounds, budget.explore, rng)
            win, lead, score = search.scored(end, seat)
            row.append((win, lead, score, search.over(after), search.over(end)))
            done += 1
            if progress is not None:
                progress(done, total)
        if deadline.passed():
            break  # this deal's playouts may hold solves the limit cut short
        for tally, playout in zip(tallies, row, strict=True):
            tally.append(playout)
    kept = len(tallies[0]) if tallies else len(states)
    if kept < len(states) and (kept == 0 or not partial):
        raise Stopped(kept, len(states), stopped=deadline.stopped())
    return [
        _outcome(label, decision, tally, stopped=kept < len(states))
        for (label, decision), tally in zip(candidates, tallies, strict=True)
    ]


def _outcome(
    label: str,
    decision: Decision,
    tally: Sequence[tuple[float, float, float, bool, bool]],
    *,
    stopped: bool,
) -> Outcome[Decision]:
    """One candidate's outcome from its playouts (each deal's win, lead, score, and whether
    the candidate, then the playout, ended the hand)."""
    wins = tuple(t[0] for t in tally)
    certain = all(t[3] for t in tally)
    return Outcome(
        label=label,
        decision=decision,
        wins=wins,
        win=sum(wins) / len(wins),
        ci=interval(wins, certain=certain),
        mean_ci=mean_interval(wins),
        lead=sum(t[1] for t in tally) / len(tally),
        score=sum(t[2] for t in tally) / len(tally),
        samples=len(wins),
        finished=sum(t[4] for t in tally) / len(tally),
        certain=certain,
        stopped=stopped,
    )


def _deals(
    search: Search[State, View, Decision], view: View, budget: Budget, base: int
) -> list[State]:
    return deals(search, view, budget, seed=base)


@contextmanager
def limited(time_limit: float | None, stop: deadline.Stop | None) -> Iterator[None]:
    """Within the block, the playouts stop (between deals, :func:`play_out`) once
    ``time_limit`` seconds have passed (None: no limit of its own; an enclosing one, a web
    request's, still holds) or once ``stop`` is set (a :class:`threading.Event` set from
    another thread; None: only an enclosing one). Raises ``TypeError``/``ValueError`` for a
    ``time_limit`` that is not a finite number of seconds above 0."""
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
            raise TypeError(f"time_limit must be a number of seconds or None, got {time_limit!r}")
        if not math.isfinite(time_limit) or time_limit <= 0:
            raise ValueError(f"time_limit={time_limit!r} must be a finite number of seconds > 0")
    if stop is not None and not callable(getattr(stop, "is_set", None)):
        raise TypeError(f"stop must be an event (with is_set()) or None, got {stop!r}")
    with (
        deadline.limit(time_limit),
        deadline.stop_when(stop) if stop is not None else nullcontext(),
    ):
        yield


def stopped_by() -> str:
    """What cut the work short, in the JSON's words: ``"stop"`` (the stop signal: the
    client went away, the server stops, the caller's event) or ``"time limit"``."""
    return "stop" if deadline.stopped() else "time limit"


def stopped_data(done: int, asked: int, by: str | None) -> dict[str, Any]:
    """The keys an estimate's JSON gains when the playouts were cut short: ``"status":
    "stopped"``, what stopped them, and the playouts each candidate had (``done`` of the
    ``asked``, which the JSON's ``"playouts"`` keeps saying)."""
    return {"status": "stopped", "stopped_by": by or "time limit", "playouts_done": done}


def stopped_words(done: int, asked: int, by: str | None) -> str:
    """A stopped estimate in words, for the text outputs."""
    cause = "it was stopped" if by == "stop" else "the time limit ran out"
    return (
        f"Stopped early after {done} of {asked} playouts per candidate ({cause}): the "
        "chances are rough and no move is advised."
    )


def wins_of(
    search: Search[State, View, Decision],
    view: View,
    decision: Decision,
    budget: Budget,
    *,
    seed: int | None = None,
) -> tuple[float, ...]:
    """The win of one ``decision`` judged apart (one a review found played but the candidates
    lacked) on each of the deals :func:`play_out` gives the candidates at the same ``seed``
    and budget: its mean is the win it would have had as a candidate."""
    [outcome] = play_out(search, view, [("played", decision)], budget, seed=seed)
    return outcome.wins


def ranked(outcomes: Sequence[_R]) -> list[_R]:
    """``outcomes`` best first: the highest win, then the highest lead, then the earlier (the
    candidates' order puts the game's own first choice first)."""
    return sorted(outcomes, key=lambda o: (-o.win, -o.lead))


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95% normal interval of the mean (``core.stats.mean_ci``), clipped to [0, 1]; with
    one value nothing is known."""
    if len(values) < 2:
        return (0.0, 1.0)
    _, (low, high) = mean_ci(values)
    return (max(0.0, low), min(1.0, high))


def interval(values: Sequence[float], *, certain: bool = False) -> tuple[float, float]:
    """The 95% interval of a candidate's win: the central 95% of its playouts' outcomes
    (from the 2.5% quantile, rounded down, to the 97.5%, rounded up: every outcome below 40
    playouts), widened to hold at least the Wilson interval of as many hands played to their
    end at the mean's rate; a point when the candidate itself ends the hand (``certain``);
    with one playout nothing is known.

    Not the interval of the mean (:func:`mean_interval`): that one counts only the luck of
    the deals, and the playouts' own bias (a playout plays a greedy line, not the best one,
    and a hand still running is scored by a model that gives many deals the same value) is
    larger than it. ``tests/test_equity_honesty.py`` holds this interval to the tile exact
    endgame's value: the interval of the mean held it in about half the endgames, this one
    in 95% or more (benchmarks/RESULTS.md, "analyse --equity").
    """
    mean = math.fsum(values) / len(values) if values else 0.0
    if certain and values:
        return (mean, mean)
    if len(values) < 2:
        return (0.0, 1.0)
    ordered = sorted(values)
    last = len(ordered) - 1
    low = ordered[math.floor(0.025 * last)]
    high = ordered[math.ceil(0.975 * last)]
    floor, ceiling = wilson(mean * len(values), len(values))
    return (max(0.0, min(low, floor, mean)), min(1.0, max(high, ceiling, mean)))
