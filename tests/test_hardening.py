"""No input, signal or misuse ends in a traceback: every case of issue 11, by class.

Bad input exits 2 with one line per problem naming the file, the place and the text; the
API raises TypeError, ValueError or a RummikubError with a clear message; a closed pipe,
Ctrl-C and SIGTERM/SIGHUP end quietly with their documented codes."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rummikub import (
    Meld,
    NotationError,
    Position,
    PositionError,
    PuzzleError,
    RawMeld,
    Rules,
    RulesError,
    Tile,
    check,
    parse_tiles,
    preset,
    solve,
)
from rummikub.cli import main
from rummikub.cli import solve as solve_module
from rummikub.core.documents import MAX_FILE_BYTES
from rummikub.tiles.puzzles import expand_all, from_data, load, loads

REPO = Path(__file__).resolve().parent.parent
BASICS = REPO / "puzzles" / "basics"
TWO_TILES = str(BASICS / "two-tiles-fit.toml")
POSITION = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_bad_input(result: Result, *lines: str) -> None:
    """Exit 2, no traceback, and stderr exactly these lines."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    assert result.stderr.splitlines() == list(lines)


def write(path: Path, content: str | bytes) -> str:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def problems(text: str | bytes, fmt: str = "toml") -> list[str]:
    with pytest.raises(PuzzleError) as caught:
        loads(text, f"p.{fmt}", fmt=fmt)
    return list(caught.value.problems)


def subprocess_env() -> dict[str, str]:
    """The environment of a child `python -m rummikub`: this tree first on the path."""
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": str(REPO) + (os.pathsep + path if path else "")}


# -- what used to end in a traceback ----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("deep.json", "[" * 100_000),  # RecursionError in the parser
        ("deep.toml", "rack = " + "[" * 100_000),
        ("nested.json", '{"rack": "R4", "table": ' + "[" * 100 + "]" * 100 + "}"),
        ("dotted.toml", "a" + ".a" * 100 + " = 1\nrack = 'R4'"),  # parsed, then refused
    ],
    ids=["deep-json", "deep-toml", "nested-json", "dotted-toml"],
)
def test_nesting_too_deep_is_bad_input(tmp_path: Path, name: str, text: str) -> None:
    path = write(tmp_path / name, text)
    result = run("solve", path)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    [line] = result.stderr.splitlines()
    assert line.startswith(f"Error: {path}: ")


def test_nesting_limits_and_their_messages() -> None:
    assert problems("[" * 100_000, "json") == [
        "invalid JSON: lists and tables nested more than 32 levels deep"
    ]
    assert problems("rack = " + "[" * 100_000) == [
        "invalid TOML: lists and tables nested more than 32 levels deep"
    ]
    deep: Any = "R4"
    for _ in range(40):
        deep = [deep]
    assert problems(json.dumps({"rack": "R4", "after": deep}), "json") == [
        "lists and tables nested more than 32 levels deep"
    ]


def test_integers_too_long_for_python_are_bad_input(tmp_path: Path) -> None:
    digits = "1" + "0" * 5000
    assert problems(f'{{"rack": "R4", "expect": {{"value": {digits}}}}}', "json") == [
        "invalid JSON: a number with too many digits"
    ]
    assert problems(f'rack = "R4"\n[expect]\nvalue = {digits}') == [
        "invalid TOML: a number with too many digits"
    ]
    # Within the limit, long numbers are shown short.
    assert problems(f'rack = "R4"\n[rules]\nnumbers = {digits[:4000]}') == [
        "rules: numbers=a number with too many digits must be in the range 3-26"
    ]
    path = write(tmp_path / "p.json", f'{{"rack": "R4", "expect": {{"value": {digits}}}}}')
    assert_bad_input(
        run("solve", path), f"Error: {path}: invalid JSON: a number with too many digits"
    )


def test_a_color_count_in_other_digits_is_a_rules_error(tmp_path: Path) -> None:
    # "²".isdigit() is true, but int("²") fails.
    with pytest.raises(RulesError, match=r"colors='²' must be upper-case letters A-Z"):
        Rules().replace(colors="²")
    path = write(tmp_path / "p.toml", 'rack = "R4"\n[rules]\ncolors = "²"')
    assert_bad_input(
        run("solve", path), f"Error: {path}: rules: colors='²' must be upper-case letters A-Z"
    )
    result = run("solve", TWO_TILES, "--rule", "colors=²")
    assert result.exit_code == 2
    assert "colors='²' must be upper-case letters A-Z" in result.stderr


