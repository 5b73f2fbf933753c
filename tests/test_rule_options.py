"""One rule-option reader per domain: every option is applied, then the rule set they make is
checked as a whole, and every problem is reported at once (CARDS.md: "every value is an
option", so two values may be consistent only together)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rummikub.cards.puzzles import loads as load_card_text
from rummikub.cards.rules import preset as card_preset
from rummikub.cards.rules import read_rules as read_card_rules
from rummikub.cards.rules import with_options as card_options
from rummikub.cli import main
from rummikub.core.errors import PuzzleError, RulesError
from rummikub.tiles.game import loads as load_record_text
from rummikub.tiles.game.record import RecordError
from rummikub.tiles.rules import read_rules
from rummikub.web.api import RequestError, read_position

#: Pairs of options that only together make a consistent rule set, by game: Continental
#: played with one suit each per set, Rummy with sets of any suits and any size.
TOGETHER = {
    "continental": {"set_suits": "distinct", "set_max": 4},
    "rummy": {"set_suits": "any", "set_max": 0},
}
HAND = "7S 7H 7D"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


#: A legal turn in each game, for ``check``: (hand, after, after_discard).
TURNS = {
    "continental": ("7S 7H 7D 8S 8H 8D 2C", ["7S 7H 7D", "8S 8H 8D"], "2C"),
    "rummy": ("7S 7H 7D 2C", ["7S 7H 7D"], "2C"),
}


def card_file(tmp_path: Path, game: str, options: dict[str, object]) -> str:
    hand, after, discard = TURNS[game]
    lines = [f'game = "{game}"', f'hand = "{hand}"', f"after = {json.dumps(after)}"]
    lines.append(f'after_discard = "{discard}"')
    if game == "continental":
        lines.append("deal = 1")
    if options:
        lines.append("[rules]")
        lines += [f"{key} = {json.dumps(value)}" for key, value in options.items()]
    path = tmp_path / f"{game}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def orders(options: dict[str, object]) -> list[dict[str, object]]:
    return [dict(order) for order in itertools.permutations(options.items())]


# -- cards: options consistent only together ------------------------------------------------


@pytest.mark.parametrize("game", TOGETHER)
def test_a_pair_consistent_together_reads_in_either_order(game: str) -> None:
    for options in orders(TOGETHER[game]):
        rules = load_card_text(card_file_text(game, options), "p.toml").position.rules
        assert (rules.set_suits, rules.set_max) == tuple(TOGETHER[game].values())
        assert card_options(card_preset(game), options) == rules


def card_file_text(game: str, options: dict[str, object]) -> str:
    deal = "deal = 1\n" if game == "continental" else ""
    table = "".join(f"{key} = {json.dumps(value)}\n" for key, value in options.items())
    return f'game = "{game}"\nhand = "{HAND}"\n{deal}[rules]\n{table}'


@pytest.mark.parametrize("game", TOGETHER)
def test_a_pair_consistent_together_is_taken_with_rule_options(game: str, tmp_path: Path) -> None:
    path = card_file(tmp_path, game, {})
    for options in orders(TOGETHER[game]):
        rules = [f"{key}={value}" for key, value in options.items()]
        args = [arg for text in rules for arg in ("--rule", text)]
        solved = run("solve", "--json", path, *args)
        assert solved.exit_code == 0, solved.output
        checked = run("check", path, *args)
        assert checked.exit_code == 0, checked.output


@pytest.mark.parametrize("game", TOGETHER)
def test_a_pair_may_be_split_between_the_file_and_the_command_line(
    game: str, tmp_path: Path
) -> None:
    (first, value), (second, other) = TOGETHER[game].items()
    for in_file, on_line in (((first, value), (second, other)), ((second, other), (first, value))):
        path = card_file(tmp_path, game, dict([in_file]))
        result = run("solve", "--json", path, "--rule", f"{on_line[0]}={on_line[1]}")
        assert result.exit_code == 0, result.output


def test_an_inconsistent_rule_set_names_the_values_it_has() -> None:
    # Rummy's preset has distinct suits: without set_suits = "any", no maximum is wrong,
    # and the message names the values the rule set ends up with.
    with pytest.raises(PuzzleError) as caught:
        load_card_text(card_file_text("rummy", {"set_max": 0}), "p.toml")
    assert caught.value.problems == (
        "rules: set_max=0 (no maximum) with set_suits='distinct': four suits make sets of at "
        "most 4 cards (set set_max 1-4, or set_suits='any')",
    )
    with pytest.raises(PuzzleError) as caught:
        load_card_text(card_file_text("continental", {"set_suits": "distinct"}), "p.toml")
    assert caught.value.problems[0].startswith(
        "rules: set_max=0 (no maximum) with set_suits='distinct'"
    )


def test_every_card_rule_problem_is_reported_at_once_in_the_order_given() -> None:
    options = {"run_min": 1, "set_max": 0, "decks": "two", "jokerz": 3}
    reading = read_card_rules("rummy", options)
    assert reading.rules is None
    assert reading.problems == (
        "rules: run_min=1 must be a whole number in the range 2-13",
        "rules: set_max=0 (no maximum) with set_suits='distinct': four suits make sets of at "
        "most 4 cards (set set_max 1-4, or set_suits='any')",
        "rules: decks='two' must be a whole number in the range 1-8",
        "rules: unknown rule option 'jokerz': did you mean 'jokers'? (expected one of decks, "
        "jokers, wild, set_min, set_max, set_suits, run_min, aces, values, ace_low, "
        "wild_card_value, joker_value, joker_penalty, opening, opening_points, discard_pick, "
        "objective, discard_at_end, out_without_discard, keep_wilds, wilds_at_most, "
        "wild_sets, wild_swap, may_i, stock_out, stock_turns, target, hand_size)",
    )
    assert reading.bad == {"run_min", "set_max", "decks", "jokerz"}
    with pytest.raises(RulesError) as caught:
        card_options(card_preset("rummy"), {"run_min": 1, "decks": 0})
    assert "run_min=1" in str(caught.value) and "decks=0" in str(caught.value)


def test_a_card_puzzle_with_a_bad_option_still_has_its_cards_judged() -> None:
    text = card_file_text("rummy", {"run_min": 1}).replace(HAND, "7S 1X")
    with pytest.raises(PuzzleError) as caught:
        load_card_text(text, "p.toml")
    assert caught.value.problems == (
        "rules: run_min=1 must be a whole number in the range 2-13",
        "hand \"7S 1X\": invalid card '1X': unknown suit 'X' (expected one of S, H, D, C)",
    )


# -- tiles: the same reader for files, records, the command line and the web --------------


def test_every_tile_rule_problem_is_its_own_line_in_the_order_given() -> None:
    reading = read_rules({"preset": "boxed", "numbers": 99, "copies": 9})
    assert reading.rules is None and reading.nearest is None  # the box is in doubt
    assert reading.problems == (
        "rules: numbers=99 must be in the range 3-26",
        "rules: copies=9 must be in the range 1-4",
    )
    reading = read_rules({"initial_meld": -1}, options={"jokers": "7"})
    assert reading.nearest is not None and reading.nearest.preset_name() == "standard"
    assert reading.bad == {"initial_meld", "jokers"}


def test_a_game_record_reports_every_rule_problem() -> None:
    text = 'format = "rummikub-game/1"\nplayers = ["A", "B"]\n[rules]\nnumbers = 99\ncopies = 9\n'
    with pytest.raises(RecordError) as caught:
        load_record_text(text, "g.toml")
    assert str(caught.value).splitlines() == [
        "g.toml: rules: numbers=99 must be in the range 3-26",
        "g.toml: rules: copies=9 must be in the range 1-4",
    ]


def test_the_web_api_reports_every_rule_problem() -> None:
    with pytest.raises(RequestError) as caught:
        read_position({"rack": "R4", "rules": {"numbers": 99, "copies": 9}})
    assert caught.value.status == 422
    assert caught.value.problems == [
        "rules: numbers=99 must be in the range 3-26",
        "rules: copies=9 must be in the range 1-4",
    ]


def test_every_bad_rule_option_on_the_command_line_is_reported(tmp_path: Path) -> None:
    path = str(tmp_path / "g.toml")
    result = run("game", "new", path, "--seed", "1", "--rule", "copies=9", "--rule", "numbers=2")
    assert result.exit_code == 2
    assert "copies=9 must be in the range 1-4" in result.stderr
    assert "numbers=2 must be in the range 3-26" in result.stderr
