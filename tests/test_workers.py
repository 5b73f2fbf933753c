"""The worker processes of a folder solve (rummikub/cli/workers.py): results in the items'
order whatever finishes first, errors raised in the main process, no worker left behind,
chunks that shrink to one item at the end."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rummikub.cli.workers import CHUNK, chunk_bounds, ordered_batches, ordered_map

REPO = Path(__file__).resolve().parent.parent


def _nothing() -> None:
    pass


def _slow_first(item: int) -> tuple[int, int]:
    # The first chunks take longest, so later chunks finish first.
    time.sleep(0.02 if item < 8 else 0.0)
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


@pytest.mark.parametrize(("count", "workers"), [(1, 2), (7, 2), (41, 2), (1000, 2), (1000, 8)])
def test_chunks_cover_the_items_and_shrink_to_one(count: int, workers: int) -> None:
    bounds = chunk_bounds(count, workers)
    assert [start for start, _ in bounds] == [0, *(stop for _, stop in bounds[:-1])]
    assert bounds[-1][1] == count
    sizes = [stop - start for start, stop in bounds]
    assert all(1 <= size <= CHUNK for size in sizes)
    assert sizes == sorted(sizes, reverse=True)
    # The last chunk of each worker is a single item, so that they finish together.
    assert sizes[-workers:] == [1] * min(workers, len(sizes))


def test_a_thousand_items_take_few_messages() -> None:
    # A wake-up of the main process per chunk: 250 of them in chunks of 4, the old size.
    assert len(chunk_bounds(1000, 2)) < 100


def test_results_come_back_in_batches_in_order() -> None:
    batches = list(ordered_batches(_slow_first, range(100), 2, _nothing))
    assert [item for batch in batches for item, _ in batch] == list(range(100))
    assert all(batches)
    assert len(batches) < 100  # several results a batch


def test_errors_stay_between_the_answers_where_they_were(tmp_path: Path) -> None:
    # Answers (stdout) and errors (stderr) of a parallel run, both to one pipe, in the
    # order of the puzzles, as one process prints them.
    basics = sorted((REPO / "puzzles" / "basics").glob("*.toml"))
    for i in range(20):
        puzzle = basics[i % len(basics)]
        (tmp_path / f"{i:02}.toml").write_bytes(puzzle.read_bytes())
        (tmp_path / f"{i:02}-bad.toml").write_text('rack = "Q1"\n')

    def run(jobs: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "rummikub", "solve", str(tmp_path), "--json", "--jobs", jobs],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=REPO,
            check=False,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        assert done.returncode == 2
        return re.sub(r'"seconds": [0-9.e-]+', "", done.stdout)  # the one field that differs

    alone = run("1")
    assert alone.count("Error: ") == 20
    assert run("2") == alone


PRELOADED = """
import sys
from rummikub.tiles.position import Position
from rummikub.tiles.solver import preload, solve

position = Position.parse(rack="R4 K7 O7 J", table=["R1 R2 R3", "K7 R7 B7"])
preload()
before = set(sys.modules)
solve(position)
ours = ("rummikub", "ortools")
print(" ".join(sorted(m for m in set(sys.modules) - before if m.startswith(ours))))
"""


def test_workers_are_forked_with_what_a_solve_imports() -> None:
    # The folder solve preloads before forking: a worker's first solve imports nothing
    # (OR-Tools' solver module is the costliest import: benchmarks/RESULTS.md, "Targets",
    # the lever "Folder solve").
    done = subprocess.run(
        [sys.executable, "-c", PRELOADED],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.stdout.split() == []
