"""The equity strategy (game/equity.py): candidates, playouts, the choice."""

from __future__ import annotations

import functools

import pytest

from rummikub.core.errors import RummikubError
from rummikub.tiles.checker import check
from rummikub.tiles.game.engine import GameState, replay
from rummikub.tiles.game.equity import Budget, candidates, evaluate, evaluation
from rummikub.tiles.game.simulate import play_game
from rummikub.tiles.game.strategies import STRATEGIES, best, equity
from rummikub.tiles.game.view import View, view_of
from rummikub.tiles.position import Position
from rummikub.tiles.rules import STANDARD, Rules

SMALL = Budget(samples=3, rounds=1)


@functools.cache
def _states(seed: int) -> tuple[GameState, ...]:
    record, _ = play_game(STANDARD, [best, best], seed)
    return replay(record).states[:-1]


def _some_states() -> list[GameState]:
    return list(_states(1)[4::12])


def test_equity_is_registered() -> None:
    assert STRATEGIES["equity"] is equity


def test_candidates_are_distinct_legal_moves_with_drawing_last() -> None:
    for state in _some_states():
        position, _ = view_of(state)
        found = candidates(position)
        keys = [tuple(sorted(m.played, key=STANDARD.sort_key)) for _, m in found]
        assert len(set(keys)) == len(keys)
        assert found[0][0] == "best"
        for _, move in found:
            if move.played:
                assert check(position, move.table).legal
        if found[0][1].played:
            assert found[-1][0] == "draw" and not found[-1][1].played


def test_every_move_passes_the_checker_and_is_deterministic() -> None:
    for state in _some_states():
        position, view = view_of(state)
        decided = evaluate(position, view, SMALL)
        move = decided.best.move
        if move.played:
            assert check(position, move.table).legal
        assert evaluate(position, view, SMALL) == decided
        wins = [c.win for c in decided.candidates]
        assert wins == sorted(wins, reverse=True)
        for c in decided.candidates:
            assert 0.0 <= c.ci[0] <= c.win <= c.ci[1] <= 1.0
            assert c.samples == SMALL.samples


def test_a_player_who_can_go_out_goes_out() -> None:
    position = Position.parse(rack="R1 R2 R3 K5", table=["K2 K3 K4"], opened=True)
    view = View(0, (4, 9), (True, True), 90, 20)
    decided = evaluate(position, view, SMALL)
    assert decided.best.tiles == 4 and decided.best.win == 1.0


def test_the_evaluation_favours_the_shorter_rack() -> None:
    state = _states(1)[20]
    ahead = state.__class__(**{**_fields(state), "rack_counts": (3, 9)})
    behind = state.__class__(**{**_fields(state), "rack_counts": (9, 3)})
    assert evaluation(ahead, 0) > 0.5 > evaluation(behind, 0)


def _fields(state: GameState) -> dict[str, object]:
    return {name: getattr(state, name) for name in state.__slots__}  # type: ignore[attr-defined]


@pytest.mark.parametrize("samples, rounds", [(0, 1), (1, -1)])
def test_a_budget_needs_work(samples: int, rounds: int) -> None:
    with pytest.raises(RummikubError, match="budget"):
        Budget(samples=samples, rounds=rounds)


def _endgames(rules: Rules, seeds: range) -> list[GameState]:
    """The first state with the pool empty of seeded casual games on ``rules``' box."""
    from rummikub.tiles.game.strategies import casual

    found = []
    for seed in seeds:
        record, _ = play_game(rules, [casual, casual], seed, rack_size=5)
        for state in replay(record).states:
            if state.pool_count == 0 and not state.over:
                found.append(state)
                break
    return found


def test_with_the_pool_empty_equity_plays_the_exact_endgame() -> None:
    from rummikub.tiles.game.endgame import decide
    from rummikub.tiles.game.equity import ENDGAME_BUDGET

    rules = Rules(numbers=6, colors="KRB", copies=1, jokers=0, initial_meld=6)
    states = _endgames(rules, range(12))
    decided = 0
    for state in states:
        position, view = view_of(state)
        verdict = decide(state, nodes=ENDGAME_BUDGET)
        move = equity(position, view)
        if verdict.outcome != "unknown":
            decided += 1
            assert move.played == (verdict.move.played if verdict.move else ())
        if move.played:
            assert check(position, move.table).legal
    assert decided >= 3
