"""Arranging loose tiles as a meld: whether the tiles lying together between two steps form a
valid meld, and how a player would lay them out."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from rummikub.tiles.melds import Meld, laid_run
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import JOKER, Tile, sorted_tiles


# Cached: an explanation's planner asks again and again about the same loose tiles
# (benchmarks/RESULTS.md, "Speed choices", *Arranged melds*).
@lru_cache(maxsize=4096)
def arranged(tiles: tuple[Tile, ...], rules: Rules) -> Meld | None:
    """A valid meld of exactly these tiles in some order (a run if both), or None."""
    return laid_run(tiles, rules) or _as_group(tiles, rules)


def _as_group(tiles: tuple[Tile, ...], rules: Rules) -> Meld | None:
    numbered = [t for t in tiles if not t.is_joker]
    jokers = len(tiles) - len(numbered)
    if len(tiles) < 3 or not numbered:
        return None
    colors = [t.color for t in numbered]
    if len({t.number for t in numbered}) != 1 or len(set(colors)) != len(colors):
        return None
    if len(tiles) > rules.max_group:
        return None
    return Meld("group", (*sorted_tiles(numbered, rules.colors), *[JOKER] * jokers))


def valid(tiles: Counter[Tile], rules: Rules) -> bool:
    """Whether ``tiles`` form a valid meld."""
    return arranged(canonical(tiles), rules) is not None


def canonical(tiles: Counter[Tile]) -> tuple[Tile, ...]:
    """The tiles in one order, whatever the counter's (a key for :func:`arranged`'s cache)."""
    return sorted_tiles(tiles.elements())