def test_a_lone_surrogate_in_a_title_is_shown_escaped(tmp_path: Path) -> None:
    path = write(tmp_path / "p.json", '{"title": "odd \\ud800", "rack": "R4", "table": []}')
    result = run("solve", path)
    assert result.exit_code == 0, result.output
    assert f"{path} - odd \\ud800" in result.stdout
    # Through a real pipe and a real encoder, too.
    done = subprocess.run(
        [sys.executable, "-m", "rummikub", "solve", path],
        capture_output=True,
        env={**subprocess_env(), "PYTHONIOENCODING": "utf-8"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"odd \\ud800" in done.stdout
    assert b"Traceback" not in done.stderr


def test_a_folder_that_cannot_be_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    write(folder / "p.toml", 'rack = "R4"')
    real_scandir, real_stat = os.scandir, os.stat

    def scandir(path: Any) -> Any:
        if os.fspath(path) == str(folder):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    def stat(path: Any, *args: Any, **kwargs: Any) -> Any:
        if os.fspath(path).startswith(str(folder) + os.sep):
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "stat", stat)
    assert_bad_input(
        run("solve", str(folder)), f"Error: {folder}: cannot read this folder: permission denied"
    )
    inner = str(folder / "p.toml")
    assert_bad_input(run("solve", inner), f"Error: {inner}: cannot read: permission denied")


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads every folder"
)
def test_a_folder_that_cannot_be_read_for_real(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    inner = write(folder / "p.toml", 'rack = "R4"')
    folder.chmod(0)
    try:
        assert_bad_input(
            run("solve", str(folder)),
            f"Error: {folder}: cannot read this folder: permission denied",
        )
        result = run("solve", inner)
        assert result.exit_code == 2
        assert "Traceback" not in result.output
    finally:
        folder.chmod(0o700)


def test_an_unreadable_folder_below_is_reported_and_the_rest_solved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "a.toml", 'rack = "R4"')
    (tmp_path / "b").mkdir()
    real_scandir = os.scandir

    def scandir(path: Any) -> Any:
        if os.fspath(path).endswith(os.sep + "b"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    found = expand_all([str(tmp_path)])
    assert found[0] == str(tmp_path / "a.toml")
    assert isinstance(found[1], PuzzleError)
    assert str(found[1]) == f"{tmp_path / 'b'}: cannot read this folder: permission denied"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_writing_to_a_full_device_is_one_line_and_exit_2() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rummikub", "solve", str(BASICS)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=subprocess_env(),
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr == "Error: cannot write the output: no space left on device\n"


# -- only ASCII digits are numbers ------------------------------------------------------------


@pytest.mark.parametrize("word", ["R\u0664", "R\U0001d7d3", "K\u00b9\u00b3", "R\uff14"])
def test_tile_numbers_are_ascii_digits(word: str) -> None:
    with pytest.raises(NotationError) as caught:
        Tile.parse(word)
    assert str(caught.value) == f"invalid tile {word!r}: numbers are written with the digits 0-9"
    assert problems(f'rack = "R4 {word}"') == [
        f'rack "R4 {word}": invalid tile {word!r}: numbers are written with the digits 0-9'
    ]


def test_option_numbers_are_ascii_digits(tmp_path: Path) -> None:
    arabic_13 = "\u0661\u0663"
    for value in (arabic_13, "1_3", "13.0"):
        with pytest.raises(RulesError, match="must be a whole number in the range 3-26"):
            Rules().replace(numbers=value)
    assert Rules().replace(numbers=" 13 ").numbers == 13
    path = write(tmp_path / "p.toml", f'rack = "R4"\n[rules]\nnumbers = "{arabic_13}"')
    assert_bad_input(
        run("solve", path),
        f"Error: {path}: rules: numbers='{arabic_13}' must be a whole number in the range 3-26",
    )
    result = run("solve", TWO_TILES, "--rule", f"numbers={arabic_13}")
    assert result.exit_code == 2
    assert f"numbers='{arabic_13}' must be a whole number" in result.stderr


# -- the API checks its input ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: solve(Position((), (Tile("R", 14),))),
            PositionError,
            "tile R14: number 14 out of range 1-13",
        ),
        (lambda: solve(Position((), (Tile("", 3),))), TypeError, "Position.rack[0] must be a Tile"),
        (
            lambda: solve(Position((Meld("run", parse_tiles("R1 R5 R9")),), ())),
            PositionError,
            'table[0] "R1 R5 R9"',
        ),
        (lambda: solve(Position([], ())), TypeError, "Position.table must be a tuple"),
        (lambda: solve(Position((), (), opened="yes")), TypeError, "opened must be True or False"),
        (lambda: solve("R4"), TypeError, "solve() takes a Position"),
        (lambda: solve(POSITION, objective="fun"), ValueError, "objective 'fun' must be"),
        (lambda: solve(POSITION, time_limit=-1), ValueError, "time_limit=-1 must be a finite"),
        (lambda: solve(POSITION, time_limit=0), ValueError, "time_limit=0 must be a finite"),
        (lambda: solve(POSITION, time_limit=-math.inf), ValueError, "time_limit=-inf must be"),
        (lambda: solve(POSITION, time_limit=math.nan), ValueError, "time_limit=nan must be"),
        (lambda: solve(POSITION, time_limit=math.inf), ValueError, "time_limit=inf must be"),
        (lambda: solve(POSITION, time_limit="1"), TypeError, "time_limit must be a number"),
        (
            lambda: Position.parse(rack=["R4", 5]),
            TypeError,
            "rack[1]: expected a tile string, got int 5",
        ),
        (lambda: Position.parse(rack=4), TypeError, "rack must be a string of tiles"),
        (lambda: Position.parse(rack="R4", table=5), TypeError, "table must be melds such as"),
        (
            lambda: Position.parse(rack="R4", table=[["R1"]]),
            TypeError,
            "table[0]: expected a meld string",
        ),
        (lambda: Position.parse(rack="R4", rules="boxed"), TypeError, "rules must be a Rules"),
        (lambda: Position.parse(rack="R4 R4 R4"), PositionError, "R4 is used 3 times"),
        (lambda: preset(5), TypeError, "a preset name is a string"),
        (lambda: preset("standart"), RulesError, "did you mean 'standard'?"),
        (
            lambda: check(POSITION, "R1 R2 R3"),
            TypeError,
            "check() takes the new table as a list of melds",
        ),
        (
            lambda: check(POSITION, ["R1 R2 R3"]),
            TypeError,
            "new table[0] must be a Meld or RawMeld",
        ),
        (lambda: check("R4", []), TypeError, "check() takes a Position"),
        (lambda: Rules().replace(colors="²"), RulesError, "colors='²' must be upper-case letters"),
        (
            lambda: Rules().replace(numbers=10**5000),
            RulesError,
            "numbers=a number with too many digits",
        ),
        (
            lambda: Rules().replace(colors=10**5000),
            RulesError,
            "colors=a number with too many digits",
        ),
        (
            lambda: Rules().replace(joker_lock=["strict"]),
            RulesError,
            "joker_lock=['strict'] must be",
        ),
        (lambda: Rules().replace(jokerz=1), RulesError, "did you mean 'jokers'?"),
        (lambda: Tile.parse(7), TypeError, "a tile is written as a string"),
        (lambda: parse_tiles(None), TypeError, "tiles are written as a string"),
        (lambda: RawMeld.parse(["R1"]), TypeError, "a meld is written as a string"),
        (
            lambda: from_data({"rack": "R4", "rules": {"numbers": 10**5000}}, "data"),
            PuzzleError,
            "rules: numbers=a number with too many digits",
        ),
    ],
)
def test_the_api_checks_its_input(call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as caught:
        call()
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_broken_old_table_is_judged_by_check_not_refused() -> None:
    # The checker's reading (a position built by hand may hold anything): errors, no raise.
    position = Position((Meld("run", parse_tiles("R1 R5 R9")),), parse_tiles("R4"))
    assert not check(position, [RawMeld.parse("R1 R5 R9 R4")]).legal


# -- exit codes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [("solve", TWO_TILES), ("analyse", TWO_TILES), ("game", "hint", "g.toml"), ("serve",)],
)
def test_time_limit_nan_and_inf_are_refused(command: tuple[str, ...]) -> None:
    # Every command with a --time-limit refuses what is not a finite number above 0, before
    # it reads a file or starts a server.
    for value in ("nan", "inf", "-inf", "0", "-1"):
        result = run(*command, "--time-limit", value)
        assert result.exit_code == 2, value
        assert "Invalid value for '--time-limit'" in result.stderr
        assert "Traceback" not in result.output


