"""Candidate melds: every meld the model may lay, as rows of a tile-count matrix.

Runs longer than 5 split into runs of 3-5 (and groups longer than 5 into groups of 3-5)
without changing which tiles are on the table, so those lengths suffice — except that a
part made only of jokers is no meld: with 3 or 4 jokers a run of 6 or 7 such as
``R1 R2 R3 J J J J`` cannot be split, so the run limit grows by one per joker above 2.

Melds with the same multiset of tiles are one candidate (``R5 J J`` as a run and as a group
lay the same tiles); it keeps the reading of its jokers that is worth the most, since only
the initial meld ever counts it. An old meld whose kind matters (tie-break 3, "left as it
was") gets a column of its own in the model when the candidate's kind differs.
The table depends only on the rule set, so it is built once per rule set and cached.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from rummikub.melds import Meld
from rummikub.rules import Rules
from rummikub.tiles import JOKER, Tile

IntArray = npt.NDArray[np.int64]


class TileIndex:
    """Dense indices for tile types: numbered tiles by color then number, the joker last."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.size = rules.numbers * len(rules.colors) + 1
        self.joker = self.size - 1
        self.tiles: tuple[Tile, ...] = (*rules.tile_types(), JOKER)
        self._index = {tile: i for i, tile in enumerate(self.tiles)}

    def __getitem__(self, tile: Tile) -> int:
        return self._index[tile]

    def counts(self, tiles: object) -> IntArray:
        """A count vector for an iterable of tiles."""
        vector = np.zeros(self.size, dtype=np.int64)
        for tile in tiles:  # type: ignore[attr-defined]
            vector[self._index[tile]] += 1
        return vector

    def values(self) -> IntArray:
        """What each tile type is worth when played (joker: ``joker_value``)."""
        return np.array([self.rules.tile_value(t) for t in self.tiles], dtype=np.int64)


@dataclass(frozen=True, slots=True)
class Candidates:
    """All candidate melds of a rule set."""

    melds: tuple[Meld, ...]
    #: ``counts[i, t]``: how many tiles of type ``t`` meld ``i`` holds.
    counts: npt.NDArray[np.int8]
    #: the value of each meld, jokers at the number they stand for.
    values: IntArray
    #: ``lookup[multiset of tile indices]``: the row of that candidate.
    lookup: dict[tuple[int, ...], int]


def max_run_length(rules: Rules) -> int:
    """The longest run the model needs (see the module docstring)."""
    return min(rules.numbers, 5 + max(0, rules.jokers - 2))


def meld_key(meld: Meld, index: TileIndex) -> tuple[str, tuple[int, ...]]:
    """Identify a meld by its kind and its tiles as a multiset."""
    return (meld.kind, tuple(sorted(index[t] for t in meld.tiles)))


def run_readings(rules: Rules, max_length: int) -> list[Meld]:
    """Every run of 3..max_length tiles, with jokers at any positions (at most ``jokers``)."""
    found: list[Meld] = []
    for color in rules.colors:
        for length in range(3, max_length + 1):
            for start in range(1, rules.numbers - length + 2):
                tiles = [Tile(color, start + i) for i in range(length)]
                for k in range(min(rules.jokers, length - 1) + 1):
                    for places in itertools.combinations(range(length), k):
                        laid = tuple(JOKER if i in places else t for i, t in enumerate(tiles))
                        found.append(Meld("run", laid))
    return found


def group_readings(rules: Rules, max_size: int) -> list[Meld]:
    """Every group of 3..max_size tiles (colors in rule-set order, jokers last)."""
    found: list[Meld] = []
    colors = rules.colors
    for number in range(1, rules.numbers + 1):
        for size in range(3, max_size + 1):
            for k in range(min(rules.jokers, size - 1) + 1):
                for chosen in itertools.combinations(colors, size - k):
                    tiles = tuple(Tile(c, number) for c in chosen) + (JOKER,) * k
                    found.append(Meld("group", tiles))
    return found


@lru_cache(maxsize=16)
def candidates(rules: Rules) -> Candidates:
    """The candidate melds of ``rules`` (cached: built once per rule set)."""
    index = TileIndex(rules)
    best: dict[tuple[int, ...], Meld] = {}
    readings = run_readings(rules, max_run_length(rules)) + group_readings(
        rules, min(5, rules.max_group)
    )
    for meld in readings:
        key = meld_key(meld, index)[1]
        kept = best.get(key)
        if kept is None or meld.value > kept.value:
            best[key] = meld
    keys = tuple(best)
    melds = tuple(best[k] for k in keys)
    # int8 keeps the 26x8x4 table (~32,000 melds) small; counts never exceed 7.
    counts = np.zeros((len(melds), index.size), dtype=np.int8)
    for row, key in enumerate(keys):
        for t in key:
            counts[row, t] += 1
    values = np.array([m.value for m in melds], dtype=np.int64)
    lookup = {k: i for i, k in enumerate(keys)}
    return Candidates(melds, counts, values, lookup)
