"""Annotated records (game/record.py): marks, comments, figures and variations read back as
written, in TOML and JSON; old records read and write as before; bad notes refused by place."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub.tiles.game.engine import deal, replay
from rummikub.tiles.game.record import (
    MARKS,
    Draw,
    Note,
    Pass,
    Play,
    Record,
    RecordError,
    Variation,
    dumps,
    loads,
)
from rummikub.tiles.melds import RawMeld
from rummikub.tiles.rules import Rules

RULES = Rules(numbers=7, colors="KRB", copies=1, jokers=0, initial_meld=0)
#: A dealt game of two with four turns: both draw, then Ann lays a run, Bob draws.
BASE = deal(["Ann", "Bob"], RULES, seed=6, rack_size=6)


def _game() -> Record:
    state = replay(BASE).state
    turns: list[Draw | Play | Pass] = [Draw(state.pool[0] if state.pool else None)]
    record = BASE.with_turns(turns)
    state = replay(record).state
    turns.append(Draw(state.pool[0] if state.pool else None))
    return BASE.with_turns(turns)


GAME = _game()

texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
shares = st.floats(0.0, 1.0, allow_nan=False)
moves = st.sampled_from(
    [
        Draw(None),
        Pass(),
        Play((RawMeld.parse("K1 K2 K3"),)),
        Play((RawMeld.parse("K7 R7 B7"), RawMeld.parse("B1 B2 B3"))),
    ]
)
variations = st.builds(
    Variation, st.lists(moves, min_size=1, max_size=3).map(tuple), st.none() | texts
)
notes = st.builds(
    Note,
    mark=st.none() | st.sampled_from(MARKS),
    comment=st.none() | texts,
    win=st.none() | shares,
    lost=st.none() | shares,
    luck=st.none() | st.floats(-1.0, 1.0, allow_nan=False),
    variations=st.lists(variations, max_size=2).map(tuple),
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.none() | notes, max_size=2),
    st.none() | texts.filter(lambda t: "\n" not in t and "\r" not in t),
)
def test_annotations_read_back_as_written(found: list[Note | None], annotator: str | None) -> None:
    record = GAME.with_notes(found, annotator)
    for fmt in ("toml", "json"):
        back = loads(dumps(record, fmt), fmt=fmt)  # type: ignore[arg-type]
        assert back == record
        assert back.notes == record.notes
        assert back.problem is None
        assert replay(back).state == replay(GAME).state  # the same game


def test_a_record_without_annotations_is_written_as_before() -> None:
    text = dumps(GAME)
    assert "mark" not in text and "annotator" not in text
    assert loads(text) == GAME and loads(text).notes == ()
    assert dumps(loads(text)) == text


def test_notes_are_canonical_and_follow_the_turns() -> None:
    assert GAME.with_notes([None, Note()]).notes == ()
    noted = GAME.with_notes([None, Note(mark="?")])
    assert noted.note(2) == Note(mark="?") and noted.note(1) is None and noted.note(3) is None
    assert noted.with_turns(GAME.turns[:1]).notes == ()  # an undo drops the last turn's note
    assert noted.with_turns(GAME.turns).notes == noted.notes


def test_a_variation_in_the_record_text() -> None:
    text = dumps(GAME.with_notes([Note(mark="?", variations=(Variation((Draw(None),), "x"),))]))
    assert 'variations = [{ comment = "x", moves = [{ draw = "?" }] }]' in text


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ('mark = "?!!"', "turn 1: mark '?!!': expected one of !!, !, !?, ?!, ?, ??"),
        ("win = 1.5", "turn 1: win = 1.5: expected a number from 0 to 1"),
        ("luck = -2", "turn 1: luck = -2: expected a number from -1 to 1"),
        ("comment = 3", "turn 1: comment: expected text, got 3"),
        ("variations = [{ moves = [] }]", "turn 1: variations[0]: expected a table with moves"),
        (
            'variations = [{ moves = [{ draw = "?" }], why = "x" }]',
            "turn 1: variations[0]: unknown key 'why' (expected one of moves, comment)",
        ),
        (
            'variations = [{ moves = [{ draw = "?", mark = "?" }] }]',
            "turn 1: variations[0].moves[0]: expected exactly one of play, draw or pass",
        ),
        ('notes = "x"', "turn 1: expected exactly one of play, draw or pass (and player, mark"),
    ],
)
def test_a_bad_note_stops_the_reading_at_its_turn(extra: str, words: str) -> None:
    text = dumps(GAME).replace("player = 0\ndraw = ", f"{extra}\nplayer = 0\ndraw = ", 1)
    record = loads(text)
    assert record.problem is not None and record.problem.startswith(words), record.problem
    assert record.turns == ()


def test_a_bad_annotator_is_refused() -> None:
    with pytest.raises(RecordError, match="annotator: expected one line of text"):
        loads(dumps(GAME).replace("players =", "annotator = 3\nplayers =", 1))
