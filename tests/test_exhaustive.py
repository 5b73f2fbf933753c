"""The exhaustive search is itself checked, so that it cannot silently be wrong.

Its partitions are compared with a naive enumeration that asks the library (``Meld.of``)
about every ordering of every sub-multiset; its best moves are compared with answers
worked out by hand from RULES.md.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub import MeldError, Position, Rules, Tile, parse_tiles
from rummikub.tiles.exhaustive import (
    NO_MOVE,
    BestMove,
    best_move,
    count_unchanged,
    partitions,
    rack_subsets,
)
from rummikub.tiles.melds import Identity, Meld
from rummikub.tiles.rules import PRESETS
from rummikub.tiles.solver import Objective
from tests.strategies import box, option_rule_sets, small_positions, small_rule_sets, tables

# -- partitions against a naive enumeration --------------------------------------------


def naive_melds(tiles: Sequence[Tile], rules: Rules) -> set[Identity]:
    """Every valid meld from a sub-multiset of ``tiles``, as ``Meld.of`` reads them.

    Runs: every ordering of every sub-multiset (the written order says what the jokers
    stand for). Groups: every sub-multiset.
    """
    found: set[Identity] = set()
    for size in range(3, len(tiles) + 1):
        for subset in set(itertools.combinations(sorted(tiles, key=rules.sort_key), size)):
            with contextlib.suppress(MeldError):
                found.add(Meld.of(subset, kind="group", rules=rules).identity())
            if len({t.color for t in subset if not t.is_joker}) != 1:
                continue  # mixed colors: no ordering is a run
            for order in set(itertools.permutations(subset)):
                with contextlib.suppress(MeldError):
                    found.add(Meld.of(order, kind="run", rules=rules).identity())
    return found


def naive_partitions(tiles: Sequence[Tile], rules: Rules) -> set[tuple[Identity, ...]]:
    """Every exact cover of ``tiles`` by valid melds, by trying every meld everywhere."""
    candidates = [
        (key, Counter(Tile(color, number) for color, number in key[1]))
        for key in naive_melds(tiles, rules)
    ]

    @functools.cache
    def covers(left: frozenset[tuple[Tile, int]]) -> frozenset[tuple[Identity, ...]]:
        remaining = Counter(dict(left))
        if not remaining:
            return frozenset({()})
        found: set[tuple[Identity, ...]] = set()
        for key, need in candidates:
            if all(remaining[t] >= n for t, n in need.items()):
                rest = remaining - need
                for cover in covers(frozenset(rest.items())):
                    found.add(tuple(sorted((*cover, key))))
        return frozenset(found)

    return set(covers(frozenset(Counter(tiles).items())))


@st.composite
def tile_bags(draw: st.DrawFn) -> tuple[Rules, list[Tile]]:
    """Up to 7 tiles: usually some melds' tiles plus a few more, so partitions exist."""
    rules = draw(
        option_rule_sets(
            numbers=st.integers(4, 6),
            colors=st.integers(3, 4),
            copies=st.integers(1, 2),
            jokers=st.integers(0, 2),
        )
    )
    table = draw(tables(rules, max_melds=2, max_tiles=7, max_run=5))
    bag = [t for meld in table for t in meld.tiles]
    spare = sorted((box(rules) - Counter(bag)).elements(), key=rules.sort_key)
    if spare and len(bag) < 7:
        picks = draw(
            st.lists(st.integers(0, len(spare) - 1), max_size=min(3, 7 - len(bag)), unique=True)
        )
        bag.extend(spare[i] for i in picks)
    return rules, bag


@settings(max_examples=120, deadline=None)
@given(tile_bags())
def test_partitions_match_naive_enumeration(case: tuple[Rules, list[Tile]]) -> None:
    rules, bag = case
    found = [tuple(sorted(m.identity() for m in p)) for p in partitions(bag, rules)]
    assert len(found) == len(set(found)), "a partition was produced twice"
    assert set(found) == naive_partitions(bag, rules)


