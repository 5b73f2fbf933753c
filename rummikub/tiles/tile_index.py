"""Dense integer ids for tiles, for code that counts tiles in bulk.

Hashing a :class:`Tile` (a dataclass) is slow next to indexing a list, so the solver's
model and the explanations' routing count tiles by id. The box's tile types come first (by
color then number, as :meth:`Rules.tile_types` lists them), then the joker; a tile outside
the box (possible in a hand-built position) gets the next id when it is first met.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import JOKER, Tile

#: Tile counts by tile id (plain lists: numpy's import alone would cost more than a whole
#: solve of a mid-sized position).
Counts = list[int]
#: A sparse multiset of tile ids: (id, count) pairs, by id.
Needs = tuple[tuple[int, int], ...]


class TileIndex:
    """Ids 0, 1, … for the tile types of a rule set's box (the joker last), then for any
    other tile as it is met.

    >>> index = TileIndex(Rules(numbers=3, colors="KR"))
    >>> index.size, index.joker, index.needs(Tile.parse(t) for t in ("R1", "K2", "R1"))
    (7, 6, ((1, 1), (3, 2)))
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.tiles: list[Tile] = [*rules.tile_types(), JOKER]
        #: How many tile types the box holds, the joker included: the length of a count vector.
        self.size = len(self.tiles)
        self.joker = self.size - 1
        self._ids = {tile: i for i, tile in enumerate(self.tiles)}

    def __getitem__(self, tile: Tile) -> int:
        """The id of a tile of the box (KeyError for any other)."""
        return self._ids[tile]

    def counts(self, tiles: Iterable[Tile]) -> Counts:
        """A count vector of tiles of the box."""
        vector = [0] * self.size
        for tile in tiles:
            vector[self._ids[tile]] += 1
        return vector

    def needs(self, tiles: Iterable[Tile]) -> Needs:
        """Tiles of the box as a sparse multiset of ids."""
        # Counted in a plain dict: a Counter's set-up costs more than counting a meld's
        # few tiles, and the solver asks for every old meld and locked unit of a position
        # (benchmarks/RESULTS.md, "Speed choices", *Counting a meld's tiles*).
        ids = self._ids
        found: dict[int, int] = {}
        for tile in tiles:
            i = ids[tile]
            found[i] = found.get(i, 0) + 1
        return tuple(sorted(found.items()))

    def values(self) -> Counts:
        """What each tile type of the box is worth when played (joker: ``joker_value``)."""
        return [self.rules.tile_value(t) for t in self.tiles[: self.size]]

    def sparse(self, tiles: Counter[Tile]) -> dict[int, int]:
        """The positive counts of ``tiles`` by id, in ``tiles``' order; a tile outside the
        box is given the next free id (see :attr:`tiles`)."""
        found: dict[int, int] = {}
        for tile, count in tiles.items():
            if count > 0:
                if tile not in self._ids:
                    self._ids[tile] = len(self.tiles)
                    self.tiles.append(tile)
                found[self._ids[tile]] = count
        return found
