"""Whole card games (CARDS.md section 7): one game per preset, dealt and played by hand and
scored by hand here; the deal, the stock running out, "May I?", a real table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest

from rummikub.cards import parse_cards, preset, with_options
from rummikub.cards.cards import Card, sort_key
from rummikub.cards.game import engine, record
from rummikub.cards.game.engine import CardGameState, TurnError
from rummikub.cards.game.record import CardRecord, Deal, Hand, Layoff, Turn
from rummikub.cards.game.view import view_of
from rummikub.cards.melds import RawCardMeld
from rummikub.cards.rules import CardRules, hand_size_of, pack_for


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(text), key=sort_key))


def full_deal(rules: CardRules, hands: Sequence[str], up: str, stock_top: str) -> Deal:
    """A deal written by hand: the hands, the card turned up and the stock's first cards;
    the rest of the stock is the rest of the pack in its fixed order."""
    dealt = [cards(text) for text in hands]
    used = Counter(c for hand in dealt for c in hand)
    up_card = parse_cards(up)[0]
    top = parse_cards(stock_top)
    used.update([up_card, *top])
    rest = []
    for card in engine.pack(rules):
        if used[card]:
            used[card] -= 1
        else:
            rest.append(card)
    assert not +used, f"more cards than the pack holds: {+used}"
    return Deal(tuple(dealt), up_card, (*top, *rest))


def melds(*texts: str) -> tuple[RawCardMeld, ...]:
    return tuple(RawCardMeld.parse(text) for text in texts)


def turn(
    draw: str | int = "stock",
    *laid: str,
    discard: str | None = None,
    layoffs: Sequence[tuple[int, str]] = (),
    claim: int | None = None,
) -> Turn:
    return Turn(
        draw=draw if draw == "stock" else int(draw),
        melds=melds(*laid),
        layoffs=tuple(Layoff(i, RawCardMeld.parse(t)) for i, t in layoffs),
        discard=None if discard is None else parse_cards(discard)[0],
        claim=claim,
    )


def played(rules: CardRules, hands: Sequence[tuple[Deal, Sequence[Turn]]]) -> CardGameState:
    """Replay a game written by hand, checking that the record reads back the same."""
    game = CardRecord(
        rules, ("Ann", "Bob"), tuple(Hand(deal, tuple(turns)) for deal, turns in hands)
    )
    result = engine.replay(game)
    assert result.problem is None, result.problem
    again = record.loads(record.dumps(game))
    assert again == game
    return result.state


# -- one game per preset, scored by hand ------------------------------------------------------


def test_rummy_two_hands_to_the_target() -> None:
    rules = with_options(preset("rummy"), {"hand_size": 4, "target": 25})
    first = full_deal(rules, ["7S 8S 9S KH", "2C 3C 5H 9D"], "4C", "QS 10S")
    second = full_deal(rules, ["5S 6S 7S JD", "KS KH KD KC"], "2D", "QH")
    state = played(
        rules,
        [
            (
                first,
                [
                    turn("stock", "7S 8S 9S", discard="KH"),  # Ann holds QS
                    turn(0, discard="9D"),  # Bob takes KH, holds 2C 3C 5H KH
                    turn("stock", layoffs=[(0, "7S 8S 9S 10S")], discard="QS"),  # Ann out
                ],
            ),
            # The lead passes to Bob, who goes out at once.
            (second, [turn("stock", "KS KH KD KC", discard="QH")]),
        ],
    )
    # Hand 1: Ann went out and scores Bob's hand, 2 + 3 + 5 + 10; hand 2: Bob scores Ann's,
    # 5 + 6 + 7 + 10 = 28, reaching the target of 25: the highest total wins.
    assert [r.scores for r in state.results] == [(20, 0), (0, 28)]
    assert [r.out for r in state.results] == [0, 1]
    assert state.result is not None
    assert state.result.totals == (20, 28)
    assert state.result.winners == (1,)


def test_500_rum_laid_less_held_a_rummy_doubles_and_the_settlement() -> None:
    rules = with_options(preset("500-rum"), {"hand_size": 4, "target": 100})
    first = full_deal(rules, ["7S 8S 9S KH", "2C 3C 5H 9D"], "4C", "QS 10S")
    second = full_deal(rules, ["JH QH KH *", "2C 5D 8H KC"], "9C", "3H AH")
    state = played(
        rules,
        [
            (
                first,
                [
                    turn("stock", "7S 8S 9S", discard="KH"),  # 24 laid
                    # Bob takes 4C and KH (depth 1) and must lay 4C: 2 + 3 + 4 laid.
                    turn(1, "2C 3C 4C", discard="9D"),
                    turn("stock", layoffs=[(0, "7S 8S 9S 10S")], discard="QS"),  # 10 more, out
                ],
            ),
            (
                second,
                [
                    turn("stock", discard="KC"),  # Bob draws 3H, keeps 2C 5D 8H 3H
                    # Ann goes out in one turn, having laid nothing before: a rummy. The joker
                    # stands for 10H: 15 + 10 + 10 + 10 + 15 (the ace high) = 60, doubled.
                    turn("stock", "* JH QH KH AH"),
                ],
            ),
        ],
    )
    hand_1, hand_2 = state.results
    # Hand 1: Ann laid 34 and holds nothing; Bob laid 9 and holds 5H KH (5 + 10).
    assert hand_1.scores == (34, -6)
    assert not hand_1.rummy
    # Hand 2: Ann 2 x 60; Bob laid nothing and holds 2 + 5 + 8 + 3.
    assert hand_2.rummy
    assert hand_2.scores == (120, -18)
    assert state.result is not None
    assert state.result.totals == (154, -24)
    assert state.result.winners == (0,)
    # Bob pays Ann the difference of their totals.
    assert state.result.settlement == (178.0, -178.0)


def test_romme_winner_scores_zero_the_others_their_hand_lowest_wins() -> None:
    rules = with_options(preset("romme"), {"hand_size": 5, "target": 50})
    first = full_deal(rules, ["AS AH AD KC QC", "3D 4D 5D 9S KD"], "2H", "JC")
    second = full_deal(rules, ["7H 8H 9H 10H *", "2S 5C 8D JH QS"], "3C", "KD JH")
    state = played(
        rules,
        [
            # Ann opens with 33 + 30 = 63 (over 40) and lays every card: out, no discard.
            (first, [turn("stock", "AS AH AD", "JC QC KC")]),
            (
                second,
                [
                    turn("stock", discard="KD"),  # Bob draws KD and throws it
                    # Ann: 7 + 8 + 9 + 10 + 10 + the joker as QH (10) = 54: opens and goes out.
                    turn("stock", "7H 8H 9H 10H JH *"),
                ],
            ),
        ],
    )
    # Bob's hands: 3 + 4 + 5 + 9 + 10 = 31, then 2 + 5 + 8 + 10 + 10 = 35: 66 reaches 50.
    assert [r.scores for r in state.results] == [(0, 31), (0, 35)]
    assert state.result is not None
    assert state.result.totals == (0, 66)
    assert state.result.winners == (0,)
    assert state.result.settlement is None


#: Continental's seven deals: the leader's twelve cards (the contract of the deal), the
#: other hand, the card turned up, the stock's first cards (the leader draws the first and
#: throws it). The lead alternates: Ann leads deals 1, 3, 5, 7.
LOSER = "2S 3S 4S 5S 6S 7S 8S 9S 2H 3H"  # ten cards of 5 points
SEVEN_DEALS = [
    (("KS KS KH KH KD KC", "QS QS QH QH QD QC"), LOSER + " 4H 5H", "7C", "10C KD"),
    (("3D 4D 5D 6D 7D 8D 9D", "JS JH JD JC JS"), LOSER + " 4H *", "7C", "10C"),
    (("2C 3C 4C 5C 6C 7C", "8H 9H 10H JH QH KH"), LOSER + " 4H AH", "7C", "10S"),
    (("4S 4H 4D 4C", "6S 6H 6D 6C", "9S 9H 9D 9C"), LOSER + " 5H AS", "7C", "10C"),
    (("5S 5H 5D", "8S 8H 8D", "9C 10C JC QC KC AC"), LOSER + " 4H KD", "7C", "10D"),
    (("2S 3S 4S 5S", "6H 7H 8H 9H", "10D 10C 10S 10H"), LOSER + " 4H 5H", "7C", "KC"),
    (("2H 3H 4H 5H", "7S 8S 9S 10S", "9D 10D JD QD"), LOSER + " 6H 7H", "7C", "KC"),
]


def seven_deals(rules: CardRules) -> list[tuple[Deal, list[Turn]]]:
    hands = []
    for number, (contract, other, up, top) in enumerate(SEVEN_DEALS):
        leader = " ".join(contract)
        dealt = [leader, other] if number % 2 == 0 else [other, leader]
        deal = full_deal(rules, dealt, up, top)
        drawn = top.split()[0]
        if number == 0:
            # Ann goes to the stock rather than take 7C; Bob says "May I?" first: he takes
            # 7C and 10C, the stock's top card, as the penalty. Then Ann draws KD, goes
            # down and out.
            turns = [turn("stock", *contract, discard=top.split()[1], claim=1)]
        else:
            turns = [turn("stock", *contract, discard=drawn)]
        hands.append((deal, turns))
    return hands


def test_continental_seven_deals_with_a_may_i_claim() -> None:
    rules = with_options(preset("continental"), {"hand_size": 12})
    state = played(rules, seven_deals(rules))
    # The others' penalties (2-9: 5, 10-K: 10, A: 20, a red ace 30, a joker 50):
    #   deal 1 Bob: 12 cards of 5 + 7C (5) and 10C (10) from the claim = 75
    #   deal 2 Ann: 11 of 5 + the joker = 105;  deal 3 Bob: 11 of 5 + AH (30) = 85
    #   deal 4 Ann: 11 of 5 + AS (20) = 75;     deal 5 Bob: 11 of 5 + KD = 65
    #   deal 6 Ann: 60;                         deal 7 Bob: 60
    scores = [r.scores for r in state.results]
    assert scores == [(0, 75), (105, 0), (0, 85), (75, 0), (0, 65), (60, 0), (0, 60)]
    assert state.result is not None
    assert state.result.totals == (240, 285)
    assert state.result.winners == (0,)


def test_california_follows_continental_without_wild_aces() -> None:
    rules = with_options(preset("california"), {"hand_size": 12})
    state = played(rules, seven_deals(rules))
    # As Continental's, but AH in deal 3 is a natural ace: 20, not 30.
    scores = [r.scores for r in state.results]
    assert scores == [(0, 75), (105, 0), (0, 75), (75, 0), (0, 65), (60, 0), (0, 60)]
    assert state.result is not None
    assert state.result.totals == (240, 275)
    assert state.result.winners == (0,)


def test_equal_winning_totals_share_the_win() -> None:
    rules = with_options(preset("romme"), {"hand_size": 5, "target": 30})
    deal = full_deal(rules, ["AS AH AD KC QC", "3D 4D 5D 9S KD"], "2H", "JC")
    state = played(rules, [(deal, [turn("stock", "AS AH AD", "JC QC KC")])])
    assert state.result is not None and state.result.winners == (0,)
    tied = engine._maybe_over(
        replace(state, results=(replace(state.results[0], totals=(31, 31)),), result=None)
    )
    assert tied.result is not None and tied.result.winners == (0, 1)


# -- the deal -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players", "size", "decks", "jokers"),
    [
        ("rummy", 2, 10, 1, 0),
        ("rummy", 4, 7, 1, 0),
        ("rummy", 6, 6, 1, 0),
        ("500-rum", 2, 13, 1, 2),
        ("500-rum", 3, 7, 1, 2),
        ("500-rum", 5, 6, 1, 2),
        ("romme", 4, 13, 2, 6),
        ("continental", 4, 12, 2, 4),
        ("continental", 5, 12, 3, 6),
        ("continental", 8, 12, 4, 8),
        ("california", 6, 12, 3, 6),
    ],
)
def test_the_deal_by_preset_and_players(
    game: str, players: int, size: int, decks: int, jokers: int
) -> None:
    rules = pack_for(preset(game), players)
    assert (hand_size_of(rules, players), rules.decks, rules.jokers) == (size, decks, jokers)
    names = [f"P{i}" for i in range(players)]
    state = engine.start(engine.new_game(names, preset(game), seed=7))
    assert state.counts == (size,) * players
    assert len(state.pile) == 1
    assert state.stock_count == 52 * decks + jokers - players * size - 1
    every = Counter(c for h in state.hands for c in h or ())
    every += Counter([*state.pile, *(state.stock or ())])
    assert every == Counter(engine.pack(rules))


def test_the_same_seed_deals_the_same_hands_and_the_next_hand_differs() -> None:
    one = engine.deal_hand(preset("500-rum"), 2, 3, 0)
    assert one == engine.deal_hand(preset("500-rum"), 2, 3, 0)
    assert one != engine.deal_hand(preset("500-rum"), 2, 3, 1)
    assert one != engine.deal_hand(preset("500-rum"), 2, 4, 0)


def test_too_many_players_and_bad_arguments() -> None:
    with pytest.raises(engine.RummikubError, match="rummy seats 2-6"):
        engine.new_game([f"P{i}" for i in range(7)], preset("rummy"), 1)
    with pytest.raises(TypeError, match="seed must be a whole number"):
        engine.new_game(["A", "B"], preset("rummy"), "1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="CardRules"):
        engine.new_game(["A", "B"], "rummy", 1)  # type: ignore[arg-type]
    big = with_options(preset("rummy"), {"hand_size": 30})
    with pytest.raises(engine.RummikubError, match="the rummy pack holds 52"):
        engine.new_game(["A", "B"], big, 1)


# -- turns the engine refuses, and the stock running out ----------------------------------------


def _first(rules: CardRules) -> CardGameState:
    return engine.start(
        CardRecord(
            rules,
            ("Ann", "Bob"),
            (Hand(full_deal(rules, ["7S 8S 9S KH", "2C 3C 5H 9D"], "4C", "QS 10S")),),
        )
    )


def test_a_turn_the_checker_refuses_names_the_hand_turn_player_and_reason() -> None:
    rules = with_options(preset("rummy"), {"hand_size": 4, "target": 25})
    state = _first(rules)
    with pytest.raises(TurnError) as error:
        engine.advance(state, turn("stock", "7S 8S 9S", discard="AD"))
    assert str(error.value) == "hand 1, turn 1 (Ann): the discard AD is not in your hand"
    with pytest.raises(TurnError, match="takes only the top card"):
        engine.advance(replace(state, pile=parse_cards("2D 4C")), turn(1, discard="KH"))
    with pytest.raises(TurnError, match="no depth 3"):
        engine.advance(state, turn(3, discard="KH"))
    with pytest.raises(TurnError, match="the stock's next card is QS"):
        engine.advance(state, replace(turn("stock", discard="KH"), card=parse_cards("2D")[0]))
    with pytest.raises(TurnError, match='plays without "May I\\?"'):
        engine.advance(state, turn("stock", discard="KH", claim=1))


def test_may_i_needs_a_stock_draw_and_leaves_the_cards_below_dead() -> None:
    rules = with_options(preset("continental"), {"hand_size": 12})
    deals = seven_deals(rules)
    state = engine.start(CardRecord(rules, ("Ann", "Bob"), (Hand(deals[0][0]),)))
    with pytest.raises(TurnError, match="a claim comes when the player to move draws from the"):
        engine.advance(state, replace(deals[0][1][0], draw=0, claim=1))
    with pytest.raises(TurnError, match="it is not another player"):
        engine.advance(state, replace(deals[0][1][0], claim=0))
    assert engine.claimants(state) == (1,)
    claimed = engine.claim(state, 1)
    assert claimed.counts == (12, 14)
    assert claimed.pile == () and claimed.dead == 0
    assert engine.claimants(claimed) == ()
    # The claimant's view shows the claimed card and the penalty card; the others unseen.
    view = view_of(claimed, 1)
    assert Counter(view.hand) - Counter(state.hands[1] or ()) == Counter(parse_cards("7C 10C"))
    assert view.counts == (12, 14) and view.stock_count == state.stock_count - 1
    # Then the player to move draws the stock's next card, from the stock only.
    with pytest.raises(TurnError, match="holds 0 card"):
        engine.draw(claimed, 0)
    drawn = engine.draw(claimed, "stock")
    assert Counter(drawn.hands[0] or ()) - Counter(state.hands[0] or ()) == Counter(
        parse_cards("KD")
    )


def test_may_i_comes_before_the_draw_and_needs_two_stock_cards() -> None:
    """CARDS.md section 7: the claimant takes the discard and the stock's top card first,
    then the interrupted player draws; with one card left it goes to the player to move."""
    rules = with_options(preset("continental"), {"hand_size": 12})
    deal, turns = seven_deals(rules)[0]
    state = engine.start(CardRecord(rules, ("Ann", "Bob"), (Hand(deal),)))
    drawn = engine.draw(state, "stock")
    assert engine.claimants(drawn) == ()
    with pytest.raises(TurnError, match="a claim comes before the player to move draws"):
        engine.claim(drawn, 1)
    assert state.stock is not None
    short = replace(state, stock=state.stock[:1], stock_count=1)
    assert engine.claimants(short) == ()
    with pytest.raises(TurnError, match="a claim needs the penalty card and the card of the"):
        engine.claim(short, 1)
    # An empty stock is turned over first, as for the mover's draw: then the claim is made.
    empty = replace(state, stock=(), stock_count=0, pile=parse_cards("2D 3D 4D 7C"))
    assert engine.claimants(empty) == (1,)
    over = engine.claim(empty, 1)
    assert over.turned == 1 and over.stock == parse_cards("3D 4D") and over.pile == ()
    mover = engine.draw(over, "stock").hands[0] or ()
    assert Counter(mover) - Counter(state.hands[0] or ()) == Counter(parse_cards("3D"))
    # The turn as recorded, claim first: the penalty card is the stock's top (10C).
    after = engine.advance(state, replace(turns[0], penalty=parse_cards("10C")[0]))
    assert after.hand_over and after.results[-1].out == 0
    with pytest.raises(TurnError, match="the stock's next card is 10C"):
        engine.advance(state, replace(turns[0], penalty=parse_cards("KD")[0]))


def test_an_older_record_s_claim_replays_with_the_mover_drawing_first() -> None:
    """A claim written before the rules' order was followed (no ``claim_first``): Ann drew
    10C and threw it, Bob claimed 7C with KD, the stock's next card, as the penalty."""
    rules = with_options(preset("continental"), {"hand_size": 12})
    deal, turns = seven_deals(rules)[0]
    old = replace(turns[0], discard=parse_cards("10C")[0], claim_first=False)
    game = CardRecord(rules, ("Ann", "Bob"), (Hand(deal, (old,)),))
    text = record.dumps(game)
    assert "may_i = 1" in text and "claim_first" not in text
    again = record.loads(text)
    assert again == game and again.hands[0].turns[0].claim_first is False
    result = engine.replay(again)
    assert result.problem is None
    bob = result.state.hands[1] or ()
    assert Counter(bob) - Counter(deal.hands[1] or ()) == Counter(parse_cards("7C KD"))
    # The same turn in the rules' order is another turn: Ann would draw KD, not 10C.
    assert "10C is not in your hand" in (
        engine.replay(game.with_hands((Hand(deal, (replace(old, claim_first=True),)),))).problem
        or ""
    )
    # A claim made now is written with claim_first = true, and reads back so.
    new = record.dumps(game.with_hands((Hand(deal, (turns[0],)),)))
    assert "claim_first = true" in new
    assert record.loads(new).hands[0].turns[0].claim_first is True


