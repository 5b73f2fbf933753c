"""The puzzle collection (``puzzles/``): every file valid, every answer verified.

``rummikub solve --verify puzzles/`` must pass, and fail on a wrong ``[expect]`` naming the
file, the expected and the found answer; every ``after`` must be a best move by the checker;
and every answer must be re-established without the ILP by
``puzzles/tools/verify_exhaustive.py`` (exhaustive search, or a witness and a bound).
"""

from __future__ import annotations

import importlib
import json
import shutil
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner, Result

from rummikub.cli import main
from rummikub.tiles.position import Position
from rummikub.tiles.puzzles import load
from rummikub.tiles.rules import PRESETS
from rummikub.tiles.tiles import parse_tiles
from tests.tools import run_without_ortools

REPO = Path(__file__).resolve().parent.parent
PUZZLES = REPO / "puzzles"
TOOLS = PUZZLES / "tools"
THEMES = (
    "basics",
    "initial-meld",
    "joker-lock",
    "rearrangements",
    "no-move",
    "presets",
    "generalised",
    "hardest",
)
#: Card puzzles (CARDS.md) live in puzzles/cards: tests/test_card_puzzles.py covers them.
CARDS = PUZZLES / "cards"
CARD_FILES = sorted(p for p in CARDS.rglob("*") if p.suffix in (".toml", ".json"))
FILES = sorted(
    p
    for p in PUZZLES.rglob("*")
    if p.suffix in (".toml", ".json") and TOOLS not in p.parents and CARDS not in p.parents
)


def name(path: Path) -> str:
    return path.relative_to(PUZZLES).as_posix()


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def tool(module: str) -> ModuleType:
    """A script of puzzles/tools, imported as the module it runs as
    (``python -m puzzles.tools.<module>`` from the repository's root)."""
    return importlib.import_module(f"puzzles.tools.{module}")


# -- the files ---------------------------------------------------------------------------


def test_collection_size_and_themes() -> None:
    assert len(FILES) >= 60
    folders = Counter(p.relative_to(PUZZLES).parts[0] for p in FILES)
    assert set(folders) == set(THEMES), folders  # besides "cards"
    assert all(p.parent.parent == PUZZLES for p in FILES), "one folder level per theme"
    assert min(folders.values()) >= 3, folders


@pytest.mark.parametrize("path", FILES, ids=name)
def test_every_puzzle_loads_with_title_description_and_expect(path: Path) -> None:
    puzzle = load(path)
    assert puzzle.title and puzzle.description
    assert puzzle.expect is not None
    assert puzzle.expect.status == "no_move" or (
        puzzle.expect.value is not None and puzzle.expect.tiles is not None
    )


def test_presets_folder_covers_every_preset() -> None:
    used = {load(p).position.rules.preset_name() for p in FILES if p.parent.name == "presets"}
    assert set(PRESETS) <= used


# -- solve --verify ----------------------------------------------------------------------


def test_solve_verify_passes_on_the_collection() -> None:
    result = run("solve", "--verify", "--json", str(PUZZLES))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(FILES) + len(CARD_FILES)
    assert all(a["status"] in ("optimal", "no_move") for a in answers)


@pytest.mark.parametrize(
    ("puzzle", "old", "new", "expected", "found"),
    [
        (
            "two-tiles-fit.toml",
            "value = 11",
            "value = 12",
            "value 12, 2 tiles",
            "value 11, 2 tiles",
        ),
        (
            "nothing-fits.toml",
            'status = "no_move"',
            "value = 13\ntiles = 1",
            "value 13, 1 tiles",
            "no move",
        ),
        ("split-a-run.toml", "value = 4\ntiles = 1", 'status = "no_move"', "no move", "value 4"),
    ],
)
def test_a_wrong_expect_fails_naming_file_expected_and_found(
    tmp_path: Path, puzzle: str, old: str, new: str, expected: str, found: str
) -> None:
    folder = tmp_path / "basics"
    shutil.copytree(PUZZLES / "basics", folder)
    wrong = folder / puzzle
    text = wrong.read_text()
    assert old in text
    wrong.write_text(text.replace(old, new))
    result = run("solve", "--verify", "--json", str(folder))
    assert result.exit_code == 1, result.output
    message = f"Mismatch: {wrong}: expected {expected}, found {found}"
    assert result.stderr.startswith(message), result.stderr
    assert len(result.stderr.splitlines()) == 1  # only the wrong file is named
    assert len(result.stdout.splitlines()) == len(list(folder.iterdir()))  # all still solved


