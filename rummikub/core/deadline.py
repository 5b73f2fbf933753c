"""The time limit of one solve, which covers all of it: building the model too.

Building can take long (a big box's candidate melds, a large rack's opening melds with
jokers), so the builders call :func:`check` between steps; past the deadline it raises
:class:`OutOfTime`, and the solve answers with the best move found so far (none, if the
search never started): status ``feasible``. The deadline lives in a context variable so
that the builders deep inside need no extra parameter, and a solve inside a solve (or in
another thread) keeps its own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_deadline: ContextVar[float | None] = ContextVar("rummikub_solver_deadline", default=None)

#: The longest time limit passed on to a back end: ten years, far beyond any solve. A
#: finite limit larger than this (``time_limit=1e300``) means the same, and a back end that
#: counts milliseconds in 64 bits (CLP, CBC) would overflow on it.
MAX_SECONDS = 10 * 365 * 24 * 3600.0


def capped(seconds: float) -> float:
    """``seconds`` as a back end is given it: at most :data:`MAX_SECONDS`.

    >>> capped(1e300) == MAX_SECONDS, capped(2.5)
    (True, 2.5)
    """
    return min(seconds, MAX_SECONDS)


class OutOfTime(Exception):
    """The time limit ran out while the model was being built."""


@contextmanager
def limit(seconds: float | None) -> Iterator[None]:
    """Within the block, :func:`check` raises once ``seconds`` have passed (None: never)."""
    token = _deadline.set(None if seconds is None else time.perf_counter() + capped(seconds))
    try:
        yield
    finally:
        _deadline.reset(token)


def check() -> None:
    """Raise :class:`OutOfTime` if the current solve's time limit has passed."""
    at = _deadline.get()
    if at is not None and time.perf_counter() > at:
        raise OutOfTime


def remaining() -> float | None:
    """Seconds left of the current solve's time limit (never below zero), or None."""
    at = _deadline.get()
    return None if at is None else max(0.0, at - time.perf_counter())
