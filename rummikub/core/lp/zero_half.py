"""Zero-half cuts: rows of the model added half each and rounded down, at the search's root.

The LP relaxation of a model with counted groups (8-color boxes, :mod:`.group_counts`)
leaves a gap of 1-4 units on the objective's last level (old melds left as they were): an
old group kept at 1/3 beside a third of a group of the same number that could only be laid
by breaking it, say. The branch and bound closed such gaps slowly, and CBC's root took long
(benchmarks/RESULTS.md, "Solver choices: budgets and reserves"). Most of them are
{0, 1/2}-Chvatal-Gomory cuts of the model's own rows:

    take rows ``a_i x <= b_i`` (an equality either way) whose coefficients add up even
    (odd ones evened by a variable's bound, ``x_j >= l_j`` or ``x_j <= u_j``) and whose
    right-hand sides add up odd; then ``sum(a_i) / 2 x <= (sum(b_i) - 1) / 2`` holds for
    every integer ``x`` (its left side is an integer, at most half an odd number).

Such a cut is violated by the LP solution ``x*`` exactly when the slacks of the rows and
bounds it adds up, at ``x*``, sum to less than 1, so the separation is a search modulo 2
among the rows with little slack: columns at a bound cost nothing to even (those at their
upper bound are complemented), every other column is eliminated by Gaussian elimination
over GF(2), pivoting on the row of least slack (Koster, Zymolka and Kutschka's heuristic);
a combination left with odd parity and slack below 1 is a cut. Each cut is rebuilt from
the rows themselves in exact integers and checked (even coefficients, violated at ``x*``)
before it is added, so a slip of the bookkeeping can cost a cut but never validity.

The cuts hold for every integer solution of the model (they use its global bounds, at the
root), so the answers stay proven optimal; they are a function of the LP solution alone,
so the same position gets the same cuts every time.
"""

from __future__ import annotations

import math
import sys
from array import array
from typing import TYPE_CHECKING, Any, NamedTuple

from rummikub.core.lp import wire

if TYPE_CHECKING:
    from rummikub.core.lp.rows import Rows

#: A value within this of a bound counts as at it; a cut must be violated by more than
#: :data:`LEAST_VIOLATION` (half of one less its rows' slack) to be worth a row.
TOLERANCE = 1e-6
LEAST_VIOLATION = 0.05

#: Rounds of an LP solve and its cuts, and cuts a round adds at most (the most violated,
#: sparsest first): measured with the budgets of :data:`.group_counts.COUNTED_NODE_LIMIT`.
CUT_ROUNDS = 4
CUTS_PER_ROUND = 15
#: Combinations rebuilt as cuts per cut asked for (many repeat one another at ``x*``).
DECODED_PER_CUT = 8

#: ``MPConstraintProto``: the packed variable indices and coefficients of a row.
_CONSTRAINT_INDICES = 6
_CONSTRAINT_COEFFICIENTS = 7


class Row(NamedTuple):
    """A row of the model: ``lower <= sum(coefs[k] * x[indices[k]]) <= upper``."""

    indices: tuple[int, ...]
    coefs: tuple[int, ...]
    lower: float
    upper: float


class Cut(NamedTuple):
    """``sum(coef * x[index]) <= upper``, in integers (a named tuple, as the solver's
    records are: a dataclass costs every process that imports it)."""

    terms: tuple[tuple[int, int], ...]
    upper: int

    def row(self) -> Row:
        return Row(
            tuple(j for j, _ in self.terms),
            tuple(c for _, c in self.terms),
            -math.inf,
            float(self.upper),
        )


#: Records read before, by their bytes: the rows and variables of a box's models repeat
#: from position to position (the template's), so each is parsed once (at most this many
#: remembered).
MOST_REMEMBERED = 50_000
_VARIABLES: dict[bytes, tuple[float, float]] = {}
_ROWS: dict[bytes, Row | None] = {}


