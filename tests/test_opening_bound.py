"""The solver's relaxations of an initial meld with jokers
(:mod:`rummikub.tiles.solver.opening_bound`)
against the exhaustive search: not opened, 1-4 jokers in the rack, both readings of
``joker_swap_from``. Each answer must be the exhaustive search's best, whichever stage of
the relaxations settles it; a second run makes every relaxed move fail its check (as if no
initial meld without jokers were ever found), so the later stages — the exact model
without initial melds holding a joker, then the exact model — answer every position."""

from __future__ import annotations

from collections import Counter
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver.candidates import (
    TileIndex,
    candidates,
    group_readings,
    max_run_length,
    run_readings,
)
from rummikub.tiles.solver.model import MoveModel
from rummikub.tiles.solver.opening import hand_melds, hand_readings_with_jokers
from tests.strategies import examples, opening_joker_positions, small_rule_sets
from tests.test_solver_properties import OBJECTIVES, assert_optimal

FAMILY = settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@FAMILY
@given(opening_joker_positions(), OBJECTIVES)
def test_opening_with_jokers_is_optimal(position: Position, objective: str) -> None:
    assert_optimal(position, objective)  # type: ignore[arg-type]


@FAMILY
@given(opening_joker_positions(), OBJECTIVES)
def test_opening_with_jokers_is_optimal_when_no_relaxed_move_checks(
    position: Position, objective: str
) -> None:
    with mock.patch.object(MoveModel, "_opens", return_value=False):
        assert_optimal(position, objective)  # type: ignore[arg-type]


# -- the hand's melds, enumerated from the rack, against the box's every meld -----------


@st.composite
def rule_sets_and_racks(draw: st.DrawFn) -> tuple[Rules, list[int]]:
    rules = draw(small_rule_sets(jokers=st.integers(0, 4)))
    index = TileIndex(rules)
    rack = draw(st.lists(st.integers(0, rules.copies), min_size=index.size, max_size=index.size))
    rack[index.joker] = draw(st.integers(0, rules.jokers))
    return rules, rack


@settings(max_examples=examples(100), deadline=None)
@given(rule_sets_and_racks())
def test_hand_melds_are_the_candidates_that_fit(case: tuple[Rules, list[int]]) -> None:
    rules, rack = case
    table = candidates(rules)
    expected = sorted((table.needs[r], table.values[r], n) for r, n in table.fitting(rack))
    assert sorted(hand_melds(rules, rack, TileIndex(rules))) == expected


@settings(max_examples=examples(100), deadline=None)
@given(rule_sets_and_racks())
def test_hand_readings_with_jokers_are_every_reading_that_fits(
    case: tuple[Rules, list[int]],
) -> None:
    rules, rack = case
    index = TileIndex(rules)
    limited = rules.replace(jokers=min(rules.jokers, rack[index.joker]))
    readings = run_readings(limited, max_run_length(rules)) + group_readings(
        limited, min(5, rules.max_group)
    )
    expected = [
        meld
        for meld in readings
        if meld.jokers
        and all(n <= rack[t] for t, n in Counter(index[t] for t in meld.tiles).items())
    ]
    assert hand_readings_with_jokers(rules, rack, index) == expected
