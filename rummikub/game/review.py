"""A record graded turn by turn: each turn whose rack is known against the best move.

Glue between two libraries that do not know each other: :mod:`rummikub.game.engine` replays
the record and gives the position before each turn, :mod:`rummikub.tiles.analysis` grades the
turn taken in it. A play is judged by the checker and compared with the best move; a draw (or
a pass) is compared with the best move too, which says whether a move was there to be made.
``rummikub analyse RECORD`` and the web page's review mode both read it from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummikub.game.record import Draw, Play, Record

if TYPE_CHECKING:
    from rummikub.tiles.analysis import Grade

__all__ = ["GradedTurn", "Review", "review_record"]


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
    from rummikub.game import engine
    from rummikub.tiles.analysis import grade, grade_draw

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
