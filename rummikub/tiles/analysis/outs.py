"""Outs: for every tile the player could draw, the best move with it, and the gain.

A tile kind is one of the box's unseen tiles (the box minus the table minus the rack; the
pool and the other players' racks are alike unknown to the player, so each unseen tile is
equally likely to be the next drawn). With that tile added to the rack, the best move can
only stay or rise (every move stays legal), so the gain is never negative.

One solve per tile kind, except where a cheap proof shows the tile cannot gain: a drawn
tile that fits no meld made of the table's and rack's tiles (jokers standing in anywhere)
can never be laid, so every move with it in the rack is a move without it. Each solve
looks only for moves that beat today's best (the solver's ``better_than``): where none
does, today's best is the answer, and the proof of that is often quicker than a full
solve.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from rummikub.tiles.analysis.moves import RankedMove, best_move
from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver import Objective, solve
from rummikub.tiles.tiles import JOKER, Tile

#: How an out's best move was established: a solve with the tile added, or the proof that
#: the tile fits no meld (its best move is today's best).
Proof = Literal["solve", "fits no meld"]

#: Called after each tile kind with (kinds done, kinds in all).
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Out:
    """One tile kind the player could draw."""

    tile: Tile
    #: Unseen copies of this tile.
    count: int
    #: The chance that the next tile drawn is this one (``count`` / all unseen tiles).
    chance: Fraction
    #: The best move with this tile added to the rack (a move of that position: its rack
    #: left holds the tile when the tile is not played).
    best: RankedMove
    #: How much more the best move scores (by the objective's first level) with this tile.
    gain: int
    proof: Proof

    def to_data(self) -> dict[str, Any]:
        return {
            "tile": str(self.tile),
            "count": self.count,
            "chance": round(float(self.chance), 6),
            "gain": self.gain,
            "proof": self.proof,
            "best": self.best.to_data(),
        }


@dataclass(frozen=True, slots=True)
class Outs:
    """Every tile kind that could be drawn, the most helpful first."""

    #: Today's best move (rank 1), the baseline of every gain.
    today: RankedMove
    #: Sorted by gain (highest first), then by the tile's place in a sorted rack.
    outs: tuple[Out, ...]
    #: All unseen tiles (the sum of the counts).
    unseen: int
    objective: Objective = "value"

    def chance(self, at_least: int = 1) -> Fraction:
        """The chance that the next draw raises the best move by at least ``at_least``."""
        if self.unseen == 0:
            return Fraction(0)
        helping = sum(out.count for out in self.outs if out.gain >= at_least)
        return Fraction(helping, self.unseen)

    @property
    def helping(self) -> tuple[Out, ...]:
        """The outs that gain something."""
        return tuple(out for out in self.outs if out.gain > 0)

    @property
    def proven(self) -> bool:
        """Every best move proven (no time limit cut a solve short)."""
        return self.today.proven and all(out.best.proven for out in self.outs)

    def thresholds(self) -> tuple[int, ...]:
        """The distinct positive gains, smallest first (the steps of :meth:`chance`)."""
        return tuple(sorted({out.gain for out in self.outs if out.gain > 0}))

    def to_data(self) -> dict[str, Any]:
        return {
            "objective": self.objective,
            "unseen": self.unseen,
            "today": self.today.value if self.objective == "value" else self.today.tiles,
            "chance": [
                {"at_least": n, "chance": round(float(self.chance(n)), 6)}
                for n in self.thresholds()
            ],
            "outs": [out.to_data() for out in self.outs],
        }


def unseen_tiles(position: Position) -> Counter[Tile]:
    """The box minus the table minus the rack: the tiles the player could draw."""
    rules = position.rules
    box: Counter[Tile] = Counter({tile: rules.copies for tile in rules.tile_types()})
    if rules.jokers:
        box[JOKER] = rules.jokers
    box.subtract(position.table_tiles() + position.rack_tiles())
    return +box  # drops kinds with no copy left


def fits_a_meld(tile: Tile, tiles: Counter[Tile], rules: Rules) -> bool:
    """Whether ``tile`` can be part of a valid meld whose other tiles come from ``tiles``
    (a joker of ``tiles`` standing in for any missing one).

    A meld holding ``tile`` holds a shortest part holding it: three consecutive numbers of
    its color, or three tiles of its number. So these are the only melds to try.
    """
    if tile.is_joker:
        return True  # a joker fits beside any two tiles of a run or group: not worth a proof
    jokers = tiles[JOKER]
    color, number = tile.color, tile.number
    for start in range(number - 2, number + 1):
        if start < 1 or start + 2 > rules.numbers:
            continue
        missing = sum(
            1 for n in range(start, start + 3) if n != number and tiles[Tile(color, n)] == 0
        )
        if missing <= jokers:
            return True
    others = sum(1 for c in rules.colors if c != color and tiles[Tile(c, number)] > 0)
    return rules.max_group >= 3 and 1 + min(others, rules.max_group - 1) + jokers >= 3


def outs(
    position: Position,
    *,
    objective: Objective = "value",
    time_limit: float | None = None,
    today: RankedMove | None = None,
    progress: Progress | None = None,
) -> Outs:
    """For every unseen tile kind, the best move with that tile added to the rack.

    ``today`` is the position's best move if already known; ``time_limit`` applies to each
    solve; ``progress`` is told after each tile kind (a command shows a bar with it).

    >>> p = Position.parse(rack="R4 K7", table=["R1 R2 R3", "B7 R7 O7"])
    >>> result = outs(p)
    >>> result.today.value, [(str(o.tile), o.count, o.gain) for o in result.helping]
    (11, [('J', 2, 30), ('R5', 2, 5)])
    >>> result.unseen, result.chance(at_least=1), result.chance(at_least=10)
    (98, Fraction(2, 49), Fraction(1, 49))
    """
    if today is None:
        today = best_move(position, objective=objective, time_limit=time_limit)
    unseen = unseen_tiles(position)
    kinds = sorted(unseen, key=position.rules.sort_key)
    total = sum(unseen.values())
    present = position.table_tiles() + position.rack_tiles()
    found: list[Out] = []
    for done, tile in enumerate(kinds, start=1):
        chance = Fraction(unseen[tile], total)
        drawn = Position(position.table, (*position.rack, tile), position.opened, position.rules)
        if not fits_a_meld(tile, present, position.rules):
            found.append(
                Out(tile, unseen[tile], chance, today.in_position(drawn), 0, "fits no meld")
            )
        else:
            best = _best_with(drawn, today, objective, time_limit)
            gain = _score(best, objective) - _score(today, objective)
            found.append(Out(tile, unseen[tile], chance, best, gain, "solve"))
        if progress is not None:
            progress(done, len(kinds))
    order = position.rules.sort_key
    found.sort(key=lambda out: (-out.gain, order(out.tile)))
    return Outs(today, tuple(found), total, objective)


def _best_with(
    drawn: Position, today: RankedMove, objective: Objective, time_limit: float | None
) -> RankedMove:
    """The best move of ``drawn`` (today's position with one more rack tile).

    Only moves scoring more than today's best are searched for: today's best is still a
    move, so if none scores more it is the best move with the tile too, and proving that
    nothing beats it is often quicker than finding the best move again.
    """
    first, second = (
        (today.value, today.tiles) if objective == "value" else (today.tiles, today.value)
    )
    result = solve(drawn, objective=objective, time_limit=time_limit, better_than=(first, second))
    if result.played:
        return RankedMove.of(result)
    # No better move: proven (no_move), or none found in time (then not proven).
    return replace(today.in_position(drawn), status=today.status if result.proven else "feasible")


def _score(move: RankedMove, objective: Objective) -> int:
    return move.value if objective == "value" else move.tiles
