"""Grading a move: is it legal, and how does it compare with the best move?"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummikub.tiles.analysis.moves import RankedMove, best_move
from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.position import Position
from rummikub.tiles.tiles import Tile, format_tiles

if TYPE_CHECKING:
    from rummikub.tiles.checker import Verdict


@dataclass(frozen=True, slots=True)
class Grade:
    """A proposed move judged by the checker and measured against the best move."""

    legal: bool
    #: The checker's list of broken rules (empty when legal).
    errors: tuple[str, ...]
    value: int
    played: tuple[Tile, ...]
    #: The best move of the position (value objective).
    best: RankedMove
    #: The turn played nothing (a draw, or a pass once the pool is empty).
    drew: bool = False

    @property
    def tiles(self) -> int:
        return len(self.played)

    @property
    def value_gap(self) -> int:
        """How much more value the best move plays (0 for a best move)."""
        return self.best.value - self.value

    @property
    def tiles_gap(self) -> int:
        """How many more tiles the best move plays (may be negative)."""
        return self.best.tiles - self.tiles

    @property
    def is_best(self) -> bool:
        """A legal move as good as the best one (same value, then same number of tiles)."""
        return self.legal and self.value_gap == 0 and self.tiles_gap == 0

    def text(self) -> str:
        """One line for people: ``legal; the best move plays 12 more points: ...``."""
        if not self.legal:
            return "illegal; the best move plays " + _move_words(self.best)
        if self.drew:
            if not self.best.played:
                return "drew; there was no legal move"
            return f"drew; the best move plays {_move_words(self.best)}"
        if self.is_best:
            return "legal; a best move (no legal move plays more)"
        if not self.best.proven:
            lead = "legal; the best move found (not proven)"
        else:
            lead = "legal; the best move"
        if self.value_gap > 0:
            gap = f"plays {self.value_gap} more point{'s' if self.value_gap != 1 else ''}"
        else:
            more = self.tiles_gap
            gap = f"plays the same value with {more} more tile{'s' if more != 1 else ''}"
        return f"{lead} {gap}: {_move_words(self.best)}"

    def to_data(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "drew": self.drew,
            "value": self.value,
            "tiles": self.tiles,
            "best": self.is_best,
            "value_gap": self.value_gap,
            "tiles_gap": self.tiles_gap,
            "best_move": self.best.to_data(),
        }


def _move_words(move: RankedMove) -> str:
    if not move.played:
        return "nothing (there is no legal move)"
    count = f"{move.tiles} tile{'s' if move.tiles != 1 else ''}"
    return f"{format_tiles(move.played)} ({count}, value {move.value})"


def grade(
    position: Position,
    proposed: Sequence[Meld | RawMeld],
    *,
    verdict: Verdict | None = None,
    best: RankedMove | None = None,
    time_limit: float | None = None,
) -> Grade:
    """Judge ``proposed`` (the new table) and compare it with the best move.

    >>> p = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    >>> g = grade(p, [Meld.parse("R1 R2 R3 R4"), Meld.parse("K7 R7 B7")])
    >>> g.legal, g.value, g.value_gap
    (True, 4, 7)
    >>> g.text()
    'legal; the best move plays 7 more points: R4 O7 (2 tiles, value 11)'
    """
    if verdict is None:
        from rummikub.tiles.checker import check

        verdict = check(position, proposed)
    if best is None:
        best = best_move(position, time_limit=time_limit)
    return Grade(verdict.legal, verdict.errors, verdict.value, verdict.played, best)


def grade_draw(
    position: Position, *, best: RankedMove | None = None, time_limit: float | None = None
) -> Grade:
    """A turn that played nothing (a draw or a pass), measured against the best move.

    >>> p = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    >>> grade_draw(p).text()
    'drew; the best move plays R4 O7 (2 tiles, value 11)'
    """
    if best is None:
        best = best_move(position, time_limit=time_limit)
    return Grade(True, (), 0, (), best, drew=True)
