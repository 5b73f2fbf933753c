"""The before-and-after comparison of ``python -m benchmarks.sameness``: what it masks, and
that it names an output that differs (the full run takes minutes: RESULTS.md's figures)."""

from __future__ import annotations

from benchmarks.sameness import COMMANDS, SESSIONS, differences, masked


def test_only_wall_times_and_rates_are_masked() -> None:
    text = 'Time: 0.086 s\n{"seconds": 0.004, "value": 11}\n4 games in 0.7 s (5.84 games/s, 1'
    assert masked(text) == 'Time: <s>\n{"seconds": <s>, "value": 11}\n<n> games in <s> (<rate>, 1'
    assert masked("value 11, 2 tiles") == "value 11, 2 tiles"


def test_an_output_that_differs_is_named_with_its_first_differing_line() -> None:
    before = {"a": "same\n", "b": "one\ntwo\n"}
    assert differences(before, dict(before)) == []
    assert differences(before, {"a": "same\n", "b": "one\nthree\n"}) == ["b: -two"]
    assert differences(before, {"a": "same\n"}) == ["b: -one"]


def test_the_list_covers_both_games_and_every_report_format() -> None:
    names = [name for name, _ in COMMANDS] + [name for name, _ in SESSIONS]
    assert len(names) == len(set(names))
    lines = " ".join(command for _, command in COMMANDS)
    for needed in ("solve puzzles ", "--game 500-rum", "duel ", "--json", "--equity"):
        assert needed in lines, needed
