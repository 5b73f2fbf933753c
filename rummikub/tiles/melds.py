"""Melds (runs and groups), what their jokers stand for, and their notation.

Notation (RULES.md): a run is written in ascending order with each joker at the position
it fills (``R5 J R7``); a joker-free run may be written in any order and is read sorted.
A meld that reads both as a run and as a group is a run unless written ``group: ...``;
one whose written order is no valid run is read as a group.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rummikub.core.errors import MeldError, NotationError
from rummikub.tiles.rules import STANDARD, Rules, rules_argument
from rummikub.tiles.tiles import JOKER, Tile, format_tiles, parse_tiles

Kind = Literal["run", "group"]
KINDS: tuple[Kind, ...] = ("run", "group")
#: What makes two melds the same meld (:meth:`Meld.identity`).
Identity = tuple[Kind, tuple[tuple[str, int], ...]]
_PREFIX = re.compile(r"^\s*(run|group)\s*:", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class RawMeld:
    """Tiles as written, with the kind if the text gave one, before they are judged."""

    tiles: tuple[Tile, ...]
    kind: Kind | None = None

    @classmethod
    def parse(cls, text: str) -> RawMeld:
        """Read ``"R5 J R7"`` or ``"group: R5 J J"`` (notation only, no validity)."""
        if not isinstance(text, str):
            raise TypeError(
                f"a meld is written as a string such as 'R1 R2 R3', got {type(text).__name__}"
            )
        kind: Kind | None = None
        match = _PREFIX.match(text)
        if match:
            kind = "run" if match.group(1).lower() == "run" else "group"
            text = text[match.end() :]
        tiles = parse_tiles(text)
        if not tiles:
            raise NotationError("empty meld: expected tiles such as 'R1 R2 R3'")
        return cls(tiles, kind)

    def to_meld(self, rules: Rules = STANDARD) -> Meld:
        """Judge the tiles as a meld under ``rules``; raises :class:`MeldError` with the reason."""
        return Meld.of(self.tiles, kind=self.kind, rules=rules)

    def __str__(self) -> str:
        body = format_tiles(self.tiles)
        return f"{self.kind}: {body}" if self.kind else body


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid run or group. Build it with :meth:`of` or :meth:`parse`, which check it.

    The constructor itself trusts its arguments (the solver builds melds it knows valid).
    """

    kind: Kind
    tiles: tuple[Tile, ...]

    # -- construction ---------------------------------------------------------

    @classmethod
    def parse(cls, text: str, rules: Rules = STANDARD) -> Meld:
        """Read a meld in notation and check it.

        >>> str(Meld.parse("r7 r5 r6"))
        'R5 R6 R7'
        >>> Meld.parse("B9 B10 J").represents()[2]
        Tile.parse('B11')
        >>> str(Meld.parse("group: R5 J J"))
        'group: R5 J J'
        """
        return RawMeld.parse(text).to_meld(rules_argument(rules))

    @classmethod
    def of(
        cls, tiles: Sequence[Tile], *, kind: Kind | None = None, rules: Rules = STANDARD
    ) -> Meld:
        """Check ``tiles`` as a meld (of ``kind`` if given) and return it."""
        rules_argument(rules)
        tiles = tuple(tiles)
        for tile in tiles:
            problem = rules.tile_problem(tile)
            if problem:
                raise MeldError(f"tile {tile}: {problem}")
        general = _general_problem(tiles)
        if general:
            raise MeldError(general)
        if kind != "group":
            run = _read_run(tiles, rules)
            if isinstance(run, Meld):
                return run
        if kind != "run":
            group = _read_group(tiles, rules)
            if isinstance(group, Meld):
                return group
        if kind == "run":
            raise MeldError(f"not a run ({run})")
        if kind == "group":
            raise MeldError(f"not a group ({group})")
        numbers = {t.number for t in tiles if not t.is_joker}
        if len(numbers) == 1:
            raise MeldError(f"not a group ({group}) and not a run ({run})")
        raise MeldError(f"not a run ({run}) and not a group")

    # -- what the meld is -------------------------------------------------------

    @property
    def jokers(self) -> int:
        return sum(1 for t in self.tiles if t.is_joker)

    @property
    def numbered(self) -> tuple[Tile, ...]:
        return tuple(t for t in self.tiles if not t.is_joker)

    @property
    def color(self) -> str:
        """The color of a run."""
        return self.numbered[0].color

    @property
    def number(self) -> int:
        """The number of a group."""
        return self.numbered[0].number

    @property
    def start(self) -> int:
        """The number the first position of a run stands for."""
        for index, tile in enumerate(self.tiles):
            if not tile.is_joker:
                return tile.number - index
        raise AssertionError("a meld holds a numbered tile")

    @property
    def end(self) -> int:
        """The number the last position of a run stands for."""
        return self.start + len(self.tiles) - 1

    def represents(self) -> tuple[Tile | None, ...]:
        """The numbered tile each position stands for.

        In a run every joker stands for one tile; in a group a joker stands for any missing
        color, shown as None (see :meth:`missing_colors`).
        """
        if self.kind == "run":
            return tuple(Tile(self.color, self.start + i) for i in range(len(self.tiles)))
        return tuple(None if t.is_joker else t for t in self.tiles)

    def joker_tiles(self) -> tuple[Tile, ...]:
        """For a run, the tiles its jokers stand for, in order."""
        assert self.kind == "run"
        pairs = zip(self.tiles, self.represents(), strict=True)
        return tuple(r for t, r in pairs if t.is_joker and r)

    def missing_colors(self, rules: Rules = STANDARD) -> tuple[str, ...]:
        """For a group, the colors of the box missing from its numbered tiles."""
        assert self.kind == "group"
        present = {t.color for t in self.numbered}
        return tuple(c for c in rules.colors if c not in present)

    @property
    def value(self) -> int:
        """The sum of the numbers its tiles stand for (jokers included)."""
        if self.kind == "group":
            return self.number * len(self.tiles)
        return sum(range(self.start, self.end + 1))

    def identity(self) -> Identity:
        """What makes two melds *the same meld* as laid: its kind and a run's tiles in order
        (each joker where it stood), a group's in any order (sorted here). This is "left
        exactly as it was" (RULES.md, tie-break 3); a hashable, orderable key.

        >>> Meld.parse("group: B7 J K7").identity()
        ('group', (('B', 7), ('J', 0), ('K', 7)))
        """
        cells = tuple((t.color, t.number) for t in self.tiles)
        return (self.kind, cells if self.kind == "run" else tuple(sorted(cells)))

    def same_as(self, other: Meld) -> bool:
        """The same meld as laid (see :meth:`identity`).

        >>> Meld.parse("K7 R7 B7").same_as(Meld.parse("B7 K7 R7"))
        True
        >>> Meld.parse("R5 R6 J").same_as(Meld.parse("J R5 R6"))
        False
        """
        return self.identity() == other.identity()

    def __str__(self) -> str:
        body = format_tiles(self.tiles)
        # A group with a single numbered tile would read as a run without its prefix.
        if self.kind == "group" and len(self.numbered) == 1:
            return f"group: {body}"
        return body

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"


