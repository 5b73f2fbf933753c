"""The live model: a CLP model that a :class:`.builder.Builder` adds to and the search solves.

Rows are added by setting coefficients one by one rather than through pywraplp's natural
API (``solver.Add(x <= y + z)``), which builds expression objects and costs far more a row
(benchmarks/RESULTS.md, "Solver choices: building the model"). Variables and rows are
indices, as for every builder; the pywraplp proxy of one is made the first time a call
needs it, since a proxy for each of a template's hundreds of columns would cost more than
a small position's whole search.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any, Literal

from rummikub.core import deadline
from rummikub.core.lp import wire
from rummikub.core.lp.builder import INF, Terms

__all__ = ["INF", "LPStatus", "Rows", "Terms", "clp"]

#: What an LP solve established: ``unsure`` when CLP stopped first (its time limit).
LPStatus = Literal["optimal", "infeasible", "unsure"]


def clp() -> Any:
    """A new, empty CLP model (pywraplp's ``Solver``).

    Made by its solver type rather than by ``Solver.CreateSolver("CLP")``, whose first
    reading of the name costs every process more than the constructor (benchmarks/RESULTS.md,
    "Solver choices: start-up").
    """
    pywraplp = load_pywraplp()  # lazy: only a solve loads OR-Tools
    return pywraplp.Solver("", pywraplp.Solver.CLP_LINEAR_PROGRAMMING)


def preload() -> None:
    """Import OR-Tools' linear solver now, as the first solve would (a process about to
    fork workers that solve: :func:`rummikub.tiles.solver.preload`)."""
    load_pywraplp()


def load_pywraplp() -> ModuleType:
    """OR-Tools' linear solver module, imported on first use with lazy binding.

    Its extension pulls in ~100 shared libraries (OR-Tools itself, absl, COIN-OR), and
    Python opens extensions with ``RTLD_NOW``: the dynamic linker then resolves every
    function those libraries could call before the import returns, most of them never
    called by a solve. ``RTLD_LAZY`` resolves each on its first call instead, the same
    functions either way: a process's import of OR-Tools costs ~25 ms less
    (benchmarks/RESULTS.md, "Speed choices", *Lazy binding*). The flags are Python's own
    again once the import is done.
    """
    module = sys.modules.get("ortools.linear_solver.pywraplp")
    if module is not None:
        return module
    flags = sys.getdlopenflags()
    sys.setdlopenflags((flags & ~os.RTLD_NOW) | os.RTLD_LAZY)
    try:
        from ortools.linear_solver import pywraplp
    finally:
        sys.setdlopenflags(flags)
    loaded: ModuleType = pywraplp
    return loaded


#: pywraplp's parameters of an LP solve, by (presolve, dual simplex), made when first used.
_PARAMETERS: dict[tuple[bool, bool], Any] = {}


def _parameters(presolve: bool, dual: bool) -> Any:
    found = _PARAMETERS.get((presolve, dual))
    if found is None:
        from ortools.linear_solver import pywraplp

        found = pywraplp.MPSolverParameters()
        if not presolve:
            found.SetIntegerParam(found.PRESOLVE, found.PRESOLVE_OFF)
        if dual:
            found.SetIntegerParam(found.LP_ALGORITHM, found.DUAL)
        _PARAMETERS[(presolve, dual)] = found
    return found


class Rows:
    """A CLP model (``solver``, pywraplp's) built through the :class:`.builder.Builder`
    operations and solved as an LP, warm from its last basis."""

    def __init__(self, solver: Any) -> None:
        self.solver = solver
        #: Indices of the continuous variables (every other variable is integer).
        self.continuous: set[int] = set()
        #: The objective's coefficients, by variable index (see :meth:`maximise`).
        self.objective: dict[int, float] = {}
        self._variables: dict[int, Any] = {}
        self._rows: dict[int, Any] = {}
        self._goal: Any = None
        self._fill: Any = None

    # -- building (the Builder's operations, and two kinds of variable of its own) ------

    def integer(self, upper: float, name: str = "") -> int:
        return self._made(self.solver.IntVar(0, upper, name))

    def boolean(self, name: str) -> int:
        return self._made(self.solver.BoolVar(name))

    def real(self, lower: float, upper: float, name: str) -> int:
        """A continuous variable (never branched on)."""
        i = self._made(self.solver.NumVar(lower, upper, name))
        self.continuous.add(i)
        return i

    def row(self, lower: float, upper: float, terms: Iterable[tuple[int, float]] = ()) -> int:
        merged: dict[int, float] = {}
        for i, coefficient in terms:
            merged[i] = merged.get(i, 0.0) + coefficient
        row = self.solver.Constraint(lower, upper)
        for i, coefficient in merged.items():
            if coefficient:
                row.SetCoefficient(self._variable(i), coefficient)
        r = int(row.index())
        self._rows[r] = row
        return r

    def term(self, row: int, variable: int, coefficient: float) -> None:
        self._row(row).SetCoefficient(self._variable(variable), coefficient)

    def maximise(self, terms: Iterable[tuple[int, float]]) -> None:
        changed: dict[int, float] = {}
        for i, coefficient in terms:
            changed[i] = self.objective.get(i, 0.0) + coefficient
            self.objective[i] = changed[i]
        goal = self._objective()
        for i, coefficient in changed.items():
            goal.SetCoefficient(self._variable(i), coefficient)
        goal.SetMaximization()

    def variables(self) -> int:
        return int(self.solver.NumVariables())

    # -- bounds -------------------------------------------------------------------

    def bounds(self, variable: int) -> tuple[float, float]:
        var = self._variable(variable)
        return float(var.lb()), float(var.ub())

    def set_bounds(self, variable: int, lower: float, upper: float) -> None:
        self._variable(variable).SetBounds(lower, upper)

    def set_row_bounds(self, row: int, lower: float, upper: float) -> None:
        self._row(row).SetBounds(lower, upper)

    # -- solving ------------------------------------------------------------------

    def set_time_limit(self, seconds: float) -> None:
        """CLP stops a solve after ``seconds`` (at least a millisecond), from now on."""
        self.solver.SetTimeLimit(max(1, int(deadline.capped(seconds) * 1000)))

    def solve(self, *, presolve: bool = False, dual: bool = True) -> LPStatus:
        """Solve the LP relaxation. By default without presolve, by the dual simplex: CLP
        then keeps its basis between solves and re-solves a node after a bound change from
        it (benchmarks/RESULTS.md, "Solver choices: the search")."""
        from ortools.linear_solver import pywraplp

        status = self.solver.Solve(_parameters(presolve, dual))
        if status == pywraplp.Solver.OPTIMAL:
            return "optimal"
        if status == pywraplp.Solver.INFEASIBLE:
            return "infeasible"
        return "unsure"

    def objective_value(self) -> float:
        """The objective's value at the last solution."""
        return float(self._objective().Value())

    def values(self) -> list[float]:
        """Every variable's value at the last solution, by index: read through one solution
        message, as bytes (:mod:`.wire`), many times faster than variable by variable
        (benchmarks/RESULTS.md, "Solver choices: the search")."""
        if self._fill is None:
            self._fill = self.solver.FillSolutionResponseProto
        response = wire.through(self._fill, kind="MPSolutionResponse")
        return wire.doubles(response, wire.RESPONSE_VALUES)

    def iterations(self) -> int:
        """Simplex iterations of the last solve."""
        return int(self.solver.iterations())

    def score(self, values: list[float]) -> float:
        """The objective of an integer solution (``values`` rounded), exactly: the
        objective's coefficients are integers."""
        return sum(coefficient * round(values[i]) for i, coefficient in self.objective.items())

    def export(self) -> bytes:
        """The model as the bytes of its ``MPModelProto``."""
        return wire.through(self.solver.ExportModelToProto)

    # -- proxies --------------------------------------------------------------------

    def _made(self, var: Any) -> int:
        i = int(var.index())
        self._variables[i] = var
        return i

    def _variable(self, i: int) -> Any:
        var = self._variables.get(i)
        if var is None:
            var = self._variables[i] = self.solver.variable(i)
        return var

    def _row(self, r: int) -> Any:
        row = self._rows.get(r)
        if row is None:
            row = self._rows[r] = self.solver.constraint(r)
        return row

    def _objective(self) -> Any:
        if self._goal is None:
            self._goal = self.solver.Objective()
        return self._goal
