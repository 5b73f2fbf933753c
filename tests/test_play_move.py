"""A playout's turn (rummikub/tiles/game/engine.py, ``play_move``): the very state the public
path gives, ``advance(state, turn_of_move(state, move), judge=False)``, turn by turn; and the
sort keys it and the fast move sort racks with, remembered (``Rules.sort_key``)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rummikub.tiles.game.engine import (
    GameState,
    TurnError,
    advance,
    deal,
    play_move,
    real_table,
    start,
    turn_of_move,
)
from rummikub.tiles.game.equity import TileSearch, _playout_move
from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Move
from rummikub.tiles.rules import STANDARD, Rules
from rummikub.tiles.tiles import JOKER, Tile, parse_tiles, sort_key

#: A small box, so that the pool runs dry and hands end on passes as well as by going out.
SMALL = Rules(numbers=7, colors="KRB", copies=1, jokers=1, initial_meld=0)
#: A small box with an initial meld, so that players open late or never.
OPENING = Rules(numbers=9, colors="KRBO", copies=1, jokers=2, initial_meld=15)


def both_ways(state: GameState, move: Move) -> GameState:
    """The state after ``move`` by both paths, checked the same (equal, and alike as text)."""
    expected = advance(state, turn_of_move(state, move), judge=False)
    found = play_move(state, move)
    assert found == expected
    assert repr(found) == repr(expected)
    return found


def play_through(state: GameState, seed: int, *, fast: bool, explore: float) -> list[str]:
    """Play the hand out both ways, turn by turn; the kinds of turns and endings met."""
    rng = random.Random(seed)
    met = []
    while not state.over and state.turns < 400:
        move = _playout_move(state, explore, rng, None, fast)
        state = both_ways(state, move)
        met.append(state.history[-1].kind)
    if state.result is not None:
        met.append(state.result.ending)
    return met


@pytest.mark.parametrize(
    ("rules", "players", "rack_size"),
    [(STANDARD, 2, 14), (STANDARD, 4, 14), (SMALL, 2, 5), (SMALL, 3, 4), (OPENING, 2, 7)],
)
@pytest.mark.parametrize(("fast", "explore"), [(True, 0.0), (True, 0.3), (False, 0.2)])
def test_seeded_hands_reach_the_same_states_by_both_paths(
    rules: Rules, players: int, rack_size: int, fast: bool, explore: float
) -> None:
    met: set[str] = set()
    for seed in range(2 if fast else 1):
        names = [f"P{s + 1}" for s in range(players)]
        state = start(deal(names, rules, seed, rack_size))
        met.update(play_through(state, seed, fast=fast, explore=explore))
    assert {"play", "draw"} <= met


def test_every_kind_of_turn_and_ending_is_met() -> None:
    """The hands above meet every branch: plays, draws, passes, going out, the pool empty."""
    met: set[str] = set()
    for seed in range(12):
        state = start(deal(["A", "B"], SMALL, seed, 5))
        met.update(play_through(state, seed, fast=True, explore=0.3))
    assert met == {"play", "draw", "pass", "went_out", "pool_empty"}


def test_a_playout_ends_in_the_state_of_the_public_path() -> None:
    """equity's playouts (``TileSearch.playout``) end where the public path's turns end."""
    for seed in range(4):
        first = start(deal(["A", "B", "C"], STANDARD, seed))
        state = first
        rng = random.Random(seed)
        for _ in range(30):
            if state.over:
                break
            state = advance(state, turn_of_move(state, _playout_move(state, 0.2, rng, None, True)))
        assert TileSearch(fast=True).playout(first, 10, 0.2, random.Random(seed)) == state


def test_melds_laid_out_of_order_read_as_a_record_reads_them() -> None:
    """A run given out of order and a table meld not in laid order are read back as the
    record would read them (sorted), and the tiles laid counted from the tables."""
    rules = STANDARD
    old = Meld("run", parse_tiles("R3 R1 R2"))  # built by hand, not in laid order
    base = start(deal(["A", "B"], rules, 5))
    rack = parse_tiles("O9 K5 R4 K6 K7")  # not sorted either
    state = GameState(
        rules=rules,
        players=base.players,
        table=(old, Meld.parse("B7 K7 O7")),
        racks=(rack, base.racks[1]),
        rack_counts=(len(rack), 14),
        opened=(True, True),
        pool=base.pool,
        pool_count=base.pool_count,
    )
    run = Meld("run", parse_tiles("K7 K5 K6"))
    longer = Meld.parse("R1 R2 R3 R4")
    moves = [
        Move((old, state.table[1], run), parse_tiles("K5 K6 K7")),
        Move((longer, state.table[1]), parse_tiles("R4")),
        # The played tiles as the move says them are not read: the tables decide.
        Move((longer, state.table[1], Meld.parse("K5 K6 K7")), parse_tiles("O9")),
    ]
    for move in (*moves, Move(state.table, ())):
        after = both_ways(state, move).racks[0]
        assert after is not None and after == tuple(sorted(after, key=rules.sort_key))
    assert both_ways(state, moves[0]).table[2].tiles == parse_tiles("K5 K6 K7")
    assert both_ways(state, moves[2]).history[-1].laid == parse_tiles("K5 K6 K7 R4")


def test_turns_the_path_does_not_know_take_the_public_path() -> None:
    """A real table (racks or the pool unknown), a hand over and a drawn tile the box lacks
    give what ``advance`` gives, or its very error."""
    table = start(real_table(["A", "B"], STANDARD, 1, parse_tiles("R1 R2 R3 K9"), 4))
    laid = Move((Meld.parse("O5 O6 O7"),), parse_tiles("O5 O6 O7"))
    after = both_ways(table, laid)
    assert after.racks[0] is None and after.rack_counts[0] == 1
    assert "must be given" in _failure(after, Move(after.table, ()))
    state = start(deal(["A", "B"], SMALL, 1, 5))
    assert state.pool is not None
    bad = replace(state, pool=(*parse_tiles("K9"), *state.pool[1:]))
    assert "drew K9" in _failure(bad, Move(bad.table, ()))
    ended = replace(state, pool=(), pool_count=0, passes=1)
    over = both_ways(ended, Move(ended.table, ()))
    assert over.result is not None and over.result.ending == "pool_empty"
    assert "the hand is over" in _failure(over, Move(over.table, ()))


def _failure(state: GameState, move: Move) -> str:
    """The error both paths raise for ``move``, the same."""
    with pytest.raises(TurnError) as expected:
        advance(state, turn_of_move(state, move), judge=False)
    with pytest.raises(TurnError) as found:
        play_move(state, move)
    assert str(found.value) == str(expected.value)
    return str(found.value)


def test_the_sort_keys_remembered_are_the_ones_reckoned() -> None:
    """``Rules.sort_key`` remembers each tile's key per color letters: the same keys as
    :func:`rummikub.tiles.tiles.sort_key`, for tiles of the box and outside it, under rule
    sets sharing letters in another order, and the same error for what is no tile."""
    other = Rules(colors="OBRK")
    outside = [Tile("G", 3), Tile("K", 40), Tile("Z", 1)]
    for rules in (STANDARD, other, SMALL, STANDARD):
        tiles = [*rules.tile_types(), JOKER, *outside]
        for _ in range(2):
            assert [rules.sort_key(t) for t in tiles] == [sort_key(t, rules.colors) for t in tiles]
    assert STANDARD.sort_key(Tile("K", 1)) < STANDARD.sort_key(Tile("O", 1))
    assert other.sort_key(Tile("K", 1)) > other.sort_key(Tile("O", 1))
    for wrong in ([1, 2], "R5"):
        with pytest.raises(AttributeError):
            STANDARD.sort_key(wrong)  # type: ignore[arg-type]
