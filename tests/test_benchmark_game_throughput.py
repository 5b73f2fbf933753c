"""The game positions' throughput benchmark (benchmarks/game_throughput.py), on a few
positions: it times whole calls and compares their answers."""

from __future__ import annotations

import statistics

from benchmarks import game_throughput


def test_a_few_game_positions_in_one_call() -> None:
    found = game_throughput.measure(count=4, runs=2, jobs=1)
    assert found["positions"] == 4
    low, high = found["tables"]
    assert 30 <= low <= high <= 100
    assert len(found["walls"]) == 2 and found["rate"] > 0
    assert found["same"]
    assert sum(found["statuses"].values()) == 4
    # The call on one position alone, timed as often, splits off the start-up.
    assert len(found["alone"]) == 2 and min(found["alone"]) > 0
    assert found["start_up"] == statistics.median(found["alone"])
