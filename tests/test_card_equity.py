"""The card rummies' determinized Monte Carlo: the deals, the search, the ``equity``
strategy (rummikub.cards.game.equity)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from rummikub.cards.cards import Card, parse_cards, sort_key
from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState, Seen, pack
from rummikub.cards.game.equity import (
    DISCARDS,
    EDGE,
    SEARCH,
    CardDecision,
    candidates,
    clearly_better,
    contract_need,
    deadwood,
    discard_candidates,
    equity_draw,
    equity_lay,
    evaluate,
    lay_candidates,
    net_draw,
    outs,
)
from rummikub.cards.game.plugin import CardGame
from rummikub.cards.game.simulate import play_turn
from rummikub.cards.game.strategies import STRATEGIES, best, is_legal, keep, strategy
from rummikub.cards.game.view import CardView, determinize, known_cards, unseen, view_of
from rummikub.cards.melds import CardMeld, natural_meld
from rummikub.cards.position import Draw
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


@pytest.mark.parametrize(("game", "turns"), [("rummy", 10), ("continental", 60)])
def test_the_equity_strategy_is_registered_and_every_turn_is_legal(game: str, turns: int) -> None:
    assert STRATEGIES["equity"] is strategy("equity")
    state = engine.start(engine.new_game(["A", "B"], preset(game), 3))
    players = [strategy("equity"), best]
    for _ in range(turns):  # every turn through the engine: a refused turn raises TurnError
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

    # California: at 500 Rum and Continental the strategy searches nothing (the tests below).
    before = _midgame("california", 4, 7)
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


# -- 500 Rum: the draw by net points, the discard that goes out soonest --------------------


def _dealt(
    state: CardGameState,
    cards: str,
    pile: str,
    table: tuple[CardMeld, ...],
    known: Sequence[Card],
    *,
    size: int,
    owner: int,
    **more: Any,
) -> CardGameState:
    """``state`` with seat 0 holding ``cards``, the discard pile ``pile`` (bottom to top), the
    table ``table`` laid by seat ``owner``, and seat 1 dealt ``known`` then the pack's other
    cards in order (``size`` in all), the rest the stock; ``more`` sets other fields."""
    mine = tuple(sorted(parse_cards(cards), key=sort_key))
    below = tuple(parse_cards(pile))
    seen = Counter(mine) + Counter(below) + Counter(known)
    seen.update(c for meld in table for c in meld.cards)
    rest = sorted((Counter(pack(state.rules)) - seen).elements(), key=sort_key)
    dealt = size - len(known)
    return replace(
        state,
        hands=(mine, tuple(sorted((*known, *rest[:dealt]), key=sort_key))),
        counts=(len(mine), size),
        table=table,
        owners=tuple(tuple(owner for _ in meld.cards) for meld in table),
        pile=below,
        dead=0,
        stock=tuple(rest[dealt:]),
        stock_count=len(rest) - dealt,
        **more,
    )


def _position(
    hand: str,
    pile: str,
    *,
    drawn: Draw | None = None,
    laid: bool = False,
    run: str = "",
    kept: str = "",
) -> CardView:
    """A 2-player 500 Rum position of seat 0, to move: ``hand`` and the discard pile
    ``pile`` (bottom to top) as given; ``laid``: seat 0 has laid this hand; ``run``: a run
    seat 1 laid taking its top card and the cards ``kept`` above it from the pile (so it is
    known to hold them); the other cards dealt in pack order to seat 1 (13 cards in all)
    and the stock."""
    state = engine.start(engine.new_game(["A", "B"], preset("500-rum"), 5))
    table = (natural_meld(tuple(parse_cards(run)), "run", state.rules),) if run else ()
    known = parse_cards(kept)
    history = (Seen(1, len(known), (table[0].cards[-1], *known), table),) if table else ()
    state = _dealt(
        state,
        hand,
        pile,
        table,
        known,
        size=13,
        owner=1,
        has_laid=(laid, bool(table)),
        history=history,
        drawn=drawn,
    )
    assert state.to_move == 0
    return view_of(state)


def test_deadwood_counts_the_cards_no_meld_holds() -> None:
    rules = preset("500-rum")
    assert deadwood(parse_cards("7S 8S 9S QH QD QC 2D 3D 4D KC"), (), rules) == 1
    assert deadwood(parse_cards("5H 5D 5C 5S 6H 7H"), (), rules) == 0  # a set and a run
    assert deadwood(parse_cards("QS KS AS 2H"), (), rules) == 1  # the ace high
    assert deadwood(parse_cards("2S 9C JD 6C 5H"), (), rules) == 5
    run = natural_meld(tuple(parse_cards("4H 5H 6H")), "run", rules)
    # 7H goes on the table's run, and 8H after it.
    assert deadwood(parse_cards("7H 8H KC"), (run,), rules) == 1


def test_outs_count_only_the_live_cards() -> None:
    rules = preset("500-rum")
    hand = parse_cards("AS 2S 3S 8H 9H KC")
    live = Counter(parse_cards("7H 10H 4S QC"))
    # Deadwood 8H 9H KC. 7H or 10H makes a run of 8H 9H, and KC goes: 3 saved each; 4S
    # joins AS 2S 3S and KC goes: 1; QC makes no meld with KC alone: 0.
    assert outs(hand, (), rules, live) == 7
    assert outs(hand, (), rules, live - Counter(parse_cards("7H 10H"))) == 1


def test_the_500_rum_draw_leaves_a_pick_that_costs_more_than_it_lays() -> None:
    # Digging to 9S lays 7S 8S 9S (24 points) but takes five high cards to the hand.
    view = _position("7S 8S 2H 4H 6D 9D JC 3C 5C", "9S KH QD KC JH AD")
    assert keep.draw(view) == 5
    assert net_draw(view) == equity_draw(view) == "stock"
    # The top discard lays the same run at no cost: taken.
    view = _position("7S 8S 2H 4H 6D 9D JC 3C 5C", "KH 9S")
    assert equity_draw(view) == 0


def test_the_500_rum_discard_keeps_the_live_cards() -> None:
    hand = "AS 2S 3S 4D 5D 6D 9C 10C JC KH KC 8H 9H 2H"
    # With 7H and 10H gone to the pile, 8H 9H wait for nothing: one of them goes, where
    # keep throws its costliest card.
    dead = _position(hand, "7H 10H", drawn="stock")
    assert keep.lay(dead).discard == Card(13, "H")
    assert equity_lay(dead).discard in parse_cards("8H 9H")
    assert equity_lay(_position(hand, "7C 10D", drawn="stock")).discard == Card(2, "H")


def test_the_500_rum_discard_feeds_no_meld_the_opponent_is_known_to_hold() -> None:
    # Seat 1 took 5S QD QC from the pile and laid 3S 4S 5S: it holds QD QC. QH and 5D are
    # the deadwood; keep throws the costlier QH, which makes seat 1 a set.
    hand = "6H 7H 8H 9D 10D JD KS KH KC 2C 3C 4C QH 5D"
    view = _position(hand, "", drawn="stock", run="3S 4S 5S", kept="QD QC")
    assert known_cards(view)[1] == Counter(parse_cards("QD QC"))
    assert keep.lay(view).discard == Card(12, "H")
    assert equity_lay(view).discard == Card(5, "D")


def test_the_500_rum_strategy_lays_its_melds_once_it_has_laid() -> None:
    hand = "7S 8S 9S 2H 5D 9C KC JH"
    view = _position(hand, "4C", drawn="stock")
    assert equity_lay(view).melds == keep.lay(view).melds == ()
    laid = _position(hand, "4C", drawn="stock", laid=True)
    assert [m.cards for m in equity_lay(laid).melds] == [tuple(parse_cards("7S 8S 9S"))]


# -- Continental: the contract, then the race to go out ------------------------------------


def _continental(
    hand: str,
    pile: str,
    *,
    deal: int = 1,
    drawn: Draw | None = None,
    down: tuple[str, ...] = (),
    kept: str = "",
) -> CardView:
    """A 2-player Continental position of seat 0, to move in ``deal``: ``hand`` and the
    discard pile ``pile`` (bottom to top) as given; ``down``: the sets seat 0 went down
    with; ``kept``: cards seat 1 took from the pile (so it is known to hold them); the other
    cards dealt in pack order to seat 1 (12 cards in all) and the stock."""
    state = engine.start(engine.new_game(["A", "B"], preset("continental"), 5))
    rules = state.rules
    table = tuple(natural_meld(tuple(parse_cards(meld)), "set", rules) for meld in down)
    known = parse_cards(kept)
    history = (Seen(1, 0, tuple(known)),) if known else ()
    state = _dealt(
        state,
        hand,
        pile,
        table,
        known,
        size=12,
        owner=0,
        hand=deal - 1,
        opened=(bool(table), False),
        history=history,
        drawn=drawn,
    )
    assert state.to_move == 0 and state.deal_number == deal
    return view_of(state)


def test_the_contract_need_counts_the_cards_missing_and_the_cards_that_bring_it() -> None:
    rules = preset("continental")

    def need(hand: str, deal: int) -> tuple[int, list[str]]:
        count, outs = contract_need(parse_cards(hand), rules, deal)
        return count, sorted(str(c) for c in outs)

    # Deal 1, two sets: a seven and a nine lack.
    assert need("7S 7H 2C 9D 9S KD QH 3S 4S", 1) == (
        2,
        ["7C", "7D", "7H", "7S", "9C", "9D", "9H", "9S"],
    )
    # Deal 3, two runs: the joker fills 5H 6H * 8H; the clubs lack an ace or a five, the
    # spades a ten or an ace high (two ways to the same count).
    assert need("5H 6H 8H 2C 3C 4C JS QS KS * 9D 9C", 3) == (1, ["10S", "5C", "7H", "AC", "AS"])
    # Deal 7, three runs: the wild red ace completes one of the hearts or the diamonds.
    assert need("AH 2S 3S 4S 5S 9H 10H JH 3D 4D 5D KC", 7) == (1, ["2D", "6D", "8H", "QH"])
    # Deal 5, two sets and a run: a nine, and a five of spades (or an ace low).
    assert need("7S 7H 7D 9C 9D 2S 3S 4S 6S KD QD JH", 5) == (
        2,
        ["5S", "9C", "9D", "9H", "9S", "AS"],
    )


def test_the_continental_draw_takes_the_top_discard_only_for_the_contract() -> None:
    hand = "7S 7H 9D 9S KD 2C 3C 5H JS QH 4D 8C"
    # 4C makes a run with 2C 3C, which keep takes; deal 1 asks for two sets.
    assert keep.draw(_continental(hand, "4C")) == 0
    assert equity_draw(_continental(hand, "4C")) == "stock"
    assert equity_draw(_continental(hand, "7D")) == 0


def test_the_continental_draw_once_down_takes_a_card_that_lays_off() -> None:
    down = ("7S 7H 7D", "9D 9S 9C")
    # Down, no new meld may be laid: 4C (a run with 2C 3C) is of no use, 7C goes on a set.
    assert keep.draw(_continental("KD 2C 3C 5H", "4C", down=down)) == 0
    assert equity_draw(_continental("KD 2C 3C 5H", "4C", down=down)) == "stock"
    assert keep.draw(_continental("KD 2C 3C 5H", "7C", down=down)) == "stock"
    assert equity_draw(_continental("KD 2C 3C 5H", "7C", down=down)) == 0


def test_the_continental_discard_keeps_the_contract_and_throws_the_costliest() -> None:
    # Deal 1: 7S 7H 7D and a pair of nines or of jacks. keep keeps KD QD (they make a run,
    # which deal 1 does not ask for) and throws 4S; the costliest card of no use goes.
    view = _continental("7S 7H 7D 9S 9H KD QD 4S 2C 3C JH JC 5D", "", drawn="stock")
    assert keep.lay(view).discard == Card(4, "S")
    discard = equity_lay(view).discard
    assert discard in parse_cards("KD QD")


def test_the_continental_discard_feeds_no_opponent() -> None:
    hand = "7S 7H 7D 9S 9H KH 4S 2C 3C JH JC 5D 8S"
    assert equity_lay(_continental(hand, "", drawn="stock")).discard == Card(13, "H")
    # Seat 1 took KC from the pile: KH would bring it a set.
    fed = _continental(hand, "", drawn="stock", kept="KC")
    assert known_cards(fed)[1] == Counter(parse_cards("KC"))
    discard = equity_lay(fed).discard
    assert discard is not None and discard.rank != 13 and discard.rank not in (7, 9, 11)
