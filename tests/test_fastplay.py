"""The fast playout move (rummikub/tiles/fastplay.py): always legal, never better than the
solver's, the same every time, and the moves a quick player finds."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings

from rummikub.tiles.checker import check
from rummikub.tiles.fastplay import fast_move, rack_melds
from rummikub.tiles.notation import parse_rack
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import STANDARD, Rules
from rummikub.tiles.solver import solve
from rummikub.tiles.tiles import JOKER
from tests.strategies import (
    examples,
    four_joker_positions,
    just_laid_joker_positions,
    opening_joker_positions,
    positions,
)


def assert_legal(position: Position, move: Move) -> None:
    """A move the engine would take: nothing played (a draw) or a table the checker passes,
    playing exactly the move's tiles."""
    if not move.played:
        assert move.table == position.table
        return
    verdict = check(position, move.table)
    assert verdict.legal, (position.to_notation(), [str(m) for m in move.table], verdict.errors)
    assert Counter(verdict.played) == Counter(move.played)


@settings(max_examples=examples(150), deadline=None)
@given(position=positions())
def test_every_move_is_legal_under_every_rule_set(position: Position) -> None:
    assert_legal(position, fast_move(position))


@settings(max_examples=examples(40), deadline=None)
@given(
    position=four_joker_positions()
    | just_laid_joker_positions()
    | opening_joker_positions()
    | positions(max_melds=12, max_rack=40, max_run=13)
)
def test_legal_with_many_jokers_and_large_racks(position: Position) -> None:
    assert_legal(position, fast_move(position))


@settings(max_examples=examples(40), deadline=None)
@given(position=positions(max_rack=20, max_rack_jokers=2))
def test_never_better_than_the_solver_and_the_same_every_time(position: Position) -> None:
    move = fast_move(position)
    assert move == fast_move(position)
    best = solve(position).move
    rules = position.rules
    assert (move.value(rules), len(move.played)) <= (best.value(rules), len(best.played))


def played(position: Position) -> str:
    rules = position.rules
    return " ".join(str(t) for t in sorted(fast_move(position).played, key=rules.sort_key))


def test_melds_from_the_rack_worth_the_most() -> None:
    # R1-3 and K4 R4 B4 (18) beat the run R1-5 alone (15).
    melds = rack_melds(parse_rack("R1 R2 R3 R4 R5 K4 B4 O9"), STANDARD)
    assert sorted((kind, " ".join(map(str, tiles))) for kind, tiles in melds) == [
        ("group", "K4 R4 B4"),
        ("run", "R1 R2 R3"),
    ]
    # A joker is worth 30 played: it goes into a meld when one can hold it.
    assert played(Position.parse(rack="R5 R6 J K9")) == "R5 R6 J"
    # Jokers in front of a run that reaches the top of the box.
    assert played(Position.parse(rack="R13 J J")) == "R13 J J"


def test_opens_only_with_the_initial_meld() -> None:
    assert played(Position.parse(rack="R1 R2 R3 K9 B9", opened=False)) == ""
    assert played(Position.parse(rack="R9 R10 R11 K2", opened=False)) == "R9 R10 R11"
    # A joker counts the number it stands for toward the 30: R9 R10 J is 30.
    assert played(Position.parse(rack="R9 R10 J", opened=False)) == "R9 R10 J"
    # Having opened, it plays on in the same turn (open_then_play), not under boxed rules.
    table = ["K1 K2 K3"]
    assert played(Position.parse(rack="R9 R10 R11 K4", table=table, opened=False)) == (
        "K4 R9 R10 R11"
    )
    boxed = Rules(open_then_play=False, joker_swap_from="rack_or_table")
    assert (
        played(Position.parse(rack="R9 R10 R11 K4", table=table, opened=False, rules=boxed))
        == "R9 R10 R11"
    )


