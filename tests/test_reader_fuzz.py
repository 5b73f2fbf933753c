"""The puzzle reader never fails with anything but a PuzzleError, whatever it is fed:
random bytes, random JSON values, random TOML values, random values under the real keys."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub import PuzzleError
from rummikub.tiles.puzzles import KEYS, Format, Puzzle, from_data, loads
from tests.strategies import examples

#: Stands for an integer of 5,000 digits, more than Python reads by default (hypothesis
#: cannot show such an integer, so it is written into the text in its place).
HUGE = "<5000 digits>"
HUGE_DIGITS = "1" + "0" * 5000

#: Texts a puzzle holds, and near misses (other scripts' digits, a lone surrogate, a BOM).
WORDS = st.sampled_from(
    [
        "R4",
        "k13",
        "J",
        "R1 R2 R3",
        "group: R5 J J",
        "run: B9 B10 J",
        "R\u0664",  # Arabic-Indic 4
        "R\U0001d7d3",  # mathematical bold 5
        "\u0661\u0663",  # Arabic-Indic 13
        "\u00b2",  # superscript 2
        "standard",
        "boxed",
        "no_move",
        "\ud800",
        "\ufeffR4",
        "rak",
        "",
    ]
)
TEXT = st.one_of(WORDS, st.text(max_size=20))
NUMBERS = st.one_of(
    st.integers(min_value=-5, max_value=40),
    st.integers(),
    st.just(HUGE),
    st.floats(),
)
#: Scalars TOML can write (it has no null): drawn without one, not filtered, since a filter
#: at every leaf of a table of tables made Hypothesis's health check fail now and then.
TOML_SCALARS = st.one_of(st.booleans(), NUMBERS, TEXT)
SCALARS = st.one_of(st.none(), TOML_SCALARS)
KEY_NAMES = st.one_of(
    st.sampled_from([*KEYS, "preset", "colors", "numbers", "value", "kind", "tiles"]),
    st.text(max_size=8),
)


def values(scalars: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(KEY_NAMES, inner, max_size=4)
        ),
        max_leaves=8,
    )


JSON_VALUES = values(SCALARS)
#: Under the real keys, so that the reader's checks of each key run.
PUZZLE_DATA = st.dictionaries(st.sampled_from([*KEYS, "rak"]), JSON_VALUES, max_size=8)


def read(text: str | bytes, fmt: Format) -> Puzzle | PuzzleError:
    """The reader's answer: a puzzle or a PuzzleError whose problems are single lines."""
    try:
        return loads(text, "p." + fmt, fmt=fmt)
    except PuzzleError as error:
        assert error.problems, "a PuzzleError names at least one problem"
        assert all(p and "\n" not in p for p in error.problems), error.problems
        return error


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200), st.sampled_from(["toml", "json"]))
def test_random_bytes(data: bytes, fmt: Format) -> None:
    read(data, fmt)


@settings(max_examples=examples(100))
@given(JSON_VALUES | PUZZLE_DATA)
def test_random_json_values(value: Any) -> None:
    text = json.dumps(value, ensure_ascii=False).replace(json.dumps(HUGE), HUGE_DIGITS)
    read(text, "json")
    read(text.encode("utf-8", "surrogatepass"), "json")


@settings(max_examples=examples(100))
@given(PUZZLE_DATA)
def test_random_data_from_the_api(value: dict[str, Any]) -> None:
    try:
        from_data(value, "data")
    except PuzzleError as error:
        assert all(p and "\n" not in p for p in error.problems), error.problems


def toml_value(value: Any) -> str:
    """A value as TOML: basic strings, arrays, inline tables (TOML has no null)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if value == HUGE:
        return HUGE_DIGITS
    if isinstance(value, float):
        return (
            "nan"
            if math.isnan(value)
            else ("inf" if value > 0 else "-inf")
            if math.isinf(value)
            else repr(value)
        )
    if isinstance(value, str):
        # JSON escapes are TOML escapes, except that TOML wants DEL escaped and has no
        # surrogates (written raw, they make the text fail as TOML, as they should).
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    items = (f"{json.dumps(k, ensure_ascii=False)} = {toml_value(v)}" for k, v in value.items())
    return "{" + ", ".join(items) + "}"


TOML_VALUES = values(TOML_SCALARS)


@settings(max_examples=examples(100))
@given(st.dictionaries(st.sampled_from([*KEYS, "rak"]), TOML_VALUES, max_size=8))
def test_random_toml_values(value: dict[str, Any]) -> None:
    text = "\n".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items())
    read(text, "toml")
    read(text.encode("utf-8", "surrogatepass"), "toml")


#: The keys of a game record, so that its checks of each key run too.
RECORD_DATA = st.dictionaries(
    st.sampled_from(
        ["format", "players", "rules", "seed", "rack_size", "me", "deal", "turns", "result"]
    ),
    JSON_VALUES,
    max_size=8,
).map(lambda data: {"format": "rummikub-game/1", **data})


@settings(max_examples=examples(100), suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200) | RECORD_DATA.map(json.dumps), st.sampled_from(["toml", "json"]))
def test_game_records_read_with_the_same_care(data: bytes | str, fmt: Format) -> None:
    # A record is read like a puzzle file: whatever it holds, a RecordError or a record.
    from rummikub.tiles.game.record import RecordError
    from rummikub.tiles.game.record import loads as load_record

    try:
        load_record(data, "g." + fmt, fmt=fmt)
    except RecordError as error:
        assert str(error).startswith("g." + fmt + ": ")


def test_a_record_nested_too_deep_is_bad_input() -> None:
    from rummikub.tiles.game.record import RecordError
    from rummikub.tiles.game.record import loads as load_record

    deep = '{"format": "rummikub-game/1", "players": ' + "[" * 10**5 + "]" * 10**5 + "}"
    with pytest.raises(RecordError, match=r"^g\.json: invalid JSON: .* nested more than 32"):
        load_record(deep, "g.json", fmt="json")
