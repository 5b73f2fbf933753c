"""The card solver: proven optimal against the exhaustive search (which knows no integer
program) on small hands of every preset, and every answer legal by the checker."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings

from rummikub.cards import exhaustive
from rummikub.cards.checker import check
from rummikub.cards.position import CardPosition
from rummikub.cards.puzzles import loads
from rummikub.cards.solver import CardTurn, score, solve, solve_draw
from tests.card_strategies import card_positions


def _verdict_agrees(position: CardPosition, turn: CardTurn) -> None:
    """The checker finds the answer legal and scores it as the solver does."""
    verdict = check(
        position,
        [m.raw() for m in turn.table],
        discard=turn.discard,
        draw=None if turn.draw == "stock" else turn.draw,
    )
    assert verdict.legal, (verdict.errors, [str(m) for m in turn.table])
    assert (verdict.points, verdict.penalty) == (turn.points, turn.penalty)
    assert sorted(map(str, verdict.played)) == sorted(map(str, turn.played))
    assert len(verdict.layoffs) == turn.touched


def _optimal_everywhere(position: CardPosition) -> None:
    rules = position.rules
    result = solve(position, all_picks=True)
    assert result.proven
    # Cutting picks by their LP bound changes nothing in the answer.
    pruned = solve(position)
    assert score(pruned.best, rules) == score(result.best, rules)
    assert pruned.best.draw == result.best.draw
    found = exhaustive.best(position)
    assert score(result.best, rules) == found.score(rules)
    assert (result.best.status == "no_move") == (not found.laid)
    _verdict_agrees(position, result.best)
    for pick in result.picks:
        if pick.status != "infeasible":
            _verdict_agrees(position, pick)
        reference = exhaustive.best_for_draw(position, pick.draw)
        assert (reference is None) == (pick.status == "infeasible")
        if reference is not None:
            assert score(pick, rules) == reference.score(rules)


@settings(max_examples=12)
@given(card_positions(game="rummy"))
def test_rummy_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=12)
@given(card_positions(game="500-rum"))
def test_500_rum_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=12)
@given(card_positions(game="romme"))
def test_romme_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=12)
@given(card_positions(game="continental"))
def test_continental_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=12)
@given(card_positions(game="california"))
def test_california_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=25)
@given(card_positions(max_hand=12, max_table=5))
def test_every_answer_on_larger_hands_is_legal(position: CardPosition) -> None:
    result = solve(position)
    assert result.proven
    _verdict_agrees(position, result.best)


def test_an_unused_deepest_card_makes_a_pick_infeasible() -> None:
    puzzle = loads(
        'game = "500-rum"\nhand = "7S 8S"\ndiscard = ["KH", "2D"]\ndrawn = false', "p.toml"
    )
    assert solve_draw(puzzle.position, 1).status == "infeasible"  # KH fits nowhere
    assert solve_draw(puzzle.position, 0).status == "no_move"


def test_same_answer_every_time() -> None:
    puzzle = loads(
        'game = "continental"\ndeal = 2\nhand = "7S 7H 7D 8S 9S 10S JS QD KD 2C * AH"',
        "p.toml",
    )
    first = solve(puzzle.position).best
    for _ in range(3):
        again = solve(puzzle.position).best
        assert [str(m) for m in again.table] == [str(m) for m in first.table]
        assert again.discard == first.discard


# -- wild_swap = true: a natural card takes the wild card standing for it from a table run --


@settings(max_examples=10)
@given(card_positions(swap=True, max_hand=5))
def test_wild_swap_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=20)
@given(card_positions(swap=True, max_hand=12, max_table=5))
def test_every_answer_with_wild_swap_is_legal(position: CardPosition) -> None:
    result = solve(position)
    assert result.proven
    _verdict_agrees(position, result.best)


def test_the_cp_sat_hand_over_gives_the_same_proven_answers(monkeypatch: Any) -> None:
    """With a branch and bound of no node every program goes to CP-SAT, with each draw's
    settings (card counts, the deepest card's row) and no cases: the same answers."""
    from rummikub.cards import solver

    texts = [
        'game = "500-rum"\nhand = "7S 8S 4C QH"\ndiscard = ["KH", "9S", "2D", "QS", "QD"]\n'
        "drawn = false",
        'game = "romme"\nhand = "8S 9S 10S 4H 4D 4C 2C QH * JH"\ntable = ["JD QD KD"]',
        'game = "continental"\ndeal = 2\nhand = "7S 7H 7D 8S 9S 10S JS QD KD 2C * AH"',
        'game = "romme"\nopened = true\nhand = "6S 9H 10H 2C"\ntable = ["5S * 7S"]\n'
        "[rules]\nwild_swap = true",
    ]
    positions = [loads(text, "p.toml").position for text in texts]
    expected = [solve(p, all_picks=True) for p in positions]
    calls: list[int] = []
    real = solver._solve_cp_sat

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(solver, "NODE_LIMIT", 0)
    monkeypatch.setattr(solver, "_solve_cp_sat", counted)
    for position, before in zip(positions, expected, strict=True):
        after = solve(position, all_picks=True)
        assert after.proven
        rules = position.rules
        assert score(after.best, rules) == score(before.best, rules)
        assert after.best.draw == before.best.draw
        assert [score(t, rules) for t in after.picks] == [score(t, rules) for t in before.picks]
        _verdict_agrees(position, after.best)
    assert calls
