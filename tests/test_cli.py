"""The command line through click's CliRunner: exit codes, exact output, JSON schema."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

import rummikub.tiles.solver
from rummikub.cli import main, render
from rummikub.cli import solve as solve_module  # the module: see rummikub/cli/__init__.py
from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Position
from rummikub.tiles.puzzles import SUFFIXES
from rummikub.tiles.solver.result import SolveResult

REPO = Path(__file__).resolve().parent.parent
BASICS = REPO / "puzzles" / "basics"
TWO_TILES = str(BASICS / "two-tiles-fit.toml")
NOTHING_FITS = str(BASICS / "nothing-fits.toml")
FIRST_MELD = str(BASICS / "first-meld.json")
SOLVE_KEYS = ["puzzle", "status", "value", "tiles", "played", "rack", "table", "seconds", "changed"]


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_clean_exit(result: Result, code: int) -> None:
    """The exit code, and no traceback: any exception is click's own exit."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output


def json_lines(result: Result) -> list[dict[str, Any]]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def multisets(table: list[dict[str, Any]]) -> Counter[tuple[str, tuple[str, ...]]]:
    return Counter((m["kind"], tuple(sorted(m["tiles"]))) for m in table)


def write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


# -- help -------------------------------------------------------------------------------


def test_every_command_has_help() -> None:
    assert main.help
    for name, command in main.commands.items():
        assert command.help, name
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.help, f"{name} {param.opts}"
        result = run(name, "--help")
        assert_clean_exit(result, 0)
        assert result.stdout.startswith(f"Usage: main {name} [OPTIONS]")
    assert_clean_exit(run("--help"), 0)
    assert sorted(main.commands) == [
        "analyse",
        "check",
        "duel",
        "game",
        "ladder",
        "play",
        "serve",
        "simulate",
        "solve",
    ]


def test_help_and_check_do_not_load_ortools() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from rummikub.cli import main\n"
        "assert CliRunner().invoke(main, ['--help']).exit_code == 0\n"
        f"result = CliRunner().invoke(main, ['check', {TWO_TILES!r}])\n"
        "assert result.exit_code == 0, result.output\n"
        "assert not any(m.startswith('ortools') for m in sys.modules), 'ortools loaded'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


def test_python_dash_m() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummikub", "--help"], capture_output=True, text=True, cwd=REPO
    )
    assert done.returncode == 0
    assert done.stdout.startswith("Usage: rummikub [OPTIONS] COMMAND")


def test_usage_errors_exit_2() -> None:
    for args in (
        ["solve"],
        ["solve", TWO_TILES, "--rack", "R4"],
        ["solve", TWO_TILES, "--objective", "fun"],
        ["solve", TWO_TILES, "--rules", "modern"],
        ["solve", TWO_TILES, "--rule", "initial_meld"],
        ["solve", TWO_TILES, "--rule", "initial_meld=-1"],
        ["solve", TWO_TILES, "--time-limit", "0"],
        ["check"],
        ["check", TWO_TILES, "--bogus"],
        ["nonsense"],
    ):
        result = run(*args)
        assert_clean_exit(result, 2)
        assert "Error:" in result.stderr, args


def test_bad_rule_option_message() -> None:
    result = run("solve", TWO_TILES, "--rule", "initial_meld=-1")
    assert (
        "Error: Invalid value for '--rule': initial_meld=-1 must be in the range 0-1000"
        in result.stderr
    )


# -- check ------------------------------------------------------------------------------


def test_check_legal_move_from_the_file() -> None:
    result = run("check", TWO_TILES)
    assert_clean_exit(result, 0)
    lines = result.stdout.splitlines()
    assert lines[0] == "Legal move."
    assert lines[1] in (
        "Played: R4 O7 (2 tiles, value 11)",
        "Played: O7 R4 (2 tiles, value 11)",
    )
    assert len(lines) == 2


def test_check_json_has_exactly_the_keys() -> None:
    result = run("check", TWO_TILES, "--json")
    assert_clean_exit(result, 0)
    data = json.loads(result.stdout)
    assert list(data) == ["legal", "errors", "value", "played", "violations"]
    assert data["legal"] is True
    assert data["errors"] == data["violations"] == []
    assert data["value"] == 11
    assert sorted(data["played"]) == ["O7", "R4"]