def changed_melds(old: Sequence[Meld], new: Sequence[Meld]) -> list[bool]:
    """For each meld of the ``new`` table, whether it is new or changed.

    A meld is unchanged if it is an old meld exactly as it was laid (:meth:`Meld.same_as`:
    a run with its jokers where they stood, a group in any order); each old meld vouches for
    one new meld only (two equal old melds for two equal new ones).

    >>> old = [Meld.parse("R1 R2 R3"), Meld.parse("K7 R7 B7")]
    >>> changed_melds(old, [Meld.parse("R1 R2 R3 R4"), Meld.parse("B7 K7 R7")])
    [True, False]
    """
    unused = Counter(meld.identity() for meld in old)
    marks: list[bool] = []
    for meld in new:
        identity = meld.identity()
        marks.append(not unused[identity])
        if unused[identity]:
            unused[identity] -= 1
    return marks


def laid_run(tiles: Sequence[Tile], rules: Rules = STANDARD) -> Meld | None:
    """The run ``tiles`` make in some order, as a player lays it, or None if they make none.

    The jokers first fill the gaps; spare jokers then go at the top of the run while there
    is room, and below it after that (``K5 K6 J``, not ``J K5 K6``; ``J K12 K13``).

    >>> laid_run(parse_tiles("J K6 K5"))
    Meld.parse('K5 K6 J')
    >>> laid_run(parse_tiles("K13 J J K11"))
    Meld.parse('J K11 J K13')
    >>> laid_run(parse_tiles("K5 R6 J")) is None
    True
    """
    numbered = [t for t in tiles if not t.is_joker]
    jokers = len(tiles) - len(numbered)
    if len(tiles) < 3 or not numbered:
        return None
    color = numbered[0].color
    numbers = sorted(t.number for t in numbered)
    if any(t.color != color for t in numbered) or len(set(numbers)) != len(numbers):
        return None
    low, high = numbers[0], numbers[-1]
    spare = jokers - (high - low + 1 - len(numbers))
    if spare < 0:
        return None
    above = max(0, min(spare, rules.numbers - high))
    start = low - (spare - above)
    if start < 1:
        return None
    cells = [JOKER] * (high + above - start + 1)
    for number in numbers:
        cells[number - start] = Tile(color, number)
    return Meld("run", tuple(cells))


