"""Hold or play: what keeping tiles back costs.

Two alternatives to the best move, for a player who would rather keep tiles:

- the best move that keeps every joker of the rack: the best move of the same position
  with the jokers taken out of the rack (a move that plays no rack joker is legal in
  both, and the rack's unplayed tiles play no part in a move's legality);
- the best move that plays the fewest tiles while still reaching the best value (the
  solver's ``fewest_tiles`` option).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummikub.tiles.analysis.moves import RankedMove, best_move
from rummikub.tiles.position import Position
from rummikub.tiles.solver import solve


@dataclass(frozen=True, slots=True)
class Hold:
    """The best move and the two ways of holding tiles back."""

    best: RankedMove
    #: The best move playing no joker from the rack; None when the rack holds no joker.
    keep_jokers: RankedMove | None
    #: The best move with the fewest tiles at the best value.
    fewest: RankedMove

    @property
    def joker_cost(self) -> int | None:
        """The value given up by keeping the rack's jokers (None: no joker to keep)."""
        return None if self.keep_jokers is None else self.best.value - self.keep_jokers.value

    @property
    def tiles_kept(self) -> int:
        """How many more tiles the fewest-tiles move keeps than the best move."""
        return self.best.tiles - self.fewest.tiles

    def to_data(self) -> dict[str, Any]:
        return {
            "keep_jokers": None if self.keep_jokers is None else self.keep_jokers.to_data(),
            "joker_cost": self.joker_cost,
            "fewest": self.fewest.to_data(),
            "tiles_kept": self.tiles_kept,
        }


def hold(
    position: Position, *, best: RankedMove | None = None, time_limit: float | None = None
) -> Hold:
    """The best move keeping the rack's jokers, and the fewest tiles at the best value
    (value objective; ``best`` is the position's best move if already known).

    >>> p = Position.parse(rack="R4 J K9", table=["R1 R2 R3", "K7 K8 J"])
    >>> h = hold(p)
    >>> h.best.value, h.keep_jokers.value, h.joker_cost, h.fewest.tiles, h.tiles_kept
    (43, 13, 30, 3, 0)
    """
    if best is None:
        best = best_move(position, time_limit=time_limit)
    keep_jokers = None
    if any(t.is_joker for t in position.rack):
        without = tuple(t for t in position.rack if not t.is_joker)
        kept = Position(position.table, without, position.opened, position.rules)
        # The rack shown is the real one: the jokers stay in it.
        keep_jokers = RankedMove.of(solve(kept, time_limit=time_limit)).in_position(position)
    fewest = RankedMove.of(solve(position, time_limit=time_limit, fewest_tiles=True))
    return Hold(best, keep_jokers, fewest)
