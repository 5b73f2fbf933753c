"""The integer program for the best move: den Hertog & Hulshof's model, with runs as a
flow, the joker lock and the initial meld.

:class:`MoveModel` builds the whole model in its constructor, from parts that each own their
variables and rows, and :meth:`MoveModel.solve` returns a :class:`ModelOutcome`.

Variables (all integer but the ranks), by their accessors in :class:`MoveVariables`:
- ``played(t)``: tiles of type ``t`` played from the rack;
- free runs: the flow of :mod:`.runs_flow` (or candidate run columns, see ``runs_as_flow``);
- ``lay``: copies of each candidate group (of each candidate meld without the flow);
- ``units``: per locked unit, copies ending in each of its fates (see :mod:`.locks`,
  :mod:`.units`);
- ``opening``: copies of each meld laid from the hand as the initial meld (:mod:`.opening`);
- ``as_was``: old melds of kind and tiles ``k`` left as they were (tie-break 3), each
  with a column of its own;
- ``from_...`` and ``rank_...``: which released locked meld (old, or an initial meld just
  laid) gives a tile to replace another meld's joker, in an order that forbids two melds
  releasing each other (``joker_swap_from = "rack_or_table"``).

Rows: one balance per tile type (new table = old table + played), the fates of each
locked meld summing to one, the initial meld's value and tiles, and the supply of
substituting tiles. The objective is lexicographic through exact integer weights.
"""

from __future__ import annotations

import math
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import lru_cache
from itertools import chain
from typing import Any, Literal, NamedTuple

from rummikub.core import deadline
from rummikub.core.lp.exact import CP_SAT
from rummikub.core.lp.rows import INF, Rows, Terms, clp
from rummikub.core.lp.search import (
    INTEGRALITY,
    Aggregate,
    Budget,
    SearchOutcome,
    branch_and_bound,
    settle,
)
from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver.candidates import (
    Candidates,
    Counts,
    Needs,
    TileIndex,
    candidates,
    group_candidates,
    meld_key,
    no_candidates,
    run_candidates,
)
from rummikub.tiles.solver.group_counts import (
    COUNTED_CUT_NODE_LIMIT,
    COUNTED_EXACT_BACKEND,
    COUNTED_MIP_RESERVE_PER_COLUMN,
    COUNTED_NODE_LIMIT,
    GroupCounts,
    counts_groups,
)
from rummikub.tiles.solver.layout import lay_out, meld_order
from rummikub.tiles.solver.locks import Fate, fates, kept_in, substitutions
from rummikub.tiles.solver.opening import (
    OpeningMeld,
    hand_melds,
    hand_readings_with_jokers,
    opens_without_jokers,
    require_opening,
)
from rummikub.tiles.solver.result import Objective
from rummikub.tiles.solver.runs_flow import RunFlow
from rummikub.tiles.solver.template import (
    Base,
    Template,
    fitting,
    fitting_rows,
    lay_base,
    template_for,
)
from rummikub.tiles.solver.units import LockedUnits, Unit
from rummikub.tiles.tiles import Tile

#: Nodes the branch and bound may spend on a model of a standard size (up to
#: :data:`STANDARD_COLUMNS` columns) before the MIP back end takes over: CBC settles the
#: positions that branch long at its root, but far slower than the search's few nodes
#: there (benchmarks/RESULTS.md, "Solver choices: budgets and reserves").
NODE_LIMIT = 200
STANDARD_COLUMNS = 1_000
#: The budget of a bigger model (boxes of many colors): nodes times columns, counted so
#: that machine load never changes which code path answers (and so, on ties, the table).
#: A big model that branches long is solved sooner by CBC, so it gets fewer nodes.
COLUMN_NODE_LIMIT = 60_000
#: Simplex iterations over all nodes, a budget of work as well.
ITERATION_LIMIT = 15_000
#: Seconds kept back from the MIP back end's time limit for reading the answer back.
READING_MARGIN = 0.01
#: Seconds per column kept back from a time limit before the search starts a node, and
#: for the MIP back end's root, as measured on a loaded 2-core machine (benchmarks/RESULTS.md,
#: "Solver choices: budgets and reserves").
LP_RESERVE_PER_COLUMN = 15e-6
MIP_RESERVE_PER_COLUMN = 35e-6
#: The same for CP-SAT, whose time limit holds from the start: it overran it by at most
#: 6 ms on an idle machine and 22 ms on a loaded one for 1,100-1,240 columns (~18 us a
#: column), so twice that (benchmarks/RESULTS.md, "Solver choices: CP-SAT under a time
#: limit").
CP_SAT_RESERVE_PER_COLUMN = 40e-6

#: A position's model holds only the template's variables that may move, and the rows
#: they enter, when they are at most this share of the template's (see
#: :meth:`.Template.load_live`). Writing that model costs Python time for each variable,
#: and each variable left out saves CLP about as much in loading and in each LP solve:
#: the share where the two break even (benchmarks/RESULTS.md, "Solver choices: building
#: the model").
LIVE_SHARE = 0.35

