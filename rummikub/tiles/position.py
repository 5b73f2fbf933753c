"""Positions (rule set, table, rack, opened) and moves (new table, played tiles)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain

from rummikub.core.errors import MeldError, PositionError
from rummikub.tiles.melds import Meld
from rummikub.tiles.rules import STANDARD, Rules, rules_argument
from rummikub.tiles.tiles import JOKER, Tile

# The quick pass of Position.check_built and what it remembers: every solve checks its
# position, and the full check costs a few percent of a solve (benchmarks/RESULTS.md,
# "Speed choices", *Position check*).

#: Positions :meth:`Position.check_built` found sound (cleared when full).
_SOUND: set[Position] = set()
_SOUND_MAX = 512
#: Per rule set, the melds of positions that passed the full check (each valid under the
#: rules, every tile in the box), for the quick pass of :meth:`Position.check_built`.
_SOUND_MELDS: dict[Rules, set[Meld]] = {}
_SOUND_MELDS_MAX = 20_000


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

        The quick notation is welcome (:mod:`rummikub.tiles.notation`): ranges (``R1-5``), group
        shorthands (``KRB7``), and a ``table`` given as one string of melds separated by
        ``|`` or ``;``. Wrong types raise :class:`TypeError`, bad notation
        :class:`NotationError`, a position the rule set's box cannot hold
        :class:`PositionError`.

        >>> len(Position.parse(rack="R4 KO7", table="R1-3 | KRB7").table)
        2
        """
        from rummikub.tiles.notation import parse_meld, parse_melds, parse_rack

        rules_argument(rules)
        if not isinstance(opened, bool):
            raise TypeError(f"opened must be True or False, got {_type(opened)}")
        if not isinstance(rack, str | Sequence):
            raise TypeError(f"rack must be a string of tiles or a list of them, got {_type(rack)}")
        words = [rack] if isinstance(rack, str) else list(rack)
        for index, word in enumerate(words):
            if not isinstance(word, str):
                raise TypeError(f"rack[{index}]: expected a tile string, got {_type(word)}")
        if not isinstance(table, str | Sequence):
            raise TypeError(
                f"table must be melds such as ['R1 R2 R3'] or 'R1-3 | KRB7', got {_type(table)}"
            )
        if not isinstance(table, str):
            for index, text in enumerate(table):
                if not isinstance(text, str):
                    raise TypeError(f"table[{index}]: expected a meld string, got {_type(text)}")
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
        """Read a position in one line, ``table / rack / opened`` (:mod:`rummikub.tiles.notation`).

        >>> Position.from_notation("R1-3 | KRB7 / R4 K7 O7").rack[0]
        Tile.parse('R4')
        """
        from rummikub.tiles.notation import parse_position

        return parse_position(text, rules)

    def to_notation(self) -> str:
        """This position in one line; :meth:`from_notation` (with the same rules) reads it
        back to an equal position.

        >>> Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"]).to_notation()
        'R1-3 | KRB7 / R4 K7 O7'
        """
        from rummikub.tiles.notation import format_position

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

    def check_built(self) -> None:
        """For a position built field by field (not by :meth:`parse`): raise
        :class:`TypeError` for a field of the wrong type and :class:`PositionError` for
        melds that are not valid or tiles the box does not hold.

        A position found sound is remembered (a few hundred), so that solving one
        position many times (top-k, outs) checks it once.
        """
        try:
            if self in _SOUND:
                return
        except TypeError:  # a field that cannot even be hashed: the checks below say which
            pass
        if not self._looks_sound():
            self._check_built()
        _remember_sound(self)

    def _looks_sound(self) -> bool:
        """Whether :meth:`_check_built` would pass, told quickly (the module's head says
        why): every field of its type, every meld valid (each meld checked once per rule
        set, then remembered), every tile in the box and used no more often than the box
        holds. False: do the full check, which says what is wrong, if anything."""
        rules, rack, table = self.rules, self.rack, self.table
        if type(rules) is not Rules or type(self.opened) is not bool:
            return False
        if type(rack) is not tuple or type(table) is not tuple:
            return False
        sound = _SOUND_MELDS.get(rules)
        if sound is None:
            sound = _SOUND_MELDS[rules] = set()
        elif len(sound) >= _SOUND_MELDS_MAX:
            sound.clear()
        try:
            for meld in table:
                if meld not in sound:
                    if not _valid_meld(meld, rules):
                        return False
                    sound.add(meld)
            # Meld equality would let a tile numbered 1.0 pass for 1: the types, exactly.
            tiles = [*rack, *chain.from_iterable(meld.tiles for meld in table)]
            if not all(
                type(t) is Tile and type(t.color) is str and type(t.number) is int for t in tiles
            ):
                return False
            counts = Counter(tiles)
            if not counts.keys() <= _box(rules):
                return False
        except TypeError:  # a field that cannot be hashed: the full check says which
            return False
        jokers = counts.pop(JOKER, 0)
        return jokers <= rules.jokers and all(n <= rules.copies for n in counts.values())

    def _check_built(self) -> None:
        if not isinstance(self.rules, Rules):
            raise TypeError(f"Position.rules must be a Rules, got {_type(self.rules)}")
        if not isinstance(self.opened, bool):
            raise TypeError(f"Position.opened must be True or False, got {_type(self.opened)}")
        for name, items in (("rack", self.rack), ("table", self.table)):
            if not isinstance(items, tuple):
                raise TypeError(f"Position.{name} must be a tuple, got {_type(items)}")
        for index, tile in enumerate(self.rack):
            if not _is_tile(tile):
                raise TypeError(f"Position.rack[{index}] must be a Tile, got {_type(tile)}")
        found: list[str] = []
        for index, meld in enumerate(self.table):
            if not isinstance(meld, Meld) or not isinstance(meld.tiles, tuple):
                raise TypeError(f"Position.table[{index}] must be a Meld, got {_type(meld)}")
            for tile in meld.tiles:
                if not _is_tile(tile):
                    raise TypeError(
                        f"Position.table[{index}] holds {_type(tile)}, which is not a Tile"
                    )
            if meld.kind not in ("run", "group"):
                found.append(f"table[{index}] {meld}: kind {meld.kind!r} is not run or group")
                continue
            try:
                checked = Meld.of(meld.tiles, kind=meld.kind, rules=self.rules)
            except MeldError as error:
                found.append(f'table[{index}] "{meld}": {error}')
                continue
            if meld.kind == "run" and checked.tiles != meld.tiles:
                # Meld.of reads a joker-free run sorted; the solver needs the laid order.
                found.append(f'table[{index}] "{meld}": a run is laid in ascending order')
        found += self.problems()
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


