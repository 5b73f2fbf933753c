"""The card puzzles (``puzzles/cards``) and the card command line: every file valid, every
answer verified by the solver and re-established without it, and the commands as a user
runs them."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rummikub.cards.puzzles import load
from rummikub.cards.rules import GAMES
from rummikub.cli import main
from tests.tools import run_without_ortools

REPO = Path(__file__).resolve().parent.parent
CARDS = REPO / "puzzles" / "cards"
FILES = sorted(CARDS.glob("*.toml"))
NAMED = (
    "continental-deal-7-wild-aces",
    "500-rum-take-five",
    "romme-out-at-once-with-39",
    "rummy-not-round-the-corner",
    "continental-wild-trio",
)


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def test_ten_puzzles_per_preset_and_the_named_five() -> None:
    games = Counter(load(str(p)).position.rules.game for p in FILES)
    assert set(games) == set(GAMES) and min(games.values()) >= 10, games
    assert {p.stem for p in FILES} >= set(NAMED)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_card_puzzle_has_title_description_expect_and_a_best_after(path: Path) -> None:
    puzzle = load(str(path))
    assert puzzle.title and puzzle.description and puzzle.expect is not None
    result = run("check", str(path), "--json")
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.stdout)
    assert verdict["legal"] and verdict["violations"] == []
    expect = puzzle.expect
    assert expect.penalty == verdict["penalty"]
    assert expect.points in (None, verdict["points"])


def test_solve_verify_passes_on_the_card_puzzles() -> None:
    result = run("solve", "--verify", "--json", str(CARDS))
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(FILES)
    assert all(a["status"] in ("optimal", "no_move") for a in answers)


def test_solve_verify_counts_the_card_puzzles_as_expected() -> None:
    """The closing tally counts every card puzzle's [expect] (it said "with no [expect]")."""
    result = run("solve", "--verify", str(CARDS))
    assert result.exit_code == 0, result.output
    tally = result.output.strip().splitlines()[-1]
    assert tally == f"{len(FILES)} puzzles: {len(FILES)} as expected"


def test_a_wrong_card_expect_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "cards"
    shutil.copytree(CARDS, folder)
    wrong = folder / "500-rum-take-five.toml"
    wrong.write_text(wrong.read_text().replace("points = 51", "points = 50"))
    result = run("solve", "--verify", "--json", str(folder))
    assert result.exit_code == 1
    assert result.stderr == (
        f"Mismatch: {wrong}: expected 50 points, penalty 7, got 51 points, penalty 7\n"
    )


def test_every_card_answer_is_established_without_ortools() -> None:
    lines = run_without_ortools("verify_cards", CARDS)
    assert lines[-1] == f"{len(FILES)} card answers established by exhaustive search, 0 not."


# -- the command line -------------------------------------------------------------------------


def test_solve_a_card_puzzle_as_text() -> None:
    result = run("solve", str(CARDS / "500-rum-take-five.toml"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1:9] == [
        "Game: 500-rum",
        "Draw: 5 cards from the discard pile (8H KS KD 3D 4S); 8H must be laid this turn",
        "New table (* = new or changed):",
        "  * 6H 7H 8H",
        "  * KS KD KC",
        "Laid: KS 6H 7H 8H KD KC (51 points)",
        "Discard: 2C",
        "Hand left: 4S 3D (penalty 7)",
    ]
    assert lines[9] == "Proven optimal (points objective)."


def test_solve_inline_card_position_as_json() -> None:
    result = run(
        "solve",
        "--game",
        "rummy",
        "--hand",
        "7S 8S 9S KH 2C",
        "--table",
        "7H 7D 7C",
        "--json",
        "--explain",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    del data["seconds"]
    assert data == {
        "puzzle": None,
        "game": "rummy",
        "status": "optimal",
        "points": 24,
        "penalty": 2,
        "draw": None,
        "discard": "KH",
        "played": ["7S", "8S", "9S"],
        "hand": ["2C"],
        "table": [
            {"kind": "set", "cards": ["7H", "7D", "7C"]},
            {"kind": "run", "cards": ["7S", "8S", "9S"]},
        ],
        "layoffs": [],
        "steps": [{"cards": ["7S", "8S", "9S"], "from": "hand", "to": "new"}],
    }


def test_inline_card_positions_need_game_and_hand() -> None:
    result = run("solve", "--hand", "7S 8S 9S")
    assert result.exit_code == 2
    assert "needs both --game and --hand" in result.output
    result = run("solve", "--game", "continental", "--hand", "7S 8S 9S 7X")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "Error: command line: missing key 'deal' (1-7): continental needs the deal for its "
        "contract",
        "command line: hand \"7S 8S 9S 7X\": invalid card '7X': unknown suit 'X' "
        "(expected one of S, H, D, C)",
    ]


def test_check_a_card_turn(tmp_path: Path) -> None:
    puzzle = tmp_path / "p.toml"
    puzzle.write_text(
        'game = "500-rum"\nhand = "7S 8S 4C"\ndiscard = ["KH", "9S", "2D"]\ndrawn = false\n'
        'after = ["7S 8S 9S"]\nafter_draw = 1\n'
    )
    result = run("check", str(puzzle))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "Illegal turn: 1 rule broken.",
        "  - the turn ends with a discard [discard-missing]",
        "Laid: 7S 8S 9S (24 points)",
        "Hand left: 2D 4C (penalty 6)",
    ]
    result = run("check", str(puzzle), "--after", "7S 8S 9S 10S", "--json")
    assert result.exit_code == 1
    verdict = json.loads(result.stdout)
    assert [v["rule"] for v in verdict["violations"]] == ["not-in-hand", "discard-missing"]
    assert verdict["violations"][0] == {
        "rule": "not-in-hand",
        "meld": None,
        "card": "10S",
        "text": "10S is not in your hand",
    }
    # 2D came from the pile this turn: it may not go back.
    result = run("check", str(puzzle), "--json")
    assert [v["rule"] for v in json.loads(result.stdout)["violations"]] == ["discard-missing"]
    puzzle.write_text(puzzle.read_text() + 'after_discard = "2D"\n')
    result = run("check", str(puzzle), "--json")
    assert [v["rule"] for v in json.loads(result.stdout)["violations"]] == ["discard-taken-card"]
    puzzle.write_text(puzzle.read_text().replace('"2D"\n', '"4C"\n'))
    result = run("check", str(puzzle))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Legal turn.\n")


