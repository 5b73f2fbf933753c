"""The equity review's arithmetic, written once for every game: skill and luck, in win
probability.

A review replays a record and, for each turn whose hand is known, asks determinized Monte
Carlo (:mod:`rummikub.play.equity`) for the mover's chance to win with the best candidate
and with the decision played: the difference is the equity the turn **lost**, marked from
its thresholds (:func:`mark_of`) and turned into an **accuracy** (:func:`accuracy_of`). A
draw's **luck** (:func:`draw_luck`) is the equity after what was drawn less its mean over
everything that could have been drawn. :func:`lines` sums it all up per player
(:class:`PlayerLine`). What a turn and a draw are, each domain says (the tiles:
:mod:`rummikub.tiles.game.review`); nothing here knows a tile or a card.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from rummikub.core import deadline
from rummikub.core.arguments import instance
from rummikub.core.errors import RummikubError
from rummikub.play.equity import Budget, Search, Stopped, deals

State = TypeVar("State")
View = TypeVar("View")
Decision = TypeVar("Decision")

__all__ = [
    "ACCURACY_SCALE",
    "BLUNDER",
    "INACCURACY",
    "KEY_LUCK",
    "MISTAKE",
    "THRESHOLDS",
    "Judged",
    "Judgement",
    "PlayerLine",
    "accuracy_of",
    "draw_equities",
    "draw_luck",
    "judge",
    "key_moment",
    "lines",
    "lost_of",
    "mark_of",
    "review_arguments",
    "rounded",
    "written_mark",
]

#: The marks of a turn by the equity it lost (the best candidate's win probability less the
#: decision played's), each from its threshold on (at least): ``?!`` an inaccuracy, ``?`` a
#: mistake, ``??`` a blunder. A point of win probability is 0.01.
INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.20
THRESHOLDS: tuple[tuple[str, float], ...] = (("??", BLUNDER), ("?", MISTAKE), ("?!", INACCURACY))

#: A turn's accuracy is ``100 * exp(-lost / ACCURACY_SCALE)``: 100 for the best move, 82 at
#: an inaccuracy's threshold, 67 at a mistake's, 45 at a blunder's.
ACCURACY_SCALE = 0.25


def mark_of(lost: float) -> str | None:
    """The mark of a turn that lost ``lost`` of win probability (None below 0.05).

    >>> [mark_of(x) for x in (0.0, 0.049, 0.05, 0.1, 0.2)]
    [None, None, '?!', '?', '??']
    """
    for mark, threshold in THRESHOLDS:
        if lost >= threshold:
            return mark
    return None


def written_mark(lost: float) -> str | None:
    """The mark of ``lost`` as a review writes it: rounded to 4 decimals (:func:`rounded`)
    first, so that a record's written ``lost`` gives its ``mark`` back.

    >>> written_mark(0.04996), mark_of(0.04996)
    ('?!', None)
    """
    return mark_of(round(lost, 4))


#: A draw whose luck is this large either way (a blunder's worth of win probability) is a key
#: moment of the game, as a marked turn is (:func:`key_moment`).
KEY_LUCK = BLUNDER


def key_moment(mark: str | None, luck: float | None) -> bool:
    """Whether a turn is a key moment of the game, one a review jumps between: a marked turn
    (``?!`` and worse), or a draw whose luck reached :data:`KEY_LUCK` either way.

    >>> key_moment("?!", None), key_moment(None, -0.2), key_moment(None, 0.19)
    (True, True, False)
    """
    return mark is not None or (luck is not None and abs(luck) >= KEY_LUCK)


def accuracy_of(lost: float) -> float:
    """A turn's accuracy, 0-100, from the equity it lost (see :data:`ACCURACY_SCALE`).

    >>> accuracy_of(0.0), round(accuracy_of(0.25), 2)
    (100.0, 36.79)
    """
    return 100.0 * math.exp(-max(0.0, lost) / ACCURACY_SCALE)


def lost_of(best: float, played: float) -> float:
    """The equity a turn lost: the best candidate's win less the decision played's, never
    below 0 (a decision the playouts liked better than the best candidate lost nothing)."""
    return max(0.0, best - played)


class _Candidate(Protocol):
    @property
    def win(self) -> float: ...


_C = TypeVar("_C", bound=_Candidate)


@dataclass(frozen=True, slots=True)
class Judgement(Generic[_C]):
    """One turn judged in win probability (:func:`judge`)."""

    #: The best candidate, and its chance to win: the mover's before the turn.
    best: _C
    win: float
    #: The chance the decision played kept, and the equity lost (:func:`lost_of`).
    played_win: float
    lost: float
    #: How many candidates there were: with one there was no choice (the turn is not graded).
    choices: int


def judge(
    candidates: Sequence[_C],
    played: Callable[[_C], bool],
    apart: Callable[[], Sequence[float]],
) -> Judgement[_C]:
    """A turn judged: ``candidates`` are the position's, best first (each with its ``win``);
    the decision played is the first candidate ``played`` says it is, and when none is, its
    wins on the same deals are ``apart()`` (:func:`rummikub.play.equity.wins_of`), their mean
    its win."""
    best = candidates[0]
    mine = [c for c in candidates if played(c)]
    if mine:
        played_win = mine[0].win
    else:
        wins = apart()
        played_win = math.fsum(wins) / len(wins)
    return Judgement(
        best=best,
        win=best.win,
        played_win=played_win,
        lost=lost_of(best.win, played_win),
        choices=len(candidates),
    )


_Kind = TypeVar("_Kind", bound=Hashable)


def draw_luck(equities: Mapping[_Kind, float], counts: Mapping[_Kind, int], drawn: _Kind) -> float:
    """The luck of drawing ``drawn``: the drawer's equity after it (``equities``, by kind)
    less the mean over every kind that could have been drawn, each weighted by how many of
    it could have been (``counts``: zero on average over the draws).

    >>> draw_luck({"a": 1.0, "b": 0.0}, {"a": 1, "b": 3}, "a")
    0.75
    """
    if drawn not in equities:
        raise RummikubError(f"{drawn} could not be drawn")
    total = sum(counts.values())
    mean = math.fsum(counts[k] * e for k, e in equities.items()) / total
    return equities[drawn] - mean


def draw_equities(
    search: Search[State, View, Decision],
    view: View,
    kinds: Iterable[_Kind],
    drawing: Callable[[State, _Kind], State],
    budget: Budget,
    *,
    seed: int | None = None,
) -> dict[_Kind, float]:
    """The drawer's equity after drawing each of ``kinds`` (what could be drawn, as the
    drawer saw it before the draw), by kind.

    For each kind, each of the deals the equity of the turn is measured on
    (:func:`rummikub.play.equity.deals` of ``view`` at ``seed``: every kind on the same luck)
    is taken to the state after drawing it (``drawing(deal, kind)``, the game's: a uniform
    deal given that the kind is drawn), played out greedily for ``budget.rounds`` rounds and
    scored for the drawer; a kind's equity is the mean over the deals. The figures depend only
    on what the drawer saw and the budget, never on what was actually drawn. The luck is all
    the kinds or nothing: once the time limit or the stop signal cuts the work
    (:mod:`rummikub.core.deadline`), :class:`~rummikub.play.equity.Stopped` is raised.
    """
    states = deals(search, view, budget, seed=seed)
    seat = search.seat_of(view)
    equities: dict[_Kind, float] = {}
    for kind in kinds:
        wins = []
        for deal in states:
            if deadline.passed():
                raise Stopped(0, len(states), stopped=deadline.stopped())
            end = search.playout(drawing(deal, kind), budget.rounds, 0.0, None)
            wins.append(search.scored(end, seat)[0])
        equities[kind] = math.fsum(wins) / len(wins)
    if deadline.passed():
        # The last playouts may hold solves the limit cut short.
        raise Stopped(0, len(states), stopped=deadline.stopped())
    return equities


def rounded(value: float | None) -> float | None:
    """A figure of the review as its JSON writes it: 4 decimals (None stays None)."""
    return None if value is None else round(value, 4)


class Judged(Protocol):
    """What :func:`lines` needs of one turn of a review."""

    @property
    def seat(self) -> int: ...

    @property
    def graded(self) -> bool:
        """Whether the turn counts: its equity known and a choice to make."""
        ...

    @property
    def lost(self) -> float | None: ...

    @property
    def mark(self) -> str | None: ...

    @property
    def luck(self) -> float | None:
        """A draw's luck (None for another turn, or a draw whose card or tile is unknown)."""
        ...


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """One player's summary: the turns graded, the equity lost, the accuracy and the luck."""

    seat: int
    player: str
    graded: int
    lost: float
    #: The mean of the graded turns' accuracies (None with no graded turn).
    accuracy: float | None
    #: The sum of the player's draws' luck (draws whose tile is known).
    luck: float
    draws: int
    marks: tuple[tuple[str, int], ...]

    def to_data(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player,
            "graded": self.graded,
            "lost": rounded(self.lost),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "luck": rounded(self.luck),
            "draws": self.draws,
            "marks": dict(self.marks),
        }


