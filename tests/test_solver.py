"""Hand-written solver cases: each answer is checked by the checker and against the value
a player can work out by hand (written next to each case)."""

from __future__ import annotations

import pytest

from rummikub import PRESETS, Position, Rules, SolveResult, check, solve
from rummikub.tiles.exhaustive import NO_MOVE, BestMove, best_move


def position(
    rack: str, table: list[str], *, opened: bool = True, rules: Rules = PRESETS["standard"]
) -> Position:
    return Position.parse(rack=rack, table=table, opened=opened, rules=rules)


def solved(p: Position, **options: object) -> SolveResult:
    result = solve(p, **options)  # type: ignore[arg-type]
    if result.status != "no_move":
        verdict = check(p, result.table)
        assert verdict.legal, verdict.errors
        assert verdict.value == result.value
        assert sorted(map(str, verdict.played)) == sorted(map(str, result.played))
    return result


def tables(result: SolveResult) -> list[str]:
    return [str(m) for m in result.table]


def test_two_tiles_fit() -> None:
    result = solved(position("R4 K7 O7", ["R1 R2 R3", "K7 R7 B7", "B9 B10 J"]))
    assert (result.status, result.value, result.tiles) == ("optimal", 11, 2)
    assert [str(t) for t in result.rack] == ["K7"]
    assert "B9 B10 J" in tables(result)  # the locked run is left as it was


def test_no_move_is_a_result() -> None:
    result = solved(position("K1 R5 O13", ["R1 R2 R3"]))
    assert result.status == "no_move"
    assert (result.value, result.tiles, result.played) == (0, 0, ())
    assert result.table == position("K1 R5 O13", ["R1 R2 R3"]).table
    assert result.proven


def test_joker_lock_refuses_the_move_that_takes_a_locked_joker() -> None:
    # Without the lock, the joker leaves R7 R8 R9 J to complete K12 K13 J (worth 25).
    table = ["R7 R8 R9 J"]
    rack = "K12 K13"
    free = solved(position(rack, table, rules=PRESETS["free-jokers"]))
    assert (free.value, free.tiles) == (25, 2)
    assert solved(position(rack, table)).status == "no_move"


def test_joker_lock_refuses_taking_the_joker_from_a_locked_group() -> None:
    table = ["K5 R5 B5 J", "B1 B2 B3"]
    rack = "O8 O9"
    free = solved(position(rack, table, rules=PRESETS["free-jokers"]))
    assert (free.value, free.tiles) == (17, 2)  # O8 O9 J, the group keeps K5 R5 B5
    assert solved(position(rack, table)).status == "no_move"


def test_substitution_from_the_rack_frees_the_joker() -> None:
    # R8 substitutes the joker of "R7 J R9"; the joker then completes O8 O9 J.
    result = solved(position("R8 O8 O9", ["R7 J R9"]))
    assert (result.value, result.tiles) == (25, 3)


def test_substitution_from_the_table_only_with_rack_or_table() -> None:
    table = ["R7 J R9", "R8 B8 O8 K8"]
    rack = "O10 O11"
    rack_only = solved(position(rack, table))
    assert rack_only.status == "no_move"
    boxed_opened = PRESETS["standard"].replace(joker_swap_from="rack_or_table")
    from_table = solved(position(rack, table, rules=boxed_opened))
    # R8 leaves the group of four (still a group), replaces the joker, J joins O10 O11.
    assert (from_table.value, from_table.tiles) == (21, 2)


def test_book_1978_group_release_needs_both_missing_colors() -> None:
    table = ["K5 R5 J"]
    rack = "B5 O12 O13"
    either = solved(position(rack, table))
    assert (either.value, either.tiles) == (30, 3)  # B5 frees the joker: J O12 O13
    both = solved(position(rack, table, rules=PRESETS["book-1978"]))
    assert (both.value, both.tiles) == (5, 1)  # B5 only extends the group


def test_initial_meld_counts_jokers_at_the_number_they_stand_for() -> None:
    high = solved(position("J R12 R13", [], opened=False))
    assert (high.status, high.value) == ("optimal", 55)  # meld worth 11+12+13 = 36 >= 30
    low = solved(position("R1 J R3 K2", [], opened=False))
    assert low.status == "no_move"  # R1 J R3 is worth 6


