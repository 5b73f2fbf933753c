"""The checker's search for an initial meld, not opened under ``rack_or_table`` with jokers
in the rack: the choices of initial melds released again in the same turn are searched
lazily, and the verdicts (codes and words) are those of the old listing of every choice
(``tests/checker_reference.py``), on positions from hypothesis and on hand-made ones that
need a released initial meld or are illegal."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummikub.tiles.checker as checker
from rummikub.tiles.checker import Verdict, check
from rummikub.tiles.exhaustive import partitions
from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.position import Position
from rummikub.tiles.rules import STANDARD, Rules
from tests.checker_reference import reference_check
from tests.strategies import (
    box,
    examples,
    just_laid_joker_positions,
    opening_joker_positions,
    option_rule_sets,
    positions,
    small_rule_sets,
)

SWAP_TABLE = STANDARD.replace(joker_swap_from="rack_or_table")
FOUR = SWAP_TABLE.replace(jokers=4)


def same_verdict(position: Position, proposed: Sequence[Meld | RawMeld]) -> Verdict:
    verdict = check(position, proposed)
    expected = reference_check(position, proposed)
    assert verdict == expected, (position, [str(m) for m in proposed])
    return verdict


def not_opened_rules(swap: str) -> st.SearchStrategy[Rules]:
    return small_rule_sets(jokers=st.integers(1, 4)).map(
        lambda r: r.replace(joker_lock="strict", open_then_play=True, joker_swap_from=swap)
    )


def not_opened_positions() -> st.SearchStrategy[Position]:
    """Not opened, jokers in the rack (up to four), mostly ``rack_or_table``; tables that may
    hold locked melds, or meld for the rack's jokers to stand in."""
    random = st.sampled_from(["rack_or_table", "rack_or_table", "rack"]).flatmap(
        lambda swap: positions(
            not_opened_rules(swap),
            max_melds=3,
            max_table_tiles=10,
            max_run=5,
            max_rack=7,
            min_rack=1,
            opened=False,
            jokers=True,
            max_rack_jokers=4,
        )
    )
    return st.one_of(random, just_laid_joker_positions(), opening_joker_positions())


@st.composite
def proposals(draw: st.DrawFn, position: Position) -> list[Meld | RawMeld]:
    """A new table: the old tiles and some rack tiles laid as valid melds (one of the first
    partitions), half the time with one tile changed or one meld left out."""
    rack = list(position.rack)
    # Mostly the whole rack: jokers played with the tiles they could meld with.
    keep = draw(
        st.lists(st.sampled_from([True, True, True, False]), min_size=len(rack), max_size=len(rack))
    )
    played = [tile for tile, kept in zip(rack, keep, strict=True) if kept] or rack[:1]
    old = [t for m in position.table for t in m.tiles]
    found = list(itertools.islice(partitions([*old, *played], position.rules), 40))
    table: list[Meld | RawMeld] = list(draw(st.sampled_from(found))) if found else []
    if not table:
        table = [RawMeld(tuple(played))]
    change = draw(st.sampled_from(["none", "none", "none", "tile", "meld"]))
    if change == "tile":
        index = draw(st.integers(0, len(table) - 1))
        tiles = list(table[index].tiles)
        spot = draw(st.integers(0, len(tiles) - 1))
        tiles[spot] = draw(st.sampled_from(sorted(position.rules.tile_types(), key=str)))
        table[index] = RawMeld(tuple(tiles), table[index].kind)
    elif change == "meld" and len(table) > 1:
        del table[draw(st.integers(0, len(table) - 1))]
    return table


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_verdicts_are_those_of_the_listing_of_every_choice(data: st.DataObject) -> None:
    position = data.draw(not_opened_positions())
    same_verdict(position, data.draw(proposals(position)))


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_a_packing_that_is_enough_is_exact_below_enough(data: st.DataObject) -> None:
    # The quick packing stands for the best one only where it reaches ``enough``.
    rules = data.draw(
        option_rule_sets(
            numbers=st.integers(3, 9),
            colors=st.integers(1, 4),
            copies=st.integers(1, 2),
            jokers=st.integers(0, 4),
        )
    )
    bag = sorted(box(rules).elements(), key=rules.sort_key)
    picks = data.draw(st.lists(st.integers(0, len(bag) - 1), max_size=14, unique=True))
    tiles = Counter(bag[i] for i in picks)
    exact = checker._best_packing(tiles, rules)
    assert checker._greedy_packing(tiles, rules) <= exact
    enough = data.draw(st.integers(0, exact + 10))
    found = checker._best_packing(tiles, rules, enough)
    assert found == exact if exact < enough else enough <= found <= exact


# -- hand-made positions: a released initial meld needed, and illegal ones --------------------

#: Four jokers and a big rack; the table can spare K12 (a group of four) and R12 (a run's end).
BIG_RACK = "J J J J R1 R2 R3 R4 R5 R6 R8 R9 B1 B2 B4 B5 B7 B8 B10 K3 K5 K6 K8 K11 K13 O2 O6 O9"
BIG_TABLE = ["K12 R12 B12 O12", "R10 R11 R12 R13", "O3 O4 O5", "B9 O9 R9"]

