"""The terminal loop written once (:mod:`rummikub.play.session`), driven with a toy game: a
state is the turns played so far, a record the list of them; two seats, four turns."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from rummikub.core.errors import RummikubError
from rummikub.play import records, session
from rummikub.play.session import Quit, Table


@dataclass
class Toy:
    """The person at seat 0 types ``lines`` (running out quits); seat 1 always says "s"."""

    lines: list[str]
    said: list[str] = field(default_factory=list)
    stopped: str = "stopped"

    def over(self, state: tuple[str, ...]) -> bool:
        return len(state) == 4

    def person_plays(self, state: tuple[str, ...]) -> bool:
        return len(state) % 2 == 0

    def person(self, state: tuple[str, ...]) -> str:
        if not self.lines:
            raise Quit
        return self.lines.pop(0)

    def strategy(self, state: tuple[str, ...]) -> str:
        return "s"

    def advance(self, state: tuple[str, ...], turn: str) -> tuple[str, ...]:
        return (*state, turn)

    def tell(self, turn: str, before: tuple[str, ...], after: tuple[str, ...]) -> None:
        self.said.append(f"{len(before)}: {turn}")

    def ending(self, state: tuple[str, ...]) -> str:
        return "over: " + "".join(state)


#: No turn yet (typed, so that a record grows as a tuple of any length).
NONE: tuple[str, ...] = ()
HALF: tuple[str, ...] = ("a", "s")


def _added(record: tuple[str, ...], turn: str, after: tuple[str, ...]) -> tuple[str, ...]:
    return (*record, turn)


def test_a_game_runs_to_its_end_saved_after_every_whole_turn() -> None:
    toy = Toy(["a", "b"])
    saves: list[tuple[tuple[str, ...], tuple[str, ...] | None]] = []
    record = session.run(
        toy,
        NONE,
        NONE,
        save=lambda kept, state, expect: saves.append((kept, expect)),
        added=_added,
        say=toy.said.append,
    )
    assert record == ("a", "s", "b", "s")
    assert toy.said == ["0: a", "1: s", "2: b", "3: s", "over: asbs"]
    # Each write expects what the one before wrote: another program's change is refused.
    assert [expect for _, expect in saves] == [None, (), ("a",), ("a", "s"), ("a", "s", "b")]


def test_a_resumed_game_expects_the_record_it_read_and_a_quit_keeps_the_turns() -> None:
    toy = Toy(["b"])
    saves: list[tuple[str, ...] | None] = []
    record = session.run(
        toy,
        HALF,
        HALF,
        save=lambda kept, state, expect: saves.append(expect),
        added=_added,
        resuming=True,
        say=toy.said.append,
    )
    assert record == ("a", "s", "b", "s")
    assert saves[0] == ("a", "s")
    quitter = Toy([])
    assert session.run(quitter, NONE, NONE, save=None, added=_added, say=quitter.said.append) == ()
    assert quitter.said == ["stopped"]


def test_between_turns_a_changed_record_is_saved_too() -> None:
    toy = Toy(["a", "b"])
    saved: list[tuple[str, ...]] = []

    def between(
        record: tuple[str, ...], state: tuple[str, ...]
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return ((*record, "deal"), state) if len(state) == 2 else (record, state)

    session.run(
        toy,
        NONE,
        NONE,
        save=lambda kept, state, expect: saved.append(kept),
        added=_added,
        between=between,
        say=toy.said.append,
    )
    assert ("a", "s", "deal") in saved


def test_seats_are_read_back_with_each_formats_error() -> None:
    table = Table("Ann", (("Bob", "best"),), 1)
    assert table.players() == ["Bob", "Ann"] and table.strategy_of(0) == "best"
    assert table.kinds(str.upper) == ("BEST", "person")
    assert session.seating(
        ["best", "person"], ["Bob", "Ann"], "g.toml", str.upper, records.RecordError
    ) == (
        "Ann",
        (("Bob", "BEST"),),
        1,
    )
    with pytest.raises(
        records.RecordError, match=r"g.toml: seats: expected exactly one 'person', got 0"
    ):
        session.seating(["best", "best"], ["A", "B"], "g.toml", str, records.RecordError)

    def unknown(name: str) -> str:
        raise RummikubError(f"unknown strategy {name!r}")

    with pytest.raises(records.RecordError, match=r"g.toml: seats\[1\]: unknown strategy 'nope'"):
        session.seating(["person", "nope"], ["A", "B"], "g.toml", unknown, records.RecordError)
    assert session.opponents("keep, casual", 3, str) == ["keep", "casual", "keep"]
    assert session.opponents(" , ", 2, str) == ["best", "best"]