# -- after: a best move by the checker ---------------------------------------------------

WITH_AFTER = [p for p in FILES if load(p).after is not None]


@pytest.mark.parametrize("path", WITH_AFTER, ids=name)
def test_every_after_is_a_best_move(path: Path) -> None:
    expect = load(path).expect
    assert expect is not None and expect.status is None
    result = run("check", str(path), "--json")
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.stdout)
    assert verdict["legal"], verdict["errors"]
    assert (verdict["value"], len(verdict["played"])) == (expect.value, expect.tiles)


def test_large_puzzles_have_an_after() -> None:
    # The bound proof needs a witness; the hardest ones are the large ones.
    hardest = [p for p in FILES if p.parent.name == "hardest"]
    assert hardest
    assert all(p in WITH_AFTER for p in hardest)


# -- answers established without the ILP ------------------------------------------------


def test_verify_exhaustive_establishes_every_answer_without_ortools() -> None:
    lines = run_without_ortools("verify_exhaustive", PUZZLES)
    assert lines[-1].startswith(f"{len(FILES)} answers established (")
    assert lines[-1].endswith(", 0 not.")
    hardest = [line for line in lines if "/hardest/" in line]
    assert hardest and all(line.split()[:2] == ["ok", "bound"] for line in hardest)


def test_verify_exhaustive_catches_a_wrong_expect(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = tmp_path / "p.toml"
    wrong.write_text('rack = "R4 K7 O7"\ntable = ["R1 R2 R3", "K7 R7 B7"]\n[expect]\nvalue = 4\n')
    assert tool("verify_exhaustive").main([str(wrong)]) == 1
    out = capsys.readouterr().out
    assert "FAIL  exhaustive" in out
    assert f"{wrong}: expected value 4, the exhaustive search found value 11, 2 tiles" in out


def test_verify_exhaustive_bound_needs_a_best_after(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    verify = tool("verify_exhaustive")
    puzzle = tmp_path / "p.toml"
    base = 'rack = "R4 K7 O7"\ntable = ["R1 R2 R3", "K7 R7 B7"]\n'
    puzzle.write_text(base + "[expect]\nvalue = 11\ntiles = 2\n")
    # Treated as large: without an `after` there is no proof.
    assert verify.main([str(puzzle), "--max-table", "0"]) == 1
    assert "no `after` table to serve as the witness" in capsys.readouterr().out
    # A best `after` that leaves K7 unplayed proves nothing: K7 alone fits a group of 7s (the
    # bound judges each tile on its own), so the bound is the whole rack.
    best = 'after = ["R1 R2 R3 R4", "K7 R7 B7 O7"]\n'
    puzzle.write_text(base + best + "[expect]\nvalue = 11\ntiles = 2\n")
    assert verify.main([str(puzzle), "--max-table", "0"]) == 1
    assert "plays value 11, 2 tiles, but the bound allows value 18, 3 tiles" in (
        capsys.readouterr().out
    )
    # K7 fits no meld if the table has no other 7s: then playing R4 alone is proven best.
    lone = 'rack = "R4 K7"\ntable = ["R1 R2 R3"]\nafter = ["R1 R2 R3 R4"]\n'
    puzzle.write_text(lone + "[expect]\nvalue = 4\ntiles = 1\n")
    assert verify.main([str(puzzle), "--max-table", "0"]) == 0
    assert "ok    bound" in capsys.readouterr().out


def test_bound_counts_only_tiles_that_fit_some_meld() -> None:
    certify = tool("certify")
    position = Position.parse(rack="K1 R5 O3", table=["R1 R2 R3", "K3 R3 B3"])
    # K1: no other 1 but R1 and no K2; R5: no R4, no other 5; O3 joins the group of 3s.
    assert certify.unplayable(position) == Counter(parse_tiles("K1 R5"))
    assert certify.bound(position) == (3, 1)
    # A joker in the rack fills any one gap: R5 then fits R3 R4 R5 (R4 the joker).
    with_joker = Position.parse(rack="K1 R5 J", table=["R1 R2 R3"])
    assert certify.unplayable(with_joker) == Counter()
