"""Card game records: round trips (TOML and JSON, hypothesis over turns), the reader's
errors, a replay that stops at an illegal card turn, and atomic writes."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.cards import parse_cards, preset, with_options
from rummikub.cards.cards import DECK, JOKER, Card
from rummikub.cards.game import engine, record
from rummikub.cards.game.record import CardRecord, Deal, Hand, Layoff, RecordError, Turn
from rummikub.cards.game.simulate import play_game
from rummikub.cards.game.strategies import casual
from rummikub.cards.melds import RawCardMeld
from rummikub.cards.rules import GAMES

MELDS = ["7S 8S 9S", "QH QD QC", "5S 6S * 8S", "set: 7S * *", "AH=8S 9S 10S JS", "AS 2S 3S"]

cards_ = st.sampled_from([*DECK, JOKER])


@st.composite
def turns(draw: st.DrawFn) -> Turn:
    depth = draw(st.one_of(st.just("stock"), st.integers(0, 6)))
    claim = draw(st.one_of(st.none(), st.integers(0, 2)))
    return Turn(
        draw=depth,
        card=draw(st.one_of(st.none(), cards_)) if depth == "stock" else None,
        melds=tuple(
            RawCardMeld.parse(m) for m in draw(st.lists(st.sampled_from(MELDS), max_size=3))
        ),
        layoffs=tuple(
            Layoff(i, RawCardMeld.parse(m))
            for i, m in draw(
                st.dictionaries(st.integers(0, 9), st.sampled_from(MELDS), max_size=2)
            ).items()
        ),
        discard=draw(st.one_of(st.none(), cards_)),
        claim=claim,
        penalty=draw(st.one_of(st.none(), cards_)) if claim is not None else None,
        # An older record's claim (the mover drew first) reads back as one too.
        claim_first=draw(st.booleans()) if claim is not None else True,
    )


@st.composite
def records(draw: st.DrawFn) -> CardRecord:
    game = draw(st.sampled_from(GAMES))
    rules = preset(game)
    if draw(st.booleans()):
        rules = with_options(rules, {"hand_size": 5, "may_i": draw(st.booleans())})
    hands = []
    for _ in range(draw(st.integers(1, 3))):
        dealt = tuple(
            None if draw(st.booleans()) else tuple(draw(st.lists(cards_, min_size=1, max_size=5)))
            for _ in range(3)
        )
        stock = draw(st.one_of(st.none(), st.lists(cards_, max_size=6).map(tuple)))
        deal = Deal(dealt, draw(cards_), stock)
        scores = draw(st.one_of(st.none(), st.tuples(*[st.integers(-500, 500)] * 3)))
        hands.append(Hand(deal, tuple(draw(st.lists(turns(), max_size=4))), scores))
    return CardRecord(
        rules=rules,
        players=("Ann", "Bob", "Cy"),
        hands=tuple(hands),
        seed=draw(st.one_of(st.none(), st.integers(0, 2**40))),
        me=draw(st.one_of(st.none(), st.integers(0, 2))),
        seats=draw(st.one_of(st.none(), st.just(("person", "best", "casual")))),
    )


@settings(max_examples=60, deadline=None)
@given(records(), st.sampled_from(["toml", "json"]))
def test_any_record_reads_back_as_written(game: CardRecord, fmt: str) -> None:
    text = record.dumps(game, fmt)  # type: ignore[arg-type]
    assert record.loads(text, fmt=fmt) == game  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES)
def test_a_self_played_game_reads_back_and_replays_to_its_result(game: str, tmp_path: Path) -> None:
    rules = with_options(preset(game), {"hand_size": 7} if game != "continental" else {})
    if rules.opening != "contract":
        rules = with_options(rules, {"target": 60})
    played, state = play_game(rules, [casual, casual], seed=5)
    path = tmp_path / "game.toml"
    record.save(played, path, totals=engine.totals_of(state))
    again = record.load(path)
    assert again == played
    replayed = engine.replay(again)
    assert replayed.problem is None
    assert replayed.state.result == state.result
    assert f"totals = {list(state.results[0].totals or ())}" in path.read_text()
    json_path = tmp_path / "game.json"
    record.save(played, json_path)
    assert record.load(json_path) == played


def _played() -> tuple[CardRecord, engine.CardGameState]:
    rules = with_options(preset("500-rum"), {"hand_size": 7, "target": 100})
    return play_game(rules, [casual, casual], seed=11)


def test_replay_stops_at_an_illegal_card_turn() -> None:
    game, _ = _played()
    hand = game.hands[0]
    number = 4
    bad = replace(
        hand.turns[number - 1], discard=Card(13, "S"), melds=(RawCardMeld.parse("2H 3H 4H"),)
    )
    broken = game.with_hands(
        (replace(hand, turns=(*hand.turns[: number - 1], bad, *hand.turns[number:])),)
    )
    result = engine.replay(broken)
    assert result.error is not None
    assert (result.error.hand, result.error.number) == (1, number)
    player = game.players[(number - 1) % 2]
    assert result.problem is not None
    assert result.problem.startswith(f"hand 1, turn {number} ({player}): ")
    assert "is not in your hand" in result.problem
    # The states up to the bad turn are kept.
    assert len(result.states) == number
    assert result.state.turns == number - 1


def test_a_turn_that_is_not_cards_stops_the_reading_there(tmp_path: Path) -> None:
    game, _ = _played()
    text = record.dumps(game)
    broken = text.replace('discard = "', 'discard = "Q', 1)
    path = tmp_path / "bad.toml"
    path.write_text(broken)
    again = record.load(path)
    assert again.problem is not None
    assert again.problem.startswith("hand 1, turn 1: invalid card 'Q")
    assert len(again.hands) == 1 and again.hands[0].turns == ()
    assert engine.replay(again).problem == again.problem


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'format = "rummikub-game/1"\ngame = "rummy"\nplayers = ["A", "B"]\n',
            "format 'rummikub-game/1'",
        ),
        (
            'format = "rummikub-cards-game/1"\ngame = "gin"\nplayers = ["A", "B"]\n',
            "game: unknown game",
        ),
        ('format = "rummikub-cards-game/1"\ngame = "rummy"\nplayers = ["A"]\n', "players: 1 given"),
        (
            'format = "rummikub-cards-game/1"\ngame = "rummy"\nplayers = ["A", "B"]\n'
            "[rules]\ntarget = 0\n",
            "target=0",
        ),
        (
            'format = "rummikub-cards-game/1"\ngame = "rummy"\nplayers = ["A", "B"]\n'
            '[[hands]]\ndealt = ["AS"]\nup = "2S"\n',
            "dealt: expected one hand per player (2)",
        ),
        (
            'format = "rummikub-cards-game/1"\ngame = "rummy"\nplayers = ["A", "B"]\n'
            '[[hands]]\ndealt = ["AS", "ZZ"]\nup = "2S"\n',
            "hand 1: dealt[1]: invalid card 'ZZ'",
        ),
        (
            'format = "rummikub-cards-game/1"\ngame = "rummy"\nplayers = ["A", "B"]\nbogus = 1\n',
            "unknown key 'bogus'",
        ),
    ],
)
def test_a_bad_header_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(RecordError) as error:
        record.loads(text, "r.toml")
    assert str(error.value).startswith("r.toml: ")
    assert message in str(error.value)


def test_bad_turns_are_read_as_problems() -> None:
    head = 'format = "rummikub-cards-game/1"\ngame = "rummy"\nplayers = ["A", "B"]\n'
    head += '[[hands]]\ndealt = ["?", "?"]\nup = "2S"\n[[hands.turns]]\n'
    for body, message in [
        ("draw = -1\n", "draw = -1"),
        ("player = 1\n", "seat 0's turn"),
        ('draw = 0\ncard = "2S"\n', "only a draw from the stock"),
        ('penalty = "2S"\n', 'only a "May I?" claim'),
        ("may_i = 5\n", "may_i = 5"),
        ("layoffs = [{meld = 0}]\n", "layoffs: expected"),
        ('layoffs = [{meld = 0, to = "2S 3S 4S"}, {meld = 0, to = "2S 3S 4S 5S"}]\n', "one entry"),
        ("wat = 1\n", "unknown key 'wat'"),
    ]:
        game = record.loads(head + body)
        assert game.problem is not None and message in game.problem, (body, game.problem)


def test_save_refuses_a_record_changed_since_it_was_read(tmp_path: Path) -> None:
    game, _ = _played()
    path = tmp_path / "g.toml"
    record.save(game, path)
    first = record.load(path)
    changed = first.with_hands(first.hands[:1])
    record.save(replace(changed, seed=99), path)
    with pytest.raises(RecordError, match="changed by another program"):
        record.save(changed, path, expect=first)


def test_a_record_names_cards_as_written() -> None:
    game = CardRecord(
        preset("continental"),
        ("A", "B"),
        (
            Hand(
                Deal((parse_cards("AH 2S"), None), parse_cards("*")[0]),
                (Turn("stock", melds=(RawCardMeld.parse("AH=8S 9S 10S JS"),)),),
            ),
        ),
    )
    text = record.dumps(game)
    assert 'melds = ["AH=8S 9S 10S JS"]' in text
    assert record.loads(text) == game


def test_a_record_file_replays_to_its_bad_turn_naming_the_file(tmp_path: Path) -> None:
    game, _ = _played()
    hand = game.hands[0]
    bad = replace(hand.turns[2], discard=Card(13, "S"), melds=(RawCardMeld.parse("2H 3H 4H"),))
    broken = game.with_hands((replace(hand, turns=(*hand.turns[:2], bad, *hand.turns[3:])),))
    path = tmp_path / "broken.toml"
    record.save(broken, path)
    result = engine.replay_file(path)
    player = game.players[0]
    assert result.problem is not None
    assert result.problem.startswith(f"{path}: hand 1, turn 3 ({player}): ")
    assert len(result.states) == 3
    record.save(game, path)
    assert engine.replay_file(path).problem is None
