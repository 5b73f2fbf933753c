"""Puzzle files: every key in TOML and JSON, folders, and every kind of bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from rummikub import Meld, PuzzleError, RawMeld, Tile, parse_tiles
from rummikub.core.documents import MAX_FILE_BYTES, read_bytes
from rummikub.tiles.puzzles import (
    Expect,
    Overrides,
    Puzzle,
    dump,
    dumps,
    expand,
    expand_all,
    from_data,
    load,
    loads,
)
from rummikub.tiles.rules import STANDARD, preset

REPO = Path(__file__).resolve().parent.parent
KEYS = "title, description, rack, table, opened, after, rules, expect"

FULL_TOML = """
title = "Two tiles fit"
description = "R4 extends the run"
rack = "R4, k7 O7"
table = [
  "R1 R2 R3",
  ["K7", "R7", "B7"],
  "group: R5 J J",
]
opened = false
after = ["R1 R2 R3 R4", "K7 R7 B7 O7", "group: R5 J J"]

[rules]
preset = "boxed"
initial_meld = 25

[expect]
value = 11
tiles = 2
"""


def problems(text: str, fmt: str = "toml") -> list[str]:
    """The problems a puzzle text is rejected with (fails if it is accepted)."""
    with pytest.raises(PuzzleError) as caught:
        loads(text, "p.toml", fmt="json" if fmt == "json" else "toml")
    assert caught.value.path == "p.toml"
    assert str(caught.value) == "\n".join(f"p.toml: {p}" for p in caught.value.problems)
    return list(caught.value.problems)


def melds(*texts: str) -> tuple[Meld, ...]:
    return tuple(Meld.parse(t) for t in texts)


# -- reading every key ----------------------------------------------------------------


def test_toml_with_every_key() -> None:
    puzzle = loads(FULL_TOML, "p.toml")
    assert puzzle.path == "p.toml"
    assert puzzle.title == "Two tiles fit"
    assert puzzle.description == "R4 extends the run"
    position = puzzle.position
    assert position.rack == parse_tiles("R4 K7 O7")
    assert position.table == melds("R1 R2 R3", "K7 R7 B7", "group: R5 J J")
    assert position.table[2].kind == "group"
    assert position.opened is False
    assert position.rules == preset("boxed").replace(initial_meld=25)
    assert puzzle.after == (
        RawMeld(parse_tiles("R1 R2 R3 R4")),
        RawMeld(parse_tiles("K7 R7 B7 O7")),
        RawMeld(parse_tiles("R5 J J"), "group"),
    )
    assert puzzle.expect == Expect(value=11, tiles=2)


def test_json_with_every_key_and_meld_objects() -> None:
    data = {
        "title": "T",
        "description": "D",
        "rack": ["R4", "K7", "O7"],
        "table": [
            "R1 R2 R3",
            ["K7", "R7", "B7"],
            {"kind": "group", "tiles": ["R5", "J", "J"]},
            {"tiles": "B9 B10 B11"},
        ],
        "opened": True,
        "after": [{"kind": "run", "tiles": ["R1", "R2", "R3", "R4"]}, "K7 R7 B7 O7"],
        "rules": {"preset": "free-jokers", "joker_value": 25},
        "expect": {"status": "no_move"},
    }
    puzzle = loads(json.dumps(data), "p.json", fmt="json")
    assert (puzzle.title, puzzle.description) == ("T", "D")
    assert puzzle.position.rack == parse_tiles("R4 K7 O7")
    assert puzzle.position.table == melds("R1 R2 R3", "K7 R7 B7", "group: R5 J J", "B9 B10 B11")
    assert puzzle.position.opened is True
    assert puzzle.position.rules == preset("free-jokers").replace(joker_value=25)
    assert puzzle.after == (
        RawMeld(parse_tiles("R1 R2 R3 R4"), "run"),
        RawMeld(parse_tiles("K7 R7 B7 O7")),
    )
    assert puzzle.expect == Expect(status="no_move")


def test_defaults() -> None:
    puzzle = loads('rack = "R4"', "p.toml")
    assert puzzle.title is None and puzzle.description is None
    assert puzzle.position.table == ()
    assert puzzle.position.opened is True
    assert puzzle.position.rules == STANDARD
    assert puzzle.after is None and puzzle.expect is None


def test_an_empty_rack_is_a_position() -> None:
    assert loads('rack = ""\ntable = ["R1 R2 R3"]', "p.toml").position.rack == ()


def test_load_picks_the_format_by_suffix(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('rack = "R4"\n')
    (tmp_path / "b.JSON").write_text('{"rack": "K5"}')
    assert load(tmp_path / "a.toml").position.rack == (Tile("R", 4),)
    assert load(tmp_path / "b.JSON").position.rack == (Tile("K", 5),)
    assert load(tmp_path / "a.toml").path == str(tmp_path / "a.toml")


def test_example_puzzles_load() -> None:
    names = expand(str(REPO / "puzzles" / "basics"))
    assert names == sorted(names)
    # The collection grows (tests/test_puzzle_collection.py checks all of it); these stay.
    assert {"first-meld.json", "nothing-fits.toml", "two-tiles-fit.toml"} <= {
        Path(n).name for n in names
    }
    for name in names:
        assert load(name).expect is not None


# -- command-line overrides -----------------------------------------------------------


def test_overrides_win_key_by_key() -> None:
    text = 'rack = "R4"\nopened = true\n[rules]\npreset = "boxed"\ninitial_meld = 25'
    chosen = Overrides(preset="book-1978", options={"joker_value": "20"}, opened=False)
    position = loads(text, "p.toml", overrides=chosen).position
    assert position.rules == preset("book-1978").replace(initial_meld=25, joker_value=20)
    assert position.opened is False
    # An option given on the command line beats the same option in the file.
    chosen = Overrides(options={"initial_meld": "10"})
    assert loads(text, "p.toml", overrides=chosen).position.rules.initial_meld == 10


def test_rules_decide_which_tiles_and_melds_exist() -> None:
    text = 'rack = "G14"\ntable = ["G12 G13 G14"]\n[rules]\ncolors = 5\nnumbers = 14'
    assert loads(text, "p.toml").position.rack == (Tile("G", 14),)


# -- folders --------------------------------------------------------------------------


def test_folder_means_every_puzzle_file_below_it_sorted(tmp_path: Path) -> None:
    for name in ["b.toml", "a/z.json", "a/y/x.toml", "c.txt", "a/readme.md"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text('rack = "R4"')
    folder = str(tmp_path) + "/"
    assert expand(folder) == [folder + "a/y/x.toml", folder + "a/z.json", folder + "b.toml"]
    assert expand(str(tmp_path / "a")) == [
        str(tmp_path / "a" / "y" / "x.toml"),
        str(tmp_path / "a" / "z.json"),
    ]


def test_a_file_argument_is_taken_as_is(tmp_path: Path) -> None:
    assert expand("missing.toml") == ["missing.toml"]


def test_an_empty_folder_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(PuzzleError) as caught:
        expand(str(tmp_path))
    assert str(caught.value) == f"{tmp_path}: no puzzle files (.toml or .json) in this folder"
    (tmp_path / "sub").mkdir()
    (tmp_path / "p.toml").write_text('rack = "R1"')
    found = expand_all([str(tmp_path / "sub"), str(tmp_path)])
    assert isinstance(found[0], PuzzleError)
    assert found[1:] == [str(tmp_path / "p.toml")]


# -- bad input --------------------------------------------------------------------------


def test_unknown_tile_color() -> None:
    assert problems('rack = "Q5"') == [
        "rack \"Q5\": invalid tile 'Q5': unknown color 'Q' (expected one of K, R, B, O)"
    ]


def test_text_that_is_no_tile() -> None:
    assert problems('rack = "R4 5R, R99x"') == [
        "rack \"R4 5R, R99x\": invalid tile '5R': "
        "expected a color letter and a number (e.g. R7) or J",
        "rack \"R4 5R, R99x\": invalid tile 'R99x': "
        "expected a color letter and a number (e.g. R7) or J",
    ]
    assert problems('rack = ["R4", "R0"]') == [
        "rack[1] \"R0\": invalid tile 'R0': numbers start at 1"
    ]


def test_tile_out_of_range_in_a_meld() -> None:
    assert problems('rack = ""\ntable = ["R12 R13 R14"]') == [
        "table[0] \"R12 R13 R14\": invalid tile 'R14': number 14 out of range 1-13"
    ]


def test_invalid_meld_on_the_table() -> None:
    text = (
        'rack = "K1"\ntable = ["R1 R2 R3", "K7 R7 B7", "R5 R6 R8", ["K4", "K5"], "group: R5 R6 J"]'
    )
    assert problems(text) == [
        'table[2] "R5 R6 R8": not a run (no 7) and not a group',
        'table[3] "K4 K5": too short: a meld needs at least 3 tiles, 2 given',
        'table[4] "group: R5 R6 J": not a group (numbers differ)',
    ]


def test_a_tile_used_too_often() -> None:
    text = 'rack = "R5 J"\ntable = ["R4 R5 R6", "R5 B5 K5", "J K9 K10", "O1 O2 J"]'
    assert problems(text) == [
        "R5 is used 3 times in table and rack, but the rule set has 2",
        "J is used 3 times in table and rack, but the rule set has 2",
    ]


def test_tiles_of_an_invalid_meld_still_count() -> None:
    assert problems('rack = "R5 R5"\ntable = ["R5 R6 R8"]') == [
        'table[0] "R5 R6 R8": not a run (no 7) and not a group',
        "R5 is used 3 times in table and rack, but the rule set has 2",
    ]


def test_unknown_keys() -> None:
    assert problems('rak = "R4"') == [
        f"unknown key 'rak': did you mean 'rack'? (expected one of {KEYS})",
        "missing key 'rack' (the tiles of the player to move)",
    ]
    text = 'rack = "R4"\ntable = [{kind = "run", tiles = "R1 R2 R3", colour = "R"}]'
    assert problems(text) == ["table[0]: unknown key 'colour' (expected one of kind, tiles)"]
    text = 'rack = "R4"\ntable = [{kind = "run", tile = "R1 R2 R3"}]'
    assert problems(text)[0] == (
        "table[0]: unknown key 'tile': did you mean 'tiles'? (expected one of kind, tiles)"
    )
    assert problems('rack = "R4"\n[expect]\nvalu = 4') == [
        "expect: unknown key 'valu': did you mean 'value'? (expected one of value, tiles, status)",
        "expect: give value, tiles or status = 'no_move'",
    ]


def test_wrong_types() -> None:
    text = """
