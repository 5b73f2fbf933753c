"""A game at the terminal, whatever its game: one person against strategies, turn by turn.

The plumbing of ``rummikub play`` is the same for tiles and cards, and lives here: who sits
where (:class:`Table`, read back from a record's ``seats`` by :func:`seating`), whose turn
it is and whether a person or a strategy plays it, the record saved after every whole turn
(under its lock, refused when another program changed the file), a game resumed from its
record, the person's take-back (``undo``) and quit, and the ending. A domain says only how
a turn is read from the person and asked of a strategy, and what is told (:class:`Sitting`).

Everything talks through ``ask(prompt) -> line`` and ``say(text)``, so a test scripts the
loop and the command line gives it the terminal; the solver's work runs through ``think``
(``think(work)`` returns ``work()``), so the command line can make Ctrl-C act at once
while it runs.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from rummikub.core.errors import RummikubError
from rummikub.play.records import RecordError

__all__ = [
    "PERSON",
    "Quit",
    "Sitting",
    "Table",
    "Think",
    "Undo",
    "illegal",
    "now",
    "opponents",
    "refuse_to_overwrite",
    "resumable",
    "run",
    "seating",
    "stopped",
]

T = TypeVar("T")
P = TypeVar("P")
R = TypeVar("R")
S = TypeVar("S")
U = TypeVar("U")
#: How the solver's work is run: ``think(work)`` returns ``work()`` (the command line's
#: makes Ctrl-C act at once inside it).
Think = Callable[[Callable[[], T]], T]
#: The ``seats`` entry of the person at the terminal.
PERSON = "person"


def now(work: Callable[[], T]) -> T:
    """Thinking as it is done away from a terminal: the work, at once."""
    return work()


class Quit(Exception):
    """The person stopped the game."""


class Undo(Exception):
    """The person takes back their last turn (and every strategy's turn since)."""


@dataclass(frozen=True, slots=True)
class Table(Generic[P]):
    """Who sits where: the person's seat and name, and a strategy for every other seat."""

    name: str
    opponents: tuple[tuple[str, P], ...]
    seat: int = 0

    def players(self) -> list[str]:
        names = [n for n, _ in self.opponents]
        names.insert(self.seat, self.name)
        return names

    def strategy_of(self, seat: int) -> P:
        return self.opponents[seat if seat < self.seat else seat - 1][1]

    def kinds(self, name_of: Callable[[P], str]) -> tuple[str, ...]:
        """Who plays each seat, as a record's ``seats`` says: the person, or the name
        ``name_of`` gives a strategy."""
        kinds = [name_of(s) for _, s in self.opponents]
        kinds.insert(self.seat, PERSON)
        return tuple(kinds)


def seating(
    seats: Sequence[str] | None,
    players: Sequence[str],
    path: str,
    strategy: Callable[[str], P],
    error: type[RecordError],
) -> tuple[str, tuple[tuple[str, P], ...], int]:
    """Who sits where in a saved game, from its record's ``seats``: the person's name, the
    others' names and strategies (``strategy`` finds one by its name), the person's seat.
    Raises ``error`` if the record does not say, or names no person or an unknown
    strategy."""
    if seats is None:
        raise error(
            f"{path}: the record does not say who plays each seat: add e.g. "
            f'seats = ["{PERSON}", "best"] (records written by rummikub play have it)'
        )
    people = [seat for seat, kind in enumerate(seats) if kind == PERSON]
    if len(people) != 1:
        raise error(f"{path}: seats: expected exactly one {PERSON!r}, got {len(people)}")
    opponents: list[tuple[str, P]] = []
    for seat, kind in enumerate(seats):
        if kind == PERSON:
            continue
        try:
            opponents.append((players[seat], strategy(kind)))
        except RummikubError as problem:
            raise error(f"{path}: seats[{seat}]: {problem}") from None
    return players[people[0]], tuple(opponents), people[0]


def opponents(text: str, count: int, strategy: Callable[[str], P]) -> list[P]:
    """The strategies of ``count`` seats from ``--strategy``'s names (separated by commas,
    repeated to fill; ``best`` when none); raises :class:`RummikubError` for an unknown
    one."""
    names = [name.strip() for name in text.split(",") if name.strip()] or ["best"]
    return [strategy(names[i % len(names)]) for i in range(count)]


def resumable(problem: str | None, over: bool, where: str, error: type[RummikubError]) -> None:
    """Refuse to go on with a saved game whose record has a ``problem`` or is ``over``."""
    if problem is not None:
        raise error(f"{where}: {problem}")
    if over:
        raise error(f"{where}: the game is over; nothing to resume")


def stopped(path: str | os.PathLike[str] | None) -> str:
    """What the person is told on quitting: where the game is kept and how to go on."""
    if path is None:
        return "Game stopped."
    where = os.fspath(path)
    return (
        f"Game stopped; {where} keeps every whole turn so far. "
        f"Go on with: rummikub play --resume {shlex.quote(where)}"
    )


def refuse_to_overwrite(path: str, force: bool, error: type[Exception]) -> None:
    """A new game never overwrites a record without ``force``."""
    if os.path.lexists(path) and not force:
        raise error(
            f"{path} exists: go on with it (--resume {path}), choose another --save FILE, "
            "or use --force to overwrite it"
        )


def illegal(what: str, problems: Sequence[str]) -> str:
    """A refused turn in words: ``Illegal move: 2 rules broken.`` and one line a rule."""
    count = len(problems)
    lines = [f"{what}: {count} rule{'' if count == 1 else 's'} broken."]
    lines += [f"  - {problem}" for problem in problems]
    return "\n".join(lines)


class Sitting(Protocol[S, U]):
    """What one domain's game at the terminal does at each point of :func:`run` (``S`` its
    state, ``U`` its turn); it holds the table, ``ask``, ``say`` and ``think``."""

    @property
    def stopped(self) -> str:
        """What the person is told when they quit."""
        ...

    def over(self, state: S) -> bool:
        """Whether the game has ended."""
        ...

    def person_plays(self, state: S) -> bool:
        """Whether the person at the terminal is to move."""
        ...

    def person(self, state: S) -> U:
        """The person's turn, read through ``ask`` (raises :class:`Quit` or :class:`Undo`)."""
        ...

    def strategy(self, state: S) -> U:
        """The turn of the strategy to move, worked out through ``think``."""
        ...

    def advance(self, state: S, turn: U) -> S:
        """The state after ``turn``."""
        ...

    def tell(self, turn: U, before: S, after: S) -> None:
        """Say what the person at the table saw of ``turn``."""
        ...

    def ending(self, state: S) -> str:
        """The end of the game in words."""
        ...


def run(
    sitting: Sitting[S, U],
    record: R,
    state: S,
    *,
    save: Callable[[R, S, R | None], None] | None,
    added: Callable[[R, U, S], R],
    between: Callable[[R, S], tuple[R, S]] = lambda record, state: (record, state),
    undone: Callable[[R], tuple[R, S]] | None = None,
    resuming: bool = False,
    say: Callable[[str], None],
) -> R:
    """Play the game of ``record`` (at ``state``) to its end, or until the person quits;
    the record with every whole turn is returned.

    ``save(record, state, expect)``, when given, writes the record after every turn (and
    once at the start), refused when the file no longer holds ``expect`` (the record as
    last written; at the start of a resumed game, the one read). ``added`` is the record
    with a turn more; ``between`` runs before each turn (a game of several hands deals the
    next one there, and says so): a record it changes is saved too. ``undone(record)`` is
    the record without its last turn and the state it leaves (raising
    :class:`RummikubError` when there is none): the person's ``undo`` takes back turns
    until it is their move again, their own last turn included, and saves the record.
    """
    # What the file holds as far as this game knows: another program's change is refused.
    on_file: R | None = record if resuming else None

    def keep(kept: R, state: S) -> R:
        nonlocal on_file
        if save is not None:
            save(kept, state, on_file)
            on_file = kept
        return kept

    record = keep(record, state)
    while not sitting.over(state):
        dealt, state = between(record, state)
        if dealt is not record:
            record = keep(dealt, state)
        try:
            mover = sitting.person if sitting.person_plays(state) else sitting.strategy
            turn = mover(state)
        except Quit:
            say(sitting.stopped)
            return record
        except Undo:
            record, state = _taken_back(sitting, record, state, undone, say)
            record = keep(record, state)
            continue
        after = sitting.advance(state, turn)
        # Saved before it is told: an interrupt leaves the record at a whole turn.
        record = keep(added(record, turn, after), after)
        before, state = state, after
        sitting.tell(turn, before, after)
    say(sitting.ending(state))
    return record


def _taken_back(
    sitting: Sitting[S, U],
    record: R,
    state: S,
    undone: Callable[[R], tuple[R, S]] | None,
    say: Callable[[str], None],
) -> tuple[R, S]:
    """The record and state before the person's last turn, or the same ones (and why) when
    there is no such turn."""
    if undone is None:
        say("Nothing to undo: this game cannot take a turn back.")
        return record, state
    taken, at, count = record, state, 0
    try:
        while True:
            taken, at = undone(taken)
            count += 1
            if sitting.person_plays(at) and not sitting.over(at):
                break
    except RummikubError:
        say("Nothing to undo: you have not played a turn yet.")
        return record, state
    say(f"Took back {count} turn{'' if count == 1 else 's'}: your move again.")
    return taken, at
