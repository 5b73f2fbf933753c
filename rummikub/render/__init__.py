"""How tiles look: colors on a terminal (:mod:`.text`) and SVG pictures (:mod:`.svg`).

The only place that knows a tile's color; the command line, the web page and notebooks
(``_repr_svg_`` on positions, results and explanations) draw through it. Nothing here
decides anything about the game.
"""

from __future__ import annotations

from rummikub.render.colors import JOKER_HEX, TILE_HEX, TILE_TERMINAL, tile_hex
from rummikub.render.svg import explanation_svg, move_svg, position_svg, result_svg, table_svg

__all__ = [
    "JOKER_HEX",
    "TILE_HEX",
    "TILE_TERMINAL",
    "explanation_svg",
    "move_svg",
    "position_svg",
    "result_svg",
    "table_svg",
    "tile_hex",
]
