"""A record played through, whatever its game: the states it reaches, its first problem.

Replaying is the same for every game: from the state the record deals, apply its steps in
order (its turns, and for a game of several hands the deals and scores written between
them), keep the state before each turn and after the last, and stop at the first step the
rules refuse. A refused turn is the domain's ``TurnError`` (:attr:`Replay.error`: the
message names the turn and its broken rules); any other step that does not hold (a deal
the pack cannot give, scores written wrong) raises :class:`Trouble`, kept in words
(:attr:`Replay.trouble`). Each domain says only what its steps are
(:func:`rummikub.tiles.game.engine.replay`, :func:`rummikub.cards.game.engine.replay`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Generic, Literal, Protocol, TypeVar

from rummikub.core.errors import RummikubError

__all__ = ["Replay", "Step", "Trouble", "replay", "replay_file"]

S = TypeVar("S")


class _Read(Protocol):
    """A record as read: why the reading stopped early, if it did (a turn that is not the
    game's notation)."""

    @property
    def problem(self) -> str | None: ...


R = TypeVar("R", bound=_Read)
E = TypeVar("E", bound=RummikubError)


class Trouble(RummikubError):
    """A step of a record that does not hold and is not a turn (a deal, scores)."""


@dataclass(frozen=True, slots=True)
class Replay(Generic[R, S, E]):
    """A record played through: ``states`` are the states before each turn and after the
    last (``states[i]`` before turn ``i + 1`` of a game of one hand); ``error`` is the first
    turn that could not be applied, ``trouble`` another problem found on the way."""

    record: R
    states: tuple[S, ...]
    error: E | None
    #: A problem other than a bad turn (a hand's deal, scores or a result written wrong).
    trouble: str | None = None
    #: The file the record was read from (:func:`replay_file`), named in :attr:`problem`.
    path: str | None = None

    @property
    def state(self) -> S:
        """The state reached: after the last turn, or before the first bad one."""
        return self.states[-1]

    @property
    def problem(self) -> str | None:
        """The first problem in one line (the file first, when read from one): a bad turn,
        a turn that is not the game's notation, another step that does not hold."""
        if self.error is not None:
            found: str | None = str(self.error)
        elif self.record.problem is not None:
            found = self.record.problem
        else:
            found = self.trouble
        if found is None or self.path is None:
            return found
        return f"{self.path}: {found}"


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """One step of a record: ``apply`` gives the state after it (raising the domain's turn
    error or :class:`Trouble`). ``keep`` says what the states keep of it: a new state
    (``"add"``: a turn, a new deal), the last one ``"replace"``\\ d (scores entered into the
    state after a hand's last turn), or nothing (``"check"``)."""

    apply: Callable[[S], S]
    keep: Literal["add", "replace", "check"] = "add"


def replay(
    record: R,
    first: S,
    steps: Iterable[Step[S]],
    refused: type[E],
    end: Callable[[S], str | None] = lambda state: None,
) -> Replay[R, S, E]:
    """Apply ``steps`` from the state ``first`` until one is ``refused`` (the domain's turn
    error) or does not hold (:class:`Trouble`); ``end`` is the problem of the state reached
    after every step (a result written that the turns do not give), if any."""
    state = first
    states = [state]
    for step in steps:
        try:
            state = step.apply(state)
        except Trouble as trouble:
            return Replay(record, tuple(states), None, str(trouble))
        except refused as error:
            return Replay(record, tuple(states), error)
        if step.keep == "add":
            states.append(state)
        elif step.keep == "replace":
            states[-1] = state
    return Replay(record, tuple(states), None, end(state))


def replay_file(
    path: str | os.PathLike[str],
    load: Callable[[str], R],
    play: Callable[[R], Replay[R, S, E]],
) -> Replay[R, S, E]:
    """Read the record at ``path`` with ``load`` and ``play`` it through; its problem names
    the file."""
    name = os.fspath(path)
    return replace(play(load(name)), path=name)
