"""Tiles and cards in their colors on a terminal, through rich.

Plain text stays the truth: every output is first made as plain text (what a file or a pipe
receives, byte for byte), and :func:`paint` then colors the tiles in it for a terminal.
Whether to color follows the usual conventions, in this order: ``--no-color``; ``NO_COLOR``
set and not empty (https://no-color.org) turns color off; ``FORCE_COLOR`` set and not empty
turns it on even without a terminal; ``TERM=dumb`` turns it off; otherwise color goes to a
terminal only.
"""

from __future__ import annotations

import os
import re
from typing import IO

from rummikub.render.colors import card_terminal, tile_terminal
from rummikub.tiles.tiles import Tile

__all__ = ["card_text", "paint", "paint_cards", "styled", "tile_text", "use_color"]

#: A tile in text: a capital letter and a number, or J, standing alone. Lower-case words,
#: paths and numbers are left alone.
_TILE_WORD = re.compile(r"(?<![\w/.-])(?:[A-IK-Z](?:[1-9][0-9]?)|J)(?![\w/.-])")
#: A new or changed meld in the table of an answer (``  * R1 R2 R3 R4``): shown bold.
_CHANGED_LINE = re.compile(r"^  \* ", re.MULTILINE)
#: A card in text (CARDS.md's canonical output: ``10H``, ``AS``, ``*``), standing alone or on
#: either side of the ``=`` of a named wild card (``AH=8S``). The ``*`` that marks a changed
#: meld (``  * 7S 8S 9S``) or says so (``(* = new or changed)``) is no card: the marker is
#: cut off the line first, and a joker has the start, a space or an ``=`` before it, and a
#: space, an ``=`` or the end after it.
_CARD_WORD = re.compile(
    r"(?<![\w/.*-])(?:10|[2-9AJQK])[SHDC](?![\w/.*-])|(?:^|(?<=\s)|(?<==))\*(?=\s|=|$)"
)
_CARD_MARK = re.compile(r"^  \* ")


def use_color(no_color: bool = False, stream: IO[str] | None = None) -> bool:
    """Whether output to ``stream`` gets colors (see the module's docstring)."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def styled(text: str, color: str | None = None, *, bold: bool = False) -> str:
    """``text`` with terminal escape codes for a color (a standard color name) and bold."""
    # Imported here: only colored output needs rich, and plain output (files, pipes,
    # --json) should not pay for importing it at start-up.
    from rich.color import ColorSystem
    from rich.style import Style

    style = Style(color=color, bold=True if bold else None)
    return style.render(text, color_system=ColorSystem.STANDARD)


def tile_text(tile: Tile, *, bold: bool = False) -> str:
    """A tile in its color (jokers always bold)."""
    return styled(str(tile), tile_terminal(tile), bold=bold or tile.is_joker)


def paint(text: str) -> str:
    """Plain output with every tile in its color, and the tiles of changed melds
    (``  * ...`` lines) bold.

    >>> paint("Played: R4") == "Played: " + tile_text(Tile.parse("R4"))
    True
    """

    def line_painted(line: str) -> str:
        bold = _CHANGED_LINE.match(line) is not None
        return _TILE_WORD.sub(lambda found: tile_text(Tile.parse(found.group()), bold=bold), line)

    return "\n".join(line_painted(line) for line in text.split("\n"))


def card_text(text: str, *, four_color: bool = False, bold: bool = False) -> str:
    """A card (its canonical text) in its suit's color (jokers always bold)."""
    from rummikub.cards.cards import Card

    card = Card.parse(text)
    color = card_terminal(card, four_color=four_color)
    return styled(text, color, bold=bold or card.is_joker)


def paint_cards(text: str, *, four_color: bool = False) -> str:
    """Plain card output with every card in its suit's color (the two-color deck, or the
    four-color one), and the cards of changed melds (``  * ...`` lines) bold.

    >>> paint_cards("Discard: KH") == "Discard: " + card_text("KH")
    True
    """

    def line_painted(line: str) -> str:
        marker = _CARD_MARK.match(line)
        head, rest = (line[: marker.end()], line[marker.end() :]) if marker else ("", line)
        return head + _CARD_WORD.sub(
            lambda found: card_text(found.group(), four_color=four_color, bold=bool(marker)),
            rest,
        )

    return "\n".join(line_painted(line) for line in text.split("\n"))
