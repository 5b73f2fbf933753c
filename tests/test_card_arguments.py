"""The card API and the card command line against misuse: a wrong argument fails at once
with a one-line TypeError/ValueError (or the project's error kinds), never deep inside; a
position no deal can give is refused by the API as by the command line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from rummikub.cards import (
    Card,
    CardPosition,
    RawCardMeld,
    check,
    parse_cards,
    preset,
    read_meld,
    solve,
    with_options,
)
from rummikub.cards import solver as card_solver
from rummikub.cards.puzzles import from_data
from rummikub.cli import main
from rummikub.core.errors import PositionError, PuzzleError, RulesError

RUMMY = preset("rummy")
POSITION = CardPosition(RUMMY, parse_cards("7S 8S 9S KH 2C"), (read_meld("7H 7D 7C", RUMMY),))
MELD = RawCardMeld.parse("7H 7D 7C")

MISUSES: dict[str, tuple[Callable[[], Any], type[Exception], str]] = {
    "parse_cards(None)": (
        lambda: parse_cards(None),  # type: ignore[arg-type]
        TypeError,
        "parse_cards() takes cards as a string such as '7S 8S 9S', got NoneType None",
    ),
    "parse_cards(list)": (
        lambda: parse_cards(["7S"]),  # type: ignore[arg-type]
        TypeError,
        "got list ['7S']",
    ),
    "Card.parse(5)": (
        lambda: Card.parse(5),  # type: ignore[arg-type]
        TypeError,
        "a card is written as a string such as '7S', got int 5",
    ),
    "preset(5)": (
        lambda: preset(5),  # type: ignore[arg-type]
        TypeError,
        "preset() takes a game's name (rummy, 500-rum, romme, continental, california), got int 5",
    ),
    "preset('nope')": (lambda: preset("nope"), RulesError, "unknown game 'nope'"),
    "with_options('rummy', {})": (
        lambda: with_options("rummy", {}),  # type: ignore[arg-type]
        TypeError,
        "with_options() takes a CardRules (e.g. preset('rummy')), got str 'rummy'",
    ),
    "with_options(rules, None)": (
        lambda: with_options(RUMMY, None),  # type: ignore[arg-type]
        TypeError,
        "with_options() takes the options as a mapping",
    ),
    "read_meld(text, 'rummy')": (
        lambda: read_meld("7S 8S 9S", "rummy"),  # type: ignore[arg-type]
        TypeError,
        "read_meld() takes a game's CardRules (e.g. preset('rummy')), got str 'rummy'",
    ),
    "read_meld(None, rules)": (
        lambda: read_meld(None, RUMMY),  # type: ignore[arg-type]
        TypeError,
        "a meld is written as a string such as '7S 8S 9S', got NoneType None",
    ),
    "RawCardMeld.read('x')": (
        lambda: MELD.read("x"),  # type: ignore[arg-type]
        TypeError,
        "a meld is judged under a game's CardRules",
    ),
    "solve(text)": (
        lambda: solve("7S 8S 9S"),  # type: ignore[arg-type]
        TypeError,
        "solve() takes a CardPosition (e.g. CardPosition(preset('rummy'), parse_cards('7S 8S "
        "9S'))), got str '7S 8S 9S'",
    ),
    "solve(time_limit=-1)": (
        lambda: solve(POSITION, time_limit=-1),
        ValueError,
        "time_limit=-1 must be a finite number of seconds > 0 (or None for no limit)",
    ),
    "solve(time_limit=nan)": (
        lambda: solve(POSITION, time_limit=float("nan")),
        ValueError,
        "time_limit=nan must be a finite number",
    ),
    "solve(time_limit='5')": (
        lambda: solve(POSITION, time_limit="5"),  # type: ignore[arg-type]
        TypeError,
        "time_limit must be a number of seconds or None, got str '5'",
    ),
    "solver.solve(all_picks='x')": (
        lambda: card_solver.solve(POSITION, all_picks="x"),  # type: ignore[arg-type]
        TypeError,
        "all_picks must be True or False, got str 'x'",
    ),
    "solve_draw(draw='x')": (
        lambda: card_solver.solve_draw(POSITION, "x"),  # type: ignore[arg-type]
        ValueError,
        "draw='x' must be 'stock' or a pile depth the position allows",
    ),
    "check(position, 'xx')": (
        lambda: check(POSITION, "xx"),  # type: ignore[arg-type]
        TypeError,
        "check() takes the new table as a list of melds",
    ),
    "check(position, ['xx'])": (
        lambda: check(POSITION, ["xx"]),  # type: ignore[list-item]
        TypeError,
        "new table[0] must be a RawCardMeld or CardMeld",
    ),
    "check(text, [])": (
        lambda: check("x", []),  # type: ignore[arg-type]
        TypeError,
        "check() takes a CardPosition, got str 'x'",
    ),
    "check(discard=text)": (
        lambda: check(POSITION, [MELD], discard="KH"),  # type: ignore[arg-type]
        TypeError,
        "discard: expected a Card (e.g. Card.parse('7S')), got str 'KH'",
    ),
    "check(draw=text)": (
        lambda: check(POSITION, [MELD], draw="x"),  # type: ignore[arg-type]
        ValueError,
        "draw='x' must be None, 'stock' or a pile depth >= 0",
    ),
    "CardPosition(rules=text)": (
        lambda: solve(CardPosition("rummy", parse_cards("7S"))),  # type: ignore[arg-type]
        TypeError,
        "CardPosition.rules must be a CardRules",
    ),
    "CardPosition(hand=text)": (
        lambda: solve(CardPosition(RUMMY, "7S 8S 9S")),  # type: ignore[arg-type]
        TypeError,
        "CardPosition.hand must be a tuple of cards",
    ),
    "CardPosition(table=texts)": (
        lambda: check(CardPosition(RUMMY, (), ("7H 7D 7C",)), []),  # type: ignore[arg-type]
        TypeError,
        "CardPosition.table must be a tuple of CardMeld",
    ),
    "CardPosition(opened=text)": (
        lambda: solve(CardPosition(RUMMY, parse_cards("7S"), opened="yes")),  # type: ignore[arg-type]
        TypeError,
        "CardPosition.opened must be True or False, got str 'yes'",
    ),
    "CardPosition(hand=bad card)": (
        lambda: solve(CardPosition(RUMMY, (Card(99, "X"),))),
        PositionError,
        "Card(rank=99, suit='X') is no card",
    ),
}


@pytest.mark.parametrize("name", list(MISUSES))
def test_a_misuse_fails_at_once_in_one_line(name: str) -> None:
    call, kind, text = MISUSES[name]
    with pytest.raises(kind) as caught:
        call()
    message = str(caught.value)
    assert text in message
    assert "\n" not in message


#: Positions the command line refuses, with what both say.
UNSOUND = {
    "five 7S": (("rummy", "7S 7S 7S 7S 7S 8S 9S", None), "7S is used 5 times"),
    "a joker in rummy": (("rummy", "7S 8S *", None), "rummy is played without jokers"),
    "no deal": (("continental", "7S 8S 9S", None), "continental needs the deal"),
    "a deal without contracts": (("rummy", "7S 8S 9S", 3), "deal 3: rummy has no contracts"),
}


@pytest.mark.parametrize("name", list(UNSOUND))
def test_the_api_refuses_what_the_reader_refuses(name: str) -> None:
    (game, hand, deal), text = UNSOUND[name]
    position = CardPosition(preset(game), parse_cards(hand), deal=deal)
    for call in (
        lambda: solve(position),
        lambda: check(position, []),
        lambda: card_solver.solve_draw(position, "stock"),
    ):
        with pytest.raises(PositionError, match=text):
            call()
    data: dict[str, Any] = {"game": game, "hand": hand}
    if deal is not None:
        data["deal"] = deal
    with pytest.raises(PuzzleError, match=text):
        from_data(data, "p.toml")


def test_a_table_meld_must_be_valid_in_the_game() -> None:
    romme = preset("romme")
    wild_run = read_meld("5S * 7S", romme)  # a joker stands in: no meld in rummy
    position = CardPosition(RUMMY, parse_cards("KH"), (wild_run,))
    with pytest.raises(PositionError, match="rummy is played without jokers"):
        solve(position)


def test_sound_positions_still_solve_and_check() -> None:
    assert solve(POSITION, time_limit=30).best.penalty == 2
    assert check(POSITION, [MELD, RawCardMeld.parse("7S 8S 9S")], discard=Card.parse("KH")).legal


# -- the card command line ------------------------------------------------------------------


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def test_a_bad_card_rule_names_the_card_options() -> None:
    for args in (
        ("solve", "--game", "rummy", "--hand", "7S 8S 9S", "--rule", "nope=1"),
        ("solve", "--rule", "nope=1", "--game", "rummy", "--hand", "7S 8S 9S"),
    ):
        result = run(*args)
        assert result.exit_code == 2
        assert "unknown rule option 'nope'" in result.stderr
        assert "wild_swap" in result.stderr and "initial_meld" not in result.stderr
    tile_option = run("solve", "--game", "rummy", "--hand", "7S 8S 9S", "--rule", "jokers=99")
    assert tile_option.exit_code == 2
    assert "jokers=99 must be a whole number in the range 0-16" in tile_option.stderr
    good = run("solve", "--game", "rummy", "--hand", "7S 8S 9S", "--rule", "wild_swap=true")
    assert good.exit_code == 0, good.output


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (("--rack", "R1 R2 R3"), "--rack gives a tile position; an inline card position is --hand"),
        (("--position", "- / R1"), "--position gives a tile position"),
    ],
)
def test_a_tile_position_with_a_card_hand_is_refused(args: tuple[str, ...], text: str) -> None:
    result = run("solve", "--game", "rummy", "--hand", "7S 8S 9S", *args)
    assert result.exit_code == 2
    assert text in result.stderr


def test_a_deal_is_refused_where_it_means_nothing() -> None:
    result = run("solve", "--game", "rummy", "--hand", "7S 8S 9S", "--deal", "3")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "Error: command line: deal 3: rummy has no contracts (the deal goes with a contract "
        "game such as continental or california)"
    )
    on_a_file = run("solve", "puzzles/cards/rummy-01.toml", "--deal", "3")
    assert on_a_file.exit_code == 2
    assert "--deal goes with an inline card position" in on_a_file.stderr
    contract = run("solve", "--game", "continental", "--hand", "7S 8S 9S 7H 7D 7C", "--deal", "1")
    assert contract.exit_code == 0, contract.output