#: ``optimal``: a move, proven best; ``feasible``: a move, not proven best (time ran out);
#: ``no_move``: proven that no legal move exists; ``unknown``: time ran out before any move
#: was found.
ModelStatus = Literal["optimal", "feasible", "no_move", "unknown"]


# A named tuple, not a dataclass: every ``rummikub solve`` process imports this module
# (benchmarks/RESULTS.md, "Solver choices: start-up").
class Solution(NamedTuple):
    """A move read back from the model: the tiles played and the new table."""

    played: tuple[Tile, ...]
    table: tuple[Meld, ...]


class ModelOutcome(NamedTuple):
    """What a solve of the model established."""

    status: ModelStatus
    #: The move, for ``optimal`` and ``feasible``.
    solution: Solution | None
    #: Branch-and-bound nodes spent (LP solves).
    nodes: int = 0
    #: The move's objective (its lexicographic levels as one integer), to compare moves.
    score: int | None = None
    #: True when the move lays an initial meld with a joker as free tiles: legal only in
    #: the relaxed model (``relax_opening``), not under the rules.
    relaxed: bool = False

    @property
    def proven(self) -> bool:
        return self.status in ("optimal", "no_move")


class AsWas(NamedTuple):
    """Old joker-free melds alike (kind and tiles) that may stay as they were."""

    olds: tuple[int, ...]
    #: How many of them stay as they were (tie-break 3): the column itself where it can
    #: lay no more copies than there are such old melds.
    var: int
    #: The column that lays their tiles; its copies bound ``var``.
    column: int


class MoveVariables:
    """The model's variables by what they mean (a plain class, as the named tuples above:
    not a dataclass, benchmarks/RESULTS.md, "Solver choices: start-up")."""

    __slots__ = (
        "_balance",
        "_played",
        "_rows",
        "as_was",
        "flow",
        "groups",
        "lay",
        "opening",
        "units",
    )

    def __init__(self, rows: Rows, balance: dict[int, int]) -> None:
        self._rows = rows
        self._played: dict[int, int] = {}
        #: The balance rows by tile type: the base's, then those made when first needed.
        self._balance = balance
        #: (meld, column index) of every meld laid free: candidates, old melds' own columns.
        self.lay: list[tuple[Meld, int]] = []
        self.flow: RunFlow | None = None
        #: The free groups counted by number (boxes of many colors; see :mod:`.group_counts`).
        self.groups: GroupCounts | None = None
        self.units: list[Unit] = []
        self.opening: list[OpeningMeld] = []
        self.as_was: list[AsWas] = []

    def played(self, tile: int) -> int | None:
        """Tiles of type ``tile`` played; None when the rack holds none."""
        return self._played.get(tile)

    def played_tiles(self) -> dict[int, int]:
        """The played-tile variable of each tile type in the rack."""
        return dict(self._played)

    def balance(self, tile: int) -> int:
        """The row: tiles of type ``tile`` on the new table - played = on the old table
        (made when first needed: no tile of that type is then in play)."""
        row = self._balance.get(tile)
        if row is None:
            row = self._balance[tile] = self._rows.row(0.0, 0.0)
        return row


@lru_cache(maxsize=16)
def _tile_index(rules: Rules) -> TileIndex:
    """The tile ids of ``rules`` (cached: building them costs a small position's solve a
    share, benchmarks/RESULTS.md, "Solver choices: start-up"; the solver never adds tiles
    to it)."""
    return TileIndex(rules)


@lru_cache(maxsize=16)
def _tile_values(rules: Rules) -> Counts:
    """What each tile type is worth when played (cached, as :func:`_tile_index`)."""
    return _tile_index(rules).values()


#: Per candidate table (by id: the tables are cached for the process), the number of each
#: candidate that is a group, 0 for a run.
_GROUP_NUMBERS: dict[int, tuple[Candidates, tuple[int, ...]]] = {}


def _group_numbers(cands: Candidates) -> tuple[int, ...]:
    found = _GROUP_NUMBERS.get(id(cands))
    if found is None or found[0] is not cands:
        numbers = tuple(m.number if m.kind == "group" else 0 for m in cands.melds)
        found = _GROUP_NUMBERS[id(cands)] = (cands, numbers)
    return found[1]


#: A hook that adds rows of its own to a built model (before the objective is set).
ExtraRows = Callable[["MoveModel"], None]


