"""A record graded turn by turn: each turn whose rack is known against the best move.

Glue between two libraries that do not know each other: :mod:`rummikub.tiles.game.engine` replays
the record and gives the position before each turn, :mod:`rummikub.tiles.analysis` grades the
turn taken in it. A play is judged by the checker and compared with the best move; a draw (or
a pass) is compared with the best move too, which says whether a move was there to be made.
``rummikub analyse RECORD`` and the web page's review mode both read it from here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rummikub.core.arguments import instance
from rummikub.core.errors import RummikubError
from rummikub.play import review as layer
from rummikub.play.piles import put_on_top

# The review's arithmetic is the game layer's; its constants are named here too (as before).
from rummikub.play.review import ACCURACY_SCALE as ACCURACY_SCALE
from rummikub.play.review import BLUNDER as BLUNDER
from rummikub.play.review import INACCURACY as INACCURACY
from rummikub.play.review import MISTAKE as MISTAKE
from rummikub.play.review import THRESHOLDS as THRESHOLDS
from rummikub.play.review import (
    PlayerLine,
    accuracy_of,
    lines,
    mark_of,
    rounded,
    written_mark,
)
from rummikub.tiles.game.engine import GameState, advance
from rummikub.tiles.game.equity import DEFAULT, Budget, Candidate
from rummikub.tiles.game.record import Draw, Play, Record, Turn
from rummikub.tiles.game.view import View, check_view, unseen
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import Tile

if TYPE_CHECKING:
    from rummikub.tiles.analysis import Grade
    from rummikub.tiles.game import engine

__all__ = [
    "EquityReview",
    "EquityTurn",
    "GradedTurn",
    "PlayerLine",
    "Review",
    "accuracy_of",
    "draw_equities",
    "draw_luck",
    "equity_review",
    "judged_turns",
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

    instance(record, Record, "record", "load_record(path)")
    instance(path, str, "path")

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
# The arithmetic (marks, accuracy, luck, the player lines) is the game layer's
# (rummikub.play.review); what a tile turn and a tile draw are stays here.


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
        return written_mark(self.lost)

    def to_data(self, rules: Rules) -> dict[str, Any]:
        best = self.best
        return {
            "turn": self.number,
            "player": self.player,
            "seat": self.seat,
            "move": self.kind,
            "played": [str(t) for t in self.played],
            "drew": None if self.drew is None else str(self.drew),
            "win": rounded(self.win),
            "played_win": rounded(self.played_win),
            "lost": rounded(self.lost),
            "mark": self.mark,
            "graded": self.graded,
            "choices": self.choices,
            "best": None
            if best is None
            else {
                "label": best.label,
                "played": [str(t) for t in sorted(best.played, key=rules.sort_key)],
                "win": rounded(best.win),
                "ci": [rounded(x) for x in best.ci],
            },
            "luck": rounded(self.luck),
        }


@dataclass(frozen=True, slots=True)
class EquityReview(layer.Review[EquityTurn]):
    """Every turn of a record in win probability, up to the first turn the replay refused."""

    rules: Rules

    def to_data(self) -> dict[str, Any]:
        return self.review_data([turn.to_data(self.rules) for turn in self.turns])


Progress = layer.Progress


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
    ``budget``, seeded by what the player sees); the move played is scored on the same deals,
    and the equity lost is the best candidate's win less the played move's. Each draw whose
    tile is known gets its luck (:func:`draw_luck`). The same record and budget give the same
    review, byte for byte.
    """
    from rummikub.tiles.game import engine

    layer.review_arguments(record, Record, path, budget)
    game = engine.replay(record)
    turns = layer.reviewed(_steps(record, game), lambda step: _judge(*step, budget), progress)
    players = lines(record.players, turns)
    return EquityReview(path, budget, turns, players, game.problem, record.rules)


def judged_turns(
    record: Record, budget: Budget = DEFAULT, first: int = 1, last: int | None = None
) -> Iterator[EquityTurn]:
    """Turns ``first`` to ``last`` (numbered from 1; ``last`` None: to the last legal turn)
    of ``record`` judged one at a time, in order, exactly as :func:`equity_review` judges
    them: each turn's figures depend only on the record, that turn and ``budget``, so a
    review made a few turns at a time (the web page's, which stops between turns) gives the
    same turns as the whole review. A caller may stop iterating at any turn."""
    from rummikub.tiles.game import engine

    steps = _steps(record, engine.replay(record))
    for step in steps[max(0, first - 1) : len(steps) if last is None else last]:
        yield _judge(*step, budget)


def _steps(record: Record, game: engine.Replay) -> list[tuple[GameState, GameState, Turn]]:
    """Each legal turn of ``record`` with the states before and after it (``game``, its
    replay)."""
    legal = len(game.states) - 1
    return [
        (game.states[i], game.states[i + 1], turn) for i, turn in enumerate(record.turns[:legal])
    ]


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
    sort = state.rules.sort_key
    verdict = layer.judge(
        found.candidates,
        lambda c: tuple(sorted(c.played, key=sort)) == played,
        lambda: move_wins(position, view, Move(after.table, played), budget),
    )
    luck = draw_luck(position, view, drew, budget) if drew is not None else None
    return replace(
        plain,
        win=verdict.win,
        played_win=verdict.played_win,
        lost=verdict.lost,
        best=verdict.best,
        choices=verdict.choices,
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
    from rummikub.tiles.game.equity import TileSearch

    check_view(position, view)

    def drawing(deal: GameState, tile: Tile) -> GameState:
        return advance(_drawing(deal, tile), Draw(tile), judge=False)

    # The deals are played out once per kind: the best move of each position is solved once.
    search = TileSearch(moves={})
    kinds = _kinds(unseen(position, view), position.rules)
    return layer.draw_equities(search, (position, view), kinds, drawing, budget)


def _playout(state: GameState, seat: int, rounds: int, moves: dict[Position, Move]) -> float:
    """:func:`rummikub.tiles.game.equity.playout` (its best moves, then its scoring), each
    position's best move solved once (kept in ``moves``): a kind drawn from the depths of the
    pool leaves the next player's rack as it was on that deal, so their move is the one already
    found (a quarter of the luck's solves on standard games: benchmarks/RESULTS.md, "The game
    review"). The luck's playout (:func:`draw_equities`)."""
    from rummikub.tiles.game.equity import TileSearch

    search = TileSearch(moves)
    return search.scored(search.playout(state, rounds, 0.0, None), seat)[0]


def draw_luck(position: Position, view: View, tile: Tile, budget: Budget = DEFAULT) -> float:
    """The luck of drawing ``tile``: the drawer's equity after it less the mean over every
    tile that could have been drawn, each weighted by its unseen count (zero on average)."""
    equities = draw_equities(position, view, budget)
    if tile not in equities:
        raise RummikubError(f"{tile} could not be drawn: the drawer can see every copy")
    return layer.draw_luck(equities, Counter(unseen(position, view)), tile)


def _kinds(tiles: list[Tile], rules: Rules) -> list[Tile]:
    return sorted(set(tiles), key=rules.sort_key)


def _drawing(state: GameState, tile: Tile) -> GameState:
    """``state`` with a ``tile`` at the front of the pool, as
    :func:`rummikub.play.piles.put_on_top` puts it there."""
    found = put_on_top(state.pool or (), state.racks, state.to_move, tile, state.rules.sort_key)
    if found is not None:
        pool, racks = found
        return replace(state, pool=pool, racks=racks)
    raise RummikubError(f"{tile} is not among the tiles the drawer cannot see")