def _remember_sound(position: Position) -> None:
    if len(_SOUND) >= _SOUND_MAX:
        _SOUND.clear()
    _SOUND.add(position)


def _valid_meld(meld: Meld, rules: Rules) -> bool:
    """Whether the full check (:meth:`Position._check_built`) passes ``meld``, its tiles'
    types aside."""
    if type(meld) is not Meld or type(meld.tiles) is not tuple:
        return False
    if meld.kind not in ("run", "group"):
        return False
    try:
        checked = Meld.of(meld.tiles, kind=meld.kind, rules=rules)
    except MeldError:
        return False
    return checked.tiles == meld.tiles


@lru_cache(maxsize=16)
def _box(rules: Rules) -> frozenset[Tile]:
    """Every tile type of the box, the joker included if it holds any (cached: building
    it would cost more than the rest of the quick pass; benchmarks/RESULTS.md, "Speed
    choices", *Position check*)."""
    return frozenset([*rules.tile_types(), *([JOKER] if rules.jokers else [])])


def vouch_sound(position: Position) -> None:
    """Remember ``position`` as sound, so that :meth:`Position.check_built` (which every
    solve calls) passes it at once: for the puzzle reader, which built it from tiles and
    melds it has checked one by one, so that solving a puzzle file does not check its
    position twice (benchmarks/RESULTS.md, "Targets": the earlier lever "A folder solve
    reads each file once"). Tests pin that every position the reader builds passes the
    full check."""
    _remember_sound(position)


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


def _is_tile(value: object) -> bool:
    """A tile as :meth:`Tile.parse` makes them: the joker, or one letter and a number >= 1
    (the box decides which exist)."""
    if not isinstance(value, Tile):
        return False
    color, number = value.color, value.number
    if not isinstance(color, str) or not isinstance(number, int) or isinstance(number, bool):
        return False
    return value == JOKER or (len(color) == 1 and number >= 1)


def _type(value: object) -> str:
    """A value's type and a short look at it, for TypeError messages."""
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"
