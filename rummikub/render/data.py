"""Answers as JSON data, in the schema of INTERFACE.md: what ``--json`` prints and what the
web API returns (one definition for both)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rummikub.tiles.melds import changed_melds
from rummikub.tiles.tiles import Tile

if TYPE_CHECKING:  # types only: importing the solver package at start-up is not needed
    from rummikub.tiles.checker import Verdict
    from rummikub.tiles.solver.result import SolveResult

__all__ = ["result_data", "tile_list", "verdict_data"]


def tile_list(tiles: Sequence[Tile]) -> list[str]:
    return [str(t) for t in tiles]


def verdict_data(verdict: Verdict) -> dict[str, Any]:
    """The verdict as JSON: INTERFACE.md's keys, then ``"violations"`` (README, "Rule
    codes"): each broken rule with its code and the meld or tile it concerns."""
    return {
        "legal": verdict.legal,
        "errors": list(verdict.errors),
        "value": verdict.value,
        "played": tile_list(verdict.played),
        "violations": [
            {
                "rule": violation.rule,
                "meld": violation.meld,
                "tile": None if violation.tile is None else str(violation.tile),
                "text": violation.text,
            }
            for violation in verdict.violations
        ],
    }


def result_data(result: SolveResult, puzzle: str | None) -> dict[str, Any]:
    """The JSON object of one solved puzzle (``puzzle`` None: a position given inline)."""
    return {
        "puzzle": puzzle,
        "status": result.status,
        "value": result.value,
        "tiles": result.tiles,
        "played": tile_list(result.played),
        "rack": tile_list(result.rack),
        "table": [{"kind": m.kind, "tiles": tile_list(m.tiles)} for m in result.table],
        "seconds": round(result.seconds, 6),
        # Added after the keys of INTERFACE.md, whose order stays as it was: the indices
        # in "table" of the new or changed melds.
        "changed": [
            i for i, mark in enumerate(changed_melds(result.position.table, result.table)) if mark
        ],
    }
