"""The k best moves, distinct by what they play, each proven.

The k-th best move is the best move (by the solver's objective, then the fewest old melds
disturbed) among those whose played tiles differ, as a multiset, from each of the first
k-1: the solver's ``exclude`` option adds one no-good row set per move already found. Two
tables that play the same tiles are one move; the solver's third tie-break (the most old
melds left as they were) makes the table shown the least disturbing one for those tiles.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rummikub.tiles.melds import Meld, changed_melds
from rummikub.tiles.position import Move, Position
from rummikub.tiles.solver import Objective, SolveResult, Status, solve
from rummikub.tiles.tiles import Tile

#: The most moves one ranking lists (``top_moves``' ``k``, ``analyse``'s ``top``, ``analyse
#: --top``): each is a proven solve of its own, and a rack has rarely more distinct moves
#: worth reading (docs/analysts.md, "The k best moves").
MAX_TOP = 100

if TYPE_CHECKING:  # the explain package loads only when a move is explained
    from rummikub.tiles.explain import Explanation


@dataclass(frozen=True, slots=True)
class RankedMove:
    """One of the best moves: its rank (1 = best) and the solver's answer for it."""

    rank: int
    status: Status
    position: Position
    #: The whole new table (the old table when nothing is played).
    table: tuple[Meld, ...]
    played: tuple[Tile, ...]
    #: The rack left after the move.
    rack: tuple[Tile, ...]
    value: int
    tiles: int
    #: Indices in ``table`` of the melds that are new or changed.
    changed: tuple[int, ...]
    seconds: float

    @classmethod
    def of(cls, result: SolveResult, rank: int = 1) -> RankedMove:
        marks = changed_melds(result.position.table, result.table)
        return cls(
            rank=rank,
            status=result.status,
            position=result.position,
            table=result.table,
            played=result.played,
            rack=result.rack,
            value=result.value,
            tiles=result.tiles,
            changed=tuple(i for i, mark in enumerate(marks) if mark),
            seconds=result.seconds,
        )

    def in_position(self, position: Position) -> RankedMove:
        """The same move made in ``position`` (same old table, another rack that holds the
        played tiles): its rack left is recomputed from that rack."""
        left = Counter(position.rack) - Counter(self.played)
        rack = tuple(sorted(left.elements(), key=position.rules.sort_key))
        return replace(self, position=position, rack=rack)

    @property
    def proven(self) -> bool:
        """True when this rank is proven (optimal, or proven no move)."""
        return self.status != "feasible"

    @property
    def move(self) -> Move:
        return Move(self.table, self.played)

    @property
    def is_move(self) -> bool:
        """False for "no move" (nothing played)."""
        return bool(self.played)

    def explain(self) -> Explanation:
        """Where every tile of the new table comes from, and the steps to lay it."""
        from rummikub.tiles.explain import explain

        return explain(self.position, self.move)

    def to_data(self) -> dict[str, Any]:
        """The keys of ``solve --json`` (without ``puzzle``) plus ``rank``."""
        return {
            "rank": self.rank,
            "status": self.status,
            "value": self.value,
            "tiles": self.tiles,
            "played": [str(t) for t in self.played],
            "rack": [str(t) for t in self.rack],
            "table": [{"kind": m.kind, "tiles": [str(t) for t in m.tiles]} for m in self.table],
            "seconds": round(self.seconds, 6),
            "changed": list(self.changed),
        }


def top_moves(
    position: Position,
    k: int,
    *,
    objective: Objective = "value",
    time_limit: float | None = None,
) -> tuple[RankedMove, ...]:
    """The ``k`` best moves, best first, distinct by the multiset of rack tiles played.

    Fewer than ``k`` when the position has fewer distinct moves; an empty tuple when it has
    none. ``time_limit`` applies to each solve; a move cut short is marked ``feasible`` and
    the list stops there (the moves after it would not be proven either).

    >>> p = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    >>> [(m.value, [str(t) for t in m.played]) for m in top_moves(p, 3)]
    [(11, ['R4', 'O7']), (7, ['O7']), (4, ['R4'])]
    """
    from rummikub.tiles.arguments import count

    count(k, "k", 1, MAX_TOP)
    found: list[RankedMove] = []
    excluded: list[Counter[Tile]] = []
    while len(found) < k:
        result = solve(position, objective=objective, time_limit=time_limit, exclude=excluded)
        if not result.played:
            break  # no further move (or none found in time)
        found.append(RankedMove.of(result, rank=len(found) + 1))
        if not result.proven:
            break
        excluded.append(Counter(result.played))
    return tuple(found)


def best_move(
    position: Position, *, objective: Objective = "value", time_limit: float | None = None
) -> RankedMove:
    """The best move as a :class:`RankedMove` (for "no move": nothing played, rank 1)."""
    return RankedMove.of(solve(position, objective=objective, time_limit=time_limit))