def test_claim_first_is_read_only_with_a_claim() -> None:
    base = 'format = "rummikub-cards-game/1"\ngame = "continental"\nplayers = ["A", "B"]\n'
    base += '[[hands]]\ndealt = ["?", "?"]\nup = "7C"\n[[hands.turns]]\n'
    loaded = record.loads(base + "claim_first = true\n")
    assert loaded.problem is not None and "only a" in loaded.problem
    loaded = record.loads(base + 'claim_first = "yes"\nmay_i = 1\n')
    assert loaded.problem is not None and "expected true or false" in loaded.problem


def test_the_stock_turned_over_in_order_then_the_hand_ends() -> None:
    rules = with_options(preset("rummy"), {"hand_size": 4, "target": 25})
    state = _first(rules)
    empty = replace(state, stock=(), stock_count=0, pile=parse_cards("2D 3D 4D"))
    after = engine.draw(empty, "stock")
    # The pile but its top, face down: its bottom card is the new stock's first.
    assert after.pile == parse_cards("4D")
    assert after.stock == parse_cards("3D")
    assert parse_cards("2D")[0] in (after.hands[0] or ())
    # Nothing to turn over: the hand ends with nobody out; rummy scores nothing then.
    ended = engine.draw(replace(empty, pile=parse_cards("4D")), "stock")
    assert ended.hand_over and ended.results[-1].out is None
    assert ended.results[-1].scores == (0, 0)
    # After stock_turns turn-overs the next empty stock ends the hand.
    worn = engine.draw(replace(empty, turned=rules.stock_turns), "stock")
    assert worn.hand_over and worn.results[-1].out is None
    assert not engine.draw(replace(empty, turned=rules.stock_turns - 1), "stock").hand_over
    # stock_out = "end": the hand ends at once, though the pile holds cards.
    ending = with_options(rules, {"stock_out": "end"})
    stop = engine.draw(replace(empty, rules=ending), "stock")
    assert stop.hand_over and stop.results[-1].out is None
    # Rommé with nobody out: every player pays the hand.
    romme = with_options(preset("romme"), {"hand_size": 4, "target": 500})
    out = engine.draw(replace(empty, rules=romme, pile=()), "stock")
    assert out.results[-1].scores == (
        sum(romme.penalty(c) for c in state.hands[0] or ()),
        sum(romme.penalty(c) for c in state.hands[1] or ()),
    )


