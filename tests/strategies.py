"""Hypothesis strategies for rule sets, tiles, melds and positions.

Every strategy builds *valid* values directly from their definition in RULES.md (a run is a
color, a start and a length with jokers at some positions; a group is a number, some colors
and jokers for missing colors) rather than by filtering random tiles through the library's
own parser: the tests then check the library against an independent construction.
"""

from __future__ import annotations

import os
import string
from collections import Counter
from collections.abc import Sequence

from hypothesis import assume
from hypothesis import strategies as st

from rummikub.tiles.melds import Kind, Meld, RawMeld
from rummikub.tiles.position import Position
from rummikub.tiles.rules import DEFAULT_COLOR_LETTERS, MAX_COLORS, PRESETS, Rules
from rummikub.tiles.solver.opening_bound import takes_relaxations
from rummikub.tiles.tiles import JOKER, Tile

#: Letters a rule set may use as colors: any upper-case letter but J (the joker).
COLOR_LETTERS = "".join(c for c in string.ascii_uppercase if c != "J")

#: Melds hold at most this many jokers here: the box has two by default and RULES.md
#: allows both in one meld; more would mostly produce melds of jokers with one tile.
MAX_MELD_JOKERS = 2


#: Multiplies the example counts of the slower property tests: RUMMIKUB_TEST_SCALE=10 for a
#: thorough run before a release, 0.2 for a quick one while editing.
EXAMPLE_SCALE = float(os.environ.get("RUMMIKUB_TEST_SCALE", "1"))


def examples(count: int) -> int:
    """``count`` hypothesis examples, scaled by :data:`EXAMPLE_SCALE` (at least one)."""
    return max(1, round(count * EXAMPLE_SCALE))


# -- rule sets ----------------------------------------------------------------


def presets() -> st.SearchStrategy[Rules]:
    """Every preset of RULES.md."""
    return st.sampled_from([PRESETS[name] for name in sorted(PRESETS)])


@st.composite
def color_sets(draw: st.DrawFn, counts: st.SearchStrategy[int]) -> str:
    """Color letters: half the time the default ones, else any letters but J in any order."""
    count = draw(counts)
    if draw(st.booleans()):
        return DEFAULT_COLOR_LETTERS[:count]
    letters = draw(
        st.lists(st.sampled_from(COLOR_LETTERS), min_size=count, max_size=count, unique=True)
    )
    return "".join(letters)


# Defaults of option_rule_sets: generalised tile sets around the standard one.
_NUMBERS = st.integers(5, 26)
_COLORS = st.integers(3, MAX_COLORS)
_COPIES = st.integers(1, 4)
_JOKERS = st.integers(0, 4)
_SMALL_JOKERS = st.integers(0, 2)
_INITIAL_MELD = st.sampled_from([0, 1, 10, 30, 50])
_JOKER_VALUE = st.sampled_from([0, 1, 5, 30])


@st.composite
def option_rule_sets(
    draw: st.DrawFn,
    *,
    numbers: st.SearchStrategy[int] = _NUMBERS,
    colors: st.SearchStrategy[int] = _COLORS,
    copies: st.SearchStrategy[int] = _COPIES,
    jokers: st.SearchStrategy[int] = _JOKERS,
    initial_meld: st.SearchStrategy[int] = _INITIAL_MELD,
    joker_value: st.SearchStrategy[int] = _JOKER_VALUE,
) -> Rules:
    """A rule set with every option drawn at random (generalised tile sets included)."""
    return Rules(
        numbers=draw(numbers),
        colors=draw(color_sets(colors)),
        copies=draw(copies),
        jokers=draw(jokers),
        initial_meld=draw(initial_meld),
        joker_value=draw(joker_value),
        open_then_play=draw(st.booleans()),
        joker_lock=draw(st.sampled_from(["strict", "free"])),
        joker_swap_from=draw(st.sampled_from(["rack", "rack_or_table"])),
        group_joker_release=draw(st.sampled_from(["either", "both"])),
    )


def rule_sets() -> st.SearchStrategy[Rules]:
    """Presets and random rule sets."""
    return st.one_of(presets(), option_rule_sets())


