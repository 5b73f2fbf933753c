"""The colors of the tiles, for a terminal and for pictures.

K black, R red, B blue, O orange; the colors of extended rule sets (``colors = 5..8``:
G, Y, P, W) get their own. Terminals have no orange: it is shown yellow there.
"""

from __future__ import annotations

from rummikub.tiles.tiles import Tile

#: Terminal colors (names of the 16 standard colors, which every color terminal has).
#: Black is shown bright, so that it stays readable on dark terminals.
TILE_TERMINAL: dict[str, str] = {
    "K": "bright_black",
    "R": "red",
    "B": "blue",
    "O": "yellow",
    "G": "green",
    "Y": "bright_yellow",
    "P": "magenta",
    "W": "white",
}
JOKER_TERMINAL = "bright_magenta"

#: Ink colors on a tile's face in pictures, as printed on the tiles.
TILE_HEX: dict[str, str] = {
    "K": "#1a1a1a",
    "R": "#c8102e",
    "B": "#0050b5",
    "O": "#e07000",
    "G": "#1b7f3b",
    "Y": "#b89500",
    "P": "#7a2a9a",
    "W": "#7f7f7f",
}
JOKER_HEX = "#c8102e"
#: A color letter no palette knows (a rule set may use any letter): dark grey ink.
OTHER_HEX = "#444444"


def tile_hex(tile: Tile) -> str:
    """The ink color of a tile in pictures."""
    return JOKER_HEX if tile.is_joker else TILE_HEX.get(tile.color, OTHER_HEX)


def tile_terminal(tile: Tile) -> str | None:
    """The terminal color of a tile (None: the terminal's own)."""
    return JOKER_TERMINAL if tile.is_joker else TILE_TERMINAL.get(tile.color)
