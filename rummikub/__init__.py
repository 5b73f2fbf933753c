"""Find the best move in a game of Rummikub, and prove it.

>>> from rummikub import Position
>>> position = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
>>> len(position.rack)
3
"""

from __future__ import annotations

from rummikub.errors import (
    MeldError,
    NotationError,
    PositionError,
    PuzzleError,
    RulesError,
    RummikubError,
)
from rummikub.melds import Kind, Meld, RawMeld
from rummikub.position import Move, Position
from rummikub.rules import PRESETS, STANDARD, Rules, preset
from rummikub.tiles import JOKER, Tile, format_tiles, parse_tiles

__all__ = [
    "JOKER",
    "PRESETS",
    "STANDARD",
    "Kind",
    "Meld",
    "MeldError",
    "Move",
    "NotationError",
    "Position",
    "PositionError",
    "PuzzleError",
    "RawMeld",
    "Rules",
    "RulesError",
    "RummikubError",
    "Tile",
    "format_tiles",
    "parse_tiles",
    "preset",
]
__version__ = "0.1.0"
