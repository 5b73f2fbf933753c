"""The worker processes of a folder solve (rummikub/cli/workers.py): results in the items'
order whatever finishes first, errors raised in the main process, no worker left behind."""

from __future__ import annotations

import os
import time

import pytest

from rummikub.cli.workers import CHUNK, ordered_map


def _nothing() -> None:
    pass


def _slow_first(item: int) -> tuple[int, int]:
    # The first chunks take longest, so later chunks finish first.
    time.sleep(0.02 if item < 2 * CHUNK else 0.0)
    return item, os.getpid()


def _fails_at_seven(item: int) -> int:
    if item == 7:
        raise ValueError(f"bad item {item}")
    return item


def _dies_at_five(item: int) -> int:
    if item == 5:
        os._exit(9)  # as a crash would: no answer, no exception
    return item


def test_results_come_in_order_from_every_worker() -> None:
    found = list(ordered_map(_slow_first, range(41), 2, _nothing))
    assert [item for item, _ in found] == list(range(41))
    assert len({pid for _, pid in found} - {os.getpid()}) == 2


def test_more_workers_than_chunks() -> None:
    assert list(ordered_map(_fails_at_seven, [1, 2, 3], 8, _nothing)) == [1, 2, 3]


def test_an_error_in_a_worker_is_raised_here() -> None:
    with pytest.raises(ValueError, match="bad item 7") as raised:
        list(ordered_map(_fails_at_seven, range(20), 2, _nothing))
    assert "_fails_at_seven" in "".join(raised.value.__notes__)  # where it happened


def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    with pytest.raises(RuntimeError, match="ended unexpectedly"):
        list(ordered_map(_dies_at_five, range(20), 2, _nothing))


def test_stopping_early_ends_the_workers() -> None:
    results = ordered_map(_slow_first, range(400), 2, _nothing)
    _, pid = next(results)
    results.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.02)
    else:
        pytest.fail("a worker outlived the map")
