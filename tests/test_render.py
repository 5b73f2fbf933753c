"""Rendering for people: tiles in color on a terminal, SVG pictures, the --verify summary and
the progress bar."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings

from rummikub import Position, solve
from rummikub.cli import main
from rummikub.render.svg import position_svg, proposal_svg, result_svg, table_svg
from rummikub.render.text import paint, tile_text, use_color
from rummikub.tiles.explain import explain
from rummikub.tiles.tiles import Tile
from tests.strategies import positions

REPO = Path(__file__).resolve().parent.parent
TWO_TILES = str(REPO / "puzzles" / "basics" / "two-tiles-fit.toml")
SVG = "{http://www.w3.org/2000/svg}"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: The position of the README's --explain example: a joker freed and reused.
SWAP = Position.parse(rack="R6 K5 K6 B3", table=["R5 J R7", "K7 R7 B7 O7", "B4 B5 B6"])


def tiles_drawn(svg: str) -> list[tuple[str, str]]:
    """(tile, mark) of every tile in a picture, in drawing order."""
    root = ElementTree.fromstring(svg)
    return [
        (g.attrib["data-tile"], g.attrib["class"].split()[1])
        for g in root.iter(f"{SVG}g")
        if "tile" in g.attrib.get("class", "")
    ]


def steps_drawn(svg: str) -> list[int]:
    root = ElementTree.fromstring(svg)
    found = []
    for g in root.iter(f"{SVG}g"):
        texts = [t.text for t in g.iter(f"{SVG}text")]
        if "tile" in g.attrib.get("class", "") and g.find(f"{SVG}circle[@fill='#333']") is not None:
            found.append(int(texts[-1] or 0))
    return sorted(found)


# -- color on a terminal -------------------------------------------------------------------


class _Terminal:
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("env", "flag", "terminal", "expected"),
    [
        ({}, False, True, True),
        ({}, False, False, False),
        ({}, True, True, False),
        ({"NO_COLOR": "1"}, False, True, False),
        ({"NO_COLOR": ""}, False, True, True),  # empty means unset (no-color.org)
        ({"FORCE_COLOR": "1"}, False, False, True),
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False, False, False),
        ({"FORCE_COLOR": "1"}, True, True, False),
        ({"TERM": "dumb"}, False, True, False),
        ({"TERM": "dumb", "FORCE_COLOR": "1"}, False, True, True),
    ],
)
def test_when_to_color(
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    flag: bool,
    terminal: bool,
    expected: bool,
) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    stream = _Terminal() if terminal else None
    assert use_color(flag, stream) is expected  # type: ignore[arg-type]


def test_paint_colors_every_tile_and_nothing_else() -> None:
    text = "puzzles/R1.toml - Title\n  * R1 R2 J\n    K7 B10\nPlayed: O7 (1 tile, value 7)"
    painted = paint(text)
    assert ANSI.sub("", painted) == text
    assert "puzzles/R1.toml" in painted  # a path is no tile
    assert tile_text(Tile.parse("R1"), bold=True) in painted  # changed melds bold
    assert tile_text(Tile.parse("K7")) in painted
    assert "\x1b[1;31mR1" in painted and "\x1b[34mB10" in painted  # red (bold), blue
    assert paint("Played: nothing") == "Played: nothing"


def test_human_output_is_colored_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    plain = CliRunner().invoke(main, ["solve", TWO_TILES]).stdout
    assert "\x1b[" not in plain
    forced = CliRunner(env={"FORCE_COLOR": "1"}).invoke(main, ["solve", TWO_TILES]).stdout
    assert "\x1b[31mR4\x1b[0m" in forced or "\x1b[1;31mR4\x1b[0m" in forced
    assert _strip_time(ANSI.sub("", forced)) == _strip_time(plain)
    for env, args in (
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, []),
        ({"FORCE_COLOR": "1"}, ["--no-color"]),
    ):
        result = CliRunner(env=env).invoke(main, ["solve", TWO_TILES, *args])
        assert "\x1b[" not in result.stdout
    json_out = CliRunner(env={"FORCE_COLOR": "1"}).invoke(main, ["solve", TWO_TILES, "--json"])
    assert "\x1b[" not in json_out.stdout
    checked = CliRunner(env={"FORCE_COLOR": "1"}).invoke(main, ["check", TWO_TILES]).stdout
    assert ANSI.sub("", checked) == "Legal move.\nPlayed: R4 O7 (2 tiles, value 11)\n"
    assert "\x1b[" in checked


def _strip_time(text: str) -> str:
    return re.sub(r"Time: [0-9.]+ s", "Time: x", text)


# -- the --verify summary and the progress bar -----------------------------------------------


def test_verify_ends_with_a_summary(tmp_path: Path) -> None:
    basics = REPO / "puzzles" / "basics"
    count = len(list(basics.iterdir()))
    result = CliRunner().invoke(main, ["solve", "--verify", str(basics)])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == f"{count} puzzles: {count} as expected"
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(Path(TWO_TILES).read_text().replace("value = 11", "value = 12"))
    bare = tmp_path / "bare.toml"
    bare.write_text('rack = "R4"\ntable = ["R1-3"]\n')
    bad = tmp_path / "bad.toml"
    bad.write_text('rack = "Q4"\n')
    result = CliRunner().invoke(main, ["solve", "--verify", TWO_TILES, str(tmp_path)])
    assert result.exit_code == 2
    assert result.stdout.splitlines()[-1] == (
        "4 puzzles: 1 as expected, 1 different, 1 with no [expect], 1 not read (bad input)"
    )
    # JSON lines stay JSON lines.
    result = CliRunner().invoke(main, ["solve", "--verify", "--json", str(basics)])
    assert len(result.stdout.splitlines()) == count


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_clears_itself() -> None:
    import pty

    env = {**os.environ, "PYTHONPATH": str(REPO), "TERM": "xterm", "COLUMNS": "80"}
    env.pop("NO_COLOR", None)
    env.pop("FORCE_COLOR", None)
    command = [sys.executable, "-m", "rummikub", "solve", "--no-color", "puzzles/basics"]
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        command, cwd=REPO, env=env, stdin=follower, stdout=follower, stderr=follower
    )
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    assert process.wait(timeout=60) == 0
    text = output.decode()
    answers = text.count("Proven optimal") + text.count("No move:")
    assert answers == len(list((REPO / "puzzles" / "basics").iterdir()))
    # The bar was shown, and is gone from the screen at the end.
    assert "Solving" in text
    screen = _screen(text)
    assert not any("Solving" in line for line in screen)
    assert [line for line in screen if line][-1].startswith("Time: ")


def _screen(text: str) -> list[str]:
    """The lines left on a terminal after ``text``: enough of one to follow rich's erasing
    (carriage return, cursor up, erase line); colors and cursor visibility are ignored."""
    lines = [""]
    row = column = 0
    for token in re.findall(r"\x1b\[[0-9;?]*[A-Za-z]|\r|\n|[^\x1b\r\n]+", text):
        if token == "\n":
            row, column = row + 1, 0
            if row == len(lines):
                lines.append("")
        elif token == "\r":
            column = 0
        elif token.endswith("A"):
            row = max(0, row - int(token[2:-1] or 1))
        elif token.endswith("K"):
            lines[row] = ""
        elif not token.startswith("\x1b"):
            line = lines[row].ljust(column)
            lines[row] = line[:column] + token + line[column + len(token) :]
            column += len(token)
    return lines[: row + 1] if lines[row] == "" else lines


# -- pictures ------------------------------------------------------------------------------------


def test_move_picture_marks_new_and_moved_tiles_with_their_steps() -> None:
    result = solve(SWAP)
    explanation = explain(SWAP, result.move)
    svg = result_svg(result)
    drawn = tiles_drawn(svg)
    old = [str(t) for m in SWAP.table for t in m.tiles]
    rack = [str(t) for t in SWAP.rack_sorted()]
    new = [str(t) for m in result.table for t in m.tiles]
    assert [t for t, _ in drawn] == old + rack + new
    after = drawn[len(old) + len(rack) :]
    assert Counter(t for t, mark in after if mark == "new") == Counter(map(str, result.played))
    assert [t for t, mark in after if mark == "moved"] == ["J"]
    # Every step that moves tiles to a meld numbers them.
    assert set(steps_drawn(svg)) == set(range(1, len(explanation.steps) + 1))
    assert svg == result_svg(result)  # byte for byte
    assert result._repr_svg_() == svg
    assert explanation._repr_svg_().count('<g class="tile') == len(old) + len(new)
    assert "<figure>" in result._repr_html_()


@settings(max_examples=25, deadline=None)
@given(positions(max_melds=4, max_rack=6))
def test_position_pictures_draw_every_tile(position: Position) -> None:
    svg = position._repr_svg_()
    drawn = [t for t, _ in tiles_drawn(svg)]
    expected = [str(t) for m in position.table for t in m.tiles] + [
        str(t) for t in position.rack_sorted()
    ]
    assert drawn == expected
    jokers = svg.count('data-tile="J"')
    assert svg.count('<path d="M') - svg.count("v18") == jokers  # each joker has its smile
    assert position.to_notation() in position._repr_html_() or "&" in position.to_notation()


def test_table_and_proposal_pictures() -> None:
    assert len(tiles_drawn(table_svg(SWAP.table))) == 10
    svg = proposal_svg(SWAP, [(Tile.parse("R5"),)], ["a rule & another"])
    assert "a rule &amp; another" in svg
    assert tiles_drawn(svg)[-1] == ("R5", "kept")
    assert position_svg(Position((), (), True)).count("(none)") == 2


def test_svg_option(tmp_path: Path) -> None:
    picture = tmp_path / "move.svg"
    result = CliRunner().invoke(main, ["solve", TWO_TILES, "--svg", str(picture)])
    assert result.exit_code == 0
    drawn = tiles_drawn(picture.read_text())
    assert ("R4", "new") in drawn and ("O7", "new") in drawn
    checked = tmp_path / "check.svg"
    result = CliRunner().invoke(
        main, ["check", TWO_TILES, "--after", "R1-4 | KRBO7", "--svg", str(checked)]
    )
    assert result.exit_code == 1
    assert "not a legal move" in checked.read_text()
    result = CliRunner().invoke(main, ["solve", str(REPO / "puzzles" / "basics"), "--svg", "x.svg"])
    assert result.exit_code == 2
    assert "--svg draws one move" in result.stderr
    result = CliRunner().invoke(main, ["solve", TWO_TILES, "--svg", str(tmp_path / "no" / "x.svg")])
    assert result.exit_code == 2
    assert "cannot write" in result.stderr


def test_analyse_svg(tmp_path: Path) -> None:
    picture = tmp_path / "best.svg"
    args = ["analyse", "--position", "R1-3 | KRB7 | B9 B10 J / R4 K7 O7", "--svg", str(picture)]
    assert CliRunner().invoke(main, args).exit_code == 0
    assert ("O7", "new") in tiles_drawn(picture.read_text())
    folder = str(REPO / "puzzles" / "basics")
    result = CliRunner().invoke(main, ["analyse", folder, "--svg", str(picture)])
    assert result.exit_code == 2
    assert "--svg draws one move" in result.stderr