def small_rule_sets(jokers: st.SearchStrategy[int] = _SMALL_JOKERS) -> st.SearchStrategy[Rules]:
    """Rule sets small enough for the exhaustive search, with every rule option at random.

    With numbers up to 7 no hand-only meld of a five-tile rack reaches 30, so the initial
    meld thresholds are scaled down to values that sometimes pass and sometimes fail.
    """
    return option_rule_sets(
        numbers=st.integers(5, 7),
        colors=st.integers(3, 4),
        copies=st.integers(1, 2),
        jokers=jokers,
        initial_meld=st.sampled_from([0, 6, 10, 15, 21]),
        joker_value=st.sampled_from([0, 3, 10, 30]),
    )


# -- tiles --------------------------------------------------------------------


def tiles(rules: Rules) -> st.SearchStrategy[Tile]:
    """A tile of the rule set's box (the joker included if the box has one)."""
    box = list(rules.tile_types())
    if rules.jokers:
        box.append(JOKER)
    return st.sampled_from(box)


def notation_tiles() -> st.SearchStrategy[Tile]:
    """Any tile the notation can write, whether or not some box holds it: A1 .. Z99, J."""
    numbered = st.builds(Tile, st.sampled_from(COLOR_LETTERS), st.integers(1, 99))
    return st.one_of(numbered, st.just(JOKER))


# -- melds --------------------------------------------------------------------


def _joker_budget(rules: Rules, size: int, max_jokers: int) -> int:
    # A meld holds at least one numbered tile and no more jokers than the box.
    return max(0, min(max_jokers, rules.jokers, size - 1))


@st.composite
def runs(
    draw: st.DrawFn,
    rules: Rules,
    *,
    max_jokers: int = MAX_MELD_JOKERS,
    max_length: int | None = None,
) -> Meld:
    """A valid run: jokers at any positions, including both ends."""
    color = draw(st.sampled_from(rules.colors))
    longest = rules.numbers if max_length is None else min(max_length, rules.numbers)
    length = draw(st.integers(3, longest))
    start = draw(st.integers(1, rules.numbers - length + 1))
    count = draw(st.integers(0, _joker_budget(rules, length, max_jokers)))
    places = draw(st.lists(st.integers(0, length - 1), min_size=count, max_size=count, unique=True))
    cells = tuple(JOKER if i in places else Tile(color, start + i) for i in range(length))
    return Meld("run", cells)


@st.composite
def groups(draw: st.DrawFn, rules: Rules, *, max_jokers: int = MAX_MELD_JOKERS) -> Meld:
    """A valid group, its tiles in any order (groups keep the order they are written in)."""
    number = draw(st.integers(1, rules.numbers))
    size = draw(st.integers(3, rules.max_group))
    count = draw(st.integers(0, _joker_budget(rules, size, max_jokers)))
    colors = draw(st.permutations(rules.colors))[: size - count]
    cells = [Tile(c, number) for c in colors] + [JOKER] * count
    return Meld("group", tuple(draw(st.permutations(cells))))


@st.composite
def ambiguous_melds(draw: st.DrawFn, rules: Rules) -> Meld:
    """One numbered tile and two jokers: a run (joker positions as written) or a group."""
    assert rules.jokers >= 2 and rules.max_group >= 3
    tile = draw(st.sampled_from(list(rules.tile_types())))
    candidates: list[Meld] = [Meld("group", (tile, JOKER, JOKER))]
    for index in range(3):
        start = tile.number - index
        if start >= 1 and start + 2 <= rules.numbers:
            cells = [JOKER, JOKER, JOKER]
            cells[index] = tile
            candidates.append(Meld("run", tuple(cells)))
    return draw(st.sampled_from(candidates))


