"""Routing the tiles that move: from their sources (old melds, the rack) to the melds of the
new table, in few (source, destination) batches. Each batch becomes one step."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rummikub.tiles.explain.results import Source
from rummikub.tiles.rules import Rules
from rummikub.tiles.tile_index import TileIndex
from rummikub.tiles.tiles import Tile


@dataclass
class Flow:
    """Tiles that go from one source to one meld of the new table (by index)."""

    source: Source
    to: int
    tiles: Counter[Tile]


def assign(
    supply: Mapping[Source, Counter[Tile]], demand: Mapping[int, Counter[Tile]], rules: Rules
) -> list[Flow]:
    """Route the tiles that move, in as few (source, destination) batches as greedily found
    (see :func:`route`)."""
    index = TileIndex(rules)
    return route(
        {source: index.sparse(tiles) for source, tiles in supply.items()},
        {j: index.sparse(tiles) for j, tiles in demand.items()},
        index.tiles,
    )


def route(
    supply: Mapping[Source, Mapping[int, int]],
    demand: Mapping[int, Mapping[int, int]],
    tiles: Sequence[Tile],
) -> list[Flow]:
    """Route tiles, counted by their id in ``tiles``, from ``supply`` to ``demand`` (both
    only read), in as few (source, destination) batches as greedily found.

    Each round moves the biggest batch; then one that empties its source or fills its
    destination (fewer batches left over); then the first source and destination. A batch
    only changes when its source or destination does, so only those are recomputed, and a
    pair that shares no tile never will. Conservation makes supply and demand equal per
    tile, so the loop ends with both empty.
    """
    sources = list(supply)
    have = [dict(supply[source]) for source in sources]
    need = {j: dict(needed) for j, needed in demand.items()}
    sizes: dict[tuple[bool, int], int] = {(True, r): sum(h.values()) for r, h in enumerate(have)}
    sizes.update({(False, j): sum(n.values()) for j, n in need.items()})
    # (rank of the source, destination) -> (score, batch), for the pairs that share a tile.
    live: dict[tuple[int, int], tuple[tuple[int, int, int, int], dict[int, int]]] = {}

    def rate(rank: int, j: int) -> None:
        held, needed = have[rank], need[j]
        batch = {t: min(c, needed[t]) for t, c in held.items() if t in needed}
        size = sum(batch.values())
        if size:
            whole = (size == sizes[True, rank]) + (size == sizes[False, j])
            live[rank, j] = ((-size, -whole, rank, j), batch)
        else:
            live.pop((rank, j), None)

    holders: dict[int, list[int]] = {}
    for rank, held in enumerate(have):
        for t in held:
            holders.setdefault(t, []).append(rank)
    for j, needed in need.items():
        for rank in sorted({rank for t in needed for rank in holders.get(t, ())}):
            rate(rank, j)
    flows: list[Flow] = []
    while live:
        rank, j = min(live, key=lambda key: live[key][0])
        batch = live[rank, j][1]
        _remove(have[rank], batch)
        _remove(need[j], batch)
        sizes[True, rank] -= sum(batch.values())
        sizes[False, j] -= sum(batch.values())
        moved = Counter({tiles[t]: count for t, count in batch.items()})
        flows.append(Flow(sources[rank], j, moved))
        for key in [k for k in live if k[0] == rank or k[1] == j]:
            rate(*key)
    return flows


def _remove(counts: dict[int, int], batch: Mapping[int, int]) -> None:
    for t, count in batch.items():
        counts[t] -= count
        if not counts[t]:
            del counts[t]
