"""Rendering answers for people and as JSON (the schema of INTERFACE.md). Pure functions:
the commands decide where the text goes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rummikub.render.data import result_data, verdict_data
from rummikub.tiles import melds
from rummikub.tiles.melds import Meld
from rummikub.tiles.puzzles import Expect
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import Tile, format_tiles

__all__ = [
    "changed_melds",
    "mismatch_text",
    "result_data",
    "result_json",
    "result_text",
    "verdict_data",
    "verdict_json",
    "verdict_text",
]

if TYPE_CHECKING:  # types only: importing the solver package at start-up is not needed
    from rummikub.tiles.checker import Verdict
    from rummikub.tiles.solver.result import SolveResult

#: The mark of a new or changed meld in human output.
CHANGED = "*"


def _played(tiles: Sequence[Tile], value: int) -> str:
    if not tiles:
        return "nothing played"
    count = f"{len(tiles)} tile" + ("" if len(tiles) == 1 else "s")
    return f"{format_tiles(tiles)} ({count}, value {value})"


# -- check ------------------------------------------------------------------------------


def verdict_json(verdict: Verdict) -> str:
    import json  # only for JSON: a text solve never needs it (RESULTS.md, *json*)

    return json.dumps(verdict_data(verdict))


def verdict_text(verdict: Verdict) -> str:
    if verdict.legal:
        lines = ["Legal move."]
    else:
        count = len(verdict.errors)
        lines = [f"Illegal move: {count} rule{'' if count == 1 else 's'} broken."]
        lines += [f"  - {error}" for error in verdict.errors]
    lines.append(f"Played: {_played(verdict.played, verdict.value)}")
    return "\n".join(lines)


# -- solve ------------------------------------------------------------------------------


def result_json(result: SolveResult, puzzle: str | None) -> str:
    import json  # only for JSON: a text solve never needs it (RESULTS.md, *json*)

    return json.dumps(result_data(result, puzzle))


def changed_melds(old: Sequence[Meld], new: Sequence[Meld], rules: Rules) -> list[bool]:
    """For each new meld, whether it is new or changed
    (:func:`rummikub.tiles.melds.changed_melds`)."""
    return melds.changed_melds(old, new)


def changed_indices(old: Sequence[Meld], new: Sequence[Meld]) -> list[int]:
    """The indices of the new or changed melds of ``new`` (the JSON key ``"changed"``)."""
    return [i for i, mark in enumerate(melds.changed_melds(old, new)) if mark]


def table_heading(marks: Sequence[bool], only_changed: bool) -> str:
    """What the lines of a new table show: every meld, or (``--changed``) the changed ones."""
    if not only_changed:
        return f"({CHANGED} = new or changed)"
    hidden = marks.count(False)
    return f"(new or changed melds only; {hidden} unchanged not shown)"


def _verdict_line(result: SolveResult) -> str:
    if result.status == "no_move":
        return "No move: no legal move exists, so draw a tile (proven)."
    if result.status == "optimal":
        return f"Proven optimal ({result.objective} objective)."
    if not result.played:
        return "No move found before the time limit (not proven that none exists)."
    return "Not proven optimal: the time limit ran out; this is the best move found."


def result_text(
    result: SolveResult,
    *,
    name: str | None = None,
    title: str | None = None,
    table_lines: Sequence[str] | None = None,
    extra_lines: Sequence[str] = (),
    only_changed: bool = False,
) -> str:
    """A solved position for people: the new table with new/changed melds marked.

    ``table_lines`` replace the lines of the new table and ``extra_lines`` follow the rack
    left (``--explain`` gives the origins of the melds and the steps there);
    ``only_changed`` leaves out the unchanged melds (``--changed``).
    """
    lines: list[str] = []
    if name is not None or title is not None:
        lines.append(" - ".join(part for part in (name, title) if part))
    if result.status != "no_move" and result.played:
        marks = melds.changed_melds(result.position.table, result.table)
        lines.append(f"New table {table_heading(marks, only_changed)}:")
        if table_lines is not None:
            lines += table_lines
        else:
            for meld, mark in zip(result.table, marks, strict=True):
                if mark or not only_changed:
                    lines.append(f"  {CHANGED if mark else ' '} {meld}")
        lines.append(f"Played: {_played(result.played, result.value)}")
        lines.append(f"Rack left: {format_tiles(result.rack) or '(empty)'}")
        lines += extra_lines
    lines.append(_verdict_line(result))
    lines.append(f"Time: {result.seconds:.3f} s")
    return "\n".join(lines)


def mismatch_text(name: str, expect: Expect, result: SolveResult) -> str:
    """Why ``--verify`` failed: the file, the expected and the found answer."""
    if result.status == "no_move":
        found = "no move"
    else:
        found = f"value {result.value}, {result.tiles} tiles ({result.status})"
    return f"{name}: expected {expect}, found {found}"
