"""Replaying steps on a table, so that anyone can check an explanation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rummikub.core.errors import ReplayError
from rummikub.tiles.explain.results import Step
from rummikub.tiles.melds import Meld
from rummikub.tiles.tiles import Tile, format_tiles, sorted_tiles


def replay(
    table: Sequence[Meld | Sequence[Tile]],
    steps: Iterable[Step],
    *,
    rack: Iterable[Tile] | None = None,
) -> list[list[Tile]]:
    """Apply ``steps`` to ``table``: the melds afterwards, by number (emptied ones included).

    With ``rack``, tiles taken from the rack are checked against it too. Raises
    :class:`ReplayError` naming the first step that cannot be carried out.

    >>> table = [Meld.parse("R1 R2 R3")]
    >>> step = Step((Tile.parse("R4"),), "rack", 0)
    >>> [str(t) for t in replay(table, [step])[0]]
    ['R1', 'R2', 'R3', 'R4']
    """
    if isinstance(table, str) or not isinstance(table, Sequence):
        raise TypeError(
            f"replay() takes the old table as a list of melds, got {type(table).__name__}"
        )
    if isinstance(steps, str) or not isinstance(steps, Iterable):
        raise TypeError(f"replay() takes the steps as a list of Step, got {type(steps).__name__}")
    steps = list(steps)
    for number, step in enumerate(steps, start=1):
        if not isinstance(step, Step):
            raise TypeError(f"step {number} must be a Step, got {type(step).__name__}")
    melds = [list(m.tiles) if isinstance(m, Meld) else list(m) for m in table]
    left = Counter(rack) if rack is not None else None
    for number, step in enumerate(steps, start=1):
        if not step.tiles:
            raise ReplayError(f"step {number} moves no tiles")
        if isinstance(step.source, int):
            _take(melds, step.source, step.tiles, number)
        elif left is not None:
            missing = Counter(step.tiles) - left
            if missing:
                raise ReplayError(
                    f"step {number} takes {listed(Counter(step.tiles))} from the rack, which "
                    f"holds {listed(left) or 'nothing more'}"
                )
            left -= Counter(step.tiles)
        if isinstance(step.target, int):
            if not 0 <= step.target < len(melds):
                raise ReplayError(
                    f"step {number} puts tiles on meld {step.target}, which is not there"
                )
            if step.target == step.source:
                raise ReplayError(f"step {number} moves tiles from meld {step.target} to itself")
            melds[step.target].extend(step.tiles)
        else:
            melds.append(list(step.tiles))
    return melds


def _take(melds: list[list[Tile]], source: int, tiles: Sequence[Tile], number: int) -> None:
    if not 0 <= source < len(melds):
        raise ReplayError(f"step {number} takes tiles from meld {source}, which is not there")
    missing = Counter(tiles) - Counter(melds[source])
    if missing:
        held = " ".join(str(t) for t in melds[source]) or "nothing"
        raise ReplayError(
            f"step {number} takes {listed(Counter(tiles))} from meld {source}, which holds {held}"
        )
    for tile in tiles:
        melds[source].remove(tile)


def listed(tiles: Counter[Tile]) -> str:
    """Tiles for a message. Sorted without a rule set (colors alphabetically): a message may
    be about tiles that are in no box."""
    return format_tiles(sorted_tiles(tiles.elements()))