def melds(
    rules: Rules, *, max_jokers: int = MAX_MELD_JOKERS, max_run: int | None = None
) -> st.SearchStrategy[Meld]:
    """Any valid meld of the rule set: runs, groups, and ambiguous melds when possible."""
    options: list[st.SearchStrategy[Meld]] = [
        runs(rules, max_jokers=max_jokers, max_length=max_run)
    ]
    if rules.max_group >= 3:
        options.append(groups(rules, max_jokers=max_jokers))
        if rules.jokers >= 2 and max_jokers >= 2:
            options.append(ambiguous_melds(rules))
    return st.one_of(options)


@st.composite
def rules_and_melds(draw: st.DrawFn) -> tuple[Rules, Meld]:
    rules = draw(rule_sets())
    return rules, draw(melds(rules))


@st.composite
def raw_melds(draw: st.DrawFn) -> RawMeld:
    """Tiles as written with an optional kind, valid as a meld or not."""
    cells = draw(st.lists(notation_tiles(), min_size=1, max_size=8))
    kinds: list[Kind | None] = [None, "run", "group"]
    return RawMeld(tuple(cells), draw(st.sampled_from(kinds)))


# -- positions ----------------------------------------------------------------


def box(rules: Rules) -> Counter[Tile]:
    """Every tile of the rule set with its number of copies."""
    counts = Counter({tile: rules.copies for tile in rules.tile_types()})
    if rules.jokers:
        counts[JOKER] = rules.jokers
    return counts


def _fits(counts: Counter[Tile], meld: Meld, rules: Rules) -> bool:
    extra = Counter(meld.tiles)
    return all(counts[t] + n <= rules.copies_of(t) for t, n in extra.items())


@st.composite
def tables(
    draw: st.DrawFn,
    rules: Rules,
    *,
    max_melds: int = 6,
    max_tiles: int | None = None,
    max_run: int | None = 7,
) -> tuple[Meld, ...]:
    """Valid melds whose tiles the box can supply together; jokers sit (locked) in melds."""
    wanted = draw(st.integers(0, max_melds))
    table: list[Meld] = []
    counts: Counter[Tile] = Counter()
    # A meld the box cannot supply next to the others is skipped, not retried: the
    # table just comes out shorter, which keeps generation cheap and shrinkable.
    for _ in range(wanted):
        meld = draw(melds(rules, max_run=max_run))
        size = sum(counts.values()) + len(meld.tiles)
        if _fits(counts, meld, rules) and (max_tiles is None or size <= max_tiles):
            table.append(meld)
            counts.update(meld.tiles)
    return tuple(table)


def helpful_tiles(rules: Rules, table: Sequence[Meld]) -> list[Tile]:
    """Tiles that could join the table: run ends, missing group colors, joker stand-ins.

    Racks drawn only at random from a 106-tile box rarely touch the table; mixing these in
    exercises extension, joker release and rearrangement far more often.
    """
    found: list[Tile] = []
    for meld in table:
        if meld.kind == "run":
            if meld.start > 1:
                found.append(Tile(meld.color, meld.start - 1))
            if meld.end < rules.numbers:
                found.append(Tile(meld.color, meld.end + 1))
            found.extend(meld.joker_tiles())
        else:
            found.extend(Tile(c, meld.number) for c in meld.missing_colors(rules))
    return found


