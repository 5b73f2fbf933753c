"""The integer program for the best move: den Hertog & Hulshof's model, with runs as a
flow, the joker lock and the initial meld.

Variables (all integer but the ranks):
- ``played[t]``: tiles of type ``t`` played from the rack;
- free runs: the flow of :mod:`.runs_flow` (or candidate run columns, see ``runs_as_flow``);
- ``lay[c]``: copies of candidate group ``c`` (of candidate meld ``c`` without the flow);
- ``fate[u, f]``: locked unit ``u`` ends in fate ``f`` (see :mod:`.locks`);
- ``opening[c]``: copies of joker-free meld ``c`` laid from the hand as the initial meld;
- ``as_was[k]``: old melds of kind and tiles ``k`` left as they were (tie-break 3), each
  with a column of its own;
- ``from_...`` and ``rank_...``: which released locked meld gives a tile to replace another
  meld's joker, in an order that forbids two melds releasing each other
  (``joker_swap_from = "rack_or_table"``).

Rows: one balance per tile type (new table = old table + played), the fates of each
locked meld summing to one, the initial meld's value and tiles, and the supply of
substituting tiles. The objective is lexicographic through exact integer weights.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummikub.melds import Meld
from rummikub.position import Position
from rummikub.rules import Rules
from rummikub.solver.candidates import (
    Candidates,
    Counts,
    Needs,
    TileIndex,
    candidates,
    group_candidates,
    group_readings,
    max_run_length,
    meld_key,
    run_readings,
)
from rummikub.solver.layout import lay_out, meld_order
from rummikub.solver.locks import Fate, fates
from rummikub.solver.nogood import forbid_played
from rummikub.solver.result import Objective
from rummikub.solver.rows import INF, add_row
from rummikub.solver.runs_flow import RunFlow
from rummikub.solver.search import branch_and_bound
from rummikub.solver.template import Template, play_template
from rummikub.tiles import Tile


@dataclass(slots=True)
class Unit:
    """A locked meld: an old table meld (``old`` is its index) or an initial joker meld."""

    meld: Meld
    old: int | None
    fates: list[Fate]
    variables: list[Any] = field(default_factory=list)


@dataclass(slots=True)
class Solution:
    """What the solver chose, read back as tiles and melds."""

    proven: bool
    played: list[Tile]
    table: tuple[Meld, ...]


#: Nodes the branch and bound may spend before the MIP back end takes over: on the hard
#: corpus 95% of fractional positions needed fewer than 60.
NODE_LIMIT = 100
#: Seconds the branch and bound may spend before the MIP back end takes over: a big model
#: (26x8x4 boxes) that branches long is solved faster by CBC (1.1 s -> 0.35 s there).
SEARCH_BUDGET = 0.06


class MoveModel:
    """Builds the integer program for one position and reads its answer back."""

    def __init__(
        self,
        position: Position,
        objective: Objective,
        backend: str = "CBC",
        *,
        runs_as_flow: bool = True,
        exclude: Sequence[Mapping[Tile, int]] = (),
        fewest_tiles: bool = False,
        better_than: tuple[int, int] | None = None,
    ) -> None:
        from ortools.linear_solver import pywraplp  # lazy: keeps start-up fast

        self.pywraplp = pywraplp
        self.position = position
        self.runs_as_flow = runs_as_flow
        self.rules: Rules = position.rules
        self.objective = objective
        self.fewest_tiles = fewest_tiles
        self.better_than = better_than
        self.index = TileIndex(self.rules)
        self.backend = backend
        rules = self.rules
        self.table = self.index.counts(t for m in position.table for t in m.tiles)
        self.rack = self.index.counts(position.rack)
        self.available = [a + b for a, b in zip(self.table, self.rack, strict=True)]
        self.strict = rules.joker_lock == "strict"
        self.opening_only = not position.opened and not rules.open_then_play
        self.opening = not position.opened and rules.open_then_play
        # The model is built for CLP, whose warm re-solves drive the branch and bound of
        # :mod:`.search`; the MIP back end gets a copy only if that search leaves it open.
        # With the run flow it starts as a copy of the rule set's template.
        self.template = None if self.opening_only or not runs_as_flow else play_template(rules)
        #: Variables that may move in this position (others are fixed at 0 in the template).
        self.active: list[int] = []
        # conservation[t]: tiles of type t on the new table minus played tiles.
        self.conservation: dict[int, Any] = {}
        if self.template is not None:
            self.solver = self.template.load()
            self.variables = self.solver.variables()
            self.played = self._from_template(self.template)
        else:
            self.solver = pywraplp.Solver.CreateSolver("CLP")
            self.played = {
                t: self.solver.IntVar(0, int(n), f"played_{t}")
                for t, n in enumerate(self.rack)
                if n > 0
            }
        self.lay: list[tuple[Meld, Any]] = []
        self.flow: RunFlow | None = None
        self.continuous: set[int] = set()
        self.units: list[Unit] = []
        self.as_was: list[tuple[list[int], Any, Any]] = []  # (old indices, var, column var)
        self.opening_terms: list[tuple[dict[int, int], int, Any]] = []  # (needs, value, var)
        self.demand_terms: dict[int, list[tuple[int, Any]]] = defaultdict(list)
        if self.opening_only:
            # Every old tile stays where it is, so only rack tiles enter the balance.
            self.table = [0] * self.index.size
        # One balance row per tile type in play: a played tile that fits no meld must
        # still be balanced (to zero), so every such row exists even with no column.
        for t in range(self.index.size):
            if self.table[t] or self.rack[t]:
                self._conservation(t)
        if self.opening_only:
            self._build_opening_only()
        else:
            self._build_play()
        self._set_objective()
        for k, multiset in enumerate(exclude):
            counts = {self.index[t]: n for t, n in multiset.items() if n > 0}
            forbid_played(self.solver, self.played, self.rack, counts, f"exclude_{k}")

    # -- building ---------------------------------------------------------------

    def _from_template(self, template: Template) -> dict[int, Any]:
        """Bound the template's played tiles and balances to this position; returns the
        played-tile variables of the rack's tile types."""
        variables = self.variables
        rows = self.solver.constraints()
        played: dict[int, Any] = {}
        for t, (v, r) in enumerate(zip(template.played, template.balance, strict=True)):
            if self.rack[t]:
                var = variables[v]
                var.SetBounds(0.0, float(self.rack[t]))
                played[t] = var
                self.active.append(v)
            if self.table[t]:
                rows[r].SetBounds(float(self.table[t]), float(self.table[t]))
            self.conservation[t] = rows[r]
        return played

    def _template_melds(self, template: Template) -> tuple[Candidates, dict[int, Any]]:
        """The flow and the candidate groups of the template, bounded to the tiles in play."""
        variables = self.variables
        self.flow = template.flow.bound_to(variables)
        self.active += self.flow.limit(self.available, self.index, template.flow)
        cands = group_candidates(self.rules)
        fit = dict(cands.fitting(self.available))
        columns: dict[int, Any] = {}
        for row, v in template.groups:
            upper = fit.get(row)
            if upper:
                var = variables[v]
                var.SetBounds(0.0, float(upper))
                self.lay.append((cands.melds[row], var))
                self.active.append(v)
                columns[row] = var
        return cands, columns

    def _conservation(self, t: int) -> Any:
        row = self.conservation.get(t)
        if row is None:
            row = self.solver.Constraint(float(self.table[t]), float(self.table[t]))
            played = self.played.get(t)
            if played is not None:
                row.SetCoefficient(played, -1.0)
            self.conservation[t] = row
        return row

    def _add_column(self, needs: Needs, upper: int, name: str) -> Any:
        """A meld's column: its tiles enter the balance rows."""
        var = self.solver.IntVar(0, upper, name)
        for t, n in needs:
            self._conservation(t).SetCoefficient(var, float(n))
        return var

    def _add_meld_column(self, meld: Meld, upper: int, name: str) -> Any:
        return self._add_column(self.index.needs(meld.tiles), upper, name)

    def _build_opening_only(self) -> None:
        """Initial meld without playing on: new melds from the hand, old table untouched."""
        cands = candidates(self.rules)
        for row, upper in cands.fitting(self.rack):
            var = self._add_column(cands.needs[row], upper, f"lay_{row}")
            self.lay.append((cands.melds[row], var))
            self.opening_terms.append((dict(cands.needs[row]), cands.values[row], var))
        self._require_opening()
        self._require_a_tile()

    def _build_play(self) -> None:
        position, rules = self.position, self.rules
        locked = [self.strict and m.jokers > 0 for m in position.table]
        # Free melds: any meld the table and rack can supply. Runs as a flow (see
        # runs_flow), or as candidate columns when the flow's answer needs a run of jokers.
        if self.template is not None:
            cands, columns = self._template_melds(self.template)
        else:
            if self.runs_as_flow:
                flow = RunFlow.build(self.solver, rules, self.index, self._conservation)
                self.flow = flow.bound_to(self.solver.variables())
                self.flow.limit(self.available, self.index, flow)
                cands = group_candidates(rules)
            else:
                cands = candidates(rules)
            columns = {}
            for row, upper in cands.fitting(self.available):
                var = self._add_column(cands.needs[row], upper, f"lay_{row}")
                self.lay.append((cands.melds[row], var))
                columns[row] = var
        self._add_as_was(locked, cands, columns)
        for i, meld in enumerate(position.table):
            if locked[i]:
                self._add_unit(Unit(meld, i, list(fates(meld, rules))), upper=1)
        if self.opening:
            self._add_opening_cores()
            self._require_opening()
        self._add_substitution_supply()
        if self.template is None:
            self._require_a_tile()  # the template holds this row

    def _add_as_was(self, locked: list[bool], cands: Candidates, columns: dict[int, Any]) -> None:
        """Count old joker-free melds that stay exactly as they were (tie-break 3)."""
        groups: dict[tuple[str, Needs], list[int]] = defaultdict(list)
        for i, meld in enumerate(self.position.table):
            if not locked[i]:
                groups[meld_key(meld, self.index)].append(i)
        for (kind, multiset), olds in groups.items():
            row = cands.lookup.get(multiset)
            if row is not None and cands.melds[row].kind == kind and row in columns:
                column = columns[row]
            else:
                # Its own column: a run longer than 5, or a kind the candidate lacks.
                meld = self.position.table[olds[0]]
                column = self._add_meld_column(meld, len(olds), f"old_{olds[0]}")
                self.lay.append((meld, column))
            var = self.solver.IntVar(0, len(olds), f"as_was_{olds[0]}")
            add_row(self.solver, -INF, 0.0, [(var, 1.0), (column, -1.0)])
            self.as_was.append((olds, var, column))

    def _fits(self, fate: Fate) -> bool:
        return all(n <= self.available[self.index[t]] for t, n in fate.needs)

    def _add_unit(self, unit: Unit, upper: int) -> Any:
        """One variable per fate of ``unit``; returns the sum of them (copies laid)."""
        unit.fates = [f for f in unit.fates if self._fits(f)]
        for k, fate in enumerate(unit.fates):
            name = f"fate_{len(self.units)}_{k}"
            if fate.meld is None:
                var = self.solver.IntVar(0, upper, name)
            else:
                var = self._add_meld_column(fate.meld, upper, name)
            unit.variables.append(var)
            for tile, n in Counter(fate.demands).items():
                self.demand_terms[self.index[tile]].append((n, var))
        self.units.append(unit)
        total = self.solver.Sum(unit.variables)
        if unit.old is not None:
            # An old locked meld has exactly one fate.
            self.solver.Add(total == 1)
        return total

    def _add_opening_cores(self) -> None:
        """Initial melds from the hand: joker-free ones are free tiles once laid; those with
        a joker stay locked for the rest of the turn (units with fates)."""
        rules = self.rules
        cands = candidates(rules)
        limit = list(self.rack)
        if self.strict:
            limit[self.index.joker] = 0
        for row, upper in cands.fitting(limit):
            var = self.solver.IntVar(0, upper, f"opening_{row}")
            self.opening_terms.append((dict(cands.needs[row]), cands.values[row], var))
        if not self.strict or self.rack[self.index.joker] == 0:
            return
        for core in _hand_readings_with_jokers(self.rules, self.rack, self.index):
            needs = self.index.needs(core.tiles)
            bound = min(self.rack[t] // n for t, n in needs)
            # Only kept: releasing one's own just-laid joker by a rack tile is the same as
            # laying that tile at once (a joker-free opening), and no table tile may do it.
            kept = [f for f in fates(core, rules) if not f.demands]
            total = self._add_unit(Unit(core, None, kept), upper=bound)
            self.opening_terms.append((dict(needs), core.value, total))

    def _require_opening(self) -> None:
        """Hand-only melds worth at least ``initial_meld``, at least one of them."""
        rules = self.rules
        solver = self.solver
        if not self.opening_terms:
            self.hopeless = True  # no meld can be laid from this hand
            return
        solver.Add(
            solver.Sum([value * var for _, value, var in self.opening_terms]) >= rules.initial_meld
        )
        solver.Add(solver.Sum([var for _, _, var in self.opening_terms]) >= 1)
        if self.opening_only:
            return
        # The hand-only melds are laid from played tiles.
        for t in range(self.index.size):
            terms = [c[t] * var for c, _, var in self.opening_terms if t in c]
            if terms:
                played = self.played.get(t)
                solver.Add(solver.Sum(terms) <= (played if played is not None else 0))

    def _add_substitution_supply(self) -> None:
        """Each joker substituted needs its own tile: from the rack (a played tile not used in
        the initial meld), or with ``rack_or_table`` a table tile that is already free."""
        solver = self.solver
        if not self.demand_terms:
            return
        from_table = self.rules.joker_swap_from == "rack_or_table"
        free_table = self._free_table_tiles()
        released = self._release_sources() if from_table else {}
        for t, terms in self.demand_terms.items():
            need = solver.Sum([n * var for n, var in terms])
            supply: list[Any] = []
            played = self.played.get(t)
            if played is not None:
                supply.append(played)
                for counts, _, var in self.opening_terms:
                    # Tiles laid in the initial meld have left the rack; with rack_or_table
                    # those of a joker-free initial meld are free table tiles instead.
                    if t in counts and not (from_table and self.index.joker not in counts):
                        supply.append(-counts[t] * var)
            if from_table:
                supply.append(int(free_table[t]))
                supply.extend(released.get(t, []))
            solver.Add(need <= solver.Sum(supply))

    def _free_table_tiles(self) -> Counts:
        """Table tiles free from the start: those of old melds no joker locks."""
        tiles = [t for m in self.position.table if not (self.strict and m.jokers) for t in m.tiles]
        return self.index.counts(tiles)

    def _release_sources(self) -> dict[int, list[Any]]:
        """Tiles of released old locked melds, usable as substitutes for *other* units.

        Released melds are ordered (a rank per unit) so that two locked melds never release
        each other; a unit's tiles serve only units released after it.
        """
        solver = self.solver
        olds = [u for u in self.units if u.old is not None]
        if len(olds) < 2:
            return {}
        n = len(olds)
        rank = [solver.NumVar(0, n - 1, f"rank_{u.old}") for u in olds]
        self.continuous.update(r.index() for r in rank)
        sources: dict[int, list[Any]] = defaultdict(list)
        for a, giver in enumerate(olds):
            released = solver.Sum(
                [v for f, v in zip(giver.fates, giver.variables, strict=True) if f.meld is None]
            )
            tiles = Counter(self.index[t] for t in giver.meld.numbered)
            for t, count in tiles.items():
                uses = []
                for b, taker in enumerate(olds):
                    if a == b:
                        continue
                    for fate, var in zip(taker.fates, taker.variables, strict=True):
                        if t not in {self.index[d] for d in fate.demands}:
                            continue
                        use = solver.BoolVar(f"from_{giver.old}_{taker.old}_{t}")
                        solver.Add(use <= var)
                        # giver released before taker: rank[b] >= rank[a] + 1 when used.
                        solver.Add(rank[b] >= rank[a] + 1 - n * (1 - use))
                        uses.append(use)
                if uses:
                    solver.Add(solver.Sum(uses) <= count * released)
                    sources[t].extend(uses)
        return sources

    def _require_a_tile(self) -> None:
        self.solver.Add(self.solver.Sum(list(self.played.values())) >= 1)

    def _set_objective(self) -> None:
        """Lexicographic objective as exact integer weights: no level can trade against
        the next, since each weight exceeds the largest possible total below it."""
        rules = self.rules
        values = self.index.values()
        value = self.solver.Sum([int(values[t]) * v for t, v in self.played.items()])
        tiles = self.solver.Sum(list(self.played.values()))
        as_was = self.solver.Sum([var for _, var, _ in self.as_was] + self._units_as_was())
        most_as_was = len(self.position.table)
        if self.objective == "value":
            most_second = sum(self.rack)
            # Fewest tiles at the best value: the tiles level counts down instead of up
            # (the same weights hold, since -tiles spans the same range as tiles).
            first, second = value, (-1 * tiles if self.fewest_tiles else tiles)
        else:
            most_second = int(sum(rules.tile_value(t) for t in self.position.rack))
            first, second = tiles, value
        w2 = most_as_was + 1
        w1 = (most_second + 1) * w2
        self.solver.Maximize(w1 * first + w2 * second + as_was)
        if self.better_than is not None:
            # Only moves scoring more than (f0, s0) on the first two levels: one row,
            # weight * first + second >= weight * f0 + s0 + 1, with a weight above any
            # second level, so that it reads lexicographically.
            f0, s0 = self.better_than
            weight = max(most_second, s0) + 1
            self.solver.Add(weight * first + second >= weight * f0 + s0 + 1)

    def _units_as_was(self) -> list[Any]:
        return [
            var
            for unit in self.units
            if unit.old is not None
            for fate, var in zip(unit.fates, unit.variables, strict=True)
            if fate.unchanged
        ]

    # -- solving ----------------------------------------------------------------

    def solve(self, time_limit: float | None) -> Solution | None:
        """Solve; None when no move exists (proven) or none was found in time.

        Branch and bound over CLP first (see :mod:`.search`); what it leaves open within
        its node limit goes to the MIP back end (CBC by default), so answers stay proven.
        """
        if self.hopeless or not self.played:
            # Nothing to play, or no meld to open with: no move, without asking CLP (which
            # crashes on an empty model).
            return None
        started = time.perf_counter()
        deadline = None if time_limit is None else started + time_limit
        integer = self._integer_variables()
        budget = started + SEARCH_BUDGET
        outcome = branch_and_bound(
            self.solver,
            integer,
            node_limit=NODE_LIMIT,
            deadline=budget if deadline is None else min(budget, deadline),
        )
        self.nodes = outcome.nodes
        if outcome.status == "optimal" and outcome.values is not None:
            return self._read(outcome.values, proven=True)
        if outcome.status == "infeasible":
            return None  # proven: no integer solution, so no legal move
        remaining = None if deadline is None else deadline - time.perf_counter()
        if remaining is not None and remaining <= 0:
            return self._unproven(outcome.values)
        solution = self._solve_mip(remaining)
        if solution is None and self.timed_out:
            return self._unproven(outcome.values)
        return solution

    def _integer_variables(self) -> list[int]:
        """The integer variables free to move (a template's fixed ones never branch)."""
        own = range(self.solver.NumVariables())
        moving: list[int] = []
        if self.template is not None:
            own = range(self.template.variables, self.solver.NumVariables())
            moving = self.active
        return moving + [i for i in own if i not in self.continuous]

    nodes = 0
    hopeless = False
    timed_out = False

    def _unproven(self, values: list[float] | None) -> Solution | None:
        """The best move found when time ran out, if any (status ``feasible``)."""
        self.timed_out = True
        return None if values is None else self._read(values, proven=False)

    def _integral(self, values: list[float]) -> bool:
        """All integer variables integral (the ranks of released melds may be fractional)."""
        return all(
            abs(x - round(x)) < 1e-6 for i, x in enumerate(values) if i not in self.continuous
        )

    def _solve_mip(self, time_limit: float | None) -> Solution | None:
        from ortools.linear_solver import linear_solver_pb2

        pywraplp = self.pywraplp
        proto = linear_solver_pb2.MPModelProto()
        self.solver.ExportModelToProto(proto)
        mip = pywraplp.Solver.CreateSolver(self.backend)
        if mip is None:
            raise RuntimeError(f"OR-Tools has no {self.backend} back end")
        mip.SetNumThreads(1)
        mip.LoadModelFromProto(proto)
        if time_limit is not None:
            mip.SetTimeLimit(max(1, int(time_limit * 1000)))
        params = pywraplp.MPSolverParameters()
        # The objective is integral, so a gap of zero is exact optimality.
        params.SetDoubleParam(params.RELATIVE_MIP_GAP, 0.0)
        status = mip.Solve(params)
        if status == pywraplp.Solver.INFEASIBLE:
            return None
        if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            self.timed_out = True
            return None
        values = [v.solution_value() for v in mip.variables()]
        return self._read(values, proven=status == pywraplp.Solver.OPTIMAL)

    def _read(self, values: list[float], *, proven: bool) -> Solution:
        def count(var: Any) -> int:
            return round(float(values[var.index()]))

        played = [self.index.tiles[t] for t, v in self.played.items() for _ in range(count(v))]
        if self.opening_only:
            new = [m for m, var in self.lay for _ in range(count(var))]
            table = (*self.position.table, *sorted(new, key=lambda m: meld_order(m, self.rules)))
        else:
            table = self._lay_out(count)
        # A cheap guard against any slip in reading the model back: tiles are conserved.
        laid = Counter(t for m in table for t in m.tiles)
        if laid != self.position.table_tiles() + Counter(played):
            raise AssertionError("the solver's table does not conserve the tiles")
        return Solution(proven, played, table)

    def _lay_out(self, count: Any) -> tuple[Meld, ...]:
        old = self.position.table
        in_place: list[Meld | None] = [None] * len(old)
        locked = [False] * len(old)
        new: list[Meld] = []
        taken: Counter[int] = Counter()  # copies of a column shown as old melds in place
        for olds, var, column in self.as_was:
            for i in olds[: count(var)]:
                in_place[i] = old[i]
                taken[id(column)] += 1
        for meld, var in self.lay:
            n = count(var) - taken[id(var)]
            new.extend([meld] * n)
        if self.flow is not None:
            new.extend(self.flow.runs(count))
        for unit in self.units:
            for fate, var in zip(unit.fates, unit.variables, strict=True):
                n = count(var)
                if n == 0 or fate.meld is None:
                    continue
                if unit.old is not None:
                    in_place[unit.old] = unit.meld if fate.unchanged else fate.meld
                    locked[unit.old] = not fate.unchanged
                else:
                    new.extend([fate.meld] * n)
        return lay_out(old, in_place, locked, new, self.rules)


def _hand_readings_with_jokers(rules: Rules, rack: Counts, index: TileIndex) -> list[Meld]:
    """Every meld with a joker that the hand alone can lay (each joker reading apart,
    since the lock keeps the reading)."""
    jokers = int(rack[index.joker])
    limited = rules.replace(jokers=min(rules.jokers, jokers))
    found = []
    readings = itertools.chain(
        run_readings(limited, max_run_length(rules)),
        group_readings(limited, min(5, rules.max_group)),
    )
    for meld in readings:
        if meld.jokers == 0:
            continue
        need = Counter(index[t] for t in meld.tiles)
        if all(n <= rack[t] for t, n in need.items()):
            found.append(meld)
    return found
