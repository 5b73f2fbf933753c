"""Quick entry: the short notation people type, read into the domain and written back.

On top of single tiles (:mod:`rummikub.tiles.tiles`) and melds (:mod:`rummikub.tiles.melds`):

* a **range** ``R1-5`` (or ``R1-R5``) is the run R1 R2 R3 R4 R5;
* a **group shorthand** ``KRB7`` is K7 R7 B7 (two or more color letters, then the number);
* **several melds** in one string are separated by ``|`` or ``;``:
  ``"R1-3 | KRB7 | B9 B10 J"``;
* a **position** in one line has up to three fields separated by ``/``, like a FEN:
  ``table / rack / opened``. The table is melds separated by ``|``; the rack is tiles (ranges
  and shorthands allowed); the third field, ``opened`` (the default) or ``not-opened``, says
  whether the player has made the initial meld. ``-`` (or nothing) is an empty table or rack.
  ``"R1-3 | KRB7 / R4 K7 O7"`` is a table of two melds and a rack of three tiles.
* ``Y`` is read as orange (``O``) for sets printed yellow, unless the rule set has a color
  ``Y`` of its own.

Every problem names its place: the column (counted from 1) in the text given, and the text
there. :func:`format_position` writes the shortest form, which reads back to the same
position (:meth:`Position.to_notation <rummikub.tiles.position.Position.to_notation>`).

>>> [str(m) for m in parse_melds("R1-3 | krb7; B9 B10 J")]
['R1 R2 R3', 'K7 R7 B7', 'B9 B10 J']
>>> position = parse_position("R1-3 | KRB7 / R4 K7 Y7")
>>> position.to_notation()
'R1-3 | KRB7 / R4 K7 O7'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, NamedTuple

from rummikub.core.errors import MeldError, NotationError, PositionError
from rummikub.tiles.melds import Kind, Meld, RawMeld
from rummikub.tiles.rules import STANDARD, Rules
from rummikub.tiles.tiles import JOKER, WORD, Tile, format_tiles, tile_words

if TYPE_CHECKING:  # position imports this module lazily; the types only are needed here
    from rummikub.tiles.position import Position

__all__ = [
    "FIELDS",
    "NOT_OPENED",
    "OPENED",
    "expand_word",
    "format_meld",
    "format_position",
    "format_table",
    "parse_meld",
    "parse_melds",
    "parse_position",
    "parse_rack",
    "tile_words",
]

#: The third field of a one-line position.
OPENED, NOT_OPENED = "opened", "not-opened"
#: What the fields of a one-line position are, in order.
FIELDS = ("table", "rack", "opened")
#: The letter some sets print orange tiles in.
YELLOW, ORANGE = "Y", "O"

# ASCII digits only: a number written with other digits is no tile (int() would accept it).
_RANGE = re.compile(r"([A-Za-z])([0-9]{1,2})-([A-Za-z]?)([0-9]{1,2})")
_SHORTHAND = re.compile(r"([A-Za-z]{2,})([0-9]{1,2})")
_MELD_SEPARATOR = re.compile(r"[|;]")
_PREFIX = re.compile(r"\s*(run|group)\s*:", re.IGNORECASE)
_EMPTY = "-"


class _Span(NamedTuple):
    """A piece of the text given, and where it starts (0-based). A named tuple: one is made
    for every word read, and it is quicker to make (and to define, at every start-up) than a
    frozen dataclass."""

    text: str
    start: int


def _located(error: NotationError, column: int, text: str) -> NotationError:
    """The same error, saying where: ``column 5 ("Q9"): invalid tile ...``."""
    return type(error)(f"column {column + 1} ({text.strip()!r}): {error}")


def _alias(tile: Tile, rules: Rules) -> Tile:
    """Yellow read as orange, when the rule set has orange and no yellow of its own."""
    if tile.color == YELLOW and YELLOW not in rules.colors and ORANGE in rules.colors:
        return Tile(ORANGE, tile.number)
    return tile


# -- words -----------------------------------------------------------------------------


#: The answers of :func:`expand_word` so far, by word and the rule set's colors (all that
#: an answer depends on): puzzle files repeat the same few hundred words, and reading them
#: is a good part of a folder solve's time per file. Only words that read are kept.
_EXPANDED: dict[tuple[str, str], tuple[Tile, ...]] = {}
_EXPANDED_MAX = 4096


def expand_word(word: str, rules: Rules = STANDARD) -> tuple[Tile, ...]:
    """The tiles one word stands for: a tile, a range or a group shorthand.

    Notation only: whether the tiles exist in the box is for the caller (its rule set decides,
    and a proposed table may hold tiles that do not). ``rules`` decides only what ``Y`` means.

    >>> [str(t) for t in expand_word("b9-11")]
    ['B9', 'B10', 'B11']
    >>> [str(t) for t in expand_word("KRBY7")]
    ['K7', 'R7', 'B7', 'O7']
    """
    key = (word, rules.colors)
    tiles = _EXPANDED.get(key)
    if tiles is None:
        tiles = _expand_word(word, rules)
        if len(_EXPANDED) >= _EXPANDED_MAX:
            _EXPANDED.clear()
        _EXPANDED[key] = tiles
    return tiles


def _expand_word(word: str, rules: Rules) -> tuple[Tile, ...]:
    found = _RANGE.fullmatch(word)
    if found is not None:
        letter, low, again, high = found.groups()
        color = letter.upper()
        if color == JOKER.color:
            raise NotationError(f"invalid range {word!r}: J is the joker and has no numbers")
        if again and again.upper() != color:
            raise NotationError(f"invalid range {word!r}: a run has one color")
        first, last = int(low), int(high)
        if first == 0:
            raise NotationError(f"invalid range {word!r}: numbers start at 1")
        if last <= first:
            raise NotationError(
                f"invalid range {word!r}: the second number must be above the first "
                f"(e.g. {color}{first}-{first + 2})"
            )
        return tuple(_alias(Tile(color, n), rules) for n in range(first, last + 1))
    found = _SHORTHAND.fullmatch(word)
    if found is not None:
        letters, digits = found.group(1).upper(), found.group(2)
        if JOKER.color in letters:
            raise NotationError(
                f"invalid group {word!r}: J is the joker; write it apart (e.g. KR7 J)"
            )
        colors = [_alias(Tile(c, 1), rules).color for c in letters]
        repeated = next((c for i, c in enumerate(colors) if c in colors[:i]), None)
        if repeated is not None:
            raise NotationError(f"invalid group {word!r}: color {repeated} twice")
        number = int(digits)
        if number == 0:
            raise NotationError(f"invalid group {word!r}: numbers start at 1")
        return tuple(Tile(c, number) for c in colors)
    return (_alias(Tile.parse(word), rules),)


def _words(text: str, start: int = 0) -> Iterator[_Span]:
    for found in WORD.finditer(text):
        yield _Span(found.group(), start + found.start())


def _tiles(span: _Span, rules: Rules, box: bool, *, located: bool = True) -> tuple[Tile, ...]:
    """The tiles of a stretch of words, each problem placed at its word (unless the caller
    names the place itself: ``located`` false)."""
    tiles: list[Tile] = []
    for word in _words(span.text, span.start):
        try:
            found = expand_word(word.text, rules)
        except NotationError as error:
            raise (_located(error, word.start, word.text) if located else error) from None
        if box:
            for tile in found:
                problem = rules.tile_problem(tile)
                if problem:
                    wrong = NotationError(f"invalid tile {str(tile)!r}: {problem}")
                    raise _located(wrong, word.start, word.text) if located else wrong
        tiles += found
    return tuple(tiles)


def parse_rack(text: str, rules: Rules = STANDARD, *, box: bool = True) -> tuple[Tile, ...]:
    """Tiles separated by spaces or commas, with ranges and group shorthands.

    With ``box`` (the default) a tile the rule set does not have is an error.

    >>> [str(t) for t in parse_rack("R4, KO7 J")]
    ['R4', 'K7', 'O7', 'J']
    """
    if text.strip() == _EMPTY:
        return ()
    return _tiles(_Span(text, 0), rules, box)


# -- melds -----------------------------------------------------------------------------


def _meld(span: _Span, rules: Rules, box: bool, *, located: bool = True) -> RawMeld:
    kind: Kind | None = None
    body = span
    prefix = _PREFIX.match(span.text)
    if prefix is not None:
        kind = "run" if prefix.group(1).lower() == "run" else "group"
        body = _Span(span.text[prefix.end() :], span.start + prefix.end())
    tiles = _tiles(body, rules, box, located=located)
    if not tiles:
        error = NotationError("empty meld: expected tiles such as 'R1 R2 R3'")
        raise _located(error, span.start, span.text) if located else error
    return RawMeld(tiles, kind)


def parse_meld(text: str, rules: Rules = STANDARD, *, box: bool = False) -> RawMeld:
    """One meld as written (tiles, ranges, shorthands; ``group:``/``run:`` prefix), before
    it is judged; with ``box``, tiles the rule set does not have are errors. Messages are
    those of :meth:`RawMeld.parse` (the caller names the meld).

    >>> str(parse_meld("R1-3 J"))
    'R1 R2 R3 J'
    """
    if _MELD_SEPARATOR.search(text):
        column = _MELD_SEPARATOR.search(text)
        assert column is not None
        raise NotationError(
            f"column {column.start() + 1}: one meld expected, but {column.group()!r} "
            "separates melds (give each meld on its own)"
        )
    return _meld(_Span(text, 0), rules, box, located=False)


def _meld_spans(text: str, start: int = 0) -> Iterator[_Span]:
    """The melds of a table: the pieces between ``|`` or ``;``."""
    at = 0
    for separator in _MELD_SEPARATOR.finditer(text):
        yield _Span(text[at : separator.start()], start + at)
        at = separator.end()
    yield _Span(text[at:], start + at)


def _raw_melds(span: _Span, rules: Rules, box: bool) -> tuple[RawMeld, ...]:
    if span.text.strip() in ("", _EMPTY):
        return ()
    return tuple(_meld(piece, rules, box) for piece in _meld_spans(span.text, span.start))


def parse_melds(text: str, rules: Rules = STANDARD, *, box: bool = False) -> tuple[RawMeld, ...]:
    """Melds separated by ``|`` or ``;``, as written (not judged); ``-`` or nothing is an
    empty table.

    >>> [str(m) for m in parse_melds("R1-3 | group: R5 J J")]
    ['R1 R2 R3', 'group: R5 J J']
    """
    return _raw_melds(_Span(text, 0), rules, box)


# -- positions ---------------------------------------------------------------------------


def _fields(text: str) -> list[_Span]:
    pieces: list[_Span] = []
    at = 0
    for separator in re.finditer("/", text):
        pieces.append(_Span(text[at : separator.start()], at))
        at = separator.end()
    pieces.append(_Span(text[at:], at))
    if len(pieces) > len(FIELDS):
        extra = pieces[len(FIELDS)]
        raise NotationError(
            f"column {extra.start}: a position has at most {len(FIELDS)} fields separated "
            f"by '/' ({' / '.join(FIELDS)}), found {len(pieces)}"
        )
    return pieces


def _opened(span: _Span) -> bool:
    word = re.sub(r"[\s_-]+", "-", span.text.strip().lower())
    if word in ("", OPENED):
        return True
    if word == NOT_OPENED:
        return False
    raise NotationError(
        f"column {span.start + 1} ({span.text.strip()!r}): the third field is "
        f"{OPENED!r} or {NOT_OPENED!r}"
    )


def parse_position(text: str, rules: Rules = STANDARD) -> Position:
    """A position in one line: ``table / rack / opened`` (see the module's docstring).

    Raises :class:`NotationError` (bad text, with its column), :class:`MeldError` (a table
    meld that is no meld) or :class:`PositionError` (a tile used too often).

    >>> p = parse_position("- / R10-13 J / not-opened")
    >>> len(p.table), len(p.rack), p.opened
    (0, 5, False)
    """
    from rummikub.tiles.position import Position

    pieces = _fields(text)
    if len(pieces) < 2:
        raise NotationError(
            "a position needs a table and a rack separated by '/' "
            "(e.g. 'R1-3 | KRB7 / R4 K7 O7'; '-' for an empty table)"
        )
    table_span, rack_span = pieces[0], pieces[1]
    raw = _raw_melds(table_span, rules, box=True)
    starts = [span.start for span in _meld_spans(table_span.text, table_span.start)]
    melds: list[Meld] = []
    for index, meld in enumerate(raw):
        try:
            melds.append(meld.to_meld(rules))
        except MeldError as error:
            raise MeldError(
                f"column {starts[index] + 1}, meld {index + 1} {str(meld)!r}: {error}"
            ) from None
    rack = () if rack_span.text.strip() in ("", _EMPTY) else _tiles(rack_span, rules, box=True)
    opened = _opened(pieces[2]) if len(pieces) > 2 else True
    position = Position(tuple(melds), rack, opened, rules)
    problems = position.problems()
    if problems:
        raise PositionError(problems)
    return position


# -- writing -----------------------------------------------------------------------------


def format_meld(meld: Meld) -> str:
    """A meld in its shortest notation: a joker-free run as a range, a joker-free group as
    a shorthand in its order, anything else tile by tile.

    >>> format_meld(Meld.parse("R5 R6 R7")), format_meld(Meld.parse("O7 K7 B7"))
    ('R5-7', 'OKB7')
    >>> format_meld(Meld.parse("R5 J R7"))
    'R5 J R7'
    """
    if meld.jokers:
        return str(meld)
    if meld.kind == "run":
        return f"{meld.color}{meld.start}-{meld.end}"
    return "".join(t.color for t in meld.tiles) + str(meld.number)


def format_table(melds: Sequence[Meld]) -> str:
    """Melds separated by ``" | "`` (``-`` for none)."""
    return " | ".join(format_meld(m) for m in melds) or _EMPTY


def format_position(position: Position) -> str:
    """A position in one line; :func:`parse_position` reads it back (with the same rules).

    >>> from rummikub.tiles.position import Position
    >>> format_position(Position.parse(rack="J K1", table=["K7 R7 B7"], opened=False))
    'KRB7 / J K1 / not-opened'
    """
    fields = [format_table(position.table), format_tiles(position.rack) or _EMPTY]
    if not position.opened:
        fields.append(NOT_OPENED)
    return " / ".join(fields)
