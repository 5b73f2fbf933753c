"""The solver: an integer linear program (OR-Tools) for the best move.

Only this package imports OR-Tools, and only when a solve runs, so that ``--help`` and
``check`` start fast.
"""

from __future__ import annotations

import gc
import time
from collections import Counter

from rummikub.position import Position
from rummikub.solver import deadline
from rummikub.solver.result import Objective, SolveResult, Status

__all__ = ["Objective", "SolveResult", "Status", "solve"]


def solve(
    position: Position,
    *,
    objective: Objective = "value",
    time_limit: float | None = None,
    backend: str = "CBC",
) -> SolveResult:
    """The best move for ``position`` (RULES.md, "The best move"), proven optimal unless a
    ``time_limit`` (seconds) cut the proof short (status ``feasible``).

    >>> from rummikub import Position
    >>> result = solve(Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"]))
    >>> result.status, result.value, [str(t) for t in result.played]
    ('optimal', 11, ['R4', 'O7'])
    """
    # No garbage collection runs inside a solve: a full collection walks every object of
    # the process (the caller's too), a spike of up to hundreds of ms that the solve did
    # not cause. The solve's own objects are freed by reference counting (it builds no
    # cycles that matter); the collector, if it was on, resumes afterwards.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _solve(position, objective, time_limit, backend)
    finally:
        if collecting:
            gc.enable()


def _solve(
    position: Position, objective: Objective, time_limit: float | None, backend: str
) -> SolveResult:
    from rummikub.solver.model import ModelOutcome, MoveModel
    from rummikub.solver.runs_flow import JokerOnlyRun

    if objective not in ("value", "tiles"):
        raise ValueError(f"objective {objective!r} must be 'value' or 'tiles'")
    started = time.perf_counter()
    # The time limit covers the whole solve, building included (see .deadline).
    with deadline.limit(time_limit):
        try:
            try:
                outcome = MoveModel(position, objective, backend).solve(deadline.remaining())
            except JokerOnlyRun:
                # Three or more jokers made the flow's best table need a run of jokers
                # alone: solve again with candidate runs, which only hold valid runs.
                model = MoveModel(position, objective, backend, runs_as_flow=False)
                outcome = model.solve(deadline.remaining())
        except deadline.OutOfTime:
            outcome = ModelOutcome("unknown", None)  # still building: no move found yet
    rules = position.rules
    solution = outcome.solution
    if solution is None:
        # No move: proven, or none found before the time limit (not proven).
        status: Status = "no_move" if outcome.proven else "feasible"
        return SolveResult(
            status=status,
            position=position,
            table=position.table,
            played=(),
            rack=position.rack_sorted(),
            value=0,
            tiles=0,
            seconds=time.perf_counter() - started,
            objective=objective,
        )
    played = tuple(sorted(solution.played, key=rules.sort_key))
    left = Counter(position.rack) - Counter(played)
    return SolveResult(
        status="optimal" if outcome.proven else "feasible",
        position=position,
        table=solution.table,
        played=played,
        rack=tuple(sorted(left.elements(), key=rules.sort_key)),
        value=sum(rules.tile_value(t) for t in played),
        tiles=len(played),
        seconds=time.perf_counter() - started,
        objective=objective,
    )
