"""A draw from a pile whose order may be known: the pool of tiles, the stock of cards.

A game dealt from a seed knows the order of its pool or stock, and a record of it may name
the tile or card drawn or leave it out; at a real table the order is unknown and the one
drawn is named only where the drawer's own rack or hand is known. Both games take the next
one the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["take_next"]

T = TypeVar("T")


def take_next(
    order: tuple[T, ...] | None, given: T | None, refused: Callable[[T, T], Exception]
) -> tuple[T | None, tuple[T, ...] | None]:
    """The one drawn and the pile after: the pile's next one where its ``order`` is known
    (``given``, when named, must be that one, else ``refused(given, next)`` is raised), else
    ``given`` (None where unknown) and the pile still unknown."""
    if order is None:
        return given, None
    if given is not None and given != order[0]:
        raise refused(given, order[0])
    return order[0], order[1:]
