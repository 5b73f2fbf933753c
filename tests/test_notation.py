"""Notation: parse and format come in pairs; meld reading and rule sets follow RULES.md."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub import (
    JOKER,
    PRESETS,
    STANDARD,
    Meld,
    MeldError,
    NotationError,
    Position,
    PositionError,
    RawMeld,
    Rules,
    RulesError,
    Tile,
    format_tiles,
    parse_tiles,
    preset,
)
from rummikub.tiles.rules import parse_option, with_options
from tests.strategies import (
    ambiguous_melds,
    groups,
    melds,
    notation_tiles,
    option_rule_sets,
    positions,
    raw_melds,
    rule_sets,
    rules_and_melds,
    runs,
    tiles,
)

# Notation properties are cheap, but hypothesis costs a few ms per example: 150 examples
# each keep the whole file to a few seconds.
NOTATION = settings(max_examples=150, deadline=None)


def cells(text: str) -> tuple[Tile, ...]:
    return parse_tiles(text)


# -- tiles --------------------------------------------------------------------


@NOTATION
@given(notation_tiles())
def test_tile_round_trip(tile: Tile) -> None:
    assert Tile.parse(str(tile)) == tile
    assert Tile.parse(str(tile).lower()) == tile
    assert Tile.parse(f"  {tile} ") == tile
    assert eval(repr(tile)) == tile


@NOTATION
@given(st.data())
def test_box_tiles_are_in_the_box(data: st.DataObject) -> None:
    rules = data.draw(rule_sets())
    tile = data.draw(tiles(rules))
    assert rules.tile_problem(tile) is None
    assert Tile.parse(str(tile)) == tile
    assert str(tile) == str(tile).upper()
    wrong = Tile(next(c for c in "ACDEFHIL" if c not in rules.colors), 1)
    assert rules.tile_problem(wrong) is not None
    assert rules.tile_problem(Tile(rules.colors[0], rules.numbers + 1)) is not None


@NOTATION
@given(st.lists(notation_tiles(), max_size=10), st.data())
def test_tile_lists_round_trip_with_any_separator(found: list[Tile], data: st.DataObject) -> None:
    separators = data.draw(
        st.lists(st.sampled_from([" ", ",", ", ", " ,", "\t", "  ,  "]), min_size=len(found))
    )
    text = "".join(f"{t}{sep}" for t, sep in zip(found, separators, strict=False))
    assert parse_tiles(text) == tuple(found)
    assert parse_tiles(format_tiles(found)) == tuple(found)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("r7", Tile("R", 7)),
        ("K13", Tile("K", 13)),
        ("j", JOKER),
        (" J ", JOKER),
        ("o1", Tile("O", 1)),
    ],
)
def test_tile_parse_examples(text: str, expected: Tile) -> None:
    assert Tile.parse(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Q", "expected a color letter and a number"),
        ("R", "expected a color letter and a number"),
        ("7", "expected a color letter and a number"),
        ("R100", "expected a color letter and a number"),
        ("J5", "J is the joker"),
        ("R0", "numbers start at 1"),
        ("", "expected a color letter"),
    ],
)
def test_tile_parse_errors_quote_the_input(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message) as info:
        Tile.parse(text)
    assert repr(text) in str(info.value)


def test_rules_say_which_tiles_exist() -> None:
    assert STANDARD.tile_problem(Tile("R", 13)) is None
    assert STANDARD.tile_problem(JOKER) is None
    assert STANDARD.tile_problem(Tile("R", 14)) == "number 14 out of range 1-13"
    assert STANDARD.tile_problem(Tile("Q", 5)) == "unknown color 'Q' (expected one of K, R, B, O)"
    assert Rules(jokers=0).tile_problem(JOKER) == "this rule set has no jokers"


# -- melds: round trips ---------------------------------------------------------


@NOTATION
@given(rules_and_melds())
def test_meld_round_trip(case: tuple[Rules, Meld]) -> None:
    rules, meld = case
    text = str(meld)
    parsed = Meld.parse(text, rules)
    assert parsed == meld
    assert str(parsed) == text
    assert Meld.parse(text.lower(), rules) == meld
    assert RawMeld.parse(text).to_meld(rules) == meld
    # Meld.of agrees with the construction, given the kind or not (for the kind it reads as).
    assert Meld.of(meld.tiles, kind=meld.kind, rules=rules) == meld


@NOTATION
@given(st.data())
def test_meld_repr_evaluates_back(data: st.DataObject) -> None:
    meld = data.draw(melds(STANDARD))
    assert eval(repr(meld)) == meld


@NOTATION
@given(st.data())
def test_groups_with_one_numbered_tile_carry_their_kind(data: st.DataObject) -> None:
    rules = data.draw(option_rule_sets(jokers=st.integers(2, 4)))
    meld = data.draw(ambiguous_melds(rules))
    text = str(meld)
    assert text.startswith("group: ") == (meld.kind == "group")
    assert Meld.parse(text, rules) == meld


@NOTATION
@given(st.data())
def test_run_value_and_jokers(data: st.DataObject) -> None:
    rules = data.draw(rule_sets())
    run = data.draw(runs(rules))
    numbers = [t.number for t in run.represents() if t is not None]
    assert numbers == list(range(run.start, run.end + 1))
    assert run.value == sum(numbers)
    assert len(run.joker_tiles()) == run.jokers
    assert run.start >= 1 and run.end <= rules.numbers


@NOTATION
@given(st.data())
def test_group_value_and_missing_colors(data: st.DataObject) -> None:
    rules = data.draw(rule_sets())
    group = data.draw(groups(rules))
    assert group.value == group.number * len(group.tiles)
    assert len(group.missing_colors(rules)) == len(rules.colors) - len(group.numbered)
    assert group.jokers <= len(group.missing_colors(rules))


@NOTATION
@given(raw_melds())
def test_raw_meld_round_trip(raw: RawMeld) -> None:
    assert RawMeld.parse(str(raw)) == raw
    assert RawMeld.parse(str(raw).lower()) == raw


# -- melds: reading by RULES.md -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "written", "stands_for"),
    [
        ("R5 J R7", "run", "R5 J R7", "R5 R6 R7"),
        ("R5 R6 J", "run", "R5 R6 J", "R5 R6 R7"),
        ("J R5 R6", "run", "J R5 R6", "R4 R5 R6"),
        # Both readings possible: a run in written order.
        ("R5 J J", "run", "R5 J J", "R5 R6 R7"),
        ("J R5 J", "run", "J R5 J", "R4 R5 R6"),
        ("J J R5", "run", "J J R5", "R3 R4 R5"),
        ("B9 B10 J", "run", "B9 B10 J", "B9 B10 B11"),
        ("R1 R2 J J", "run", "R1 R2 J J", "R1 R2 R3 R4"),
        # Joker-free runs may be written in any order and are read sorted.
        ("R7 R5 R6", "run", "R5 R6 R7", "R5 R6 R7"),
        ("r13 r11 r12", "run", "R11 R12 R13", "R11 R12 R13"),
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13", "run", None, None),
    ],
)
def test_runs_are_read_as_written(
    text: str, kind: str, written: str | None, stands_for: str | None
) -> None:
    meld = Meld.parse(text)
    assert meld.kind == kind
    if written is not None:
        assert str(meld) == written
    if stands_for is not None:
        assert meld.represents() == parse_tiles(stands_for)


@pytest.mark.parametrize(
    ("text", "written"),
    [
        # The written order is no valid run (a joker would stand for R14): a group.
        ("R13 J J", "group: R13 J J"),
        ("J J R1", "group: J J R1"),
        ("group: R5 J J", "group: R5 J J"),
        ("GROUP: r5 j j", "group: R5 J J"),
        ("K7 R7 B7", "K7 R7 B7"),
        ("O7 B7 R7 K7", "O7 B7 R7 K7"),
        ("K7 J B7", "K7 J B7"),
    ],
)
def test_groups_are_read_by_rules(text: str, written: str) -> None:
    meld = Meld.parse(text)
    assert meld.kind == "group"
    assert str(meld) == written


def test_group_joker_value_is_the_group_number() -> None:
    assert Meld.parse("R13 J J").value == 39
    assert Meld.parse("R5 J J").value == 18  # the run R5 R6 R7
    assert Meld.parse("group: R5 J J").value == 15


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("R12 R13 R1", "not a run"),  # 1 is always low
        ("R12 R13 J R1", "not a run"),
        ("R5 R6 R8", r"not a run \(no 7\) and not a group"),
        ("R5 R6", "too short"),
        ("J J J", "at least one numbered tile"),
        ("R5 K6 B7", "mixed colors"),
        ("R5 R5 R6", "R5 twice"),
        ("K7 K7 R7", "K7 twice"),
        ("K7 R7 B7 O7 J", "at most 4"),
        ("R5 R7 J", "not a run"),  # a joker-holding run must be written in order
        ("run: R13 J J", r"not a run \(a joker would stand above R13\)"),
        ("run: K7 R7 B7", r"not a run \(mixed colors\)"),
        ("group: R5 R6 R7", r"not a group \(numbers differ\)"),
        ("R14 R15 R16", "out of range"),
        ("Q5 Q6 Q7", "unknown color 'Q'"),
    ],
)
def test_invalid_melds_say_why(text: str, message: str) -> None:
    with pytest.raises(MeldError, match=message):
        Meld.parse(text)


@pytest.mark.parametrize("colors", ["KRB", "KRBO", "KRBOG", "KRBOGYPW"])
def test_group_sizes_go_up_to_the_number_of_colors(colors: str) -> None:
    rules = Rules(colors=colors)
    full = " ".join(f"{c}5" for c in colors)
    assert Meld.parse(full, rules).kind == "group"
    assert Meld.parse(full.rsplit(" ", 1)[0] + " J", rules).kind == "group"
    with pytest.raises(MeldError, match=f"at most {len(colors)}"):
        Meld.parse(full + " J", rules)


def test_two_colors_make_no_group() -> None:
    with pytest.raises(MeldError, match="at most 2"):
        Meld.parse("K5 R5 J", Rules(colors="KR"))


def test_empty_melds_are_notation_errors() -> None:
    with pytest.raises(NotationError, match="empty meld"):
        RawMeld.parse("group:")
    with pytest.raises(NotationError, match="empty meld"):
        RawMeld.parse("  ")


# -- positions ------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(positions())
def test_position_round_trip(position: Position) -> None:
    for rack in (format_tiles(position.rack), [str(t) for t in position.rack]):
        again = Position.parse(
            rack=rack,
            table=[str(m) for m in position.table],
            opened=position.opened,
            rules=position.rules,
        )
        assert again == position


def test_position_rejects_tiles_used_too_often() -> None:
    with pytest.raises(PositionError) as info:
        Position.parse(rack="R1 R1", table=["R1 R2 R3"])
    assert info.value.problems == ("R1 is used 3 times in table and rack, but the rule set has 2",)


def test_position_reports_every_problem() -> None:
    with pytest.raises(PositionError) as info:
        Position.parse(rack="J J J R1 R1", table=["R1 R2 R3"])
    assert len(info.value.problems) == 2


# -- rule sets --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"copies": 9}, "copies=9 must be in the range 1-4"),
        ({"copies": 0}, "copies=0 must be in the range 1-4"),
        ({"numbers": 27}, "numbers=27 must be in the range 3-26"),
        ({"jokers": 5}, "jokers=5 must be in the range 0-4"),
        ({"initial_meld": -1}, "initial_meld=-1 must be in the range 0-1000"),
        ({"colors": 9}, "colors=9 must be in the range 1-8"),
        ({"colors": "KRJ"}, "J is the joker, never a color letter"),
        ({"colors": "KRK"}, "repeats a letter"),
        ({"joker_lock": "loose"}, "joker_lock='loose' must be 'strict' or 'free'"),
        ({"open_then_play": "maybe"}, "open_then_play='maybe' must be true or false"),
        ({"copies": "two"}, "copies='two' must be a whole number in the range 1-4"),
    ],
)
def test_rule_values_are_range_checked(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        with_options(STANDARD, options)


def test_rules_constructor_checks_ranges() -> None:
    with pytest.raises(RulesError, match=r"^copies=9 must be in the range 1-4$"):
        Rules(copies=9)


def test_every_problem_is_reported_at_once() -> None:
    with pytest.raises(RulesError) as info:
        with_options(STANDARD, {"copies": 9, "jokers": 7, "colour": 3})
    text = str(info.value)
    assert "copies=9" in text
    assert "jokers=7" in text
    assert "unknown rule option 'colour'" in text


def test_unknown_option_lists_the_known_ones() -> None:
    with pytest.raises(RulesError, match=r"unknown rule option 'speed' \(expected one of numbers,"):
        STANDARD.replace(speed=3)


def test_presets_differ_from_standard_as_documented() -> None:
    assert preset("standard") == Rules()
    assert preset("boxed") == Rules(open_then_play=False, joker_swap_from="rack_or_table")
    assert preset("Book-1978") == Rules(group_joker_release="both")
    assert preset(" free-jokers ") == Rules(joker_lock="free")
    assert Rules().tile_count == 106
    for name, rules in PRESETS.items():
        assert rules.preset_name() == name
    with pytest.raises(RulesError, match="unknown preset 'modern'"):
        preset("modern")


def test_with_options_coerces_text_values() -> None:
    rules = with_options(
        STANDARD,
        {
            "colors": "3",
            "copies": "1",
            "open_then_play": "false",
            "joker_lock": "Free",
            "joker_swap_from": "rack-or-table",
        },
    )
    assert rules == Rules(
        colors="KRB",
        copies=1,
        open_then_play=False,
        joker_lock="free",
        joker_swap_from="rack_or_table",
    )
    assert with_options(STANDARD, {"colors": "krbog"}).colors == "KRBOG"
    assert with_options(STANDARD, {"colors": 5}).colors == "KRBOG"
    assert STANDARD.replace(numbers=20).numbers == 20
    assert STANDARD.preset_name() == "standard"
    assert STANDARD.replace(numbers=20).preset_name() is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [("copies=3", ("copies", "3")), (" Joker-Lock = free ", ("joker_lock", "free"))],
)
def test_parse_option(text: str, expected: tuple[str, str]) -> None:
    assert parse_option(text) == expected


@pytest.mark.parametrize("text", ["copies", "=3", ""])
def test_parse_option_needs_key_and_value(text: str) -> None:
    with pytest.raises(RulesError, match="KEY=VALUE"):
        parse_option(text)


@NOTATION
@given(rule_sets())
def test_rule_options_round_trip(rules: Rules) -> None:
    assert Rules(**rules.options()) == rules
    assert with_options(STANDARD, rules.options()) == rules
    as_text = {
        k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in rules.options().items()
    }
    assert with_options(STANDARD, as_text) == rules
    assert rules.tile_count == len(list(rules.tile_types())) * rules.copies + rules.jokers
