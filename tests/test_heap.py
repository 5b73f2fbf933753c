"""A process that solves puzzles one after another keeps the memory a solve freed for the
next (rummikub/cli/heap.py): the system need not map and zero it again each time."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from rummikub.cli import solve as solve_module
from rummikub.cli.heap import keep_freed_memory

REPO = Path(__file__).resolve().parent.parent

#: Solves 30 `mid` positions after a first one (which loads OR-Tools and builds the
#: template) and prints the page faults of those 30. Without keep_freed_memory, glibc's
#: own thresholds are set as they start (128 KiB): it raises them by itself as large
#: blocks come and go, so how many pages a process faults otherwise depends on its history.
SOLVES = """
import ctypes, resource, sys
from benchmarks.corpora import make_mid, stream
from rummikub.cli import heap
from rummikub.solver import solve

cases = make_mid(stream(1, "throughput"), 31)
solve(cases[0].position)
if sys.argv[1] == "keep":
    assert heap.keep_freed_memory()
else:
    mallopt = ctypes.CDLL(None).mallopt
    assert mallopt(heap.M_TRIM_THRESHOLD, 128 * 1024)
    assert mallopt(heap.M_MMAP_THRESHOLD, 128 * 1024)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for case in cases[1:]:
    solve(case.position)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""

GLIBC = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"


def _faults(mode: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", SOLVES, mode],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        check=True,
        timeout=120,
    )
    return int(done.stdout)


@pytest.mark.skipif(not GLIBC, reason="mallopt is glibc's")
def test_solves_in_a_row_fault_far_fewer_pages() -> None:
    # Measured: ~2,700 page faults for 30 solves at the start thresholds, ~600 kept.
    assert _faults("keep") * 3 < _faults("free")


def test_elsewhere_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert keep_freed_memory() is False


def test_a_folder_solve_keeps_freed_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    kept: list[bool] = []
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
    list(solve_module._report_batches(task, [basics[0]], 1))
    assert kept == []  # one puzzle: the process ends after it
    list(solve_module._report_batches(task, basics, 1))
    assert kept == [True]
