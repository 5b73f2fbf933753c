"""The card rummies' determinized Monte Carlo: the deals, the search, the ``equity``
strategy (rummikub.cards.game.equity)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from rummikub.cards.cards import Card
from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState, pack
from rummikub.cards.game.equity import (
    DISCARDS,
    EDGE,
    SEARCH,
    CardDecision,
    candidates,
    clearly_better,
    discard_candidates,
    equity_draw,
    equity_lay,
    evaluate,
    lay_candidates,
)
from rummikub.cards.game.plugin import CardGame
from rummikub.cards.game.simulate import play_turn
from rummikub.cards.game.strategies import STRATEGIES, best, is_legal, keep, strategy
from rummikub.cards.game.view import determinize, known_cards, unseen, view_of
from rummikub.cards.rules import preset
from rummikub.play.equity import Budget, Outcome

TINY = Budget(samples=2, rounds=1)


def _midgame(game: str, seed: int, turns: int, players: int = 2) -> CardGameState:
    """A state ``turns`` turns into a game of ``best`` players (the hand still running)."""
    state = engine.start(engine.new_game([f"P{s + 1}" for s in range(players)], preset(game), seed))
    for _ in range(turns):
        after, _ = play_turn(state, [best] * players)
        if after.hand_over:
            break
        state = after
    return state


def _every_card(state: CardGameState) -> Counter[Card]:
    cards = Counter(c for hand in state.hands if hand is not None for c in hand)
    cards.update(state.stock or ())
    cards.update(state.pile)
    cards.update(c for meld in state.table for c in meld.cards)
    return cards


@pytest.mark.parametrize(("game", "players"), [("rummy", 2), ("500-rum", 3), ("continental", 3)])
def test_a_deal_holds_the_pack_once_and_keeps_what_the_seat_sees(game: str, players: int) -> None:
    state = _midgame(game, 11, 9, players)
    view = view_of(state)
    for seed in range(3):
        deal = CardGame(state.rules).determinize(view, random.Random(seed))
        assert _every_card(deal) == Counter(pack(state.rules))
        assert deal.counts == state.counts
        assert [len(h or ()) for h in deal.hands] == list(state.counts)
        assert len(deal.stock or ()) == state.stock_count
        assert deal.hands[view.seat] == state.hands[view.seat]
        assert (deal.table, deal.pile, deal.to_move, deal.drawn) == (
            state.table,
            state.pile,
            state.to_move,
            state.drawn,
        )
        assert view_of(deal, view.seat) == view


def test_a_card_taken_from_the_pile_stays_in_its_hand_in_every_deal() -> None:
    state = _midgame("500-rum", 7, 14)
    view = view_of(state)
    known = known_cards(view)
    other = 1 - view.seat
    assert known[view.seat] == Counter() and known[other].total() >= 2
    assert known[other] <= Counter(state.hands[other])  # what is known is true
    for seed in range(4):
        deal = determinize(view, random.Random(seed))
        assert known[other] <= Counter(deal.hands[other])
    hidden = Counter(unseen(view)).total()
    assert hidden + known[other].total() == state.counts[other] + view.stock_count


def _hidden_swapped(state: CardGameState) -> CardGameState:
    """``state`` with the other hands and the stock dealt anew from their own cards: the
    same view for the player to move, other hidden cards."""
    seat = state.to_move
    hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h or ()]
    hidden += state.stock or ()
    random.Random(99).shuffle(hidden)
    hands = list(state.hands)
    for s, count in enumerate(state.counts):
        if s != seat:
            hands[s] = tuple(sorted(hidden[:count], key=lambda c: (c.suit, c.rank)))
            del hidden[:count]
    return replace(state, hands=tuple(hands), stock=tuple(hidden))


@pytest.mark.parametrize(("game", "seed", "turns"), [("rummy", 8, 6), ("continental", 8, 9)])
def test_the_strategy_never_reads_hidden_cards(game: str, seed: int, turns: int) -> None:
    state = _midgame(game, seed, turns)
    other = _hidden_swapped(state)
    assert other.hands != state.hands
    assert view_of(other) == view_of(state)
    assert equity_draw(view_of(state)) == equity_draw(view_of(other))
    drawn = engine.draw(state, "stock")
    drawn_other = engine.draw(replace(other, stock=state.stock), "stock")
    assert equity_lay(view_of(drawn)) == equity_lay(view_of(drawn_other))


def test_the_equity_strategy_is_registered_and_every_turn_is_legal() -> None:
    assert STRATEGIES["equity"] is strategy("equity")
    state = engine.start(engine.new_game(["A", "B"], preset("rummy"), 3))
    players = [strategy("equity"), best]
    for _ in range(10):  # every turn through the engine: a refused turn raises TurnError
        state, _ = play_turn(state, players)
        if state.hand_over:
            break


def test_the_lay_candidates_are_distinct_and_the_best_first() -> None:
    state = engine.draw(_midgame("500-rum", 2, 5), "stock")
    found = lay_candidates(view_of(state))
    assert found[0][0] == "best"
    keys = {(label, lay.discard) for label, lay in found}
    assert len(keys) == len(found)


def test_an_evaluation_is_seeded_by_what_the_seat_sees() -> None:
    view = view_of(_midgame("rummy", 5, 4))
    first = evaluate(view, TINY)
    again = evaluate(view, TINY)
    assert [(o.label, o.win) for o in first] == [(o.label, o.win) for o in again]
    assert {o.label for o in first} == {label for label, _ in candidates(view)}
    assert all(0.0 <= o.win <= 1.0 and o.ci[0] <= o.win <= o.ci[1] for o in first)


def test_going_out_scores_a_certain_win() -> None:
    deal = SEARCH.determinize(view_of(_midgame("rummy", 5, 2)), random.Random(0))
    ended = SEARCH.playout(deal, 50, 0.0, None)
    if ended.hand_over:
        out = ended.results[-1].out
        if out is not None:
            assert SEARCH.scored(ended, out)[0] == 1.0
    decision = CardDecision("stock")
    assert SEARCH.over(SEARCH.apply(deal, decision)) in (True, False)


def test_the_strategy_keeps_keeps_choice_within_the_edge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rummikub.cards.game import equity as card_equity

    before = _midgame("500-rum", 2, 5)
    state = engine.draw(before, "stock")
    monkeypatch.setattr(card_equity, "EDGE", 1e9)
    assert equity_lay(view_of(state)) == keep.lay(view_of(state))
    assert equity_draw(view_of(before)) == keep.draw(view_of(before))


def _outcome(score: float, wins: tuple[float, ...]) -> Outcome[CardDecision]:
    mean = sum(wins) / len(wins)
    return Outcome("x", CardDecision(), wins, mean, (0, 1), (0, 1), 0.0, score, len(wins), 0, False)


def test_a_candidate_leaves_keeps_choice_only_when_clearly_better() -> None:
    prior = _outcome(10.0, (0.5, 0.5, 0.5, 0.5))
    assert clearly_better(_outcome(10.0 + EDGE + 1, (0.6, 0.5, 0.7, 0.5)), prior)
    assert not clearly_better(_outcome(10.0 + EDGE - 1, (0.6, 0.5, 0.7, 0.5)), prior)
    assert not clearly_better(_outcome(10.0 + EDGE + 1, (0.9, 0.9, 0.9, 0.4)), prior)
    assert not clearly_better(_outcome(10.0 + EDGE + 1, (0.5, 0.5, 0.5, 0.5)), prior)


@pytest.mark.parametrize(("game", "seed", "turns"), [("500-rum", 2, 5), ("continental", 4, 7)])
def test_the_discard_candidates_change_only_the_discard(game: str, seed: int, turns: int) -> None:
    state = engine.draw(_midgame(game, seed, turns), "stock")
    view = view_of(state)
    lay = keep.lay(view)
    found = discard_candidates(view, lay)
    assert found[0] == (f"discard {lay.discard}", lay)
    assert 2 <= len(found) <= DISCARDS + 1
    discards = [other.discard for _, other in found]
    assert len(set(discards)) == len(discards)
    position = view.position()
    for _, other in found:
        assert (other.melds, other.layoffs) == (lay.melds, lay.layoffs)
        assert other.discard is not None and not view.rules.is_wild(other.discard)
        assert is_legal(position, "stock", other)
