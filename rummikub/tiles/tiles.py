"""Tiles and their notation: ``R7``, ``K13``, ``J`` (the joker).

Parsing here is purely about notation; whether a tile exists in a rule set's box is
:meth:`rummikub.tiles.rules.Rules.tile_problem`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from rummikub.core.errors import NotationError

# ASCII only: ``\d`` would also read other scripts' digits (Arabic-Indic, math bold) as numbers.
_TILE = re.compile(r"([A-Za-z])([0-9]{1,2})")
#: A word of typed tiles: they are separated by spaces or commas (:func:`tile_words`).
WORD = re.compile(r"[^\s,]+")


class Tile(NamedTuple):
    """A numbered tile (``color`` letter and ``number``) or the joker (``Tile("J", 0)``).

    A named tuple rather than a dataclass: tiles are hashed and compared millions of times
    a second in playouts, and a tuple's hash and equality run in C (about 8x faster than a
    frozen dataclass's generated methods)."""

    color: str
    number: int

    @property
    def is_joker(self) -> bool:
        return self.number == 0

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read one tile, case-insensitively.

        >>> Tile.parse("r7")
        Tile.parse('R7')
        >>> Tile.parse("j").is_joker
        True
        """
        if not isinstance(text, str):
            raise TypeError(f"a tile is written as a string such as 'R7', got {_type(text)}")
        word = text.strip()
        if word.upper() == "J":
            return JOKER
        match = _TILE.fullmatch(word)
        if match is None:
            if any(c.isdigit() and not c.isascii() for c in word):
                raise NotationError(
                    f"invalid tile {text!r}: numbers are written with the digits 0-9"
                )
            raise NotationError(
                f"invalid tile {text!r}: expected a color letter and a number (e.g. R7) or J"
            )
        color, number = match.group(1).upper(), int(match.group(2))
        if color == "J":
            raise NotationError(f"invalid tile {text!r}: J is the joker and takes no number")
        if number == 0:
            raise NotationError(f"invalid tile {text!r}: numbers start at 1")
        return cls(color, number)

    def __str__(self) -> str:
        return "J" if self.is_joker else f"{self.color}{self.number}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


JOKER = Tile("J", 0)


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Read tiles separated by spaces or commas.

    >>> [str(t) for t in parse_tiles("R4, k7 J")]
    ['R4', 'K7', 'J']
    """
    if not isinstance(text, str):
        raise TypeError(f"tiles are written as a string such as 'R4 K7', got {_type(text)}")
    return tuple(Tile.parse(w) for w in tile_words(text))


def tile_words(text: str) -> list[str]:
    """The words of tiles as typed: separated by spaces or commas. Every reader of typed
    tiles splits them here (a word of the quick notation may be a range or a group
    shorthand: :mod:`rummikub.tiles.notation`); ``cards.card_words`` is its card twin.

    >>> tile_words("R4, KRB7 R1-3,J")
    ['R4', 'KRB7', 'R1-3', 'J']
    """
    return WORD.findall(text)


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Tiles as notation, separated by spaces."""
    return " ".join(str(t) for t in tiles)


def sort_key(tile: Tile, colors: str = "") -> tuple[int, str, int]:
    """The one tile order: as players sort a rack, by color (in the order of ``colors``, a
    rule set's colors), then number, jokers last. A color outside ``colors`` sorts after
    them, alphabetically, so tiles that are in no box (reported, not refused) still sort
    the same way every time; with no ``colors`` at all, colors are alphabetical.

    >>> [str(t) for t in sorted(parse_tiles("J B2 R1 Q1 K9"), key=lambda t: sort_key(t, "KRBO"))]
    ['K9', 'R1', 'B2', 'Q1', 'J']
    >>> [str(t) for t in sorted(parse_tiles("J R1 B2 K9"), key=sort_key)]
    ['B2', 'K9', 'R1', 'J']
    """
    if tile.is_joker:
        return (len(colors) + 1, "", 0)
    place = colors.find(tile.color)
    if place < 0:
        return (len(colors), tile.color, tile.number)
    return (place, "", tile.number)


def sorted_tiles(tiles: Iterable[Tile], colors: str = "") -> tuple[Tile, ...]:
    """``tiles`` in :func:`sort_key` order."""
    return tuple(sorted(tiles, key=lambda tile: sort_key(tile, colors)))


def _type(value: object) -> str:
    """A value's type and a short look at it, for TypeError messages."""
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"
