"""SVG pictures of tables, positions and moves, drawn as a player sees them.

Every tile is drawn as a tile (an ivory face, its number in its color; a joker as a joker's
face), melds side by side in rows. A move is drawn as the old table and rack above the new
table, where tiles from the rack and tiles moved from another meld are highlighted, each
optionally with the number of the step that puts it there (the steps of
:func:`rummikub.tiles.explain.explain`).

The pictures are plain SVG 1.1 text, the same for the same input byte for byte, so that they
can be committed, compared and shown inline (notebooks call ``_repr_svg_``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rummikub.render.canvas import FONT, HIGHLIGHT, Canvas, Highlight, badge, escape
from rummikub.render.colors import tile_hex
from rummikub.tiles.melds import Meld
from rummikub.tiles.tiles import Tile

if TYPE_CHECKING:  # the explanations load only when a move is drawn
    from rummikub.tiles.explain import Explanation
    from rummikub.tiles.position import Position
    from rummikub.tiles.solver.result import SolveResult

__all__ = [
    "Mark",
    "explanation_svg",
    "move_svg",
    "position_svg",
    "proposal_svg",
    "result_svg",
    "table_svg",
]

#: How a tile of a new table got there: kept in place, from the rack, moved from a meld.
Mark = Highlight

TILE_W, TILE_H, TILE_GAP = 34, 46, 3
FACE, EDGE = "#fbf7ea", "#9a907c"


@dataclass(frozen=True, slots=True)
class _Tile:
    """One tile to draw: what it is, how it got there, and the step that put it there."""

    tile: Tile
    mark: Mark = "kept"
    step: int | None = None


class _Canvas(Canvas):
    """The shared canvas, drawing tiles."""

    def tiles(self, groups: Sequence[Sequence[_Tile]]) -> None:
        self.rows(groups, _tile, width=TILE_W, height=TILE_H, step=TILE_W + TILE_GAP)


def _tile(item: _Tile, x: int, y: int) -> str:
    face, edge = HIGHLIGHT.get(item.mark, (FACE, EDGE))
    width = 2.5 if item.mark != "kept" else 1.2
    ink = tile_hex(item.tile)
    parts = [
        f'<g class="tile {item.mark}" data-tile="{item.tile}">',
        f"<title>{escape(_describe(item))}</title>",
        f'<rect x="{x + 0.5}" y="{y + 0.5}" width="{TILE_W - 1}" height="{TILE_H - 1}" '
        f'rx="5" fill="{face}" stroke="{edge}" stroke-width="{width}"/>',
    ]
    cx = x + TILE_W / 2
    if item.tile.is_joker:
        parts.append(_joker_face(cx, y + 20, ink))
    else:
        size = 19 if item.tile.number < 10 else 16
        parts.append(
            f'<text x="{cx:g}" y="{y + 27}" text-anchor="middle" font-size="{size}" '
            f'font-weight="bold" fill="{ink}" {FONT}>{item.tile.number}</text>'
        )
        # The color letter too, small: the picture reads without color vision.
        parts.append(
            f'<text x="{cx:g}" y="{y + 41}" text-anchor="middle" font-size="9" '
            f'fill="{ink}" {FONT}>{escape(item.tile.color)}</text>'
        )
    if item.step is not None:
        parts.append(badge(x + TILE_W - 3, y + 3, item.step))
    parts.append("</g>")
    return "".join(parts)


def _joker_face(cx: float, cy: float, ink: str) -> str:
    """A joker: a smiling face, as on the tiles."""
    return (
        f'<circle cx="{cx:g}" cy="{cy:g}" r="10" fill="none" stroke="{ink}" stroke-width="2"/>'
        f'<circle cx="{cx - 3.5:g}" cy="{cy - 3:g}" r="1.6" fill="{ink}"/>'
        f'<circle cx="{cx + 3.5:g}" cy="{cy - 3:g}" r="1.6" fill="{ink}"/>'
        f'<path d="M{cx - 5:g} {cy + 2:g} q5 6 10 0" fill="none" stroke="{ink}" '
        f'stroke-width="1.8" stroke-linecap="round"/>'
        f'<text x="{cx:g}" y="{cy + 21:g}" text-anchor="middle" font-size="9" fill="{ink}" '
        f"{FONT}>J</text>"
    )


def _describe(item: _Tile) -> str:
    name = "joker" if item.tile.is_joker else str(item.tile)
    where = {"kept": "", "new": " from your rack", "moved": " moved from another meld"}
    step = f" (step {item.step})" if item.step is not None else ""
    return f"{name}{where[item.mark]}{step}"


def _plain(tiles: Sequence[Tile]) -> list[_Tile]:
    return [_Tile(t) for t in tiles]


# -- pictures ----------------------------------------------------------------------------


def table_svg(melds: Sequence[Meld | Sequence[Tile]], *, title: str | None = "Table") -> str:
    """A table: its melds side by side in rows."""
    canvas = _Canvas()
    if title:
        canvas.label(title)
    canvas.tiles([_plain(m.tiles if isinstance(m, Meld) else m) for m in melds])
    return canvas.svg()


def position_svg(position: Position) -> str:
    """A position: the table, then the rack (and whether the player has opened)."""
    canvas = _Canvas()
    canvas.label("Table")
    canvas.tiles([_plain(m.tiles) for m in position.table])
    canvas.label("Rack" if position.opened else "Rack (initial meld not made yet)")
    canvas.tiles([_plain(position.rack_sorted())] if position.rack else [])
    return canvas.svg()


def _marked(explanation: Explanation, numbers: bool) -> list[list[_Tile]]:
    """The new table's tiles, each marked kept, new or moved, with the step that put it."""
    # Number the melds as the steps do: old ones 0..n-1, then each "new" target in turn.
    pools: dict[tuple[object, object], list[tuple[int, Counter[Tile]]]] = {}
    created = len(explanation.old)
    for number, move in enumerate(explanation.steps, start=1):
        target = move.target
        if target == "new":
            target, created = created, created + 1
        pools.setdefault((target, move.source), []).append((number, Counter(move.tiles)))
    melds: list[list[_Tile]] = []
    for change in explanation.changes:
        row: list[_Tile] = []
        for tile, source in zip(change.meld.tiles, change.sources(), strict=True):
            if source == change.old and change.old is not None:
                row.append(_Tile(tile))
                continue
            mark: Mark = "new" if source == "rack" else "moved"
            step: int | None = None
            for found, pool in pools.get((change.number, source), []):
                if pool[tile] > 0:
                    pool[tile] -= 1
                    step = found
                    break
            row.append(_Tile(tile, mark, step if numbers else None))
        melds.append(row)
    return melds


