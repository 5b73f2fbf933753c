"""The ``equity`` player (game/player.py): its reading of the opponents, its moves."""

from __future__ import annotations

import functools
import random

from rummikub.tiles.checker import check
from rummikub.tiles.game.engine import GameState, Seen, replay
from rummikub.tiles.game.player import equity, hoarding, may_open, reading
from rummikub.tiles.game.simulate import play_game
from rummikub.tiles.game.strategies import STRATEGIES, hoard
from rummikub.tiles.game.view import View, determinize, view_of
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import PRESETS, STANDARD
from rummikub.tiles.tiles import Tile


def _view(history: tuple[Seen, ...], pool: int = 40, opened: bool = False) -> View:
    draws = [sum(1 for s in history if s.seat == seat and s.kind == "draw") for seat in (0, 1)]
    return View(0, (14 + draws[0], 14 + draws[1]), (False, opened), pool, len(history), history)


def _turns(*kinds: str, laid: tuple[Tile, ...] = (Tile("K", 1),) * 3) -> tuple[Seen, ...]:
    """Alternating turns: seat 0 always draws, seat 1 takes ``kinds`` in order."""
    seen: list[Seen] = []
    for kind in kinds:
        seen.append(Seen(0, "draw"))
        seen.append(Seen(1, kind, laid if kind == "play" else ()))
    return tuple(seen)


def test_draws_with_a_growing_rack_read_as_hoarding() -> None:
    view = _view(_turns(*["draw"] * 8))
    found = reading(view, 1)
    assert found.draws == 8 and found.plays == 0
    assert found.hoards > 0.95
    # Every draw is evidence: the reading rises with them from the prior.
    rising = [hoarding(_view(_turns(*["draw"] * n)), 1) for n in range(6)]
    assert rising == sorted(rising) and rising[0] == 0.5 < rising[-1]


def test_laying_tiles_short_of_going_out_reads_as_feeding() -> None:
    view = _view(_turns("draw", "play", "draw", "play"), opened=True)
    found = reading(view, 1)
    assert found.plays == 2
    assert found.hoards < 0.05


def test_plays_once_the_pool_is_empty_say_nothing() -> None:
    # The pool held 2 tiles before the last two draws: the plays after them came once it
    # was empty, when a hoarder too lays what it can.
    history = (Seen(0, "draw"), Seen(1, "draw"), Seen(0, "pass"), Seen(1, "play", (Tile("K", 1),)))
    view = View(0, (15, 14), (False, True), 0, len(history), history)
    assert reading(view, 1).plays == 0
    assert hoarding(view, 1) == hoarding(_view(_turns("draw")), 1)


def test_it_opens_unless_a_hoarder_could_go_out_over_the_table() -> None:
    position = Position.parse(rack="R10 R11 R12 K1 B5", table=[], opened=False)
    hoarder = _view(_turns(*["draw"] * 6))
    feeder = _view(_turns("play", "draw"), opened=True)
    assert not may_open(position, hoarder)
    assert may_open(position, feeder)
    assert equity(position, hoarder).played == ()
    assert sorted(map(str, equity(position, feeder).played)) == ["R10", "R11", "R12"]
    # Under the boxed reading nobody uses the table on the turn it opens: open anyway.
    boxed = Position.parse(rack="R10 R11 R12 K1 B5", table=[], opened=False, rules=PRESETS["boxed"])
    assert may_open(boxed, hoarder)
    assert equity(boxed, hoarder).played


def test_it_draws_short_of_going_out_and_goes_out_when_it_can() -> None:
    stuck = Position.parse(rack="R5 R6 R7 K1", table=["B8 B9 B10"], opened=True)
    view = View(0, (4, 9), (True, True), 40, 20)
    assert equity(stuck, view).played == ()
    out = Position.parse(rack="R5 R6 R7 B7", table=["B8 B9 B10"], opened=True)
    assert sorted(map(str, equity(out, view).played)) == ["B7", "R5", "R6", "R7"]


@functools.cache
def _states() -> tuple[GameState, ...]:
    """Every state of a game of the new player against ``hoard``, the pool emptied at the
    end (both hoard), so that every branch of a decision comes up."""
    record, _ = play_game(STANDARD, [STRATEGIES["equity"], hoard], 1000)
    return replay(record).states[:-1]


def test_every_move_passes_the_checker_reads_only_the_view_and_is_repeated() -> None:
    states = _states()
    assert any(state.pool_count == 0 for state in states)
    for state in states[::6] + tuple(s for s in states if s.pool_count == 0):
        _holds(state, 7)


