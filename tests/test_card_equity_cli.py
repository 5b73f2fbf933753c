"""``rummikub analyse --equity`` on card positions and card game records."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from rummikub.cards.game.position_equity import equity, view_for
from rummikub.cards.game.record import dumps, loads
from rummikub.cards.game.review import equity_review
from rummikub.cards.game.simulate import play_game
from rummikub.cards.game.strategies import strategy
from rummikub.cards.puzzles import from_data
from rummikub.cards.rules import preset
from rummikub.cli import main
from rummikub.core.errors import RummikubError

HAND = "7S 8S 9S KH 2C 4D 4H 4C"
FAST = ["--playouts", "4", "--rounds", "1"]


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["analyse", *args])
    return result.exit_code, result.stdout, result.stderr


def test_an_inline_card_position_lists_its_candidates_best_first() -> None:
    code, out, _ = _run("--game", "rummy", "--hand", HAND, "--equity", *FAST)
    assert code == 0
    assert out.startswith("Game: rummy\nEquity (2 players, other hands 10, stock 34; 4 playouts")
    assert "Evaluation:" in out
    assert "lay 7S 8S 9S 4H 4D 4C, discard KH (best)" in out


def test_the_json_has_every_candidate_with_its_interval() -> None:
    code, out, _ = _run("--game", "rummy", "--hand", HAND, "--equity", "--json", *FAST)
    assert code == 0
    data = json.loads(out)
    assert data["puzzle"] is None and data["game"] == "rummy"
    found = data["equity"]
    wins = [c["win"] for c in found["candidates"]]
    assert wins == sorted(wins, reverse=True)
    assert found["win"] == wins[0]
    for c in found["candidates"]:
        assert c["ci"][0] <= c["win"] <= c["ci"][1]
        assert c["playouts"] == 4
    assert found["hand_counts"] == [8, 10] and found["playouts"] == 4


def test_the_same_seed_gives_the_same_bytes() -> None:
    args = ["--game", "rummy", "--hand", HAND, "--equity", "--json", "--seed", "7", *FAST]
    assert _run(*args)[1] == _run(*args)[1]
    assert json.loads(_run(*args)[1])["equity"]["seed"] == 7


def test_a_card_puzzle_file_with_equity() -> None:
    code, out, _ = _run("puzzles/cards/500-rum-01.toml", "--equity", "--json", *FAST)
    assert code == 0
    data = json.loads(out)
    assert data["puzzle"] == "puzzles/cards/500-rum-01.toml"
    best = data["equity"]["candidates"][0]
    assert best["label"] == "best" and best["discard"] is None and best["win"] == 1.0


def test_a_position_before_the_draw_weighs_the_draws() -> None:
    position = from_data(
        {"game": "500-rum", "hand": "7S 8S 9S KH 2C 4D 4H", "discard": "5D 10S", "drawn": False},
        "x",
    ).position
    found = equity(position, playouts=3, rounds=1)
    labels = [c.label for c in found.candidates]
    assert "stock" in labels and any(label.startswith("pile") for label in labels)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "rummy", "--hand", HAND], "with --equity"),
        (["--hand", HAND, "--equity"], "both --game and --hand"),
        (["--game", "rummy", "--hand", "7S ZZ", "--equity"], "invalid card 'ZZ'"),
        (["--game", "rummy", "--hand", HAND, "--equity", "--rack-sizes", "45"], "out of sight"),
        (["--game", "rummy", "--hand", HAND, "--rack", "R1", "--equity"], "--rack gives a tile"),
        (["puzzles/cards/500-rum-01.toml"], "with --equity only"),
    ],
)
def test_bad_card_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, _, err = _run(*args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_view_for_refuses_hands_that_do_not_fit() -> None:
    position = from_data({"game": "rummy", "hand": HAND}, "x").position
    assert view_for(position, players=3).counts == (8, 7, 7)
    with pytest.raises(RummikubError, match="2 other hand"):
        view_for(position, players=3, hand_sizes=(5,))


def _record(tmp_path: Path, turns: int = 6) -> Path:
    record, _ = play_game(preset("rummy"), [strategy("best"), strategy("casual")], 3)
    first = record.hands[0]
    short = record.with_hands([replace(first, turns=first.turns[:turns], scores=None)])
    path = tmp_path / "game.toml"
    path.write_text(dumps(short))
    return path


def test_a_card_record_is_reviewed_turn_by_turn(tmp_path: Path) -> None:
    path = _record(tmp_path)
    code, out, _ = _run(str(path), "--equity")
    assert code == 0
    assert "equity review (rummy): 6 turns" in out
    assert "Players:" in out and "luck" in out
    code, out, _ = _run(str(path), "--equity", "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "rummy" and len(data["turns"]) == 6
    for turn in data["turns"]:
        assert turn["mark"] in (None, "?!", "?", "??")
        if turn["graded"]:
            assert turn["lost"] >= 0 and turn["win"] is not None
    assert any(turn["luck"] is not None for turn in data["turns"])
    assert [line["player"] for line in data["players"]] == ["P1", "P2"]


def test_a_review_is_the_same_twice_and_stops_at_a_bad_turn(tmp_path: Path) -> None:
    path = _record(tmp_path, 4)
    record = loads(path.read_text())
    first = equity_review(record, "g").to_data()
    assert first == equity_review(record, "g").to_data()
    hand = record.hands[0]
    bad = replace(hand.turns[1], discard=hand.turns[0].discard)
    broken = record.with_hands([replace(hand, turns=(hand.turns[0], bad, *hand.turns[2:]))])
    path.write_text(dumps(broken))
    code, out, _ = _run(str(path), "--equity")
    assert code == 1
    assert "The replay stopped" in out


def test_a_card_record_without_equity_keeps_its_message(tmp_path: Path) -> None:
    code, _, err = _run(str(_record(tmp_path)))
    assert code == 2
    assert "a card game record, not a puzzle" in err


def test_a_review_finds_the_state_before_every_turn_of_every_hand() -> None:
    from rummikub.cards.game import engine
    from rummikub.cards.game.review import _played_turns

    record, _ = play_game(preset("rummy"), [strategy("best"), strategy("casual")], 3)
    assert len(record.hands) > 1
    played = _played_turns(record, engine.replay(record).states)
    assert len(played) == sum(len(hand.turns) for hand in record.hands)
    expected = [(h, t) for h, hand in enumerate(record.hands) for t in range(len(hand.turns))]
    assert [(state.hand, state.turns) for state, _ in played] == expected
    for state, turn in played:
        engine.advance(state, turn)  # each turn applies to the state found before it


def test_a_card_record_review_takes_no_position_options(tmp_path: Path) -> None:
    code, _, err = _run(str(_record(tmp_path, 2)), "--equity", "--playouts", "3")
    assert code == 2
    assert "--playouts is an option of a position's --equity" in err
