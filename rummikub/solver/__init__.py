"""The solver: an integer linear program (OR-Tools) for the best move.

Only this package imports OR-Tools, and only when a solve runs, so that ``--help`` and
``check`` start fast.
"""

from __future__ import annotations

from rummikub.solver.result import Objective, SolveResult, Status

__all__ = ["Objective", "SolveResult", "Status", "solve"]


def solve(*args: object, **kwargs: object) -> SolveResult:  # pragma: no cover - replaced below
    raise NotImplementedError
