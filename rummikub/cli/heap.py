"""The memory of a process that solves many puzzles one after another (a folder solve):
the C heap keeps what a solve freed, and the garbage collector runs less often.

glibc's ``malloc`` hands memory back to the system as soon as 128 KiB at the top of the
heap are free, and serves blocks of more than 128 KiB (at first) by a fresh ``mmap`` each.
A solve allocates and frees a few hundred KiB (OR-Tools' model and CLP's work space), so
every solve had the system map and zero those pages again (glibc raises its thresholds by
itself as large blocks come and go, so how often depends on the process's history): page
faults and system time in every puzzle of a folder (benchmarks/RESULTS.md, "Speed
choices", *The C heap*). A process that goes on solving keeps what it freed for the next
puzzle instead, up to :data:`KEEP` bytes, and faults almost never. Memory is not a concern
at that size: the peak of a solve is what it is either way, only its return to the system
waits.

Linux with glibc only (``mallopt``); elsewhere, or with another C library, nothing
changes. Called before the worker processes are forked, so that they inherit it.

The garbage collector collects the youngest objects every 700 allocations (Python's
default), but a solve allocates thousands of objects with the collector paused
(:func:`rummikub.tiles.solver.solve`), so on a folder one collection came every few puzzles
and every tenth of them walked the older objects too. Reading and printing a puzzle make
few reference cycles, so a folder solve collects every :data:`YOUNG` allocations instead
(benchmarks/RESULTS.md, "Speed choices", *The collector in a folder solve*).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: ``mallopt`` parameters (glibc's malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
#: Freed memory kept for the next solve, and the size from which a block is mapped on its
#: own (32 MiB is the most glibc takes for the latter on a 64-bit system).
KEEP = 32 * 1024 * 1024


def keep_freed_memory() -> bool:
    """Keep freed memory in this process (and the processes it forks) for reuse; whether
    the C library took it."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # no C library to ask, or one without mallopt
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    # Both or neither matter: setting the trim threshold also stops glibc from raising
    # the mmap threshold by itself, so the mmap threshold is set too.
    return bool(mallopt(M_TRIM_THRESHOLD, KEEP)) and bool(mallopt(M_MMAP_THRESHOLD, KEEP))


#: Allocations between two collections of the youngest objects in a folder solve.
YOUNG = 50_000


def collect_seldom() -> None:
    """From now on, the garbage collector runs every :data:`YOUNG` allocations at the most
    often (a worker process, which ends with the folder solve)."""
    young, *older = gc.get_threshold()
    gc.set_threshold(max(young, YOUNG), *older)


@contextmanager
def collecting_seldom() -> Iterator[None]:
    """Within the block (and in the processes forked in it), :func:`collect_seldom`; as
    before afterwards."""
    before = gc.get_threshold()
    collect_seldom()
    try:
        yield
    finally:
        gc.set_threshold(*before)
