"""``rummikub analyse RECORD``: every turn of a game record graded against the best move.

Glue between two libraries that do not know each other: :mod:`rummikub.game` replays the
record and gives the position before each turn, :mod:`rummikub.tiles.analysis` grades the turn
taken in it. A play is judged by the checker and compared with the best move; a draw (or a
pass) is compared with the best move too, which says whether a move was there to be made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummikub.core.documents import read_document
from rummikub.core.errors import PuzzleError

if TYPE_CHECKING:
    from rummikub.tiles.analysis import Grade

#: A record file holds this key (``format = "rummikub-game/1"``); a puzzle file never does.
FORMAT_KEY = "format"
FORMAT_PREFIX = "rummikub-game/"


def is_record(path: str) -> bool:
    """Whether ``path`` is a game record rather than a puzzle (by its ``format`` key)."""
    try:
        data = read_document(path)
    except PuzzleError:
        return False  # the puzzle reader reports what is wrong with it
    value = data.get(FORMAT_KEY) if isinstance(data, dict) else None
    return isinstance(value, str) and value.startswith(FORMAT_PREFIX)


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


def review(path: str, time_limit: float | None = None) -> Review:
    """Replay the record at ``path`` and grade each turn whose rack is known."""
    from rummikub.game import engine
    from rummikub.game.record import Draw, Play, load
    from rummikub.tiles.analysis import grade, grade_draw

    record = load(path)
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


def review_text(found: Review) -> str:
    graded = found.graded
    lines = [f"{found.path} - {len(found.turns)} turns, {len(graded)} graded"]
    width = max((len(t.player) for t in found.turns), default=0)
    for turn in found.turns:
        verdict = "rack unknown" if turn.grade is None else turn.grade.text()
        lines.append(f"  {turn.number:>3}. {turn.player:<{width}}  {verdict}")
    if graded:
        best = sum(1 for t in graded if t.grade is not None and t.grade.value_gap == 0)
        given_up = sum(t.grade.value_gap for t in graded if t.grade is not None)
        lines.append(
            f"Best value in {best} of {len(graded)} graded turns; "
            f"{given_up} points left unplayed in all."
        )
    if found.problem is not None:
        lines.append(f"The replay stopped: {found.problem}")
    return "\n".join(lines)
