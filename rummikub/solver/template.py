"""The part of the model that depends on the rule set alone, built once and copied.

Every position of a rule set shares the played tiles, the balance rows, the run flow and
the candidate groups; only their bounds and right-hand sides change. Building those
through pywraplp costs about a microsecond a coefficient, most of a small position's
time; loading a prepared copy costs about 0.5 ms. A position then sets bounds (tiles in
play, rack, table) and adds what is its own: old melds left as they were, locked melds'
fates, the initial meld.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rummikub.rules import Rules
from rummikub.solver.candidates import TileIndex, group_candidates
from rummikub.solver.rows import INF, add_row
from rummikub.solver.runs_flow import RunFlow

#: Above this many candidate groups (8-color boxes have ~12,000) a copy of every group
#: costs more than building the few a position can use.
MOST_GROUPS = 2000


@dataclass(frozen=True, slots=True)
class Template:
    """A model of every run and group of a rule set, with where to find its parts."""

    proto: Any
    #: variable index of the tiles of each type played, and row index of its balance.
    played: tuple[int, ...]
    balance: tuple[int, ...]
    flow: RunFlow
    #: (candidate row in group_candidates(rules), variable index).
    groups: tuple[tuple[int, int], ...]
    variables: int

    def load(self) -> Any:
        """A fresh CLP model holding a copy of the template."""
        from ortools.linear_solver import pywraplp

        solver = pywraplp.Solver.CreateSolver("CLP")
        solver.LoadModelFromProto(self.proto)
        return solver


@lru_cache(maxsize=8)
def play_template(rules: Rules) -> Template | None:
    """The template of ``rules``, or None when it would be too big to copy per position."""
    cands = group_candidates(rules)
    if len(cands.melds) > MOST_GROUPS:
        return None
    from ortools.linear_solver import linear_solver_pb2, pywraplp

    solver = pywraplp.Solver.CreateSolver("CLP")
    index = TileIndex(rules)
    played = [solver.IntVar(0, 0, f"played_{t}") for t in range(index.size)]
    balance = [solver.Constraint(0.0, 0.0) for _ in range(index.size)]
    for var, row in zip(played, balance, strict=True):
        row.SetCoefficient(var, -1.0)
    flow = RunFlow.build(solver, rules, index, balance.__getitem__)
    groups = []
    for row, needs in enumerate(cands.needs):
        var = solver.IntVar(0, 0, f"lay_{row}")
        for t, n in needs:
            balance[t].SetCoefficient(var, float(n))
        groups.append((row, var.index()))
    # At least one tile is played (RULES.md rule 2).
    add_row(solver, 1.0, INF, [(var, 1.0) for var in played])
    proto = linear_solver_pb2.MPModelProto()
    solver.ExportModelToProto(proto)
    return Template(
        proto=proto,
        played=tuple(v.index() for v in played),
        balance=tuple(r.index() for r in balance),
        flow=flow,
        groups=tuple(groups),
        variables=solver.NumVariables(),
    )
