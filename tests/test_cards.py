"""The card domain, card puzzle files and the card checker (CARDS.md sections 1-4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummikub.cards.cards import DECK, JOKER, Card, parse_cards
from rummikub.cards.checker import check
from rummikub.cards.melds import RawCardMeld
from rummikub.cards.puzzles import CardPuzzle, loads
from rummikub.cards.rules import PRESETS, preset, with_options
from rummikub.core.errors import MeldError, NotationError, PuzzleError, RulesError


def meld(text: str, game: str) -> str:
    return str(RawCardMeld.parse(text).read(preset(game)))


def problem(text: str, game: str) -> str:
    with pytest.raises(MeldError) as error:
        RawCardMeld.parse(text).read(preset(game))
    return str(error.value)


# -- cards ----------------------------------------------------------------------------------


@given(st.sampled_from([*DECK, JOKER]))
def test_card_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card


def test_card_input_forms() -> None:
    assert parse_cards("TH 10h ♠A jk JOKER *") == (
        Card(10, "H"),
        Card(10, "H"),
        Card(1, "S"),
        JOKER,
        JOKER,
        JOKER,
    )
    with pytest.raises(NotationError, match="unknown suit 'X'"):
        Card.parse("7X")
    with pytest.raises(NotationError, match="unknown rank '1'"):
        Card.parse("1S")


# -- melds: sets, runs, aces, wild cards -------------------------------------------------------


def test_runs_and_the_ace_rules() -> None:
    assert meld("AS 2S 3S", "rummy") == "AS 2S 3S"
    assert "the ace is low only" in problem("QS KS AS", "rummy")
    assert meld("QS KS AS", "500-rum") == "QS KS AS"
    assert "the ace is high only" in problem("AS 2S 3S 4S", "california")
    assert "round the corner" in problem("KS AS 2S", "500-rum")
    assert "round the corner" in problem("* KS AS 2S", "500-rum")
    assert "not in sequence" in problem("5S 6S 8S", "rummy")
    assert "a run needs at least 4" in problem("5S 6S 7S", "continental")


def test_sets_and_suits() -> None:
    assert "a suit is repeated" in problem("7S 7S 7H", "romme")
    assert meld("7S 7S 7H", "continental") == "7S 7S 7H"
    assert "at most 4" in problem("7S 7H 7D 7C *", "500-rum")
    assert meld("7S 7H 7D 7C 7S *", "continental") == "7S 7H 7D 7C 7S *"


def test_ambiguous_meld_is_a_run_unless_written_as_a_set() -> None:
    run = RawCardMeld.parse("7S * *").read(preset("500-rum"))
    assert run.kind == "run" and [str(c) for c in run.represented()] == ["7S", "8S", "9S"]
    group = RawCardMeld.parse("set: 7S * *").read(preset("500-rum"))
    assert group.kind == "set" and str(group) == "set: 7S * *"


def test_named_wild_cards_are_wild_only_where_written_so() -> None:
    continental = preset("continental")
    natural = RawCardMeld.parse("AH AD AS").read(continental)
    assert natural.wilds == 0
    wild = RawCardMeld.parse("AH=5S 6S 7S 8S").read(continental)
    assert wild.wild == (True, False, False, False) and str(wild) == "AH=5S 6S 7S 8S"
    with pytest.raises(MeldError, match="stands at 5S"):
        RawCardMeld.parse("AH=9S 6S 7S 8S").read(continental)
    with pytest.raises(MeldError, match="AS is not a wild card"):
        RawCardMeld.parse("AS=5S 6S 7S 8S").read(continental)
    with pytest.raises(MeldError, match="not a wild card"):
        RawCardMeld.parse("AH=5S 6S 7S 8S").read(preset("california"))


def test_wilds_never_outnumber_naturals_and_wild_trios() -> None:
    assert "outnumber" in problem("5S * * 8S *", "continental")
    assert meld("5S * * 8S", "continental") == "5S * * 8S"
    assert meld("5S * * 8S *", "california") == "5S * * 8S *"
    assert meld("* * AH=*", "continental") == "* * AH=*"
    assert "no sets of wild cards" in problem("* * *", "500-rum")


def test_values_where_the_card_stands() -> None:
    rum = preset("500-rum")
    assert RawCardMeld.parse("AS 2S 3S").read(rum).value(rum) == 6  # ace low: 1
    assert RawCardMeld.parse("QS KS AS").read(rum).value(rum) == 35  # ace high: 15
    romme = preset("romme")
    assert RawCardMeld.parse("* 2S 3S").read(romme).value(romme) == 6  # joker as low ace
    assert RawCardMeld.parse("QS KS *").read(romme).value(romme) == 31  # joker as high ace
    continental = preset("continental")
    assert continental.penalty(Card(1, "H")) == 30 and continental.penalty(Card(1, "S")) == 20
    assert continental.penalty(JOKER) == 50 and preset("romme").penalty(JOKER) == 20


# -- rules ----------------------------------------------------------------------------------


def test_presets_are_data_and_options_are_checked() -> None:
    assert set(PRESETS) == {"rummy", "500-rum", "romme", "continental", "california"}
    assert with_options(preset("romme"), {"opening_points": 30, "values": {"A": 1}}).values[0] == 1
    with pytest.raises(RulesError, match="run_min=1 must be a whole number in the range 2-13"):
        with_options(preset("rummy"), {"run_min": 1})
    with pytest.raises(RulesError, match="unknown rule option 'runs'"):
        with_options(preset("rummy"), {"runs": 3})
    with pytest.raises(RulesError, match="wild_swap='yes' must be true or false"):
        with_options(preset("romme"), {"wild_swap": "yes"})
    assert with_options(preset("romme"), {"wild_swap": True}).wild_swap


# -- puzzle files ---------------------------------------------------------------------------


def test_every_problem_of_a_card_puzzle_at_once() -> None:
    text = """game = "continental"