MOVES = {
    # K11 J K13 (36) is laid and released by the table's K12; its joker goes on to R1 R2.
    "needs a released meld": [
        "K11 K12 K13",
        "R12 B12 O12",
        "R10 R11 R12 R13",
        "O3 O4 O5",
        "B9 O9 R9",
        "R1 R2 J",
    ],
    # The same, the joker added to a table run: the rack alone lays no meld at all.
    "needs a released meld, joker on the table": [
        "K11 K12 K13",
        "R12 B12 O12",
        "J R10 R11 R12 R13",
        "O3 O4 O5",
        "B9 O9 R9",
    ],
    # K3 J K5 (12) released by nothing: K4 is nowhere; K3 K5 and a joker on the table.
    "illegal: the joker stands for a tile that is nowhere": [
        "K12 R12 B12 O12",
        "R10 R11 R12 R13",
        "J O3 O4 O5",
        "B9 O9 R9",
        "K3 J K5",
    ],
    # Played tiles that make no initial meld of 30 even with every joker.
    "illegal: too little even with every joker": [
        "K12 R12 B12 O12",
        "R10 R11 R12 R13",
        "O2 O3 O4 O5",
        "B9 O9 R9",
        "R1 R2 J",
        "B1 B2 J J",
        "J B4 B5",
    ],
    # A tile not in the rack: the turn is judged on the rest.
    "illegal: a tile changed": [
        "K11 K12 K13",
        "R12 B12 O12",
        "R10 R11 R12 R13",
        "O3 O4 O5",
        "B9 O9 R9",
        "R1 R2 R7 J",
    ],
    "illegal: a meld taken off": ["K11 K12 K13", "R12 B12 O12", "O3 O4 O5", "B9 O9 R9", "R1 R2 J"],
}


@pytest.mark.parametrize("name", MOVES)
def test_hand_made_moves_with_four_jokers(name: str) -> None:
    position = Position.parse(rack=BIG_RACK, table=BIG_TABLE, opened=False, rules=FOUR)
    verdict = same_verdict(position, [RawMeld.parse(m) for m in MOVES[name]])
    assert verdict.legal == (not name.startswith("illegal")), verdict.errors


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(just_laid_joker_positions(), not_opened_positions()), st.data())
def test_verdicts_on_many_tables_of_one_position(position: Position, data: st.DataObject) -> None:
    # Positions made for a just-laid joker released by a table tile: many of their tables
    # are legal only through a released initial meld.
    rack = list(position.rack)
    for size in (len(rack), len(rack) - 1):
        played = data.draw(st.permutations(rack))[: max(1, size)]
        old = [t for m in position.table for t in m.tiles]
        for table in itertools.islice(partitions([*old, *played], position.rules), 60):
            same_verdict(position, table)


# -- how much is examined: a handful of choices where the listing had thousands ---------------


def examined(position: Position, after: Sequence[str]) -> tuple[Verdict, int]:
    """The verdict, and how many choices of released initial melds were judged (each is a
    ``_Released``; the old listing built one for every choice before judging any)."""
    count = 0
    made = checker._Released

    def counting(*args: object) -> object:
        nonlocal count
        count += 1
        return made(*args)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(checker, "_Released", counting)
        verdict = check(position, [RawMeld.parse(m) for m in after])
    return verdict, count


def runs_of(colors: str, low: int, high: int, joker: str = "") -> list[str]:
    return [" ".join(f"{c}{n}" for n in range(low, high + 1)) + joker for c in colors]


def test_a_move_that_needs_a_released_meld_examines_a_handful_of_choices() -> None:
    # Every played tile extends a table run and the jokers end four of them: no meld of
    # played tiles is left on the table, so only initial melds laid and released again
    # (J J K2 and the like, freed by the table's K3 K4) open. The listing built 8,409.
    rack = "J J J J K1 K2 R1 R2 B1 B2 O1 O2 K1 K2 R1 R2 K13 R13"
    position = Position.parse(rack=rack, table=runs_of("KRBOKR", 3, 5), opened=False, rules=FOUR)
    after = [*runs_of("KRBO", 1, 5, " J"), *runs_of("KR", 1, 5)]
    verdict, count = examined(position, after)
    assert verdict.legal
    assert 1 <= count <= 20


def test_an_illegal_move_with_four_jokers_examines_a_handful_of_choices() -> None:
    # Ones and jokers are worth 22 at most as initial melds: a bound on what the jokers can
    # add ends the search at once. The listing built 863 choices before saying no.
    rack = "J J J J K1 R1 B1 O1 K1 R1 B1 O1 K13 R13"
    position = Position.parse(rack=rack, table=runs_of("KRBOKRBO", 2, 4), opened=False, rules=FOUR)
    after = [*runs_of("KRBO", 1, 4, " J"), *runs_of("KRBO", 1, 4)]
    verdict, count = examined(position, after)
    assert verdict.errors[0] == "initial meld totals 22, needs 30"
    assert count <= 20