@settings(max_examples=120, deadline=None)
@given(tile_bags())
def test_partitions_are_valid_melds_of_exactly_the_tiles(case: tuple[Rules, list[Tile]]) -> None:
    rules, bag = case
    for partition in partitions(bag, rules):
        assert Counter(t for m in partition for t in m.tiles) == Counter(bag)
        for meld in partition:
            assert Meld.of(meld.tiles, kind=meld.kind, rules=rules) == meld


def test_partitions_of_a_known_bag() -> None:
    rules = Rules(numbers=6, colors="KRB")
    bag = parse_tiles("K1 K2 K3 K3 K4 K5 R3 B3 J")
    found = {frozenset(str(m) for m in p) for p in partitions(bag, rules)}
    assert found == {
        frozenset({"K1 K2 K3", "K3 K4 K5", "R3 B3 J"}),
        frozenset({"K1 K2 K3", "K3 R3 B3", "J K4 K5"}),
        frozenset({"K1 K2 K3", "K3 R3 B3", "K4 K5 J"}),
        frozenset({"K1 K2 K3 K4 K5 J", "K3 R3 B3"}),
        frozenset({"K1 K2 J", "K3 K4 K5", "K3 R3 B3"}),
    }


def test_joker_meanings_are_all_enumerated() -> None:
    rules = Rules(numbers=6, colors="KRB")
    found = {str(p[0]) for p in partitions(parse_tiles("R3 J J"), rules)}
    assert found == {"R3 J J", "J R3 J", "J J R3", "group: R3 J J"}
    assert list(partitions(parse_tiles("J J"), rules)) == []
    assert list(partitions([], rules)) == [()]


def test_rack_subsets_are_every_sub_multiset_once() -> None:
    subsets = [Counter(s) for s in rack_subsets(parse_tiles("R1 R1 J K2"))]
    assert len(subsets) == 3 * 2 * 2 - 1
    assert all(subsets.count(s) == 1 for s in subsets)


def test_unchanged_counts_melds_as_multisets() -> None:
    old = [Meld.parse("K7 R7 B7"), Meld.parse("R1 R2 R3"), Meld.parse("R1 R2 R3")]
    new = [Meld.parse("B7 K7 R7"), Meld.parse("R1 R2 R3"), Meld.parse("R1 R2 R3 R4")]
    assert count_unchanged(old, new) == 2
    # A run and a group of the same tiles differ; so do runs whose jokers moved.
    assert count_unchanged([Meld.parse("R5 J J")], [Meld.parse("group: R5 J J")]) == 0
    assert count_unchanged([Meld.parse("R5 J J")], [Meld.parse("J R5 J")]) == 0


# -- the search against itself: looser rules never score lower --------------------------------

#: (option, stricter value, looser value): every move legal under the first is legal under
#: the second, so the best score, a lexicographic maximum, cannot drop.
RELAXATIONS: list[tuple[str, object, object]] = [
    ("joker_lock", "strict", "free"),
    ("joker_swap_from", "rack", "rack_or_table"),
    ("group_joker_release", "both", "either"),
    ("open_then_play", False, True),
    ("initial_meld", 15, 6),
    ("initial_meld", 6, 0),
]


def ranked(found: BestMove | str) -> tuple[int, int, int]:
    """The search's answer as a comparable score; no move ranks below every move."""
    if isinstance(found, BestMove):
        return (found.value, found.tiles, found.unchanged)
    return (-1, -1, -1)


