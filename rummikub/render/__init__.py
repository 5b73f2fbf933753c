"""How tiles look: colors on a terminal (:mod:`.text`) and SVG pictures (:mod:`.svg`).

The only place that knows a tile's color; the command line, the web page and notebooks
(``_repr_svg_`` on positions, results and explanations) draw through it. Nothing here
decides anything about the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummikub.render.colors import JOKER_HEX, TILE_HEX, TILE_TERMINAL, tile_hex

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

if TYPE_CHECKING:
    from rummikub.render.svg import (
        explanation_svg,
        move_svg,
        position_svg,
        result_svg,
        table_svg,
    )

#: Loaded on first use: the pictures (and the XML escaping they import, which pulls in
#: urllib and http) are not needed by ``--json`` or text output, and every ``rummikub``
#: process would pay for them (benchmarks, "One whole process").
_SVG = {"explanation_svg", "move_svg", "position_svg", "result_svg", "table_svg"}


def __getattr__(name: str) -> Any:
    if name not in _SVG:
        raise AttributeError(f"module 'rummikub.render' has no attribute {name!r}")
    from rummikub.render import svg

    value = getattr(svg, name)
    globals()[name] = value
    return value