def test_bad_card_input_is_exit_2_without_traceback(tmp_path: Path) -> None:
    puzzle = tmp_path / "p.toml"
    puzzle.write_text('game = "rummy"\nhand = "7S"\nafter = ["7S 8S"]\n')
    result = run("check", str(puzzle), "--after", "7S 8Q")
    assert result.exit_code == 2
    assert "--after '7S 8Q': invalid card '8Q'" in result.output
    assert "Traceback" not in result.output


def test_a_wild_swap_at_the_command_line() -> None:
    path = str(CARDS / "romme-wild-swap.toml")
    result = run("solve", path, "--json", "--explain")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["swaps"] == [{"meld": 0, "card": "6S", "wild": "*"}]
    assert data["layoffs"] == [{"meld": 0, "cards": ["6S"]}]
    # The joker goes back to the hand, from where the new meld takes it.
    assert data["steps"] == [
        {"cards": ["6S"], "from": "hand", "to": 0},
        {"cards": ["*"], "from": 0, "to": "hand"},
        {"cards": ["9H", "10H", "*"], "from": "hand", "to": "new"},
    ]
    text = run("solve", path, "--explain").stdout.splitlines()
    assert "  * 5S 6S 7S   6S takes the wild card * back" in text
    assert "Swap: 6S takes the wild card * from meld 0" in text
    result = run("check", path, "--after", "5S 6S 7S", "--json")
    assert result.exit_code == 1
    verdict = json.loads(result.stdout)
    assert verdict["swaps"] == [{"meld": 0, "card": "6S", "wild": "*"}]
    assert [v["rule"] for v in verdict["violations"]] == ["freed-wild-unused"]


def test_game_and_rule_options_over_a_card_puzzle_file(tmp_path: Path) -> None:
    swap = str(CARDS / "romme-wild-swap.toml")
    # --rule sets a card option over the file's [rules], for solve and check alike.
    data = json.loads(run("solve", swap, "--json", "--rule", "wild_swap=false").stdout)
    assert (data["penalty"], "swaps" in data) == (17, False)
    result = run("check", swap, "--json", "--rule", "wild_swap=false")
    assert result.exit_code == 1
    assert [v["rule"] for v in json.loads(result.stdout)["violations"]] == ["wild-swap"]
    # --game plays the file as another game; its [rules] still apply.
    data = json.loads(
        run("solve", str(CARDS / "rummy-03.toml"), "--game", "romme", "--json").stdout
    )
    assert data["game"] == "romme"
    # Inline positions take --rule too.
    inline = ("solve", "--game", "romme", "--hand", "6S 9H 10H 2C", "--table", "5S * 7S")
    data = json.loads(run(*inline, "--opened", "--rule", "wild_swap=true", "--json").stdout)
    assert data["swaps"] == [{"meld": 0, "card": "6S", "wild": "*"}]
    # Refused clearly: a bad card option (named with the file), a tile rule set for a card
    # puzzle, --game for a tile puzzle, --game with nothing to play.
    result = run("solve", swap, "--rule", "wild_swap=maybe")
    assert result.exit_code == 2
    assert result.stderr == f"Error: {swap}: rules: wild_swap='maybe' must be true or false\n"
    result = run("solve", swap, "--rules", "boxed")
    assert result.exit_code == 2 and "--rules boxed is a tile rule set" in result.stderr
    tile = tmp_path / "tile.toml"
    tile.write_text('rack = "R1 R2 R3"\n')
    result = run("solve", str(tile), "--game", "romme")
    assert result.exit_code == 2
    assert "--game plays card puzzles as another game; a tile puzzle has none" in result.stderr
    result = run("solve", "--game", "romme")
    assert result.exit_code == 2 and "--game needs --hand" in result.output
    result = run("solve", swap, "--rule", "no_such=1")
    assert result.exit_code == 2 and "unknown rule option 'no_such'" in result.output
