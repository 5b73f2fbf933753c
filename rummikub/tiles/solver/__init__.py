"""The solver: an integer linear program (OR-Tools) for the best move.

Only this package imports OR-Tools, and only when a solve runs, so that ``--help`` and
``check`` start fast.
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable, Iterable

from rummikub.core import deadline
from rummikub.tiles.position import Position
from rummikub.tiles.solver.result import Objective, SolveResult, Status
from rummikub.tiles.tiles import Tile

__all__ = ["Objective", "SolveResult", "Status", "preload", "solve"]


def preload() -> None:
    """Import now what a solve imports on its first run (OR-Tools' linear solver above
    all): a process about to fork workers that solve does it once for all of them,
    instead of each worker on its first solve (benchmarks/RESULTS.md, "One whole process"
    for that import; "Targets", the lever "Folder solve", for a worker's first puzzle)."""
    from rummikub.core.lp import rows

    rows.preload()
    import rummikub.tiles.arguments
    import rummikub.tiles.solver.model
    import rummikub.tiles.solver.opening_bound
    import rummikub.tiles.solver.quick
    import rummikub.tiles.solver.restrict  # noqa: F401


def solve(
    position: Position,
    *,
    objective: Objective = "value",
    time_limit: float | None = None,
    backend: str | None = None,
    exclude: Iterable[Iterable[Tile]] = (),
    fewest_tiles: bool = False,
    better_than: tuple[int, int] | None = None,
) -> SolveResult:
    """The best move for ``position`` (RULES.md, "The best move"), proven optimal unless a
    ``time_limit`` (seconds) cut the proof short (status ``feasible``). ``backend`` names
    the OR-Tools MIP solver for what the branch and bound leaves open (``"CBC"``, ``"SAT"``
    for CP-SAT, ...); None takes the one measured best for the position's box.

    Three options for the analysis (:mod:`rummikub.tiles.analysis`), off by default; every
    answer passes the checker either way:

    - ``exclude``: multisets of rack tiles; the best move among those that play none of
      them exactly (status ``no_move`` when every legal move is excluded);
    - ``fewest_tiles``: with the value objective, the fewest tiles at the best value
      (instead of the most); then, as always, the most old melds left as they were;
    - ``better_than``: a score on the objective's first two levels (value then tiles, or
      tiles then value); only moves scoring more count (``no_move`` when none does).

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
        return _solve(position, objective, time_limit, backend, exclude, fewest_tiles, better_than)
    finally:
        if collecting:
            gc.enable()


def _solve(
    position: Position,
    objective: Objective,
    time_limit: float | None,
    backend: str | None,
    exclude: Iterable[Iterable[Tile]],
    fewest_tiles: bool,
    better_than: tuple[int, int] | None,
) -> SolveResult:
    from rummikub.tiles.arguments import solvable
    from rummikub.tiles.solver import quick, restrict
    from rummikub.tiles.solver.model import ModelOutcome, MoveModel
    from rummikub.tiles.solver.opening_bound import solve_model
    from rummikub.tiles.solver.runs_flow import JokerOnlyRun

    solvable(position, objective, time_limit)
    if fewest_tiles and objective != "value":
        raise ValueError("fewest_tiles goes with the value objective only")
    if fewest_tiles and better_than is not None:
        raise ValueError("fewest_tiles and better_than do not go together")
    rows = tuple(
        restrict.forbid_played(Counter(tiles), f"exclude_{k}") for k, tiles in enumerate(exclude)
    )
    if better_than is not None:
        rows += (restrict.better_than(*better_than),)
    started = time.perf_counter()
    # A position without a move that tile counts alone prove answers without a model
    # (benchmarks/RESULTS.md, "Throughput for playouts", *No move without LP*).
    if quick.no_move(position):
        return _no_move(position, "no_move", started, objective)
    # The time limit covers the whole solve, building included (see .deadline).
    with deadline.limit(time_limit):
        try:

            def build(runs_as_flow: bool) -> Callable[[Position, bool], MoveModel]:
                return lambda target, relax: MoveModel(
                    target,
                    objective,
                    backend,
                    runs_as_flow=runs_as_flow,
                    extra_rows=rows,
                    fewest_tiles=fewest_tiles,
                    relax_opening=relax,
                )

            try:
                outcome = solve_model(build(True), position)
            except JokerOnlyRun:
                # Three or more jokers made the flow's best table need a run of jokers
                # alone: solve again with candidate runs, which only hold valid runs.
                outcome = solve_model(build(False), position)
        except deadline.OutOfTime:
            outcome = ModelOutcome("unknown", None)  # still building: no move found yet
    rules = position.rules
    solution = outcome.solution
    if solution is None:
        # No move: proven, or none found before the time limit (not proven).
        return _no_move(position, "no_move" if outcome.proven else "feasible", started, objective)
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


def _no_move(
    position: Position, status: Status, started: float, objective: Objective
) -> SolveResult:
    """Nothing played: no move (proven), or none found before the time limit."""
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
