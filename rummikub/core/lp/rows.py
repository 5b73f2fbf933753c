"""Variables and linear rows built straight on the solver: the one way the model adds them.

pywraplp's natural API (``solver.Add(x <= y + z)``) builds expression objects and costs far
more a row than setting coefficients directly; with hundreds of rows per position that
difference was a large share of a model's build (see ``benchmarks/``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

INF = float("inf")


def clp() -> Any:
    """A new, empty CLP model.

    Made by its solver type, as ``Solver.CreateSolver("CLP")`` makes it after reading the
    name: the first such reading in a process costs ~1.4 ms (a tenth of a one-position
    ``rummikub solve``'s solve), the constructor ~0.1 ms.
    """
    from ortools.linear_solver import pywraplp  # lazy: only a solve loads OR-Tools

    return pywraplp.Solver("", pywraplp.Solver.CLP_LINEAR_PROGRAMMING)


#: A linear expression as (variable, coefficient) pairs.
Terms = list[tuple[Any, float]]


def add_row(solver: Any, lower: float, upper: float, terms: Iterable[tuple[Any, float]]) -> Any:
    """Add ``lower <= sum(coef * var) <= upper``; each variable appears once in ``terms``."""
    row = solver.Constraint(lower, upper)
    for var, coef in terms:
        row.SetCoefficient(var, coef)
    return row


class Rows:
    """A model's solver seen as what the model adds to it: variables and rows."""

    def __init__(self, solver: Any) -> None:
        self.solver = solver
        #: Indices of the continuous variables (every other variable is integer).
        self.continuous: set[int] = set()

    def integer(self, upper: int, name: str) -> Any:
        """An integer variable in ``0..upper``."""
        return self.solver.IntVar(0, upper, name)

    def boolean(self, name: str) -> Any:
        return self.solver.BoolVar(name)

    def real(self, lower: float, upper: float, name: str) -> Any:
        """A continuous variable (never branched on)."""
        var = self.solver.NumVar(lower, upper, name)
        self.continuous.add(var.index())
        return var

    def row(self, lower: float, upper: float, terms: Iterable[tuple[Any, float]]) -> Any:
        """Add ``lower <= sum(coef * var) <= upper``; a variable met twice adds up."""
        merged: dict[int, tuple[Any, float]] = {}
        for var, coef in terms:
            i = var.index()
            seen = merged.get(i)
            merged[i] = (var, coef if seen is None else seen[1] + coef)
        return add_row(self.solver, lower, upper, merged.values())
