"""The time limit of one solve, which covers all of it: building the model too.

Building can take long (a big box's candidate melds, a large rack's opening melds with
jokers), so the builders call :func:`check` between steps; past the deadline it raises
:class:`OutOfTime`, and the solve answers with the best move found so far (none, if the
search never started): status ``feasible``. The deadline lives in a context variable so
that the builders deep inside need no extra parameter, and a solve in another thread keeps
its own. Limits nest: inside an outer limit (a web request's, which covers all the solves it
makes) the nearer deadline holds, so no solve outlasts the whole. A caller in another thread
can also stop the work at once (:func:`stop_when`: the client went away, the server stops).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol

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


class Stop(Protocol):
    """What tells the work to stop: a :class:`threading.Event` is one."""

    def is_set(self) -> bool: ...


_stop: ContextVar[Stop | None] = ContextVar("rummikub_solver_stop", default=None)


class OutOfTime(Exception):
    """The time limit ran out while the model was being built."""


@contextmanager
def limit(seconds: float | None) -> Iterator[None]:
    """Within the block, :func:`check` raises once ``seconds`` have passed (None: never), or
    sooner if an enclosing limit ends sooner."""
    at = None if seconds is None else time.perf_counter() + capped(seconds)
    outer = _deadline.get()
    if outer is not None and (at is None or outer < at):
        at = outer
    token = _deadline.set(at)
    try:
        yield
    finally:
        _deadline.reset(token)


@contextmanager
def stop_when(stop: Stop) -> Iterator[None]:
    """Within the block, once ``stop.is_set()`` (set from another thread), :func:`check`
    raises and :func:`remaining` is 0, as if the time limit had run out."""
    token = _stop.set(stop)
    try:
        yield
    finally:
        _stop.reset(token)


def _stopped() -> bool:
    stop = _stop.get()
    return stop is not None and stop.is_set()


def check() -> None:
    """Raise :class:`OutOfTime` if the current solve's time limit has passed."""
    if passed():
        raise OutOfTime


def passed() -> bool:
    """Whether the work must stop: the current time limit has passed, or it was told to stop
    (:func:`check` would raise). Once true it stays true within the block."""
    at = _deadline.get()
    return (at is not None and time.perf_counter() > at) or _stopped()


def stopped() -> bool:
    """Whether the work was told to stop (:func:`stop_when`), rather than out of time."""
    return _stopped()


def remaining() -> float | None:
    """Seconds left of the current solve's time limit (never below zero), or None."""
    at = _deadline.get()
    if _stopped():
        return 0.0
    return None if at is None else max(0.0, at - time.perf_counter())