@st.composite
def racks(
    draw: st.DrawFn,
    rules: Rules,
    table: Sequence[Meld],
    *,
    max_tiles: int = 14,
    min_tiles: int = 0,
    jokers: bool | None = None,
    max_jokers: int = 2,
) -> tuple[Tile, ...]:
    """A rack from the tiles the table leaves in the box.

    ``jokers``: True puts at least one joker in the rack (if one is left), False none,
    None leaves it to chance (jokers are drawn far more often than their share of the box),
    at most ``max_jokers`` of them.
    Besides random tiles, a rack often holds a whole meld (so that a player who has not
    opened yet can) and tiles that fit the table: random racks alone mostly mean no move.
    """
    left = box(rules) - Counter(t for m in table for t in m.tiles)
    rack: list[Tile] = []

    def take(tiles: Sequence[Tile]) -> None:
        rack.extend(tiles)
        left.subtract(tiles)

    if jokers is not False and left[JOKER]:
        low = 1 if jokers else 0
        take([JOKER] * draw(st.integers(low, min(left[JOKER], max_jokers, max_tiles))))
    if max_tiles - len(rack) >= 3 and draw(st.sampled_from([True, True, False])):
        meld = draw(melds(rules, max_jokers=left[JOKER] if jokers is not False else 0, max_run=5))
        if len(meld.tiles) <= max_tiles - len(rack) and not Counter(meld.tiles) - left:
            take(meld.tiles)
    for tile in helpful_tiles(rules, table):
        if len(rack) < max_tiles and left[tile] > 0 and draw(st.booleans()):
            take([tile])
    # Jokers come only from the steps above: random ones would rarely respect ``jokers``.
    del left[JOKER]
    # Each copy in the box is one item, so distinct indices never overdraw a tile.
    pool = sorted(left.elements(), key=rules.sort_key)
    room = max_tiles - len(rack)
    if pool and room > 0:
        # Draw the size first: hypothesis alone would favour racks of one or two tiles.
        size = draw(st.integers(min(len(pool), room, max(0, min_tiles - len(rack))), room))
        size = min(size, len(pool))
        picks = draw(
            st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True)
        )
        rack.extend(pool[i] for i in picks)
    return tuple(draw(st.permutations(rack)))


@st.composite
def positions(
    draw: st.DrawFn,
    rules: st.SearchStrategy[Rules] | None = None,
    *,
    max_melds: int = 6,
    max_table_tiles: int | None = None,
    max_run: int | None = 7,
    max_rack: int = 14,
    min_rack: int = 0,
    opened: bool | None = None,
    jokers: bool | None = None,
    max_rack_jokers: int = 2,
) -> Position:
    """A consistent position: no tile used more often than the box holds it."""
    chosen = draw(rules if rules is not None else rule_sets())
    table = draw(tables(chosen, max_melds=max_melds, max_tiles=max_table_tiles, max_run=max_run))
    rack = draw(
        racks(
            chosen,
            table,
            max_tiles=max_rack,
            min_tiles=min_rack,
            jokers=jokers,
            max_jokers=max_rack_jokers,
        )
    )
    # Two thirds opened: the joker lock and rearrangements matter most there.
    is_opened = draw(st.sampled_from([True, True, False])) if opened is None else opened
    position = Position(table, rack, is_opened, chosen)
    assert not position.problems(), position.problems()
    return position


def small_positions(
    rules: st.SearchStrategy[Rules] | None = None,
    *,
    opened: bool | None = None,
    max_rack_jokers: int = 2,
) -> st.SearchStrategy[Position]:
    """Positions small enough to search exhaustively: at most 3 melds / 9 tiles, 5 in rack."""
    return positions(
        rules if rules is not None else small_rule_sets(),
        max_melds=3,
        max_table_tiles=9,
        max_run=4,
        max_rack=5,
        min_rack=1,
        opened=opened,
        max_rack_jokers=max_rack_jokers,
    )


# -- four jokers ------------------------------------------------------------------------


def four_joker_rule_sets() -> st.SearchStrategy[Rules]:
    """Small rule sets with four jokers in the box, every other option at random."""
    return small_rule_sets(jokers=st.just(4))


@st.composite
def four_joker_positions(draw: st.DrawFn) -> Position:
    """Small positions of a four-joker box where the jokers have few places to go: one or
    two table melds, each holding a joker, and a rack of one to three jokers with at most two
    other tiles. A kept locked meld must then often grow by a stretch of jokers alone."""
    # The joker lock is what makes the jokers' places few (free jokers are tested elsewhere).
    rules = draw(four_joker_rule_sets().map(lambda r: r.replace(joker_lock="strict")))
    table: list[Meld] = []
    counts: Counter[Tile] = Counter()
    for _ in range(draw(st.integers(1, 2))):
        meld = draw(melds(rules, max_jokers=1, max_run=4))
        if not meld.jokers:
            # One joker in place of one of its tiles: it stands for that tile (or color).
            place = draw(st.integers(0, len(meld.tiles) - 1))
            tiles = tuple(JOKER if i == place else t for i, t in enumerate(meld.tiles))
            meld = Meld(meld.kind, tiles)
        if _fits(counts, meld, rules):
            table.append(meld)
            counts.update(meld.tiles)
    left = box(rules) - counts
    # Three jokers (where the box has them left) most often: a stretch of jokers alone.
    jokers = min(draw(st.sampled_from([3, 3, 2, 1])), left[JOKER])
    del left[JOKER]
    pool = sorted(left.elements(), key=rules.sort_key)
    others = draw(st.sampled_from([0, 0, 1, 2]))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), max_size=others, unique=True))
    rack = (*[JOKER] * jokers, *(pool[i] for i in picks))
    if not rack:
        rack = (pool[0],)
    opened = draw(st.sampled_from([True, True, False]))
    position = Position(tuple(table), rack, opened, rules)
    assert not position.problems(), position.problems()
    return position