hand = "7S 7Z"
table = ["5S 6S 7S", "KS KS"]
drawn = "no"
colour = 1
[expect]
points = "many"
"""
    with pytest.raises(PuzzleError) as error:
        loads(text, "p.toml")
    assert str(error.value).splitlines() == [
        "p.toml: unknown key 'colour' (expected one of game, title, description, hand, table, "
        "opened, deal, discard, drawn, after, after_discard, after_draw, rules, expect)",
        'p.toml: drawn: expected true or false, got string "no"',
        "p.toml: missing key 'deal' (1-7): continental needs the deal for its contract",
        "p.toml: hand \"7S 7Z\": invalid card '7Z': unknown suit 'Z' (expected one of S, H, D, C)",
        'p.toml: table[0] "5S 6S 7S": not a run (3 cards, a run needs at least 4) and not a set '
        "(not all of one rank)",
        'p.toml: table[1] "KS KS": not a run (2 cards, a run needs at least 4) and not a set '
        "(2 cards, a set needs at least 3)",
        'p.toml: expect.points: expected a whole number >= 0, got string "many"',
    ]


def test_too_many_copies_and_unknown_game() -> None:
    with pytest.raises(PuzzleError, match="7S is used 2 times in hand, table and discard pile"):
        loads('game = "rummy"\nhand = "7S"\ndiscard = ["7S"]', "p.toml")
    with pytest.raises(PuzzleError, match="unknown game 'gin'"):
        loads('game = "gin"\nhand = "7S"', "p.toml")
    with pytest.raises(PuzzleError, match="rummy is played without jokers"):
        loads('game = "rummy"\nhand = "7S *"', "p.toml")


def test_a_card_puzzle_reads_as_json_too() -> None:
    puzzle = loads('{"game": "rummy", "hand": ["7S", "8S"], "opened": true}', "p.json")
    assert isinstance(puzzle, CardPuzzle) and puzzle.position.opened


# -- the checker ----------------------------------------------------------------------------


def position(text: str) -> CardPuzzle:
    return loads(text, "p.toml")


def rules_broken(text: str) -> list[str]:
    puzzle = position(text)
    assert puzzle.after is not None
    verdict = check(
        puzzle.position, puzzle.after, discard=puzzle.after_discard, draw=puzzle.after_draw
    )
    return [v.rule for v in verdict.violations]


def test_a_legal_turn_with_points_and_penalty() -> None:
    puzzle = position(
        'game = "500-rum"\nhand = "7S 8S 9S QD 2C 3D"\ntable = ["QS QC QH"]\n'
        'after = ["QS QC QH QD", "7S 8S 9S"]\nafter_discard = "2C"'
    )
    assert puzzle.after is not None
    verdict = check(puzzle.position, puzzle.after, discard=puzzle.after_discard)
    assert verdict.legal and verdict.points == 34 and verdict.penalty == 3
    assert verdict.layoffs == {0: (Card(12, "D"),)}


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        # A table meld rearranged, one missing, a card not held, no discard.
        (
            'game = "rummy"\nhand = "7S 2C"\ntable = ["4S 5S 6S", "9H 9D 9C"]\n'
            'after = ["5S 6S 4S 7S", "9H 9D 9C", "JD QD KD"]',
            ["invalid-meld", "not-in-hand", "not-in-hand", "not-in-hand", "discard-missing"],
        ),
        (
            'game = "rummy"\nhand = "7S 2C"\ntable = ["4S 5S 6S", "9H 9D 9C"]\n'
            'after = ["4S 5S 6S"]\nafter_discard = "2C"',
            ["table-changed"],
        ),
        # A natural card added to a trio of wild cards; a wild discarded beside a natural.
        (
            'game = "continental"\ndeal = 1\nopened = true\nhand = "7S 2C *"\n'
            'table = ["* * AH=*"]\nafter = ["* * AH=* 7S"]\nafter_discard = "*"',
            ["wild-set-addition", "discard-wild"],
        ),
        # Rommé: 39 is not enough to open when a lay-off is made too.
        (
            'game = "romme"\nhand = "8S 9S 10S 4H 4D 4C 2C QH"\ntable = ["JH QH KH"]\n'
            'after = ["JH QH KH", "8S 9S 10S", "4H 4D 4C"]\nafter_discard = "2C"',
            ["opening-points"],
        ),
        # Continental deal 2 wants one set and one run.
        (
            'game = "continental"\ndeal = 2\nhand = "7S 7H 7D 9C 9H 9D 2C"\n'
            'after = ["7S 7H 7D", "9C 9H 9D"]\nafter_discard = "2C"',
            ["contract"],
        ),
        # After going down: no new meld; Continental never goes out without a discard.
        (
            'game = "continental"\ndeal = 1\nopened = true\nhand = "7S 7H 7D"\n'
            'after = ["7S 7H 7D"]',
            ["discard-missing", "new-meld-after-going-down"],
        ),
        # 500 Rum: the deepest card taken must be used, and a taken card not discarded.
        (
            'game = "500-rum"\nhand = "7S 8S"\ndiscard = ["KH", "9S", "2D"]\ndrawn = false\n'
            'after = []\nafter_draw = 2\nafter_discard = "9S"',
            ["deepest-card-unused", "discard-taken-card"],
        ),
        # Rummy takes only the top card of the pile.
        (
            'game = "rummy"\nhand = "7S 8S"\ndiscard = ["9S", "2D"]\ndrawn = false\n'
            'after = ["7S 8S 9S"]\nafter_draw = 1\nafter_discard = "2D"',
            [
                "invalid-draw",
                "not-in-hand",
                "not-in-hand",
            ],  # 9S is not taken, so not held; nor is 2D
        ),
        # Wild swaps: where the rules have none; out of a set; before opening; the freed
        # wild card kept (or laid as a natural card), and a 6S that is not what * stands for.
        (
            'game = "romme"\nopened = true\nhand = "6S 9H 10H 2C"\ntable = ["5S * 7S"]\n'
            'after = ["5S 6S 7S", "9H 10H *"]\nafter_discard = "2C"',
            ["wild-swap"],
        ),
        (
            'game = "romme"\nopened = true\nhand = "6S 9H 10H 2C"\ntable = ["6H 6C *"]\n'
            'after = ["6H 6C 6S", "9H 10H *"]\nafter_discard = "2C"\n[rules]\nwild_swap = true',
            ["wild-swap", "not-in-hand"],
        ),
        (
            'game = "romme"\nhand = "6S 9H 10H 2C"\ntable = ["5S * 7S"]\n'
            'after = ["5S 6S 7S", "9H 10H *"]\nafter_discard = "2C"\n[rules]\nwild_swap = true',
            ["wild-swap", "opening-points", "lay-off-before-opening"],
        ),
        (
            'game = "romme"\nopened = true\nhand = "6S 9H 10H 2C"\ntable = ["5S * 7S"]\n'
            'after = ["5S 6S 7S"]\nafter_discard = "2C"\n[rules]\nwild_swap = true',
            ["freed-wild-unused"],
        ),
        (
            'game = "continental"\ndeal = 1\nopened = true\nhand = "7H 2C"\n'
            'table = ["5H 6H AD=7H 8H", "AS 2S 3S 4S"]\n'
            'after = ["5H 6H 7H 8H", "AD AS 2S 3S 4S"]\nafter_discard = "2C"\n'
            "[rules]\nwild_swap = true",
            ["invalid-meld", "freed-wild-unused"],
        ),
        (
            'game = "romme"\nopened = true\nhand = "8S 9H 10H 2C"\ntable = ["5S * 7S"]\n'
            'after = ["5S 8S 7S", "9H 10H *"]\nafter_discard = "2C"\n[rules]\nwild_swap = true',
            ["invalid-meld", "not-in-hand"],
        ),
        # A lay-off before going down in a contract game.
        (
            'game = "california"\ndeal = 1\nhand = "9S 2C"\ntable = ["5S 6S 7S 8S"]\n'
            'after = ["5S 6S 7S 8S 9S"]\nafter_discard = "2C"',
            ["lay-off-before-opening"],
        ),
    ],
)
def test_every_broken_rule_is_named(text: str, rules: list[str]) -> None:
    assert rules_broken(text) == rules


def test_romme_goes_out_at_once_below_40() -> None:
    assert (
        rules_broken(
            'game = "romme"\nhand = "8S 9S 10S 4H 4D 4C 2C"\n'
            'after = ["8S 9S 10S", "4H 4D 4C"]\nafter_discard = "2C"'
        )
        == []
    )


def test_one_card_is_one_card_in_a_meld_problem() -> None:
    assert problem("KC", "rummy") == (
        "not a run (1 card, a run needs at least 3) and not a set (1 card, a set needs at least 3)"
    )
    assert "1 natural card)" in problem("AH * *", "continental")