def _general_problem(tiles: tuple[Tile, ...]) -> str | None:
    if len(tiles) < 3:
        return f"too short: a meld needs at least 3 tiles, {len(tiles)} given"
    if all(t.is_joker for t in tiles):
        return "a meld needs at least one numbered tile"
    return None


def _read_run(tiles: tuple[Tile, ...], rules: Rules) -> Meld | str:
    """The run these tiles form in written order (sorted if joker-free), or why not."""
    numbered = [t for t in tiles if not t.is_joker]
    colors = {t.color for t in numbered}
    if len(colors) > 1:
        return "mixed colors"
    seen: set[int] = set()
    for tile in numbered:
        if tile.number in seen:
            return f"{tile} twice"
        seen.add(tile.number)
    if len(numbered) == len(tiles):
        tiles = tuple(sorted(tiles, key=lambda t: t.number))
        for low, high in itertools.pairwise(tiles):
            if high.number != low.number + 1:
                if high.number == low.number + 2:
                    return f"no {low.number + 1}"
                return f"a gap between {low} and {high}"
    else:
        first = next(i for i, t in enumerate(tiles) if not t.is_joker)
        start = tiles[first].number - first
        for index, tile in enumerate(tiles):
            if not tile.is_joker and tile.number != start + index:
                return "jokers leave no room or tiles not in ascending order"
        if start < 1:
            return f"a joker would stand below {tiles[first].color}1"
        if start + len(tiles) - 1 > rules.numbers:
            return f"a joker would stand above {tiles[first].color}{rules.numbers}"
    return Meld("run", tiles)


def _read_group(tiles: tuple[Tile, ...], rules: Rules) -> Meld | str:
    """The group these tiles form, or why not."""
    numbered = [t for t in tiles if not t.is_joker]
    if len({t.number for t in numbered}) > 1:
        return "numbers differ"
    seen: set[str] = set()
    for tile in numbered:
        if tile.color in seen:
            return f"{tile} twice"
        seen.add(tile.color)
    if len(tiles) > rules.max_group:
        return f"{len(tiles)} tiles, but a group has at most {rules.max_group}"
    return Meld("group", tiles)
