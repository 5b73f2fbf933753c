"""Branch and bound over OR-Tools' CLP, for the integer program of a move.

Why not hand the model to a MIP solver at once: the LP relaxation of the move model is
nearly always tight (its optimum rounded down is the integer optimum), so the work is in
finding an integer solution, which CBC does only after presolve, cuts and heuristics. CLP
re-solves a node after a bound change warm, far faster, and a few nodes of plain branching
on a fractional variable settle most positions (the figures are in
``benchmarks/RESULTS.md``). Positions the search cannot settle within its node limit go to
the MIP back end, so every answer stays proven.

Where the search spends its nodes, the LP bound sits a unit or two of the objective's last
level (old melds left as they were) above the optimum, or the bound is tight but no integer
solution is near the LP's; a branch lowers the bound by a sixth or a third of a unit. So:

- a node branches on the variable whose two children are expected to lower the bound most
  (pseudocosts: the drop of the LP optimum per unit of a variable's fraction cut off,
  averaged over the children solved so far; a variable without any yet counts the average
  of the others, so the root branches on the most fractional variable);
- nodes are taken best bound first (the bound rounded down, an integer), and among equal
  bounds the newest first, which dives while the bound holds; of a node's children the up
  side (a meld laid, a tile played, an old meld kept) goes first;
- the caller may name variables to branch on first, while any of them is fractional: the
  move model names the tiles played and the old melds kept as they were (and the columns
  that keep them), the decisions the objective's levels count, so that the bound falls
  where the objective is decided before the search settles how the rest of the table is
  laid;
- before those, while the value still has a gap to close (the node's LP optimum is
  fractional, and so is a variable the caller names: the tiles played), a node branches on
  a fractional *aggregate*, a sum of integer columns that is an integer in every solution
  (:class:`Aggregate`): the move model gives the groups laid of each number. Where the
  LP half plays a tile, it lays three groups of one number at a half each (``K8 R8 B8``,
  ``K8 R8 O8``, ``R8 B8 O8``: 1.5 groups); "one group or two" settles what branching on a
  column only moves to another column.

Branching on the groups laid of each number while the value has a gap: nodes over `mid`,
`hard`, `late` and `rack-jokers` (seed 1) 2,666 -> 2,577, the most for one position 49 ->
39, on `mid` 432 -> 342 (its most 48 -> 17); the same answers (13 of 500 tables another of
equal score). Branching on them whatever the gap, `mid` fell to 333 but `late` rose to
1,247 (one position 4 -> 71); runs per color as aggregates too raised `late` to 1,293.

Against the most fractional variable and a depth-first dive to a first incumbent, nodes
over 300 `hard`, 300 `rack-jokers` and the 200 `late` positions fell from 2,516, 2,709 and
1,844 to 1,803, 1,782 and 1,541 (the most for one position from 84, 83 and 155 to 59, 48
and 69), and with the tiles played and old melds kept first to 1,694, 1,656 and 1,223 (35,
30 and 49); each part was measured alone and together (the commits' messages).

The objective's coefficients are integers, so a node whose LP bound rounded down is no
better than the incumbent cannot hold a better solution: that prune is exact.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal, NamedTuple

from rummikub.core.lp import wire

#: Within this of an integer, a value counts as that integer (CLP's own tolerance is 1e-7).
INTEGRALITY = 1e-6


#: ``optimal``: the best integer solution, proven; ``infeasible``: proven that none exists;
#: ``open``: limits reached first (``values`` holds the best solution found, if any);
#: ``feasible`` (MIP back end only): a solution found, its optimality not proven.
SearchStatus = Literal["optimal", "feasible", "infeasible", "open"]


# A named tuple, not a dataclass: every ``rummikub solve`` process imports this module,
# and Python 3.11 makes a frozen dataclass in ~0.5 ms (it compiles six methods).
class SearchOutcome(NamedTuple):
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
    first: Sequence[int] = (),
    aggregates: Callable[[], Sequence[Aggregate]] | None = None,
    aggregate_while: Sequence[int] = (),
) -> SearchOutcome:
    """Maximise ``solver``'s objective over integer values of the variables ``integer``.

    The search stops, leaving the outcome open, after ``node_limit`` LP solves or
    ``iteration_limit`` simplex iterations, whichever comes first: limits of work, so that
    the same position takes the same path whatever the machine's load. ``deadline`` (a
    ``time.perf_counter()`` value) is the caller's time limit, which alone may differ.
    With ``floor`` (a score some solution is known to reach), only solutions scoring more
    are sought: ``infeasible`` then means that none does. ``first``: variables (of
    ``integer``) that a node branches on while any of them is fractional, before the rest.
    ``aggregates``: gives sums of integer variables (see :class:`Aggregate`) that a node
    whose LP optimum is fractional, and one of the variables ``aggregate_while`` too,
    branches on while any of them is fractional, before ``first`` (called when first
    needed: most searches never need them).
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
    # Pseudocosts: per (variable, side), the summed drop of the LP optimum per unit of the
    # fraction cut off, and the number of children that measured it.
    costs: dict[tuple[int, bool], list[float]] = {}
    # The open nodes: (minus the parent's LP bound, -order made, that bound, the bounds the
    # node sets, how it was made; None for the root). No child can do better than its
    # parent's bound: best bound first, and among equal bounds the newest node first. The
    # order is a function of the LP values alone: deterministic.
    heap: list[tuple[float, int, float, dict[int, tuple[float, float]], _Made | None]] = [
        (-math.inf, 0, math.inf, {}, None)
    ]
    made = 0
    applied: dict[int, tuple[float, float]] = {}
    nodes = 0
    iterations = 0
    unsure = False  # a node the LP could not settle: no proof from this search
    sums: Sequence[Aggregate] | None = None  # the aggregates, once needed
    while heap:
        if nodes >= node_limit or iterations >= iteration_limit:
            break
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left < 0:
            break
        _, _, ceiling, node, made_by = heapq.heappop(heap)
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
        optimum = objective.Value()
        if made_by is not None:
            _learn(costs, made_by, optimum)
        bound = math.floor(optimum + INTEGRALITY)
        if bound <= best:
            continue
        values = reader.values()
        # Aggregates while the value or tiles still have a gap to close: the LP optimum
        # is fractional, and so is one of the variables ``aggregate_while`` names.
        branch = None
        if (
            aggregates is not None
            and optimum - bound > INTEGRALITY
            and any(INTEGRALITY < values[i] % 1.0 < 1.0 - INTEGRALITY for i in aggregate_while)
        ):
            if sums is None:
                sums = aggregates()
            branch = _aggregate_branching(solver, sums, values, costs)
        if branch is None and first:
            branch = _branching(first, values, costs)
        if branch is None:
            branch = _branching(integer, values, costs)
        if branch is None:
            best = bound
            incumbent = values
            continue
        index, value = branch
        if index not in original:
            original[index] = (variable(index).lb(), variable(index).ub())
        low, high = node.get(index, original[index])
        down = {**node, index: (low, float(math.floor(value)))}
        up = {**node, index: (float(math.ceil(value)), high)}
        fraction = value - math.floor(value)
        down_made = _Made(optimum, index, False, fraction)
        up_made = _Made(optimum, index, True, 1.0 - fraction)
        # The up side first (made last: the newest of equal bounds goes first).
        heapq.heappush(heap, (-bound, made - 1, bound, down, down_made))
        heapq.heappush(heap, (-bound, made - 2, bound, up, up_made))
        made -= 2
    for i in applied:
        variable(i).SetBounds(*original[i])
    if unsure or any(ceiling > best for _, _, ceiling, _, _ in heap):
        return SearchOutcome("open", incumbent, nodes, iterations)
    if incumbent is None:
        return SearchOutcome("infeasible", None, nodes, iterations)
    return SearchOutcome("optimal", incumbent, nodes, iterations)