def lines(players: Sequence[str], turns: Sequence[Judged]) -> tuple[PlayerLine, ...]:
    """Each player's line (by seat, ``players`` their names) from the review's turns: the
    graded turns, their equity lost summed, their mean accuracy, each mark counted (``?!``
    first), and the luck of their draws summed."""
    found = []
    for seat, name in enumerate(players):
        mine = [t for t in turns if t.seat == seat]
        graded = [t for t in mine if t.graded and t.lost is not None]
        lost = [t.lost for t in graded if t.lost is not None]
        luck = [t.luck for t in mine if t.luck is not None]
        marks = tuple(
            (mark, sum(1 for t in graded if t.mark == mark)) for mark, _ in THRESHOLDS[::-1]
        )
        found.append(
            PlayerLine(
                seat=seat,
                player=name,
                graded=len(graded),
                lost=math.fsum(lost),
                accuracy=math.fsum(accuracy_of(x) for x in lost) / len(lost) if lost else None,
                luck=math.fsum(luck),
                draws=len(luck),
                marks=marks,
            )
        )
    return tuple(found)


#: One turn of a review as a game judges it.
_J = TypeVar("_J", bound=Judged)
#: What a game hands its judge for one turn (the states around it, the turn).
_Item = TypeVar("_Item")
#: ``progress(done, total)``: called after each turn a review judges.
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Review(Generic[_J]):
    """A record's equity review, whatever its game: every turn judged in win probability,
    up to the first turn the replay refused (``problem`` says why it stopped), and each
    player's line. A game subclasses it with what its turns' JSON needs."""

    path: str
    budget: Budget
    turns: tuple[_J, ...]
    players: tuple[PlayerLine, ...]
    problem: str | None

    def review_data(self, turns: Sequence[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        """The review's JSON: ``record``, then the game's own keys (``extra``), the budget,
        the marks' thresholds, the ``turns`` as the game writes them, the players' lines and
        the problem."""
        return {
            "record": self.path,
            **extra,
            "budget": {"samples": self.budget.samples, "rounds": self.budget.rounds},
            "thresholds": {mark: threshold for mark, threshold in THRESHOLDS},
            "turns": list(turns),
            "players": [line.to_data() for line in self.players],
            "problem": self.problem,
        }


def reviewed(
    items: Sequence[_Item], judge: Callable[[_Item], _J], progress: Progress | None = None
) -> tuple[_J, ...]:
    """Every turn of a review judged in order (``judge`` of each item), ``progress(done,
    total)`` called after each: the turns are judged one at a time, so a long review shows
    how far it is."""
    judged = []
    for done, item in enumerate(items, 1):
        judged.append(judge(item))
        if progress is not None:
            progress(done, len(items))
    return tuple(judged)


def review_arguments(record: object, kind: type, path: object, budget: object) -> None:
    """**The** check of a review's arguments, in either game: a record of the game's
    ``kind``, the ``path`` that names it (text) and an equity :class:`Budget`."""
    instance(record, kind, "record", "load_record(path)")
    instance(path, str, "path")
    instance(budget, Budget, "budget", "Budget(samples=6)")