def test_initial_meld_not_reached_cannot_touch_the_table() -> None:
    p = position("K10 K11 R5", ["K12 R12 B12"], opened=False)
    assert solved(p).status == "no_move"  # K10 K11 + K12 from the table is no initial meld


def test_open_then_play_goes_on_after_the_initial_meld() -> None:
    table = ["R1 R2 R3"]
    rack = "K10 K11 K12 R4"
    going_on = solved(position(rack, table, opened=False))
    assert (going_on.value, going_on.tiles) == (37, 4)  # 33 laid, then R4 extends R1 R2 R3
    boxed = solved(position(rack, table, opened=False, rules=PRESETS["boxed"]))
    assert (boxed.value, boxed.tiles) == (33, 3)
    assert "R1 R2 R3" in tables(boxed)


def test_rearranging_melds_to_play_one_tile() -> None:
    # R5 fits only if two groups give up their red tiles to form R5 R6 R7.
    table = ["K4 R4 B4 O4", "K6 R6 B6 O6", "K7 R7 B7 O7"]
    result = solved(position("R5", table))
    assert (result.value, result.tiles) == (5, 1)
    # R4 R5 R6 or R5 R6 R7: either way two groups give up a tile and one stays as it was.
    assert sum(m in result.position.table for m in result.table) == 1


def test_splitting_a_long_run_to_play_a_duplicate() -> None:
    result = solved(position("K5", ["K2 K3 K4 K5 K6 K7 K8"]))
    assert (result.value, result.tiles) == (5, 1)
    assert sorted(len(m.tiles) for m in result.table) == [4, 4]


def test_tiles_objective_prefers_more_tiles() -> None:
    # One joker: J O12 O13 (value 55, 3 tiles) or K1 K2 J K4 (value 37, 4 tiles).
    p = position("J O12 O13 K1 K2 K4", [])
    by_value = solved(p)
    assert (by_value.value, by_value.tiles) == (55, 3)
    by_tiles = solved(p, objective="tiles")
    assert (by_tiles.tiles, by_tiles.value) == (4, 37)


def test_least_disturbance_keeps_old_melds_as_they_were() -> None:
    # O5 could join either run; the answer leaves the most old melds untouched.
    result = solved(position("O5", ["O2 O3 O4", "O6 O7 O8", "K1 R1 B1"]))
    assert result.value == 5
    assert "K1 R1 B1" in tables(result)


def test_long_runs_are_laid_as_one_run() -> None:
    result = solved(position("R4 R5 R6 R7 R8 R9 R10", ["K1 R1 B1"]))
    assert tables(result) == ["K1 R1 B1", "R4 R5 R6 R7 R8 R9 R10"]


def test_an_old_run_kept_as_it_was_is_not_joined() -> None:
    result = solved(position("R4 R5 R6", ["R1 R2 R3"]))
    assert tables(result) == ["R1 R2 R3", "R4 R5 R6"]


def test_generalised_tile_set() -> None:
    rules = Rules(numbers=26, colors="KRBOGYPW", copies=4, jokers=4)
    result = solved(position("G24 G25 G26 Y20 P20 W20 J J J", ["K20 R20 B20"], rules=rules))
    assert result.status == "optimal"
    assert result.tiles == 9


def test_unknown_objective_is_refused() -> None:
    with pytest.raises(ValueError, match="objective"):
        solve(position("R4", ["R1 R2 R3"]), objective="points")  # type: ignore[arg-type]


def test_three_jokers_alone_are_no_run() -> None:
    # With 3+ jokers in play the run flow could lay J J J; the solver must not.
    rules = Rules(jokers=4)
    assert solved(position("J J J", [], rules=rules)).status == "no_move"
    result = solved(position("J J J R5", [], rules=rules))
    assert (result.tiles, result.value) == (4, 95)
    (meld,) = result.table
    assert len(meld.tiles) == 4 and len(meld.numbered) == 1


