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
    #: ``column_of[row]``: the variable index of candidate ``row``'s column.
    column_of: dict[int, int]
    #: Variables in the base: a position's own parts come after them.
    variables: int


def lay_base(
    solver: Any,
    rules: Rules,
    index: TileIndex,
    columns: Sequence[tuple[int, Needs]],
    *,
    flow: bool,
    played: Sequence[int],
    balanced: Sequence[int],
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
        column_of=dict(laid),
        variables=solver.NumVariables(),
    )


@dataclass(frozen=True, slots=True)
class Template:
    """A model of the base of a rule set with every candidate group, ready to copy."""

    proto: Any
    base: Base
    #: The box it was built for (its candidate groups are ``group_candidates(rules)``).
    rules: Rules
    #: The proto as pywraplp reads it: serialized once (see :meth:`load`).
    encoded: Any

    def load(self) -> Any:
        """A fresh CLP model holding a copy of the template."""
        from ortools.linear_solver import pywraplp

        solver = pywraplp.Solver.CreateSolver("CLP")
        try:
            # pywraplp reads a proto argument through its SerializeToString(): handing it
            # the bytes serialized once saves a third of the copy.
            solver.LoadModelFromProto(self.encoded)
        except (TypeError, AttributeError):  # a pywraplp that insists on a real proto
            solver = pywraplp.Solver.CreateSolver("CLP")
            solver.LoadModelFromProto(self.proto)
        if solver.NumVariables() != self.base.variables:
            raise RuntimeError("the template did not load")
        return solver


@dataclass(frozen=True, slots=True)
class _Encoded:
    """Bytes that pass for their proto where pywraplp serializes one."""

    data: bytes

    def SerializeToString(self) -> bytes:  # protobuf's name
        return self.data


def template_for(rules: Rules, jokers: int) -> Template | None:
    """The template for a position of ``rules`` with ``jokers`` jokers in play.

    Candidate groups with more jokers than are in play, and with none in play the flow's
    jokers, can never be laid, so the template of the box with that many jokers leaves
    them out: a smaller model to copy and to solve (a third of the columns without
    jokers). The template depends on the box alone, not on the other rules.
    """
    return _box_template(
        rules.numbers, rules.colors, rules.copies, min(rules.jokers, max(0, jokers))
    )


@lru_cache(maxsize=16)
def _box_template(numbers: int, colors: str, copies: int, jokers: int) -> Template | None:
    return play_template(Rules(numbers=numbers, colors=colors, copies=copies, jokers=jokers))


@lru_cache(maxsize=16)
def play_template(rules: Rules) -> Template | None:
    """The template of ``rules`` (runs as a flow, every candidate group), or None when it
    would be too big to copy per position."""
    cands = group_candidates(rules)
    if len(cands.melds) > MOST_GROUPS:
        return None
    from ortools.linear_solver import linear_solver_pb2, pywraplp

    solver = pywraplp.Solver.CreateSolver("CLP")
    index = TileIndex(rules)
    every = range(index.size)
    columns = list(enumerate(cands.needs))
    base = lay_base(solver, rules, index, columns, flow=True, played=every, balanced=every)
    proto = linear_solver_pb2.MPModelProto()
    solver.ExportModelToProto(proto)
    encoded = _Encoded(proto.SerializeToString())
    return Template(proto=proto, base=base, rules=rules, encoded=encoded)
