"""Quick entry (rummikub.tiles.notation): ranges, group shorthands, several melds in one string,
one-line positions; round trips, exact places in messages, and the command line's use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub import Meld, MeldError, NotationError, Position, PositionError, Rules, Tile
from rummikub.cli import main
from rummikub.tiles.notation import (
    expand_word,
    format_meld,
    format_position,
    format_table,
    parse_meld,
    parse_melds,
    parse_position,
    parse_rack,
)
from rummikub.tiles.puzzles import loads
from tests.strategies import melds, positions, rule_sets, rules_and_melds

NOTATION = settings(max_examples=150, deadline=None)
REPO = Path(__file__).resolve().parent.parent
TWO_TILES = str(REPO / "puzzles" / "basics" / "two-tiles-fit.toml")


def words(tiles: tuple[Tile, ...]) -> str:
    return " ".join(str(t) for t in tiles)


# -- round trips ------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(positions())
def test_position_notation_round_trip(position: Position) -> None:
    text = position.to_notation()
    assert "\n" not in text
    assert Position.from_notation(text, position.rules) == position
    assert Position.from_notation(text.lower(), position.rules) == position
    # Every meld reads back alone too, and the table as one string.
    assert (
        Position.parse(
            rack=words(position.rack),
            table=format_table(position.table),
            opened=position.opened,
            rules=position.rules,
        )
        == position
    )


@NOTATION
@given(rules_and_melds())
def test_meld_notation_round_trip(case: tuple[Rules, Meld]) -> None:
    rules, meld = case
    short = format_meld(meld)
    assert parse_meld(short, rules).to_meld(rules) == meld
    assert len(short) <= len(str(meld))


@NOTATION
@given(st.data())
def test_any_meld_separator(data: st.DataObject) -> None:
    rules = data.draw(rule_sets())
    found = data.draw(st.lists(melds(rules), max_size=5))
    separators = data.draw(st.lists(st.sampled_from(["|", ";", " | ", " ;  "]), min_size=5))
    text = "".join((separators[i] if i else "") + str(meld) for i, meld in enumerate(found))
    assert tuple(m.tiles for m in parse_melds(text, rules)) == tuple(m.tiles for m in found)


# -- reading ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "tiles"),
    [
        ("R1-5", "R1 R2 R3 R4 R5"),
        ("r1-R3", "R1 R2 R3"),
        ("B11-13", "B11 B12 B13"),
        ("KRB7", "K7 R7 B7"),
        ("okrb13", "O13 K13 R13 B13"),
        ("Y7", "O7"),
        ("Y3-5", "O3 O4 O5"),
        ("KY7", "K7 O7"),
        ("j", "J"),
    ],
)
def test_words(word: str, tiles: str) -> None:
    assert words(expand_word(word)) == tiles


def test_yellow_is_its_own_color_where_the_box_has_one() -> None:
    assert words(expand_word("Y7", Rules(colors="KRBOGYPW"))) == "Y7"
    assert words(expand_word("Y7", Rules(colors="KRB"))) == "Y7"  # no orange to stand for
    assert words(parse_rack("Y7", Rules(colors="KRBO"))) == "O7"


@pytest.mark.parametrize(
    ("word", "message"),
    [
        ("R5-3", r"invalid range 'R5-3': the second number must be above the first"),
        ("R5-5", "the second number must be above the first"),
        ("R1-K3", "a run has one color"),
        ("J1-3", "J is the joker"),
        ("R0-3", "numbers start at 1"),
        ("KRJ7", "J is the joker; write it apart"),
        ("KRK7", "color K twice"),
        ("KYO7", "color O twice"),
        ("KR0", "numbers start at 1"),
        ("KRB", "invalid tile 'KRB'"),
        ("R1-\u0663", "invalid tile"),  # ASCII digits only
    ],
)
def test_bad_words(word: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        expand_word(word)


def test_several_melds_and_empty_tables() -> None:
    assert [str(m) for m in parse_melds("R1-3 | KRB7 | B9 B10 J")] == [
        "R1 R2 R3",
        "K7 R7 B7",
        "B9 B10 J",
    ]
    assert [str(m) for m in parse_melds("run: R5 J J; group: R5 J J")] == [
        "run: R5 J J",
        "group: R5 J J",
    ]
    assert parse_melds("-") == parse_melds("  ") == ()


def test_one_line_positions() -> None:
    position = parse_position("R1-3 | KRB7 | B9 B10 J / R4 K7 O7")
    assert position == Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7", "B9 B10 J"])
    assert position.to_notation() == "R1-3 | KRB7 | B9 B10 J / R4 K7 O7"
    assert parse_position("- / R10-13 / not opened").opened is False
    assert parse_position(" - / - / Opened ") == Position((), (), True)
    assert format_position(Position((), (), False)) == "- / - / not-opened"


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        (
            "R1-3 | KRB7 | B9 B10 Q / R4",
            NotationError,
            r"^column 22 \('Q'\): invalid tile 'Q': expected a color letter",
        ),
        ("R1-3 / R4 Q5", NotationError, r"^column 11 \('Q5'\): invalid tile 'Q5': unknown color"),
        ("R1-3 / R4 R14", NotationError, r"^column 11 \('R14'\): .*number 14 out of range"),
        ("R1-3 | | KRB7 / R4", NotationError, r"^column 7 \(''\): empty meld"),
        (
            "R1-3 | R5 R6 R8 / R4",
            MeldError,
            r"^column 7, meld 2 'R5 R6 R8': not a run \(no 7\) and not a group$",
        ),
        ("R1-3 / R4 / maybe", NotationError, r"^column 12 \('maybe'\): the third field is"),
        ("R1-3 / R4 / opened / x", NotationError, r"^column 20: a position has at most 3"),
        ("R1-3 R4", NotationError, "needs a table and a rack separated by '/'"),
        ("R1-3 | R1-3 / R1", PositionError, "R1 is used 3 times"),
    ],
)
def test_position_errors_name_the_place(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        parse_position(text)


def test_puzzle_files_take_the_quick_notation() -> None:
    puzzle = loads('rack = "R4 KY7"\ntable = "R1-3 | KRB7 | B9 B10 J"\nafter = "R1-4"', "p.toml")
    assert puzzle.position.to_notation() == "R1-3 | KRB7 | B9 B10 J / R4 K7 O7"
    assert puzzle.after is not None and [str(m) for m in puzzle.after] == ["R1 R2 R3 R4"]
    assert loads('rack = ["R4-6"]\ntable = ["KRB7"]', "p.toml").position.to_notation() == (
        "KRB7 / R4 R5 R6"
    )


# -- the command line ----------------------------------------------------------------------


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def solve_json(*args: str, stdin: str | None = None) -> dict[str, object]:
    code, out, err = run("solve", *args, "--json", stdin=stdin)
    assert code == 0, err
    data: dict[str, object] = json.loads(out)
    data.pop("seconds")
    return data


def test_every_inline_form_gives_the_same_answer() -> None:
    expected = solve_json(TWO_TILES)
    expected["puzzle"] = None
    assert solve_json("--position", "R1-3 | KRB7 | B9 B10 J / R4 K7 O7") == expected
    assert solve_json("--table", "R1-3 | KRB7 ; B9 B10 J", "--rack", "R4 KY7") == expected
    assert solve_json("--table", "R1-3", "--table", "KRB7|B9 B10 J", "--rack", "R4 K7 O7") == (
        expected
    )
    expected["puzzle"] = "-"
    assert solve_json("-", stdin="R1-3 | KRB7 | B9 B10 J / R4 K7 O7\n") == expected
    assert solve_json("-", stdin=Path(TWO_TILES).read_text()) == expected
    json_puzzle = json.dumps({"rack": "R4 K7 O7", "table": ["R1-3", "KRB7", "B9 B10 J"]})
    assert solve_json("-", stdin=json_puzzle) == expected


def test_not_opened_applies_to_a_one_line_position() -> None:
    assert solve_json("--position", "- / R10-13 / not-opened")["value"] == 46
    assert solve_json("--position", "R1-3 / R4 R5")["played"] == ["R4", "R5"]
    assert solve_json("--position", "R1-3 / R4 R5", "--not-opened")["status"] == "no_move"
    assert solve_json("--position", "R1-3 / R4 R5 / not-opened")["status"] == "no_move"


def test_inline_bad_input_names_option_and_column() -> None:
    code, out, err = run("solve", "--position", "R1-3 | KRB7 | B9 B10 Q / R4")
    assert (code, out) == (2, "")
    assert err == (
        "Error: command line: --position \"R1-3 | KRB7 | B9 B10 Q / R4\": column 22 ('Q'): "
        "invalid tile 'Q': expected a color letter and a number (e.g. R7) or J\n"
    )
    code, out, err = run("solve", "--table", "R1-3 | KR7-9", "--rack", "R4 X")
    assert code == 2
    assert err.splitlines() == [
        "Error: command line: --table \"R1-3 | KR7-9\": column 8 ('KR7-9'): invalid tile "
        "'KR7-9': expected a color letter and a number (e.g. R7) or J",
        "command line: --rack \"R4 X\": column 4 ('X'): invalid tile 'X': expected a color "
        "letter and a number (e.g. R7) or J",
    ]
    code, _, err = run("solve", "-", stdin="R1-3 / R4 / soon")
    assert code == 2
    assert err.startswith("Error: -: \"R1-3 / R4 / soon\": column 12 ('soon'): the third field")


def test_position_options_do_not_mix() -> None:
    code, _, err = run("solve", "--position", "R1-3 / R4", "--rack", "R5")
    assert code == 2
    assert "give either --position or --rack/--table, not both" in err
    code, _, err = run("check", TWO_TILES, "--rack", "R5", "--after", "R1-3")
    assert code == 2
    assert "one of them" in err


def test_check_inline() -> None:
    code, out, _ = run(
        "check",
        "--table",
        "R1-3 | KRB7 | B9 B10 J",
        "--rack",
        "R4 K7 O7",
        "--after",
        "R1-4 | KRBO7 | B9 B10 J",
    )
    assert (code, out) == (0, "Legal move.\nPlayed: R4 O7 (2 tiles, value 11)\n")
    code, out, _ = run(
        "check", "--position", "R1-3 | KRB7 | B9 B10 J / R4 K7 O7", "--after", "R1-4 | KRBO7"
    )
    assert code == 1
    assert "table tile B9 is missing from the new table" in out
    code, out, _ = run(
        "check",
        "-",
        "--after",
        "R1-4 | KRBO7 | B9 B10 J",
        stdin="R1-3 | KRB7 | B9 B10 J / R4 K7 O7",
    )
    assert code == 0
    code, out, err = run("check", "--position", "R1-3 / R4")
    assert code == 2
    assert err == (
        "Error: command line: no proposed table to check: add 'after = [...]' to the file "
        "or give the new table with --after MELDS ...\n"
    )
