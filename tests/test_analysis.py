"""The analysis against the exhaustive search and against fresh solves.

- the k best moves are exactly the k best distinct played multisets, in order, each with
  its least disturbing table (exhaustive search over every sub-multiset of the rack);
- every outs entry equals a fresh solve with that tile added, and a tile proven to fit no
  meld indeed gains nothing;
- holding jokers and the fewest tiles at the best value match the exhaustive search;
- a grade agrees with the solver's best move;
- every move returned passes the checker.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub.tiles.analysis import (
    Analysis,
    RankedMove,
    analyse,
    fits_a_meld,
    grade,
    hold,
    outs,
    top_moves,
    unseen_tiles,
)
from rummikub.tiles.checker import check
from rummikub.tiles.exhaustive import count_unchanged, partitions, rack_subsets
from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Position
from rummikub.tiles.rules import STANDARD
from rummikub.tiles.solver import solve
from rummikub.tiles.tiles import JOKER, Tile
from tests.strategies import examples, small_positions

EXHAUSTIVE = settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def score(move: Scored) -> tuple[int, int, int]:
    """The solver's ranking: value, then tiles, then old melds left as they were."""
    return (move.value, move.tiles, move.unchanged)


class Scored(NamedTuple):
    """A played multiset with a legal table: its score and its least disturbing table."""

    value: int
    tiles: int
    unchanged: int
    played: tuple[Tile, ...]


def every_move(position: Position) -> dict[frozenset[tuple[Tile, int]], Scored]:
    """Every sub-multiset of the rack that some legal table plays, with the most old melds
    left as they were over its legal tables (exhaustive search, checker-judged)."""
    rules = position.rules
    old = list(position.table_tiles().elements())
    found: dict[frozenset[tuple[Tile, int]], Scored] = {}
    for played in rack_subsets(position.rack):
        tables = sorted(
            partitions([*old, *played], rules),
            key=lambda table: count_unchanged(position.table, table),
            reverse=True,
        )
        for table in tables:
            if check(position, table).legal:
                value = sum(rules.tile_value(t) for t in played)
                unchanged = count_unchanged(position.table, table)
                found[key(played)] = Scored(value, len(played), unchanged, played)
                break
    return found


def key(tiles: tuple[Tile, ...] | list[Tile]) -> frozenset[tuple[Tile, int]]:
    return frozenset(Counter(tiles).items())


def assert_legal(position: Position, move: RankedMove) -> None:
    assert move.position == position
    if not move.played:
        assert move.table == position.table
        return
    verdict = check(position, move.table)
    assert verdict.legal, ([str(m) for m in move.table], verdict.errors)
    assert Counter(verdict.played) == Counter(move.played)
    assert verdict.value == move.value
    assert move.tiles == len(move.played)
    assert Counter(move.rack) == Counter(position.rack) - Counter(move.played)


def with_tile(position: Position, tile: Tile) -> Position:
    return Position(position.table, (*position.rack, tile), position.opened, position.rules)


# -- the k best moves ----------------------------------------------------------------------


@EXHAUSTIVE
@given(small_positions())
def test_top_k_is_exactly_the_k_best_distinct_moves(position: Position) -> None:
    expected = sorted(every_move(position).values(), key=score, reverse=True)
    # One more than there are: the list stops when no move is left.
    moves = top_moves(position, len(expected) + 1)
    assert len(moves) == len(expected)
    assert [m.rank for m in moves] == list(range(1, len(moves) + 1))
    assert len({key(m.played) for m in moves}) == len(moves), "a multiset shown twice"
    scores = [(m.value, m.tiles, count_unchanged(position.table, m.table)) for m in moves]
    assert scores == [(e.value, e.tiles, e.unchanged) for e in expected]
    best_tables = every_move(position)
    for move in moves:
        assert move.status == "optimal"
        assert_legal(position, move)
        # The least disturbing table for these tiles.
        assert count_unchanged(position.table, move.table) == best_tables[key(move.played)][2]


def test_top_k_of_a_known_position() -> None:
    position = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7", "B9 B10 J"])
    moves = top_moves(position, 5)
    # K7 cannot join a group that holds K7: three moves only.
    assert [(m.value, [str(t) for t in m.played]) for m in moves] == [
        (11, ["R4", "O7"]),
        (7, ["O7"]),
        (4, ["R4"]),
    ]
    assert [m.changed for m in moves] == [(0, 1), (1,), (0,)]


