"""Free groups counted by number (:mod:`rummikub.tiles.solver.group_counts`), used by boxes of
more than four colors.

The counts' rows are exact (a split into valid groups exists exactly when they hold): the
first tests check that against brute force over every small case; the others check the
solver on many-color boxes against the exhaustive search, jokers and the joker lock
included, every answer through the checker.
"""

from __future__ import annotations

import functools
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub import Position, Rules
from rummikub.tiles.solver import model, solve
from rummikub.tiles.solver.group_counts import _deal, counts_groups
from rummikub.tiles.solver.template import play_template
from rummikub.tiles.tiles import JOKER, Tile
from tests.strategies import examples, option_rule_sets, positions
from tests.test_solver_properties import OBJECTIVES, assert_legal, assert_optimal


def rows_hold(colors: tuple[int, ...], jokers: int, count: int, size: int) -> bool:
    """The rows of :mod:`.group_counts` for tiles ``colors[c]`` of each color."""
    numbered = sum(colors)
    return (
        all(x <= count for x in colors)
        and count <= numbered
        and 3 * count <= numbered + jokers <= size * count
    )


@functools.cache
def splits(colors: tuple[int, ...], jokers: int, count: int, size: int) -> bool:
    """Brute force: the tiles split into exactly ``count`` valid groups of at most ``size``
    tiles (distinct colors, jokers for missing ones, a numbered tile each)."""
    if count == 0:
        return not any(colors) and jokers == 0
    # The next group: a nonempty set of colors with tiles left, and some jokers.
    held = [c for c, x in enumerate(colors) if x]
    for k in range(1, len(held) + 1):
        for chosen in itertools.combinations(held, k):
            rest = tuple(x - (c in chosen) for c, x in enumerate(colors))
            for j in range(0, jokers + 1):
                if 3 <= k + j <= size and splits(rest, jokers - j, count - 1, size):
                    return True
    return False


def test_the_rows_hold_exactly_when_the_tiles_split_into_groups() -> None:
    # Every case of 3-5 colors, up to 3 copies, up to 3 jokers and 4 groups.
    checked = 0
    for size in (3, 4, 5):
        for colors in itertools.product(range(4), repeat=size):
            if list(colors) != sorted(colors, reverse=True):
                continue  # the colors' order does not matter to either side
            for jokers in range(4):
                for count in range(5):
                    expected = splits(colors, jokers, count, size)
                    assert rows_hold(colors, jokers, count, size) == expected, (
                        colors,
                        jokers,
                        count,
                    )
                    checked += 1
    assert checked > 1000


def test_dealing_lays_valid_groups_whenever_the_rows_hold() -> None:
    letters = "ABCDEF"
    for size in (3, 4, 6):
        for colors in itertools.product(range(3), repeat=size):
            for jokers in range(5):
                for count in range(1, 5):
                    if not rows_hold(colors, jokers, count, size):
                        continue
                    tiles = [Tile(letters[c], 7) for c, x in enumerate(colors) for _ in range(x)]
                    dealt = _deal(tiles, jokers, count, size)  # asserts each is valid
                    assert len(dealt) == count
                    laid = sorted(str(t) for g in dealt for t in g.tiles)
                    assert laid == sorted([*map(str, tiles), *[str(JOKER)] * jokers])


def test_boxes_of_more_than_four_colors_count_their_groups() -> None:
    assert not counts_groups(Rules())
    big = Rules(numbers=26, colors="KRBOGYPW", copies=4, jokers=4)
    assert counts_groups(big)
    # The template holds no candidate group columns, so it is small enough to copy.
    template = play_template(big)
    assert template is not None and template.base.groups is not None
    assert template.base.columns == ()


@st.composite
def many_color_rules(draw: st.DrawFn, jokers: st.SearchStrategy[int]) -> Rules:
    """Boxes of 5-6 colors and few numbers, every rule option at random."""
    return draw(
        option_rule_sets(
            numbers=st.integers(3, 5),
            colors=st.integers(5, 6),
            copies=st.integers(1, 2),
            jokers=jokers,
            initial_meld=st.sampled_from([0, 6, 10]),
            joker_value=st.sampled_from([0, 3, 30]),
        )
    )


def small_many_color_positions(jokers: st.SearchStrategy[int]) -> st.SearchStrategy[Position]:
    return positions(
        many_color_rules(jokers),
        max_melds=3,
        max_table_tiles=9,
        max_run=4,
        max_rack=5,
        min_rack=1,
    )


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_many_color_positions(st.integers(0, 2)), OBJECTIVES)
def test_solver_is_optimal_on_many_color_boxes(position: Position, objective: str) -> None:
    assert counts_groups(position.rules)
    assert_optimal(position, objective)  # type: ignore[arg-type]


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    small_many_color_positions(st.integers(1, 2)).map(
        lambda p: Position(p.table, p.rack, True, p.rules.replace(joker_lock="strict"))
    ),
    OBJECTIVES,
)
def test_solver_is_optimal_on_many_color_boxes_with_the_joker_lock(
    position: Position, objective: str
) -> None:
    assert_optimal(position, objective)  # type: ignore[arg-type]


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    positions(
        option_rule_sets(
            numbers=st.integers(8, 26), colors=st.integers(5, 8), jokers=st.integers(0, 4)
        ),
        max_melds=12,
        max_rack=20,
    ),
    OBJECTIVES,
)
def test_answers_are_legal_on_big_many_color_boxes(position: Position, objective: str) -> None:
    assert_legal(position, solve(position, objective=objective))  # type: ignore[arg-type]


