"""A record graded turn by turn: each turn whose rack is known against the best move.

Glue between two libraries that do not know each other: :mod:`rummikub.tiles.game.engine` replays
the record and gives the position before each turn, :mod:`rummikub.tiles.analysis` grades the
turn taken in it. A play is judged by the checker and compared with the best move; a draw (or
a pass) is compared with the best move too, which says whether a move was there to be made.
``rummikub analyse RECORD`` and the web page's review mode both read it from here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rummikub.core.errors import RummikubError
from rummikub.tiles.game.engine import GameState, advance
from rummikub.tiles.game.equity import DEFAULT, Budget, Candidate
from rummikub.tiles.game.record import Draw, Play, Record, Turn
from rummikub.tiles.game.view import View, unseen
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import Tile

if TYPE_CHECKING:
    from rummikub.tiles.analysis import Grade

__all__ = [
    "ACCURACY_SCALE",
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "THRESHOLDS",
    "EquityReview",
    "EquityTurn",
    "GradedTurn",
    "PlayerLine",
    "Review",
    "accuracy_of",
    "draw_equities",
    "draw_luck",
    "equity_review",
    "mark_of",
    "review_record",
]


@dataclass(frozen=True, slots=True)
class GradedTurn:
    number: int
    player: str
    #: ``play``, ``draw`` or ``pass``.
    kind: str
    #: None where the player's rack is unknown (another player at a real table).
    grade: Grade | None

    def to_data(self) -> dict[str, Any]:
        return {
            "turn": self.number,
            "player": self.player,
            "move": self.kind,
            "grade": None if self.grade is None else self.grade.to_data(),
        }


@dataclass(frozen=True, slots=True)
class Review:
    """Every turn of a record graded, up to the first turn the replay refused."""

    path: str
    turns: tuple[GradedTurn, ...]
    #: Why the replay stopped early (an illegal or unreadable turn), if it did.
    problem: str | None

    @property
    def graded(self) -> tuple[GradedTurn, ...]:
        return tuple(t for t in self.turns if t.grade is not None)

    @property
    def proven(self) -> bool:
        return all(t.grade.best.proven for t in self.graded if t.grade is not None)

    def to_data(self) -> dict[str, Any]:
        gaps = [t.grade.value_gap for t in self.graded if t.grade is not None]
        return {
            "record": self.path,
            "turns": [turn.to_data() for turn in self.turns],
            "graded": len(gaps),
            "value_gap": sum(gaps),
            "problem": self.problem,
        }


def review_record(record: Record, path: str, time_limit: float | None = None) -> Review:
    """Replay ``record`` (named ``path``) and grade each turn whose rack is known."""
    from rummikub.tiles.analysis import grade, grade_draw
    from rummikub.tiles.game import engine

    turns: list[GradedTurn] = []
    for number, seat, turn, position in engine.positions(record):
        kind = "play" if isinstance(turn, Play) else "draw" if isinstance(turn, Draw) else "pass"
        graded: Grade | None = None
        if position is not None:
            if isinstance(turn, Play):
                graded = grade(position, turn.table, time_limit=time_limit)
            else:
                graded = grade_draw(position, time_limit=time_limit)
        turns.append(GradedTurn(number, record.players[seat], kind, graded))
    problem = engine.replay(record).problem
    return Review(path, tuple(turns), problem)


# -- the equity review: skill and luck, in win probability ---------------------------------

#: The marks of a turn by the equity it lost (the best candidate's win probability less the
#: move played's), each from its threshold on (at least): ``?!`` an inaccuracy, ``?`` a
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


def accuracy_of(lost: float) -> float:
    """A turn's accuracy, 0-100, from the equity it lost (see :data:`ACCURACY_SCALE`)."""
    return 100.0 * math.exp(-max(0.0, lost) / ACCURACY_SCALE)