@st.composite
def release_cycle_positions(draw: st.DrawFn) -> Position:
    """Locked runs ``X(s) J X(s+2)`` of one color at nearby starts, ``rack_or_table``: each
    joker stands for a tile another of them holds, so released melds could feed each other
    around a cycle (RULES.md forbids that), plus a small rack."""
    rules = draw(
        small_rule_sets(jokers=st.just(4)).map(
            lambda r: r.replace(copies=2, joker_lock="strict", joker_swap_from="rack_or_table")
        )
    )
    color = draw(st.sampled_from(rules.colors))
    base = draw(st.integers(1, rules.numbers - 4))
    # Three starts in a row, and half the time one of them again (the cycle of issue 16:
    # R3 J R5, R4 J R6 twice, R5 J R7).
    starts = [base, base + 1, base + 2]
    if draw(st.booleans()):
        starts.append(draw(st.sampled_from(starts)))
    table: list[Meld] = []
    counts: Counter[Tile] = Counter()
    for start in sorted(starts):
        meld = Meld("run", (Tile(color, start), JOKER, Tile(color, start + 2)))
        if _fits(counts, meld, rules):
            table.append(meld)
            counts.update(meld.tiles)
    # Rack tiles of other colors: they fit only with jokers freed from the table.
    others = [t for t in rules.tile_types() if t.color != color]
    rack = tuple(draw(st.lists(st.sampled_from(others), min_size=1, max_size=2)))
    position = Position(tuple(table), rack, True, rules)
    assert not position.problems(), position.problems()
    return position


