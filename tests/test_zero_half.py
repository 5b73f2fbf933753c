"""Zero-half cuts (:mod:`rummikub.core.lp.zero_half`) at the root of models with counted
groups: what they cut, that answers stay optimal with them, and that they settle the
`full-box` positions the search once handed to CBC."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.corpora import CORPORA
from rummikub import Position
from rummikub.core.lp.rows import Rows
from rummikub.core.lp.zero_half import Cut, ModelRows, separate
from rummikub.tiles.solver import model as move_model
from rummikub.tiles.solver import solve
from tests.strategies import examples
from tests.test_group_counts import small_many_color_positions
from tests.test_solver_properties import OBJECTIVES, assert_legal, assert_optimal


def test_an_odd_cycle_of_pairs_gets_its_cut() -> None:
    # x + y <= 1, y + z <= 1, x + z <= 1: the LP lays a half of each, worth 1.5; halving
    # the three rows and rounding down gives x + y + z <= 1, which cuts it off.
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("CLP")
    x, y, z = (solver.IntVar(0, 1, name) for name in "xyz")
    for a, b in ((x, y), (y, z), (x, z)):
        row = solver.Constraint(-solver.infinity(), 1.0)
        row.SetCoefficient(a, 1.0)
        row.SetCoefficient(b, 1.0)
    goal = solver.Objective()
    for var in (x, y, z):
        goal.SetCoefficient(var, 1.0)
    goal.SetMaximization()
    assert solver.Solve() == pywraplp.Solver.OPTIMAL
    assert goal.Value() == pytest.approx(1.5)
    cuts = separate(ModelRows(Rows(solver), [True] * 3), Rows(solver).values(), 10)
    assert cuts == [Cut(((0, 1), (1, 1), (2, 1)), 1)]


def test_no_cut_where_the_lp_solution_is_integral() -> None:
    from ortools.linear_solver import pywraplp

    solver = pywraplp.Solver.CreateSolver("CLP")
    x, y = solver.IntVar(0, 3, "x"), solver.IntVar(0, 3, "y")
    row = solver.Constraint(-solver.infinity(), 4.0)
    row.SetCoefficient(x, 2.0)
    row.SetCoefficient(y, 2.0)
    solver.Objective().SetCoefficient(x, 1.0)
    solver.Objective().SetMaximization()
    assert solver.Solve() == pywraplp.Solver.OPTIMAL
    assert separate(ModelRows(Rows(solver), [True, True]), Rows(solver).values(), 10) == []


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    small_many_color_positions(st.integers(0, 2)),
    st.sampled_from(["free", "strict"]),
    OBJECTIVES,
)
def test_answers_stay_optimal_with_cuts_after_a_one_node_search(
    position: Position, lock: str, objective: str
) -> None:
    # A search of one node leaves every fractional root open, so cuts and the second
    # search decide it: the answer must still be the exhaustive search's.
    position = Position(
        position.table, position.rack, True, position.rules.replace(joker_lock=lock)
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(move_model, "COUNTED_NODE_LIMIT", 1)
        assert_optimal(position, objective)  # type: ignore[arg-type]


def test_a_full_box_position_is_settled_without_cbc(monkeypatch: pytest.MonkeyPatch) -> None:
    # full-box-000 in the peer's setting (tiles, free jokers): the search's 50 nodes leave
    # it open, and before the cuts CBC took over, slowly (benchmarks/RESULTS.md, "Targets",
    # the lever "8-color boxes").
    case = CORPORA["full-box"].cases(1, size=1)[0]
    position = Position(
        case.position.table,
        case.position.rack,
        True,
        case.position.rules.replace(joker_lock="free"),
    )

    def no_cbc(*args: object, **kwargs: object) -> None:
        raise AssertionError("handed to CBC")

    monkeypatch.setattr(move_model.MoveModel, "_solve_mip", no_cbc)
    result = solve(position, objective="tiles")
    assert result.status == "optimal"
    assert (result.tiles, result.value) == (33, 447)
    assert_legal(position, result)
