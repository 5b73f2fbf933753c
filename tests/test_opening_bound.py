"""The solver's relaxations of an initial meld with jokers (:mod:`rummikub.solver.opening_bound`)
against the exhaustive search: not opened, 1-4 jokers in the rack, both readings of
``joker_swap_from``. Each answer must be the exhaustive search's best, whichever stage of
the relaxations settles it; a second run makes every relaxed move fail its check (as if no
initial meld without jokers were ever found), so the later stages — the exact model
without initial melds holding a joker, then the exact model — answer every position."""

from __future__ import annotations

from unittest import mock

from hypothesis import HealthCheck, given, settings

from rummikub.position import Position
from rummikub.solver.model import MoveModel
from tests.strategies import examples, opening_joker_positions
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
    with mock.patch.object(MoveModel, "_opens_without_jokers", return_value=False):
        assert_optimal(position, objective)  # type: ignore[arg-type]