def test_a_second_move_as_good_as_the_best_is_found() -> None:
    # R4 or B4 on the run R1 R2 R3 / B1 B2 B3: two different moves of value 4 each, and
    # both together (value 8) first.
    position = Position.parse(rack="R4 B4", table=["R1 R2 R3", "B1 B2 B3"])
    moves = top_moves(position, 3)
    assert [m.value for m in moves] == [8, 4, 4]
    assert {str(m.played[0]) for m in moves[1:]} == {"R4", "B4"}


def test_top_k_of_no_move_is_empty() -> None:
    position = Position.parse(rack="K1", table=["R5 R6 R7"])
    assert top_moves(position, 3) == ()
    analysis = analyse(position, top=3)
    assert analysis.moves == () and not analysis.best.played and analysis.proven


def test_top_k_needs_a_positive_k() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        top_moves(Position.parse(rack="R4", table=["R1 R2 R3"]), 0)


# -- the solver options the analysis uses --------------------------------------------------


@EXHAUSTIVE
@given(small_positions(), st.data())
def test_excluded_multisets_are_never_played(position: Position, data: st.DataObject) -> None:
    moves = list(every_move(position).values())
    excluded = data.draw(st.lists(st.sampled_from(moves), max_size=3)) if moves else []
    result = solve(position, exclude=[m.played for m in excluded])
    left = sorted(
        (m for m in moves if key(m.played) not in {key(e.played) for e in excluded}),
        key=score,
        reverse=True,
    )
    if not left:
        assert result.status == "no_move"
        return
    assert (result.value, result.tiles) == (left[0].value, left[0].tiles)
    assert key(result.played) not in {key(e.played) for e in excluded}
    assert_legal(position, RankedMove.of(result))


@EXHAUSTIVE
@given(small_positions(), st.data())
def test_better_than_finds_the_best_move_above_a_score(
    position: Position, data: st.DataObject
) -> None:
    moves = list(every_move(position).values())
    floor = (data.draw(st.integers(0, 40)), data.draw(st.integers(0, 6)))
    result = solve(position, better_than=floor)
    above = sorted((m for m in moves if (m.value, m.tiles) > floor), key=score, reverse=True)
    if not above:
        assert result.status == "no_move"
        return
    assert (result.value, result.tiles) == (above[0].value, above[0].tiles)
    assert count_unchanged(position.table, result.table) == above[0].unchanged
    assert_legal(position, RankedMove.of(result))


def test_the_options_leave_the_answer_alone_when_unused() -> None:
    position = Position.parse(rack="R4 K7 O7 B11", table=["R1 R2 R3", "K7 R7 B7", "B9 B10 J"])
    plain = solve(position)
    assert solve(position, exclude=[], fewest_tiles=False).table == plain.table
    # Excluding a multiset the rack cannot play changes nothing either.
    assert solve(position, exclude=[[Tile("K", 1)]]).table == plain.table


def test_fewest_tiles_goes_with_the_value_objective_only() -> None:
    with pytest.raises(ValueError, match="fewest_tiles"):
        solve(Position.parse(rack="R4"), objective="tiles", fewest_tiles=True)
    with pytest.raises(ValueError, match="fewest_tiles"):
        solve(Position.parse(rack="R4"), fewest_tiles=True, better_than=(1, 1))


# -- hold or play --------------------------------------------------------------------------


@EXHAUSTIVE
@given(small_positions())
def test_hold_matches_the_exhaustive_search(position: Position) -> None:
    moves = every_move(position).values()
    found = hold(position)
    best = max(moves, key=score, default=None)
    if best is None:
        assert not found.fewest.played
        return
    assert (found.best.value, found.best.tiles) == (best.value, best.tiles)
    # Fewest tiles at the best value, then the least disturbance.
    fewest = max((m for m in moves if m.value == best.value), key=lambda m: (-m.tiles, m.unchanged))
    assert (found.fewest.value, found.fewest.tiles) == (fewest.value, fewest.tiles)
    assert count_unchanged(position.table, found.fewest.table) == fewest.unchanged
    assert_legal(position, found.fewest)
    if JOKER not in position.rack:
        assert found.keep_jokers is None
        return
    keep = max((m for m in moves if JOKER not in m.played), key=score, default=None)
    assert found.keep_jokers is not None
    assert JOKER not in found.keep_jokers.played
    assert_legal(position, found.keep_jokers)
    if keep is None:
        assert not found.keep_jokers.played
        assert found.joker_cost == best.value
    else:
        assert (found.keep_jokers.value, found.keep_jokers.tiles) == (keep.value, keep.tiles)
        assert found.joker_cost == best.value - keep.value


