"""What a solve returns: a typed result, never None ("no move" is a status)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Move, Position
from rummikub.tiles.tiles import Tile

#: ``optimal``: proven best move; ``feasible``: a time limit stopped the proof (the move
#: is legal, maybe not best; with nothing played it means no move was found in time);
#: ``no_move``: proven that no legal move exists.
Status = Literal["optimal", "feasible", "no_move"]
Objective = Literal["value", "tiles"]


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The best move found for a position."""

    status: Status
    position: Position
    #: The whole new table as a player would lay it (the old table for ``no_move``).
    table: tuple[Meld, ...]
    played: tuple[Tile, ...]
    #: The rack left after the move.
    rack: tuple[Tile, ...]
    value: int
    tiles: int
    #: Wall time inside the process: building the model, solving, reading it back.
    seconds: float
    objective: Objective = "value"

    @property
    def proven(self) -> bool:
        """True when the answer is proven (optimal, or proven no move)."""
        return self.status != "feasible"

    @property
    def move(self) -> Move:
        return Move(self.table, self.played)

    def _repr_svg_(self) -> str:
        """The move as a picture: old table and rack, then the new table with the tiles
        from the rack and the moved tiles highlighted, numbered by step."""
        from rummikub.render.svg import result_svg

        return result_svg(self)

    def _repr_html_(self) -> str:
        from rummikub.render.svg import html

        played = " ".join(str(t) for t in self.played) or "nothing"
        return html(self._repr_svg_(), f"{self.status}: {played} (value {self.value})")
