"""Every strategy returns only moves the checker accepts, over seeded self-play games.

Each example is a seeded game in which every seat plays the strategy under test, in a small
box under the rules of each preset (joker lock, partial releases, the book's "both" rule, the
boxed initial meld). Every move is judged by :func:`rummikub.tiles.checker.check` *before*
the engine applies it, so a bad move fails here with its position rather than in the engine.

The test iterates over :data:`~rummikub.tiles.game.strategies.STRATEGIES`: a strategy registered
there is tested without a change to this file. A slow one gets a cheaper :class:`Budget` in
:data:`BUDGETS` (fewer turns per game, fewer games) or is skipped there with a reason.
RUMMIKUB_TEST_SCALE multiplies the number of games, as for the other property tests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub.tiles.checker import check
from rummikub.tiles.game.engine import advance, deal, start, turn_of_move
from rummikub.tiles.game.strategies import STRATEGIES, Strategy, best
from rummikub.tiles.game.view import View, view_of
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import PRESETS, Rules
from tests.strategies import examples


@dataclass(frozen=True, slots=True)
class Budget:
    """How much of a strategy the test plays."""

    #: Turns played (and checked) per game, counted over all seats.
    turns: int = 28
    #: Games per strategy and preset, before RUMMIKUB_TEST_SCALE.
    games: int = 2
    #: Why the strategy is not played here (None: it is).
    skip: str | None = None


#: The budget of a strategy not named in :data:`BUDGETS`.
DEFAULT = Budget()
#: Cheaper settings for slow strategies: ``equity`` plays out every candidate on sampled
#: deals, some 30-100 solves a turn.
BUDGETS: dict[str, Budget] = {
    "equity": Budget(turns=16, games=1),
    "equity-v1": Budget(turns=16, games=1),
}

#: A small box (3 colors of 1-8, two jokers, 50 tiles): whole turns take a few solves, and
#: two-joker melds, releases and partial releases still come up.
RACK_SIZE = 7


def small(preset: str) -> Rules:
    """The rules of ``preset`` in the small box."""
    return replace(PRESETS[preset], numbers=8, colors="KRB", jokers=2, initial_meld=10)


def budget_of(name: str) -> Budget:
    return BUDGETS.get(name, DEFAULT)


def checked_game(rules: Rules, strategies: Sequence[Strategy], seed: int, turns: int) -> int:
    """Play the seeded game for at most ``turns`` turns, judging every move before the
    engine applies it; the number of moves that played tiles."""
    record = deal([f"P{s + 1}" for s in range(len(strategies))], rules, seed, RACK_SIZE)
    state = start(record)
    plays = 0
    while not state.over and state.turns < turns:
        seat = state.to_move
        position, view = view_of(state, seat)
        move = strategies[seat](position, view)
        _assert_legal(position, view, move)
        plays += bool(move.played)
        state = advance(state, turn_of_move(state, move))
    return plays


def _assert_legal(position: Position, view: View, move: Move) -> None:
    old = Counter(t for meld in position.table for t in meld.tiles)
    new = Counter(t for meld in move.table for t in meld.tiles)
    where = f"turn {view.turns + 1}, seat {view.seat}: {position!r}"
    # The move's played tiles are the tiles it adds to the table, and it takes none away.
    assert Counter(move.played) == new - old and not old - new, f"{where}\n{move}"
    if move.played:
        verdict = check(position, move.table)
        shown = " | ".join(str(meld) for meld in move.table)
        assert verdict.legal, f"{where}\nmove: {shown}\n" + "\n".join(verdict.errors)


PLAYED = [name for name in STRATEGIES if budget_of(name).skip is None]
SKIPPED = [
    pytest.param(name, marks=pytest.mark.skip(reason=budget_of(name).skip))
    for name in STRATEGIES
    if budget_of(name).skip is not None
]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("name", [*PLAYED, *SKIPPED])
def test_every_move_passes_the_checker(name: str, preset: str) -> None:
    budget = budget_of(name)
    rules = small(preset)

    @settings(
        max_examples=examples(budget.games),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
    def games(seed: int, players: int) -> None:
        checked_game(rules, [STRATEGIES[name]] * players, seed, budget.turns)

    games()


def test_the_games_play_tiles() -> None:
    # The checked games reach past the opening: within the turn budget tiles are laid.
    assert checked_game(small("standard"), [best, best], 1, DEFAULT.turns) >= 3


def _drops_a_meld(position: Position, view: View) -> Move:
    """The best move, with the table's first meld taken off: a move the checker refuses."""
    move = best(position, view)
    if not move.played or not position.table:
        return move
    first = position.table[0]
    return Move(tuple(m for m in move.table if m != first), move.played)


def test_a_bad_move_fails_the_check() -> None:
    with pytest.raises(AssertionError):
        for seed in range(10):
            checked_game(small("standard"), [_drops_a_meld, best], seed, 40)


def _hoard_view(pool: int) -> View:
    return View(seat=0, rack_counts=(4, 14), opened=(True, True), pool_count=pool, turns=10)


def test_hoard_draws_until_it_can_lay_its_whole_rack() -> None:
    """``hoard`` lays nothing while one tile would stay behind, and everything once none would."""
    hoard = STRATEGIES["hoard"]
    stuck = Position.parse(rack="R5 R6 R7 K1", table=["B9 B10 B11"], opened=True)
    assert best(stuck, _hoard_view(20)).played  # the run could be laid ...
    assert hoard(stuck, _hoard_view(20)).played == ()  # ... but K1 would stay: draw
    out = Position.parse(rack="R5 R6 R7 B8", table=["B9 B10 B11"], opened=True)
    assert sorted(map(str, hoard(out, _hoard_view(20)).played)) == ["B8", "R5", "R6", "R7"]
    # With the pool empty drawing is a pass: it plays like best rather than stall for ever.
    assert hoard(stuck, _hoard_view(0)) == best(stuck, _hoard_view(0))


def _tempo_view(opponent: int, pool: int = 20) -> View:
    return View(seat=0, rack_counts=(4, opponent), opened=(True, True), pool_count=pool, turns=10)


def test_tempo_opens_early_hoards_then_races_when_an_opponent_is_close() -> None:
    """``tempo`` keeps its tiles while the opponent holds many, lays them once the opponent
    is close to going out, and opens as soon as it can."""
    tempo = STRATEGIES["tempo"]
    stuck = Position.parse(rack="R5 R6 R7 K1", table=["B9 B10 B11"], opened=True)
    assert tempo(stuck, _tempo_view(14)).played == ()  # K1 would stay: draw, as hoard does
    assert tempo(stuck, _tempo_view(5)) == best(stuck, _tempo_view(5))  # the race is on
    assert tempo(stuck, _tempo_view(14, pool=0)) == best(stuck, _tempo_view(14, pool=0))
    closed = Position.parse(rack="R10 R11 R12 K1", table=[], opened=False)
    assert tempo(closed, _tempo_view(14)).played  # its initial meld, at once
