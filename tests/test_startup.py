"""Start-up of one ``rummikub solve`` process: it imports only what solving needs (issue 10:
one process within 0.15 s; the figure itself is in benchmarks/RESULTS.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings

from rummikub.core.documents import read_document
from rummikub.tiles.notation import expand_word
from rummikub.tiles.position import Position
from rummikub.tiles.puzzles import Puzzle, dumps, expand, load, loads
from rummikub.tiles.rules import STANDARD, with_options
from rummikub.tiles.tiles import Tile
from tests.strategies import examples, positions

REPO = Path(__file__).resolve().parent.parent

PROGRAM = """
import sys
from rummikub.cli import main
try:
    main(["solve", "puzzles/basics/two-tiles-fit.toml"], prog_name="rummikub")
except SystemExit:
    pass
loaded = sorted(m for m in sys.modules if m.startswith(("rummikub.tiles.game", "rummikub.cli.")))
print(" ".join(loaded), file=sys.stderr)
"""

#: Loaded by a solve only when asked for (--explain, --svg, colors on a terminal, a card
#: puzzle): each costs every ``rummikub solve`` process milliseconds of start-up.
NOT_FOR_SOLVING = (
    "rummikub.cards",  # the card rummies: only for a card puzzle
    "rummikub.cli.cards",
    "rummikub.cli.explaining",  # --explain
    "rummikub.tiles.explain",
    "rummikub.tiles.checker",
    "rummikub.render.svg",  # --svg
    "xml.sax",
    "rich",  # colors and the progress bar on a terminal
    "networkx",
    "rummikub.tiles.analysis",
    "rummikub.tiles.game",
    "multiprocessing",  # only for several puzzles
    "google.protobuf",  # OR-Tools' messages are read as bytes (rummikub/core/lp/wire.py)
)

SOLVING = """
import sys
from rummikub.cli import main
try:
    main(sys.argv[1:], prog_name="rummikub")
except SystemExit as ending:
    code = ending.code
