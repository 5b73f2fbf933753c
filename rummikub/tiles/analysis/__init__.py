"""Analysing a position: the k best moves, the draws that help, holding tiles, grading.

Built on the solver's public :func:`rummikub.tiles.solver.solve` (with its ``exclude`` and
``fewest_tiles`` options) and the checker; every result is a frozen dataclass with
``to_data()`` for JSON.
"""

from __future__ import annotations

from rummikub.tiles.analysis.analyse import Analysis, analyse
from rummikub.tiles.analysis.grade import Grade, grade, grade_draw
from rummikub.tiles.analysis.hold import Hold, hold
from rummikub.tiles.analysis.moves import MAX_TOP, RankedMove, best_move, top_moves
from rummikub.tiles.analysis.outs import Out, Outs, fits_a_meld, outs, unseen_tiles

__all__ = [
    "MAX_TOP",
    "Analysis",
    "Grade",
    "Hold",
    "Out",
    "Outs",
    "RankedMove",
    "analyse",
    "best_move",
    "fits_a_meld",
    "grade",
    "grade_draw",
    "hold",
    "outs",
    "top_moves",
    "unseen_tiles",
]
