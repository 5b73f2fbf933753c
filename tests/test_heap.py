"""A process that solves puzzles one after another keeps the memory a solve freed for the
next (rummikub/cli/heap.py), so that the system need not map and zero it again each time,
and collects its garbage less often."""

from __future__ import annotations

import gc
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from rummikub.cli import solve as solve_module
from rummikub.cli.heap import YOUNG, collecting_seldom, keep_freed_memory

REPO = Path(__file__).resolve().parent.parent

#: Allocates, touches and frees a block of 4 MiB (a solve's model and work space are a
#: few hundred KiB, in blocks of all sizes) 50 times and prints the page faults. Without
#: keep_freed_memory, glibc's thresholds are set as they start (128 KiB): it raises them
#: by itself as large blocks come and go, so how many pages a process faults otherwise
#: depends on its history.
BLOCKS = """
import ctypes, resource, sys
from rummikub.cli import heap

if sys.argv[1] == "keep":
    assert heap.keep_freed_memory()
else:
    mallopt = ctypes.CDLL(None).mallopt
    assert mallopt(heap.M_TRIM_THRESHOLD, 128 * 1024)
    assert mallopt(heap.M_MMAP_THRESHOLD, 128 * 1024)
size = 4 * 1024 * 1024
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(50):
    block = bytearray(size)
    block[::4096] = b"x" * (size // 4096)
    del block
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""

GLIBC = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"


def _faults(mode: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", BLOCKS, mode],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        check=True,
        timeout=60,
    )
    return int(done.stdout)


@pytest.mark.skipif(not GLIBC, reason="mallopt is glibc's")
def test_memory_freed_is_kept_for_the_next_block() -> None:
    # 50 blocks of 1,024 pages: each faulted in again at the start thresholds, the first
    # one only when freed memory is kept.
    assert _faults("free") > 40 * 1024
    assert _faults("keep") < 3 * 1024


def test_elsewhere_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert keep_freed_memory() is False


def test_the_collector_runs_seldom_within_and_as_before_after() -> None:
    before = gc.get_threshold()
    with collecting_seldom():
        assert gc.get_threshold() == (YOUNG, *before[1:])
        gc.collect()
        collections = gc.get_stats()[0]["collections"]
        young = [[] for _ in range(YOUNG // 2)]  # at 700, dozens of collections
        assert gc.get_stats()[0]["collections"] == collections
        del young
    assert gc.get_threshold() == before


def test_a_folder_solve_keeps_freed_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    kept: list[bool] = []
    thresholds: list[int] = []
    monkeypatch.setattr("rummikub.cli.heap.keep_freed_memory", lambda: kept.append(True))
    task = solve_module._Task(
        inline=None,
        stdin=None,
        choices=solve_module.overrides(None, {}, None),
        objective="value",
        time_limit=None,
        as_json=True,
        verify=False,
        explain=False,
        color=False,
        several=True,
    )
    basics = sorted(str(p) for p in (REPO / "puzzles" / "basics").iterdir())[:2]
    young = gc.get_threshold()[0]
    for _ in solve_module._report_batches(task, [basics[0]], 1):
        thresholds.append(gc.get_threshold()[0])
    assert kept == []  # one puzzle: the process ends after it
    assert thresholds == [young]
    for _ in solve_module._report_batches(task, basics, 1):
        thresholds.append(gc.get_threshold()[0])
    assert kept == [True]
    assert thresholds == [young, YOUNG, YOUNG]
    assert gc.get_threshold()[0] == young