@st.composite
def just_laid_joker_positions(draw: st.DrawFn) -> Position:
    """Not-opened positions, ``rack_or_table`` (half the time ``rack``): a rack that can lay
    an initial meld with a joker standing for a tile of a joker-free table meld, and a few
    tiles the joker, freed by that table tile, could then join (issue 16, class 3)."""
    swap = draw(st.sampled_from(["rack_or_table", "rack_or_table", "rack"]))
    # Thresholds the just-laid meld reaches more often than the freed joker's meld does.
    threshold = draw(st.sampled_from([6, 10, 15]))
    rules = draw(
        small_rule_sets(jokers=st.integers(1, 2)).map(
            lambda r: r.replace(
                joker_lock="strict",
                open_then_play=True,
                joker_swap_from=swap,
                copies=2,
                initial_meld=threshold,
            )
        )
    )
    # A table meld that can spare the tile the just-laid joker stands for: an end of a run
    # of four, or any tile of a group of four; half the time another meld beside it.
    if len(rules.colors) >= 4 and draw(st.booleans()):
        number = draw(st.integers(1, rules.numbers))
        spare = Meld("group", tuple(Tile(c, number) for c in rules.colors[:4]))
        stands_for = draw(st.sampled_from(spare.tiles))
    else:
        color = draw(st.sampled_from(rules.colors))
        start = draw(st.integers(1, rules.numbers - 3))
        spare = Meld("run", tuple(Tile(color, n) for n in range(start, start + 4)))
        stands_for = draw(st.sampled_from([spare.tiles[0], spare.tiles[-1]]))
    table = [spare]
    counts = Counter(spare.tiles)
    if draw(st.booleans()):
        meld = draw(melds(rules, max_jokers=0, max_run=4))
        if _fits(counts, meld, rules):
            table.append(meld)
            counts.update(meld.tiles)
    # The meld the rack lays around the joker.
    color, number = stands_for.color, stands_for.number
    if draw(st.booleans()):
        start = draw(st.integers(max(1, number - 2), min(number, rules.numbers - 2)))
        core = [Tile(color, n) for n in range(start, start + 3)]
    else:
        others = draw(
            st.lists(
                st.sampled_from([c for c in rules.colors if c != color]),
                min_size=2,
                max_size=2,
                unique=True,
            )
        )
        core = [stands_for, *(Tile(c, number) for c in others)]
    rack = [JOKER if t == stands_for else t for t in core]
    left = box(rules) - counts - Counter(rack)
    if left[JOKER] and draw(st.booleans()):
        rack.append(JOKER)
    del left[JOKER]
    pool = sorted((+left).elements(), key=rules.sort_key)
    # Most often two tiles the freed joker would make a meld of (a run's first two, or two
    # colors of a number), else a few at random; at most five in all keeps the
    # exhaustive search quick.
    if draw(st.sampled_from([True, True, False])) and len(rack) <= 3:
        first = draw(st.sampled_from(pool))
        if draw(st.booleans()) and first.number < rules.numbers:
            second = Tile(first.color, first.number + 1)
        else:
            second = Tile(
                draw(st.sampled_from([c for c in rules.colors if c != first.color])), first.number
            )
        rack += [first, second]
    else:
        picks = draw(st.lists(st.integers(0, len(pool) - 1), max_size=5 - len(rack), unique=True))
        rack += [pool[i] for i in picks]
    # The table may hold every copy of a tile the core needs.
    assume(all(counts[t] + n <= rules.copies_of(t) for t, n in Counter(rack).items()))
    position = Position(tuple(table), tuple(rack), False, rules)
    assert not position.problems(), position.problems()
    return position


@st.composite
def opening_joker_positions(draw: st.DrawFn) -> Position:
    """Not-opened positions whose rack holds 1-4 jokers and mostly a joker-free meld
    besides, under the joker lock, either ``joker_swap_from``: the positions the solver first
    solves by relaxations of the initial meld (:mod:`rummikub.tiles.solver.opening_bound`)."""
    swap = draw(st.sampled_from(["rack", "rack_or_table"]))
    threshold = draw(st.sampled_from([0, 3, 6, 10, 15]))
    rules = draw(
        small_rule_sets(jokers=st.integers(1, 4)).map(
            lambda r: r.replace(
                joker_lock="strict",
                open_then_play=True,
                joker_swap_from=swap,
                initial_meld=threshold,
            )
        )
    )
    table = draw(tables(rules, max_melds=2, max_tiles=7, max_run=4))
    left = box(rules) - Counter(t for m in table for t in m.tiles)
    rack: list[Tile] = [JOKER] * draw(st.integers(min(1, left[JOKER]), min(4, left[JOKER])))
    left.subtract(rack)
    # Mostly a joker-free meld of three, so that the rack could open without its jokers.
    meld = draw(melds(rules, max_jokers=0, max_run=3))
    if draw(st.sampled_from([True, True, False])) and not Counter(meld.tiles) - left:
        rack += meld.tiles
        left.subtract(meld.tiles)
    for tile in helpful_tiles(rules, table):
        if len(rack) < 7 and left[tile] > 0 and draw(st.booleans()):
            rack.append(tile)
            left.subtract([tile])
    del left[JOKER]
    pool = sorted(+left, key=rules.sort_key)  # each tile type left once: no overdraw
    room = max(0, min(2, 7 - len(rack)))
    rack += draw(
        st.lists(
            st.sampled_from(pool), min_size=min(room, 0 if rack else 1), max_size=room, unique=True
        )
    )
    position = Position(table, tuple(draw(st.permutations(rack))), False, rules)
    assert not position.problems(), position.problems()
    # Only those the relaxations serve: the rest go straight to the exact model.
    assume(takes_relaxations(position))
    return position
