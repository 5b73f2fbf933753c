"""The solver's sub-models, each tested on its own (as the cpsat-primer tests sub-models):
the run flow, the fates of a locked meld, the layout of the new table, the branch and
bound; and a time-limited solve that ends unproven, through the search and the model."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

from rummikub import PRESETS, Position, Rules, check, solve
from rummikub.core.lp import search
from rummikub.core.lp.rows import INF, Rows, clp
from rummikub.core.lp.search import branch_and_bound
from rummikub.tiles.melds import Meld
from rummikub.tiles.solver import model as move_model
from rummikub.tiles.solver.candidates import TileIndex
from rummikub.tiles.solver.layout import lay_out
from rummikub.tiles.solver.locks import fates
from rummikub.tiles.solver.model import MoveModel
from rummikub.tiles.solver.template import lay_base
from rummikub.tiles.tiles import Tile

STANDARD = PRESETS["standard"]

# -- the run flow --------------------------------------------------------------


def lay_runs(tiles: str, rules: Rules = STANDARD) -> list[str] | None:
    """Lay exactly ``tiles`` as runs with the flow alone (a MIP, fewest runs), or None if it
    cannot."""
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("CBC")
    index = TileIndex(rules)
    every = range(index.size)
    base = lay_base(Rows(solver), rules, index, [], flow=True, played=[], balanced=every)
    counts = index.counts(Tile.parse(t) for t in tiles.split())
    rows = solver.constraints()
    for t, r in base.balance.items():
        rows[r].SetBounds(float(counts[t]), float(counts[t]))
    assert base.flow is not None
    flow, uppers = base.flow.limit(counts, index)
    for i, upper in uppers.items():
        solver.variable(i).SetBounds(0.0, upper)
    # Fewest runs, so that the answer is one (R1 ... R7 rather than R1-R4 and R5-R7).
    for color in flow.colors:
        for i in color.start.values():
            solver.Objective().SetCoefficient(solver.variable(i), 1.0)
    if solver.Solve() != pywraplp.Solver.OPTIMAL:
        return None
    return sorted(str(m) for m in flow.runs(lambda i: round(solver.variable(i).solution_value())))


def test_flow_lays_one_long_run() -> None:
    assert lay_runs("R1 R2 R3 R4 R5 R6 R7") == ["R1 R2 R3 R4 R5 R6 R7"]


def test_flow_lays_duplicates_as_two_runs() -> None:
    assert lay_runs("K4 K5 K6 K5 K6 K7") == ["K4 K5 K6", "K5 K6 K7"]


def test_flow_cannot_lay_two_tiles_or_a_gap() -> None:
    assert lay_runs("R1 R2") is None
    assert lay_runs("R1 R2 R4") is None


def test_flow_fills_a_gap_with_a_joker() -> None:
    assert lay_runs("R1 R2 J R4") == ["R1 R2 J R4"]


# -- fates of a locked meld -------------------------------------------------------


def fate_names(meld: str, rules: Rules = STANDARD) -> set[tuple[str | None, tuple[str, ...]]]:
    found = fates(Meld.parse(meld, rules), rules)
    return {(None if f.meld is None else str(f.meld), tuple(map(str, f.demands))) for f in found}


def test_fates_of_a_run_with_a_joker() -> None:
    names = fate_names("R4 J R6")
    assert ("R4 J R6", ()) in names  # left as it was
    assert ("R3 R4 J R6 R7", ()) in names  # extended at both ends
    assert (None, ("R5",)) in names  # released by R5
    assert ("R4 R5 R6", ("R5",)) not in names  # a release frees the joker, it leaves no meld
    # A kept fate holds the unit's tiles in a row, each joker where it stood.
    for meld, demands in names:
        if meld is not None and not demands:
            assert "R4 J R6" in meld


def test_fates_every_meld_is_valid_and_only_the_unit_as_laid_is_unchanged() -> None:
    unit = Meld.parse("K5 R5 J")
    found = fates(unit, STANDARD)
    for fate in found:
        if fate.meld is not None:
            # Meld.of checks the tiles as a meld of that kind (it raises otherwise).
            assert Meld.of(fate.meld.tiles, kind=fate.meld.kind).kind == "group"
        assert fate.unchanged == (fate.meld == unit and not fate.demands)
    assert sum(f.unchanged for f in found) == 1


def test_fates_of_a_three_tile_group_in_the_1978_book_need_both_colors() -> None:
    names = fate_names("K5 R5 J", PRESETS["book-1978"])
    released = {demands for meld, demands in names if meld is None}
    assert released == {("B5", "O5")}
    assert (None, ("B5",)) in fate_names("K5 R5 J")


# -- layout -------------------------------------------------------------------------


def melds(*texts: str) -> list[Meld]:
    return [Meld.parse(t) for t in texts]


def test_layout_joins_runs_and_puts_changed_melds_where_they_lay() -> None:
    old = melds("K1 R1 B1", "O2 O3 O4")
    new = melds("O5 O6 O7", "O2 O3 O4", "K1 R1 B1 O1")
    table = lay_out(old, [None, None], [False, False], new, STANDARD)
    assert [str(m) for m in table] == ["K1 R1 B1 O1", "O2 O3 O4 O5 O6 O7"]


def test_layout_keeps_an_old_meld_in_place_and_grows_a_locked_run() -> None:
    old = melds("R1 R2 R3", "B5 J B7")
    in_place = [old[0], old[1]]
    table = lay_out(old, in_place, [False, True], melds("B8 B9 B10", "R4 R5 R6"), STANDARD)
    assert [str(m) for m in table] == ["R1 R2 R3", "B5 J B7 B8 B9 B10", "R4 R5 R6"]


def test_layout_lays_a_free_runs_leading_joker_at_the_top() -> None:
    table = lay_out([], [], [], melds("J K5 K6"), STANDARD)
    assert [str(m) for m in table] == ["K5 K6 J"]


# -- branch and bound -----------------------------------------------------------------


def knapsack(upper_x: float = math.inf) -> tuple[Rows, list[int]]:
    """max 5x + 4y, 6x + 4y <= 24, x + 2y <= 6: LP optimum 21 at (3, 1.5), integer 20."""
    model = Rows(clp())
    x = model.integer(upper_x, "x")
    y = model.integer(math.inf, "y")
    model.row(-INF, 24.0, [(x, 6.0), (y, 4.0)])
    model.row(-INF, 6.0, [(x, 1.0), (y, 2.0)])
    model.maximise([(x, 5.0), (y, 4.0)])
    return model, [x, y]


def test_branch_and_bound_proves_the_integer_optimum() -> None:
    solver, integer = knapsack()
    outcome = branch_and_bound(
        solver, integer, node_limit=100, iteration_limit=10_000, deadline=None
    )
    assert outcome.status == "optimal" and outcome.values is not None
    assert [round(v) for v in outcome.values] == [4, 0]
    assert outcome.nodes > 1  # the root LP is fractional


def test_branch_and_bound_proves_infeasibility() -> None:
    model = Rows(clp())
    x = model.integer(10, "x")
    model.row(3.0, 3.0, [(x, 2.0)])
    model.maximise([(x, 1.0)])
    outcome = branch_and_bound(model, [x], node_limit=100, iteration_limit=10_000, deadline=None)
    assert (outcome.status, outcome.values) == ("infeasible", None)


def test_branch_and_bound_stops_open_at_its_node_limit() -> None:
    solver, integer = knapsack()
    outcome = branch_and_bound(solver, integer, node_limit=1, iteration_limit=10_000, deadline=None)
    assert (outcome.status, outcome.values, outcome.nodes) == ("open", None, 1)
    # The bounds it changed are restored: a full search still finds the optimum.
    assert (
        branch_and_bound(
            solver, integer, node_limit=100, iteration_limit=10_000, deadline=None
        ).status
        == "optimal"
    )


def test_branch_and_bound_stops_open_at_its_iteration_limit() -> None:
    solver, integer = knapsack()
    full = branch_and_bound(solver, integer, node_limit=100, iteration_limit=10_000, deadline=None)
    assert full.status == "optimal" and full.iterations > 1
    outcome = branch_and_bound(solver, integer, node_limit=100, iteration_limit=1, deadline=None)
    assert outcome.status == "open" and outcome.nodes == 1


def test_branching_at_the_root_takes_the_most_fractional_variable() -> None:
    # No pseudocost yet: every side counts the same, so the product is largest at 0.5.
    values = [1.0, 0.3, 2.5, 0.9999999, 1.7]
    assert search._branching([0, 1, 2, 3, 4], values, {}) == (2, 2.5)
    assert search._branching([0, 3], values, {}) is None  # integral within INTEGRALITY


def test_branching_takes_the_variable_whose_children_drop_most() -> None:
    costs: dict[tuple[int, bool], list[float]] = {}
    # Variable 1 lowered from 0.5: the bound fell 3 (6 per unit); raised: it fell 1 (2).
    search._learn(costs, search._Made(10.0, 1, False, 0.5), 7.0)
    search._learn(costs, search._Made(10.0, 1, True, 0.5), 9.0)
    # Variable 2 measured twice on its down side: drops of 0.125 and 0.375 per unit.
    search._learn(costs, search._Made(10.0, 2, False, 0.5), 9.9375)
    search._learn(costs, search._Made(10.0, 2, False, 0.5), 9.8125)
    assert costs == {(1, False): [6.0, 1.0], (1, True): [2.0, 1.0], (2, False): [0.5, 2.0]}
    values = [0.5, 0.2, 0.5]
    # Scores: variable 1: (6 * 0.2) * (2 * 0.8) = 1.92; variable 2: (0.25 * 0.5) * (2 * 0.5)
    # (its up side unmeasured: the average up cost, 2) = 0.125; variable 0 (unmeasured):
    # the averages, (3.125 * 0.5) * (2 * 0.5) = 1.5625.
    assert search._branching([0, 1, 2], values, costs) == (1, 0.2)
    assert search._branching([0, 2], values, costs) == (0, 0.5)


#: `late` positions (benchmarks/data/seed-1.json) whose root LP keeps a meld more than any
#: move can. late-317-t065-opened: the most fractional variable with a depth-first dive took
#: 86 nodes to prove it, branching on pseudocosts best bound first takes 12 (10 with the
#: played tiles and kept melds branched on first); late-482-t074-opened: 71, 61, then 17.
LATE_317 = Position.parse(
    rack="K6 K8 K13 R4 R7 B12 O3 O3 O9 O9 O10 O12",
    table=[
        "R9 R10 R11 R12 R13",
        "B10 B11 J B13",
        "K2 B2 O2",
        "B3 B4 B5 B6",
        "B6 B7 B8 B9",
        "R1 B1 O1",
        "R2 B2 O2",
        "K4 K5 K6",
        "R5 R6 R7",
        "O4 O5 O6 O7 O8",
        "R1 R2 R3",
        "R4 B4 O4",
        "K1 K2 K3 K4",
        "K8 K9 K10",
        "K10 K11 K12",
        "R6 J R8",
        "R10 R11 R12 R13",
        "B9 B10 B11 B12 B13",
        "O10 O11 O12",
        "R5 B5 O5",
        "K7 B7 O7",
        "R8 B8 O8",
    ],
)
LATE_482 = Position.parse(
    rack="K1 K2 K7 K8 K10 K11 K11 R1 R4 R9 R11 B3 B6 B6 B12 B12 O9 O12",
    table=[
        "K13 R13 B13 O13",
        "R2 B2 O2",
        "K5 B5 O5",
        "K12 R12 O12",
        "R5 R6 R7",
        "R10 R11 R12",
        "O6 O7 O8 O9 O10 O11",
        "K6 R6 O6",
        "K9 K10 J K12 K13",
        "K2 K3 K4 K5",
        "B1 B2 B3",
        "K1 B1 O1",
        "K3 R3 O3",
        "B8 B9 B10 B11",
        "R13 B13 O13",
        "R1 R2 R3",
        "R4 B4 O4",
        "O1 O2 O3",
        "K4 B4 O4",
        "R5 B5 O5",
        "K8 R8 B8 O8",
        "K9 R9 B9",
        "R7 B7 O7 J",
    ],
)


@pytest.mark.parametrize(
    ("position", "most_nodes", "value", "tiles"),
    [(LATE_317, 20, 96, 12), (LATE_482, 30, 135, 18)],
    ids=["late-317", "late-482"],
)
def test_search_proves_a_kept_meld_gap_in_few_nodes(
    position: Position, most_nodes: int, value: int, tiles: int
) -> None:
    outcome = MoveModel(position, "value").solve(None)
    assert outcome.status == "optimal" and outcome.solution is not None
    assert outcome.nodes <= most_nodes
    result = solve(position)
    assert (result.value, result.tiles) == (value, tiles)  # as recorded in benchmarks/data
    assert check(position, result.table).legal


#: `mid` positions (benchmarks/corpora.py, seed 1) whose root LP plays more value than any
#: move can: a rack tile half played beside candidate groups of one number at a half or a
#: third each (mid-031: R8, in K8 R8 B8, K8 R8 O8 and R8 B8 O8 at a half). Branching on the
#: number of groups laid of a number (a sum, :class:`search.Aggregate`) while the value
#: still has a gap settles them in 15 and 13 nodes, where branching on columns alone took
#: 48 and 39.
MID_031 = Position.parse(
    rack="R8 B6 O3 R3 R4 O8 B8 B10 R8 R2 K12",
    table=[
        "K1 J K3",
        "K4 K5 K6 K7",
        "B4 K4 O4 R4",
        "O7 O8 O9 O10",
        "B10 K10 O10 R10",
        "K8 K9 K10 K11",
        "O5 O6 O7",
        "B6 K6 O6 R6",
        "K1 K2 K3",
        "B12 O12 R12 J",
    ],
)
MID_081 = Position.parse(
    rack="R4 B4 K8 R8 O10 O11 R5 B11 O5 K13 B2 O4 K6 B11 R6",
    table=[
        "B13 R13 J",
        "B5 B6 B7",
        "R10 R11 R12 R13",
        "R2 R3 R4 R5",
        "B3 K3 O3 R3",
        "O6 O7 O8 O9",
        "K1 K2 J K4 K5 K6 K7",
    ],
)


@pytest.mark.parametrize(
    ("position", "most_nodes", "value", "tiles"),
    [(MID_031, 20, 66, 10), (MID_081, 20, 84, 12)],
    ids=["mid-031", "mid-081"],
)
def test_search_branches_on_groups_laid_to_close_a_value_gap(
    position: Position, most_nodes: int, value: int, tiles: int
) -> None:
    model = MoveModel(position, "value")
    outcome = model.solve(None)
    assert outcome.status == "optimal" and outcome.solution is not None
    assert outcome.nodes <= most_nodes
    assert any(aggregate.index is not None for aggregate in model._aggregates())
    result = solve(position)
    assert (result.value, result.tiles) == (value, tiles)  # as recorded in benchmarks/data
    assert check(position, result.table).legal


def test_an_aggregate_is_the_sum_of_its_columns_once_made() -> None:
    model = Rows(clp())
    x = [model.integer(3, f"x{k}") for k in range(3)]
    aggregate = search.Aggregate([x[0], x[2]], "x0+x2")
    assert aggregate.value([0.5, 9.0, 0.25]) == 0.75
    i = aggregate.variable(model)
    assert aggregate.variable(model) == i == 3  # made once
    # Its row holds it equal to the sum: fixing the columns fixes it.
    model.set_bounds(x[0], 1, 1)
    model.set_bounds(x[2], 2, 2)
    model.maximise([(i, 1.0)])
    assert model.solve() == "optimal"
    assert model.values()[i] == pytest.approx(3.0)


# -- the search with its exact back end (search.settle) -----------------------------------


def test_settle_hands_what_the_search_leaves_open_to_the_exact_back_end() -> None:
    model, integer = knapsack()
    asked: list[int] = []

    def exact() -> search.SearchOutcome:
        asked.append(1)
        return search.SearchOutcome("optimal", [4.0, 0.0], 0)

    # One node leaves the fractional root open: the back end's answer, the search's work.
    outcome = search.settle(model, integer, search.Budget(1, 10_000), exact, deadline=None)
    assert (outcome.status, outcome.values, outcome.nodes, asked) == (
        "optimal",
        [4.0, 0.0],
        1,
        [1],
    )
    # Within its budget the search settles it alone.
    asked.clear()
    outcome = search.settle(model, integer, search.Budget(100, 10_000), exact, deadline=None)
    assert outcome.status == "optimal" and asked == []


def test_settle_keeps_the_search_open_when_the_back_end_finds_nothing() -> None:
    model, integer = knapsack()

    def nothing() -> search.SearchOutcome:
        return search.SearchOutcome("open", None, 0)

    outcome = search.settle(model, integer, search.Budget(1, 10_000), nothing, deadline=None)
    assert (outcome.status, outcome.values, outcome.nodes) == ("open", None, 1)


def test_settle_takes_the_best_case_and_the_earlier_of_equal_ones() -> None:
    # max x + y, x + y <= 3, x, y in 0..2: the case x = 0 reaches 2, the cases x = 1 and
    # y = 1 reach 3 (x = 1 first: it is kept); the other bounds are restored after each.
    model = Rows(clp())
    x, y = model.integer(2, "x"), model.integer(2, "y")
    model.row(-INF, 3.0, [(x, 1.0), (y, 1.0)])
    model.maximise([(x, 1.0), (y, 1.0)])
    cases = [{x: 0.0}, {x: 1.0}, {y: 1.0}]
    outcome = search.settle(
        model, [x, y], search.Budget(100, 10_000), None, deadline=None, cases=cases
    )
    assert outcome.status == "optimal" and outcome.values is not None
    assert [round(v) for v in outcome.values] == [1, 2]
    assert model.bounds(x) == model.bounds(y) == (0.0, 2.0)
    # No case can lay anything: infeasible.
    model.row(5.0, INF, [(x, 1.0)])
    outcome = search.settle(
        model, [x, y], search.Budget(100, 10_000), None, deadline=None, cases=cases
    )
    assert (outcome.status, outcome.values) == ("infeasible", None)


def test_settle_goes_through_the_callers_closing_step_before_the_back_end() -> None:
    model, integer = knapsack()
    steps: list[str] = []

    def closing(open_search: search.SearchOutcome) -> search.SearchOutcome:
        steps.append(open_search.status)
        return search.SearchOutcome("optimal", [4.0, 0.0], open_search.nodes + 5)

    def exact() -> search.SearchOutcome:
        raise AssertionError("the closing step settled it")

    outcome = search.settle(
        model, integer, search.Budget(1, 10_000), exact, deadline=None, closing=closing
    )
    assert (outcome.status, outcome.nodes, steps) == ("optimal", 6, ["open"])


# -- one builder: the live model and the records are the same model ------------------------


def test_the_live_model_and_the_records_build_the_same_model() -> None:
    """The same calls of the builder, into the live model and into records loaded into
    CLP: the same variables, rows (merged terms, zeros left out) and objective."""
    from rummikub.core.lp.builder import Builder
    from rummikub.core.lp.records import Records

    def build(model: Builder) -> None:
        x, y, z = model.integer(3, "x"), model.integer(0, "y"), model.integer(2, "z")
        model.row(-INF, 4.0, [(x, 1.0), (z, 2.0), (x, 1.0)])  # 2x + 2z <= 4
        model.row(1.0, 1.0, [(y, 1.0), (z, 1.0), (y, -1.0)])  # y cancels out
        balance = model.row(0.0, INF)
        model.term(balance, z, 1.0)
        model.maximise([(x, 3.0), (z, 1.0)])
        model.maximise([(z, 1.0)])

    live = Rows(clp())
    build(live)
    records = Records()
    build(records)
    loaded = records.load()
    assert _unnamed(loaded) == _unnamed(live)
    assert [loaded.bounds(i) for i in range(3)] == [live.bounds(i) for i in range(3)]
    assert loaded.objective == live.objective == {0: 3.0, 2: 2.0}
    assert loaded.solve() == live.solve() == "optimal"
    assert loaded.values() == live.values() == [1.0, 0.0, 1.0]


def _unnamed(model: Rows) -> list[tuple[float, float, dict[int, float]]]:
    """The rows of ``model`` as (bounds, coefficients by variable index)."""
    solver = model.solver
    found = []
    for r in range(solver.NumConstraints()):
        row = solver.constraint(r)
        terms = {v.index(): row.GetCoefficient(v) for v in solver.variables()}
        found.append((row.lb(), row.ub(), {i: c for i, c in terms.items() if c}))
    return found


# -- time-limited solves that end unproven ------------------------------------------------

#: Its root LP is fractional, and the branch and bound holds a move after 2 nodes while
#: better ones may remain (found by running the search with growing node limits).
OPEN_AFTER_TWO_NODES = Position.parse(
    rack="R7 R10 B3 K2 K3 B13 J R10 K10 R1",
    table=["B4 K4 O4 R4", "B7 K7 O7 R7", "B1 O1 R1", "K9 K10 K11"],
)


class Clock:
    """A stand-in for ``time``: ``perf_counter`` returns ``readings`` in turn, then the last."""

    def __init__(self, readings: Sequence[float]) -> None:
        self.readings = list(readings)

    def perf_counter(self) -> float:
        return self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]


def test_time_limit_before_any_move_is_found_is_unproven() -> None:
    position = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7", "B9 B10 J"])
    result = solve(position, time_limit=1e-9)  # spent before the search's first node
    assert (result.status, result.proven) == ("feasible", False)
    assert (result.played, result.table, result.value) == ((), position.table, 0)
    assert solve(position, time_limit=60.0).status == "optimal"


def test_time_running_out_mid_search_gives_its_move_unproven(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The search reads the clock once a node: time runs out after its second node; the
    # model then finds no time left for the MIP back end and returns the search's move.
    monkeypatch.setattr(search, "time", Clock([0.0, 0.0, 5.0]))
    monkeypatch.setattr(move_model, "time", Clock([0.0, 5.0]))
    outcome = MoveModel(OPEN_AFTER_TWO_NODES, "value").solve(time_limit=1.0)
    assert (outcome.status, outcome.proven, outcome.nodes) == ("feasible", False, 2)
    assert outcome.solution is not None
    verdict = check(OPEN_AFTER_TWO_NODES, outcome.solution.table)
    assert verdict.legal, verdict.errors
    best = solve(OPEN_AFTER_TWO_NODES)
    assert best.status == "optimal" and verdict.value <= best.value


def test_time_running_out_with_no_move_yet_is_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "time", Clock([0.0, 5.0]))
    monkeypatch.setattr(move_model, "time", Clock([0.0, 5.0]))
    outcome = MoveModel(OPEN_AFTER_TWO_NODES, "value").solve(time_limit=1.0)
    assert (outcome.status, outcome.solution, outcome.nodes) == ("unknown", None, 1)


def test_fast_fitting_agrees_with_the_candidates_own() -> None:
    """The template's fitting (tile counts read by itemgetter) chooses exactly what
    Candidates.fitting chooses, jokers and copies included."""
    import random

    from rummikub.tiles.solver.candidates import candidates, group_candidates
    from rummikub.tiles.solver.template import fitting

    rng = random.Random(7)
    for rules in (STANDARD, Rules(jokers=4), Rules(numbers=9, colors="KRBOG", copies=3)):
        for cands in (group_candidates(rules), candidates(rules)):
            size = len(cands.index.tiles)
            for _ in range(30):
                limit = [rng.choice((0, 0, 1, 2, 3)) for _ in range(size)]
                assert fitting(cands, limit) == cands.fitting(limit)


def test_remembered_fitting_agrees_with_the_candidates_own() -> None:
    """The template's fitting by clusters (each cluster's choice remembered by the counts
    of its tiles) chooses exactly what Candidates.fitting chooses, sorted by row, also
    when it answers from memory."""
    import random

    from rummikub.tiles.solver.candidates import candidates, group_candidates
    from rummikub.tiles.solver.template import fitting_rows

    rng = random.Random(11)
    for rules in (STANDARD, Rules(jokers=4), Rules(numbers=9, colors="KRBOG", copies=3)):
        for cands in (group_candidates(rules), candidates(rules)):
            size = len(cands.index.tiles)
            limits = [[rng.choice((0, 0, 1, 2, 3)) for _ in range(size)] for _ in range(20)]
            for limit in limits + limits:  # the second time from memory
                assert fitting_rows(cands, limit) == sorted(cands.fitting(limit))


def test_a_table_read_once_makes_no_clusters() -> None:
    """The clusters are made on a table's second read (a process that solves one position
    never needs them); both reads choose what Candidates.fitting chooses."""
    from rummikub.tiles.solver import template
    from rummikub.tiles.solver.candidates import group_candidates

    cands = group_candidates(Rules(numbers=11, colors="KRBO", copies=2, jokers=1))
    limit = [1] * len(cands.index.tiles)
    assert template.fitting_rows(cands, limit) == sorted(cands.fitting(limit))
    found = template._CLUSTERS.get(id(cands))
    assert found is None or found[0] is not cands
    assert template.fitting_rows(cands, limit) == sorted(cands.fitting(limit))
    assert template._CLUSTERS[id(cands)][0] is cands


def test_a_small_position_is_solved_over_the_columns_it_can_use() -> None:
    """A small table's model holds only the template's variables its tiles can use (and
    the rows they enter), not the whole template with the rest fixed at 0; a bigger
    table's still copies the template whole (see ``LIVE_SHARE``)."""
    from rummikub.tiles.solver.template import template_for

    small = Position.parse(rack="R4 K7 O7 B2", table=["R1 R2 R3", "K7 R7 B7"])
    model = MoveModel(small, "value")
    template = template_for(STANDARD, 0)
    assert template is not None
    assert model.base_variables == len(model.active) < template.variables * move_model.LIVE_SHARE
    assert model.solver.NumConstraints() < len(template.records) - template.variables
    outcome = model.solve(None)
    assert outcome.status == "optimal" and outcome.solution is not None
    assert check(small, outcome.solution.table).legal
    assert outcome.solution.played == (Tile.parse("R4"), Tile.parse("O7"))
    runs = [" ".join(f"{color}{n}" for n in range(1, 14)) for color in "KRBO"]
    big = Position.parse(rack="R4 O7 B2 B9 K12", table=[*runs, "K7 R7 B7"])
    assert MoveModel(big, "value").base_variables == template.variables


def test_clp_models_are_made_by_type_not_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """A solve makes its CLP models by solver type (rows.clp): reading the name "CLP"
    (Solver.CreateSolver) costs more the first time in a process (benchmarks/RESULTS.md,
    "Targets": the lever "A rule set's template written straight as its records")."""
    from ortools.linear_solver import pywraplp

    from rummikub.tiles.solver.template import play_template

    assert clp().SolverVersion().startswith("Clp")

    def by_name(name: str) -> Any:
        raise AssertionError(f"CreateSolver({name!r})")

    monkeypatch.setattr(pywraplp.Solver, "CreateSolver", staticmethod(by_name))
    play_template.cache_clear()  # its copies are made here too
    small = Position.parse(rack="R4 K7 O7 B2", table=["R1 R2 R3", "K7 R7 B7"])
    big = Position.parse(rack="R4 O7 B2 B9 K12", table=["K1 K2 K3 K4 K5", "K7 R7 B7", "B9 B10 J"])
    opening = Position.parse(rack="R10 R11 R12 K1", table=["B1 B2 B3"], opened=False)
    for position in (small, big, opening):
        assert solve(position).status == "optimal"
