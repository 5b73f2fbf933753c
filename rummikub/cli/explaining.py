"""Rendering explanations (``--explain``): tiles in their colors, changed melds highlighted.

The words come from :mod:`rummikub.tiles.explain`; this module only arranges them. Colors are
those of :mod:`rummikub.render` (whether to use them: :func:`rummikub.render.text.use_color`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rummikub.cli import render
from rummikub.render import text as colors
from rummikub.tiles.tiles import Tile

if TYPE_CHECKING:  # types only: the explain module (and networkx) load when an answer is explained
    from rummikub.tiles.checker import Verdict
    from rummikub.tiles.explain import Explanation, Word
    from rummikub.tiles.solver.result import SolveResult


def use_color(no_color: bool) -> bool:
    """Whether to color what goes to stdout (see :func:`rummikub.render.text.use_color`)."""
    return colors.use_color(no_color, sys.stdout)


def tile_text(tile: Tile, color: bool, *, bold: bool = False) -> str:
    return colors.tile_text(tile, bold=bold) if color else str(tile)


def words_text(words: Iterable[Word], color: bool, *, bold: bool = False) -> str:
    """Words with their tiles colored (and everything bold if ``bold``)."""
    parts: list[str] = []
    for word in words:
        if isinstance(word, Tile):
            parts.append(tile_text(word, color, bold=bold))
        else:
            parts.append(colors.styled(word, bold=True) if color and bold else word)
    return "".join(parts)


def _tiles_text(tiles: Sequence[Tile], color: bool, *, bold: bool) -> str:
    return " ".join(tile_text(t, color, bold=bold) for t in tiles)


def table_lines(explanation: Explanation, color: bool, only_changed: bool = False) -> list[str]:
    """The new table, each changed meld marked, highlighted and followed by its origins;
    then remarks on old melds whose jokers were freed or that were broken up.
    ``only_changed`` leaves out the unchanged melds (``--changed``)."""
    from rummikub.tiles.explain import aftermath_words, change_words

    width = max(
        (len(" ".join(str(t) for t in c.meld.tiles)) for c in explanation.changes), default=0
    )
    lines: list[str] = []
    for change in explanation.changes:
        tiles = change.meld.tiles
        if change.kind == "unchanged":
            if only_changed:
                continue
            lines.append(f"    {_tiles_text(tiles, color, bold=False)}")
            continue
        # Padded on the plain text: style codes take no room on screen.
        padding = " " * (width - len(" ".join(str(t) for t in tiles)))
        origins = words_text(change_words(explanation, change), color)
        shown = _tiles_text(tiles, color, bold=True)
        lines.append(f"  {render.CHANGED} {shown}{padding}   {origins}")
    for aftermath in explanation.aftermaths:
        lines += [words_text(words, color) for words in aftermath_words(explanation, aftermath)]
    return lines


def step_lines(explanation: Explanation, color: bool) -> list[str]:
    """``Steps:`` and the numbered steps (nothing when no tile moves)."""
    if not explanation.steps:
        return []
    lines = ["Steps:"]
    for number, step in enumerate(explanation.steps, start=1):
        lines.append(f"  {number}. {words_text(step.words, color)}")
    return lines


def explanation_data(explanation: Explanation) -> dict[str, Any]:
    """The ``"changes"`` and ``"steps"`` keys of the JSON output."""
    return explanation.to_data()


# -- the commands' output -----------------------------------------------------------------


def explain_result(result: SolveResult) -> Explanation:
    """The explanation of a solver's answer (of "no move": every meld unchanged, no steps)."""
    from rummikub.tiles.explain import explain

    return explain(result.position, result.move)


def result_json(result: SolveResult, puzzle: str | None, explanation: Explanation) -> str:
    """``solve --explain --json``: the usual object plus ``"changes"`` and ``"steps"``."""
    return json.dumps({**render.result_data(result, puzzle), **explanation_data(explanation)})


def result_text(
    result: SolveResult,
    explanation: Explanation,
    *,
    name: str | None,
    title: str | None,
    color: bool,
    only_changed: bool = False,
) -> str:
    """``solve --explain``: the usual text, the table with origins, the steps."""
    return render.result_text(
        result,
        name=name,
        title=title,
        table_lines=table_lines(explanation, color, only_changed),
        extra_lines=step_lines(explanation, color),
        only_changed=only_changed,
    )


def verdict_json(verdict: Verdict, explanation: Explanation | None) -> str:
    """``check --explain --json``: the verdict plus, for a legal move, its explanation."""
    data = render.verdict_data(verdict)
    if explanation is not None:
        data.update(explanation_data(explanation))
    return json.dumps(data)


def verdict_text(verdict: Verdict, explanation: Explanation | None, color: bool) -> str:
    """``check --explain``: the verdict, then how a legal move reaches the new table."""
    lines = [render.verdict_text(verdict)]
    if explanation is None:
        lines.append("No steps: the move is not legal.")
    else:
        lines.append(f"New table ({render.CHANGED} = new or changed):")
        lines += table_lines(explanation, color)
        lines += step_lines(explanation, color)
    return "\n".join(lines)
