"""``rummikub analyse``, ``check --grade`` and ``solve --changed`` as a person uses them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rummikub.cli import analyse as analyse_module
from rummikub.cli import main
from rummikub.tiles.checker import check
from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Position

REPO = Path(__file__).resolve().parent.parent
TWO_TILES = str(REPO / "puzzles" / "basics" / "two-tiles-fit.toml")
INLINE = ["--rack", "R4 K7 O7", "--table", "R1 R2 R3", "--table", "K7 R7 B7", "--table", "B9 B10 J"]


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_exit(result: Result, code: int) -> None:
    assert result.exit_code == code, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)


def json_line(result: Result) -> dict[str, Any]:
    [line] = result.stdout.splitlines()
    data: dict[str, Any] = json.loads(line)
    return data


def test_analyse_top_k_human() -> None:
    result = run("analyse", TWO_TILES, "--top", "5")
    assert_exit(result, 0)
    lines = result.stdout.splitlines()
    assert lines[0] == "puzzles/basics/two-tiles-fit.toml - Two tiles fit".replace(
        "puzzles/basics/two-tiles-fit.toml", TWO_TILES
    )
    assert lines[1:5] == [
        "Best moves (only 3 distinct by the tiles played, best first):",
        "  1. value 11,  2 tiles: R4 O7",
        "  2. value  7,   1 tile: O7",
        "  3. value  4,   1 tile: R4",
    ]
    assert "Move 2, new table (* = new or changed):" in lines
    assert "    B9 B10 J" in lines


def test_analyse_changed_shows_only_changed_melds() -> None:
    result = run("analyse", *INLINE, "--changed")
    assert_exit(result, 0)
    lines = result.stdout.splitlines()
    assert "Move 1, new table (new or changed melds only; 1 unchanged not shown):" in lines
    assert "  * R1 R2 R3 R4" in lines
    assert not any("B9 B10 J" in line for line in lines)


def test_analyse_json_extends_the_solve_object() -> None:
    result = run("analyse", *INLINE, "--json", "--top", "2", "--outs", "--hold")
    assert_exit(result, 0)
    data = json_line(result)
    solve_data = json_line(run("solve", *INLINE, "--json"))
    # The solve keys first, in the same order, with the same answer.
    assert list(data)[: len(solve_data)] == list(solve_data)
    for name in ("puzzle", "status", "value", "tiles", "played", "rack", "table", "changed"):
        assert data[name] == solve_data[name], name
    assert data["changed"] == [0, 1]
    assert [m["rank"] for m in data["moves"]] == [1, 2]
    assert data["moves"][1]["played"] == ["O7"]
    outs = data["outs"]
    assert outs["today"] == 11 and outs["objective"] == "value"
    assert sum(o["count"] for o in outs["outs"]) == outs["unseen"]
    gains = [o["gain"] for o in outs["outs"]]
    assert gains == sorted(gains, reverse=True) and gains[0] > 0
    assert data["hold"]["keep_jokers"] is None
    assert data["hold"]["fewest"]["value"] == 11
    # Every move shown is legal.
    position = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7", "B9 B10 J"])
    for move in data["moves"]:
        table = [Meld.of([_tile(t) for t in m["tiles"]], kind=m["kind"]) for m in move["table"]]
        assert check(position, table).legal


def _tile(text: str) -> Any:
    from rummikub.tiles.tiles import Tile

    return Tile.parse(text)


def test_analyse_outs_and_hold_human() -> None:
    result = run(
        "analyse", "--rack", "R4 J K9", "--table", "R1 R2 R3", "--table", "K7 K8 J", "--outs",
        "--hold",
    )  # fmt: skip
    assert_exit(result, 0)
    text = result.stdout
    assert "Hold or play:\n  Keep the jokers: value 13, K9 R4 (costs 30).\n" in text
    assert "Outs (" in text and "tile  unseen  chance  value  gain  played" in text
    assert "Chance the next draw gains" in text


def test_analyse_grade_of_the_file_after_and_of_after() -> None:
    result = run("analyse", TWO_TILES, "--grade")
    assert_exit(result, 0)
    assert result.stdout.splitlines()[-1] == "Grade: legal; a best move (no legal move plays more)"
    weaker = run(
        "analyse", TWO_TILES, "--grade", "--after", "R1 R2 R3 R4", "--after", "K7 R7 B7",
        "--after", "B9 B10 J",
    )  # fmt: skip
    assert_exit(weaker, 0)
    assert weaker.stdout.splitlines()[-1] == (
        "Grade: legal; the best move plays 7 more points: R4 O7 (2 tiles, value 11)"
    )
    illegal = run("analyse", TWO_TILES, "--grade", "--after", "R1 R2 R3 R4", "--json")
    assert_exit(illegal, 1)
    assert json_line(illegal)["grade"]["legal"] is False


def test_analyse_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('rack = "Q5"\n')
    result = run("analyse", str(bad))
    assert_exit(result, 2)
    assert result.stderr.strip().count("\n") == 0
    assert "Q5" in result.stderr
    no_after = run("analyse", *INLINE, "--grade")
    assert_exit(no_after, 2)
    assert "no move to grade" in no_after.stderr
    assert_exit(run("analyse", *INLINE, "--after", "R1 R2 R3"), 2)
    assert_exit(run("analyse", *INLINE, "--top", "0"), 2)
    assert_exit(run("analyse"), 2)
    assert_exit(run("analyse", TWO_TILES, "--grade", "--after", "R1 %%"), 2)


def test_analyse_no_move() -> None:
    result = run("analyse", "--rack", "K1", "--table", "R5 R6 R7", "--top", "3")
    assert_exit(result, 0)
    assert result.stdout.strip() == "No move: no legal move exists, so draw a tile (proven)."


def test_check_grade() -> None:
    result = run("check", TWO_TILES, "--grade")
    assert_exit(result, 0)
    assert result.stdout.splitlines()[-1] == "Grade: legal; a best move (no legal move plays more)"
    weaker = run("check", TWO_TILES, "--grade", "--json", "--after", "R1 R2 R3 R4", "--after",
                 "K7 R7 B7", "--after", "B9 B10 J")  # fmt: skip
    assert_exit(weaker, 0)
    data = json_line(weaker)
    assert list(data)[:4] == ["legal", "errors", "value", "played"]
    assert data["grade"]["value_gap"] == 7
    assert data["grade"]["best_move"]["played"] == ["R4", "O7"]
    # Without --grade the verdict is as before.
    assert "grade" not in json_line(run("check", TWO_TILES, "--json"))
    explained = json_line(run("check", TWO_TILES, "--grade", "--json", "--explain"))
    assert {"changes", "steps", "grade"} <= set(explained)


def test_solve_changed() -> None:
    result = run("solve", TWO_TILES, "--changed")
    assert_exit(result, 0)
    lines = result.stdout.splitlines()
    assert lines[1:4] == [
        "New table (new or changed melds only; 1 unchanged not shown):",
        "  * R1 R2 R3 R4",
        "  * K7 R7 B7 O7",
    ]
    explained = run("solve", TWO_TILES, "--changed", "--explain", "--no-color")
    assert not any("B9 B10 J" in line for line in explained.stdout.splitlines())
    assert json_line(run("solve", TWO_TILES, "--json"))["changed"] == [0, 1]


def test_the_outs_bar_appears_only_when_the_outs_run_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[int] = []

    class FakeProgress:
        def __init__(self, **_: Any) -> None:
            pass

        def start(self) -> None:
            started.append(1)

        def add_task(self, _: str, total: int) -> int:
            return 0

        def update(self, _: int, completed: int) -> None:
            started.append(completed)

        def stop(self) -> None:
            started.append(-1)

    import rich.progress

    monkeypatch.setattr(rich.progress, "Progress", FakeProgress)
    quick = analyse_module._Bar()
    quick(1, 10)
    quick.close()
    assert started == []  # finished before BAR_AFTER: no bar
    monkeypatch.setattr(analyse_module, "BAR_AFTER", 0.0)
    slow = analyse_module._Bar()
    slow(1, 10)
    slow(2, 10)
    slow.close()
    assert started == [1, 1, 2, -1]


def _section(title: str) -> str:
    text = (REPO / "docs" / "analysts.md").read_text()
    start = text.index(title)
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_readme_examples_of_the_analysis_run_as_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    import contextlib
    import io
    import shlex

    monkeypatch.chdir(REPO)
    section = _section("## Analysing a position")
    console = section.split("```console\n", 1)[1].split("```", 1)[0]
    command, *expected = console.splitlines()
    args = shlex.split(command.removeprefix("$ rummikub "))
    result = run(*args)
    assert_exit(result, 0)
    assert result.stdout.splitlines() == expected
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {})
    comments = [line[2:] for line in code.splitlines() if line.startswith("# ")]
    assert printed.getvalue().splitlines() == comments


def test_readme_example_of_check_grade_runs_as_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    import shlex

    monkeypatch.chdir(REPO)
    text = (REPO / "docs" / "analysts.md").read_text()
    marker = "With `--grade`, a move is also compared"
    console = text[text.index(marker) :].split("```console\n", 1)[1].split("```", 1)[0]
    command, *expected = console.splitlines()
    result = run(*shlex.split(command.removeprefix("$ rummikub ")))
    assert_exit(result, 0)
    assert result.stdout.splitlines() == expected


def test_analyse_takes_the_quick_notation_and_stdin() -> None:
    by_position = run("analyse", "--position", "R1-3 | KR7 B7 | B9 B10 J / R4 K7 O7", "--json")
    assert_exit(by_position, 0)
    assert json_line(by_position)["played"] == ["R4", "O7"]
    text = Path(TWO_TILES).read_text()
    from_stdin = CliRunner().invoke(main, ["analyse", "-", "--json", "--top", "2"], input=text)
    assert_exit(from_stdin, 0)
    data = json_line(from_stdin)
    assert data["puzzle"] == "-" and [m["value"] for m in data["moves"]] == [11, 7]
    graded = run("analyse", *INLINE, "--grade", "--after", "R1-4 | K7 R7 B7 | B9 B10 J", "--json")
    assert_exit(graded, 0)
    assert json_line(graded)["grade"]["value_gap"] == 7


def _game(tmp_path: Path) -> Path:
    path = tmp_path / "g.toml"
    steps = [
        ["game", "new", str(path), "--players", "Ann,Bob", "--seed", "3"],
        ["game", "apply", str(path), "--table", "B3 B4 B5"],
        ["game", "apply", str(path), "--draw"],
        ["game", "apply", str(path), "--play", "B6"],
    ]
    for args in steps:
        if args[1] == "new":
            args += ["--rule", "initial_meld=0"]
        assert_exit(run(*args), 0)
    return path


def test_analyse_grades_every_turn_of_a_game_record(tmp_path: Path) -> None:
    path = _game(tmp_path)
    result = run("analyse", str(path))
    assert_exit(result, 0)
    assert result.stdout.splitlines() == [
        f"{path} - 3 turns, 3 graded",
        "    1. Ann  legal; the best move plays 6 more points: B3 B4 B5 B6 (4 tiles, value 18)",
        "    2. Bob  drew; the best move plays R10 R12 R13 B1 B2 J (6 tiles, value 68)",
        "    3. Ann  legal; a best move (no legal move plays more)",
        "Best value in 1 of 3 graded turns; 74 points left unplayed in all.",
    ]
    data = json_line(run("analyse", str(path), "--json"))
    assert data["record"] == str(path) and data["graded"] == 3 and data["value_gap"] == 74
    assert [t["move"] for t in data["turns"]] == ["play", "draw", "play"]
    assert data["turns"][1]["grade"]["drew"] is True
    assert data["problem"] is None


def test_a_record_with_an_illegal_turn_is_graded_up_to_it(tmp_path: Path) -> None:
    path = _game(tmp_path)
    # Ann's first play loses a table tile: an illegal turn, written by hand.
    text = path.read_text().replace('play = ["B3 B4 B5 B6"]', 'play = ["B4 B5 B6"]')
    path.write_text(text)
    result = run("analyse", str(path))
    assert_exit(result, 1)
    lines = result.stdout.splitlines()
    assert lines[0] == f"{path} - 2 turns, 2 graded"
    assert lines[-1].startswith("The replay stopped: ")
