"""One error hierarchy for everything the library rejects.

Every message quotes the offending input and says what was expected, so that the
command line can show it as is.
"""

from __future__ import annotations

from collections.abc import Sequence


class RummikubError(Exception):
    """Base of every error the library raises on purpose."""


class NotationError(RummikubError, ValueError):
    """Text that is not a tile, a meld or a list of them."""


class MeldError(NotationError):
    """Tiles that do not form a valid meld."""


class RulesError(RummikubError, ValueError):
    """An unknown preset, an unknown rule option or a value out of range."""


class PositionError(RummikubError, ValueError):
    """A position that cannot occur with its rule set (e.g. a tile used too often)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__("; ".join(self.problems))


class PuzzleError(RummikubError):
    """A puzzle file that cannot be read; lists every problem found in it."""

    def __init__(self, path: str, problems: Sequence[str]) -> None:
        self.path = path
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__("\n".join(f"{path}: {p}" for p in self.problems))


class ExplainError(RummikubError, ValueError):
    """A new table that no sequence of steps reaches from the old one (tiles not conserved)."""


class ReplayError(ExplainError):
    """A step that cannot be carried out: it takes a tile that is not where it says."""