title = 5
description = ["x"]
rack = 4
table = 7
opened = "yes"
after = 8
rules = 3
expect = true
"""
    assert problems(text) == [
        "title: expected a string, got integer 5",
        'description: expected a string, got list ["x"]',
        'opened: expected true or false, got string "yes"',
        "rules: expected a table, got integer 3",
        "rack: expected a string of tiles or a list of tiles, got integer 4",
        "table: expected a list of melds, got integer 7",
        "after: expected a list of melds, got integer 8",
        "expect: expected a table, got boolean true",
    ]


def test_wrong_types_inside_lists_and_melds() -> None:
    text = json.dumps(
        {
            "rack": ["R4", 5],
            "table": [7, ["R1", 2, "R3"], {"kind": "line", "tiles": "R1 R2 R3"}, {"kind": "run"}],
        }
    )
    assert problems(text, "json") == [
        "rack[1]: expected a tile string, got integer 5",
        "table[0]: expected a meld (a string or a list of tiles), got integer 7",
        "table[1][1]: expected a tile string, got integer 2",
        "table[2].kind: expected 'run' or 'group', got string \"line\"",
        "table[3]: missing key 'tiles'",
    ]


def test_empty_meld() -> None:
    assert problems('rack = ""\ntable = ["", []]') == [
        "table[0] \"\": empty meld: expected tiles such as 'R1 R2 R3'",
        "table[1] \"\": empty meld: expected tiles such as 'R1 R2 R3'",
    ]


def test_bad_rules() -> None:
    assert problems('rack = "R4"\n[rules]\npreset = "modern"') == [
        "rules.preset: unknown preset 'modern' (expected one of "
        "standard, boxed, book-1978, free-jokers)"
    ]
    assert problems('rack = "R4"\n[rules]\ninitial_meld = -1\ncopies = 9\njokerz = 1') == [
        "rules: initial_meld=-1 must be in the range 0-1000",
        "rules: copies=9 must be in the range 1-4",
        "rules: unknown rule option 'jokerz': did you mean 'jokers'? (expected one of numbers, "
        "colors, copies, "
        "jokers, initial_meld, joker_value, open_then_play, joker_lock, joker_swap_from, "
        "group_joker_release)",
    ]


def test_broken_rules_leave_tiles_to_notation_only() -> None:
    # Whether G5 exists depends on the rules; with the rules broken only notation is judged.
    assert problems('rack = "G5 5G"\n[rules]\ncolors = "KRBOGG"') == [
        "rules: colors='KRBOGG' repeats a letter",
        "rack \"G5 5G\": invalid tile '5G': expected a color letter and a number (e.g. R7) or J",
    ]


def test_bad_expect() -> None:
    text = 'rack = "R4"\n[expect]\nvalue = -1\ntiles = 1.5\nstatus = "optimal"'
    assert problems(text) == [
        "expect.value: expected a whole number >= 0, got integer -1",
        "expect.tiles: expected a whole number >= 0, got number 1.5",
        "expect.status: expected 'no_move', got string \"optimal\"",
    ]
    assert problems('rack = "R4"\n[expect]\nstatus = "no_move"\nvalue = 4') == [
        "expect: status 'no_move' plays nothing, so value and tiles are 0"
    ]


def test_malformed_toml() -> None:
    # tomllib's wording may change between Python versions; the prefix and place are ours.
    [problem] = problems('rack = "R4\ntable = []')
    assert problem.startswith("invalid TOML: ")
    assert "line 1" in problem


def test_malformed_json() -> None:
    # json's wording changes between Python versions (3.13: "Illegal trailing comma"); the
    # prefix, the line and that it is one problem are ours.
    [problem] = problems('{"rack": "R4",}', "json")
    assert problem.startswith("invalid JSON: ")
    assert "(at line 1, column " in problem
    assert problems('["R4"]', "json") == ['expected a table of keys at the top, got list ["R4"]']


def test_missing_file_unknown_format_and_folder(tmp_path: Path) -> None:
    (tmp_path / "folder.toml").mkdir()
    (tmp_path / "p.yaml").write_text("rack: R4\n")
    for name, problem in [
        ("nope.toml", "no such file"),
        ("nope", "no such file"),  # not "unknown puzzle format ''"
        ("p.toml/q.toml", "no such file"),
        ("p.yaml", "unknown puzzle format '.yaml' (expected .toml or .json)"),
        ("folder.toml", "is a folder, not a puzzle file"),
    ]:
        with pytest.raises(PuzzleError) as caught:
            load(str(tmp_path / name))
        assert caught.value.problems == (problem,)
        assert str(caught.value) == f"{tmp_path / name}: {problem}"


def test_every_problem_at_once() -> None:
    text = """
