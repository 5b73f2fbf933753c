"""Branch and bound over OR-Tools' CLP, for the integer program of a move.

Why not hand the model to a MIP solver at once: the LP relaxation of the move model is
nearly always tight (its optimum rounded down is the integer optimum), so the work is in
finding an integer solution, which CBC does only after presolve, cuts and heuristics. CLP
re-solves a node after a bound change warm, far faster, and a few nodes of plain branching
on the most fractional variable settle most positions (the figures are in
``benchmarks/RESULTS.md``). Positions the search cannot settle within its node limit go to
the MIP back end, so every answer stays proven. Nodes are taken depth first until a first
integer solution, then best bound first.

The objective's coefficients are integers, so a node whose LP bound rounded down is no
better than the incumbent cannot hold a better solution: that prune is exact.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass
from typing import Any, Literal

from rummikub.solver import wire

#: Within this of an integer, a value counts as that integer (CLP's own tolerance is 1e-7).
INTEGRALITY = 1e-6
#: Depth first until the first integer solution, then best bound first (else best bound
#: first from the root).
DIVE_FIRST = True


#: ``optimal``: the best integer solution, proven; ``infeasible``: proven that none exists;
#: ``open``: limits reached first (``values`` holds the best solution found, if any);
#: ``feasible`` (MIP back end only): a solution found, its optimality not proven.
SearchStatus = Literal["optimal", "feasible", "infeasible", "open"]


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """What a search established."""

    status: SearchStatus
    #: The variable values of the best integer solution found, by variable index.
    values: list[float] | None
    nodes: int
    #: Simplex iterations over all nodes: the work done, whatever the machine's speed.
    iterations: int = 0


def branch_and_bound(
    solver: Any,
    integer: list[int],
    *,
    node_limit: int,
    iteration_limit: int,
    deadline: float | None,
    floor: float = -math.inf,
) -> SearchOutcome:
    """Maximise ``solver``'s objective over integer values of the variables ``integer``.

    The search stops, leaving the outcome open, after ``node_limit`` LP solves or
    ``iteration_limit`` simplex iterations, whichever comes first: limits of work, so that
    the same position takes the same path whatever the machine's load. ``deadline`` (a
    ``time.perf_counter()`` value) is the caller's time limit, which alone may differ.
    With ``floor`` (a score some solution is known to reach), only solutions scoring more
    are sought: ``infeasible`` then means that none does.
    """
    from ortools.linear_solver import pywraplp

    # Without presolve CLP keeps its basis between solves, and the dual simplex re-solves
    # a node after a bound change from it, about ten times faster (see benchmarks/).
    params = pywraplp.MPSolverParameters()
    params.SetIntegerParam(params.PRESOLVE, params.PRESOLVE_OFF)
    params.SetIntegerParam(params.LP_ALGORITHM, params.DUAL)
    # Proxies only for the variables branched on (one for each of a template's hundreds of
    # columns would cost more than a small position's whole search).
    variables: dict[int, Any] = {}

    def variable(i: int) -> Any:
        var = variables.get(i)
        if var is None:
            var = variables[i] = solver.variable(i)
        return var

    reader = _Reader(solver)
    objective = solver.Objective()
    original: dict[int, tuple[float, float]] = {}  # bounds of the variables branched on
    best = floor
    incumbent: list[float] | None = None
    # The open nodes: (key, -order made, parent's LP bound, the bounds the node sets). No
    # child can do better than its parent's bound. Until a first integer solution is found
    # the key is 0 for all, so the newest node goes first (depth first: a dive to an
    # incumbent); from then on the key is minus the bound (best bound first; among equal
    # bounds the newest node first). Best bound first proves the tie-break levels (old
    # melds left as they were, where the LP is half-integral) in about a third fewer nodes
    # than depth first on `late` and `rack-jokers`; diving first finds the incumbent that
    # prunes sooner. The order is a function of the LP values alone: deterministic.
    heap: list[tuple[float, int, float, dict[int, tuple[float, float]]]] = [(0.0, 0, math.inf, {})]
    made = 0
    applied: dict[int, tuple[float, float]] = {}
    nodes = 0
    iterations = 0
    unsure = False  # a node the LP could not settle: no proof from this search
    while heap:
        if nodes >= node_limit or iterations >= iteration_limit:
            break
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left < 0:
            break
        _, _, ceiling, node = heapq.heappop(heap)
        if ceiling <= best:
            continue  # pruned by its parent's bound, without an LP solve
        for i in applied:
            if i not in node:
                variable(i).SetBounds(*original[i])
        for i, (low, high) in node.items():
            variable(i).SetBounds(low, high)
        applied = node
        if left is not None:
            # One LP of a big model can take ~0.1 s: CLP itself stops at the deadline.
            solver.SetTimeLimit(max(1, int(left * 1000)))
        status = solver.Solve(params)
        nodes += 1
        iterations += solver.iterations()
        if status == pywraplp.Solver.INFEASIBLE:
            continue
        if status != pywraplp.Solver.OPTIMAL:
            unsure = True
            continue
        bound = math.floor(objective.Value() + INTEGRALITY)
        if bound <= best:
            continue
        values = reader.values()
        branch = _most_fractional(integer, values)
        if branch is None:
            if incumbent is None and DIVE_FIRST:
                # The first incumbent: best bound first from now on.
                heap = [(-c, order, c, open_node) for _, order, c, open_node in heap]
                heapq.heapify(heap)
            best = bound
            incumbent = values
            continue
        index, value = branch
        if index not in original:
            original[index] = (variable(index).lb(), variable(index).ub())
        low, high = node.get(index, original[index])
        down = {**node, index: (low, float(math.floor(value)))}
        up = {**node, index: (float(math.ceil(value)), high)}
        # Explore the nearer side first: it more often holds an integer solution.
        first, second = (up, down) if value - math.floor(value) >= 0.5 else (down, up)
        key = -bound if incumbent is not None or not DIVE_FIRST else 0.0
        heapq.heappush(heap, (key, made - 2, bound, first))
        heapq.heappush(heap, (key, made - 1, bound, second))
        made -= 2
    for i in applied:
        variable(i).SetBounds(*original[i])
    if unsure or any(ceiling > best for _, _, ceiling, _ in heap):
        return SearchOutcome("open", incumbent, nodes, iterations)
    if incumbent is None:
        return SearchOutcome("infeasible", None, nodes, iterations)
    return SearchOutcome("optimal", incumbent, nodes, iterations)


class _Reader:
    """Reads a node's solution through one solution message, many times faster than
    variable by variable (see benchmarks/), as bytes (:mod:`.wire`)."""

    def __init__(self, solver: Any) -> None:
        self.fill = solver.FillSolutionResponseProto

    def values(self) -> list[float]:
        response = wire.through(self.fill, kind="MPSolutionResponse")
        return wire.doubles(response, wire.RESPONSE_VALUES)


def _most_fractional(integer: list[int], values: list[float]) -> tuple[int, float] | None:
    """The integer variable farthest from an integer, with its value, or None (the first
    of the farthest, in the order of ``integer``)."""
    pick: tuple[int, float] | None = None
    spread = INTEGRALITY
    for i in integer:
        value = values[i]
        distance = value % 1.0  # in [0, 1), also for a value a hair below 0
        if distance > 0.5:
            distance = 1.0 - distance
        if distance > spread:
            pick, spread = (i, value), distance
    return pick