def test_jobs_are_capped_at_the_number_of_puzzles(monkeypatch: pytest.MonkeyPatch) -> None:
    assert solve_module._worker_count(1000, 2) == 2
    assert solve_module._worker_count(None, 40) <= min(os.cpu_count() or 1, 8)
    assert solve_module._worker_count(None, 3) == 1
    pools: list[int] = []
    real = solve_module._report_batches

    def reports(task: Any, sources: Any, workers: int) -> Any:
        pools.append(workers)
        return real(task, sources, 1)

    monkeypatch.setattr(solve_module, "_report_batches", reports)
    result = run("solve", "--jobs", "1000", TWO_TILES, str(BASICS / "nothing-fits.toml"))
    assert result.exit_code == 0
    assert pools == [2]


def test_ctrl_c_exits_130_without_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_module, "_solve_one", interrupted)
    result = run("solve", TWO_TILES)
    assert result.exit_code == 130
    assert "Traceback" not in result.output
    assert "Aborted" not in result.output


def child(*args: str, **options: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "rummikub", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=subprocess_env(),
        cwd=REPO,
        **options,
    )


def test_a_closed_pipe_ends_quietly() -> None:
    # As `rummikub solve --json puzzles/ | head -1`, once head has gone: the reading end of
    # the pipe is closed before the first line is written, so every write fails.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "rummikub", "solve", "--json", "--jobs", "2", "puzzles/"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env=subprocess_env(),
            cwd=REPO,
            check=False,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert done.returncode == 141
    assert done.stderr == ""