@pytest.mark.parametrize(("option", "strict", "loose"), RELAXATIONS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_looser_rules_never_score_lower(
    option: str, strict: object, loose: object, data: st.DataObject
) -> None:
    rules = data.draw(small_rule_sets()).replace(**{option: strict})
    opened = False if option in ("open_then_play", "initial_meld") else None
    pos = data.draw(small_positions(st.just(rules), opened=opened))
    looser = Position(pos.table, pos.rack, pos.opened, rules.replace(**{option: loose}))
    assert ranked(best_move(looser)) >= ranked(best_move(pos))


@settings(max_examples=60, deadline=None)
@given(small_positions(), st.data())
def test_opening_or_a_new_rack_tile_never_scores_lower(pos: Position, data: st.DataObject) -> None:
    base = ranked(best_move(pos))
    if not pos.opened:
        assert ranked(best_move(Position(pos.table, pos.rack, True, pos.rules))) >= base
    spare = sorted(
        (box(pos.rules) - pos.table_tiles() - pos.rack_tiles()).elements(), key=pos.rules.sort_key
    )
    if spare:
        tile = data.draw(st.sampled_from(spare))
        richer = Position(pos.table, (*pos.rack, tile), pos.opened, pos.rules)
        assert ranked(best_move(richer)) >= base


# -- best moves worked out by hand ----------------------------------------------------------


def position(
    rack: str, table: Sequence[str] = (), *, opened: bool = True, **options: object
) -> Position:
    return Position.parse(rack=rack, table=table, opened=opened, rules=Rules().replace(**options))


def best(pos: Position, objective: Objective = "value") -> BestMove:
    found = best_move(pos, objective)
    assert isinstance(found, BestMove), found
    return found


def table_of(found: BestMove) -> set[str]:
    return {str(m) for m in found.move.table}


def test_two_tiles_fit() -> None:
    # INTERFACE.md's example: R4 extends the run, O7 completes the group, K7 has no place.
    found = best(position("R4 K7 O7", ["R1 R2 R3", "K7 R7 B7", "B9 B10 J"]))
    assert (found.value, found.tiles, found.unchanged) == (11, 2, 1)
    assert Counter(found.move.played) == Counter(parse_tiles("R4 O7"))


def test_no_move() -> None:
    assert best_move(position("K9 B1", ["R1 R2 R3"])) == NO_MOVE
    assert best_move(position("K9 K10", [])) == NO_MOVE


def test_rack_only_melds() -> None:
    found = best(position("K9 K10 K11 K12 R1", []))
    assert (found.value, found.tiles, found.unchanged) == (42, 4, 0)


def test_value_and_tiles_objectives_disagree() -> None:
    # Both moves take a tile from the 4-group, which cannot lose two:
    # K1 K2 K4 (+K3) plays 3 tiles worth 7; R4 R5 (+R3) plays 2 tiles worth 9.
    pos = position("K1 K2 K4 R4 R5", ["K3 R3 B3 O3"])
    by_value = best(pos)
    assert (by_value.value, by_value.tiles) == (9, 2)
    by_tiles = best(pos, "tiles")
    assert (by_tiles.tiles, by_tiles.value) == (3, 7)


def test_least_disturbance_breaks_ties() -> None:
    # R7 can extend R4 R5 R6 alone, or join a rebuilt R1..R7: the first keeps R1 R2 R3.
    found = best(position("R7", ["R1 R2 R3", "R4 R5 R6"]))
    assert (found.value, found.tiles, found.unchanged) == (7, 1, 1)
    assert "R1 R2 R3" in table_of(found)
    # R1 can only start a run: R1-R4 + R5-R7 keeps R5 R6 R7, unlike R1-R3 + R4-R7 or R1-R7.
    found = best(position("R1", ["R2 R3 R4", "R5 R6 R7"]))
    assert (found.value, found.tiles, found.unchanged) == (1, 1, 1)
    assert table_of(found) == {"R1 R2 R3 R4", "R5 R6 R7"}


def test_joker_lock_forbids_the_best_move() -> None:
    # Free jokers: take J (standing for K12) from K9 K10 K11 J for R3 R4 J, and K8 extends.
    # Strict: the joker stays; only K8 can be played.
    table = ["K9 K10 K11 J"]
    free = best(position("R3 R4 K8", table, joker_lock="free"))
    assert (free.value, free.tiles) == (15, 3)
    strict = best(position("R3 R4 K8", table))
    assert (strict.value, strict.tiles) == (8, 1)
    assert best_move(position("R3 R4", table)) == NO_MOVE
    assert best(position("R3 R4", table, joker_lock="free")).value == 7


def test_joker_released_by_substitution_from_the_rack() -> None:
    # K12 takes the joker's place; the freed joker makes R3 R4 J.
    found = best(position("K12 R3 R4", ["K9 K10 K11 J"]))
    assert (found.value, found.tiles) == (19, 3)
    assert "K9 K10 K11 K12" in table_of(found)


def test_joker_swap_from_table() -> None:
    # Only with rack_or_table may the free K12 of a joker-free group release the joker.
    table = ["K9 K10 K11 J", "K12 R12 B12 O12"]
    assert best_move(position("R3 R4", table)) == NO_MOVE
    found = best(position("R3 R4", table, joker_swap_from="rack_or_table"))
    # Once released, K9 K10 K11 K12 is free: its K12 may go back to the group, which thus
    # ends as it was (as at the table: take K12, swap it for J, put it back).
    assert (found.value, found.tiles, found.unchanged) == (7, 2, 1)
    assert table_of(found) == {"K9 K10 K11", "K12 R12 B12 O12", "J R3 R4"}


def test_group_joker_release_either_or_both() -> None:
    table = ["K5 R5 J"]
    # either: B5 substitutes the joker, which goes to R1 R2 J.
    either = best(position("B5 R1 R2", table))
    assert (either.value, either.tiles) == (8, 3)
    # both: releasing needs B5 and O5; without O5, B5 can only join the group.
    both = best(position("B5 R1 R2", table, group_joker_release="both"))
    assert (both.value, both.tiles) == (5, 1)
    both_full = best(position("B5 O5 R1 R2", table, group_joker_release="both"))
    assert (both_full.value, both_full.tiles) == (13, 4)


def test_initial_meld_then_play_on() -> None:
    # K10 K11 K12 (33) opens; with open_then_play R1 may then extend R2 R3 R4.
    table = ["R2 R3 R4"]
    then_play = best(position("K10 K11 K12 R1", table, opened=False))
    assert (then_play.value, then_play.tiles, then_play.unchanged) == (34, 4, 0)
    boxed = best(position("K10 K11 K12 R1", table, opened=False, open_then_play=False))
    assert (boxed.value, boxed.tiles, boxed.unchanged) == (33, 3, 1)


def test_initial_meld_too_small() -> None:
    # K1 K2 K3 is worth 6 < 30, and nothing else may be played before opening.
    assert best_move(position("K1 K2 K3 R5", ["R2 R3 R4"], opened=False)) == NO_MOVE
    found = best(position("K1 K2 K3 R5", ["R2 R3 R4"], opened=False, initial_meld=6))
    assert (found.value, found.tiles) == (11, 4)
    assert best_move(position("K1 K2 K3 R5", ["R2 R3 R4"], opened=False, initial_meld=7)) == (
        NO_MOVE
    )


def test_initial_meld_counts_a_joker_as_the_tile_it_stands_for() -> None:
    # K9 K10 J is worth 30 as K9-K11 but 27 as K8-K10: only the first opens.
    found = best(position("K9 K10 J", [], opened=False))
    assert (found.value, found.tiles) == (9 + 10 + 30, 3)
    assert "K9 K10 J" in table_of(found)
    assert best_move(position("K9 K10 J", [], opened=False, initial_meld=34)) == NO_MOVE


def test_initial_meld_zero_still_needs_a_hand_meld() -> None:
    table = ["R2 R3 R4"]
    assert best_move(position("R1 R5", table, opened=False, initial_meld=0)) == NO_MOVE
    found = best(position("R1 R5 K1 K2 K3", table, opened=False, initial_meld=0))
    assert (found.value, found.tiles) == (12, 5)


def test_opened_player_needs_no_initial_meld() -> None:
    found = best(position("R1 R5", ["R2 R3 R4"]))
    assert (found.value, found.tiles, found.unchanged) == (6, 2, 0)


def test_played_joker_is_worth_joker_value() -> None:
    found = best(position("J", ["R2 R3 R4"], joker_value=17))
    assert (found.value, found.tiles, found.unchanged) == (17, 1, 0)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_finds_the_simple_extension(name: str) -> None:
    pos = Position.parse(rack="R5 B1", table=["R2 R3 R4"], rules=PRESETS[name])
    found = best(pos)
    assert (found.value, found.tiles, found.unchanged) == (5, 1, 0)