class Aggregate:
    """A sum of integer variables, each with coefficient 1 (so an integer in every integer
    solution), that the search may branch on as one variable: the groups laid of one
    number, say. Its variable, with the row ``total - sum(columns) = 0``, is made the first
    time a node branches on it and stays in the model (a definition, valid in every node
    and for the MIP back end); a model solved again keeps its aggregates."""

    __slots__ = ("columns", "index", "name")

    def __init__(self, columns: Sequence[int], name: str) -> None:
        self.columns = tuple(columns)
        self.name = name
        #: The variable's index once made.
        self.index: int | None = None

    def value(self, values: list[float]) -> float:
        return math.fsum(values[i] for i in self.columns)

    def variable(self, solver: Any) -> int:
        """The index of the aggregate's variable, made now if not yet."""
        if self.index is None:
            total = solver.IntVar(0.0, solver.infinity(), self.name)
            row = solver.Constraint(0.0, 0.0)
            row.SetCoefficient(total, 1.0)
            for i in self.columns:
                row.SetCoefficient(solver.variable(i), -1.0)
            self.index = int(total.index())
        return self.index


def _aggregate_branching(
    solver: Any,
    aggregates: Sequence[Aggregate],
    values: list[float],
    costs: dict[tuple[int, bool], list[float]],
) -> tuple[int, float] | None:
    """The fractional aggregate to branch on, as (its variable, made if need be, and its
    value), chosen as :func:`_branching` chooses a variable; None when all are integral."""
    fractional: list[tuple[Aggregate, float, float]] = []
    for aggregate in aggregates:
        total = aggregate.value(values)
        fraction = total % 1.0
        if INTEGRALITY < fraction < 1.0 - INTEGRALITY:
            fractional.append((aggregate, total, fraction))
    if not fractional:
        return None
    averages = _averages(costs)
    pick: tuple[Aggregate, float] | None = None
    most = -1.0
    for aggregate, total, fraction in fractional:
        score = _score(costs, averages, aggregate.index, fraction)
        if score > most:
            pick, most = (aggregate, total), score
    assert pick is not None
    return pick[0].variable(solver), pick[1]


