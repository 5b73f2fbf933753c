"""The player's view (RULES.md, "The game", what a player knows) and determinization.

A strategy sees a :class:`~rummikub.tiles.position.Position` (its own rack, the table, whether
it has opened, the rules) and a :class:`View`: every rack's size, who has opened, the pool's
size and every turn so far as the table saw it. Nothing else: :func:`view_of` builds both
from a :class:`~rummikub.tiles.game.engine.GameState` reading only what is public and the
seat's own rack.

:func:`unseen` is what the player cannot see (the box less the table less its own rack), and
:func:`determinize` deals it at random, seeded, into the other racks (their known sizes) and
the pool: one *determinization*, a full game state consistent with everything the player knows,
for a strategy to play out as if it could see every rack.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from rummikub.core import arguments
from rummikub.core.arguments import instance
from rummikub.core.errors import RummikubError
from rummikub.tiles.game.engine import GameState, Seen, box
from rummikub.tiles.position import Position
from rummikub.tiles.tiles import Tile

__all__ = ["View", "check_view", "determinize", "seat_of", "unseen", "view_of"]


@dataclass(frozen=True, slots=True)
class View:
    """What every player at the table knows besides their own rack."""

    seat: int
    rack_counts: tuple[int, ...]
    opened: tuple[bool, ...]
    pool_count: int
    turns: int
    #: Every turn so far: who played what, who drew, who passed (never the tile drawn).
    history: tuple[Seen, ...] = ()

    def opponents(self) -> tuple[int, ...]:
        """The rack sizes of the other players."""
        return tuple(n for s, n in enumerate(self.rack_counts) if s != self.seat)

    @property
    def players(self) -> int:
        return len(self.rack_counts)


def seat_of(state: object, seat: object) -> int:
    """**The** check of a tile game's ``state`` and a ``seat`` of it (None: the player to
    move), for every public function that takes them."""
    found = instance(state, GameState, "state", "replay(record).state")
    return found.to_move if seat is None else arguments.seat(seat, len(found.players))


def check_view(position: object, view: object) -> None:
    """**The** check of what a seat sees, as :func:`view_of` gives it: a position and its
    view."""
    instance(position, Position, "position", "view_of(state)[0]")
    instance(view, View, "view", "view_of(state)[1]")


def view_of(state: GameState, seat: int | None = None) -> tuple[Position, View]:
    """What ``seat`` (default: the player to move) sees of ``state``: its position and view.

    Only the seat's own rack is read; the other racks and the pool's order never are.
    """
    seat = seat_of(state, seat)
    view = View(
        seat=seat,
        rack_counts=state.rack_counts,
        opened=state.opened,
        pool_count=state.pool_count,
        turns=state.turns,
        history=state.history,
    )
    return state.position(seat), view


def unseen(position: Position, view: View) -> list[Tile]:
    """The tiles ``position``'s player cannot see, in the box's fixed order: the box less the
    table less its own rack. They lie in the other racks and the pool."""
    seen = Counter(t for meld in position.table for t in meld.tiles)
    seen.update(position.rack)
    tiles = []
    for tile in box(position.rules):
        if seen[tile] > 0:
            seen[tile] -= 1
        else:
            tiles.append(tile)
    if seen.total() > 0:
        raise RummikubError("the table and the rack hold more tiles than the box")
    hidden = sum(view.opponents()) + view.pool_count
    if len(tiles) != hidden:
        raise RummikubError(
            f"{len(tiles)} tiles are out of sight, but the other racks and the pool hold {hidden}"
        )
    return tiles


def determinize(position: Position, view: View, rng: random.Random) -> GameState:
    """One full state consistent with the view: the unseen tiles shuffled by ``rng`` and dealt
    into the other racks (their sizes, seat order) and then the pool (in draw order).

    The history is kept, so a playout knows the turns so far; the deal does not yet use it
    (every unseen tile is taken as equally likely anywhere, RULES.md's default reading).
    """
    tiles = unseen(position, view)
    rng.shuffle(tiles)
    sort = position.rules.sort_key
    racks: list[tuple[Tile, ...] | None] = []
    at = 0
    for seat, count in enumerate(view.rack_counts):
        if seat == view.seat:
            racks.append(tuple(sorted(position.rack, key=sort)))
            continue
        racks.append(tuple(sorted(tiles[at : at + count], key=sort)))
        at += count
    opened = list(view.opened)
    opened[view.seat] = position.opened
    # The passes in a row are public: a full round of them ends the hand.
    passes = 0
    for seen in reversed(view.history):
        if seen.kind != "pass":
            break
        passes += 1
    return GameState(
        rules=position.rules,
        players=tuple(f"P{s + 1}" for s in range(view.players)),
        table=position.table,
        racks=tuple(racks),
        rack_counts=view.rack_counts,
        opened=tuple(opened),
        pool=tuple(tiles[at:]),
        pool_count=view.pool_count,
        turns=view.turns,
        passes=passes,
        history=view.history,
    )