def test_lays_off_splits_and_borrows() -> None:
    # Laying off at both ends of a run and on a group.
    assert played(Position.parse(rack="R4 R8 O7", table=["R5 R6 R7", "K7 R7 B7"])) == ("R4 R8 O7")
    # Splitting: R4 inside R2-7 makes R2-4 and R4-7.
    assert played(Position.parse(rack="R4", table=["R2 R3 R4 R5 R6 R7"])) == "R4"
    # Borrowing: K7 B7 with R7 from the end of R4-7 make a group.
    assert played(Position.parse(rack="K7 B7", table=["R4 R5 R6 R7"])) == "K7 B7"
    # One rack tile and two lent: R8 with K8 from a run's end and B8 from another's start.
    position = Position.parse(rack="R8", table=["K5 K6 K7 K8", "B8 B9 B10 B11"])
    assert played(position) == "R8"
    # Nothing lent by a meld that cannot spare it: a run of three.
    assert played(Position.parse(rack="R8", table=["K6 K7 K8", "B8 B9 B10 B11"])) == ""
    for rack, table in [
        ("R4", ["R2 R3 R4 R5 R6 R7"]),
        ("R8", ["K5 K6 K7 K8", "B8 B9 B10 B11"]),
        ("K7 B7", ["R4 R5 R6 R7"]),
    ]:
        position = Position.parse(rack=rack, table=table)
        assert_legal(position, fast_move(position))


def test_a_locked_joker_is_only_extended() -> None:
    position = Position.parse(rack="R4 R8", table=["R5 J R7"])
    move = fast_move(position)
    assert_legal(position, move)
    assert played(position) == "R4 R8"


def test_a_fast_budget_plays_the_playouts_with_the_fast_move() -> None:
    """With ``Budget(fast=True)`` the solver is asked only for the candidates: every turn of
    every playout is the fast move; the answer is the same every time."""
    from unittest import mock

    import rummikub.tiles.game.equity as equity
    from rummikub.play.equity import Budget
    from rummikub.tiles.game.view import View

    position = Position.from_notation("K7-9 | RBO2 / K3 K5 K10 R8 R12 O3 O6 O7 O12")
    view = View(seat=0, rack_counts=(9, 6), opened=(True, True), pool_count=85, turns=20)
    calls: list[Position] = []
    from rummikub.tiles.solver import solve as real

    def counted(position: Position, **options: object) -> object:
        calls.append(position)
        return real(position, **options)  # type: ignore[arg-type]

    budget = Budget(samples=4, rounds=2, fast=True)
    with mock.patch.object(equity, "solve", counted):
        first = equity.evaluate(position, view, budget)
    solved_fast = len(calls)
    calls.clear()
    with mock.patch.object(equity, "solve", counted):
        equity.evaluate(position, view, Budget(samples=4, rounds=2))
    assert solved_fast < len(calls)  # the exact playouts solve every turn
    assert first == equity.evaluate(position, view, budget)
    for candidate in first.candidates:
        assert_legal(position, candidate.move)


def test_fast_is_a_yes_or_no() -> None:
    import pytest

    from rummikub.play.equity import Budget

    with pytest.raises(TypeError, match="fast must be True or False"):
        Budget(fast="yes")  # type: ignore[arg-type]


def test_rebuilds_the_table_around_the_tiles_left() -> None:
    """Step 6: the melds near a rack tile nothing else lays are made again with it."""
    # Three groups become three runs: R5 R6 R7 R8, B6 B7 B8, O6 O7 O8.
    position = Position.parse(rack="R5", table=["R6 B6 O6", "R7 B7 O7", "R8 B8 O8"])
    assert played(position) == "R5"
    # B9 leaves its run for a group with K9 R9 (18) rather than B8 extending it (8).
    position = Position.parse(rack="K9 R9 B8", table=["B9 B10 B11 B12"])
    assert played(position) == "K9 R9"
    # A joker nothing else takes: B4 B5 J, B5 out of a group of four.
    position = Position.parse(rack="B4 J", table=["R1-13", "K5 R5 B5 O5"])
    assert played(position) == "B4 J"
    for rack, table in [
        ("R5", ["R6 B6 O6", "R7 B7 O7", "R8 B8 O8"]),
        ("K9 R9 B8", ["B9 B10 B11 B12"]),
        ("B4 J", ["R1-13", "K5 R5 B5 O5"]),
    ]:
        position = Position.parse(rack=rack, table=table)
        move = fast_move(position)
        assert_legal(position, move)
        assert move.value(position.rules) == solve(position).move.value(position.rules)


