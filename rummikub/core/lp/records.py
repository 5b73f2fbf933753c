"""A model written straight as the records of its ``MPModelProto``, for a template.

A template (:mod:`.template`) is a rule set's base as serialized variables and rows, which
each position's copy loads. Building it through pywraplp cost a call across to C++ per
variable, row and coefficient (~1,900 for the standard box), then exporting the model and
cutting every record's name out of the export: ~6 ms of every ``rummikub solve`` process,
more than its small position's solve. :class:`Records` takes the same calls from
:func:`.template.lay_base` (and the flow's and counted groups' ``build``) and writes each
record as OR-Tools exports it, without the name: the same model, record for record
(``tests/test_wire.py`` compares the two byte for byte).
"""

from __future__ import annotations

from rummikub.core.lp import wire

# The fields in the order OR-Tools writes them (ExportModelToProto): a variable's bounds
# and integrality; a row's bounds, "not lazy", then its variables by index with their
# coefficients (a row without any has neither field).


class Variable:
    """A variable of :class:`Records`, as pywraplp's ``MPVariable`` answers ``index()``."""

    __slots__ = ("_index",)

    def __init__(self, index: int) -> None:
        self._index = index

    def index(self) -> int:
        return self._index


class Row:
    """A row of :class:`Records`: its bounds and coefficients, by variable index (set
    again, a coefficient replaces the one before, as in pywraplp's ``MPConstraint``)."""

    __slots__ = ("_index", "coefficients", "lower", "upper")

    def __init__(self, index: int, lower: float, upper: float) -> None:
        self._index = index
        self.lower = lower
        self.upper = upper
        self.coefficients: dict[int, float] = {}

    def index(self) -> int:
        return self._index

    def SetCoefficient(self, var: Variable, coefficient: float) -> None:  # pywraplp's name
        if not coefficient:
            # pywraplp keeps some zeros and not others; a base lays none.
            raise ValueError("a base lays no zero coefficient")
        self.coefficients[var._index] = coefficient

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
    """Integer variables and rows, by index as pywraplp numbers them, written as records.

    It answers the calls of pywraplp's ``Solver`` that a base is laid with (``IntVar``,
    ``Constraint``, ``NumVariables``); names are dropped.
    """

    def __init__(self) -> None:
        self._variables: list[bytes] = []
        self._rows: list[Row] = []
        #: The record of an integer variable, by its bounds (most are fixed at 0).
        self._written: dict[tuple[float, float], bytes] = {}

    def IntVar(self, lower: float, upper: float, name: str) -> Variable:  # pywraplp's name
        bounds = (float(lower), float(upper))
        found = self._written.get(bounds)
        if found is None:
            part = wire.double(wire.VARIABLE_BOUNDS[0], bounds[0])
            part += wire.double(wire.VARIABLE_BOUNDS[1], bounds[1])
            part += wire.varint(wire.VARIABLE_INTEGER, 1)
            found = self._written[bounds] = wire.length_delimited(wire.MODEL_VARIABLE, part)
        self._variables.append(found)
        return Variable(len(self._variables) - 1)

    def Constraint(self, lower: float, upper: float) -> Row:  # pywraplp's name
        row = Row(len(self._rows), float(lower), float(upper))
        self._rows.append(row)
        return row

    def NumVariables(self) -> int:  # pywraplp's name
        return len(self._variables)

    def variable_records(self) -> list[bytes]:
        """Each variable's record, by index."""
        return list(self._variables)

    def row_records(self) -> list[bytes]:
        """Each row's record, by index."""
        bounds: dict[tuple[float, float], bytes] = {}
        doubles: dict[float, bytes] = {}
        # Written from a table of varints (no call per term): one entry per variable
        # index and per length a record can have.
        longest = max((len(row.coefficients) for row in self._rows), default=0)
        varint = wire.varint_table(max(len(self._variables), 64 + _TERM_BYTES * longest))
        return [row.record(bounds, doubles, varint) for row in self._rows]

    def columns(self) -> tuple[tuple[tuple[tuple[int, bytes], ...], ...], tuple[bytes, ...]]:
        """The model by columns: per variable, its terms as (row, coefficient as a packed
        double) by row; per row, its record's fields before its terms (:meth:`Row.head`)."""
        terms: list[list[tuple[int, bytes]]] = [[] for _ in self._variables]
        bounds: dict[tuple[float, float], bytes] = {}
        packed: dict[float, bytes] = {}
        for r, row in enumerate(self._rows):
            for i, coefficient in sorted(row.coefficients.items()):
                found = packed.get(coefficient)
                if found is None:
                    found = packed[coefficient] = wire.double_bytes(coefficient)
                terms[i].append((r, found))
        heads = tuple(row.head(bounds) for row in self._rows)
        return tuple(tuple(found) for found in terms), heads
