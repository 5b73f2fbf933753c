"""Positions (rule set, table, rack, opened) and moves (new table, played tiles)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rummikub.errors import PositionError
from rummikub.melds import Meld, RawMeld
from rummikub.rules import STANDARD, Rules
from rummikub.tiles import Tile, parse_tiles


@dataclass(frozen=True, slots=True)
class Position:
    """What the player to move faces.

    >>> p = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    >>> str(p.rack_sorted()[0]), len(p.table)
    ('K7', 2)
    """

    table: tuple[Meld, ...]
    rack: tuple[Tile, ...]
    opened: bool = True
    rules: Rules = field(default=STANDARD)

    @classmethod
    def parse(
        cls,
        *,
        rack: str | Sequence[str],
        table: Sequence[str] = (),
        opened: bool = True,
        rules: Rules = STANDARD,
    ) -> Position:
        """Build a position from notation, checking melds and tile counts."""
        rack_tiles = (
            parse_tiles(rack)
            if isinstance(rack, str)
            else tuple(t for word in rack for t in parse_tiles(word))
        )
        melds = tuple(RawMeld.parse(text).to_meld(rules) for text in table)
        position = cls(melds, rack_tiles, opened, rules)
        position.validate()
        return position

    def table_tiles(self) -> Counter[Tile]:
        """The tiles on the table, as a multiset."""
        return Counter(t for meld in self.table for t in meld.tiles)

    def rack_tiles(self) -> Counter[Tile]:
        return Counter(self.rack)

    def rack_sorted(self) -> tuple[Tile, ...]:
        return tuple(sorted(self.rack, key=self.rules.sort_key))

    def problems(self, extra: Iterable[Tile] = ()) -> list[str]:
        """Why this position cannot occur: tiles not in the box or used too often.

        ``extra`` counts more tiles in (e.g. a proposed table's new tiles).
        """
        found: list[str] = []
        counts = self.table_tiles() + self.rack_tiles() + Counter(extra)
        for tile in sorted(counts, key=self.rules.sort_key):
            problem = self.rules.tile_problem(tile)
            if problem:
                found.append(f"tile {tile}: {problem}")
            elif counts[tile] > self.rules.copies_of(tile):
                found.append(
                    f"{tile} is used {counts[tile]} times in table and rack, "
                    f"but the rule set has {self.rules.copies_of(tile)}"
                )
        return found

    def validate(self) -> None:
        """Raise :class:`PositionError` listing every problem, if any."""
        found = self.problems()
        if found:
            raise PositionError(found)


@dataclass(frozen=True, slots=True)
class Move:
    """A new table and the rack tiles played to make it."""

    table: tuple[Meld, ...]
    played: tuple[Tile, ...]

    def value(self, rules: Rules) -> int:
        """The total value of the played tiles (RULES.md, rule 5)."""
        return sum(rules.tile_value(t) for t in self.played)

    @property
    def tiles(self) -> int:
        return len(self.played)
