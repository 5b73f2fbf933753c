"""**The** checks of what callers hand the public functions, for both domains and the game
layer: a wrong type raises :class:`TypeError`, a value out of range
:class:`~rummikub.core.errors.ArgumentError` (a :class:`ValueError`), each one line naming
the argument and what it takes, before any work starts and never deep inside.

>>> whole(0, "workers", 1)
Traceback (most recent call last):
...
rummikub.core.errors.ArgumentError: workers=0 must be at least 1
>>> whole(1.5, "samples")
Traceback (most recent call last):
...
TypeError: samples must be a whole number, got float 1.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, TypeVar

from rummikub.core.errors import ArgumentError, unknown

__all__ = ["described", "fraction", "instance", "names", "one_of", "seat", "whole"]

T = TypeVar("T")


def described(value: object) -> str:
    """A value as a message names it: its type and its text, cut short (``str 'x'``)."""
    return f"{type(value).__name__} {_shown(value)}"


def _shown(value: object) -> str:
    # A number of a thousand digits is named by its first ones.
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def whole(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    """A whole-number argument: an int (not a bool) from ``low`` to ``high`` (either
    bound may be open)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, got {described(value)}")
    if low is not None and value < low:
        raise ArgumentError(f"{name}={_shown(value)} must be at least {low}")
    if high is not None and value > high:
        raise ArgumentError(f"{name}={_shown(value)} must be at most {high:,}")
    return value


def fraction(value: Any, name: str) -> float:
    """A number from 0 to 1 (a chance)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number from 0 to 1, got {described(value)}")
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise ArgumentError(f"{name}={value!r} must lie between 0 and 1")
    return float(value)


def instance(value: Any, kind: type[T], name: str, example: str = "") -> T:
    """An argument of type ``kind``; ``example`` shows how to make one (``e.g. ...``)."""
    if not isinstance(value, kind):
        hint = f" (e.g. {example})" if example else ""
        raise TypeError(f"{name} must be a {kind.__name__}{hint}, got {described(value)}")
    return value


def flag(value: Any, name: str) -> bool:
    """A yes-or-no argument: True or False, not a truthy value."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {described(value)}")
    return value


def names(value: Any, name: str) -> tuple[str, ...]:
    """A sequence of names (strings), not one string: ``("best", "casual")``."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise TypeError(
            f"{name} must be a sequence of names such as ('best', 'casual'), got {described(value)}"
        )
    for item in value:
        if not isinstance(item, str):
            raise TypeError(f"{name} must hold names (strings), got {described(item)}")
    return tuple(value)


def seat(value: Any, players: int, name: str = "seat") -> int:
    """A seat of a game of ``players``: a whole number from 0 to ``players`` - 1."""
    found = whole(value, name)
    if not 0 <= found < players:
        raise ArgumentError(f"{name}={found}: the seats of this game are 0-{players - 1}")
    return found


def one_of(value: Any, name: str, known: Sequence[str]) -> str:
    """One of the words ``known`` (a format, an objective), else a message naming them."""
    if not isinstance(value, str) or value not in known:
        raise ArgumentError(unknown(name, value, known))
    return value