def _default_interrupt() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def children_of(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def first_line(process: subprocess.Popen[str]) -> str:
    """The first line of a child's stdout, read from the pipe byte by byte: a buffered
    readline takes whatever the pipe holds (answers come in batches, several lines a
    write), which ``communicate`` (it reads the pipe itself) would then never see."""
    assert process.stdout is not None
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(process.stdout.fileno(), 1)
        if not byte:
            break
        line += byte
    return line.decode()


def alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "State:\tZ" not in status.read_text()
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize(
    ("name", "group"), [("SIGTERM", False), ("SIGHUP", False), ("SIGINT", True)]
)
def test_signals_end_a_parallel_run_quietly(name: str, group: bool) -> None:
    """To the main process (kill PID) or the whole group (Ctrl-C, a closed terminal): exit
    128 + the signal, no traceback, only whole lines, no worker left behind."""
    signum = getattr(signal, name)
    process = child(
        "solve",
        "--json",
        "--jobs",
        "2",
        "puzzles/",
        "puzzles/",
        start_new_session=True,
        # A suite run in the background of a script (as .ci/run runs the other Pythons')
        # inherits SIGINT ignored, as shells start background jobs; Ctrl-C at a terminal
        # reaches a program that has it, so the child gets it back.
        preexec_fn=_default_interrupt,
    )
    first = first_line(process)  # the workers are at work
    workers = children_of(process.pid)
    if group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    rest, errors = process.communicate(timeout=60)
    assert process.returncode == 128 + signum
    assert "Traceback" not in errors and "Error" not in errors
    assert errors.strip() == ""
    for line in (first + rest).splitlines():
        json.loads(line)  # whole lines only
    assert workers, "the run had worker processes"
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in workers)


# -- platforms without fork -------------------------------------------------------------------


def test_a_folder_solve_under_spawn() -> None:
    """The folder solver uses the platform's start method; under spawn (macOS, Windows)
    the answers are the same, in the same order."""
    code = (
        "import multiprocessing, sys\n"
        "multiprocessing.set_start_method('spawn')\n"
        "from rummikub.cli import main\n"
        "main(sys.argv[1:], prog_name='rummikub')\n"
    )
    args = ["solve", "--json", "--jobs", "2", str(BASICS), str(REPO / "puzzles" / "nope")]
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=subprocess_env(),
        cwd=REPO,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr  # the missing one is reported, the rest solved
    assert done.stderr == f"Error: {REPO / 'puzzles' / 'nope'}: no such file\n"
    alone = run(*[a for a in args if a not in ("--jobs", "2")])

    def answers(text: str) -> list[dict[str, Any]]:
        return [{**json.loads(line), "seconds": 0} for line in text.splitlines()]

    assert answers(done.stdout) == answers(alone.stdout)
    assert len(answers(done.stdout)) == len(list(BASICS.iterdir()))