def test_a_rack_of_one_number_fills_groups_with_jokers() -> None:
    rules = Rules(numbers=5, colors="KRBOG", copies=2, jokers=3)
    position = Position.parse(rack="K3 R3 B3 K3 R3 J J J", table=[], rules=rules)
    result = solve(position, objective="tiles")
    assert result.status == "optimal" and result.tiles == 8
    assert_legal(position, result)


def test_candidate_runs_and_counted_groups_take_over_from_the_flow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Where the flow's best table needs a run of jokers alone (three or more jokers in
    # play), the model is built again with candidate runs; the groups stay counted.
    from rummikub.tiles.solver import runs_flow

    def refuse(*args: object) -> None:
        raise runs_flow.JokerOnlyRun("R")

    rules = Rules(numbers=9, colors="KRBOGY", copies=2, jokers=4, joker_lock="free")
    position = Position.parse(
        rack="R4 K7 O7 G7 J", table=["R1 R2 R3", "K7 R7 B7", "B7 B8 J", "Y5 G5 J J"], rules=rules
    )
    expected = solve(position, objective="tiles")
    monkeypatch.setattr(runs_flow, "_split", refuse)
    result = solve(position, objective="tiles")
    assert_legal(position, result)
    assert (result.status, result.value, result.tiles) == (
        "optimal",
        expected.value,
        expected.tiles,
    )


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_many_color_positions(st.integers(0, 2)), OBJECTIVES)
def test_the_exact_back_end_alone_is_optimal_on_many_color_boxes(
    position: Position, objective: str
) -> None:
    # No nodes for the search: what its root leaves open goes straight to the exact back
    # end (CP-SAT on these boxes), whose answers must be the exhaustive search's as well.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(model, "COUNTED_NODE_LIMIT", 0)
        patch.setattr(model, "COUNTED_CUT_NODE_LIMIT", 0)
        assert_optimal(position, objective)  # type: ignore[arg-type]


def test_the_exact_back_end_is_cp_sat_where_groups_are_counted_and_all_is_integer() -> None:
    five = Rules(numbers=9, colors="KRBOG", copies=2, jokers=2)
    counted = Position.parse(rack="R4 K7 O7 G7", table=["R1 R2 R3", "K7 R7 B7"], rules=five)
    assert model.MoveModel(counted, "value")._exact_backend() == "SAT"
    assert model.MoveModel(counted, "value", "CBC")._exact_backend() == "CBC"  # as asked
    standard = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    assert model.MoveModel(standard, "value")._exact_backend() == "CBC"
    # A continuous variable (the joker lock's ranks of released melds): CP-SAT takes none.
    built = model.MoveModel(counted, "value")
    built.rows.real(0.0, 1.0, "rank")
    assert built._exact_backend() == "CBC"


def test_the_time_kept_back_for_the_exact_back_end_is_its_own() -> None:
    # CP-SAT keeps to its time limit from the start; CBC's root does not (presolve, cuts):
    # a time limit keeps back far less for CP-SAT, so a short one still gets the counted
    # groups' searches and then CP-SAT, where it used to get the budget of any model.
    five = Rules(numbers=9, colors="KRBOG", copies=2, jokers=2)
    counted = Position.parse(rack="R4 K7 O7 G7", table=["R1 R2 R3", "K7 R7 B7"], rules=five)
    sat, cbc = model.MoveModel(counted, "value"), model.MoveModel(counted, "value", "CBC")
    columns = sat.rows.variables()
    assert sat._mip_reserve() == pytest.approx(model.CP_SAT_RESERVE_PER_COLUMN * columns)
    assert cbc._mip_reserve() == pytest.approx(model.COUNTED_MIP_RESERVE_PER_COLUMN * columns)
    assert sat._mip_reserve() < cbc._mip_reserve() / 4
    between = 4.5 * sat._mip_reserve()  # enough for CP-SAT to start and work, not for CBC
    assert sat._node_limit(between) == model.COUNTED_NODE_LIMIT
    assert cbc._node_limit(between) != model.COUNTED_NODE_LIMIT
    standard = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    plain = model.MoveModel(standard, "value")
    assert plain._mip_reserve() == pytest.approx(
        model.MIP_RESERVE_PER_COLUMN * plain.rows.variables()
    )
