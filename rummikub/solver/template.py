"""The base of every move model: played tiles, balance rows, free runs and candidate columns.

The base depends on the rule set and a choice of candidate melds only, so :func:`lay_base`
builds it the same way for two uses: once per rule set into a template that every position
of that rule set copies (:func:`play_template`: building through pywraplp costs about a
microsecond a coefficient, most of a small position's time, and a copy costs far less), and
straight into one position's model where no template fits (an opening without playing on,
candidate runs instead of the flow, boxes with too many groups to copy). Either way the
position then bounds the base to its tiles and adds what is its own: old melds left as they
were, locked melds' fates, the initial meld.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rummikub.rules import Rules
from rummikub.solver import deadline
from rummikub.solver.candidates import Needs, TileIndex, group_candidates
from rummikub.solver.group_counts import GroupCounts, counts_groups
from rummikub.solver.runs_flow import RunFlow

#: Above this many candidate groups (8-color boxes have ~12,000) a copy of every group
#: costs more than building the few a position can use.
MOST_GROUPS = 2000


@dataclass(frozen=True, slots=True)
class Base:
    """Where the base's parts are in a model, by variable and row index."""

    #: ``played[t]``: the variable of the tiles of type ``t`` played (bounds 0 until set).
    played: dict[int, int]
    #: ``balance[t]``: the row "tiles of type ``t`` laid - played = old table's" (rhs 0).
    balance: dict[int, int]
    #: The free runs as a flow, or None when runs are candidate columns.
    flow: RunFlow | None
    #: (candidate row, variable index) of each candidate column (bounds 0 until set).
    columns: tuple[tuple[int, int], ...]
    #: Variables in the base: a position's own parts come after them.
    variables: int
    #: The free groups counted by number (boxes of many colors), or None when free
    #: groups are candidate columns.
    groups: GroupCounts | None = None


def lay_base(
    solver: Any,
    rules: Rules,
    index: TileIndex,
    columns: Sequence[tuple[int, Needs]],
    *,
    flow: bool,
    played: Sequence[int],
    balanced: Sequence[int],
    groups: bool = False,
) -> Base:
    """Build the base into ``solver``, every variable fixed at 0 and every balance at 0.

    ``played``: the tile types that get a played variable; ``balanced``: those whose balance
    row comes first (a template has them all); any other tile type gets its balance row
    when a run or a column first needs it.
    """
    variables = {t: solver.IntVar(0, 0, f"played_{t}") for t in played}
    rows: dict[int, Any] = {}

    def balance(t: int) -> Any:
        row = rows.get(t)
        if row is None:
            row = rows[t] = solver.Constraint(0.0, 0.0)
            if t in variables:
                row.SetCoefficient(variables[t], -1.0)
        return row

    for t in balanced:
        balance(t)
    runs = RunFlow.build(solver, rules, index, balance) if flow else None
    counted = GroupCounts.build(solver, rules, index, balance) if groups else None
    deadline.check()
    laid = []
    for k, (row, needs) in enumerate(columns):
        if k % 64 == 0:
            deadline.check()  # an 8-color box lays thousands of columns per position
        var = solver.IntVar(0, 0, f"lay_{row}")
        for t, n in needs:
            balance(t).SetCoefficient(var, float(n))
        laid.append((row, var.index()))
    return Base(
        played={t: v.index() for t, v in variables.items()},
        balance={t: r.index() for t, r in rows.items()},
        flow=runs,
        columns=tuple(laid),
        variables=solver.NumVariables(),
        groups=counted,
    )


@dataclass(frozen=True, slots=True)
class Template:
    """A model of the base of a rule set with every candidate group, ready to copy."""

    proto: Any
    base: Base

    def load(self) -> Any:
        """A fresh CLP model holding a copy of the template."""
        from ortools.linear_solver import pywraplp

        solver = pywraplp.Solver.CreateSolver("CLP")
        solver.LoadModelFromProto(self.proto)
        return solver


@lru_cache(maxsize=8)
def play_template(rules: Rules) -> Template | None:
    """The template of ``rules`` (runs as a flow, every candidate group or the groups
    counted by number), or None when it would be too big to copy per position."""
    counted = counts_groups(rules)
    columns: list[tuple[int, Needs]] = []
    if not counted:
        cands = group_candidates(rules)
        if len(cands.melds) > MOST_GROUPS:
            return None
        columns = list(enumerate(cands.needs))
    from ortools.linear_solver import linear_solver_pb2, pywraplp

    solver = pywraplp.Solver.CreateSolver("CLP")
    index = TileIndex(rules)
    every = range(index.size)
    base = lay_base(
        solver, rules, index, columns, flow=True, played=every, balanced=every, groups=counted
    )
    proto = linear_solver_pb2.MPModelProto()
    solver.ExportModelToProto(proto)
    return Template(proto=proto, base=base)
