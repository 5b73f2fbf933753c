"""One error hierarchy for everything the library rejects.

Every message quotes the offending input and says what was expected, so that the
command line can show it as is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


class RummikubError(Exception):
    """Base of every error the library raises on purpose."""


class NotationError(RummikubError, ValueError):
    """Text that is not a tile, a meld or a list of them."""


class MeldError(NotationError):
    """Tiles that do not form a valid meld."""


class RulesError(RummikubError, ValueError):
    """An unknown preset, an unknown rule option or a value out of range."""


class ArgumentError(RummikubError, ValueError):
    """A value a public function cannot take (a count out of range, a seat no game has, a
    name no record can hold): :mod:`rummikub.core.arguments` checks them."""


class PositionError(RummikubError, ValueError):
    """A position that cannot occur with its rule set (e.g. a tile used too often)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__("; ".join(self.problems))

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its problems, not its message (it crosses process boundaries).
        return (type(self), (self.problems,))


class PuzzleError(RummikubError):
    """A puzzle file that cannot be read; lists every problem found in it."""

    def __init__(self, path: str, problems: Sequence[str]) -> None:
        self.path = path
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__("\n".join(f"{path}: {p}" for p in self.problems))

    def __reduce__(self) -> tuple[Any, ...]:
        # A folder solve sends these to worker processes.
        return (type(self), (self.path, self.problems))


class ExplainError(RummikubError, ValueError):
    """A new table that no sequence of steps reaches from the old one (tiles not conserved)."""


class ReplayError(ExplainError):
    """A step that cannot be carried out: it takes a tile that is not where it says."""


def unknown(what: str, word: object, known: Iterable[str]) -> str:
    """The message for a name that is not one of ``known``, with a guess for a typo.

    >>> unknown("key", "rak", ["title", "rack", "table"])
    "unknown key 'rak': did you mean 'rack'? (expected one of title, rack, table)"
    >>> unknown("key", "speed", ["title", "rack"])
    "unknown key 'speed' (expected one of title, rack)"
    """
    import difflib  # here: only a message needs it, and every process imports this module

    names = list(known)
    shown = repr(word) if len(repr(word)) <= 40 else repr(word)[:36] + "...'"
    expected = f"(expected one of {', '.join(names)})"
    close = difflib.get_close_matches(word, names, n=1) if isinstance(word, str) else []
    if close:
        return f"unknown {what} {shown}: did you mean {close[0]!r}? {expected}"
    return f"unknown {what} {shown} {expected}"