class ModelRows:
    """The rows and variable bounds of a model, read once from its exported bytes; rows
    with a coefficient, or a finite bound, that is not an integer are left out (no cut
    may use them), and so are rows with a variable that is not ``integer``."""

    def __init__(self, model: Rows, integer: list[bool]) -> None:
        self.rows: list[Row] = []
        self.lower: list[float] = []
        self.upper: list[float] = []
        parts: list[bytes] = []
        bounds = _VARIABLES
        if len(bounds) > MOST_REMEMBERED or len(_ROWS) > MOST_REMEMBERED:
            bounds.clear()
            _ROWS.clear()
        for number, part, _ in wire.fields(model.export()):
            if number == wire.MODEL_VARIABLE:
                found = bounds.get(part)
                if found is None:
                    found = bounds[part] = _bounds(part, wire.VARIABLE_BOUNDS)
                self.lower.append(found[0])
                self.upper.append(found[1])
            elif number == wire.MODEL_CONSTRAINT:
                parts.append(part)
        # A variable evened by a bound needs the bound finite (all of the model's are).
        self.integer = [
            flag and math.isfinite(low) and math.isfinite(high)
            for flag, low, high in zip(integer, self.lower, self.upper, strict=True)
        ]
        #: The rows each variable is in (by position in :attr:`rows`).
        self.rows_of: list[list[int]] = [[] for _ in self.lower]
        for part in parts:
            if part in _ROWS:
                row = _ROWS[part]
            else:
                row = _ROWS[part] = _row(part)
            if row is not None:
                self.add(row)

    def add(self, row: Row) -> None:
        """Count a row of the model (a cut added, say) among those cuts may combine."""
        if not all(self.integer[j] for j in row.indices):
            return
        r = len(self.rows)
        self.rows.append(row)
        for j in row.indices:
            self.rows_of[j].append(r)


def separate(model: ModelRows, values: list[float], most: int) -> list[Cut]:
    """Up to ``most`` zero-half cuts violated by ``values`` (the LP solution), the most
    violated first."""
    lower, upper, integer = model.lower, model.upper, model.integer
    # Columns: at a bound (evened for free), complemented when nearer the upper one, and
    # the others, which the elimination must clear (bit k of a row's mask).
    complemented: set[int] = set()
    inner: dict[int, int] = {}
    touched: set[int] = set()
    for j, x in enumerate(values):
        if not integer[j]:
            continue
        low, high = lower[j], upper[j]
        if high - x < x - low:
            complemented.add(j)
            distance = high - x
        else:
            distance = x - low
        if distance > TOLERANCE:
            inner[j] = len(inner)
            touched.update(model.rows_of[j])
    # The rows of little slack, as (mask, parity, slack, rows combined as bits); sources:
    # (row, +1 for "<= upper", -1 for ">= lower") by bit.
    sources: list[tuple[int, int]] = []
    table: list[list[Any]] = []
    for r in sorted(touched):
        row = model.rows[r]
        activity = 0.0
        mask = 0
        parity = 0
        for j, c in zip(row.indices, row.coefs, strict=True):
            x = values[j]
            activity += c * x
            if c & 1:
                k = inner.get(j)
                if k is not None:
                    mask ^= 1 << k
                # Evened by a bound at the end: x_j <= u_j or -x_j <= -l_j.
                parity ^= int(upper[j] if j in complemented else lower[j]) & 1
        if not mask:
            continue  # no odd column to clear: combining it gains nothing
        for sign, rhs in ((1, row.upper), (-1, row.lower)):
            if not math.isfinite(rhs):
                continue
            slack = rhs - activity if sign == 1 else activity - rhs
            if slack < 1.0 - TOLERANCE:
                table.append([mask, parity ^ (int(rhs) & 1), max(slack, 0.0), 1 << len(sources)])
                sources.append((r, sign))
            if row.lower == row.upper:
                break  # an equality: either way is the same modulo 2
    for k in range(len(inner)):
        bit = 1 << k
        having = [entry for entry in table if entry[0] & bit]
        if not having:
            continue
        pivot = min(having, key=_slack)  # the first of least slack: a fixed order
        for entry in having:
            if entry is pivot:
                continue
            entry[0] ^= pivot[0]
            entry[1] ^= pivot[1]
            entry[2] += pivot[2]
            entry[3] ^= pivot[3]
            if entry[2] >= 1.0 - TOLERANCE:
                entry[0] = entry[1] = 0  # too much slack ever to make a violated cut
        pivot[0] = pivot[1] = 0  # used up: its column is cleared from every other row
        if k % 16 == 15:
            table = [entry for entry in table if entry[0] or entry[1]]
    # Cuts alike at the LP solution (the same terms on the variables it sets) are one cut
    # there: the one with the fewest terms is kept, so that the rows added stay sparse.
    found: dict[tuple[tuple[int, int], ...], tuple[float, Cut]] = {}
    odd = sorted((e for e in table if e[1] and not e[0]), key=_slack)
    # A combination's cut is violated by half of one less its slack: the least slack
    # first, and no more of them rebuilt than a few times the cuts asked for.
    for entry in odd[: DECODED_PER_CUT * most]:
        cut = _cut(model, sources, entry[3], complemented)
        if cut is None:
            continue
        by = sum(c * values[j] for j, c in cut.terms) - cut.upper
        if by <= LEAST_VIOLATION:
            continue
        seen = tuple((j, c) for j, c in cut.terms if values[j] > TOLERANCE)
        before = found.get(seen)
        if before is None or len(cut.terms) < len(before[1].terms):
            found[seen] = (by, cut)
    best = sorted(found.values(), key=lambda f: (-f[0], len(f[1].terms), f[1].terms))
    return [cut for _, cut in best[:most]]