# -- messages ------------------------------------------------------------------------------------


def test_a_missing_file_is_no_such_file() -> None:
    assert_bad_input(run("solve", "nope"), "Error: nope: no such file")
    assert_bad_input(run("check", "nope.toml"), "Error: nope.toml: no such file")


def test_a_key_typo_gets_a_guess(tmp_path: Path) -> None:
    path = write(tmp_path / "p.toml", 'rak = "R4"\n[rules]\npreset = "standart"\ninital_meld = 0')
    assert_bad_input(
        run("solve", path),
        f"Error: {path}: unknown key 'rak': did you mean 'rack'? (expected one of title, "
        "description, rack, table, opened, after, rules, expect)",
        f"{path}: rules.preset: unknown preset 'standart': did you mean 'standard'? "
        "(expected one of standard, boxed, book-1978, free-jokers)",
        f"{path}: missing key 'rack' (the tiles of the player to move)",
    )
    result = run("solve", TWO_TILES, "--rule", "inital_meld=0")
    assert "unknown rule option 'inital_meld': did you mean 'initial_meld'?" in result.stderr


@pytest.mark.parametrize("name", ["p.toml", "p.json"])
def test_a_byte_order_mark_is_skipped(tmp_path: Path, name: str) -> None:
    text = 'rack = "R4"' if name.endswith(".toml") else '{"rack": "R4"}'
    path = write(tmp_path / name, "\ufeff".encode() + text.encode())
    assert [str(t) for t in load(path).position.rack] == ["R4"]
    assert loads("\ufeff" + text, name, fmt=name[-4:]).position.rack == (Tile("R", 4),)


def test_text_that_is_not_utf8_names_the_byte(tmp_path: Path) -> None:
    path = write(tmp_path / "p.toml", b'rack = "R4 \xff"')
    assert_bad_input(run("solve", path), f"Error: {path}: not UTF-8 text (byte 0xff at offset 11)")


# -- sizes ----------------------------------------------------------------------------------


def test_a_file_too_big_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    with open(path, "wb") as file:
        file.truncate(50 * 1024 * 1024)  # 50 MB (sparse: no disk used)
    assert_bad_input(
        run("solve", str(path)),
        f"Error: {path}: too big: a puzzle file is at most {MAX_FILE_BYTES:,} bytes, "
        f"this one is {50 * 1024 * 1024:,} bytes",
    )
    assert problems("#" * (MAX_FILE_BYTES + 1))[0].startswith("too big")


def test_racks_and_tables_beyond_the_box_are_refused_before_they_are_read() -> None:
    assert problems('rack = "' + "X9 " * 5000 + '"') == [
        "rack: 5,000 tiles, more than the rule set's box holds (106 tiles)"
    ]
    assert problems(json.dumps({"rack": ["R4"] * 900}), "json") == [
        "rack: 900 items, more than the rule set's box holds (106 tiles)"
    ]
    assert problems(json.dumps({"rack": "", "table": ["R1 R2 R3"] * 36}), "json") == [
        "table: 36 melds, more than the 35 that the rule set's box holds (106 tiles) can make"
    ]
    # A bigger box holds more.
    data = {"rack": "R4 " * 200, "rules": {"copies": 4, "numbers": 26}}
    assert "more than" not in " ".join(problems(json.dumps(data), "json"))


def test_stdin_is_read_as_a_file_is() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["solve", "--json", "-"], input=b'\xef\xbb\xbf{"rack": "R4"}')
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["puzzle"] == "-"
    result = runner.invoke(main, ["solve", "-"], input=b"#" * (MAX_FILE_BYTES + 5))
    assert_bad_input(
        result,
        f"Error: -: too big: a puzzle file is at most {MAX_FILE_BYTES:,} bytes",
    )
    result = runner.invoke(main, ["check", "-"], input=b'rack = "\xff"')
    assert_bad_input(result, "Error: -: not UTF-8 text (byte 0xff at offset 8)")
