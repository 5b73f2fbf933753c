"""The base of every move model: played tiles, balance rows, free runs and candidate columns.

The base depends on the rule set and a choice of candidate melds only, so :func:`lay_base`
builds it the same way for two uses: once per rule set into a template that every position
of that rule set copies (:func:`play_template`: building through pywraplp coefficient by
coefficient costs most of a small position's time, and a copy far less; benchmarks/RESULTS.md,
"Solver choices: building the model"), and
straight into one position's model where no template fits (an opening without playing on,
candidate runs instead of the flow, boxes with too many groups to copy). Either way the
position then bounds the base to its tiles and adds what is its own: old melds left as they
were, locked melds' fates, the initial meld. A small position copies only the part of the
template its tiles can use (:meth:`Template.load_live`), renumbered.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any, NamedTuple

from rummikub.core import deadline
from rummikub.core.lp import wire
from rummikub.core.lp.builder import Builder
from rummikub.core.lp.records import Records
from rummikub.core.lp.rows import Rows, clp
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver.candidates import Candidates, Counts, Needs, TileIndex, group_candidates
from rummikub.tiles.solver.group_counts import GroupCounts, counts_groups
from rummikub.tiles.solver.runs_flow import RunFlow

#: Above this many candidate groups (8-color boxes have ~12,000) a copy of every group
#: costs more than building the few a position can use.
MOST_GROUPS = 2000


# A named tuple, not a dataclass: every ``rummikub solve`` process imports this module
# (benchmarks/RESULTS.md, "Solver choices: start-up").
class Base(NamedTuple):
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
    #: The free groups counted by number (boxes of many colors), or None when free
    #: groups are candidate columns.
    groups: GroupCounts | None = None


#: Per candidate table (by id: the tables are cached for the process), each bucket of
#: :attr:`Candidates.by_first` as (first tile, [(row, getter of its tile counts, copies
#: each tile needs, or None when one each)]).
_GETTERS: dict[int, tuple[Candidates, list[tuple[int, list[tuple[int, Any, Any]]]]]] = {}


def fitting(cands: Candidates, limit: Counts) -> list[tuple[int, int]]:
    """``cands.fitting(limit)``, the same list, faster: each candidate's tile counts are read
    by one ``itemgetter`` call (C) instead of a generator, which on a 60-tile table is most
    of the time spent choosing its candidate groups."""
    found = _GETTERS.get(id(cands))
    if found is None or found[0] is not cands:
        buckets = []
        for first, rows in cands.by_first.items():
            readers = []
            for row in rows:
                needs = cands.needs[row]
                ids = [t for t, _ in needs]
                copies = None if all(n == 1 for _, n in needs) else [n for _, n in needs]
                getter: Any = itemgetter(*ids) if len(ids) > 1 else _one(ids[0])
                readers.append((row, getter, copies))
            buckets.append((first, readers))
        found = _GETTERS[id(cands)] = (cands, buckets)
    chosen = []
    for first, readers in found[1]:
        if not limit[first]:
            continue
        deadline.check()  # an 8-color box has ~12,000 candidate groups
        for row, getter, copies in readers:
            if copies is None:
                upper = min(getter(limit))
            else:
                upper = min(c // n for c, n in zip(getter(limit), copies, strict=True))
            if upper:
                chosen.append((row, upper))
    return chosen


#: A cluster of candidates: a getter of the counts it depends on, (row, getter of its tile
#: counts, copies each tile needs or None) per candidate, and the candidates that fit,
#: with their copies, remembered by those counts.
_Cluster = tuple[Any, list[tuple[int, Any, Any]], dict[Any, list[tuple[int, int]]]]
#: Per candidate table (by id, as :data:`_GETTERS`): its clusters (see :func:`fitting_rows`),
#: each as (getter of the counts it depends on, its candidates' readers, the candidates
#: that fit, remembered by those counts).
_CLUSTERS: dict[int, tuple[Candidates, list[_Cluster]]] = {}
#: The candidate tables read once so far (by id, as :data:`_GETTERS`), without clusters.
_READ_ONCE: dict[int, Candidates] = {}
#: Counts remembered per cluster (a cluster of the standard box has 3^5 possible ones).
MOST_REMEMBERED = 4096


def fitting_rows(cands: Candidates, limit: Counts) -> list[tuple[int, int]]:
    """``sorted(fitting(cands, limit))``, the same pairs by row, faster on a table read
    again and again (a template's candidate groups): candidates are split into clusters
    that share no numbered tile (a box's groups: one per number), and which candidates of
    a cluster fit, with how many copies, depends only on the counts of its own tiles and of
    the joker, so it is remembered by those counts (benchmarks/RESULTS.md, "Solver choices:
    building the model"). The clusters are made on the table's second read: on its first, reading
    the candidates alone costs less than making them (a process that solves one position,
    such as one ``rummikub solve``, never needs them)."""
    found = _CLUSTERS.get(id(cands))
    if found is None or found[0] is not cands:
        if _READ_ONCE.get(id(cands)) is not cands:
            _READ_ONCE[id(cands)] = cands
            return sorted(cands.fitting(limit))
        found = _CLUSTERS[id(cands)] = (cands, _clusters(cands))
    deadline.check()
    chosen: list[tuple[int, int]] = []
    for counts, readers, fits in found[1]:
        key = counts(limit)
        hit = fits.get(key)
        if hit is None:
            hit = []
            for row, getter, copies in readers:
                if copies is None:
                    upper = min(getter(limit))
                else:
                    upper = min(c // n for c, n in zip(getter(limit), copies, strict=True))
                if upper:
                    hit.append((row, upper))
            if len(fits) >= MOST_REMEMBERED:
                fits.clear()
            fits[key] = hit
        chosen += hit
    chosen.sort()
    return chosen


def _clusters(cands: Candidates) -> list[_Cluster]:
    """The candidates split into clusters sharing no numbered tile: (a getter of the counts
    of the cluster's tiles and the joker, (row, getter of its tile counts, copies each
    tile needs or None) per candidate, an empty memory)."""
    joker = cands.index.joker
    parent: dict[int, int] = {}

    def root(t: int) -> int:
        while parent.setdefault(t, t) != t:
            t = parent[t]
        return t

    for needs in cands.needs:
        numbered = [t for t, _ in needs if t != joker] or [joker]
        for t in numbered[1:]:
            parent[root(t)] = root(numbered[0])
    members: dict[int, list[int]] = {}
    for row, needs in enumerate(cands.needs):
        numbered = [t for t, _ in needs if t != joker] or [joker]
        members.setdefault(root(numbered[0]), []).append(row)
    clusters: list[_Cluster] = []
    for rows in members.values():
        tiles = sorted({t for row in rows for t, _ in cands.needs[row]} | {joker})
        readers: list[tuple[int, Any, Any]] = []
        for row in rows:
            needs = cands.needs[row]
            ids = [t for t, _ in needs]
            copies = None if all(n == 1 for _, n in needs) else [n for _, n in needs]
            reader: Any = itemgetter(*ids) if len(ids) > 1 else _one(ids[0])
            readers.append((row, reader, copies))
        counts: Any = itemgetter(*tiles) if len(tiles) > 1 else _one(tiles[0])
        clusters.append((counts, readers, {}))
    return clusters


def _one(t: int) -> Any:
    """A getter of one tile's count, as a 1-tuple (``itemgetter`` of one returns the item)."""
    return lambda counts: (counts[t],)


def lay_base(
    model: Builder,
    rules: Rules,
    index: TileIndex,
    columns: Sequence[tuple[int, Needs]],
    *,
    flow: bool,
    played: Sequence[int],
    balanced: Sequence[int],
    groups: bool = False,
) -> Base:
    """Build the base into ``model``, every variable fixed at 0 and every balance at 0.

    ``played``: the tile types that get a played variable; ``balanced``: those whose balance
    row comes first (a template has them all); any other tile type gets its balance row
    when a run or a column first needs it.
    """
    variables = {t: model.integer(0, f"played_{t}") for t in played}
    rows: dict[int, int] = {}

    def balance(t: int) -> int:
        """The row: tiles of type ``t`` laid - played = on the old table."""
        row = rows.get(t)
        if row is None:
            played_t = variables.get(t)
            row = rows[t] = model.row(0.0, 0.0, [] if played_t is None else [(played_t, -1.0)])
        return row

    for t in balanced:
        balance(t)
    runs = RunFlow.build(model, rules, index, balance) if flow else None
    counted = GroupCounts.build(model, rules, index, balance) if groups else None
    deadline.check()
    laid = []
    for k, (row, needs) in enumerate(columns):
        if k % 64 == 0:
            deadline.check()  # an 8-color box lays thousands of columns per position
        var = model.integer(0, f"lay_{row}")
        for t, n in needs:
            model.term(balance(t), var, float(n))
        laid.append((row, var))
    return Base(
        played=variables,
        balance=rows,
        flow=runs,
        columns=tuple(laid),
        column_of=dict(laid),
        variables=model.variables(),
        groups=counted,
    )


#: A template by columns: per variable, its terms in the rows as (row, its coefficient as a
#: packed double); per row, its record's payload without its terms (the bounds); a row's
#: bounds as written, by bounds; an integer variable's record in ``0..upper``, by upper
#: (both filled as live copies need them; every variable of a template is an integer one,
#: as :class:`.Records` writes them).
_Columns = tuple[
    tuple[tuple[tuple[int, bytes], ...], ...],
    tuple[bytes, ...],
    dict[tuple[float, float], bytes],
    dict[float, bytes],
]


class Template(NamedTuple):
    """A model of the base of a rule set with every candidate group, ready to copy.

    A position's copy is loaded with its bounds already in place: the model's serialized
    form (an ``MPModelProto``) is a list of records, one per variable and row, so the copy
    is the template's records with those of the variables and rows the position bounds
    swapped for records carrying its bounds (made once per bound and cached). Setting the
    bounds after loading would cost a Python proxy and a call per variable, more than the
    rest of a small position's build. The records are read and written as bytes
    (:mod:`.wire`), without protobuf's Python messages.
    """

    base: Base
    #: The box it was built for (its candidate groups are ``group_candidates(rules)``).
    rules: Rules
    #: The serialized records of the template's variables, then of its rows.
    records: list[bytes]
    #: How many of :attr:`records` are variables (the rows follow).
    variables: int
    #: Records with other bounds, made when first needed: by (variable or row position in
    #: :attr:`records`, bounds).
    bounded: dict[tuple[int, float, float], bytes]
    #: The same model by columns, for live copies (:meth:`load_live`; written with the
    #: records: reading them back out of the rows cost the first live copy more, see
    #: benchmarks/RESULTS.md, "Solver choices: building the model").
    columns: _Columns

    def load(
        self,
        uppers: dict[int, float] | None = None,
        rows: dict[int, tuple[float, float]] | None = None,
    ) -> Rows:
        """A fresh CLP model holding a copy of the template, where variable ``i`` lies in
        ``0..uppers[i]`` and row ``r`` in ``rows[r]`` (the others as in the template)."""

        records = self.records
        if uppers or rows:
            records = list(records)
            # The cache read inline: a method call per bounded variable (hundreds on a
            # mid-sized table) cost more than the lookups themselves.
            bounded = self.bounded
            for i, upper in (uppers or {}).items():
                found = bounded.get((i, 0.0, upper))
                records[i] = self._record(i, 0.0, upper) if found is None else found
            for r, (lower, upper) in (rows or {}).items():
                records[self.variables + r] = self._record(self.variables + r, lower, upper)
        solver = clp()
        wire.through(solver.LoadModelFromProto, b"".join(records))
        if solver.NumVariables() != self.base.variables:
            raise RuntimeError("the template did not load")
        return Rows(solver)

    def load_live(
        self, uppers: dict[int, float], rows: dict[int, tuple[float, float]]
    ) -> tuple[Rows, list[int], dict[int, int]]:
        """A fresh CLP model of only the template's variables that may move (``uppers``:
        variable ``i`` in ``0..uppers[i]``), in the template's order, and of only the rows
        they enter or that ``rows`` bounds (row ``r`` in ``rows[r]``), in the template's
        order: (the model, the template index of each of its variables, the model's index
        of each template row it holds).

        Every other variable of the template is fixed at 0 (a flow's joker beside runs
        that cannot be laid is held at 0 by its row), so leaving it out changes no
        solution; a row without any variable left, bounded at 0, holds always. A small
        table frees a fraction of a template's variables, so CLP loads and solves a much
        smaller model (benchmarks/RESULTS.md, "Solver choices: building the model").
        """

        terms, heads, row_bounds, variable = self.columns
        live = sorted(uppers)
        parts: list[bytes] = []
        # A row is written as its fields' bytes straight (the field numbers are small, so
        # their keys are one byte), the varints read from a table: no call per term.
        varint = wire.varint_table(16 * len(live) + 64)  # a row: <= ~13 bytes a term
        key_row, key_ks, key_coefficients = _KEYS
        # Each row's terms: its variables' new indices as varints, their coefficients.
        by_row: dict[int, tuple[list[bytes], list[bytes]]] = {}
        for k, i in enumerate(live):
            upper = uppers[i]
            found = variable.get(upper)  # every variable of a template is an integer one
            parts.append(_variable(variable, upper) if found is None else found)
            index = varint[k]
            for r, coefficient in terms[i]:
                row = by_row.get(r)
                if row is None:
                    by_row[r] = ([index], [coefficient])
                else:
                    row[0].append(index)
                    row[1].append(coefficient)
        kept = sorted(by_row.keys() | rows.keys())
        join = b"".join
        for r in kept:
            given = rows.get(r)
            head = (
                heads[r] if given is None else row_bounds.get(given) or _bounds(row_bounds, given)
            )
            found_terms = by_row.get(r)
            if found_terms is not None:
                packed, coefficients = join(found_terms[0]), join(found_terms[1])
                head = join(
                    (
                        head,
                        key_ks,
                        varint[len(packed)],
                        packed,
                        key_coefficients,
                        varint[len(coefficients)],
                        coefficients,
                    )
                )
            parts.append(key_row + varint[len(head)] + head)
        solver = clp()
        wire.through(solver.LoadModelFromProto, b"".join(parts))
        if solver.NumVariables() != len(live) or solver.NumConstraints() != len(kept):
            raise RuntimeError("the template's live part did not load")
        return Rows(solver), live, {r: k for k, r in enumerate(kept)}

    def _record(self, k: int, lower: float, upper: float) -> bytes:
        key = (k, lower, upper)
        found = self.bounded.get(key)
        if found is None:
            if k < self.variables:
                number, bounds = wire.MODEL_VARIABLE, wire.VARIABLE_BOUNDS
            else:
                number, bounds = wire.MODEL_CONSTRAINT, wire.CONSTRAINT_BOUNDS
            part = wire.without(wire.payload(self.records[k]), bounds)
            part += wire.double(bounds[0], lower) + wire.double(bounds[1], upper)
            found = self.bounded[key] = wire.length_delimited(number, part)
        return found


def _variable(written: dict[float, bytes], upper: float) -> bytes:
    """An integer variable's record in ``0..upper`` (remembered in ``written``), as
    :class:`.Records` writes it."""
    lower_field, upper_field = wire.VARIABLE_BOUNDS
    part = wire.double(lower_field, 0.0) + wire.double(upper_field, upper)
    found = written[upper] = wire.length_delimited(
        wire.MODEL_VARIABLE, part + wire.varint(wire.VARIABLE_INTEGER, 1)
    )
    return found


def _bounds(written: dict[tuple[float, float], bytes], bounds: tuple[float, float]) -> bytes:
    """A row's bounds as its record's fields (remembered in ``written``)."""
    lower_field, upper_field = wire.CONSTRAINT_BOUNDS
    found = written[bounds] = wire.double(lower_field, bounds[0]) + wire.double(
        upper_field, bounds[1]
    )
    return found


#: The keys of a model's row field and of a row's packed variables and coefficients.
_KEYS = tuple(
    wire.field_key(number)
    for number in (wire.MODEL_CONSTRAINT, wire.CONSTRAINT_VARIABLES, wire.CONSTRAINT_COEFFICIENTS)
)


def template_for(rules: Rules, jokers: int) -> Template | None:
    """The template for a position of ``rules`` with ``jokers`` jokers in play.

    Candidate groups with more jokers than are in play, and with none in play the flow's
    jokers, can never be laid, so the template of the box with that many jokers leaves
    them out: a smaller model to copy and to solve (a third of the columns without
    jokers). The template depends on the box alone, not on the other rules (a box that
    counts its groups has one template: its jokers cost few columns). Each is built on its
    first use: a process that solves one position builds one template, not one per number
    of jokers (benchmarks/RESULTS.md, "Solver choices: building the model"; a long-running
    caller that must not pay for one mid-way solves a position with each number of jokers
    first, as the benchmarks' warm-up does).
    """
    return _template(rules.numbers, rules.colors, rules.copies, rules.jokers, max(0, jokers))


@lru_cache(maxsize=32)
def _template(numbers: int, colors: str, copies: int, jokers: int, in_play: int) -> Template | None:
    box = Rules(numbers=numbers, colors=colors, copies=copies, jokers=jokers)
    if counts_groups(box):
        return play_template(box)
    return play_template(box.replace(jokers=min(jokers, in_play)))


@lru_cache(maxsize=16)
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
    # Written straight as records, with no solver: laying it through pywraplp (a call
    # across to C++ per coefficient), exporting it and cutting the names out of every
    # record cost more than a small position's solve. A copy is its variables and rows
    # alone (the objective is set per position).
    written = Records()
    index = TileIndex(rules)
    every = range(index.size)
    base = lay_base(
        written, rules, index, columns, flow=True, played=every, balanced=every, groups=counted
    )
    variables = written.variable_records()
    terms, heads = written.columns()
    return Template(
        base=base,
        rules=rules,
        records=variables + written.row_records(),
        variables=len(variables),
        bounded={},
        columns=(terms, heads, {}, {}),
    )
