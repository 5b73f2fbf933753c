"""``analyse``: one call for everything the analysis offers about a position."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.tiles.analysis.grade import Grade
from rummikub.tiles.analysis.grade import grade as grade_move
from rummikub.tiles.analysis.hold import Hold
from rummikub.tiles.analysis.hold import hold as hold_back
from rummikub.tiles.analysis.moves import MAX_TOP, RankedMove, best_move, top_moves
from rummikub.tiles.analysis.outs import Outs, Progress
from rummikub.tiles.analysis.outs import outs as find_outs
from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.position import Position
from rummikub.tiles.solver import Objective


@dataclass(frozen=True, slots=True)
class Analysis:
    """What :func:`analyse` found; the parts not asked for are None."""

    position: Position
    #: The best moves, best first (rank 1 alone unless ``top`` asked for more); empty when
    #: there is no move.
    moves: tuple[RankedMove, ...]
    #: The best move (the first of ``moves``; for "no move", nothing played).
    best: RankedMove
    outs: Outs | None = None
    hold: Hold | None = None
    grade: Grade | None = None
    #: How many best moves were asked for (``moves`` holds fewer when fewer exist).
    top: int = 1

    @property
    def proven(self) -> bool:
        """Every move in the analysis proven."""
        parts: list[RankedMove] = [self.best, *self.moves]
        if self.outs is not None:
            parts += [out.best for out in self.outs.outs]
        if self.hold is not None:
            parts += [self.hold.fewest] + ([self.hold.keep_jokers] if self.hold.keep_jokers else [])
        return all(move.proven for move in parts)

    def to_data(self) -> dict[str, Any]:
        """The best move's ``solve`` keys, then ``moves`` and the parts asked for."""
        data = self.best.to_data()
        del data["rank"]
        data["moves"] = [move.to_data() for move in self.moves]
        if self.outs is not None:
            data["outs"] = self.outs.to_data()
        if self.hold is not None:
            data["hold"] = self.hold.to_data()
        if self.grade is not None:
            data["grade"] = self.grade.to_data()
        return data


def analyse(
    position: Position,
    *,
    top: int = 1,
    outs: bool = False,
    hold: bool = False,
    grade: Sequence[Meld | RawMeld] | None = None,
    objective: Objective = "value",
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> Analysis:
    """Analyse ``position``: its ``top`` best moves, and on request the ``outs``, what it
    costs to ``hold`` tiles back, and the grade of a proposed new table (``grade``).
    ``time_limit`` applies to each solve; ``progress`` follows the outs.

    Holding and grading compare by value (the value objective) whatever ``objective``.

    >>> p = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    >>> a = analyse(p, top=2, hold=True)
    >>> [m.value for m in a.moves], a.hold.fewest.tiles
    ([11, 7], 2)
    """
    from rummikub.tiles.arguments import count, flag, time_limit_seconds

    count(top, "top", 1, MAX_TOP)
    flag(outs, "outs")
    flag(hold, "hold")
    time_limit_seconds(time_limit)
    moves = top_moves(position, top, objective=objective, time_limit=time_limit)
    best = moves[0] if moves else best_move(position, objective=objective, time_limit=time_limit)
    by_value = best if objective == "value" else None
    found_outs = (
        find_outs(
            position, objective=objective, time_limit=time_limit, today=best, progress=progress
        )
        if outs
        else None
    )
    found_hold = hold_back(position, best=by_value, time_limit=time_limit) if hold else None
    found_grade = (
        grade_move(position, grade, best=by_value, time_limit=time_limit)
        if grade is not None
        else None
    )
    return Analysis(position, moves, best, found_outs, found_hold, found_grade, top)
