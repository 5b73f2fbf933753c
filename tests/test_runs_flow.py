"""Splitting the run flow back into runs (rummikub.tiles.solver.runs_flow)."""

from __future__ import annotations

import pytest

from rummikub.tiles.solver.runs_flow import ColorFlow, JokerOnlyRun, _split


def split(start: dict[int, int], long: dict[int, int], jokers: dict[int, int]) -> list[str]:
    # Flow values stand in for their variables; count() reads them back unchanged.
    flow = ColorFlow("R", start=start, long=long, jokers=jokers)
    return [str(meld) for meld in _split(flow, 13, lambda value: value)]


def test_one_long_run() -> None:
    assert split({1: 1}, {3: 1, 4: 1, 5: 1}, {}) == ["R1 R2 R3 R4 R5"]


def test_two_runs_side_by_side_and_a_joker_where_a_run_has_numbered_tiles() -> None:
    runs = split({1: 1, 4: 1}, {3: 1, 6: 1}, {5: 1})
    assert sorted(runs) == ["R1 R2 R3", "R4 J R6"]


def test_jokers_go_to_runs_that_hold_numbered_tiles() -> None:
    # Two runs over 1-3 and three jokers: each run keeps a numbered tile.
    runs = split({1: 2}, {3: 2}, {1: 1, 2: 1, 3: 1})
    assert all(run.replace("J", "").strip() for run in runs)
    assert sum(run.split().count("J") for run in runs) == 3


def test_a_run_of_jokers_alone_is_refused() -> None:
    with pytest.raises(JokerOnlyRun):
        split({1: 1}, {3: 1}, {1: 1, 2: 1, 3: 1})