def test_hold_of_a_known_position() -> None:
    # Playing everything is worth 43 with the joker; keeping it, only R4 and K9 (13).
    position = Position.parse(rack="R4 J K9", table=["R1 R2 R3", "K7 K8 J"])
    found = hold(position)
    assert found.joker_cost == 30
    assert found.keep_jokers is not None
    assert [str(t) for t in found.keep_jokers.played] == ["K9", "R4"]
    assert [str(t) for t in found.keep_jokers.rack] == ["J"]
    # R10 R11 R12 or R10 R11 R12 R13: the same value needs R13, so fewest = most here;
    # with K5 in the rack as well, K5 cannot be played at all.
    many = Position.parse(rack="K1 K2 K3 K6", table=["K4 K5 J"])
    fewest = hold(many).fewest
    assert fewest.value == solve(many).value


def test_fewest_tiles_prefers_the_lighter_way() -> None:
    # Value 12 either as K12 alone on K9 K10 K11, or as K5 K7 on the K6 group... same value
    # with fewer tiles: the single K12.
    position = Position.parse(rack="K12 R5 B7", table=["K9 K10 K11", "K6 R6 B6", "R6 B6 O6"])
    best = solve(position)
    fewest = hold(position).fewest
    assert fewest.value == best.value
    assert fewest.tiles <= best.tiles


# -- outs -------------------------------------------------------------------------------------


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_every_out_equals_a_fresh_solve_with_the_tile(position: Position) -> None:
    found = outs(position)
    unseen = unseen_tiles(position)
    assert {out.tile for out in found.outs} == set(unseen)
    assert found.unseen == sum(unseen.values())
    assert sum(out.chance for out in found.outs) == (1 if unseen else 0)
    today = solve(position)
    assert found.today.value == today.value
    for out in found.outs:
        drawn = with_tile(position, out.tile)
        fresh = solve(drawn)
        assert out.count == unseen[out.tile]
        assert (out.best.value, out.best.tiles) == (fresh.value, fresh.tiles), out.tile
        assert out.gain == fresh.value - today.value >= 0
        if out.proof == "fits no meld":
            assert out.gain == 0
            assert out.tile not in fresh.played
        else:
            assert_legal(drawn, out.best)
    gains = [out.gain for out in found.outs]
    assert gains == sorted(gains, reverse=True)


@EXHAUSTIVE
@given(small_positions(), st.data())
def test_a_tile_that_fits_no_meld_is_never_played(position: Position, data: st.DataObject) -> None:
    unseen = sorted(unseen_tiles(position), key=position.rules.sort_key)
    if not unseen:
        return
    tile = data.draw(st.sampled_from(unseen))
    present = position.table_tiles() + position.rack_tiles()
    if fits_a_meld(tile, present, position.rules):
        return
    drawn = with_tile(position, tile)
    assert all(tile not in m.played for m in every_move(drawn).values())


def test_fits_a_meld() -> None:
    tiles = Counter([Tile("R", 5), Tile("R", 7), Tile("K", 9), Tile("B", 9)])
    assert fits_a_meld(Tile("R", 6), tiles, STANDARD)  # R5 R6 R7
    assert fits_a_meld(Tile("O", 9), tiles, STANDARD)  # K9 B9 O9
    assert not fits_a_meld(Tile("R", 8), tiles, STANDARD)  # R6 or R9 missing, no joker
    assert not fits_a_meld(Tile("R", 11), tiles, STANDARD)
    assert fits_a_meld(Tile("R", 8), tiles + Counter([JOKER]), STANDARD)  # R7 R8 J
    assert fits_a_meld(Tile("O", 5), tiles + Counter([JOKER]), STANDARD)  # R5 O5 J


def test_outs_of_a_known_position() -> None:
    position = Position.parse(rack="R4 K7", table=["R1 R2 R3", "B7 R7 O7"])
    found = outs(position)
    assert found.today.value == 11
    assert [(str(o.tile), o.count, o.gain) for o in found.helping] == [
        ("J", 2, 30),
        ("R5", 2, 5),
    ]
    assert found.unseen == 106 - 8
    assert found.chance(1) == Fraction(4, 98)
    assert found.chance(6) == Fraction(2, 98)
    assert found.thresholds() == (5, 30)
    assert found.proven
    data = found.to_data()
    assert data["chance"] == [
        {"at_least": 5, "chance": round(4 / 98, 6)},
        {"at_least": 30, "chance": round(2 / 98, 6)},
    ]
    assert [o["tile"] for o in data["outs"][:2]] == ["J", "R5"]