@dataclass(frozen=True, slots=True)
class EquityTurn:
    """One turn of the equity review. The equity figures are None where the rack is unknown."""

    number: int
    seat: int
    player: str
    #: ``play``, ``draw`` or ``pass``.
    kind: str
    #: The tiles laid (a play), and the tile drawn (a draw, when known).
    played: tuple[Tile, ...]
    drew: Tile | None
    #: The mover's chance to win before the turn: the best candidate's.
    win: float | None = None
    #: The chance the move played kept, and the equity lost (``win - played_win``, >= 0).
    played_win: float | None = None
    lost: float | None = None
    #: The best candidate (its label, move and win), and how many candidates there were: a
    #: turn with one candidate (nothing could be laid) had no choice and is not graded.
    best: Candidate | None = None
    choices: int = 0
    #: A draw's luck: the equity after the tile drawn less the mean over the tiles that
    #: could have been drawn (None for other turns, or a tile not known).
    luck: float | None = None

    @property
    def graded(self) -> bool:
        return self.lost is not None and self.choices > 1

    @property
    def mark(self) -> str | None:
        """The mark of the equity lost as the review writes it (rounded to 4 decimals, so a
        record's ``lost`` gives its ``mark`` back)."""
        if not self.graded or self.lost is None:
            return None
        return mark_of(round(self.lost, 4))

    def to_data(self, rules: Rules) -> dict[str, Any]:
        best = self.best
        return {
            "turn": self.number,
            "player": self.player,
            "seat": self.seat,
            "move": self.kind,
            "played": [str(t) for t in self.played],
            "drew": None if self.drew is None else str(self.drew),
            "win": _rounded(self.win),
            "played_win": _rounded(self.played_win),
            "lost": _rounded(self.lost),
            "mark": self.mark,
            "graded": self.graded,
            "choices": self.choices,
            "best": None
            if best is None
            else {
                "label": best.label,
                "played": [str(t) for t in sorted(best.played, key=rules.sort_key)],
                "win": _rounded(best.win),
                "ci": [_rounded(x) for x in best.ci],
            },
            "luck": _rounded(self.luck),
        }


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
            "lost": _rounded(self.lost),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 1),
            "luck": _rounded(self.luck),
            "draws": self.draws,
            "marks": dict(self.marks),
        }


@dataclass(frozen=True, slots=True)
class EquityReview:
    """Every turn of a record in win probability, up to the first turn the replay refused."""

    path: str
    rules: Rules
    budget: Budget
    turns: tuple[EquityTurn, ...]
    players: tuple[PlayerLine, ...]
    problem: str | None

    def to_data(self) -> dict[str, Any]:
        return {
            "record": self.path,
            "budget": {"samples": self.budget.samples, "rounds": self.budget.rounds},
            "thresholds": {mark: threshold for mark, threshold in THRESHOLDS},
            "turns": [turn.to_data(self.rules) for turn in self.turns],
            "players": [line.to_data() for line in self.players],
            "problem": self.problem,
        }


#: ``progress(done, total)``: called after each turn of :func:`equity_review`.
Progress = Callable[[int, int], None]


def equity_review(
    record: Record,
    path: str,
    budget: Budget = DEFAULT,
    *,
    progress: Progress | None = None,
) -> EquityReview:
    """Replay ``record`` and judge every turn whose rack is known in win probability.

    Each turn's position is evaluated as the player saw it
    (:func:`rummikub.tiles.game.view.view_of`, :func:`rummikub.tiles.game.equity.evaluate` at
    ``budget``, seeded by what the player sees); the move played is scored on the same deals, and
    the equity lost is the best candidate's win less the played move's. Each draw whose tile is
    known gets its luck (:func:`draw_luck`).
    The same record and budget give the same review, byte for byte.
    """
    from rummikub.tiles.game import engine

    game = engine.replay(record)
    legal = len(game.states) - 1
    turns: list[EquityTurn] = []
    for index, turn in enumerate(record.turns[:legal]):
        state, after = game.states[index], game.states[index + 1]
        turns.append(_judge(state, after, turn, budget))
        if progress is not None:
            progress(index + 1, legal)
    return EquityReview(
        path,
        record.rules,
        budget,
        tuple(turns),
        _lines(record.players, turns),
        game.problem,
    )


def _judge(state: GameState, after: GameState, turn: Turn, budget: Budget) -> EquityTurn:
    from rummikub.tiles.game.equity import evaluate, move_wins
    from rummikub.tiles.game.view import view_of

    seat = state.to_move
    laid = Counter(after.table_tiles()) - Counter(state.table_tiles())
    played = tuple(sorted(laid.elements(), key=state.rules.sort_key))
    kind = "play" if isinstance(turn, Play) else "draw" if isinstance(turn, Draw) else "pass"
    drew = None
    if isinstance(turn, Draw):
        rack, before = after.racks[seat], state.racks[seat]
        if rack is not None and before is not None:
            drew = next(iter(Counter(rack) - Counter(before)))
    plain = EquityTurn(state.turns + 1, seat, state.players[seat], kind, played, drew)
    if state.racks[seat] is None:
        return plain
    position, view = view_of(state, seat)
    found = evaluate(position, view, budget)
    key = played
    mine = [c for c in found.candidates if tuple(sorted(c.played, key=state.rules.sort_key)) == key]
    if mine:
        played_win = mine[0].win
    else:
        move = Move(after.table, played)
        wins = move_wins(position, view, move, budget)
        played_win = math.fsum(wins) / len(wins)
    best = found.best
    luck = draw_luck(position, view, drew, budget) if drew is not None else None
    return replace(
        plain,
        win=best.win,
        played_win=played_win,
        lost=max(0.0, best.win - played_win),
        best=best,
        choices=len(found.candidates),
        luck=luck,
    )


