"""A model kept as data and written straight as the records of its ``MPModelProto``.

:class:`Records` is the :class:`.builder.Builder` whose model is plain Python data: its
variables' bounds, its rows (bounds and coefficients) and its objective. It writes them as
the records OR-Tools exports, without names, record for record (``tests/test_wire.py``
compares the two byte for byte), so that a CLP model loads the whole model in one call
(:meth:`Records.load`) instead of a call across to C++ per variable, row and coefficient
(benchmarks/RESULTS.md, "Solver choices: building the model"). A tile template
(:mod:`rummikub.tiles.solver.template`) is written once per rule set and copied for every
position; the card model is written once per position, loaded into CLP for the search and
read again by CP-SAT (:func:`.exact.cp_sat`) when the search leaves it open.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rummikub.core.lp import wire

if TYPE_CHECKING:
    from rummikub.core.lp.rows import Rows

# The fields in the order OR-Tools writes them (ExportModelToProto): a variable's bounds
# and integrality; a row's bounds, "not lazy", then its variables by index with their
# coefficients (a row without any has neither field).


class Row:
    """A row of :class:`Records`: its bounds and coefficients, by variable index in the
    order they were first given."""

    __slots__ = ("coefficients", "lower", "upper")

    def __init__(self, lower: float, upper: float, coefficients: dict[int, float]) -> None:
        self.lower = lower
        self.upper = upper
        self.coefficients = coefficients

    def head(self, bounds: dict[tuple[float, float], bytes]) -> bytes:
        """The row's record's fields before its terms (its bounds, "not lazy");
        ``bounds``: those fields by bounds, shared by the rows of a model (most have the
        same few)."""
        key = (self.lower, self.upper)
        part = bounds.get(key)
        if part is None:
            part = wire.double(wire.CONSTRAINT_BOUNDS[0], self.lower)
            part += wire.double(wire.CONSTRAINT_BOUNDS[1], self.upper)
            part = bounds[key] = part + wire.varint(wire.CONSTRAINT_LAZY, 0)
        return part

    def record(
        self,
        bounds: dict[tuple[float, float], bytes],
        doubles: dict[float, bytes],
        varint: list[bytes],
    ) -> bytes:
        """The row's record (``bounds`` as for :meth:`head`; ``doubles``: coefficients
        as packed doubles, by value; ``varint[k]``: the varint of ``k``, for every length
        and variable index a record holds)."""
        part = self.head(bounds)
        if self.coefficients:
            terms = sorted(self.coefficients.items())
            ks = b"".join([varint[i] for i, _ in terms])
            cs = b"".join([doubles.get(c) or _packed(doubles, c) for _, c in terms])
            part = b"".join(
                (part, _VARIABLES, varint[len(ks)], ks, _COEFFICIENTS, varint[len(cs)], cs)
            )
        return b"".join((_ROW, varint[len(part)], part))


def _packed(doubles: dict[float, bytes], value: float) -> bytes:
    found = doubles[value] = wire.double_bytes(value)
    return found


#: The keys of a model's row and of a row's packed variables and coefficients.
_ROW, _VARIABLES, _COEFFICIENTS = (
    wire.field_key(number)
    for number in (wire.MODEL_CONSTRAINT, wire.CONSTRAINT_VARIABLES, wire.CONSTRAINT_COEFFICIENTS)
)
#: The most bytes a term takes in a row's record: a variable index below 2^21 (3 bytes) and
#: a double (8).
_TERM_BYTES = 11


class Records:
    """Integer variables, rows and an objective, by index as pywraplp numbers them; names
    are dropped (a :class:`.builder.Builder`)."""

    def __init__(self) -> None:
        #: Each variable's upper bound, by index (every lower bound is 0).
        self.uppers: list[float] = []
        self.rows: list[Row] = []
        #: The objective's coefficients by variable index (maximised); not written in the
        #: records: :meth:`load` sets it on the live model.
        self.objective: dict[int, float] = {}
        self._variables: list[bytes] = []
        #: The record of an integer variable, by its upper bound (most are fixed at 0).
        self._written: dict[float, bytes] = {}

    # -- the Builder's operations ---------------------------------------------------

    def integer(self, upper: float, name: str = "") -> int:
        upper = float(upper)
        found = self._written.get(upper)
        if found is None:
            part = wire.double(wire.VARIABLE_BOUNDS[0], 0.0)
            part += wire.double(wire.VARIABLE_BOUNDS[1], upper)
            part += wire.varint(wire.VARIABLE_INTEGER, 1)
            found = self._written[upper] = wire.length_delimited(wire.MODEL_VARIABLE, part)
        self._variables.append(found)
        self.uppers.append(upper)
        return len(self.uppers) - 1

    def row(self, lower: float, upper: float, terms: Iterable[tuple[int, float]] = ()) -> int:
        merged: dict[int, float] = {}
        for i, coefficient in terms:
            merged[i] = merged.get(i, 0.0) + coefficient
        if not all(merged.values()):
            merged = {i: c for i, c in merged.items() if c}
        self.rows.append(Row(float(lower), float(upper), merged))
        return len(self.rows) - 1

    def term(self, row: int, variable: int, coefficient: float) -> None:
        if coefficient:  # as pywraplp, which stores no zero set on a new term
            self.rows[row].coefficients[variable] = coefficient

    def maximise(self, terms: Iterable[tuple[int, float]]) -> None:
        objective = self.objective
        for i, coefficient in terms:
            objective[i] = objective.get(i, 0.0) + coefficient

    def variables(self) -> int:
        return len(self.uppers)

    # -- the records ------------------------------------------------------------------

    def variable_records(self) -> list[bytes]:
        """Each variable's record, by index."""
        return list(self._variables)

    def row_records(self) -> list[bytes]:
        """Each row's record, by index."""
        bounds: dict[tuple[float, float], bytes] = {}
        doubles: dict[float, bytes] = {}
        # Written from a table of varints (no call per term): one entry per variable
        # index and per length a record can have.
        longest = max((len(row.coefficients) for row in self.rows), default=0)
        varint = wire.varint_table(max(len(self._variables), 64 + _TERM_BYTES * longest))
        return [row.record(bounds, doubles, varint) for row in self.rows]

    def columns(self) -> tuple[tuple[tuple[tuple[int, bytes], ...], ...], tuple[bytes, ...]]:
        """The model by columns: per variable, its terms as (row, coefficient as a packed
        double) by row; per row, its record's fields before its terms (:meth:`Row.head`)."""
        terms: list[list[tuple[int, bytes]]] = [[] for _ in self._variables]
        bounds: dict[tuple[float, float], bytes] = {}
        packed: dict[float, bytes] = {}
        for r, row in enumerate(self.rows):
            for i, coefficient in sorted(row.coefficients.items()):
                found = packed.get(coefficient)
                if found is None:
                    found = packed[coefficient] = wire.double_bytes(coefficient)
                terms[i].append((r, found))
        heads = tuple(row.head(bounds) for row in self.rows)
        return tuple(tuple(found) for found in terms), heads

    def load(self) -> Rows:
        """A new CLP model holding this model, objective included."""
        from rummikub.core.lp.rows import Rows, clp

        solver = clp()
        wire.through(solver.LoadModelFromProto, b"".join(self._variables + self.row_records()))
        if solver.NumVariables() != len(self.uppers):
            raise RuntimeError("the records did not load")
        live = Rows(solver)
        if self.objective:
            live.maximise(self.objective.items())
        return live
