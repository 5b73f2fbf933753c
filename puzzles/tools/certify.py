"""A best move proven without the ILP, for positions too large for the exhaustive search.

The proof has two halves, both independent of the solver:

* **Witness** (a lower bound): the puzzle's ``after`` table, which ``rummikub.check`` (the
  executable form of RULES.md) finds legal. The best move is worth at least as much.
* **Bound** (an upper bound): a move plays only rack tiles, and only rack tiles that lie in
  some valid meld. A numbered tile that fits no meld made of the table's and the rack's tiles
  together (with every joker of the position free) can never be played. So no move plays
  more value, or more tiles, than the rack's *playable* tiles.

When the witness plays every playable rack tile, it is a best move: its value is the most
possible, and so is its count of tiles (the tie-break). Jokers are counted as playable,
which can only make the bound larger, so the argument stays sound.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rummikub.tiles.checker import check
from rummikub.tiles.position import Position
from rummikub.tiles.puzzles import Puzzle
from rummikub.tiles.tiles import JOKER, Tile


@dataclass(frozen=True, slots=True)
class Certificate:
    """A best move's value and tile count, and what proves them."""

    value: int
    tiles: int
    #: Rack tiles that fit no meld at all (left out of the bound).
    unplayable: tuple[Tile, ...]


def fits_some_meld(tile: Tile, others: Counter[Tile], position: Position) -> bool:
    """Whether ``tile`` lies in some valid meld whose other tiles come from ``others``.

    Any run or group of 3+ tiles holding ``tile`` holds one of 3 tiles (a run: the three
    consecutive places around it; a group: any two of its other tiles), so only those are
    tried. A place no tile of ``others`` fills takes a joker of ``others``.
    """
    rules = position.rules
    jokers = others[JOKER]
    color, number = tile.color, tile.number
    if rules.max_group >= 3:
        colors = sum(1 for c in rules.colors if c != color and others[Tile(c, number)] > 0)
        if colors + jokers >= 2:
            return True
    for start in range(max(1, number - 2), min(number, rules.numbers - 2) + 1):
        places = [n for n in range(start, start + 3) if n != number]
        missing = sum(1 for n in places if others[Tile(color, n)] == 0)
        if missing <= jokers:
            return True
    return False


def unplayable(position: Position) -> Counter[Tile]:
    """The rack tiles (with their copies) that no legal move can ever play."""
    everything = position.table_tiles() + position.rack_tiles()
    stuck: Counter[Tile] = Counter()
    for tile, copies in position.rack_tiles().items():
        if tile.is_joker:
            continue
        others = everything.copy()
        others[tile] -= 1
        if not fits_some_meld(tile, others, position):
            stuck[tile] = copies
    return stuck


def bound(position: Position) -> tuple[int, int]:
    """No move plays more value, or more tiles, than this."""
    rules = position.rules
    playable = position.rack_tiles() - unplayable(position)
    return sum(rules.tile_value(t) * n for t, n in playable.items()), playable.total()


def certify(puzzle: Puzzle) -> Certificate | str:
    """The best move's value and tiles, proven by the puzzle's ``after`` and the bound; or
    why the proof does not go through."""
    position = puzzle.position
    if puzzle.after is None:
        return "no `after` table to serve as the witness"
    verdict = check(position, puzzle.after)
    if not verdict.legal:
        return "the `after` table is not a legal move: " + "; ".join(verdict.errors)
    most_value, most_tiles = bound(position)
    if (verdict.value, len(verdict.played)) != (most_value, most_tiles):
        return (
            f"the `after` table plays value {verdict.value}, {len(verdict.played)} tiles, "
            f"but the bound allows value {most_value}, {most_tiles} tiles"
        )
    stuck = unplayable(position)
    ordered = tuple(sorted(stuck.elements(), key=position.rules.sort_key))
    return Certificate(verdict.value, len(verdict.played), ordered)