def explanation_svg(
    explanation: Explanation,
    *,
    rack: Sequence[Tile] | None = None,
    numbers: bool = True,
    title: str | None = None,
) -> str:
    """A move: the old table (and ``rack``, if given) above the new table, with tiles from
    the rack and moved tiles highlighted and, with ``numbers``, the number of their step."""
    canvas = _Canvas()
    if title:
        canvas.label(title)
    canvas.label("Before")
    canvas.tiles([_plain(m.tiles) for m in explanation.old])
    if rack is not None:
        canvas.label("Rack")
        # The tiles about to be played are marked in the rack too.
        left = Counter(explanation.played)
        row: list[_Tile] = []
        for tile in rack:
            goes = left[tile] > 0
            left[tile] -= goes
            row.append(_Tile(tile, "new" if goes else "kept"))
        canvas.tiles([row] if row else [])
    canvas.arrow()
    canvas.label("After")
    canvas.tiles(_marked(explanation, numbers))
    played = " ".join(map(str, explanation.played))
    canvas.note(f"Played: {played}" if played else "Nothing played: no move (draw a tile).")
    if any(row for row in _marked(explanation, False) if any(t.mark == "moved" for t in row)):
        canvas.note("Green: from your rack. Amber: moved from another meld.")
    elif played:
        canvas.note("Green: from your rack.")
    return canvas.svg()


def proposal_svg(
    position: Position, proposed: Sequence[Sequence[Tile]], errors: Sequence[str] = ()
) -> str:
    """A proposed new table as it was given (maybe no legal move), under the position, with
    the rules it breaks."""
    canvas = _Canvas()
    canvas.label("Before")
    canvas.tiles([_plain(m.tiles) for m in position.table])
    canvas.label("Rack")
    canvas.tiles([_plain(position.rack_sorted())] if position.rack else [])
    canvas.arrow()
    canvas.label("Proposed" if not errors else "Proposed (not a legal move)")
    canvas.tiles([_plain(tiles) for tiles in proposed])
    for error in errors:
        canvas.note(f"- {error}")
    return canvas.svg()


def move_svg(position: Position, new_table: Sequence[Meld], *, numbers: bool = True) -> str:
    """The move from ``position`` to ``new_table`` (explained first, to know what moved)."""
    from rummikub.tiles.explain import explain

    return explanation_svg(
        explain(position, new_table), rack=position.rack_sorted(), numbers=numbers
    )


def result_svg(result: SolveResult, *, numbers: bool = True) -> str:
    """A solver's answer drawn as a move, or the position when there is no move."""
    from rummikub.tiles.explain import explain

    return explanation_svg(
        explain(result.position, result.move),
        rack=result.position.rack_sorted(),
        numbers=numbers,
    )


def html(svg: str, caption: str) -> str:
    """A picture with a caption, for ``_repr_html_``."""
    return f"<figure>{svg}<figcaption><code>{escape(caption)}</code></figcaption></figure>"