def _holds(state: GameState, seed: int) -> None:
    """The player's move in ``state`` passes the checker, is the same when asked again, and
    the same with what it cannot see dealt otherwise (at ``seed``)."""
    position, view = view_of(state)
    move = equity(position, view)
    if move.played:
        assert check(position, move.table).legal
    assert equity(position, view) == move
    other = determinize(position, view, random.Random(seed))
    assert equity(*view_of(other)) == move


def test_it_beats_best_and_hoard_on_a_few_deals() -> None:
    from rummikub.tiles.game.duel import DuelSetup, duel, summarize

    for other in ("best", "hoard"):
        setup = DuelSetup("equity", other, seed=3)
        assert summarize(setup, duel(setup, 4)).a_wins >= 3


@functools.cache
def _four_player_states() -> tuple[GameState, ...]:
    """The states of a 4-player game of the new player against three ``hoard``: the pool
    runs out with every rack large, where the player looks a round ahead."""
    record, _ = play_game(STANDARD, [STRATEGIES["equity"], hoard, hoard, hoard], 1001)
    return replay(record).states[:-1]


def test_the_round_after_is_every_other_seat_laying_the_most_tiles() -> None:
    from rummikub.tiles.game.engine import advance, turn_of_move
    from rummikub.tiles.game.player import _round_after
    from rummikub.tiles.solver import solve

    dry = [s for s in _four_player_states() if s.pool_count == 0 and s.to_move == 0]
    assert dry, "the pool never ran out"
    for state in dry:
        assert _round_after(state, 0) == state  # the player's turn already: nothing played
        # The player passes; then each other seat in turn lays its most-tiles move.
        step = passed = advance(state, turn_of_move(state, Move(state.table, ())), judge=False)
        while not step.over and step.to_move != 0:
            most = solve(step.position(), objective="tiles").move
            step = advance(step, turn_of_move(step, most), judge=False)
        assert _round_after(passed, 0) == step
        # A seat that passed once the pool was empty (it waits, as this player does) passes
        # again in the round ahead, the others laying as before.
        waited = _round_after(passed, 0, frozenset({1}))
        assert waited.over or waited.to_move == 0
        assert waited.racks[1] == passed.racks[1]
        assert any(seen.seat == 1 and seen.kind == "pass" for seen in waited.history[-3:])


def test_at_four_players_with_the_pool_empty_its_moves_hold() -> None:
    dry = [s for s in _four_player_states() if s.pool_count == 0 and s.to_move == 0]
    assert dry and sum(dry[0].rack_counts) > 30
    for state in dry:
        _holds(state, 11)


def test_first_to_move_on_an_empty_pool_it_waits_for_three_hoarders_to_lay() -> None:
    from rummikub.tiles.game.engine import advance, turn_of_move
    from rummikub.tiles.game.player import _goes_out, _round_after

    # Seat 2 moves first once the pool is empty: every tile on a rack, the table empty.
    record, final = play_game(STANDARD, [hoard, hoard, STRATEGIES["equity"], hoard], 1001)
    state = replay(record).states[50]
    assert state.pool_count == 0 and state.to_move == 2 and not state.table_tiles()
    position, view = view_of(state)
    # It could open (13 tiles), but each hoarder would then go out over that table or
    # after the others: it passes, the three lay the most tiles they can, and it goes out
    # over the table they built.
    move = equity(position, view)
    assert move.played == ()
    after = _round_after(advance(state, turn_of_move(state, move), judge=False), 2)
    assert not after.over and _goes_out(after, 2)
    assert final.result is not None and final.result.winners == (2,)


def test_at_three_and_four_players_it_opens_only_to_go_out() -> None:
    # Opponents who lay what they can: at 2 players the player opens; at 3 and 4 it keeps
    # drawing, the others building the table it will go out over.
    position = Position.parse(rack="R10 R11 R12 K1 B5", table=[], opened=False)
    for players in (3, 4):
        history = tuple(
            Seen(seat, "draw" if seat == 0 else "play", () if seat == 0 else (Tile("K", 1),))
            for _ in range(2)
            for seat in range(players)
        )
        view = View(
            0,
            (16,) + (12,) * (players - 1),
            (False,) + (True,) * (players - 1),
            40,
            len(history),
            history,
        )
        assert all(hoarding(view, seat) < 0.05 for seat in range(1, players))
        assert not may_open(position, view)
        assert equity(position, view).played == ()
    boxed = Position.parse(rack="R10 R11 R12 K1 B5", table=[], opened=False, rules=PRESETS["boxed"])
    assert may_open(boxed, view)
    # Going out is still taken at once.
    out = Position.parse(rack="R10 R11 R12", table=[], opened=False)
    assert sorted(map(str, equity(out, view).played)) == ["R10", "R11", "R12"]