rak = 1
rack = "Q5 R4"
table = ["R5 R6 R8", "K1 K2 K3"]
opened = 1
after = ["R1 X"]
[rules]
initial_meld = 30
"""
    assert problems(text) == [
        f"unknown key 'rak': did you mean 'rack'? (expected one of {KEYS})",
        "opened: expected true or false, got integer 1",
        "rack \"Q5 R4\": invalid tile 'Q5': unknown color 'Q' (expected one of K, R, B, O)",
        'table[0] "R5 R6 R8": not a run (no 7) and not a group',
        "after[0] \"R1 X\": invalid tile 'X': expected a color letter and a number (e.g. R7) or J",
    ]


# -- a proposed table is judged, not rejected ------------------------------------------------


def test_after_is_read_as_notation_only() -> None:
    text = 'rack = "R4"\ntable = ["R1 R2 R3"]\nafter = ["R1 R2", "R4 R4 R4 R4 Q9", "J J J"]'
    puzzle = loads(text, "p.toml")
    assert puzzle.after == (
        RawMeld(parse_tiles("R1 R2")),
        RawMeld(parse_tiles("R4 R4 R4 R4 Q9")),
        RawMeld(parse_tiles("J J J")),
    )
    assert loads('rack = "R4"\nafter = []', "p.toml").after == ()


# -- writing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_dumps_reads_back(fmt: str) -> None:
    puzzle = loads(FULL_TOML, "p.toml")
    text = dumps(puzzle, "json" if fmt == "json" else "toml")
    assert loads(text, "p.toml", fmt="json" if fmt == "json" else "toml") == puzzle


def test_dumps_names_the_closest_preset() -> None:
    puzzle = loads('rack = "R4"\n[rules]\npreset = "boxed"\ninitial_meld = 25', "p.toml")
    assert dumps(puzzle).endswith('[rules]\npreset = "boxed"\ninitial_meld = 25\n')
    assert "[rules]" not in dumps(loads('rack = "R4"', "p.toml"))


def test_dump_writes_a_file(tmp_path: Path) -> None:
    puzzle = from_data({"rack": "R4 J", "table": ["group: R5 J B5"]}, "p")
    for name in ("out.toml", "out.json"):
        dump(puzzle, tmp_path / name)
        again = load(tmp_path / name)
        assert again == Puzzle(str(tmp_path / name), puzzle.position)


# -- expected answers --------------------------------------------------------------------------


def test_expect_matches() -> None:
    assert Expect(value=11, tiles=2).matches("optimal", 11, 2)
    assert not Expect(value=11, tiles=2).matches("optimal", 11, 3)
    assert not Expect(value=11).matches("no_move", 0, 0)
    assert Expect(tiles=2).matches("feasible", 5, 2)
    assert Expect(status="no_move").matches("no_move", 0, 0)
    assert not Expect(status="no_move").matches("optimal", 4, 1)
    assert str(Expect(value=11, tiles=2)) == "value 11, 2 tiles"
    assert str(Expect(status="no_move")) == "no move"


def test_a_bad_option_does_not_hide_the_tiles_problems() -> None:
    text = 'rack = "Q5"\ntable = ["R5 R6 R8"]\n[rules]\ncopies = 9\n'
    assert problems(text) == [
        "rules: copies=9 must be in the range 1-4",
        "rack \"Q5\": invalid tile 'Q5': unknown color 'Q' (expected one of K, R, B, O)",
        'table[0] "R5 R6 R8": not a run (no 7) and not a group',
    ]


def test_a_bad_box_option_leaves_tiles_unjudged() -> None:
    # Which colors exist is unknown, so Q5 might be fine: only the option is reported.
    text = 'rack = "Q5"\n[rules]\ncolors = 9\n'
    assert problems(text) == ["rules: colors=9 must be in the range 1-8"]


def test_a_file_that_grew_since_it_was_listed_is_read_whole(tmp_path: Path) -> None:
    # A file is read at the size it had when looked at; if it grew since, the rest is read
    # too, up to one byte past the limit (which tells it too big).
    path = tmp_path / "p.toml"
    path.write_bytes(b'rack = "R1"\n')
    listed = os.stat(path)
    path.write_bytes(b'rack = "R1 R2 R3"\n# more\n')
    assert read_bytes(str(path), listed) == path.read_bytes()
    path.write_bytes(b"#" * (MAX_FILE_BYTES + 10))
    assert len(read_bytes(str(path), listed)) == MAX_FILE_BYTES + 1


def test_a_meld_read_before_is_not_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # A folder's puzzles lay the same melds again and again: each is read once per rule set.
    from rummikub.tiles import puzzles as puzzles_module

    monkeypatch.setattr(puzzles_module, "_KNOWN_MELDS", {})
    parsed: list[str] = []
    real = puzzles_module.parse_meld

    def spy(text: str, *args: Any, **kwargs: Any) -> RawMeld:
        parsed.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(puzzles_module, "parse_meld", spy)
    text = 'rack = "R4"\ntable = ["R1 R2 R3", "K7 R7 B7", "R1 R2 R3"]\n'
    first = loads(text, "a.toml")
    second = loads(text, "b.toml")
    assert parsed == ["R1 R2 R3", "K7 R7 B7"]
    assert first.position == second.position
    assert [str(m) for m in second.position.table] == ["R1 R2 R3", "K7 R7 B7", "R1 R2 R3"]
    # Under another rule set the same words are read again, and judged by its box.
    bad = 'rack = "R4"\ntable = ["R1 R2 R3", "K7 R7 B7"]\n[rules]\ncolors = "RB"\n'
    assert problems(bad) == [
        "table[1] \"K7 R7 B7\": invalid tile 'K7': unknown color 'K' (expected one of R, B)"
    ]
    assert parsed[2:] == ["R1 R2 R3", "K7 R7 B7"]


def test_a_meld_with_a_problem_is_reported_every_time() -> None:
    text = 'rack = "R4"\ntable = ["R1 R2 R3", "R5 R6 R8"]\n'
    for _ in range(2):
        assert problems(text) == ['table[1] "R5 R6 R8": not a run (no 7) and not a group']


@pytest.mark.parametrize(
    "name", ["a.toml", "a.TOML", "b.Json", "..toml", ".toml", "a.", "a", "a.b.json", "x.json.", "."]
)
def test_a_folder_lists_files_by_the_suffix_a_path_has(tmp_path: Path, name: str) -> None:
    if name in (".", ".."):
        pytest.skip("not a file name")
    (tmp_path / name).write_text("")
    (tmp_path / "z.toml").write_text("")
    listed = [Path(p).name for p in expand_all([str(tmp_path)]) if isinstance(p, str)]
    wanted = Path(name).suffix.lower() in (".toml", ".json")
    assert listed == ([name, "z.toml"] if wanted else ["z.toml"])
