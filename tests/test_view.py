"""What a player knows (game/view.py): the view, the unseen tiles, determinization."""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.tiles.game.engine import GameState, advance, box, deal, replay, start, turn_of_move
from rummikub.tiles.game.simulate import play_game
from rummikub.tiles.game.strategies import best, casual
from rummikub.tiles.game.view import determinize, unseen, view_of
from rummikub.tiles.rules import STANDARD
from rummikub.tiles.tiles import Tile


@functools.cache
def _game(seed: int) -> tuple[GameState, ...]:
    record, _ = play_game(STANDARD, [best, casual], seed)
    return replay(record).states


def _midgame(seed: int, turns: int = 12) -> GameState:
    states = _game(seed)
    return states[min(turns, len(states) - 2)]


class Trap(tuple):  # type: ignore[type-arg]
    """A rack or pool nobody may look at: any look raises."""

    def _look(self, *args: Any) -> Any:
        raise AssertionError("a hidden rack or the pool was read")

    __iter__ = __len__ = __getitem__ = __contains__ = __eq__ = __hash__ = _look  # type: ignore[assignment]


def _hidden(state: GameState) -> GameState:
    """``state`` with every rack but the mover's, and the pool, turned into traps."""
    seat = state.to_move
    racks = tuple(r if s == seat else Trap() for s, r in enumerate(state.racks))
    return replace(state, racks=racks, pool=Trap())


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 3), st.integers(0, 30))
def test_unseen_is_the_box_less_the_table_less_the_rack(seed: int, turns: int) -> None:
    state = _midgame(seed, turns)
    position, view = view_of(state)
    hidden = unseen(position, view)
    table = Counter(t for meld in position.table for t in meld.tiles)
    assert Counter(hidden) == Counter(box(STANDARD)) - table - Counter(position.rack)
    # ... and they are exactly what the other racks and the pool hold.
    others = [t for s, r in enumerate(state.racks) if s != view.seat and r for t in r]
    assert Counter(hidden) == Counter(others) + Counter(state.pool or ())


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 3), st.integers(0, 30), st.integers(0, 2**32))
def test_determinize_deals_the_unseen_tiles_into_the_known_sizes(
    seed: int, turns: int, draw: int
) -> None:
    state = _midgame(seed, turns)
    position, view = view_of(state)
    sampled = determinize(position, view, random.Random(draw))
    assert sampled.rack_counts == state.rack_counts
    assert sampled.opened == state.opened and sampled.table == state.table
    assert sampled.racks[view.seat] == state.racks[view.seat]
    for seat, rack in enumerate(sampled.racks):
        assert rack is not None and len(rack) == state.rack_counts[seat]
    assert sampled.pool is not None and len(sampled.pool) == state.pool_count
    dealt = [t for s, r in enumerate(sampled.racks) if s != view.seat and r for t in r]
    assert Counter(dealt) + Counter(sampled.pool) == Counter(unseen(position, view))
    # Seeded: the same seed deals the same, a game played from it runs.
    assert determinize(position, view, random.Random(draw)) == sampled
    advance(sampled, turn_of_move(sampled, best(*view_of(sampled))))


def test_determinize_varies_with_the_seed() -> None:
    position, view = view_of(_midgame(3))
    deals = {determinize(position, view, random.Random(i)).racks for i in range(5)}
    assert len(deals) == 5


def test_the_view_reads_no_hidden_rack_nor_the_pool() -> None:
    state = _midgame(2)
    with pytest.raises(AssertionError, match="hidden"):
        list(_hidden(state).pool or ())
    position, view = view_of(_hidden(state))
    assert (position, view) == view_of(state)


@pytest.mark.parametrize(
    "name", ["best", "tiles", "hold", "casual", "hoard", "equity", "equity-v1"]
)
def test_a_strategy_decides_from_the_view_alone(name: str) -> None:
    """Two states that differ only in what the player cannot see give the same move, and a
    state whose hidden racks and pool cannot be read at all gives it too."""
    from rummikub.tiles.game.strategies import strategy

    state = _midgame(4, 8)
    play = strategy(name)
    move = play(*view_of(state))
    assert play(*view_of(_hidden(state))) == move
    position, view = view_of(state)
    other = determinize(position, view, random.Random(99))
    assert play(*view_of(other)) == move


def test_history_is_public() -> None:
    record = deal(["A", "B"], STANDARD, 1)
    state = start(record)
    state = advance(state, turn_of_move(state, best(*view_of(state))))
    (seen,) = state.history
    assert seen.seat == 0
    if seen.kind == "draw":
        assert seen.laid == ()
    else:
        assert seen.kind == "play" and seen.laid
        assert all(isinstance(t, Tile) for t in seen.laid)


def test_determinize_counts_the_passes_in_a_row() -> None:
    from rummikub.tiles.game.engine import Seen

    state = _midgame(1)
    history = (*state.history, Seen(0, "play", ()), Seen(1, "pass"), Seen(0, "pass"))
    position, view = view_of(replace(state, history=history))
    assert determinize(position, view, random.Random(1)).passes == 2
