"""The card solver: proven optimal against the exhaustive search (which knows no integer
program) on small hands of every preset, and every answer legal by the checker."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings

from rummikub.cards import exhaustive
from rummikub.cards.cards import JOKER, Card, parse_cards
from rummikub.cards.checker import check
from rummikub.cards.position import CardPosition
from rummikub.cards.puzzles import loads
from rummikub.cards.rules import GAMES, preset
from rummikub.cards.solver import CardTurn, score, solve, solve_draw
from tests.card_strategies import card_positions
from tests.strategies import examples


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


@settings(max_examples=examples(12))
@given(card_positions(game="rummy"))
def test_rummy_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=examples(12))
@given(card_positions(game="500-rum"))
def test_500_rum_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=examples(12))
@given(card_positions(game="romme"))
def test_romme_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=examples(12))
@given(card_positions(game="continental"))
def test_continental_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=examples(12))
@given(card_positions(game="california"))
def test_california_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=examples(25))
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


@settings(max_examples=examples(10))
@given(card_positions(swap=True, max_hand=5))
def test_wild_swap_optimal_and_legal(position: CardPosition) -> None:
    _optimal_everywhere(position)


@settings(max_examples=examples(20))
@given(card_positions(swap=True, max_hand=12, max_table=5))
def test_every_answer_with_wild_swap_is_legal(position: CardPosition) -> None:
    result = solve(position)
    assert result.proven
    _verdict_agrees(position, result.best)


def test_the_cp_sat_hand_over_gives_the_same_proven_answers(monkeypatch: Any) -> None:
    """With a branch and bound of no node every program goes to CP-SAT, with each draw's
    settings (card counts, the deepest card's row) and no cases: the same answers."""
    from rummikub.cards.solver import model
    from rummikub.core.lp import exact

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
    real = exact.cp_sat

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(model, "NODE_LIMIT", 0)
    monkeypatch.setattr(exact, "cp_sat", counted)
    for position, before in zip(positions, expected, strict=True):
        after = solve(position, all_picks=True)
        assert after.proven
        rules = position.rules
        assert score(after.best, rules) == score(before.best, rules)
        assert after.best.draw == before.best.draw
        assert [score(t, rules) for t in after.picks] == [score(t, rules) for t in before.picks]
        _verdict_agrees(position, after.best)
    assert calls


# -- wild cards laid off onto a table set (issue 15: a set with no maximum took no more
# -- cards than the hand had *kinds* of card, so AS AH * * went out over a discard) --


def test_every_card_of_the_hand_goes_onto_a_set_without_maximum() -> None:
    """The property test's find: laying AS AH * * on AS AH AD goes out with 140 points; the
    solver had laid three cards (the hand's three kinds) and discarded AH, for 120."""
    puzzle = loads(
        'game = "california"\nopened = true\ndeal = 1\nhand = "AS AH * *"\ntable = ["AS AH AD"]',
        "p.toml",
    )
    result = solve(puzzle.position, all_picks=True)
    assert (result.best.points, result.best.penalty, result.best.discard) == (140, 0, None)
    assert result.best.layoffs == {0: tuple(parse_cards("AS AH * *"))}
    _optimal_everywhere(puzzle.position)


def _set_layoff_positions() -> list[str]:
    """Small positions of every preset with wild cards: a table set, a hand of that set's
    rank (none to two cards, as the pack allows) with one to three wild cards, alone, with a
    card that fits nowhere, or with a wild card to take from the pile."""
    texts: list[str] = []
    for game in GAMES:
        rules = preset(game)
        if not rules.jokers:
            continue  # no wild card to lay off
        opening = "opened = true\n" + ("deal = 1\n" if rules.opening == "contract" else "")
        tables = ["7S 7H 7D", "AS AH AD"] + (["set: * * *"] if rules.wild_sets else [])
        for table in tables:
            on_table = Counter(parse_cards(table.removeprefix("set: ")))
            rank = next((c.rank for c in on_table if not c.is_joker), 7)
            spare = [
                c
                for c in (Card(rank, s) for s in "SHDC")
                for _ in range(rules.copies(c) - on_table[c])
            ]
            jokers = rules.jokers - on_table[JOKER]
            for naturals, wilds, extra in itertools.product(
                range(3), range(1, min(jokers, 3) + 1), ("", "KC", "pile")
            ):
                if naturals > len(spare) or wilds + (extra == "pile") > jokers:
                    continue
                hand = [*map(str, spare[:naturals]), *["*"] * wilds]
                text = f'game = "{game}"\n{opening}table = ["{table}"]\n'
                if extra == "pile":
                    text += f'hand = "{" ".join(hand)}"\ndiscard = ["KC", "*"]\ndrawn = false\n'
                else:
                    text += f'hand = "{" ".join([*hand, extra]).strip()}"\n'
                texts.append(text)
    return texts


@pytest.mark.parametrize("text", _set_layoff_positions())
def test_wild_cards_laid_off_onto_a_table_set(text: str) -> None:
    _optimal_everywhere(loads(text, "p.toml").position)