def test_check_illegal_move_lists_every_broken_rule() -> None:
    # The locked joker's run B9 B10 J vanished: tiles of the table are not conserved.
    args = ["check", TWO_TILES, "--after", "R1 R2 R3 R4", "--after", "K7 R7 B7 O7"]
    result = run(*args, "--json")
    assert_clean_exit(result, 1)
    data = json.loads(result.stdout)
    assert data["legal"] is False
    # The run "B9 B10 J" (meld 2 of the old table) is gone: each tile is missing, and its
    # joker was moved without a replacement.
    assert [(v["rule"], v["meld"], v["tile"]) for v in data["violations"]] == [
        ("table-tile-missing", None, "B9"),
        ("table-tile-missing", None, "B10"),
        ("table-tile-missing", None, "J"),
        ("joker-not-replaced", 2, None),
    ]
    assert data["errors"] == [v["text"] for v in data["violations"]]

    human = run(*args)
    assert_clean_exit(human, 1)
    count = len(data["errors"])
    expected = [f"Illegal move: {count} rule{'' if count == 1 else 's'} broken."]
    expected += [f"  - {error}" for error in data["errors"]]
    assert human.stdout.splitlines()[: count + 1] == expected
    assert human.stdout.splitlines()[-1].startswith("Played: ")


def test_check_an_invalid_meld_in_after_is_a_broken_rule_not_bad_input(tmp_path: Path) -> None:
    puzzle = write(
        tmp_path / "p.toml",
        'rack = "R4 K7"\ntable = ["R1 R2 R3"]\nafter = ["R1 R2 R3 R4", "K7"]\n',
    )
    result = run("check", puzzle, "--json")
    assert_clean_exit(result, 1)
    assert json.loads(result.stdout)["legal"] is False


def test_check_rules_options_change_the_verdict(tmp_path: Path) -> None:
    # Not opened: 6 points of hand-only melds fall short of 30, but not of 0.
    puzzle = write(tmp_path / "p.toml", 'rack = "R1 R2 R3"\nopened = false\n')
    after = ["--after", "R1 R2 R3"]
    assert_clean_exit(run("check", puzzle, *after), 1)
    assert_clean_exit(run("check", puzzle, *after, "--rule", "initial_meld=6"), 0)


