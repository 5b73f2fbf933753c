"""The solver: an integer linear program (OR-Tools) for the best move.

Only this package imports OR-Tools, and only when a solve runs, so that ``--help`` and
``check`` start fast.
"""

from __future__ import annotations

import time
from collections import Counter

from rummikub.position import Position
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
    from rummikub.solver.model import MoveModel
    from rummikub.solver.runs_flow import JokerOnlyRun

    if objective not in ("value", "tiles"):
        raise ValueError(f"objective {objective!r} must be 'value' or 'tiles'")
    started = time.perf_counter()
    try:
        outcome = MoveModel(position, objective, backend).solve(time_limit)
    except JokerOnlyRun:
        # Three or more jokers made the flow's best table need a run of jokers alone:
        # solve again with candidate runs, which only hold valid runs.
        spent = time.perf_counter() - started
        remaining = None if time_limit is None else max(time_limit - spent, 0.001)
        model = MoveModel(position, objective, backend, runs_as_flow=False)
        outcome = model.solve(remaining)
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
