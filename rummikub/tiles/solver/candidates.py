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
from functools import lru_cache

from rummikub.core import deadline
from rummikub.tiles.melds import Meld
from rummikub.tiles.rules import Rules
from rummikub.tiles.tile_index import Counts as Counts
from rummikub.tiles.tile_index import Needs as Needs
from rummikub.tiles.tile_index import TileIndex as TileIndex
from rummikub.tiles.tiles import JOKER, Tile


class Candidates:
    """All candidate melds of a rule set (built once per rule set and not changed after).

    A plain class, not a dataclass: every ``rummikub solve`` process makes the class on
    import, and a dataclass takes far longer to make (benchmarks/RESULTS.md, "Speed
    choices", *Records*)."""

    __slots__ = ("by_first", "index", "lookup", "melds", "needs", "values")

    def __init__(
        self,
        index: TileIndex,
        melds: tuple[Meld, ...],
        needs: tuple[Needs, ...],
        values: tuple[int, ...],
        lookup: dict[Needs, int],
        by_first: dict[int, tuple[int, ...]],
    ) -> None:
        self.index = index
        self.melds = melds
        #: ``needs[i]``: the tiles of meld ``i`` as (tile index, count) pairs.
        self.needs = needs
        #: the value of each meld, jokers at the number they stand for.
        self.values = values
        #: ``lookup[needs]``: the row of the candidate with those tiles.
        self.lookup = lookup
        #: the rows by their first tile (the lowest tile index they hold), so that a
        #: position looks only at candidates whose first tile it has (a small position
        #: skips most).
        self.by_first = by_first

    def fitting(self, limit: Counts) -> list[tuple[int, int]]:
        """(row, copies that fit) for each candidate whose tiles are all within ``limit``."""
        found = []
        for first, rows in self.by_first.items():
            if not limit[first]:
                continue
            deadline.check()  # an 8-color box has ~12,000 candidate groups
            for row in rows:
                upper = min(limit[t] // n for t, n in self.needs[row])
                if upper:
                    found.append((row, upper))
        return found


def max_run_length(rules: Rules) -> int:
    """The longest run the model needs (see the module docstring)."""
    return min(rules.numbers, 5 + max(0, rules.jokers - 2))


def meld_key(meld: Meld, index: TileIndex) -> tuple[str, Needs]:
    """Identify a meld by its kind and its tiles as a multiset."""
    return (meld.kind, index.needs(meld.tiles))


def run_readings(rules: Rules, max_length: int) -> list[Meld]:
    """Every run of 3..max_length tiles, with jokers at any positions (at most ``jokers``)."""
    found: list[Meld] = []
    for color in rules.colors:
        for length in range(3, max_length + 1):
            deadline.check()
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
        deadline.check()
        for size in range(3, max_size + 1):
            for k in range(min(rules.jokers, size - 1) + 1):
                for chosen in itertools.combinations(colors, size - k):
                    tiles = tuple(Tile(c, number) for c in chosen) + (JOKER,) * k
                    found.append(Meld("group", tiles))
    return found


@lru_cache(maxsize=16)
def candidates(rules: Rules) -> Candidates:
    """The candidate runs and groups of ``rules`` (cached: built once per rule set)."""
    return _collect(rules, run_readings(rules, max_run_length(rules)) + _groups(rules))


@lru_cache(maxsize=16)
def group_candidates(rules: Rules) -> Candidates:
    """The candidate groups alone, for a model that lays runs as a flow (cached)."""
    return _collect(rules, _groups(rules))


@lru_cache(maxsize=16)
def run_candidates(rules: Rules) -> Candidates:
    """The candidate runs alone, for a model that counts its free groups but cannot lay
    runs as a flow (cached)."""
    return _collect(rules, run_readings(rules, max_run_length(rules)))


def no_candidates(rules: Rules) -> Candidates:
    """No candidate melds: for a model that counts its free groups (:mod:`.group_counts`)."""
    return _collect(rules, [])


def _groups(rules: Rules) -> list[Meld]:
    return group_readings(rules, min(5, rules.max_group))


def _collect(rules: Rules, readings: list[Meld]) -> Candidates:
    index = TileIndex(rules)
    best: dict[Needs, Meld] = {}
    for i, meld in enumerate(readings):
        if i % 256 == 0:
            deadline.check()  # an 8-color box has ~47,000 readings (nothing cached if cut)
        key = index.needs(meld.tiles)
        kept = best.get(key)
        if kept is None or meld.value > kept.value:
            best[key] = meld
    keys = tuple(best)
    melds = tuple(best[k] for k in keys)
    return Candidates(
        index=index,
        melds=melds,
        needs=keys,
        values=tuple(m.value for m in melds),
        lookup={k: i for i, k in enumerate(keys)},
        by_first=_by_first(keys),
    )


def _by_first(keys: tuple[Needs, ...]) -> dict[int, tuple[int, ...]]:
    rows: dict[int, list[int]] = {}
    for row, needs in enumerate(keys):
        rows.setdefault(needs[0][0], []).append(row)
    return {first: tuple(found) for first, found in sorted(rows.items())}