def test_check_bad_input_exits_2_with_a_message(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.toml")
    result = run("check", missing)
    assert_clean_exit(result, 2)
    assert result.stderr == f"Error: {missing}: no such file\n"

    broken = write(tmp_path / "p.toml", 'rack = "Q5"\ntable = ["R5 R6 R8"]\n')
    result = run("check", broken, "--after", "R5 R6 R8")
    assert_clean_exit(result, 2)
    assert result.stderr == (
        f"Error: {broken}: rack \"Q5\": invalid tile 'Q5': unknown color 'Q' "
        "(expected one of K, R, B, O)\n"
        f'{broken}: table[0] "R5 R6 R8": not a run (no 7) and not a group\n'
    )

    result = run("check", TWO_TILES, "--after", "R1 X")
    assert_clean_exit(result, 2)
    assert result.stderr == (
        "Error: --after 'R1 X': column 4 ('X'): invalid tile 'X': "
        "expected a color letter and a number (e.g. R7) or J\n"
    )

    no_after = write(tmp_path / "q.toml", 'rack = "R4"\n')
    result = run("check", no_after)
    assert_clean_exit(result, 2)
    assert "no proposed table to check" in result.stderr


# -- solve: one puzzle ---------------------------------------------------------------------


def test_solve_json_schema() -> None:
    result = run("solve", TWO_TILES, "--json")
    assert_clean_exit(result, 0)
    [data] = json_lines(result)
    assert list(data) == SOLVE_KEYS
    assert data["puzzle"] == TWO_TILES
    assert data["status"] == "optimal"
    assert (data["value"], data["tiles"]) == (11, 2)
    assert sorted(data["played"]) == ["O7", "R4"]
    assert data["rack"] == ["K7"]
    assert multisets(data["table"]) == multisets(
        [
            {"kind": "run", "tiles": ["R1", "R2", "R3", "R4"]},
            {"kind": "group", "tiles": ["K7", "R7", "B7", "O7"]},
            {"kind": "run", "tiles": ["B9", "B10", "J"]},
        ]
    )
    assert all(list(meld) == ["kind", "tiles"] for meld in data["table"])
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0


def test_solve_human_output_marks_new_and_changed_melds() -> None:
    result = run("solve", TWO_TILES)
    assert_clean_exit(result, 0)
    lines = result.stdout.splitlines()
    assert lines[0] == f"{TWO_TILES} - Two tiles fit"
    assert lines[1] == "New table (* = new or changed):"
    # The order of tiles in a group is the solver's; the marks are what is tested here.
    melds = {line[4:]: line[:4] for line in lines[2:5]}
    assert melds.pop("B9 B10 J") == "    "
    assert melds.pop("R1 R2 R3 R4") == "  * "
    [(group, mark)] = melds.items()
    assert sorted(group.split()) == ["B7", "K7", "O7", "R7"] and mark == "  * "
    assert lines[5] in ("Played: R4 O7 (2 tiles, value 11)", "Played: O7 R4 (2 tiles, value 11)")
    assert lines[6] == "Rack left: K7"
    assert lines[7] == "Proven optimal (value objective)."
    assert lines[8].startswith("Time: ") and lines[8].endswith(" s")
    assert len(lines) == 9


def test_solve_no_move_exits_0() -> None:
    result = run("solve", NOTHING_FITS, "--json")
    assert_clean_exit(result, 0)
    [data] = json_lines(result)
    assert (data["status"], data["value"], data["tiles"], data["played"]) == ("no_move", 0, 0, [])
    assert data["table"] == [{"kind": "run", "tiles": ["B5", "B6", "B7"]}]
    assert sorted(data["rack"]) == ["K1", "R13"]

    human = run("solve", NOTHING_FITS)
    assert_clean_exit(human, 0)
    lines = human.stdout.splitlines()
    assert lines[0] == f"{NOTHING_FITS} - Nothing fits"
    assert lines[1] == "No move: no legal move exists, so draw a tile (proven)."
    assert lines[2].startswith("Time: ")


def test_solve_inline_position() -> None:
    args = ["solve", "--rack", "R4 K7 O7", "--table", "R1 R2 R3", "--table", "K7 R7 B7"]
    result = run(*args, "--table", "B9 B10 J", "--json")
    assert_clean_exit(result, 0)
    [data] = json_lines(result)
    assert data["puzzle"] is None
    assert (data["value"], data["tiles"]) == (11, 2)
    human = run(*args)
    assert_clean_exit(human, 0)
    assert human.stdout.startswith("New table (* = new or changed):\n")


def test_solve_inline_not_opened_and_objective() -> None:
    args = ["solve", "--rack", "R10 R11 R12 K1", "--table", "B1 B2 B3", "--json"]
    [opened] = json_lines(run(*args, "--rule", "initial_meld=40"))
    [not_opened] = json_lines(run(*args, "--not-opened"))
    [short] = json_lines(run(*args, "--not-opened", "--rule", "initial_meld=40"))
    assert (opened["value"], opened["tiles"]) == (33, 3)
    assert (not_opened["value"], not_opened["tiles"]) == (33, 3)
    assert short["status"] == "no_move"
    [by_tiles] = json_lines(run(*args, "--objective", "tiles"))
    assert by_tiles["tiles"] == 3


def test_solve_inline_bad_input() -> None:
    result = run("solve", "--rack", "R4 Q5", "--table", "R5 R6 R8")
    assert_clean_exit(result, 2)
    assert result.stdout == ""
    assert result.stderr == (
        "Error: command line: rack \"R4 Q5\": invalid tile 'Q5': unknown color 'Q' "
        "(expected one of K, R, B, O)\n"
        'command line: table[0] "R5 R6 R8": not a run (no 7) and not a group\n'
    )


def test_solve_rules_preset_is_applied(tmp_path: Path) -> None:
    # Not opened, boxed rules: the initial meld is the whole move, so R4 cannot also go on.
    puzzle = write(
        tmp_path / "p.toml",
        'rack = "R10 R11 R12 R4"\ntable = ["R1 R2 R3"]\nopened = false\n',
    )
    [standard] = json_lines(run("solve", puzzle, "--json"))
    [boxed] = json_lines(run("solve", puzzle, "--json", "--rules", "boxed"))
    assert (standard["value"], standard["tiles"]) == (37, 4)
    assert (boxed["value"], boxed["tiles"]) == (33, 3)


# -- solve: many puzzles, verify, exit codes ------------------------------------------------


def test_solve_folder_and_verify(tmp_path: Path) -> None:
    folder = tmp_path / "basics"
    folder.mkdir()
    for original in (TWO_TILES, FIRST_MELD, NOTHING_FITS):  # not in sorted order
        shutil.copy(original, folder)
    result = run("solve", str(folder), "--json", "--verify")
    assert_clean_exit(result, 0)
    assert [d["puzzle"] for d in json_lines(result)] == [
        str(folder / "first-meld.json"),
        str(folder / "nothing-fits.toml"),
        str(folder / "two-tiles-fit.toml"),
    ]
    assert result.stderr == ""


def test_verify_mismatch_exits_1_naming_file_expected_and_found(tmp_path: Path) -> None:
    text = Path(TWO_TILES).read_text().replace("value = 11", "value = 12")
    puzzle = write(tmp_path / "wrong.toml", text)
    result = run("solve", puzzle, "--verify")
    assert_clean_exit(result, 1)
    assert result.stderr == (
        f"Mismatch: {puzzle}: expected value 12, 2 tiles, found value 11, 2 tiles (optimal)\n"
    )
    # Without --verify the expectation is not checked.
    assert_clean_exit(run("solve", puzzle), 0)


def test_bad_file_among_good_ones_is_reported_and_the_rest_solved(tmp_path: Path) -> None:
    bad = write(tmp_path / "a" / "bad.toml", 'rak = "R4"\n')
    write(tmp_path / "a" / "good.toml", Path(TWO_TILES).read_text())
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run("solve", str(tmp_path / "a"), str(empty), NOTHING_FITS, "--json")
    assert_clean_exit(result, 2)
    assert [d["puzzle"] for d in json_lines(result)] == [
        str(tmp_path / "a" / "good.toml"),
        NOTHING_FITS,
    ]
    assert result.stderr == (
        f"Error: {bad}: unknown key 'rak': did you mean 'rack'? (expected one of title, "
        "description, rack, table, opened, after, rules, expect)\n"
        f"{bad}: missing key 'rack' (the tiles of the player to move)\n"
        f"Error: {empty}: no puzzle files (.toml or .json) in this folder\n"
    )


def test_human_output_of_several_puzzles_is_separated_by_blank_lines() -> None:
    result = run("solve", NOTHING_FITS, TWO_TILES)
    assert_clean_exit(result, 0)
    blocks = result.stdout.split("\n\n")
    assert blocks[0].startswith(NOTHING_FITS)
    assert blocks[1].startswith(TWO_TILES)


def _unproven(real: Callable[..., SolveResult]) -> Callable[..., SolveResult]:
    """A solve whose answers come back as if a time limit had cut the proof short."""

    def solve(position: Position, **kwargs: Any) -> SolveResult:
        return dataclasses.replace(real(position, **kwargs), status="feasible")

    return solve


def test_unproven_answer_exits_3(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(rummikub.tiles.solver, "solve", _unproven(rummikub.tiles.solver.solve))
    result = run("solve", TWO_TILES, "--time-limit", "5", "--json")
    assert_clean_exit(result, 3)
    assert json_lines(result)[0]["status"] == "feasible"
    human = run("solve", TWO_TILES, "--time-limit", "5")
    assert_clean_exit(human, 3)
    assert "Not proven optimal: the time limit ran out" in human.stdout
    # A wrong answer outranks an unproven one; bad input outranks both.
    wrong = write(tmp_path / "wrong.toml", Path(TWO_TILES).read_text().replace("= 11", "= 12"))
    assert_clean_exit(run("solve", TWO_TILES, wrong, "--verify"), 1)
    bad = write(tmp_path / "bad.toml", "rack = 1")
    assert_clean_exit(run("solve", TWO_TILES, wrong, bad, "--verify"), 2)


def test_time_limit_is_passed_on(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[dict[str, Any]] = []
    real = rummikub.tiles.solver.solve

    def spy(position: Position, **kwargs: Any) -> SolveResult:
        seen.append(kwargs)
        return real(position, **kwargs)

    monkeypatch.setattr(rummikub.tiles.solver, "solve", spy)
    assert_clean_exit(run("solve", TWO_TILES, "--time-limit", "2.5", "--objective", "tiles"), 0)
    assert seen == [{"objective": "tiles", "time_limit": 2.5}]


def test_progress_bar_only_on_a_terminal_and_never_with_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(solve_module, "_stderr_is_terminal", lambda: True)
    human = run("solve", str(BASICS))
    assert_clean_exit(human, 0)
    assert "Solving" in human.stderr
    assert "Solving" not in human.stdout
    as_json = run("solve", str(BASICS), "--json")
    assert as_json.stderr == ""
    assert len(json_lines(as_json)) == len([p for p in BASICS.iterdir() if p.suffix in SUFFIXES])
    monkeypatch.setattr(solve_module, "_stderr_is_terminal", lambda: False)
    assert run("solve", str(BASICS)).stderr == ""


# -- rendering ---------------------------------------------------------------------------------


def test_changed_melds_compares_multisets_and_kinds() -> None:
    old = [Meld.parse(t) for t in ("R1 R2 R3", "K7 R7 B7", "K7 R7 B7", "R5 J J")]
    new = [
        Meld.parse(t) for t in ("B7 K7 R7", "R1 R2 R3 R4", "group: R5 J J", "K7 R7 B7", "K7 R7 B7")
    ]
    marks = render.changed_melds(old, new, Position((), ()).rules)
    assert marks == [False, True, True, False, True]
