"""Locked units: melds whose jokers tie them together for the whole turn (RULES.md rule 4).

A unit is an old table meld holding a joker (under ``joker_lock = "strict"``) or, for a
player who opens and plays on in the same turn, an initial meld laid with a joker. It
cannot be a loose multiset of tiles in the model; instead each unit ends the turn in
exactly one of its *fates*:

- kept: intact inside one new meld, each joker standing for the same tile, extended by
  0-2 tiles at each end of a run or by 0-2 missing colors of a group, or by any number of
  jokers alone: an extension of three or more tiles with a numbered one can stand as a meld
  of its own, so it needs no fate here, but jokers alone cannot (RULES.md rule 4 lets a kept
  meld grow by any number of tiles);
- partly released: some (not all) jokers substituted, the rest of the unit kept as above
  with the substituting tiles in the jokers' places; the freed jokers go to the free pool;
- released: every joker substituted; all its tiles go to the free pool.

A fate lists the tile types that must substitute jokers: one tile each, from the rack (or,
with ``joker_swap_from = "rack_or_table"``, a free table tile), counted by the model.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import lru_cache

from rummikub.tiles.melds import Meld
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import JOKER, Tile

#: How many tiles a kept unit may gain at each end (run) or in all (group) when they hold a
#: numbered tile; jokers alone may extend it as far as the box's spare jokers reach.
MAX_EXTENSION = 2


class Fate:
    """One way a locked unit ends the turn (not changed once made).

    A plain class, not a dataclass: every ``rummikub solve`` process makes the class on
    import, and a dataclass takes far longer to make (benchmarks/RESULTS.md, "Speed
    choices", *Records*)."""

    __slots__ = ("demands", "meld", "needs", "unchanged")

    def __init__(self, meld: Meld | None, demands: tuple[Tile, ...], unchanged: bool) -> None:
        #: The new meld that holds the (rest of the) unit, or None when it is released.
        self.meld = meld
        #: Tiles that must substitute jokers, one tile per joker (a ``both`` release: per
        #: color).
        self.demands = demands
        #: True for the unit left exactly as it was (tie-break 3).
        self.unchanged = unchanged
        needs: dict[Tile, int] = {}
        for tile in meld.tiles if meld else ():
            needs[tile] = needs.get(tile, 0) + 1
        for tile in demands:
            needs.setdefault(tile, 1)  # already counted if the unit holds it
        #: Every tile this fate needs in play: its meld and its substitutes (a partly
        #: released unit holds its substitutes, so they are not counted twice).
        self.needs = tuple(needs.items())


@lru_cache(maxsize=4096)
def fates(unit: Meld, rules: Rules) -> tuple[Fate, ...]:
    """Every fate of a locked meld under ``rules``.

    Cached: the tables of a game's turns, and of an analysis's solves of one position,
    repeat melds (benchmarks/RESULTS.md, "Speed choices", *Locked melds' fates*)."""
    found = [Fate(meld, (), meld == unit) for meld in kept_in(unit, rules)]
    for substituted, rest in substitutions(unit, rules):
        if rest is None:
            found.append(Fate(None, substituted, False))
        else:
            found.extend(Fate(meld, substituted, False) for meld in kept_in(rest, rules))
    return tuple(found)


def kept_in(unit: Meld, rules: Rules) -> Iterator[Meld]:
    """Every meld that holds ``unit`` intact, grown as the module docstring says."""
    if unit.kind == "run":
        yield from _runs_around(unit, rules)
    else:
        yield from _groups_around(unit, rules)


def _fillings(tiles: list[Tile], jokers: int) -> Iterator[tuple[Tile, ...]]:
    """Each position filled by its own tile or by one of at most ``jokers`` jokers."""
    for laid in itertools.product(*[(t, JOKER) for t in tiles]):
        if laid.count(JOKER) <= jokers:
            yield laid


def _extensions(tiles: list[Tile], spare: int) -> Iterator[tuple[Tile, ...]]:
    """The ways to lay ``tiles`` at one end of a kept run with at most ``spare`` jokers:
    any filling up to :data:`MAX_EXTENSION` tiles, and longer stretches of jokers alone."""
    if len(tiles) <= MAX_EXTENSION:
        yield from _fillings(tiles, spare)
    elif len(tiles) <= spare:
        yield (JOKER,) * len(tiles)


def _reach(spare: int) -> int:
    """How far a kept unit may grow at one end (run) or in all (group)."""
    return max(MAX_EXTENSION, spare)


def _runs_around(unit: Meld, rules: Rules) -> Iterator[Meld]:
    color, start, end = unit.color, unit.start, unit.end
    spare = rules.jokers - unit.jokers  # jokers the box has beyond the unit's own
    for below in range(min(_reach(spare), start - 1) + 1):
        low = [Tile(color, n) for n in range(start - below, start)]
        for above in range(min(_reach(spare), rules.numbers - end) + 1):
            high = [Tile(color, n) for n in range(end + 1, end + above + 1)]
            for low_laid in _extensions(low, spare):
                for high_laid in _extensions(high, spare - low_laid.count(JOKER)):
                    yield Meld("run", (*low_laid, *unit.tiles, *high_laid))


def _groups_around(unit: Meld, rules: Rules) -> Iterator[Meld]:
    missing = unit.missing_colors(rules)
    number = unit.number
    room = rules.max_group - len(unit.tiles)
    spare = rules.jokers - unit.jokers
    # The unit's own jokers need colors that stay missing, so size <= colors is the rule.
    for added in range(min(_reach(spare), room) + 1):
        # Beyond MAX_EXTENSION only jokers alone: with a numbered tile, the added tiles
        # could stand as a group of their own.
        fewest = 0 if added <= MAX_EXTENSION else added
        for jokers in range(fewest, min(added, spare) + 1):
            for colors in itertools.combinations(missing, added - jokers):
                if added == 0:
                    yield unit  # as laid, so that "left as it was" is recognised
                    continue
                numbered = [*unit.numbered, *(Tile(c, number) for c in colors)]
                ordered = sorted(numbered, key=rules.sort_key)
                yield Meld("group", (*ordered, *(JOKER,) * (unit.jokers + jokers)))


def substitutions(unit: Meld, rules: Rules) -> Iterator[tuple[tuple[Tile, ...], Meld | None]]:
    """(substituting tiles, what stays locked) for each release or partial release."""
    if unit.kind == "run":
        places = [i for i, t in enumerate(unit.tiles) if t.is_joker]
        meaning = [Tile(unit.color, unit.start + i) for i in range(len(unit.tiles))]
        for k in range(1, len(places) + 1):
            for chosen in itertools.combinations(places, k):
                demands = tuple(meaning[i] for i in chosen)
                if k == len(places):
                    yield demands, None
                else:
                    tiles = tuple(
                        meaning[i] if i in chosen else t for i, t in enumerate(unit.tiles)
                    )
                    yield demands, Meld("run", tiles)
        return
    missing = unit.missing_colors(rules)
    number = unit.number
    jokers = unit.jokers
    if rules.group_joker_release == "both" and len(unit.tiles) == 3:
        # 1978 book: only tiles of every missing color release a 3-tile group, all at once.
        yield tuple(Tile(c, number) for c in missing), None
        return
    for k in range(1, jokers + 1):
        for colors in itertools.combinations(missing, k):
            demands = tuple(Tile(c, number) for c in colors)
            if k == jokers:
                yield demands, None
            else:
                numbered = sorted([*unit.numbered, *demands], key=rules.sort_key)
                yield demands, Meld("group", (*numbered, *(JOKER,) * (jokers - k)))