print(code, " ".join(sorted(sys.modules)), file=sys.stderr)
"""


def _modules_after(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", SOLVING, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    code, *loaded = done.stderr.split()
    assert code in ("0", "None"), done.stderr
    return loaded


def _unwanted(loaded: list[str]) -> list[str]:
    return [m for m in loaded if any(m == u or m.startswith(u + ".") for u in NOT_FOR_SOLVING)]


def test_solving_imports_no_other_command() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, cwd=REPO, check=False
    )
    loaded = done.stderr.split()
    assert "rummikub.cli.solve" in loaded, done.stderr
    for other in (
        "rummikub.cli.serve",
        "rummikub.tiles.game",
        "rummikub.cli.game",
        "rummikub.cli.play",
        "rummikub.cli.simulate",
    ):
        assert other not in loaded


def test_every_command_is_listed_and_runs_its_help() -> None:
    from click.testing import CliRunner

    from rummikub.cli import LAZY_COMMANDS, main

    listing = CliRunner().invoke(main, ["--help"])
    assert listing.exit_code == 0
    for name in LAZY_COMMANDS:
        assert f"  {name} " in listing.output, name
        assert CliRunner().invoke(main, [name, "--help"]).exit_code == 0, name


def test_solving_a_tile_puzzle_imports_only_what_solving_needs() -> None:
    # Text to a pipe (no colors) and --json: neither the card rummies (detected from the
    # file's data, not by importing them), nor explanations, pictures, rich or networkx.
    for args in (
        ["solve", "puzzles/basics/two-tiles-fit.toml"],
        ["solve", "--json", "puzzles/basics/two-tiles-fit.toml"],
    ):
        loaded = _modules_after(*args)
        assert "rummikub.tiles.solver.model" in loaded  # it did solve
        assert _unwanted(loaded) == [], args
        # json is read and written only where JSON is (benchmarks/RESULTS.md, "Speed
        # choices", *json*).
        if "--json" not in args:
            assert "json" not in loaded, args


def test_a_folder_with_a_card_puzzle_still_solves_both_kinds(tmp_path: Path) -> None:
    # Card detection reads each file once; a card puzzle among tile puzzles still goes to
    # the card solver (and only then are the card rummies imported).
    tiles = tmp_path / "a.toml"
    tiles.write_text('rack = "R4 K7 O7"\ntable = ["R1 R2 R3", "K7 R7 B7"]\n', encoding="utf-8")
    cards = tmp_path / "b.toml"
    cards.write_text('game = "rummy"\nhand = "7S 8S 9S KH 2C"\ntable = ["7H 7D 7C"]\n')
    done = subprocess.run(
        [sys.executable, "-m", "rummikub", "solve", "--json", "--jobs", "1", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["puzzle"] == str(tiles) and first["value"] == 11
    assert second["puzzle"] == str(cards) and second["game"] == "rummy"


# -- a folder solve's time per file: each position is checked once, words read once ------


@settings(max_examples=examples(60), deadline=None)
@given(positions())
def test_every_position_the_reader_builds_passes_the_full_check(position: Position) -> None:
    # The reader vouches for its positions, so that the solver does not check them again:
    # that is only right if each one passes the whole check of a position built by hand.
    for fmt in ("toml", "json"):
        puzzle = loads(dumps(Puzzle("p", position), fmt), f"p.{fmt}", fmt=fmt)
        puzzle.position._check_built()
        assert puzzle.position.problems() == []


def test_every_tile_puzzle_of_the_collection_passes_the_full_check() -> None:
    for name in expand(str(REPO / "puzzles")):
        if "game" in read_document(name):
            continue  # a card puzzle
        load(name).position._check_built()


def test_a_word_reads_by_the_colors_of_its_rule_set_whatever_was_read_before() -> None:
    # The answers of expand_word are remembered by word and colors: Y is orange in a box
    # without yellow, and yellow in a box with it.
    yellow = with_options(STANDARD, {"colors": "KRBOGY"})
    for _ in range(2):
        assert expand_word("Y7") == (Tile("O", 7),)
        assert expand_word("Y7", yellow) == (Tile("Y", 7),)
        assert expand_word("Y7-9", yellow) == (Tile("Y", 7), Tile("Y", 8), Tile("Y", 9))
        assert expand_word("KY7") == (Tile("K", 7), Tile("O", 7))


# -- the end of a process: no interpreter shutdown after a solve (rummikub/cli/ending.py) ---

ENDING = """
import atexit, sys
atexit.register(lambda: print("shutdown ran", file=sys.stderr))
sys.argv = ["rummikub", *sys.argv[1:]]
from rummikub.cli import main
main()
"""


def _ended(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", ENDING, *args], capture_output=True, text=True, cwd=REPO, check=False
    )


def test_a_solve_ends_without_the_interpreters_shutdown_and_keeps_its_output() -> None:
    # The process's own command line ends at once after its output is flushed: no exit
    # handler runs, and the output and exit code are those of the usual exit.
    done = _ended("solve", "--json", "puzzles/basics/two-tiles-fit.toml")
    assert done.returncode == 0
    assert json.loads(done.stdout)["value"] == 11
    assert "shutdown ran" not in done.stderr
    bad = _ended("solve", "puzzles/no-such-puzzle.toml")
    assert bad.returncode == 2
    assert "no such file" in bad.stderr
    assert "shutdown ran" not in bad.stderr


def test_worker_processes_still_get_the_interpreters_shutdown() -> None:
    # With worker processes (multiprocessing's exit handlers stop them) the process ends
    # as usual.
    done = _ended("solve", "--json", "--jobs", "2", "puzzles/basics")
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) > 1
    assert "shutdown ran" in done.stderr


def test_a_caller_that_passes_the_arguments_gets_system_exit() -> None:
    from rummikub.cli import main

    try:
        puzzle = str(REPO / "puzzles/basics/two-tiles-fit.toml")
        main(["solve", "--json", puzzle], prog_name="rummikub")
    except SystemExit as ending:
        assert ending.code == 0
    else:
        raise AssertionError("main() returned")


# -- what a solve makes at import: the public dataclasses alone ----------------------------

DATACLASSES = """
import dataclasses, sys
made = []
process = dataclasses._process_class
def counted(cls, *args):
    made.append(f"{cls.__module__}.{cls.__qualname__}")
    return process(cls, *args)
dataclasses._process_class = counted
from rummikub.cli import main
try:
    main(["solve", "puzzles/basics/two-tiles-fit.toml"], prog_name="rummikub")
except SystemExit:
    pass
print(" ".join(m for m in made if m.startswith("rummikub.")), file=sys.stderr)
"""

#: The library's public records, the only dataclasses a solve makes: the solver's own
#: records are named tuples or plain classes (benchmarks/RESULTS.md, "Speed choices", *Records*).
#: (``Tile`` is a named tuple, not a dataclass: tiles are hashed and compared in C.)
PUBLIC_DATACLASSES = {
    "rummikub.tiles.melds.RawMeld",
    "rummikub.tiles.melds.Meld",
    "rummikub.tiles.rules.Rules",
    "rummikub.tiles.position.Position",
    "rummikub.tiles.position.Move",
    "rummikub.tiles.solver.result.SolveResult",
    "rummikub.tiles.puzzles.Expect",
    "rummikub.tiles.puzzles.Puzzle",
    "rummikub.tiles.puzzles.Overrides",
}


def test_a_solve_makes_only_the_public_dataclasses() -> None:
    done = subprocess.run(
        [sys.executable, "-c", DATACLASSES], capture_output=True, text=True, cwd=REPO, check=False
    )
    made = done.stderr.split()
    assert "rummikub.tiles.melds.Meld" in made, done.stderr  # it counted
    assert set(made) <= PUBLIC_DATACLASSES, sorted(set(made) - PUBLIC_DATACLASSES)
