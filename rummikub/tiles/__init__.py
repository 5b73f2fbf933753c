"""The tile game: Rummikub's tiles, melds, rules and positions, and what answers on them.

The domain (``tiles``, ``melds``, ``rules``, ``position``, ``notation``, ``tile_index``),
puzzle files (``puzzles``), a turn's legality (``checker``), the best move (``solver/``),
the slow reference search (``exhaustive``), explanations (``explain/``) and analysis
(``analysis/``). RULES.md is the specification; ``rummikub.cards`` is the same for the card
rummies, module for module.

The names of the tile module itself are here too, as they were when ``rummikub.tiles`` was
that module:

>>> from rummikub.tiles import JOKER, Tile, parse_tiles
>>> parse_tiles("R7 J") == (Tile("R", 7), JOKER)
True
"""

from __future__ import annotations

from rummikub.tiles.tiles import JOKER, Tile, format_tiles, parse_tiles, sort_key, sorted_tiles

__all__ = ["JOKER", "Tile", "format_tiles", "parse_tiles", "sort_key", "sorted_tiles"]
