"""A draw from a pile whose order may be known: the pool of tiles, the stock of cards.

A game dealt from a seed knows the order of its pool or stock, and a record of it may name
the tile or card drawn or leave it out; at a real table the order is unknown and the one
drawn is named only where the drawer's own rack or hand is known. Both games take the next
one the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["put_on_top", "take_next"]

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


def put_on_top(
    pile: tuple[T, ...],
    hands: tuple[tuple[T, ...] | None, ...],
    drawer: int,
    kind: T,
    sort_key: Callable[[T], Any],
) -> tuple[tuple[T, ...], tuple[tuple[T, ...] | None, ...]] | None:
    """The pile and the hands once ``kind`` is the pile's next one, for measuring a draw's
    luck: swapped with the one on top, from deeper in the pile, else from another hand than
    the drawer's (kept sorted), so that the deal stays uniform given that ``kind`` is drawn.
    None when no copy of ``kind`` is out of the drawer's sight."""
    if pile and pile[0] == kind:
        return pile, hands
    order = list(pile)
    if kind in order:
        at = order.index(kind)
        order[0], order[at] = order[at], order[0]
        return tuple(order), hands
    held = list(hands)
    for seat, hand in enumerate(held):
        if seat == drawer or hand is None or kind not in hand:
            continue
        cards = list(hand)
        cards[cards.index(kind)] = order[0]
        held[seat] = tuple(sorted(cards, key=sort_key))
        order[0] = kind
        return tuple(order), tuple(held)
    return None