def _slack(entry: list[Any]) -> float:
    return float(entry[2])


def _cut(
    model: ModelRows, sources: list[tuple[int, int]], members: int, complemented: set[int]
) -> Cut | None:
    """The cut of the rows ``members`` (bits over ``sources``), rebuilt in integers: None
    if their coefficients, evened by the bounds, do not add up to an odd right-hand side."""
    total: dict[int, int] = {}
    rhs = 0
    while members:
        low = members & -members
        members ^= low
        r, sign = sources[low.bit_length() - 1]
        row = model.rows[r]
        for j, c in zip(row.indices, row.coefs, strict=True):
            total[j] = total.get(j, 0) + sign * c
        rhs += sign * int(row.upper if sign == 1 else row.lower)
    for j, c in total.items():
        if c & 1:
            if j in complemented:  # x_j <= u_j
                total[j] = c + 1
                rhs += int(model.upper[j])
            else:  # -x_j <= -l_j
                total[j] = c - 1
                rhs -= int(model.lower[j])
    if not rhs & 1:
        return None
    terms = tuple(sorted((j, c // 2) for j, c in total.items() if c))
    if not terms:
        return None
    return Cut(terms, (rhs - 1) // 2)


def _bounds(part: bytes, numbers: tuple[int, int]) -> tuple[float, float]:
    """A record's (lower, upper) bounds; protobuf's defaults are -inf and +inf."""
    low, high = -math.inf, math.inf
    for number, value, _ in wire.fields(part):
        if number == numbers[0]:
            low = _double(value)
        elif number == numbers[1]:
            high = _double(value)
    return low, high


def _double(value: bytes) -> float:
    return _packed_doubles(value)[0]


def _row(part: bytes) -> Row | None:
    indices: list[int] = []
    coefs: list[float] = []
    for number, value, _ in wire.fields(part):
        if number == _CONSTRAINT_INDICES:
            indices += _varints(value)
        elif number == _CONSTRAINT_COEFFICIENTS:
            coefs += _packed_doubles(value)
    low, high = _bounds(part, wire.CONSTRAINT_BOUNDS)
    whole = [round(c) for c in coefs]
    if any(w != c for w, c in zip(whole, coefs, strict=True)):
        return None
    for bound in (low, high):
        if math.isfinite(bound) and bound != round(bound):
            return None
    return Row(tuple(indices), tuple(whole), low, high)


def _packed_doubles(value: bytes) -> list[float]:
    """Little-endian doubles, as protobuf writes them."""
    found = array("d")
    found.frombytes(value)
    if sys.byteorder == "big":
        found.byteswap()
    return found.tolist()


def _varints(data: bytes) -> list[int]:
    found: list[int] = []
    at, end = 0, len(data)
    while at < end:
        byte = data[at]
        if byte < 0x80:
            found.append(byte)
            at += 1
            continue
        value = shift = 0
        while True:
            byte = data[at]
            at += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                break
            shift += 7
        found.append(value)
    return found
