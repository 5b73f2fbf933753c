"""``rummikub game`` and ``rummikub simulate`` through the command line."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from rummikub.cli import main
from rummikub.cli.game import game
from rummikub.tiles.game import Play, dumps, load_record, loads
from rummikub.tiles.melds import RawMeld
from tests.tools import run

SMALL = ["--rule", "numbers=8", "--rule", "colors=KRB", "--rule", "jokers=1"]


def test_every_game_command_has_help() -> None:
    for name, command in game.commands.items():
        code, out, _ = run("game", name, "--help")
        assert code == 0 and "Usage:" in out and command.help
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"game {name} {param.opts}"
    assert sorted(game.commands) == ["annotate", "apply", "hint", "new", "replay", "show", "undo"]
    assert run("simulate", "--help")[0] == 0


def test_a_dealt_game_turn_by_turn(tmp_path: Path) -> None:
    path = str(tmp_path / "g.toml")
    code, out, _ = run("game", "new", path, "--players", "Ann,Bob", "--seed", "7")
    assert code == 0 and "Turn 1: Ann to move (not opened yet); pool 78 tiles." in out
    assert run("game", "new", path, "--seed", "7")[0] == 2  # never overwritten by accident
    code, out, _ = run("game", "hint", path)
    assert code == 0 and "Turn 1: Ann to move." in out
    code, out, _ = run("game", "apply", path, "--draw")
    record = load_record(path)
    drawn = record.deal.pool[0]  # type: ignore[index]
    assert code == 0 and f"Turn 1: Ann drew {drawn}." in out
    code, out, err = run("game", "apply", path, "--pass")
    assert code == 1 and "Turn 2 (Bob) is illegal: 1 rule broken." in err
    assert "draw instead of passing" in err
    assert load_record(path) == record  # the refused turn left the record as it was
    code, out, _ = run("game", "replay", path)
    assert code == 0 and f"1. Ann: drew {drawn}" in out and "All 1 turns are legal." in out
    code, out, _ = run("game", "show", path, "--json")
    data = json.loads(out)
    assert data["to_move"] == 1 and data["rack_counts"] == [15, 14] and data["pool"] == 77
    code, out, _ = run("game", "undo", path)
    assert code == 0 and "Removed turn 1." in out
    assert load_record(path).turns == ()


def test_apply_play_lets_the_solver_lay_the_tiles(tmp_path: Path) -> None:
    path = str(tmp_path / "g.toml")
    rack = "K1 K2 K3 R4 R5 R6 B7 B8 J"
    args = ("--players", "Me,You", "--rack", rack, "--rack-size", "9", *SMALL)
    assert run("game", "new", path, *args, "--rule", "initial_meld=6")[0] == 0
    code, out, _ = run("game", "apply", path, "--play", "K1 K2 K3")
    assert code == 0 and "Turn 1: Me played K1 K2 K3." in out
    code, out, _ = run("game", "apply", path, "--table", "K1 K2 K3", "--table", "B4 B5 B6")
    assert code == 0 and "Turn 2: You played B4 B5 B6." in out
    code, _, err = run("game", "apply", path, "--play", "R4 B8")
    assert code == 2 and "cannot all be laid" in err
    code, _, err = run("game", "apply", path, "--play", "R9")
    assert code == 2
    code, out, _ = run("game", "apply", path, "--play", "B7 B8")
    assert code == 0 and "B4 B5 B6 B7 B8" in out
    code, _, err = run("game", "hint", path)
    assert code == 2 and "You's turn, and their rack is not known" in err
    assert run("game", "apply", path, "--draw")[0] == 0  # an unknown tile for You
    code, out, _ = run("game", "hint", path, "--json")
    assert code == 0 and json.loads(out)["played"] == ["R4", "R5", "R6", "J"]


def test_replay_reports_an_illegal_turn_with_its_number_and_rules(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    assert run("game", "new", str(path), "--seed", "3")[0] == 0
    assert run("game", "apply", str(path), "--draw")[0] == 0
    record = load_record(path)
    bad = record.with_turns((*record.turns, Play((RawMeld.parse("K1 K2 K4"),))))
    path.write_text(dumps(bad))
    code, out, _ = run("game", "replay", str(path))
    assert code == 1
    assert "Turn 2 (P2) is illegal" in out and 'meld 1 "K1 K2 K4": not a run' in out
    code, out, _ = run("game", "replay", str(path), "--json")
    data = json.loads(out)
    assert data["legal"] is False and data["error"]["turn"] == 2
    code, out, err = run("game", "show", str(path))
    assert code == 1 and "Turn 2: P2 to move" in out and "turn 2 (P2)" in err
    code, _, err = run("game", "apply", str(path), "--draw")
    assert code == 2 and "game undo" in err
    assert run("game", "undo", str(path))[0] == 0
    assert run("game", "replay", str(path))[0] == 0


def test_a_record_that_is_not_a_record_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    path.write_text("players = 3\n")
    code, _, err = run("game", "show", str(path))
    assert code == 2 and "players: expected a list of 2-4 names" in err
    assert "Traceback" not in err
    code, _, err = run("game", "show", str(tmp_path / "missing.toml"))
    assert code == 2 and "no such file" in err
    code, _, err = run("game", "new", str(tmp_path / "no" / "g.toml"), "--seed", "1")
    assert code == 2 and "cannot write: No such file or directory" in err


def test_a_finished_hand_shows_the_scores(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    text = (
        'format = "rummikub-game/1"\nplayers = ["Ann", "Bob"]\nrack_size = 3\n'
        '[rules]\nnumbers = 3\ncolors = "KR"\ncopies = 1\njokers = 0\ninitial_meld = 0\n'
        '[deal]\nracks = ["K1 K2 K3", "R1 R2 R3"]\npool = ""\n'
    )
    path.write_text(text)
    code, out, _ = run("game", "apply", str(path), "--play", "K1 K2 K3")
    assert code == 0 and "The hand is over: Ann went out. Scores: Ann +6, Bob -6." in out
    result = loads(path.read_text()).result
    assert result is not None and result.scores == (6, -6)
    assert run("game", "replay", str(path))[0] == 0
    path.write_text(path.read_text().replace("scores = [6, -6]", "scores = [60, -60]"))
    code, out, _ = run("game", "replay", str(path))
    assert code == 1 and "the record says went_out, winners [0], scores [60, -60]" in out


# -- simulate -----------------------------------------------------------------------------

FAST = [
    "--rule",
    "numbers=6",
    "--rule",
    "colors=KRB",
    "--rule",
    "jokers=1",
    "--rule",
    "initial_meld=6",
]
SIM = ["--games", "2", "--players", "2", "--rack-size", "5", *FAST, "--workers", "1"]


def test_simulate_reports_json_csv_and_is_seeded(tmp_path: Path) -> None:
    csv = tmp_path / "s.csv"
    code, out, err = run("simulate", *SIM, "--strategy", "best,casual", "--json", "--csv", str(csv))
    assert code == 0, err
    data = json.loads(out)
    assert [line["name"] for line in data["by_strategy"]] == ["best", "casual"]
    assert [line["games"] for line in data["by_seat"]] == [2, 2]
    assert sum(line["wins"] for line in data["by_seat"]) == pytest.approx(2)
    assert data["turns"]["min"] <= data["turns"]["mean"] <= data["turns"]["max"]
    assert 0 <= data["pool_exhausted"]["rate"] <= 1
    rows = csv.read_text().splitlines()
    assert rows[0].startswith("group,name,games,wins,win_rate") and len(rows) == 5
    again = run("simulate", *SIM, "--strategy", "best,casual", "--json")[1]
    assert again == out


def test_simulate_rejects_an_unknown_strategy() -> None:
    code, _, err = run("simulate", *SIM, "--strategy", "best,wild")
    assert code == 2 and "unknown strategy 'wild'" in err


def test_simulate_draws_a_chart(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the chart needs the [chart] extra (matplotlib)")
    chart = tmp_path / "s.png"
    code, _, err = run("simulate", *SIM, "--chart", str(chart))
    assert code == 0, err
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_the_readme_game_example_runs_as_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = (Path(__file__).parent.parent / "docs" / "players.md").read_text()
    block = readme.split("## Whole games", 1)[1].split("```console\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    steps = [s for s in block.split("$ rummikub ") if s.strip()]
    assert len(steps) == 5
    for step in steps:
        command, *expected = step.rstrip("\n").split("\n")
        result = CliRunner().invoke(main, shlex.split(command))
        printed = (result.stdout + result.stderr).rstrip("\n").split("\n")
        if "..." in expected:
            expected = expected[: expected.index("...")]
            printed = printed[: len(expected)]
        assert printed == expected, command
