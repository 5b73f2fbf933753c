"""Checks of what callers hand the public functions, so that a wrong argument fails at
once with a clear :class:`TypeError`, :class:`ValueError` or
:class:`~rummikub.core.errors.RummikubError`, never deep inside the solver or the checker."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rummikub.core.arguments import described as _type
from rummikub.core.arguments import whole
from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.position import Move, Position
from rummikub.tiles.tiles import Tile

OBJECTIVES = ("value", "tiles")


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
    (:class:`Meld` or :class:`RawMeld`), every tile a :class:`Tile`; a broken old table is
    judged, not refused."""
    if not isinstance(position, Position):
        raise TypeError(f"check() takes a Position, got {_type(position)}")
    position_tiles(position, "check()")
    new_table(proposed, "check()")


def explainable(position: Any, move: Any) -> None:
    """The arguments of :func:`rummikub.explain`: a position and a :class:`Move` or the new
    table as a sequence of melds."""
    if not isinstance(position, Position):
        raise TypeError(f"explain() takes a Position, got {_type(position)}")
    position_tiles(position, "explain()")
    if isinstance(move, Move):
        new_table(move.table, "explain()", raw=False)
    else:
        new_table(move, "explain()", "a Move or ", raw=False)


def new_table(proposed: Any, function: str, also: str = "", *, raw: bool = True) -> None:
    """**The** check of a new table handed to a public function: a sequence of
    :class:`Meld` (or, where ``raw``, :class:`RawMeld`), each holding :class:`Tile` values."""
    if isinstance(proposed, str) or not isinstance(proposed, Sequence):
        raise TypeError(
            f"{function} takes {also}the new table as a list of melds "
            f"(e.g. [RawMeld.parse('R1 R2 R3')]), got {_type(proposed)}"
        )
    for index, meld in enumerate(proposed):
        if raw and not isinstance(meld, Meld | RawMeld):
            raise TypeError(
                f"new table[{index}] must be a Meld or RawMeld "
                f"(e.g. RawMeld.parse('R1 R2 R3')), got {_type(meld)}"
            )
        if not raw and not isinstance(meld, Meld):
            raise TypeError(
                f"new table[{index}] must be a Meld (e.g. Meld.parse('R1 R2 R3')), "
                f"got {_type(meld)}"
            )
        _tiles(meld.tiles, f"new table[{index}]")


def position_tiles(position: Position, function: str) -> None:
    """A position's fields of the right types (its rack and table tiles :class:`Tile`
    values, its rules a :class:`Rules`), whether or not its melds are valid."""
    from rummikub.tiles.rules import rules_argument

    rules_argument(position.rules)
    if not isinstance(position.rack, tuple | list):
        raise TypeError(f"{function}: Position.rack must be a tuple, got {_type(position.rack)}")
    _tiles(position.rack, "Position.rack")
    if not isinstance(position.table, tuple | list):
        raise TypeError(f"{function}: Position.table must be a tuple, got {_type(position.table)}")
    for index, meld in enumerate(position.table):
        if not isinstance(meld, Meld | RawMeld):
            raise TypeError(f"Position.table[{index}] must be a Meld, got {_type(meld)}")
        _tiles(meld.tiles, f"Position.table[{index}]")


def _tiles(tiles: Any, where: str) -> None:
    if not isinstance(tiles, tuple | list):
        raise TypeError(f"{where}: tiles must be a tuple of Tile, got {_type(tiles)}")
    for tile in tiles:
        if not isinstance(tile, Tile):
            raise TypeError(
                f"{where} holds {_type(tile)}, which is not a Tile (e.g. Tile.parse('R7'), "
                "or RawMeld.parse('R1 R2 R3') for a meld)"
            )


def count(value: Any, name: str, minimum: int = 1, maximum: int | None = None) -> int:
    """A whole-number argument (``top``, ``k``) checked: an int (not a bool) of at least
    ``minimum`` (and at most ``maximum``)."""
    return whole(value, name, minimum, maximum)


def flag(value: Any, name: str) -> bool:
    """A yes-or-no argument checked: True or False."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {_type(value)}")
    return value