def test_the_rebuild_takes_back_a_tile_laid_on_a_locked_run() -> None:
    """K12 laid off on the locked K8 K9 J K11 serves a new group better: K12 B12 O12 with
    B12 from B9-12 (24), where laying it off leaves O12 on the rack (12)."""
    position = Position.parse(rack="K12 O12", table=["B9 B10 B11 B12", "K8 K9 J K11"])
    move = fast_move(position)
    assert_legal(position, move)
    assert played(position) == "K12 O12"
    assert move.value(position.rules) == solve(position).move.value(position.rules)
    # A joker laid off on a plain meld is taken back too, and laid again where it fits.
    position = Position.parse(rack="K12 O12 J", table=["B9 B10 B11 B12", "K8 K9 J K11"])
    move = fast_move(position)
    assert_legal(position, move)
    assert move.value(position.rules) == solve(position).move.value(position.rules)


def test_a_joker_kept_back_from_the_racks_melds_borrows() -> None:
    """A joker the rack's melds would take may lay more in a borrowed meld: R13 frees the
    joker of K13 O13 J, and R12 J B12 (B12 lent by B9-12) lays R12 where R4 O4 J lays R4
    O4 (25 against 21); K10 frees the joker of K8 K9 J K11, and O12 J B12 lays O12 where
    B2 B3 J lays B2 B3 (22 against 15)."""
    for rack, table, laid in [
        ("R4 R12 R13 O4", ["B9 B10 B11 B12", "K13 O13 J"], "R12 R13"),
        ("K10 B2 B3 O12", ["B9 B10 B11 B12", "K8 K9 J K11"], "K10 O12"),
    ]:
        position = Position.parse(rack=rack, table=table)
        move = fast_move(position)
        assert_legal(position, move)
        assert played(position) == laid
        assert move.value(position.rules) == solve(position).move.value(position.rules)
    # Borrowing with a rack joker: the shape laying the most rack value first.
    position = Position.parse(rack="B2 B3 O12 J", table=["B9 B10 B11 B12"])
    move = fast_move(position)
    assert_legal(position, move)
    assert played(position) == "O12 J"


def test_the_rebuild_extends_a_locked_run_with_table_tiles() -> None:
    """A locked run grows by tiles the rebuild frees: K6 and K7 leave their groups for
    K8 K9 J K11, and O8 B8 make runs of the rest (16, where nothing was laid); K6 leaves
    K6 R6 O6 for K7 J K9 with K5, and B6 from B3-6 makes R6 B6 O6 (5)."""
    for rack, table, laid in [
        ("O8 B8", ["K6 B6 O6", "K8 K9 J K11", "K7 B7 O7"], "B8 O8"),
        ("K5 O8", ["K6 R6 O6", "K7 J K9", "B3 B4 B5 B6"], "K5"),
    ]:
        position = Position.parse(rack=rack, table=table)
        move = fast_move(position)
        assert_legal(position, move)
        assert played(position) == laid
        assert move.value(position.rules) == solve(position).move.value(position.rules)
        # The locked run is there whole, its joker where it stood.
        locked = next(m for m in position.table if m.tiles.count(JOKER))
        assert any(
            m.kind == "run" and " ".join(map(str, locked.tiles)) in " ".join(map(str, m.tiles))
            for m in move.table
        )


def test_a_rebuild_laying_no_more_leaves_the_move_before_it_as_it_was() -> None:
    """K4 K5 are taken back from the locked K1 J J K4 K5; the rebuild lays less than the
    move before it, which stands, its melds untouched by laying on after the rebuild (once
    three K4s and K5s: the rebuild's melds shared the ones it kept with that move)."""
    position = Position.from_notation("K1 J J | K1-3 / K3 K4 K5 K4 K2 K5 K7")
    move = fast_move(position)
    assert_legal(position, move)
    assert played(position) == "K2 K3 K4 K4 K5 K5"


def test_the_rebuild_gives_up_past_its_work() -> None:
    """A rebuild that would pass REBUILD_WORK is not made: the move found before stands."""
    from unittest import mock

    import rummikub.tiles.fastplay as fastplay

    position = Position.parse(rack="R5", table=["R6 B6 O6", "R7 B7 O7", "R8 B8 O8"])
    with mock.patch.object(fastplay, "REBUILD_WORK", 10):
        assert played(position) == ""


