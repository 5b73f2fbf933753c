"""The exact back ends for what the branch and bound leaves open (:func:`.search.settle`).

- :func:`mip`: a MIP solver (CBC by default, or CP-SAT) on a copy of the live model, loaded
  from its proto: the tile model, whose model is built live;
- :func:`cp_sat`: CP-SAT on a model kept as data (:class:`.records.Records`): the card
  model, whose small programs CP-SAT settles where CLP's relaxation is weak.

Both run single-threaded (deterministic), treat the time left as a limit, and return a
:class:`.search.SearchOutcome`: ``optimal``, ``feasible`` (a solution, its optimality not
proven), ``infeasible``, or ``open`` when they found nothing in time. The solvers are
imported only when a search leaves a model open; this module itself is light, and the
solver's modules read its names (:data:`CP_SAT`) on import.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rummikub.core import deadline
from rummikub.core.lp import wire
from rummikub.core.lp.builder import INF, Terms
from rummikub.core.lp.records import Records
from rummikub.core.lp.rows import Rows
from rummikub.core.lp.search import SearchOutcome

#: The name OR-Tools gives CP-SAT among its MIP back ends.
CP_SAT = "SAT"
#: CP-SAT's parameters as a MIP back end: its full linear relaxation (cuts included) in the
#: search, which proves the largest boxes' third objective level where the default (a
#: partial relaxation) takes seconds (benchmarks/RESULTS.md, "Solver choices: the exact back
#: end of the 8-color boxes"); and Ctrl-C left to Python (its default takes SIGINT over to
#: end the solve, as CBC does).
CP_SAT_PARAMETERS = "linearization_level:2,catch_sigint_signal:false"


def mip(
    model: Rows,
    *,
    backend: str = "CBC",
    continuous: Iterable[int] = (),
    above: tuple[Terms, float] | None = None,
    time_limit: float | None = None,
) -> SearchOutcome:
    """Solve a copy of ``model`` (its proto) with the MIP solver ``backend``.

    ``continuous``: variables (integer in the model) the copy leaves continuous, as the
    search left them; CP-SAT (:data:`CP_SAT`) takes integer variables only. ``above``:
    (terms, lower): only solutions whose terms reach lower (a row of the copy's own).
    ``time_limit``: seconds, at least a millisecond.
    """
    from ortools.linear_solver import pywraplp

    copy = pywraplp.Solver.CreateSolver(backend)
    if copy is None:
        raise RuntimeError(f"OR-Tools has no {backend} back end")
    copy.SetNumThreads(1)
    if backend == CP_SAT:
        copy.SetSolverSpecificParametersAsString(CP_SAT_PARAMETERS)
    wire.through(copy.LoadModelFromProto, model.export())
    exact = Rows(copy)
    for i in continuous:
        copy.variable(i).SetInteger(False)
    if above is not None:
        terms, lower = above
        exact.row(lower, copy.infinity(), terms)
    if time_limit is not None:
        exact.set_time_limit(time_limit)
    params = pywraplp.MPSolverParameters()
    # The objective is integral, so a gap of zero is exact optimality.
    params.SetDoubleParam(params.RELATIVE_MIP_GAP, 0.0)
    status = copy.Solve(params)
    if status == pywraplp.Solver.INFEASIBLE:
        return SearchOutcome("infeasible", None, 0)
    if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
        return SearchOutcome("open", None, 0)
    values = [v.solution_value() for v in copy.variables()]
    return SearchOutcome("optimal" if status == pywraplp.Solver.OPTIMAL else "feasible", values, 0)


def cp_sat(
    model: Records,
    *,
    rows: Mapping[int, tuple[float, float]],
    variables: Mapping[int, tuple[float, float]],
    time_limit: float | None = None,
) -> SearchOutcome:
    """Solve ``model`` with CP-SAT, with ``rows`` and ``variables`` bounded as given there
    (by index; the others as built). Every bound and coefficient must be an integer."""
    from ortools.sat.python import cp_model

    sat = cp_model.CpModel()
    columns = [
        sat.new_int_var(int(low), int(high), "")
        for low, high in (variables.get(i, (0.0, upper)) for i, upper in enumerate(model.uppers))
    ]
    for r, row in enumerate(model.rows):
        lower, upper = rows.get(r, (row.lower, row.upper))
        expr = sum(int(c) * columns[i] for i, c in row.coefficients.items())
        if lower == upper:
            sat.add(expr == int(lower))
        else:
            if lower != -INF:
                sat.add(expr >= int(lower))
            if upper != INF:
                sat.add(expr <= int(upper))
    sat.maximize(sum(int(c) * columns[i] for i, c in model.objective.items()))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = deadline.capped(time_limit)
    code = solver.solve(sat)
    if code == cp_model.INFEASIBLE:
        return SearchOutcome("infeasible", None, 0)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return SearchOutcome("open", None, 0)
    values = [float(solver.value(v)) for v in columns]
    return SearchOutcome("optimal" if code == cp_model.OPTIMAL else "feasible", values, 0)
