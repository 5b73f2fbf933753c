"""Find the best move in a game of Rummikub, and prove it.

>>> from rummikub import Position, check, solve
>>> position = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
>>> result = solve(position)
>>> result.status, result.value, [str(meld) for meld in result.table]
('optimal', 11, ['R1 R2 R3 R4', 'K7 R7 B7 O7'])
>>> check(position, result.table).legal
True

OR-Tools is imported only when a solve runs (the solver package imports it lazily).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummikub import _aliases
from rummikub.core.errors import (
    ExplainError,
    MeldError,
    NotationError,
    PositionError,
    PuzzleError,
    ReplayError,
    RulesError,
    RummikubError,
)
from rummikub.tiles.melds import Kind, Meld, RawMeld
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import PRESETS, STANDARD, Rules, preset
from rummikub.tiles.solver import Objective, SolveResult, Status, solve
from rummikub.tiles.tiles import JOKER, Tile, format_tiles, parse_tiles

__all__ = [
    "JOKER",
    "PRESETS",
    "STANDARD",
    "ExplainError",
    "Explanation",
    "Kind",
    "Meld",
    "MeldError",
    "Move",
    "NotationError",
    "Objective",
    "Position",
    "PositionError",
    "PuzzleError",
    "RawMeld",
    "ReplayError",
    "Rules",
    "RulesError",
    "RummikubError",
    "SolveResult",
    "Status",
    "Step",
    "Tile",
    "Verdict",
    "check",
    "equity",
    "explain",
    "format_tiles",
    "parse_tiles",
    "preset",
    "replay",
    "solve",
]
__version__ = "0.1.0"

# The module paths of before the layout by domain (rummikub.checker, rummikub.solver, ...).
_aliases.install()

if TYPE_CHECKING:
    from rummikub.tiles.checker import Verdict, check
    from rummikub.tiles.explain import Explanation, Step, explain, replay
    from rummikub.tiles.game.position_equity import equity

#: Loaded on first use: the checker and the explanations are not needed to start the
#: command line, and every ``rummikub`` process would pay for importing them (the time a
#: whole process takes is in benchmarks/RESULTS.md, "One whole process").
_LAZY = {
    "Verdict": "rummikub.tiles.checker",
    "check": "rummikub.tiles.checker",
    "Explanation": "rummikub.tiles.explain",
    "Step": "rummikub.tiles.explain",
    "explain": "rummikub.tiles.explain",
    "replay": "rummikub.tiles.explain",
    "equity": "rummikub.tiles.game.position_equity",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rummikub' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
