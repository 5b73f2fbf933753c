"""The batch interface (:mod:`rummikub.tiles.solver.batch`): the same answers as one solve
at a time, whatever the order, the duplicates or the number of worker processes."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub.core.errors import PositionError
from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver import SolveResult, solve
from rummikub.tiles.solver.batch import BatchSolver, solve_many
from tests.strategies import examples, positions, presets

POSITIONS = [
    Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"]),
    Position.parse(rack="K1 R5 B9", table=["R1 R2 R3"]),  # no move, from counts
    Position.parse(rack="B4 B5 B5 K4", table=["B6 R6 O6", "B9 B10 B11 B12"]),  # no move
    Position.parse(rack="R10 R11 R12 J", table=[], opened=False),
    Position.parse(rack="R4 R5 R6 K8", table=["K5 J K7"], opened=False),
    Position.parse(rack="O1 O2 O3 B7", table=["B8 B9 B10"], rules=Rules(joker_lock="free")),
]


def bare(result: SolveResult) -> SolveResult:
    return dataclasses.replace(result, seconds=0.0)


def one_by_one(items: list[Position], **options: object) -> list[SolveResult]:
    return [bare(solve(p, **options)) for p in items]  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def two_workers() -> BatchSolver:
    with BatchSolver(2) as solver:
        yield solver  # type: ignore[misc]


@pytest.mark.parametrize("objective", ["value", "tiles"])
def test_in_process_and_in_workers_answer_alike(two_workers: BatchSolver, objective: str) -> None:
    expected = one_by_one(POSITIONS, objective=objective)
    assert [bare(r) for r in solve_many(POSITIONS, objective=objective)] == expected  # type: ignore[arg-type]
    found = two_workers.solve(POSITIONS * 5, objective=objective)  # type: ignore[arg-type]
    assert [bare(r) for r in found] == expected * 5
    assert two_workers.cpu_seconds > 0


def test_the_order_and_duplicates_change_nothing(two_workers: BatchSolver) -> None:
    expected = dict(zip(POSITIONS, one_by_one(POSITIONS), strict=True))
    rng = random.Random(7)
    for _ in range(3):
        items = [rng.choice(POSITIONS) for _ in range(40)]
        assert [bare(r) for r in two_workers.solve(items)] == [expected[p] for p in items]


def test_each_answer_keeps_its_own_position(two_workers: BatchSolver) -> None:
    for position, result in zip(POSITIONS, two_workers.solve(POSITIONS * 3), strict=False):
        assert result.position is position


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(positions(presets(), max_rack=8), min_size=2, max_size=12), st.randoms())
def test_random_batches_answer_as_solve_does(
    two_workers: BatchSolver, items: list[Position], rng: random.Random
) -> None:
    expected = one_by_one(items)
    order = list(range(len(items)))
    rng.shuffle(order)
    found = two_workers.solve([items[i] for i in order])
    assert [bare(found[k]) for k in sorted(range(len(order)), key=order.__getitem__)] == expected


def test_an_empty_batch() -> None:
    assert solve_many([]) == []
    with BatchSolver(2) as solver:
        assert solver.solve([]) == []


def test_a_bad_position_is_raised_in_the_caller(two_workers: BatchSolver) -> None:
    bad = Position.parse(rack="R4", table=["R1 R2 R3"])
    bad = dataclasses.replace(bad, rack=(bad.rack[0],) * 3)  # three R4 in a box of two
    with pytest.raises(PositionError, match="R4"):
        solve(bad)
    with BatchSolver(2) as solver:
        with pytest.raises(PositionError, match="R4"):
            solver.solve([*POSITIONS, bad])
        # The workers were stopped; the next batch starts new ones.
        assert [bare(r) for r in solver.solve(POSITIONS)] == one_by_one(POSITIONS)


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True, "2"])
def test_jobs_must_be_a_positive_whole_number(jobs: object) -> None:
    with pytest.raises(ValueError, match="jobs must be"):
        BatchSolver(jobs)  # type: ignore[arg-type]
