"""What every SVG picture shares, tiles and cards alike: a canvas laid out top to bottom
(labels, notes, rows of pieces wrapped at a width, the arrow from before to after), the font,
the highlight colors and the step badge.

The pictures of :mod:`rummikub.render.svg` (tiles) and :mod:`rummikub.render.card_svg`
(cards) differ only in how one piece is drawn and how big it is; each hands the canvas a
function that draws one piece at a place. The output is plain SVG 1.1 text, the same for the
same input byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, TypeVar
from xml.sax.saxutils import escape

__all__ = ["FONT", "HIGHLIGHT", "Canvas", "Highlight", "badge", "escape"]

#: How a piece of a picture is highlighted: not at all, green (new: from the rack or the
#: hand), amber (moved from another meld, or laid off on a table meld).
Highlight = Literal["kept", "new", "moved"]

MELD_GAP, ROW_GAP, MARGIN = 16, 12, 12
LABEL_H = 24
MAX_WIDTH = 640
HIGHLIGHT: dict[Highlight, tuple[str, str]] = {
    # (face, edge): new pieces green, moved pieces amber.
    "new": ("#dcf3d6", "#2e8b3a"),
    "moved": ("#fdeec2", "#c88a00"),
}
FONT = "font-family=\"'DejaVu Sans', Verdana, Arial, sans-serif\""

Piece = TypeVar("Piece")


class Canvas:
    """SVG elements laid out top to bottom; the picture's size follows what is drawn."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.y = MARGIN
        self.width = 0

    def label(self, text: str) -> None:
        self.parts.append(
            f'<text x="{MARGIN}" y="{self.y + 16}" font-size="15" font-weight="bold" '
            f'fill="#333" {FONT}>{escape(text)}</text>'
        )
        self.y += LABEL_H
        self.width = max(self.width, MARGIN + 9 * len(text))

    def note(self, text: str) -> None:
        self.parts.append(
            f'<text x="{MARGIN}" y="{self.y + 14}" font-size="13" fill="#555" {FONT}>'
            f"{escape(text)}</text>"
        )
        self.y += LABEL_H - 4
        self.width = max(self.width, MARGIN + 7 * len(text))

    def rows(
        self,
        groups: Sequence[Sequence[Piece]],
        draw: Callable[[Piece, int, int], str],
        *,
        width: int,
        height: int,
        step: int,
    ) -> None:
        """Groups of pieces (melds, a rack, a hand) in rows, each group kept whole, wrapped
        at :data:`MAX_WIDTH`. ``draw(piece, x, y)`` draws one piece ``width`` by ``height``
        at its place; pieces of a group are ``step`` apart (less than ``width``: they
        overlap, as a fanned pile of cards does)."""
        x = MARGIN
        if not groups:
            self.note("(none)")
            return
        for group in groups:
            span = (len(group) - 1) * step + width
            if x > MARGIN and x + span > MAX_WIDTH - MARGIN:
                x = MARGIN
                self.y += height + ROW_GAP
            for index, piece in enumerate(group):
                self.parts.append(draw(piece, x + index * step, self.y))
            x += span + MELD_GAP
            self.width = max(self.width, x - MELD_GAP)
        self.y += height + ROW_GAP

    def arrow(self) -> None:
        middle = MARGIN + 40
        self.parts.append(
            f'<path d="M{middle} {self.y} v18 m-7 -8 l7 8 l7 -8" fill="none" '
            f'stroke="#666" stroke-width="2.5" stroke-linecap="round"/>'
        )
        self.y += 26

    def svg(self) -> str:
        width = max(self.width, 120) + MARGIN
        height = self.y + MARGIN - ROW_GAP
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" '
            f'height="{height}" viewBox="0 0 {width} {height}">'
        )
        return "\n".join([head, *self.parts, "</svg>"]) + "\n"


def badge(x: int, y: int, number: int) -> str:
    """A step's number in a dark circle, at a piece's top right corner (``x``, ``y``)."""
    return (
        f'<circle cx="{x}" cy="{y}" r="8" fill="#333" stroke="#fff" stroke-width="1"/>'
        f'<text x="{x}" y="{y + 4}" text-anchor="middle" font-size="11" '
        f'font-weight="bold" fill="#fff" {FONT}>{number}</text>'
    )
