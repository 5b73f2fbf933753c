"""Positions (rule set, table, rack, opened) and moves (new table, played tiles)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rummikub.errors import PositionError
from rummikub.melds import Meld
from rummikub.rules import STANDARD, Rules
from rummikub.tiles import Tile


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
        table: str | Sequence[str] = (),
        opened: bool = True,
        rules: Rules = STANDARD,
    ) -> Position:
        """Build a position from notation, checking melds and tile counts.

        The quick notation is welcome (:mod:`rummikub.notation`): ranges (``R1-5``), group
        shorthands (``KRB7``), and a ``table`` given as one string of melds separated by
        ``|`` or ``;``.

        >>> len(Position.parse(rack="R4 KO7", table="R1-3 | KRB7").table)
        2
        """
        from rummikub.notation import parse_meld, parse_melds, parse_rack

        words = [rack] if isinstance(rack, str) else list(rack)
        rack_tiles = tuple(t for word in words for t in parse_rack(word, rules, box=False))
        raw = (
            parse_melds(table, rules)
            if isinstance(table, str)
            else tuple(parse_meld(text, rules) for text in table)
        )
        melds = tuple(meld.to_meld(rules) for meld in raw)
        position = cls(melds, rack_tiles, opened, rules)
        position.validate()
        return position

    @classmethod
    def from_notation(cls, text: str, rules: Rules = STANDARD) -> Position:
        """Read a position in one line, ``table / rack / opened`` (:mod:`rummikub.notation`).

        >>> Position.from_notation("R1-3 | KRB7 / R4 K7 O7").rack[0]
        Tile.parse('R4')
        """
        from rummikub.notation import parse_position

        return parse_position(text, rules)

    def to_notation(self) -> str:
        """This position in one line; :meth:`from_notation` (with the same rules) reads it
        back to an equal position.

        >>> Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"]).to_notation()
        'R1-3 | KRB7 / R4 K7 O7'
        """
        from rummikub.notation import format_position

        return format_position(self)

    def _repr_svg_(self) -> str:
        """The table and the rack as a picture (notebooks show it inline)."""
        from rummikub.render.svg import position_svg

        return position_svg(self)

    def _repr_html_(self) -> str:
        from rummikub.render.svg import html

        return html(self._repr_svg_(), self.to_notation())

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
            else:
                found += too_often(tile, counts[tile], self.rules)
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


def too_often(tile: Tile, count: int, rules: Rules) -> list[str]:
    """Why ``count`` copies of ``tile`` in table and rack cannot occur: the message if the
    box holds fewer (for positions and puzzle files alike), else nothing.

    >>> too_often(Tile.parse("R1"), 3, STANDARD)
    ['R1 is used 3 times in table and rack, but the rule set has 2']
    """
    copies = rules.copies_of(tile)
    if count <= copies:
        return []
    return [f"{tile} is used {count} times in table and rack, but the rule set has {copies}"]