def test_outs_report_progress() -> None:
    position = Position.parse(rack="R4", table=["R1 R2 R3"])
    seen: list[tuple[int, int]] = []
    found = outs(position, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, len(found.outs)) for i in range(1, len(found.outs) + 1)]


def test_outs_when_the_box_is_empty() -> None:
    # Every tile of a tiny box is on the table or in the rack: nothing can be drawn.
    rules = STANDARD.replace(numbers=3, colors=3, copies=1, jokers=0, initial_meld=0)
    position = Position.parse(rack="B1 B2 B3", table=["K1 K2 K3", "R1 R2 R3"], rules=rules)
    found = outs(position)
    assert found.outs == () and found.unseen == 0
    assert found.chance(1) == 0
    assert found.today.value == 6


# -- grading -------------------------------------------------------------------------------


@EXHAUSTIVE
@given(small_positions(), st.data())
def test_grade_agrees_with_solve(position: Position, data: st.DataObject) -> None:
    moves = list(every_move(position).values())
    if not moves:
        return
    chosen = data.draw(st.sampled_from(moves))
    # A legal table for the chosen tiles: the top-k move that plays them.
    table = next(
        t
        for t in partitions([*position.table_tiles().elements(), *chosen.played], position.rules)
        if check(position, t).legal
    )
    found = grade(position, table)
    best = solve(position)
    assert found.legal
    assert found.value == chosen.value
    assert found.value_gap == best.value - chosen.value >= 0
    assert found.tiles_gap == best.tiles - chosen.tiles
    assert found.is_best == ((chosen.value, chosen.tiles) == (best.value, best.tiles))
    assert found.best.value == best.value


def test_grade_texts() -> None:
    position = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    weaker = grade(position, [Meld.parse("R1 R2 R3 R4"), Meld.parse("K7 R7 B7")])
    assert weaker.text() == "legal; the best move plays 7 more points: R4 O7 (2 tiles, value 11)"
    best = grade(position, [Meld.parse("R1 R2 R3 R4"), Meld.parse("K7 R7 B7 O7")])
    assert best.is_best and best.text() == "legal; a best move (no legal move plays more)"
    illegal = grade(position, [Meld.parse("R1 R2 R3 R4")])
    assert not illegal.legal and illegal.errors
    assert illegal.text().startswith("illegal; the best move plays R4 O7")
    assert illegal.to_data()["legal"] is False


# -- analyse ---------------------------------------------------------------------------------


def test_analyse_gathers_every_part() -> None:
    position = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    proposed = [Meld.parse("R1 R2 R3 R4"), Meld.parse("K7 R7 B7")]
    analysis = analyse(position, top=2, outs=True, hold=True, grade=proposed)
    assert isinstance(analysis, Analysis)
    assert analysis.best == analysis.moves[0]
    assert analysis.outs is not None and analysis.outs.today == analysis.best
    assert analysis.hold is not None and analysis.grade is not None
    assert analysis.grade.value_gap == 7
    data = analysis.to_data()
    assert list(data)[:9] == [
        "status",
        "value",
        "tiles",
        "played",
        "rack",
        "table",
        "seconds",
        "changed",
        "moves",
    ]
    assert {"outs", "hold", "grade"} <= set(data)
    assert [m["rank"] for m in data["moves"]] == [1, 2]
    assert analysis.best.explain().steps


def test_moves_are_frozen() -> None:
    move = top_moves(Position.parse(rack="R4", table=["R1 R2 R3"]), 1)[0]
    with pytest.raises(AttributeError):
        move.value = 3  # type: ignore[misc]


def test_every_part_of_an_analysis_is_legal_on_presets() -> None:
    position = Position.parse(
        rack="R4 J K9 B2 B3 O11", table=["R1 R2 R3", "K7 K8 J", "B4 B5 B6", "O12 B12 K12"]
    )
    analysis = analyse(position, top=4, hold=True)
    for move in analysis.moves:
        assert_legal(position, move)
    assert analysis.hold is not None
    assert_legal(position, analysis.hold.fewest)
    assert analysis.hold.keep_jokers is not None
    assert_legal(position, analysis.hold.keep_jokers)
    pairs = itertools.pairwise(analysis.moves)
    assert all((a.value, a.tiles) >= (b.value, b.tiles) for a, b in pairs)