def test_candidate_runs_take_over_when_the_flow_needs_a_run_of_jokers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rummikub.tiles.solver import runs_flow

    def refuse(*args: object) -> None:
        raise runs_flow.JokerOnlyRun("R")

    monkeypatch.setattr(runs_flow, "_split", refuse)
    result = solved(position("R4 K7 O7", ["R1 R2 R3", "K7 R7 B7", "B9 B10 J"]))
    assert (result.status, result.value, result.tiles) == ("optimal", 11, 2)


# -- four jokers (issue 16) ----------------------------------------------------------------

FOUR = Rules(jokers=4)


@pytest.mark.parametrize(
    ("table", "rules", "grown"),
    [
        ("R1 R2 J", FOUR, "R1 R2 J J J J"),  # three jokers above a run
        ("J R12 R13", FOUR, "J J J J R12 R13"),  # ... and below, where there is no room above
        ("R1 R2 J", FOUR.replace(numbers=6), "R1 R2 J J J J"),  # a small box: R1 to R6
        ("R5 J R7", FOUR, None),  # room both ends: jokers at either
        ("K5 R5 J", FOUR.replace(colors="KRBOGY"), "K5 R5 J J J J"),  # a group of 6 colors
    ],
)
def test_a_kept_locked_meld_grows_by_jokers_alone(
    table: str, rules: Rules, grown: str | None
) -> None:
    # RULES.md rule 4: a kept meld gains any number of tiles; three jokers cannot stand
    # as a meld of their own, so they must join the locked meld.
    result = solved(position("J J J", [table], rules=rules))
    assert (result.status, result.value, result.tiles) == ("optimal", 90, 3)
    (meld,) = result.table
    assert meld.jokers == 4 and len(meld.tiles) == 6
    assert meld.kind == ("group" if "K5" in table else "run")
    if grown is not None:
        assert str(meld) == grown


def test_locked_melds_cannot_release_each_other_around_a_cycle() -> None:
    # Each joker stands for a tile another meld holds: R5 from R5 J R7 or R3 J R5 for the
    # first two, R6 for R5 J R7 and R4 for R3 J R5 from one of the first two. Releasing all
    # four needs one of them released first by a tile from outside: there is none.
    rules = FOUR.replace(joker_swap_from="rack_or_table")
    table = ["R4 J R6", "R4 J R6", "R5 J R7", "R3 J R5"]
    p = position("K8", table, rules=rules)
    assert solved(p).status == "no_move"
    assert best_move(p) == NO_MOVE


# -- a just-laid initial-meld joker (issue 16, class 3) -----------------------------------

SWAP_TABLE = PRESETS["standard"].replace(joker_swap_from="rack_or_table")


@pytest.mark.parametrize(
    ("rack", "table", "rules", "value", "tiles"),
    [
        # Lay J O11 O12 (J = O10, 33), release it by the table's O10, then K1 K2 J: 56.
        ("O11 O12 J K1 K2", ["K10 R10 B10 O10"], SWAP_TABLE, 56, 5),
        # Only a rack tile may release a joker: O11 O12 J alone, 53.
        ("O11 O12 J K1 K2", ["K10 R10 B10 O10"], PRESETS["standard"], 53, 3),
        # A group: K5 R5 J (15) released by the run's O5, then B1 B2 J: 43.
        ("K5 R5 J B1 B2", ["O2 O3 O4 O5"], SWAP_TABLE.replace(initial_meld=15), 43, 5),
        ("K5 R5 J B1 B2", ["O2 O3 O4 O5"], PRESETS["standard"].replace(initial_meld=15), 40, 3),
        # Partly released: J O11 J (33), O10 takes the first joker's place, the other stays.
        ("O11 J J K1 K2", ["K10 R10 B10 O10"], SWAP_TABLE, 74, 5),
        # The table tile cannot spare itself: R10 B10 O10 would fall apart.
        ("O11 O12 J K1 K2", ["R10 B10 O10"], SWAP_TABLE, 53, 3),
    ],
)
def test_a_free_table_tile_releases_a_just_laid_joker(
    rack: str, table: list[str], rules: Rules, value: int, tiles: int
) -> None:
    p = position(rack, table, opened=False, rules=rules)
    result = solved(p)
    assert (result.status, result.value, result.tiles) == ("optimal", value, tiles)
    expected = best_move(p)
    assert isinstance(expected, BestMove)
    assert (expected.value, expected.tiles) == (value, tiles)