def draw_equities(position: Position, view: View, budget: Budget = DEFAULT) -> dict[Tile, float]:
    """The drawer's equity after drawing each tile that could be drawn (the unseen tiles, as
    the drawer saw them before the draw), by tile kind.

    For each kind ``k``, the deals :func:`evaluate` would play out (the same seeds, so every
    kind is measured on the same luck) are taken with a ``k`` moved to the front of the pool
    (swapped with the tile there; a uniform deal given that ``k`` is drawn), ``k`` is drawn
    and the hand played out as evaluate's candidates are. The figures depend only on what the
    drawer saw and the budget, never on the tile actually drawn.
    """
    from rummikub.tiles.game.equity import deals_of

    equities: dict[Tile, float] = {}
    deals = deals_of(position, view, budget)
    moves: dict[Position, Move] = {}
    for tile in _kinds(unseen(position, view), position.rules):
        wins = []
        for deal in deals:
            state = _drawing(deal, tile)
            after = advance(state, Draw(tile), judge=False)
            wins.append(_playout(after, view.seat, budget.rounds, moves))
        equities[tile] = math.fsum(wins) / len(wins)
    return equities


def _playout(state: GameState, seat: int, rounds: int, moves: dict[Position, Move]) -> float:
    """:func:`rummikub.tiles.game.equity.playout` (its best moves, then its scoring), each
    position's best move solved once: a kind drawn from the depths of the pool leaves the next
    player's rack as it was on that deal, so their move is the one already found (a quarter of the
    luck's solves on standard games: benchmarks/RESULTS.md, "The game review")."""
    from rummikub.tiles.game.engine import turn_of_move
    from rummikub.tiles.game.equity import playout
    from rummikub.tiles.solver import solve

    turns = rounds * len(state.players)
    while not state.over and turns > 0:
        position = state.position()
        move = moves.get(position)
        if move is None:
            move = moves[position] = solve(position).move
        state = advance(state, turn_of_move(state, move), judge=False)
        turns -= 1
    return playout(state, seat, 0)  # the playout's scoring: the outcome, or the evaluation


def draw_luck(position: Position, view: View, tile: Tile, budget: Budget = DEFAULT) -> float:
    """The luck of drawing ``tile``: the drawer's equity after it less the mean over every
    tile that could have been drawn, each weighted by its unseen count (zero on average)."""
    equities = draw_equities(position, view, budget)
    counts = Counter(unseen(position, view))
    if tile not in equities:
        raise RummikubError(f"{tile} could not be drawn: the drawer can see every copy")
    total = counts.total()
    mean = math.fsum(counts[k] * e for k, e in equities.items()) / total
    return equities[tile] - mean


def _kinds(tiles: list[Tile], rules: Rules) -> list[Tile]:
    return sorted(set(tiles), key=rules.sort_key)


def _drawing(state: GameState, tile: Tile) -> GameState:
    """``state`` with a ``tile`` at the front of the pool, swapped with the tile there (from
    later in the pool, else from another rack)."""
    pool = list(state.pool or ())
    if pool and pool[0] == tile:
        return state
    if tile in pool:
        at = pool.index(tile)
        pool[0], pool[at] = pool[at], pool[0]
        return replace(state, pool=tuple(pool))
    sort = state.rules.sort_key
    racks = list(state.racks)
    for seat, rack in enumerate(racks):
        if seat == state.to_move or rack is None or tile not in rack:
            continue
        held = list(rack)
        held[held.index(tile)] = pool[0]
        racks[seat] = tuple(sorted(held, key=sort))
        pool[0] = tile
        return replace(state, racks=tuple(racks), pool=tuple(pool))
    raise RummikubError(f"{tile} is not among the tiles the drawer cannot see")


def _lines(players: Sequence[str], turns: Sequence[EquityTurn]) -> tuple[PlayerLine, ...]:
    lines = []
    for seat, name in enumerate(players):
        mine = [t for t in turns if t.seat == seat]
        graded = [t for t in mine if t.graded and t.lost is not None]
        lost = [t.lost for t in graded if t.lost is not None]
        luck = [t.luck for t in mine if t.luck is not None]
        marks = tuple(
            (mark, sum(1 for t in graded if t.mark == mark)) for mark, _ in THRESHOLDS[::-1]
        )
        lines.append(
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
    return tuple(lines)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