def test_the_rebuild_begins_no_run_it_could_not_make_three() -> None:
    """A run of one or two tiles the next two numbers of its color (and the jokers left)
    cannot make three is no state of the rebuild's search: the work that saves lets this
    rebuild finish, where it ran out laying B7 alone (7): R8 B4 B7 O7 (26), the solver's."""
    from rummikub.tiles.fastplay import _choices

    position = Position.parse(
        rack="R8 B4 B7 O7 O12",
        table=[
            *["O2 O3 O4", "K2 R2 B2 O2", "R9 B9 O9", "K6 K7 K8", "R3 R4 R5", "K5 B5 O5"],
            *["K6 R6 B6", "R6 B6 O6", "K7 R7 O7", "R8 B8 O8"],
        ],
    )
    move = fast_move(position)
    assert_legal(position, move)
    assert played(position) == "R8 B4 B7 O7"
    assert move.value(position.rules) == solve(position).move.value(position.rules)
    # One tile, of the rack, with a tile of its color at the next number and none at the
    # one after: a run begun here (a pair (0, 1), index 1) needs a joker.
    begun = 1
    assert not any(c[0] == begun for c in _choices(0, 1, 0, 0, 1)[0])
    assert any(c[0] == begun for c in _choices(0, 1, 1, 0, 1)[0])
    assert any(c[0] == begun for c in _choices(0, 1, 0, 0, 3)[0])


def test_the_rebuild_takes_up_a_rack_meld_holding_a_joker() -> None:
    """The rack's melds lay K10 J K12 (52), leaving R8 R10; the rebuild takes it up, and
    the joker serves R8 J R10 with K10 at the end of K8 K9 cut from K5-9 (58), the
    solver's."""
    position = Position.parse(rack="K10 K12 R8 R10 J", table=["K5 K6 K7 K8 K9"])
    move = fast_move(position)
    assert_legal(position, move)
    assert played(position) == "K10 R8 R10 J"
    assert move.value(position.rules) == solve(position).move.value(position.rules)


def test_a_tile_that_freed_a_joker_stays_played() -> None:
    """K6 frees the joker of B6 O6 J (laid again in K10 K11 J K13); the rebuild may not take
    K6 back to make O4 O5 O6 and B3 B4 B5 B6: the substitute must be played (rule 4)."""
    position = Position.parse(rack="K6 O4 O5 K10 K11 K13", table=["B6 O6 J", "B3 B4 B5"])
    move = fast_move(position)
    assert_legal(position, move)
    assert "K6" in played(position).split()


def test_the_initial_meld_stays_the_racks_own() -> None:
    """O7 O8 O9 opens (with R6 B6 O6): the rebuild may not leave the rack's O8 out of R8 B8 O8
    and count the table's O8 in the initial meld, which is laid from the rack alone."""
    position = Position.from_notation(
        "KRBO4 | R12 O12 J | KRBO9 | KRO2 | RBO8 | KBO12 | KBO5 | R4-6 | B1 B2 J B4 B5 / "
        "K1 K3 K4 K11 K11 R3 R6 R10 B6 B7 B9 B10 B10 B13 O6 O7 O8 O9 / not-opened"
    )
    move = fast_move(position)
    assert_legal(position, move)
    assert {"O7", "O8", "O9"} <= set(played(position).split())


@settings(max_examples=examples(60), deadline=None)
@given(position=positions(max_rack=20, max_rack_jokers=2))
def test_a_copied_table_plays_as_one_read_again(position: Position) -> None:
    """Each try of the fast move starts from a copy of the table read once: the copy plays
    as the table read again would, and playing it leaves the table read as it was."""
    from rummikub.tiles.fastplay import _Table

    def state(table: _Table) -> list[object]:
        slots = [
            (s.kind, list(s.tiles), s.old, s.plain, s.color, s.number, s.start, s.end, s.present)
            for s in table.slots
        ]
        return [slots, list(table.left), list(table.substitutes), list(table.opening)]

    read = _Table(position)
    before = state(read)
    for release in (None, *read.releases()):
        tables = [_Table(position), read.copy()]
        for table in tables:
            if release is not None:
                table.release(release)
            table.lay(rack_melds(table.left, position.rules))
            table.play_on()
        fresh, copied = tables
        assert copied.move(position) == fresh.move(position)
        assert state(copied) == state(fresh)
        assert state(read) == before
