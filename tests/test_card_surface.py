"""The card rummies at the command line beyond one puzzle file: ``check --game`` with an
inline position, card puzzles on stdin (``solve -``, ``check -``, ``analyse -``), ``analyse``
refusing a card puzzle clearly, and ``rummikub --help`` naming the card games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rummikub.cards.rules import GAMES
from rummikub.cli import main
from rummikub.cli.card_options import CARD_GAMES
from rummikub.cli.cards import meld_texts

REPO = Path(__file__).resolve().parent.parent
CARDS = REPO / "puzzles" / "cards"
RUMMY = ("--game", "rummy", "--hand", "7S 8S 9S KH 2C", "--table", "7H 7D 7C")


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def no_traceback(result: Result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# -- check --game: an inline card position ------------------------------------------------


def test_check_an_inline_card_turn() -> None:
    legal = run(
        "check", *RUMMY, "--after", "7H 7D 7C", "--after", "7S 8S 9S", "--after-discard", "KH"
    )
    assert legal.exit_code == 0, legal.output
    assert legal.output == "Legal turn.\nLaid: 7S 8S 9S (24 points)\nHand left: 2C (penalty 2)\n"
    # Melds separated by | in one --after, as for tiles; no discard: a rule broken, exit 1.
    missing = run("check", *RUMMY, "--after", "7H 7D 7C | 7S 8S 9S")
    assert missing.exit_code == 1
    assert "[discard-missing]" in missing.output
    # A lay-off on the table's set, and JSON as for a file.
    data = run(
        "check",
        "--game",
        "rummy",
        "--hand",
        "7S KH 2C",
        "--table",
        "7H 7D 7C",
        "--opened",
        "--after",
        "7H 7D 7C 7S",
        "--after-discard",
        "KH",
        "--json",
    )
    assert data.exit_code == 0, data.output
    verdict = json.loads(data.output)
    assert verdict["legal"] is True
    assert verdict["layoffs"] == [{"meld": 0, "cards": ["7S"]}]
    assert verdict["penalty"] == 2


def test_check_inline_a_contract_game_with_its_deal() -> None:
    hand = "7S 7H 7D 9C 9H 9D KS"
    args = ["check", "--game", "continental", "--deal", "1", "--hand", hand]
    result = run(*args, "--after", "7S 7H 7D", "--after", "9C 9H 9D", "--after-discard", "KS")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Legal turn.")
    wrong = run(*args, "--after", "7S 7H 7D", "--after-discard", "KS")
    assert wrong.exit_code == 1
    assert "[contract]" in wrong.output
    # Without the deal: the puzzle reader's message, exit 2.
    no_deal = run("check", "--game", "continental", "--hand", hand, "--after", "7S 7H 7D")
    assert no_deal.exit_code == 2
    assert "missing key 'deal'" in no_deal.output


def test_inline_card_check_errors_are_one_line_each() -> None:
    result = run(
        "check",
        "--game",
        "rummy",
        "--hand",
        "7S 8S 9X",
        "--table",
        "7H 7D 7C",
        "--after",
        "7H 7D 7Q",
        "--after-discard",
        "KX",
    )
    assert result.exit_code == 2
    no_traceback(result)
    # Every problem at once, each naming the option and quoting the text.
    assert result.output.splitlines() == [
        "Error: command line: hand \"7S 8S 9X\": invalid card '9X': unknown suit 'X' "
        "(expected one of S, H, D, C)",
        "command line: --after '7H 7D 7Q': invalid card '7Q': unknown suit 'Q' "
        "(expected one of S, H, D, C)",
        "command line: --after-discard \"KX\": invalid card 'KX': unknown suit 'X' "
        "(expected one of S, H, D, C)",
    ]
    two = run("check", *RUMMY, "--after", "7S 8S 9S", "--after-discard", "KH 2C")
    assert two.exit_code == 2
    assert "--after-discard \"KH 2C\": expected one card, such as 'KH'" in two.output
    nothing = run("check", *RUMMY)
    assert nothing.exit_code == 2
    assert "no proposed turn to check: give the new table with --after" in nothing.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--hand", "7S", "--after", "7S"], "needs both --game and --hand"),
        (["--game", "rummy", "--after", "7S"], "--game needs --hand"),
        (["--game", "rummy", "--hand", "7S", "--rack", "R1"], "--rack gives a tile position"),
        (["--game", "rummy", "--hand", "7S", "--position", "R1-3 / R4"], "--position gives"),
        (["--deal", "2", "--rack", "R1"], "--deal goes with an inline card position"),
        (["--game", "rummy", "--hand", "7S", str(CARDS / "rummy-01.toml")], "one of them"),
    ],
)
def test_card_check_usage_errors(args: list[str], words: str) -> None:
    result = run("check", *args)
    assert result.exit_code == 2
    assert words in result.output
    no_traceback(result)


def test_card_options_with_a_tile_puzzle_are_bad_input() -> None:
    tiles = str(REPO / "puzzles" / "basics" / "two-tiles-fit.toml")
    for flag in (["--after-discard", "KH"], ["--opened"], ["--game", "rummy"]):
        result = run("check", tiles, *flag)
        assert result.exit_code == 2, flag
        assert f"{flag[0]} goes with a card turn; a tile position has none" in result.output
    grade = run("check", str(CARDS / "continental-wild-trio.toml"), "--grade")
    assert grade.exit_code == 2
    assert "'rummikub solve' gives the best turn" in grade.output


def test_after_discard_replaces_the_files() -> None:
    path = str(CARDS / "rummy-01.toml")
    plain = run("check", path, "--json")
    assert plain.exit_code == 0, plain.output
    hand = run("check", path, "--after-discard", "AS")  # not in that hand
    assert hand.exit_code == 1
    assert "[not-in-hand]" in hand.output


def test_check_game_plays_a_card_file_as_another_game() -> None:
    path = str(CARDS / "rummy-01.toml")
    assert run("check", path).exit_code == 0
    # The same turn (39 points laid, 5H kept) in Rommé misses its 40 to open.
    romme = run("check", path, "--game", "romme")
    assert romme.exit_code == 1
    assert "[opening-points]" in romme.output
    assert run("check", path, "--game", "romme", "--opened").exit_code == 0


# -- stdin ---------------------------------------------------------------------------------


def test_a_card_puzzle_on_stdin_is_solved_as_cards() -> None:
    path = CARDS / "500-rum-take-five.toml"
    text = path.read_text(encoding="utf-8")
    from_file = run("solve", str(path), "--json")
    from_stdin = run("solve", "-", "--json", stdin=text)
    assert from_stdin.exit_code == 0, from_stdin.output
    one, two = json.loads(from_file.output), json.loads(from_stdin.output)
    assert two["puzzle"] == "-"
    for key in ("puzzle", "seconds"):
        one.pop(key), two.pop(key)
    assert one == two
    # JSON on stdin too, and --verify against its [expect].
    import tomllib

    as_json = json.dumps(tomllib.loads(text))
    verified = run("solve", "-", "--verify", stdin=as_json)
    assert verified.exit_code == 0, verified.output
    assert verified.output.endswith("1 puzzle: 1 as expected\n")


def test_a_tile_puzzle_and_a_position_on_stdin_stay_tiles() -> None:
    text = (REPO / "puzzles" / "basics" / "two-tiles-fit.toml").read_text(encoding="utf-8")
    assert "value 11" in run("solve", "-", stdin=text).output
    line = run("solve", "-", stdin="R1-3 / R4\n")
    assert line.exit_code == 0 and "R1 R2 R3 R4" in line.output
    assert run("check", "-", "--after", "R1-4", stdin="R1-3 / R4\n").exit_code == 0


def test_bad_card_input_on_stdin_is_reported_with_its_keys() -> None:
    result = run("solve", "-", stdin='game = "rummy"\nhand = "7S 8Q"\n')
    assert result.exit_code == 2
    assert result.output == (
        "Error: -: hand \"7S 8Q\": invalid card '8Q': unknown suit 'Q' "
        "(expected one of S, H, D, C)\n"
    )
    broken = run("solve", "-", stdin='game = "rummy"\nhand = \n')
    assert broken.exit_code == 2
    no_traceback(broken)


def test_check_a_card_puzzle_on_stdin() -> None:
    text = (CARDS / "continental-wild-trio.toml").read_text(encoding="utf-8")
    legal = run("check", "-", stdin=text)
    assert legal.exit_code == 0, legal.output
    assert legal.output.startswith("Legal turn.")
    wrong = run("check", "-", "--after", "7S 7H 7D", "--after", "AH * *", stdin=text)
    assert wrong.exit_code == 1
    assert "[contract]" in wrong.output


def test_analyse_refuses_a_card_puzzle_clearly(tmp_path: Path) -> None:
    path = str(CARDS / "500-rum-take-five.toml")
    for result in (
        run("analyse", path),
        run("analyse", "-", stdin=Path(path).read_text(encoding="utf-8")),
        run("analyse", path, "--svg", str(tmp_path / "x.svg")),
    ):
        assert result.exit_code == 2
        no_traceback(result)
        assert "a card puzzle (it has a 'game' key): analyse answers for tile positions" in (
            result.output
        )
        assert "'rummikub solve' gives a card puzzle's best turn" in result.output
    assert not (tmp_path / "x.svg").exists()


# -- help ----------------------------------------------------------------------------------


def test_help_names_the_card_games() -> None:
    assert CARD_GAMES == GAMES
    text = " ".join(run("--help").output.split())
    assert "rummy, 500-rum, romme, continental or california" in text
    assert all(game in text for game in GAMES)
    for command in ("solve", "check"):
        assert "[rummy|500-rum|romme|continental|california]" in run(command, "--help").output


def test_meld_texts_split_as_for_tiles() -> None:
    assert meld_texts(["7H 7D 7C | 5S 6S 7S", "AS 2S 3S; ", "set: 7S * *"]) == [
        "7H 7D 7C",
        "5S 6S 7S",
        "AS 2S 3S",
        "set: 7S * *",
    ]


def test_rule_options_apply_to_an_inline_card_check() -> None:
    args = ["check", "--game", "romme", "--hand", "6S 9H 10H 2C", "--table", "5S * 7S"]
    turn = ["--opened", "--after", "5S 6S 7S | 9H 10H *", "--after-discard", "2C"]
    swap = run(*args, *turn, "--rule", "wild_swap=true")
    assert swap.exit_code == 0, swap.output
    assert swap.output.startswith("Legal turn.\nLaid: 6S 9H 10H * (35 points)")
    refused = run(*args, *turn)  # Rommé's preset takes no joker back
    assert refused.exit_code == 1
    assert "[wild-swap]" in refused.output
    bad = run(*args, *turn, "--rule", "numbers=3")
    assert bad.exit_code == 2
    assert "unknown rule option 'numbers'" in bad.output