class MoveModel:
    """Builds the integer program for one position; :meth:`solve` reads its answer back."""

    def __init__(
        self,
        position: Position,
        objective: Objective,
        backend: str | None = None,
        *,
        runs_as_flow: bool = True,
        extra_rows: tuple[ExtraRows, ...] = (),
        fewest_tiles: bool = False,
        relax_opening: bool = False,
    ) -> None:
        self.position = position
        self.rules: Rules = position.rules
        self.objective = objective
        #: With the value objective, the fewest tiles at the best value (not the most).
        self.fewest_tiles = fewest_tiles
        self.backend = backend
        self.index = index = _tile_index(self.rules)
        self.strict = self.rules.joker_lock == "strict"
        #: Not opened and may not play on: new melds from the hand, old table untouched.
        self.opening_only = not position.opened and not self.rules.open_then_play
        #: Not opened and may play on after the initial meld.
        self.opening = not position.opened and self.rules.open_then_play
        self.rack: Counts = index.counts(position.rack)
        #: The relaxations of :mod:`.opening_bound`. Not opened: initial melds with a joker
        #: are laid as free tiles (no locked units), where the joker lock would lock them.
        #: Opened: the model stands in for the position not opened, so each move must show
        #: an initial meld without jokers among its played tiles.
        self.relax_opening = (
            relax_opening and self.opening and self.strict and self.rack[index.joker] > 0
        )
        self.stand_in = relax_opening and position.opened
        #: The columns of the initial melds with a joker that the relaxation lays free.
        self.relaxed: list[tuple[int, int]] = []
        #: Variables the branch and bound leaves fractional: in the relaxed model, the
        #: initial melds (a move's tiles are then checked for an initial meld of their own).
        self._loose: set[int] = set()
        #: Whether cuts were added to the model (:meth:`_cut_root`).
        self._cut = False
        #: Per tile id, (fate variable, tiles) of the fates that substitute jokers with it.
        self._demands: dict[int, Terms] = {}
        # Every old tile stays where it is when only opening, so only rack tiles balance.
        table = [] if self.opening_only else [t for m in position.table for t in m.tiles]
        self.table: Counts = index.counts(table)
        self.available: Counts = [a + b for a, b in zip(self.table, self.rack, strict=True)]
        #: Variables that may move in the base (the others are fixed at 0).
        self.active: list[int] = []
        #: The groups laid of each number, for the search (see :meth:`_aggregates`).
        self._groups_laid: list[Aggregate] | None = None
        #: The candidate table and the column of each candidate that fits, by row.
        self._candidates: tuple[Candidates, dict[int, int]] | None = None
        #: The candidates that fit, where building the base needed them already.
        self._fitting: list[tuple[int, int]] | None = None
        # The model is built for CLP, whose warm re-solves drive the branch and bound of
        # :mod:`.search`; the MIP back end gets a copy only if that search leaves it open.
        # The time limit covers building too: deadline.check() raises OutOfTime past it.
        deadline.check()
        template, built, base, cands = self._load_base(runs_as_flow)
        self.base_variables = base.variables
        deadline.check()
        columns = self._bind(template, built, base, cands)
        deadline.check()
        if self.opening_only:
            require_opening(self.rows, self.rules, self.vars.opening, None)
        else:
            self._add_play(cands, columns)
        # At least one tile is played (RULES.md rule 2).
        self.rows.row(1.0, INF, [(v, 1.0) for v in self.vars.played_tiles().values()])
        for extra in extra_rows:
            extra(self)
        deadline.check()
        self._set_objective()

    @property
    def solver(self) -> Any:
        """The CLP model (pywraplp's ``Solver``)."""
        return self.rows.solver

    # -- building ---------------------------------------------------------------

    def _load_base(
        self, runs_as_flow: bool
    ) -> tuple[Template | None, Rows | None, Base, Candidates]:
        """The base: the rule set's template (copied by :meth:`_bind` with the position's
        bounds), or a solver with a base built for this position alone where no template
        fits (see :mod:`.template`)."""
        rules = self.rules
        template = None
        if not self.opening_only and runs_as_flow:
            template = template_for(rules, self.available[self.index.joker])
        if template is not None:
            base = template.base
            box = template.rules
            cands = group_candidates(box) if base.groups is None else no_candidates(box)
            return template, None, base, cands

        built = Rows(clp())
        flow = runs_as_flow and not self.opening_only
        # Many colors: free groups counted by number (an initial meld alone keeps columns,
        # whose values it counts).
        counted = counts_groups(rules) and not self.opening_only
        if counted:
            cands = no_candidates(rules) if flow else run_candidates(rules)
        else:
            cands = group_candidates(rules) if flow else candidates(rules)
        limit = self.rack if self.opening_only else self.available
        self._fitting = fitting(cands, limit)  # _bind reads it again
        columns = [(row, cands.needs[row]) for row, _ in self._fitting]
        # A played variable for each tile type in the rack, a balance for each in play.
        played = [t for t, n in enumerate(self.rack) if n]
        balanced = [t for t, n in enumerate(self.available) if n]
        base = lay_base(
            built,
            rules,
            self.index,
            columns,
            flow=flow,
            played=played,
            balanced=balanced,
            groups=counted,
        )
        return None, built, base, cands

    def _bind(
        self, template: Template | None, built: Rows | None, base: Base, cands: Candidates
    ) -> dict[int, int]:
        """Bound the base to this position (the template's copy is loaded with its bounds
        in place); returns the column of each candidate that fits, by candidate row.

        Only what the position's own parts use gets a Python proxy: the rest of the base
        is read by variable index.
        """
        uppers: dict[int, float] = {}
        for t, v in base.played.items():
            if self.rack[t]:
                uppers[v] = float(self.rack[t])
        flow = None
        if base.flow is not None:
            flow, flow_uppers = base.flow.limit(self.available, self.index)
            uppers.update(flow_uppers)
        fits = self._fitting
        if fits is None:  # a template: its candidates are read for every position
            fits = fitting_rows(cands, self.rack if self.opening_only else self.available)
        else:
            fits = sorted(fits)
        columns: dict[int, int] = {}
        for k, (row, upper) in enumerate(fits):
            if k % 256 == 0:
                deadline.check()
            where = base.column_of.get(row)
            if where is not None and upper:
                uppers[where] = float(upper)
                columns[row] = where
        rows = {base.balance[t]: (float(n), float(n)) for t, n in enumerate(self.table) if n}
        balance = base.balance
        if (
            template is not None
            and base.groups is None
            and len(uppers) <= LIVE_SHARE * template.variables
        ):
            # Only the variables that may move, and the rows they enter (see
            # Template.load_live): the base's indices are renumbered to the model's.
            model, live, kept = template.load_live(uppers, rows)
            renumbered = {i: k for k, i in enumerate(live)}
            columns = {row: renumbered[i] for row, i in columns.items()}
            if flow is not None:
                flow = flow.renumbered(renumbered)
            played = {t: renumbered[v] for t, v in base.played.items() if self.rack[t]}
            balance = {t: kept[r] for t, r in balance.items() if r in kept}
            self.base_variables = len(live)
            self.active = list(range(len(live)))
        else:
            if template is not None:
                model = template.load(uppers, rows)
            else:
                assert built is not None
                model = built
                for i, high in uppers.items():
                    model.set_bounds(i, 0.0, high)
                for r, (low, high) in rows.items():
                    model.set_row_bounds(r, low, high)
            played = {t: v for t, v in base.played.items() if self.rack[t]}
            self.active = sorted(uppers)
        self.rows = model
        self.vars = MoveVariables(model, dict(balance))
        self.vars.flow = flow
        if base.groups is not None:
            # Groups counted by number (boxes of many colors) are bounded once loaded.
            self.vars.groups, active = base.groups.limit(
                self.available, self.index, model.set_bounds
            )
            self.active += active
        self.vars._played.update(played)
        self._candidates = (cands, columns)
        for row, where in columns.items():
            self.vars.lay.append((cands.melds[row], where))
            if self.opening_only:
                needs = dict(cands.needs[row])
                value = cands.values[row]
                meld = OpeningMeld(needs, value, [(where, 1.0)], self.index.joker in needs)
                self.vars.opening.append(meld)
        return columns

    def column(self, needs: Needs, upper: int, name: str) -> int:
        """A new integer column whose tiles enter the balance rows."""
        var = self.rows.integer(upper, name)
        for t, n in needs:
            self.rows.term(self.vars.balance(t), var, float(n))
        return var

    def _add_play(self, cands: Candidates, columns: dict[int, int]) -> None:
        """Playing on the table: old melds left as they were, locked units, the initial
        meld of a player who plays on, the substitutes of released jokers."""
        position, rules = self.position, self.rules
        locked = [self.strict and m.jokers > 0 for m in position.table]
        self._add_as_was(locked, cands, columns)
        units = LockedUnits(self.rows, self.index, self.available, self.column)
        for i, meld in enumerate(position.table):
            if locked[i]:
                deadline.check()
                units.add(Unit(meld, i, list(fates(meld, rules))), upper=1)
        if self.opening:
            self._add_opening_melds(units)
            require_opening(self.rows, rules, self.vars.opening, self.vars.played)
        from_table = rules.joker_swap_from == "rack_or_table"
        free_table = self._free_table_tiles() if from_table else None
        units.supply(self.vars.played, self.vars.opening, free_table)
        self._demands = units.demands
        self.vars.units = units.units

    def _add_as_was(self, locked: list[bool], cands: Candidates, columns: dict[int, int]) -> None:
        """Count old joker-free melds that stay exactly as they were (tie-break 3)."""
        alike: dict[tuple[str, Needs], list[int]] = defaultdict(list)
        for i, meld in enumerate(self.position.table):
            if not locked[i]:
                alike[meld_key(meld, self.index)].append(i)
        for (kind, multiset), olds in alike.items():
            row = cands.lookup.get(multiset)
            if row is not None and cands.melds[row].kind == kind and row in columns:
                column = columns[row]
                if self.rows.bounds(column)[1] <= len(olds):
                    var = column  # every copy it may lay can be an old meld as it was
                else:
                    var = self.rows.integer(len(olds), f"as_was_{olds[0]}")
                    self.rows.row(-INF, 0.0, [(var, 1.0), (column, -1.0)])
            else:
                # Its own column, at most one copy per old meld, so its copies are the old
                # melds left as they were: a run (runs are a flow), or a kind the candidate
                # lacks.
                meld = self.position.table[olds[0]]
                needs = self.index.needs(meld.tiles)
                column = var = self.column(needs, len(olds), f"old_{olds[0]}")
                self.vars.lay.append((meld, column))
            self.vars.as_was.append(AsWas(tuple(olds), var, column))

    def _add_opening_melds(self, units: LockedUnits) -> None:
        """Initial melds from the hand: joker-free ones are free tiles once laid; those with
        a joker stay locked for the rest of the turn (units with fates)."""
        rules = self.rules
        limit = list(self.rack)
        if self.strict and not self.relax_opening:
            limit[self.index.joker] = 0
        for k, (tiles, value, upper) in enumerate(hand_melds(rules, limit, self.index)):
            var = self.rows.integer(upper, f"opening_{k}")
            needs = dict(tiles)
            has_joker = self.index.joker in needs
            if has_joker and self.relax_opening:
                # Laid as free tiles, as if joker-free (so also, with rack_or_table, free
                # to substitute): the relaxation allows every move the lock allows.
                self.relaxed.append((var, upper))
                has_joker = False
            meld = OpeningMeld(needs, value, [(var, 1.0)], has_joker)
            self.vars.opening.append(meld)
            if self.relax_opening:
                self._loose.add(var)
        if not self.strict or self.rack[self.index.joker] == 0 or self.relax_opening:
            return
        for core in hand_readings_with_jokers(rules, self.rack, self.index):
            deadline.check()
            core_needs = self.index.needs(core.tiles)
            bound = min(self.rack[t] // n for t, n in core_needs)
            # Kept, and with rack_or_table also released: a just-laid initial meld is a
            # table meld like any other (RULES.md), so a free table tile may release its
            # joker. By a rack tile that is the same as laying that tile at once (a
            # joker-free opening), so rack-only rules need no releases here.
            # Enumerated here rather than through the cached ``fates``: a large rack with
            # jokers has many cores and far more releases than kept melds, which, cached,
            # filled memory and time (benchmarks/RESULTS.md, "Solver choices: budgets and
            # reserves"). Only melds the tiles in play can lay become fates.
            ends = [Fate(meld, (), False) for meld in kept_in(core, rules) if self._lays(meld)]
            if rules.joker_swap_from == "rack_or_table":
                ends += self._core_releases(core)
            copies = units.add(Unit(core, None, ends), upper=bound)
            self.vars.opening.append(OpeningMeld(dict(core_needs), core.value, copies, True))

    def _core_releases(self, core: Meld) -> list[Fate]:
        """The (partial) releases of an initial meld with a joker whose substitutes are
        tiles in play."""
        found: list[Fate] = []
        for demands, rest in substitutions(core, self.rules):
            if not all(self.available[self.index[t]] for t in demands):
                continue
            if rest is None:
                found.append(Fate(None, demands, False))
            else:
                found += [
                    Fate(meld, demands, False)
                    for meld in kept_in(rest, self.rules)
                    if self._lays(meld)
                ]
        return found

    def _lays(self, meld: Meld) -> bool:
        """Whether the tiles in play hold ``meld`` (a valid meld holds each numbered tile at
        most once: a run's numbers differ, and so do a group's colors)."""
        available, index = self.available, self.index
        return meld.jokers <= available[index.joker] and all(
            available[index[t]] for t in meld.numbered
        )

    def _free_table_tiles(self) -> Counts:
        """Table tiles free from the start: those of old melds no joker locks."""
        tiles = [t for m in self.position.table if not (self.strict and m.jokers) for t in m.tiles]
        return self.index.counts(tiles)

    def forbid_relaxation(self, forbidden: bool = True) -> None:
        """No initial meld with a joker laid free (``forbidden``): what is left is the exact
        model without any initial meld holding a joker; or allow them again (not after
        cuts: they may lean on the bounds forbidden, :meth:`_cut_root`)."""
        if not forbidden and self._cut:
            raise RuntimeError("the model's cuts may not hold with looser bounds")
        for var, upper in self.relaxed:
            self.rows.set_bounds(var, 0.0, 0.0 if forbidden else float(upper))
        self._loose = set() if forbidden else self._loose

    def _opens(self, values: list[float], table: tuple[Meld, ...]) -> bool:
        """Whether a move of a relaxation (``table``, the tiles ``values`` plays) shows an
        initial meld the rules allow, which makes it a legal move:

        - melds without jokers from the tiles played (the jokers are then played after
          opening, as free tiles); under ``joker_swap_from = "rack"`` less the tiles that
          substitute jokers (RULES.md rule 3);
        - or, besides those, melds with a joker of the new table itself, laid from the
          hand and left as they are (locked, they stay kept): new melds only (none alike
          an old one, which keeps tie-break 3 as it is), from the tiles played less every
          substitute (as if each came from the rack, which both readings allow).
        """
        spare = [0] * self.index.size
        for t, var in self.vars.played_tiles().items():
            spare[t] = round(values[var])
        locked = list(spare)
        for t, terms in self._demands.items():
            locked[t] -= sum(round(values[var]) * round(n) for var, n in terms)
        if self.rules.joker_swap_from == "rack":
            spare = locked
        if opens_without_jokers(self.rules, spare, self.index):
            return True
        if not self.strict:
            return False
        old = {meld_key(meld, self.index) for meld in self.position.table}
        laid = 0
        for meld in sorted((m for m in table if m.jokers), key=lambda m: -m.value):
            needs = self.index.needs(meld.tiles)
            if meld_key(meld, self.index) in old or any(locked[t] < n for t, n in needs):
                continue
            for t, n in needs:
                locked[t] -= n
            laid += meld.value
            if laid >= self.rules.initial_meld:
                return True
        return laid > 0 and opens_without_jokers(self.rules, locked, self.index, reached=laid)

    def lp_bound(self) -> float:
        """The LP relaxation's optimum rounded down: no integer solution scores more (the
        objective's coefficients are integers); -inf when the LP has no solution, +inf
        when CLP did not settle it (the time limit)."""
        left = deadline.remaining()
        if left is not None:
            self.rows.set_time_limit(left)
        status = self.rows.solve(dual=False)
        if status == "infeasible":
            return -math.inf
        if status != "optimal":
            return math.inf
        return float(math.floor(self.rows.objective_value() + INTEGRALITY))

    def _set_objective(self) -> None:
        """Lexicographic objective as exact integer weights: no level can trade against
        the next, since each weight exceeds the largest possible total below it."""
        values = _tile_values(self.rules)
        played = self.vars.played_tiles()
        value: Terms = [(v, float(values[t])) for t, v in played.items()]
        tiles: Terms = [(v, 1.0) for v in played.values()]
        as_was: Terms = [(a.var, 1.0) for a in self.vars.as_was]
        as_was += [
            (v, 1.0) for u in self.vars.units if u.old is not None for v in u.left_as_it_was()
        ]
        most_as_was = len(self.position.table)
        if self.objective == "value":
            most_second = sum(self.rack)
            # Fewest tiles at the best value: the tiles level counts down instead of up
            # (the same weights hold, since -tiles spans the same range as tiles).
            first, second = value, [(v, -c) for v, c in tiles] if self.fewest_tiles else tiles
        else:
            most_second = int(sum(self.rules.tile_value(t) for t in self.position.rack))
            first, second = tiles, value
        w2 = most_as_was + 1
        w1 = (most_second + 1) * w2
        self.rows.maximise(
            (var, weight * coef)
            for terms, weight in ((first, w1), (second, w2), (as_was, 1))
            for var, coef in terms
        )

    # -- solving ----------------------------------------------------------------

    def solve(self, time_limit: float | None, *, above: int | None = None) -> ModelOutcome:
        """Solve within ``time_limit`` seconds (None: until proven).

        Branch and bound over CLP first, then the MIP back end (:meth:`_exact_backend`) for
        what it leaves open within its budget (:func:`.search.settle`), so answers stay proven;
        a model with counted groups gets cuts and a second search in between. With
        ``above`` (a score a move is known to reach), only moves scoring more are sought:
        ``no_move`` then means that none does.
        """
        if not self.vars.played_tiles() or (
            self.position.opened is False and not self.vars.opening
        ):
            # Nothing to play, or no meld to open with: no move, without asking CLP.
            return ModelOutcome("no_move", None)
        started = time.perf_counter()
        until = None if time_limit is None else started + time_limit
        # CLP copies the model on its first solve, which no time limit interrupts: no node
        # starts without that reserve (benchmarks/RESULTS.md, "Solver choices: budgets and
        # reserves").
        reserve = LP_RESERVE_PER_COLUMN * self.rows.variables()
        last_node = None if until is None else until - reserve
        integer = self._integer_variables()
        floor = -math.inf if above is None else float(above)

        def cut_and_search_again(search: SearchOutcome) -> SearchOutcome:
            """Counted groups: the gap the search left open is closed by cuts at the root
            (:mod:`.zero_half`) and a second search, sooner than by CBC."""
            if self.vars.groups is None or not self._cut_root(until):
                return search
            again = branch_and_bound(
                self.rows,
                integer,
                node_limit=COUNTED_CUT_NODE_LIMIT,
                iteration_limit=ITERATION_LIMIT,
                deadline=last_node,
                floor=max(floor, float(self._score(search.values)))
                if search.values is not None
                else floor,
                first=self._decisive(integer),
            )
            nodes = search.nodes + again.nodes
            if again.status == "infeasible" and search.values is not None:
                # Nothing scores more than the first search's move: it is the best.
                return SearchOutcome("optimal", search.values, nodes, again.iterations)
            return SearchOutcome(
                again.status, again.values or search.values, nodes, again.iterations
            )

        def mip() -> SearchOutcome:
            remaining = None if until is None else until - time.perf_counter()
            if remaining is not None and remaining <= 2 * self._mip_reserve():
                return SearchOutcome("open", None, 0)  # too little time to start
            try:
                return self._solve_mip(until, above)
            except deadline.OutOfTime:
                return SearchOutcome("open", None, 0)

        outcome = settle(
            self.rows,
            integer,
            Budget(self._node_limit(time_limit), ITERATION_LIMIT),
            mip,
            deadline=last_node,
            floor=floor,
            first=self._decisive(integer),
            aggregates=self._aggregates,
            aggregate_while=list(self.vars.played_tiles().values()),
            closing=cut_and_search_again,
        )
        if outcome.status == "infeasible":
            return ModelOutcome("no_move", None, outcome.nodes)  # proven: no legal move
        if outcome.values is None:
            return ModelOutcome("unknown", None, outcome.nodes)
        status: ModelStatus = "optimal" if outcome.status == "optimal" else "feasible"
        return self._found(status, outcome.values, outcome.nodes)

    def _cut_root(self, until: float | None) -> bool:
        """Zero-half cuts at the root of a model with counted groups (:mod:`.zero_half`):
        rounds of an LP solve and the cuts it violates, added to the model as rows, within
        a budget of rounds and cuts (work, not time; a time limit only stops it sooner).
        Returns whether any cut was added. The cuts hold for every integer solution under
        the model's bounds as they are, which later only tighten (:meth:`forbid_relaxation`),
        so they stay valid for the rest of the model's life, CBC's copy included."""
        # Imported here: only models with counted groups (8-color boxes) cut.
        from rummikub.core.lp.zero_half import CUT_ROUNDS, CUTS_PER_ROUND, ModelRows, separate

        model = self.rows
        loose = model.continuous | self._loose
        integer = [i not in loose for i in range(model.variables())]
        rows = ModelRows(model, integer)
        added = False
        for _ in range(CUT_ROUNDS):
            if until is not None and until - time.perf_counter() < self._mip_reserve():
                break
            if model.solve() != "optimal":
                break
            cuts = separate(rows, model.values(), CUTS_PER_ROUND)
            for cut in cuts:
                model.row(-INF, float(cut.upper), ((j, float(c)) for j, c in cut.terms))
                added = True
            if not cuts:
                break
        self._cut = self._cut or added
        return added

    def _score(self, values: list[float]) -> int:
        """The objective of an integer solution (its levels as one integer)."""
        return round(self.rows.score(values))

    def _mip_reserve(self) -> float:
        """Seconds kept back from a time limit for the exact back end's start, which its
        own limit does not cut: short for CP-SAT; for CBC, longer where groups are counted
        (its root costs more there: .group_counts)."""
        if self._exact_backend() == CP_SAT:
            per_column = CP_SAT_RESERVE_PER_COLUMN
        elif self.vars.groups is not None:
            per_column = COUNTED_MIP_RESERVE_PER_COLUMN
        else:
            per_column = MIP_RESERVE_PER_COLUMN
        return per_column * self.rows.variables()

    def _node_limit(self, time_limit: float | None) -> int:
        if self.vars.groups is not None and (
            time_limit is None or time_limit > 4 * self._mip_reserve()
        ):
            # Many colors: the exact back end settles them sooner, where there is time
            # for it to start and work (.group_counts); else the search goes on as for
            # any model.
            return COUNTED_NODE_LIMIT
        columns = max(1, self.rows.variables())
        if columns <= STANDARD_COLUMNS:
            return NODE_LIMIT
        return max(10, min(NODE_LIMIT, COLUMN_NODE_LIMIT // columns))

    def _integer_variables(self) -> list[int]:
        """The integer variables free to move: the base's that the position left free, then
        the position's own but the continuous ranks."""
        own = range(self.base_variables, self.rows.variables())
        loose = self.rows.continuous | self._loose
        return sorted(self.active) + [i for i in own if i not in loose]

    def _decisive(self, integer: list[int]) -> list[int]:
        """The variables the search branches on first (see :mod:`.search`), in the order of
        ``integer``: the tiles played and the old melds left as they were, with the columns
        that lay them (levels 1-3 of the objective), which was measured against fewer of
        them (benchmarks/RESULTS.md, "Solver choices: the search")."""
        chosen = set(self.vars.played_tiles().values())
        for alike in self.vars.as_was:
            chosen.add(alike.var)
            chosen.add(alike.column)
        return [i for i in integer if i in chosen]

    def _aggregates(self) -> list[Aggregate]:
        """The groups laid of each number, as sums the search branches on while the value
        has a gap (see :mod:`.search`): candidate and old groups' columns, and locked
        melds' fates that are groups. Made once per model (a model solved again keeps their
        variables); none where groups are counted by number (boxes of many colors: those
        counts are such sums already) or only initial melds are laid."""
        if self._groups_laid is not None:
            return self._groups_laid
        by_number: dict[int, list[int]] = defaultdict(list)
        if self.vars.groups is None and not self.opening_only and self._candidates:
            cands, columns = self._candidates
            numbers = _group_numbers(cands)
            for row, i in columns.items():
                if numbers[row]:
                    by_number[numbers[row]].append(i)
            for meld, i in self.vars.lay[len(columns) :]:  # old melds' own columns
                if meld.kind == "group":
                    by_number[meld.number].append(i)
            for unit in self.vars.units:
                for fate, var in zip(unit.fates, unit.variables, strict=True):
                    if fate.meld is not None and fate.meld.kind == "group":
                        by_number[fate.meld.number].append(var)
        self._groups_laid = [
            Aggregate(columns, f"groups_{number}")
            for number, columns in sorted(by_number.items())
            if len(columns) > 1
        ]
        return self._groups_laid

    def _found(self, status: ModelStatus, values: list[float], nodes: int) -> ModelOutcome:
        # The weights are integers and so are the values: the score is exact.
        score = self._score(values)
        relaxed = (
            self.stand_in
            or any(values[var] > INTEGRALITY for var, _ in self.relaxed)
            or any(abs(values[i] - round(values[i])) > INTEGRALITY for i in self._loose)
        )
        solution = self._read(values)
        if relaxed and self._opens(values, solution.table):
            relaxed = False  # the same move shows an initial meld: the rules allow it
        return ModelOutcome(status, solution, nodes, score, relaxed)

    def _solve_mip(self, until: float | None, above: int | None = None) -> SearchOutcome:
        """Solve a copy of the model with the MIP back end until ``until`` (a perf_counter
        time); status ``open`` when it found no solution in time, ``feasible`` when it found
        one but not the proof. With ``above``, only solutions scoring more (a row)."""
        from rummikub.core.lp.exact import mip

        deadline.check()
        time_limit = None
        if until is not None:
            # What is left of the whole solve's limit, less a margin for reading back and
            # one for CBC's root (presolve, first LP), which its time limit does not cut.
            time_limit = until - time.perf_counter() - READING_MARGIN - self._mip_reserve()
        better = None if above is None else (list(self.rows.objective.items()), above + 1.0)
        return mip(
            self.rows,
            backend=self._exact_backend(),
            continuous=self._loose,
            above=better,
            time_limit=time_limit,
        )

    def _exact_backend(self) -> str:
        """The MIP back end asked for, or else the one measured best for this model:
        :data:`.group_counts.COUNTED_EXACT_BACKEND` (CP-SAT) for a model with counted groups
        (boxes of many colors) whose every variable is integer (CP-SAT takes no other), CBC
        for the rest."""
        if self.backend is not None:
            return self.backend
        integral = not (self.rows.continuous or self._loose)
        return COUNTED_EXACT_BACKEND if self.vars.groups is not None and integral else "CBC"

    # -- reading the answer back --------------------------------------------------

    def _read(self, values: list[float]) -> Solution:
        def count(var: int) -> int:
            return round(values[var])

        tiles = self.index.tiles
        played = [tiles[t] for t, v in self.vars.played_tiles().items() for _ in range(count(v))]
        if self.opening_only:
            new = [m for m, i in self.vars.lay for _ in range(round(values[i]))]
            table = (*self.position.table, *sorted(new, key=lambda m: meld_order(m, self.rules)))
        else:
            table = self._lay_out(values, count)
        # A cheap guard against any slip in reading the model back: tiles are conserved.
        # (Counted in C, and compared as plain dicts: both hold positive counts only, and
        # Counter's own + and == run in Python.)
        laid = Counter(chain.from_iterable(m.tiles for m in table))
        kept = self.position.table_tiles()
        kept.update(played)
        if not dict.__eq__(laid, kept):
            raise AssertionError("the solver's table does not conserve the tiles")
        return Solution(tuple(played), table)

    def _lay_out(self, values: list[float], count: Callable[[int], int]) -> tuple[Meld, ...]:
        """The new table from the variables' ``values``; ``count`` reads a variable's
        value as an integer."""
        old = self.position.table
        in_place: list[Meld | None] = [None] * len(old)
        locked = [False] * len(old)
        new: list[Meld] = []
        taken: dict[int, int] = {}  # copies of a column shown as old melds in place
        for alike in self.vars.as_was:
            for i in alike.olds[: count(alike.var)]:
                in_place[i] = old[i]
                taken[alike.column] = taken.get(alike.column, 0) + 1
        for meld, i in self.vars.lay:
            if values[i] > 0.5:  # most candidate columns are unused: read them no further
                copies = round(values[i]) - taken.get(i, 0)
                if copies:
                    new.extend([meld] * copies)
        if self.vars.flow is not None:
            new.extend(self.vars.flow.runs(count))
        if self.vars.groups is not None:
            new.extend(self.vars.groups.groups(count))
        units: list[Meld] = []  # initial melds with a joker: locked, each a meld of its own
        for unit in self.vars.units:
            for fate, n in unit.chosen(count):
                if fate.meld is None:
                    continue
                if unit.old is not None:
                    in_place[unit.old] = unit.meld if fate.unchanged else fate.meld
                    locked[unit.old] = not fate.unchanged
                else:
                    units.extend([fate.meld] * n)
        return lay_out(old, in_place, locked, new, self.rules, units)
