"""The legality checker against RULES.md "A turn": every rule and option, legal and illegal."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.tiles.checker import RULES, Verdict, check
from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.position import Position
from rummikub.tiles.rules import PRESETS, STANDARD, Rules
from rummikub.tiles.tiles import Tile, parse_tiles
from tests.strategies import (
    box,
    examples,
    melds,
    positions,
    raw_melds,
    rule_sets,
    tables,
)

BOXED = PRESETS["boxed"]
BOOK = PRESETS["book-1978"]
FREE = PRESETS["free-jokers"]
SWAP_TABLE = Rules(joker_swap_from="rack_or_table")
EIGHT = Rules(colors="KRBOGYPW")
OPENED, NOT_OPENED = True, False

#: The wording shared by every "changed the table before the initial meld" error.
CHANGED = 'table meld "{}" was changed, but the initial meld must be laid from your rack alone'
RACK_ONLY = " (only a tile from your rack may replace a joker under these rules)"
CLASH = (
    'the jokers in "{}" and "{}" are locked, but these melds cannot each stay intact '
    "in a meld of their own or have their jokers replaced by tiles of their own"
)


def codes(verdict: Verdict) -> list[str]:
    """Each violation as its rule code, then the meld or the tile it concerns, if any:
    ``"joker-not-replaced 0"``, ``"not-in-rack R5"``, ``"nothing-played"``."""
    return [
        " ".join(str(part) for part in (v.rule, v.meld, v.tile) if part is not None)
        for v in verdict.violations
    ]


def judge(
    rack: str,
    table: Sequence[str],
    after: Sequence[str],
    *,
    opened: bool = OPENED,
    rules: Rules = STANDARD,
) -> Verdict:
    position = Position.parse(rack=rack, table=list(table), opened=opened, rules=rules)
    return check(position, [RawMeld.parse(text) for text in after])


# -- legal moves ----------------------------------------------------------------------

# name: (rack, old table, new table, opened, rules)
LEGAL: dict[str, tuple[str, list[str], list[str], bool, Rules]] = {
    "extend a run": ("R4", ["R1 R2 R3"], ["R1 R2 R3 R4"], OPENED, STANDARD),
    "a new meld from the rack": (
        "K5 K6 K7",
        ["R1 R2 R3"],
        ["R1 R2 R3", "K5 K6 K7"],
        OPENED,
        STANDARD,
    ),
    "rearrange joker-free melds": (
        "R4",
        ["R5 R6 R7 R8", "K8 B8 O8"],
        ["R4 R5 R6 R7", "R8 K8 B8 O8"],
        OPENED,
        STANDARD,
    ),
    "locked run extended at the high end": (
        "B12",
        ["B9 B10 J"],
        ["B9 B10 J B12"],
        OPENED,
        STANDARD,
    ),
    "locked run extended at the low end": ("B8", ["B9 B10 J"], ["B8 B9 B10 J"], OPENED, STANDARD),
    "locked run extended at both ends": (
        "B7 B8 B12 B13",
        ["B9 B10 J"],
        ["B7 B8 B9 B10 J B12 B13"],
        OPENED,
        STANDARD,
    ),
    "locked run extended with a table tile": (
        "K5 K6 K7",
        ["B9 B10 J", "B12 R12 K12 O12"],
        ["B9 B10 J B12", "R12 K12 O12", "K5 K6 K7"],
        OPENED,
        STANDARD,
    ),
    "end joker replaced from the rack, then moved": (
        "B11 R1 R2",
        ["B9 B10 J"],
        ["B9 B10 B11", "R1 R2 J"],
        OPENED,
        STANDARD,
    ),
    "middle joker replaced from the rack, then moved": (
        "R6 K1 K2",
        ["R5 J R7"],
        ["R5 R6 R7", "K1 K2 J"],
        OPENED,
        STANDARD,
    ),
    "a released run may be split": (
        "R5",
        ["R3 R4 J R6 R7"],
        ["R3 R4 R5", "R6 R7 J"],
        OPENED,
        STANDARD,
    ),
    "a released joker may stand for something else": (
        "R11",
        ["R9 R10 J"],
        ["R9 R10 R11 J"],
        OPENED,
        STANDARD,
    ),
    "group joker released by one missing color": (
        "K5 O1 O2",
        ["R5 B5 J"],
        ["R5 B5 K5", "O1 O2 J"],
        OPENED,
        STANDARD,
    ),
    "group joker released by the other missing color": (
        "O5 K1 K2",
        ["R5 B5 J"],
        ["R5 B5 O5", "K1 K2 J"],
        OPENED,
        STANDARD,
    ),
    "locked group kept with a missing color added": (
        "K5",
        ["R5 B5 J"],
        ["R5 B5 K5 J"],
        OPENED,
        STANDARD,
    ),
    "book-1978: locked group kept with a missing color added": (
        "K5",
        ["R5 B5 J"],
        ["K5 R5 B5 J"],
        OPENED,
        BOOK,
    ),
    "book-1978: group joker released by both missing colors": (
        "K5 O5 O1 O2",
        ["R5 B5 J"],
        ["R5 B5 K5 O5", "O1 O2 J"],
        OPENED,
        BOOK,
    ),
    "book-1978: a 4-tile group is released by its one missing color": (
        "O5 K1 K2",
        ["R5 B5 K5 J"],
        ["R5 B5 K5 O5", "K1 K2 J"],
        OPENED,
        BOOK,
    ),
    "two jokers: the lower replaced, the other kept in place": (
        "R6 K1 K2",
        ["R5 J J"],
        ["R5 R6 J", "K1 K2 J"],
        OPENED,
        STANDARD,
    ),
    "two jokers: the upper replaced, the other kept and extended": (
        "R7 K1 K2 R4",
        ["R5 J J"],
        ["R4 R5 J R7", "K1 K2 J"],
        OPENED,
        STANDARD,
    ),
    "two jokers: both replaced": (
        "R6 R7 K1 K2",
        ["R5 J J"],
        ["R5 R6 R7", "K1 K2 J J"],
        OPENED,
        STANDARD,
    ),
    "two jokers in a group: one replaced, the other kept": (
        "K5 O1 O2",
        ["group: R5 J J"],
        ["group: R5 K5 J", "O1 O2 J"],
        OPENED,
        STANDARD,
    ),
    "two locked melds, each in a new meld of its own": (
        "O5",
        ["R5 B5 J", "R5 B5 K5 J"],
        ["R5 B5 K5 J", "R5 B5 O5 J"],
        OPENED,
        STANDARD,
    ),
    "two locked melds, each in a new meld of its own (other order)": (
        "O5",
        ["R5 B5 K5 J", "R5 B5 J"],
        ["R5 B5 O5 J", "R5 B5 K5 J"],
        OPENED,
        STANDARD,
    ),
    "rack_or_table: joker replaced by a free table tile": (
        "R1 R2",
        ["B9 B10 J", "B11 R11 K11 O11"],
        ["B9 B10 B11", "R11 K11 O11", "R1 R2 J"],
        OPENED,
        SWAP_TABLE,
    ),
    "rack_or_table: a released meld's tile releases another": (
        "R5",
        ["R3 R4 J", "J R5 R6"],
        ["R3 R4 R5 R6", "J R5 J"],
        OPENED,
        SWAP_TABLE,
    ),
    "boxed, opened: joker replaced by a table tile": (
        "R1 R2",
        ["B9 B10 J", "B11 R11 K11 O11"],
        ["B9 B10 B11", "R11 K11 O11", "R1 R2 J"],
        OPENED,
        BOXED,
    ),
    "free jokers: a table joker moves without replacement": (
        "R1 R2",
        ["B8 B9 B10 J"],
        ["B8 B9 B10", "R1 R2 J"],
        OPENED,
        FREE,
    ),
    "free jokers: two jokered melds merge": (
        "R7",
        ["R1 R2 J", "J R5 R6"],
        ["R1 R2 J J R5 R6 R7"],
        OPENED,
        FREE,
    ),
    "initial meld of 33": ("R10 R11 R12", [], ["R10 R11 R12"], NOT_OPENED, STANDARD),
    "initial meld of exactly 30": (
        "K9 K10 K11",
        ["R1 R2 R3"],
        ["R1 R2 R3", "K9 K10 K11"],
        NOT_OPENED,
        STANDARD,
    ),
    "initial meld of two melds totalling 34": (
        "K1 K2 K3 R7 B7 O7 K7",
        [],
        ["K1 K2 K3", "R7 B7 O7 K7"],
        NOT_OPENED,
        STANDARD,
    ),
    "initial meld: J R12 R13 is worth 36": ("J R12 R13", [], ["J R12 R13"], NOT_OPENED, STANDARD),
    "initial meld: a group joker counts the group's number": (
        "R10 B10 J",
        [],
        ["R10 B10 J"],
        NOT_OPENED,
        STANDARD,
    ),
    "open then play: the initial run takes a table tile afterwards": (
        "K10 K11 K12",
        ["K9 O9 B9 R9"],
        ["K9 K10 K11 K12", "O9 B9 R9"],
        NOT_OPENED,
        STANDARD,
    ),
    "open then play: initial runs dissolved into groups with table tiles": (
        "K10 K11 K12 O10 O11 O12",
        ["R10 R11 R12"],
        ["K10 O10 R10", "K11 O11 R11", "K12 O12 R12"],
        NOT_OPENED,
        STANDARD,
    ),
    "open then play: more rack tiles added to an old meld": (
        "R10 R11 R12 K4",
        ["K1 K2 K3"],
        ["K1 K2 K3 K4", "R10 R11 R12"],
        NOT_OPENED,
        STANDARD,
    ),
    "open then play: an initial meld's joker stays locked inside it": (
        "K10 K11 J",
        ["K9 O9 B9 R9"],
        ["K9 K10 K11 J", "O9 B9 R9"],
        NOT_OPENED,
        STANDARD,
    ),
    "open then play: initial meld, then a joker replaced by another rack tile": (
        "K11 K12 K13 B11 R1 R2",
        ["B9 B10 J"],
        ["K11 K12 K13", "B9 B10 B11", "R1 R2 J"],
        NOT_OPENED,
        STANDARD,
    ),
    "open then play, rack_or_table: a free table tile releases a just-laid joker": (
        "K10 K11 J",
        ["K12 R12 B12 O12"],
        ["K10 K11 K12", "R12 B12 O12 J"],
        NOT_OPENED,
        SWAP_TABLE,
    ),
    "open then play, rack_or_table: a table tile releases a just-laid group joker": (
        "K5 R5 J B1 B2",
        ["O2 O3 O4 O5"],
        ["O2 O3 O4", "K5 R5 O5", "B1 B2 J"],
        NOT_OPENED,
        Rules(joker_swap_from="rack_or_table", initial_meld=15),
    ),
    "open then play, rack_or_table: a table tile partly releases a just-laid meld": (
        "O11 J J K1 K2",
        ["K10 R10 B10 O10"],
        ["K10 R10 B10", "O10 O11 J", "K1 K2 J"],
        NOT_OPENED,
        SWAP_TABLE,
    ),
    "open then play, rack_or_table: issue 16's just-laid joker": (
        "O11 O12 J K1 K2",
        ["K10 R10 B10 O10"],
        ["K10 R10 B10", "O10 O11 O12", "K1 K2 J"],
        NOT_OPENED,
        SWAP_TABLE,
    ),
    "open then play, rack_or_table: an initial meld's tile replaces a joker": (
        "R11 R12 R13",
        ["R9 R10 J"],
        ["R9 R10 R11", "J R12 R13"],
        NOT_OPENED,
        SWAP_TABLE,
    ),
    "boxed: initial meld beside an untouched table (groups in any order)": (
        "R10 R11 R12",
        ["B9 B10 J", "K7 R7 B7"],
        ["B9 B10 J", "R7 K7 B7", "R10 R11 R12"],
        NOT_OPENED,
        BOXED,
    ),
    "boxed: an initial meld with a joker": (
        "R10 J R12",
        ["K1 K2 K3"],
        ["K1 K2 K3", "R10 J R12"],
        NOT_OPENED,
        BOXED,
    ),
    "free jokers: an initial meld with a joker": ("R10 J R12", [], ["R10 J R12"], NOT_OPENED, FREE),
    "initial_meld = 0: any one meld from the rack": (
        "R1 R2 R3",
        [],
        ["R1 R2 R3"],
        NOT_OPENED,
        Rules(initial_meld=0),
    ),
    "initial_meld = 39 reached by R13 B13 K13": (
        "R13 B13 K13",
        [],
        ["R13 B13 K13"],
        NOT_OPENED,
        Rules(initial_meld=39),
    ),
    "26 numbers: a run at the top": (
        "R24 R25 R26",
        [],
        ["R24 R25 R26"],
        NOT_OPENED,
        Rules(numbers=26),
    ),
    "26 numbers: a joker above 13": ("R24 J R26", [], ["R24 J R26"], NOT_OPENED, Rules(numbers=26)),
    "8 colors: a group of five colors": ("G5", ["K5 R5 B5 O5"], ["K5 R5 B5 O5 G5"], OPENED, EIGHT),
    "8 colors: a group joker released by one of six missing colors": (
        "W5 K1 K2",
        ["K5 R5 J"],
        ["K5 R5 W5", "K1 K2 J"],
        OPENED,
        EIGHT,
    ),
}


@pytest.mark.parametrize(("rack", "table", "after", "opened", "rules"), LEGAL.values(), ids=LEGAL)
def test_legal(rack: str, table: list[str], after: list[str], opened: bool, rules: Rules) -> None:
    verdict = judge(rack, table, after, opened=opened, rules=rules)
    assert verdict.errors == ()
    assert verdict.legal


@pytest.mark.parametrize(("rack", "table", "after", "opened", "rules"), LEGAL.values(), ids=LEGAL)
def test_legal_moves_stay_legal_with_free_jokers(
    rack: str, table: list[str], after: list[str], opened: bool, rules: Rules
) -> None:
    # Free jokers only lift a restriction, so no legal move may become illegal.
    verdict = judge(rack, table, after, opened=opened, rules=rules.replace(joker_lock="free"))
    assert verdict.errors == ()


# -- illegal moves ----------------------------------------------------------------------

# name: (rack, old table, new table, opened, rules, every violation expected, in order, as
# its rule code and the meld (an index from 0) or the tile it concerns: see `codes`)
ILLEGAL: dict[str, tuple[str, list[str], list[str], bool, Rules, list[str]]] = {
    "nothing played": (
        "R4",
        ["R1 R2 R3"],
        ["R1 R2 R3"],
        OPENED,
        STANDARD,
        ["nothing-played"],
    ),
    "a table tile taken back": (
        "O7",
        ["K7 R7 B7"],
        ["R7 B7 O7"],
        OPENED,
        STANDARD,
        ["table-tile-missing K7"],
    ),
    "a whole meld with a joker taken back": (
        "R4",
        ["R1 R2 R3", "B9 B10 J B12"],
        ["R1 R2 R3 R4"],
        OPENED,
        STANDARD,
        [
            "table-tile-missing B9",
            "table-tile-missing B10",
            "table-tile-missing B12",
            "table-tile-missing J",
            "joker-not-replaced 1",
        ],
    ),
    "two copies of a table tile taken back": (
        "R4",
        ["K7 R7 B7", "K7 R7 O7", "R1 R2 R3"],
        ["R1 R2 R3 R4", "R7 B7 O7"],
        OPENED,
        STANDARD,
        ["table-tile-missing K7", "table-tile-missing R7"],
    ),
    "a tile not in the rack": (
        "R4",
        ["R1 R2 R3"],
        ["R1 R2 R3 R4 R5"],
        OPENED,
        STANDARD,
        ["not-in-rack R5"],
    ),
    "one rack copy played twice": (
        "R4 R5",
        ["R1 R2 R3"],
        ["R1 R2 R3 R4 R5", "R5 K5 B5"],
        OPENED,
        STANDARD,
        ["not-in-rack K5", "not-in-rack R5", "not-in-rack B5"],
    ),
    "an invalid meld": (
        "R5 R6 R8",
        ["K1 K2 K3", "B1 B2 B3"],
        ["K1 K2 K3", "B1 B2 B3", "R5 R6 R8"],
        OPENED,
        STANDARD,
        ["invalid-meld 2"],
    ),
    "a tile outside the box": (
        "R12 R13",
        ["R10 R11 J"],
        ["R10 R11 J", "R12 R13 R14"],
        OPENED,
        STANDARD,
        ["invalid-meld 1"],
    ),
    "an unknown color": (
        "R4",
        ["R1 R2 R3"],
        ["R1 R2 R3 R4", "Q5 Q6 Q7"],
        OPENED,
        STANDARD,
        ["invalid-meld 1"],
    ),
    "joker moved without replacement": (
        "R1 R2",
        ["B8 B9 B10 J"],
        ["B8 B9 B10", "R1 R2 J"],
        OPENED,
        STANDARD,
        ["joker-not-replaced 0"],
    ),
    "locked run split with its joker in place": (
        "B13",
        ["B8 B9 B10 J B12"],
        ["B8 B9 B10", "J B12 B13"],
        OPENED,
        STANDARD,
        ["joker-not-replaced 0"],
    ),
    "locked run lost a tile from its end": (
        "R1 R2",
        ["B8 B9 B10 J", "K8 O8 R8"],
        ["B9 B10 J", "B8 K8 O8 R8", "R1 R2"],
        OPENED,
        STANDARD,
        ["invalid-meld 2", "joker-not-replaced 0"],
    ),
    "joker replaced by the wrong tile": (
        "B8 R1 R2",
        ["B9 B10 J"],
        ["B8 B9 B10", "R1 R2 J"],
        OPENED,
        STANDARD,
        ["joker-not-replaced 0"],
    ),
    "group joker replaced by a color already present": (
        "O1 O2 R5",
        ["R5 B5 O5 J", "R6 R7 R8"],
        ["R5 B5 O5", "R5 R6 R7 R8", "O1 O2 J"],
        OPENED,
        STANDARD,
        ["joker-not-replaced 0"],
    ),
    "group joker moved without replacement": (
        "O1 O2",
        ["R5 B5 K5 J"],
        ["R5 B5 K5", "O1 O2 J"],
        OPENED,
        STANDARD,
        ["joker-not-replaced 0"],
    ),
    "3-tile group joker moved without replacement": (
        "K1 K2",
        ["R5 B5 J", "R6 R7 R8", "B6 B7 B8"],
        ["R5 R6 R7 R8", "B5 B6 B7 B8", "K1 K2 J"],
        OPENED,
        STANDARD,
        ["joker-not-replaced 0"],
    ),
    "joker replaced by a table tile under rack-only": (
        "R1 R2",
        ["B9 B10 J", "B11 R11 K11 O11"],
        ["B9 B10 B11", "R11 K11 O11", "R1 R2 J"],
        OPENED,
        STANDARD,
        ["joker-not-replaced 0"],
    ),
    "book-1978: one missing color is not enough": (
        "K5 O1 O2",
        ["R5 B5 J"],
        ["R5 B5 K5", "O1 O2 J"],
        OPENED,
        BOOK,
        ["joker-not-replaced 0"],
    ),
    "book-1978: a 3-tile group cannot be partly released": (
        "K5 O1 O2",
        ["group: R5 J J"],
        ["group: R5 K5 J", "O1 O2 J"],
        OPENED,
        BOOK,
        ["joker-not-replaced 0"],
    ),
    "two jokers: the replacing tile is not in the joker's place": (
        "R4 K1 K2",
        ["R5 J J"],
        ["R4 R5 J", "K1 K2 J"],
        OPENED,
        STANDARD,
        ["joker-not-replaced 0"],
    ),
    "two jokers: both moved, a table tile in place of one": (
        "K1 K2",
        ["R5 R6 J J", "R7 K7 B7 O7"],
        ["R5 R6 R7", "K7 B7 O7", "K1 K2 J J"],
        OPENED,
        STANDARD,
        ["joker-not-replaced 0"],
    ),
    "two locked melds competing for one new meld": (
        "R7",
        ["R1 R2 J", "J R5 R6"],
        ["R1 R2 J J R5 R6 R7"],
        OPENED,
        STANDARD,
        ["locked-melds-clash"],
    ),
    "two locked melds sharing one replacement tile": (
        "B11 R1 R2",
        ["B9 B10 J", "J B12 B13"],
        ["B9 B10 B11 B12 B13", "R1 R2 J J"],
        OPENED,
        STANDARD,
        ["locked-melds-clash"],
    ),
    "rack_or_table: two locked melds cannot release each other": (
        "O7 O8",
        ["R3 R4 J", "J R5 R6"],
        ["R3 R4 R5 R6", "J O7 O8 J"],
        OPENED,
        SWAP_TABLE,
        ["locked-melds-clash"],
    ),
    "rack-only: a released meld's tile may not release another": (
        "R5",
        ["R3 R4 J", "J R5 R6"],
        ["R3 R4 R5 R6", "J R5 J"],
        OPENED,
        STANDARD,
        ["joker-not-replaced 1"],
    ),
    "initial meld too small": (
        "K1 K2 K3",
        [],
        ["K1 K2 K3"],
        NOT_OPENED,
        STANDARD,
        ["initial-meld"],
    ),
    "initial meld: R1 J R3 is worth only 6": (
        "R1 J R3",
        [],
        ["R1 J R3"],
        NOT_OPENED,
        STANDARD,
        ["initial-meld"],
    ),
    "initial meld of two melds totalling 27": (
        "K7 R7 B7 O1 O2 O3",
        [],
        ["K7 R7 B7", "O1 O2 O3"],
        NOT_OPENED,
        STANDARD,
        ["initial-meld"],
    ),
    "initial meld short and the table touched": (
        "K1 K2 K3 R4",
        ["R1 R2 R3"],
        ["R1 R2 R3 R4", "K1 K2 K3"],
        NOT_OPENED,
        STANDARD,
        ["initial-meld", "table-changed-before-opening 0"],
    ),
    "initial meld only reached with a table tile": (
        "K10 K11",
        ["K12 R12 B12 O12"],
        ["K10 K11 K12", "R12 B12 O12"],
        NOT_OPENED,
        STANDARD,
        ["initial-meld", "table-changed-before-opening 0"],
    ),
    "boxed: the table may not be touched before the initial meld": (
        "K10 K11 K12",
        ["K9 O9 B9 R9"],
        ["K9 K10 K11 K12", "O9 B9 R9"],
        NOT_OPENED,
        BOXED,
        ["table-changed-before-opening 0", "initial-meld"],
    ),
    "boxed: not even rack tiles added to an old meld": (
        "R10 R11 R12 K4",
        ["K1 K2 K3"],
        ["K1 K2 K3 K4", "R10 R11 R12"],
        NOT_OPENED,
        BOXED,
        ["table-changed-before-opening 0"],
    ),
    "open then play, rack: a table tile may not release a just-laid group joker": (
        "K5 R5 J B1 B2",
        ["O2 O3 O4 O5"],
        ["O2 O3 O4", "K5 R5 O5", "B1 B2 J"],
        NOT_OPENED,
        Rules(initial_meld=15),
        ["initial-meld", "table-changed-before-opening 0"],
    ),
    "open then play, rack: a table tile may not release a just-laid joker": (
        "K10 K11 J",
        ["K12 R12 B12 O12"],
        ["K10 K11 K12", "R12 B12 O12 J"],
        NOT_OPENED,
        STANDARD,
        ["initial-meld", "table-changed-before-opening 0"],
    ),
    "open then play, rack_or_table: a released just-laid meld must still reach the total": (
        "K10 K11 J",
        ["K12 R12 B12 O12"],
        ["K10 K11 K12", "R12 B12 O12 J"],
        NOT_OPENED,
        Rules(joker_swap_from="rack_or_table", initial_meld=34),
        ["initial-meld", "table-changed-before-opening 0"],
    ),
    "open then play: initial meld tiles cannot also replace a joker": (
        "R11 R12 R13",
        ["R9 R10 J"],
        ["R9 R10 R11", "J R12 R13"],
        NOT_OPENED,
        STANDARD,
        ["initial-meld"],
    ),
    "open then play: a rack joker counts where it stands": (
        "J R9 R10 B1",
        ["R8 R9 R10 J"],
        ["R8 R9 R10 J", "J R9 R10"],
        NOT_OPENED,
        STANDARD,
        ["initial-meld"],
    ),
    "open then play: the joker lock holds after the initial meld": (
        "R10 R11 R12 K1 K2",
        ["B8 B9 B10 J"],
        ["R10 R11 R12", "B8 B9 B10", "K1 K2 J"],
        NOT_OPENED,
        STANDARD,
        ["joker-not-replaced 0"],
    ),
    "initial_meld = 0 still needs a meld from the rack": (
        "R4",
        ["R1 R2 R3"],
        ["R1 R2 R3 R4"],
        NOT_OPENED,
        Rules(initial_meld=0),
        ["initial-meld", "table-changed-before-opening 0"],
    ),
    "initial_meld = 39 missed by R12 B12 K12": (
        "R12 B12 K12",
        [],
        ["R12 B12 K12"],
        NOT_OPENED,
        Rules(initial_meld=39),
        ["initial-meld"],
    ),
    "free jokers: the initial meld still counts": (
        "R1 J R3",
        [],
        ["R1 J R3"],
        NOT_OPENED,
        FREE,
        ["initial-meld"],
    ),
    "8 colors, both: a 3-tile group needs all six missing colors": (
        "B5 K1 K2",
        ["K5 R5 J"],
        ["K5 R5 B5", "K1 K2 J"],
        OPENED,
        EIGHT.replace(group_joker_release="both"),
        ["joker-not-replaced 0"],
    ),
    "26 numbers: a joker above R26": (
        "R25 R26 J",
        [],
        ["R25 R26 J"],
        NOT_OPENED,
        Rules(numbers=26),
        ["invalid-meld 0", "initial-meld"],
    ),
}


@pytest.mark.parametrize(
    ("rack", "table", "after", "opened", "rules", "errors"), ILLEGAL.values(), ids=ILLEGAL
)
def test_illegal(
    rack: str, table: list[str], after: list[str], opened: bool, rules: Rules, errors: list[str]
) -> None:
    verdict = judge(rack, table, after, opened=opened, rules=rules)
    assert not verdict.legal
    assert codes(verdict) == errors
    assert verdict.errors == tuple(v.text for v in verdict.violations)


#: The words of the broken rules whose wording varies most (the rest are pinned below).
WORDS: dict[str, list[str]] = {
    "a whole meld with a joker taken back": [
        "table tile B9 is missing from the new table",
        "table tile B10 is missing from the new table",
        "table tile B12 is missing from the new table",
        "table tile J is missing from the new table",
        'the joker in "B9 B10 J B12" was moved without being replaced by B11',
    ],
    "two copies of a table tile taken back": [
        "table tile K7 is missing from the new table (2 copies)",
        "table tile R7 is missing from the new table",
    ],
    "one rack copy played twice": [
        "K5 is not in your rack",
        "R5 is played 2 times, but your rack holds 1",
        "B5 is not in your rack",
    ],
    "a tile outside the box": ['meld 2 "R12 R13 R14": tile R14: number 14 out of range 1-13'],
    "locked run split with its joker in place": [
        '"B8 B9 B10 J B12" was broken up without replacing its joker by B11'
    ],
    "3-tile group joker moved without replacement": [
        'the joker in "R5 B5 J" was moved without being replaced by K5 or O5'
    ],
    "joker replaced by a table tile under rack-only": [
        'the joker in "B9 B10 J" was moved without being replaced by B11' + RACK_ONLY
    ],
    "book-1978: one missing color is not enough": [
        'the joker in "R5 B5 J" was moved without being replaced by both K5 and O5'
    ],
    "book-1978: a 3-tile group cannot be partly released": [
        'the jokers in "group: R5 J J" were moved without being replaced by all of K5, B5, O5'
    ],
    "two jokers: both moved, a table tile in place of one": [
        'the jokers in "R5 R6 J J" were moved without being replaced by R7 and R8' + RACK_ONLY
    ],
    "two locked melds competing for one new meld": [CLASH.format("R1 R2 J", "J R5 R6")],
    "open then play: initial meld tiles cannot also replace a joker": [
        "initial meld totals 0, needs 30 "
        "(rack tiles that replace jokers cannot count toward it as well)"
    ],
    # "R9 R10 J" would be worth 30; no table joker was replaced, so the shortfall is the
    # meld's own and no aside about replacements applies.
    "open then play: a rack joker counts where it stands": ["initial meld totals 27, needs 30"],
    "initial_meld = 0 still needs a meld from the rack": [
        "the initial move must lay at least one new meld made only of tiles from your rack",
        CHANGED.format("R1 R2 R3"),
    ],
}


@pytest.mark.parametrize("name", WORDS)
def test_illegal_in_words(name: str) -> None:
    rack, table, after, opened, rules, _ = ILLEGAL[name]
    verdict = judge(rack, table, after, opened=opened, rules=rules)
    assert list(verdict.errors) == WORDS[name]


# -- the verdict's value and played tiles -------------------------------------------------


def test_played_tiles_in_rack_order_with_a_joker_worth_30() -> None:
    verdict = judge("J R4 K7", ["R1 R2 R3"], ["R1 R2 R3 R4 J"])
    assert verdict.played == parse_tiles("R4 J")
    assert verdict.value == 4 + 30


def test_joker_value_follows_the_rule_set() -> None:
    verdict = judge("J R4 K7", ["R1 R2 R3"], ["R1 R2 R3 R4 J"], rules=Rules(joker_value=50))
    assert verdict.value == 54


def test_played_tiles_sorted_by_color_then_number() -> None:
    verdict = judge("O9 B9 K9 K1 K2 K3", [], ["K1 K2 K3", "O9 B9 K9"])
    assert verdict.played == parse_tiles("K1 K2 K3 K9 B9 O9")
    assert verdict.value == 6 + 27


def test_an_illegal_move_still_reports_what_it_plays() -> None:
    verdict = judge("R4", ["R1 R2 R3"], ["R1 R2 R3 R4 R5"])
    assert not verdict.legal
    assert verdict.played == parse_tiles("R4 R5")
    assert verdict.value == 9


# -- input forms and robustness ------------------------------------------------------------


def test_melds_from_the_solver_are_accepted() -> None:
    position = Position.parse(rack="K5 O1 O2", table=["group: R5 J J"])
    after = [Meld.parse("group: R5 K5 J"), Meld.parse("O1 O2 J")]
    assert check(position, after).legal


def test_an_invalid_meld_object_is_judged_not_trusted() -> None:
    position = Position.parse(rack="R4", table=["R1 R2 R3"])
    after = [Meld("run", parse_tiles("R1 R2 R4")), Meld("group", parse_tiles("R3 R3 R3"))]
    assert check(position, after).errors == (
        'meld 1 "R1 R2 R4": not a run (no 3)',
        'meld 2 "R3 R3 R3": not a group (R3 twice)',
        "R3 appears 3 times in table, rack and new table, but the rule set has only 2",
    )


def test_a_kind_given_in_text_is_kept() -> None:
    # "R5 J J" as a group breaks the lock of the run "R5 J J" (its jokers mean R6 and R7).
    verdict = judge("R1 R2 R3", ["R5 J J"], ["group: R5 J J", "R1 R2 R3"])
    assert verdict.errors == (
        'the jokers in "R5 J J" were moved without being replaced by R6 and R7',
    )


def test_every_rule_broken_is_listed() -> None:
    verdict = judge(
        "R1 R2",
        ["B8 B9 B10 J", "K7 R7 B7"],
        ["B8 B9 B10", "R1 R2 J", "R7 B7 O7", "K1 K2"],
        opened=NOT_OPENED,
    )
    assert verdict.errors == (
        'meld 4 "K1 K2": too short: a meld needs at least 3 tiles, 2 given',
        "table tile K7 is missing from the new table",
        "K1 is not in your rack",
        "K2 is not in your rack",
        "O7 is not in your rack",
        'the joker in "B8 B9 B10 J" was moved without being replaced by B11',
        "initial meld totals 0, needs 30",
        CHANGED.format("B8 B9 B10 J"),
        CHANGED.format("K7 R7 B7"),
    )


def test_a_tile_too_many() -> None:
    rules = Rules(copies=1)
    verdict = judge("K1 K2 K3", ["R1 R2 R3"], ["R1 R2 R3", "K1 K2 K3", "R1 B1 O1"], rules=rules)
    assert verdict.errors == (
        "R1 appears 2 times in table, rack and new table, but the rule set has only 1",
        "B1 is not in your rack",
        "O1 is not in your rack",
    )


def test_a_third_joker_is_a_tile_too_many() -> None:
    verdict = judge("R1 R2", ["B9 B10 J"], ["B9 B10 J", "R1 R2 J J"])
    assert verdict.errors == (
        "J appears 3 times in table, rack and new table, but the rule set has only 2",
    )


def test_an_empty_proposal() -> None:
    verdict = judge("R1", [], [])
    assert verdict.errors == ("no tile was played from the rack",)


@pytest.mark.parametrize(
    "raw",
    [
        RawMeld(()),
        RawMeld(parse_tiles("J J J")),
        RawMeld(parse_tiles("R1 R2 R3"), kind="group"),
        RawMeld(parse_tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R14 R15")),
        RawMeld((Tile("Q", 99), Tile("J", 0), Tile("Z", 1))),
    ],
    ids=["empty", "only jokers", "run as group", "too long", "outside the box"],
)
def test_nothing_a_user_types_raises(raw: RawMeld) -> None:
    position = Position.parse(rack="R4 J", table=["R1 R2 R3", "B5 B6 J"], opened=NOT_OPENED)
    verdict = check(position, [raw, RawMeld.parse("R1 R2 R3"), RawMeld.parse("B5 B6 J")])
    assert not verdict.legal
    assert codes(verdict)[0] == "invalid-meld 0"


def test_a_hand_built_position_with_a_bad_table_is_reported() -> None:
    table = (Meld("run", parse_tiles("R1 R2 R4")),)
    position = Position(table, parse_tiles("Q5 R9"), True, STANDARD)
    verdict = check(position, [RawMeld.parse("R1 R2 R4")])
    assert verdict.errors == (
        'meld 1 "R1 R2 R4": not a run (no 3) and not a group',
        'table meld 1 "R1 R2 R4" is not valid: not a run (no 3)',
        "tile Q5: unknown color 'Q' (expected one of K, R, B, O)",
        "no tile was played from the rack",
    )


# -- more of the joker lock -------------------------------------------------------------------


def test_two_identical_locked_melds_need_two_new_melds() -> None:
    table = ["R5 J R7", "R5 J R7"]
    assert judge("R8", table, ["R5 J R7 R8", "R5 J R7"]).legal
    # One of them merged into the other's extension is not intact in a meld of its own.
    merged = judge("R8 R9", table, ["R5 J R7 R8", "R5 J R7 R9"])
    assert not merged.legal


def test_middle_jokers_partly_released() -> None:
    # R5 J R7 J stands for R5..R8; replacing the upper joker keeps R5 J R7 in place.
    assert judge("R8 K1 K2", ["R5 J R7 J"], ["R5 J R7 R8", "K1 K2 J"]).legal
    # Replacing the lower one instead leaves R5 R6 R7 J: the kept joker still means R8.
    assert judge("R6 K1 K2", ["R5 J R7 J"], ["R5 R6 R7 J", "K1 K2 J"]).legal
    # R6 replacing the lower joker, but the upper one shifted to mean R4: not kept.
    verdict = judge("R6 K1 K2", ["R5 J R7 J"], ["J R5 R6 R7", "K1 K2 J"])
    assert verdict.errors == (
        'the jokers in "R5 J R7 J" were moved without being replaced by R6 and R8',
    )


def test_a_group_joker_needs_both_colors_only_under_book_1978() -> None:
    rack, table, after = "O5 K1 K2", ["R5 B5 J"], ["R5 B5 O5", "K1 K2 J"]
    assert judge(rack, table, after).legal
    assert not judge(rack, table, after, rules=BOOK).legal


def test_a_table_tile_replaces_a_joker_only_with_rack_or_table() -> None:
    rack, table = "R1 R2", ["B9 B10 J", "B11 R11 K11 O11"]
    after = ["B9 B10 B11", "R11 K11 O11", "R1 R2 J"]
    assert not judge(rack, table, after).legal
    assert judge(rack, table, after, rules=SWAP_TABLE).legal


def test_a_locked_meld_tile_does_not_replace_a_joker_while_that_meld_is_kept() -> None:
    # B11 of the kept "B11 B12 J" cannot replace the joker of "B9 B10 J".
    table = ["B9 B10 J", "B11 B12 J"]
    verdict = judge("K1 K2", table, ["B9 B10 B11 B12 J", "K1 K2 J"], rules=SWAP_TABLE)
    assert not verdict.legal


def test_a_broken_lock_does_not_hide_a_sufficient_initial_meld() -> None:
    # The initial meld R10 J R12 (33) is fine; only the table joker's move is wrong.
    verdict = judge(
        "R10 J R12 K1 K2",
        ["B8 B9 B10 J"],
        ["R10 J R12", "B8 B9 B10", "K1 K2 J"],
        opened=NOT_OPENED,
    )
    assert verdict.errors == ('the joker in "B8 B9 B10 J" was moved without being replaced by B11',)


def test_big_tables_are_checked_fast() -> None:
    rules = Rules(colors="KRBOGYPW", jokers=4)
    table = [f"{c}{n} {c}{n + 1} {c}{n + 2}" for c in "KRBOGYPW" for n in (1, 5, 9)]
    table[:4] = ["K1 K2 J", "J R2 R3", "B1 J B3", "O1 O2 J"]
    after = [*table, "G4 Y4 P4"]
    after[:4] = ["K1 K2 J K4", "J R2 R3 R4", "B1 J B3 B4", "O1 O2 J O4"]
    position = Position.parse(rack="K4 R4 B4 O4 G4 Y4 P4", table=table, rules=rules)
    melds = [RawMeld.parse(text) for text in after]
    start = time.perf_counter()
    for _ in range(100):
        verdict = check(position, melds)
    assert verdict.legal, verdict.errors
    assert time.perf_counter() - start < 5


# -- properties --------------------------------------------------------------------------------


@settings(max_examples=examples(200), deadline=None)
@given(positions(), st.lists(raw_melds(), max_size=4), st.booleans(), st.data())
def test_any_proposal_gets_a_verdict_whatever_the_order_of_its_melds(
    position: Position, extra: list[RawMeld], keep_table: bool, data: st.DataObject
) -> None:
    proposed: list[Meld | RawMeld] = [*(position.table if keep_table else ()), *extra]
    verdict = check(position, proposed)
    assert verdict.legal == (verdict.violations == ())
    # A table is a set of melds: the order they are written in changes no verdict.
    again = check(position, data.draw(st.permutations(proposed)))
    assert again.legal == verdict.legal
    assert (again.played, again.value) == (verdict.played, verdict.value)
    # Each violation says what it concerns: a meld that is there, a tile that is in play.
    in_play = position.table_tiles() + position.rack_tiles()
    in_play += Counter(tile for meld in proposed for tile in meld.tiles)
    for violation in verdict.violations:
        assert violation.rule in RULES
        table = proposed if violation.rule == "invalid-meld" else position.table
        assert violation.meld is None or 0 <= violation.meld < len(table)
        assert violation.tile is None or in_play[violation.tile] > 0
    # A played tile the rack does not hold is always reported, with its meld or by itself.
    beyond = Counter(verdict.played) - position.rack_tiles()
    if beyond:
        reported = {v.tile for v in verdict.violations} | {
            tile
            for v in verdict.violations
            if v.rule == "invalid-meld" and v.meld is not None
            for tile in proposed[v.meld].tiles
        }
        assert set(beyond) <= reported, (verdict.errors, beyond)


@settings(max_examples=examples(100), deadline=None)
@given(positions(opened=True))
def test_the_unchanged_table_plays_nothing(position: Position) -> None:
    verdict = check(position, position.table)
    assert codes(verdict) == ["nothing-played"]


@settings(max_examples=examples(100), deadline=None)
@given(positions(opened=True).filter(lambda position: bool(position.table)), st.data())
def test_a_meld_taken_off_the_table_is_missing(position: Position, data: st.DataObject) -> None:
    gone = data.draw(st.integers(0, len(position.table) - 1))
    verdict = check(position, position.table[:gone] + position.table[gone + 1 :])
    assert not verdict.legal
    missing = {v.tile for v in verdict.violations if v.rule == "table-tile-missing"}
    assert missing >= set(position.table[gone].tiles)


@st.composite
def table_and_rack_meld(draw: st.DrawFn) -> tuple[Position, Meld]:
    """A position whose rack is exactly one valid meld the box can supply beside the table."""
    rules = draw(rule_sets())
    table = draw(tables(rules))
    left = box(rules) - Counter(tile for meld in table for tile in meld.tiles)
    meld = draw(melds(rules).filter(lambda m: Counter(m.tiles) <= left))
    return Position(table, meld.tiles, draw(st.booleans()), rules), meld


@settings(max_examples=examples(200), deadline=None)
@given(table_and_rack_meld())
def test_a_rack_meld_beside_the_table(case: tuple[Position, Meld]) -> None:
    # An independent oracle for the initial meld: the meld's own value (jokers counted as
    # what they stand for) decides, except that free jokers may be laid out better.
    position, meld = case
    rules = position.rules
    verdict = check(position, [*position.table, meld])
    reaches = meld.value >= max(rules.initial_meld, 1)
    if position.opened or reaches:
        assert verdict.errors == ()
    elif rules.joker_swap_from == "rack_or_table" and meld.jokers and rules.open_then_play:
        # A free table tile may release a joker just laid, and a tile of a joker-free initial
        # meld is one: J A2 A3 A4 A5 A6 (21) may be laid as J A5 A6 and A2 A3 A4 (24), A4
        # then taking the joker's place. The meld's own value is then only a floor.
        if rules.joker_lock == "strict" and not verdict.legal:
            total = int(verdict.errors[0].split()[3].rstrip(","))
            assert total >= meld.value, verdict.errors
    elif rules.joker_lock == "strict" or not rules.open_then_play:
        assert verdict.errors == (f"initial meld totals {meld.value}, needs {rules.initial_meld}",)


def test_a_legal_opening_is_judged_without_listing_released_initial_melds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Released initial melds (rack_or_table) are combinations of the rack's every
    joker-holding meld, minutes to list for four jokers in a big rack; a move that opens
    without them is judged legal before they are listed."""
    import rummikub.tiles.checker as checker
    from rummikub.tiles.rules import STANDARD

    def listed(*_: object) -> list[object]:
        raise AssertionError("released initial melds listed for a move legal without them")

    monkeypatch.setattr(checker, "_release_cores", listed)
    rules = STANDARD.replace(jokers=4, joker_swap_from="rack_or_table")
    rack = "J J J J R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 B1 B2 B3 B4 B5 B6 B7 B8 K9 K10 K11"
    position = Position.parse(rack=rack, table=["O1 O2 O3"], opened=False, rules=rules)
    after = [Meld.parse(m) for m in ("O1 O2 O3", "R10 R11 R12 R13", "K9 K10 K11 J")]
    assert check(position, after).legal
    # A move that does not open still needs the whole search: the listing is asked for.
    with pytest.raises(AssertionError, match="released initial melds listed"):
        check(position, [Meld.parse(m) for m in ("O1 O2 O3", "R1 R2 J")])