class _Reader:
    """Reads a node's solution through one solution message, many times faster than
    variable by variable (see benchmarks/), as bytes (:mod:`.wire`)."""

    def __init__(self, solver: Any) -> None:
        self.fill = solver.FillSolutionResponseProto

    def values(self) -> list[float]:
        response = wire.through(self.fill, kind="MPSolutionResponse")
        return wire.doubles(response, wire.RESPONSE_VALUES)


class _Made(NamedTuple):
    """How a node was made: by a bound on ``variable`` of its parent, whose LP optimum was
    ``parent``; ``up``: the variable was raised to the next integer (else lowered), cutting
    ``fraction`` of a unit off its value."""

    parent: float
    variable: int
    up: bool
    fraction: float


def _learn(costs: dict[tuple[int, bool], list[float]], made_by: _Made, optimum: float) -> None:
    """Count the drop from the parent's LP optimum to its child's into the pseudocosts."""
    drop = max(0.0, made_by.parent - optimum) / made_by.fraction
    seen = costs.get((made_by.variable, made_by.up))
    if seen is None:
        costs[(made_by.variable, made_by.up)] = [drop, 1.0]
    else:
        seen[0] += drop
        seen[1] += 1.0


def _branching(
    integer: Sequence[int], values: list[float], costs: dict[tuple[int, bool], list[float]]
) -> tuple[int, float] | None:
    """The fractional variable to branch on, with its value, or None when every one of
    ``integer`` is integral: the highest product of the expected drops of its two children
    (the first of the highest, in the order of ``integer``). Without any pseudocost yet
    (the root) that is the most fractional variable."""
    fractional: list[tuple[int, float, float]] = []
    for i in integer:
        value = values[i]
        fraction = value % 1.0  # in [0, 1), also for a value a hair below 0
        if INTEGRALITY < fraction < 1.0 - INTEGRALITY:
            fractional.append((i, value, fraction))
    if not fractional:
        return None
    averages = _averages(costs)
    pick: tuple[int, float] | None = None
    most = -1.0
    for i, value, fraction in fractional:
        score = _score(costs, averages, i, fraction)
        if score > most:
            pick, most = (i, value), score
    return pick


def _score(
    costs: dict[tuple[int, bool], list[float]],
    averages: tuple[float, float],
    i: int | None,
    fraction: float,
) -> float:
    """The product of the expected drops of branching on variable ``i`` (None: one not
    made yet, which has no pseudocost) at ``fraction``: a side without a pseudocost of
    its own counts the average of its side (``averages``, down and up)."""
    down = None if i is None else costs.get((i, False))
    up = None if i is None else costs.get((i, True))
    down_drop = (averages[0] if down is None else down[0] / down[1]) * fraction
    up_drop = (averages[1] if up is None else up[0] / up[1]) * (1.0 - fraction)
    return max(down_drop, _LEAST_DROP) * max(up_drop, _LEAST_DROP)


#: A child's expected drop counts as at least this, so that a side that never drops does
#: not make the other side's drop count for nothing.
_LEAST_DROP = 1e-6


def _averages(costs: dict[tuple[int, bool], list[float]]) -> tuple[float, float]:
    """The average pseudocost of the down and the up side, over the variables that have
    one (1.0 for a side without any)."""
    sums = [0.0, 0.0]
    counts = [0, 0]
    for (_, up), (total, seen) in costs.items():
        sums[up] += total / seen
        counts[up] += 1
    return (
        sums[0] / counts[0] if counts[0] else 1.0,
        sums[1] / counts[1] if counts[1] else 1.0,
    )
