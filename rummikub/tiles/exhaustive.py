"""The best move by exhaustive search: a slow reference for the solver's answers, and for
the puzzle collection's expected answers (``puzzles/tools/verify_exhaustive.py``).

The solver never uses it, and it never uses the solver (nor OR-Tools): it is a second,
independent way to the same answer, so the tests can compare the two (``tests/`` checks this
search itself against a naive one).

Every candidate move is built from the definition in RULES.md and judged by the checker:

1. every non-empty sub-multiset P of the rack, in order of the objective (value then tiles,
   or tiles then value), so the first P with a legal move is optimal;
2. every partition of the old table's tiles plus P into valid melds, with every meaning
   of every joker (in a run, each position a joker could fill; in a group a joker stands for
   any missing color, so a group is its tiles);
3. :func:`rummikub.tiles.checker.check` decides legality (conservation, initial meld, joker lock);
   among the legal tables for the best P the one leaving most old melds exactly as they
   were wins (tie-break 3).

Only meant for small positions (a table of about 9 tiles, a rack of about 5): the number of
partitions grows exponentially with the tiles and jokers.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Final, NamedTuple

from rummikub.tiles.checker import check
from rummikub.tiles.melds import Identity, Meld
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver.result import Objective
from rummikub.tiles.tiles import JOKER, Tile

#: What :func:`best_move` returns when no legal move exists (the player draws).
NO_MOVE: Final = "no move"


class BestMove(NamedTuple):
    """An optimal move and its score by RULES.md "The best move"."""

    value: int
    tiles: int
    #: Old melds left exactly as they were (tie-break 3).
    unchanged: int
    move: Move


def count_unchanged(old: Iterable[Meld], new: Iterable[Meld]) -> int:
    """How many old melds appear in the new table exactly as they were (:meth:`Meld.same_as`)."""
    common = Counter(m.identity() for m in old) & Counter(m.identity() for m in new)
    return sum(common.values())


# -- every partition into valid melds ----------------------------------------------


def _runs_through(
    tile: Tile, counts: Counter[Tile], jokers: int, rules: Rules
) -> Iterator[tuple[Tile, ...]]:
    """Runs holding ``tile`` whose other cells come from ``counts`` or are jokers."""
    color, number = tile.color, tile.number

    def extend(cells: list[Tile], place: int, used: int) -> Iterator[tuple[Tile, ...]]:
        # ``place`` is the number of the next cell; ``used`` the jokers in ``cells``.
        if place > rules.numbers:
            return
        if place == number:
            options = [tile]
        else:
            options = []
            if counts[Tile(color, place)] > 0:
                options.append(Tile(color, place))
            if used < jokers:
                options.append(JOKER)
        for cell in options:
            cells.append(cell)
            extra = used + cell.is_joker
            if place >= number and len(cells) >= 3:
                yield tuple(cells)
            yield from extend(cells, place + 1, extra)
            cells.pop()

    # Cells below ``tile`` can only be jokers when ``tile`` is the least tile left, but
    # any start from which jokers could reach it is tried; impossible ones end at once.
    for start in range(max(1, number - jokers), number + 1):
        yield from extend([], start, 0)


def _groups_through(
    tile: Tile, counts: Counter[Tile], jokers: int, rules: Rules
) -> Iterator[tuple[Tile, ...]]:
    """Groups holding ``tile`` (numbered tiles in color order, then jokers)."""
    others = [
        Tile(c, tile.number)
        for c in rules.colors
        if c != tile.color and counts[Tile(c, tile.number)] > 0
    ]
    for size in range(len(others) + 1):
        for chosen in itertools.combinations(others, size):
            numbered = sorted((tile, *chosen), key=rules.sort_key)
            room = rules.max_group - len(numbered)
            for extra in range(min(jokers, room) + 1):
                if len(numbered) + extra >= 3:
                    yield (*numbered, *([JOKER] * extra))


def melds_through(tile: Tile, counts: Counter[Tile], jokers: int, rules: Rules) -> list[Meld]:
    """Every valid meld holding ``tile`` and otherwise tiles of ``counts`` and jokers."""
    found = [Meld("run", cells) for cells in _runs_through(tile, counts, jokers, rules)]
    found.extend(Meld("group", cells) for cells in _groups_through(tile, counts, jokers, rules))
    return found


def partitions(tiles: Iterable[Tile], rules: Rules) -> Iterator[tuple[Meld, ...]]:
    """Every way to lay ``tiles`` (all of them) as valid melds, each partition once.

    Recursion: the least numbered tile left must lie in some meld; try each meld holding
    it. Jokers go last: every meld holds a numbered tile, so jokers left alone are a dead
    end. Two copies of one tile would produce the same partition twice (their melds
    swapped), so the melds taken for copies of one tile must come in non-decreasing key
    order.
    """
    counts = Counter(tiles)
    jokers = counts.pop(JOKER, 0)
    order = sorted(counts, key=rules.sort_key)
    chosen: list[Meld] = []

    def split(jokers_left: int, floor: tuple[Tile, Identity] | None) -> Iterator[tuple[Meld, ...]]:
        first = next((t for t in order if counts[t] > 0), None)
        if first is None:
            if jokers_left == 0:
                yield tuple(chosen)
            return
        counts[first] -= 1
        for meld in melds_through(first, counts, jokers_left, rules):
            key = meld.identity()
            if floor is not None and floor[0] == first and key < floor[1]:
                continue
            # ``first`` (once in any meld) was taken above; the other tiles are taken here.
            numbered = [t for t in meld.tiles if not t.is_joker]
            numbered.remove(first)
            used = meld.jokers
            counts.subtract(numbered)
            chosen.append(meld)
            yield from split(jokers_left - used, (first, key))
            chosen.pop()
            counts.update(numbered)
        counts[first] += 1

    yield from split(jokers, None)


# -- the search -----------------------------------------------------------------------


def rack_subsets(rack: Sequence[Tile]) -> Iterator[tuple[Tile, ...]]:
    """Every non-empty sub-multiset of the rack, each once."""
    counts = Counter(rack)
    tiles = list(counts)
    for picks in itertools.product(*(range(counts[t] + 1) for t in tiles)):
        played = tuple(t for t, n in zip(tiles, picks, strict=True) for _ in range(n))
        if played:
            yield played


def best_move(position: Position, objective: Objective = "value") -> BestMove | str:
    """The best move by RULES.md, or :data:`NO_MOVE`.

    The ranking is (value, tiles, unchanged old melds) for the value objective and
    (tiles, value, unchanged) for the tiles objective.
    """
    rules = position.rules

    def score(played: Sequence[Tile]) -> tuple[int, int]:
        value = sum(rules.tile_value(t) for t in played)
        return (value, len(played)) if objective == "value" else (len(played), value)

    old = list(position.table_tiles().elements())
    subsets = sorted(rack_subsets(position.rack), key=score, reverse=True)
    for _, same_score in itertools.groupby(subsets, key=score):
        candidates: list[tuple[int, tuple[Meld, ...], tuple[Tile, ...]]] = []
        for played in same_score:
            for table in partitions([*old, *played], rules):
                candidates.append((count_unchanged(position.table, table), table, played))
        # Check the least disturbing tables first: the first legal one wins tie-break 3.
        candidates.sort(key=lambda c: c[0], reverse=True)
        for unchanged, table, played in candidates:
            verdict = check(position, table)
            if verdict.legal:
                # The checker works out the played tiles itself; it must agree.
                assert Counter(verdict.played) == Counter(played), (verdict, played)
                value = sum(rules.tile_value(t) for t in played)
                assert verdict.value == value, (verdict, value)
                return BestMove(value, len(played), unchanged, Move(table, played))
    return NO_MOVE
