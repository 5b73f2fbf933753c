"""Branch and bound over CLP for the integer program of a move or a turn, and the exact
back end that takes over what it leaves open (:func:`settle`): the one search of both
solvers.

Why not hand the model to a MIP solver at once: the LP relaxation of the move model is
nearly always tight (its optimum rounded down is the integer optimum), so the work is in
finding an integer solution, which CBC does only after presolve, cuts and heuristics. CLP
re-solves a node after a bound change warm, far faster, and a few nodes of plain branching
on a fractional variable settle most positions (benchmarks/RESULTS.md, "Solver choices:
the search"). What the search cannot settle within its budget goes to an exact back end
(CBC on the model's proto, or CP-SAT: :mod:`.exact`), so every answer stays proven.

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

Each of these rules was measured alone and together against the rule before it, in nodes
over the benchmark corpora (benchmarks/RESULTS.md, "Solver choices: the search").

The objective's coefficients are integers, so a node whose LP bound rounded down is no
better than the incumbent cannot hold a better solution: that prune is exact.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Literal, NamedTuple, Protocol

from rummikub.core.lp.builder import Builder
from rummikub.core.lp.rows import LPStatus

#: Within this of an integer, a value counts as that integer (CLP's own tolerance is 1e-7).
INTEGRALITY = 1e-6


#: ``optimal``: the best integer solution, proven; ``infeasible``: proven that none exists;
#: ``open``: limits reached first (``values`` holds the best solution found, if any);
#: ``feasible`` (MIP back end only): a solution found, its optimality not proven.
SearchStatus = Literal["optimal", "feasible", "infeasible", "open"]


class LP(Builder, Protocol):
    """The LP relaxation the search solves, node by node: a model built through the
    :class:`.builder.Builder` operations (an aggregate's variable and row are added to it),
    whose variables' bounds the search changes and restores."""

    def bounds(self, variable: int) -> tuple[float, float]: ...

    def set_bounds(self, variable: int, lower: float, upper: float) -> None: ...

    def set_time_limit(self, seconds: float) -> None:
        """Each solve from now on stops after ``seconds``."""
        ...

    def solve(self) -> LPStatus:
        """Solve the LP again, warm from the last basis."""
        ...

    def objective_value(self) -> float: ...

    def values(self) -> list[float]:
        """Every variable's value at the last solution, by index."""
        ...

    def iterations(self) -> int:
        """Simplex iterations of the last solve."""
        ...

    def score(self, values: list[float]) -> float:
        """The objective of the integer solution ``values``."""
        ...


# A named tuple, not a dataclass: every ``rummikub solve`` process imports this module
# (benchmarks/RESULTS.md, "Solver choices: start-up").
class SearchOutcome(NamedTuple):
    """What a search established."""

    status: SearchStatus
    #: The variable values of the best integer solution found, by variable index.
    values: list[float] | None
    nodes: int
    #: Simplex iterations over all nodes: the work done, whatever the machine's speed.
    iterations: int = 0


class Budget(NamedTuple):
    """The work a search may do before it stops open: LP solves and simplex iterations
    (work, not time, so that the same position takes the same path whatever the
    machine's load)."""

    nodes: int
    iterations: int


#: An exact back end for what the search leaves open (:mod:`.exact`): its outcome, which
#: is ``open`` when it found nothing in the time it had.
Exact = Callable[[], SearchOutcome]


def settle(
    lp: LP,
    integer: Sequence[int],
    budget: Budget,
    exact: Exact | None,
    *,
    deadline: float | None,
    floor: float = -math.inf,
    first: Sequence[int] = (),
    aggregates: Callable[[], Sequence[Aggregate]] | None = None,
    aggregate_while: Sequence[int] = (),
    cases: Sequence[Mapping[int, float]] = ({},),
    closing: Callable[[SearchOutcome], SearchOutcome] | None = None,
) -> SearchOutcome:
    """The integer optimum of ``lp``: branch and bound within ``budget``, then ``exact``
    when the search leaves it open. The outcome is the exact back end's when it found a
    solution or proved there is none, else the search's (``open``, with the best solution
    it found, if any); ``nodes`` and ``iterations`` count the search's work.

    ``cases``: a disjunction solved as separate programs, each fixing some variables (at
    the values given), where one program's relaxation would be weak (to open or not: every
    big-M row of the opening at a fraction); each case seeks only what beats the cases
    before it (ties go to the earlier case), and a case left open leaves the whole search
    open. ``closing``: a step of the caller's between the search left open and the exact
    back end (cuts and a second search), which returns the outcome to go on with. The
    other arguments are those of :func:`branch_and_bound`, for every case.
    """
    best: list[float] | None = None
    nodes = iterations = 0
    outcome: SearchOutcome | None = None
    for k, case in enumerate(cases):
        kept = {i: lp.bounds(i) for i in case}
        for i, value in case.items():
            lp.set_bounds(i, value, value)
        found = branch_and_bound(
            lp,
            integer,
            node_limit=budget.nodes,
            iteration_limit=budget.iterations,
            deadline=deadline,
            floor=floor,
            first=first,
            aggregates=aggregates,
            aggregate_while=aggregate_while,
        )
        for i, (lower, upper) in kept.items():
            lp.set_bounds(i, lower, upper)
        nodes += found.nodes
        iterations += found.iterations
        if found.values is not None:
            best = found.values
            if k + 1 < len(cases):
                floor = lp.score(best)
        if found.status == "open":
            outcome = SearchOutcome("open", best, nodes, iterations)
            break
    if outcome is None:
        status: SearchStatus = "infeasible" if best is None else "optimal"
        outcome = SearchOutcome(status, best, nodes, iterations)
    if outcome.status == "open" and closing is not None:
        outcome = closing(outcome)
    if outcome.status != "open" or exact is None:
        return outcome
    back = exact()
    if back.status == "open":
        return outcome
    return SearchOutcome(back.status, back.values, outcome.nodes, outcome.iterations)


def branch_and_bound(
    lp: LP,
    integer: Sequence[int],
    *,
    node_limit: int,
    iteration_limit: int,
    deadline: float | None,
    floor: float = -math.inf,
    first: Sequence[int] = (),
    aggregates: Callable[[], Sequence[Aggregate]] | None = None,
    aggregate_while: Sequence[int] = (),
) -> SearchOutcome:
    """Maximise ``lp``'s objective over integer values of the variables ``integer``.

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
                lp.set_bounds(i, *original[i])
        for i, (low, high) in node.items():
            lp.set_bounds(i, low, high)
        applied = node
        if left is not None:
            # One LP of a big model can take long (benchmarks/RESULTS.md, "Solver choices:
            # budgets and reserves"): CLP itself stops at the deadline.
            lp.set_time_limit(left)
        status = lp.solve()
        nodes += 1
        iterations += lp.iterations()
        if status == "infeasible":
            continue
        if status != "optimal":
            unsure = True
            continue
        optimum = lp.objective_value()
        if made_by is not None:
            _learn(costs, made_by, optimum)
        bound = math.floor(optimum + INTEGRALITY)
        if bound <= best:
            continue
        values = lp.values()
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
            branch = _aggregate_branching(lp, sums, values, costs)
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
            original[index] = lp.bounds(index)
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
        lp.set_bounds(i, *original[i])
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
    and for the exact back end); a model solved again keeps its aggregates."""

    __slots__ = ("columns", "index", "name")

    def __init__(self, columns: Sequence[int], name: str) -> None:
        self.columns = tuple(columns)
        self.name = name
        #: The variable's index once made.
        self.index: int | None = None

    def value(self, values: list[float]) -> float:
        return math.fsum(values[i] for i in self.columns)

    def variable(self, model: Builder) -> int:
        """The index of the aggregate's variable, made now if not yet."""
        if self.index is None:
            total = model.integer(math.inf, self.name)
            model.row(0.0, 0.0, [(total, 1.0), *((i, -1.0) for i in self.columns)])
            self.index = total
        return self.index


def _aggregate_branching(
    model: Builder,
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
    return pick[0].variable(model), pick[1]


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