def test_a_view_holds_only_what_the_player_knows() -> None:
    rules = with_options(preset("rummy"), {"hand_size": 4, "target": 25})
    state = engine.advance(_first(rules), turn("stock", "7S 8S 9S", discard="KH"))
    view = view_of(state)
    assert view.seat == 1 and view.hand == cards("2C 3C 5H 9D")
    assert view.counts == (1, 4) and view.stock_count == state.stock_count
    assert view.owners == ((0, 0, 0),)
    assert not hasattr(view, "stock") and not hasattr(view, "hands")
    assert view.history[0].melds[0].cards == parse_cards("7S 8S 9S")


# -- a real table ---------------------------------------------------------------------------------


def test_a_game_at_a_real_table_only_my_hand_known() -> None:
    rules = with_options(preset("rummy"), {"hand_size": 4, "target": 25})
    game = engine.real_table(["Ann", "Bob"], rules, 1, cards("2C 3C 5H 9D"), parse_cards("4C")[0])
    turns = [
        turn("stock", "7S 8S 9S", discard="KH"),  # Ann: her stock card is not seen
        replace(turn(0, discard="9D")),  # me: I take KH
        turn("stock", layoffs=[(0, "7S 8S 9S 10S")], discard="QS"),  # Ann goes out
    ]
    game = game.with_hands((replace(game.hands[0], turns=tuple(turns)),))
    result = engine.replay(game)
    assert result.problem is None
    state = result.state
    # Ann's hand left is empty (she went out); mine is known: 2 + 3 + 5 + 10.
    assert state.results[0].scores == (20, 0)
    text = record.dumps(game)
    assert 'dealt = ["?", "5H 9D 2C 3C"]' in text and "me = 1" in text
    assert record.loads(text) == game
    # My own draw from the stock must name the card.
    bad = game.with_hands((replace(game.hands[0], turns=(turns[0], turn("stock", discard="2C"))),))
    assert "the card Bob drew from the stock must be given" in (engine.replay(bad).problem or "")


def test_scores_entered_at_a_real_table_where_a_hand_is_unseen() -> None:
    rules = with_options(preset("romme"), {"hand_size": 5, "target": 500})
    game = engine.real_table(
        ["Ann", "Bob"], rules, 0, cards("AS AH AD KC QC"), parse_cards("2H")[0]
    )
    played_turn = replace(turn("stock", "AS AH AD", "JC QC KC"), card=parse_cards("JC")[0])
    hand = replace(game.hands[0], turns=(played_turn,))
    assert engine.replay(game.with_hands((hand,))).state.results[0].scores is None
    entered = game.with_hands((replace(hand, scores=(0, 31)),))
    state = engine.replay(entered).state
    assert state.results[0].scores == (0, 31) and state.totals == (0, 31)
    assert record.loads(record.dumps(entered)) == entered
