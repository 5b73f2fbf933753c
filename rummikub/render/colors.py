"""The colors of the tiles and the cards, for a terminal and for pictures.

Tiles: K black, R red, B blue, O orange; the colors of extended rule sets (``colors = 5..8``:
G, Y, P, W) get their own. Terminals have no orange: it is shown yellow there.

Cards: the two-color deck (hearts and diamonds red, spades and clubs black), or the
four-color deck (spades black, hearts red, diamonds blue, clubs green); jokers purple. A
terminal and a picture of the same command use the same deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummikub.tiles.tiles import Tile

if TYPE_CHECKING:  # the card rummies load only where cards are drawn
    from rummikub.cards.cards import Card

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


#: Ink colors of the card suits in pictures: the two-color deck, then the four-color one.
CARD_HEX: dict[str, str] = {"S": "#1a1a1a", "H": "#c8102e", "D": "#c8102e", "C": "#1a1a1a"}
FOUR_COLOR_HEX: dict[str, str] = {"S": "#1a1a1a", "H": "#c8102e", "D": "#0050b5", "C": "#1b7f3b"}
CARD_JOKER_HEX = "#6b2a8f"
#: Terminal colors of the suits (None: the terminal's own, readable on a dark background as
#: on a light one, for the black suits).
CARD_TERMINAL: dict[str, str | None] = {"S": None, "H": "red", "D": "red", "C": None}
FOUR_COLOR_TERMINAL: dict[str, str | None] = {"S": None, "H": "red", "D": "blue", "C": "green"}
CARD_JOKER_TERMINAL = "bright_magenta"


def card_hex(card: Card, *, four_color: bool = False) -> str:
    """The ink color of a card in pictures."""
    if card.is_joker:
        return CARD_JOKER_HEX
    return (FOUR_COLOR_HEX if four_color else CARD_HEX)[card.suit]


def card_terminal(card: Card, *, four_color: bool = False) -> str | None:
    """The terminal color of a card (None: the terminal's own)."""
    if card.is_joker:
        return CARD_JOKER_TERMINAL
    return (FOUR_COLOR_TERMINAL if four_color else CARD_TERMINAL)[card.suit]
