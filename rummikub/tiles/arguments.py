"""Checks of what callers hand the public functions, so that a wrong argument fails at
once with a clear :class:`TypeError`, :class:`ValueError` or
:class:`~rummikub.core.errors.RummikubError`, never deep inside the solver or the checker."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.position import Position

OBJECTIVES = ("value", "tiles")


def _type(value: object) -> str:
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"


def solvable(position: Any, objective: Any, time_limit: Any) -> None:
    """The arguments of :func:`rummikub.solve`: a complete, valid position (melds valid,
    every tile in the box and not used too often), a known objective, a time limit that is
    None or a finite number of seconds > 0."""
    if not isinstance(position, Position):
        raise TypeError(
            f"solve() takes a Position (e.g. Position.parse(rack=...)), got {_type(position)}"
        )
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise ValueError(f"objective {objective!r} must be 'value' or 'tiles'")
    time_limit_seconds(time_limit)
    position.check_built()


def time_limit_seconds(time_limit: Any) -> float | None:
    """``time_limit`` checked: None (no limit) or a finite number of seconds > 0."""
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        raise TypeError(f"time_limit must be a number of seconds or None, got {_type(time_limit)}")
    if not math.isfinite(time_limit) or time_limit <= 0:
        raise ValueError(
            f"time_limit={time_limit!r} must be a finite number of seconds > 0 "
            "(or None for no limit)"
        )
    return float(time_limit)


def checkable(position: Any, proposed: Any) -> None:
    """The arguments of :func:`rummikub.check`: a position and a sequence of melds
    (:class:`Meld` or :class:`RawMeld`); a broken old table is judged, not refused."""
    if not isinstance(position, Position):
        raise TypeError(f"check() takes a Position, got {_type(position)}")
    if isinstance(proposed, str) or not isinstance(proposed, Sequence):
        raise TypeError(
            "check() takes the new table as a list of melds "
            f"(e.g. [RawMeld.parse('R1 R2 R3')]), got {_type(proposed)}"
        )
    for index, meld in enumerate(proposed):
        if not isinstance(meld, Meld | RawMeld):
            raise TypeError(
                f"new table[{index}] must be a Meld or RawMeld "
                f"(e.g. RawMeld.parse('R1 R2 R3')), got {_type(meld)}"
            )
