"""What an explanation holds, as data: origins, aftermaths, steps, and their JSON.

These classes only hold results: :mod:`.origins` computes them from the planner's plan,
and the words come from :mod:`.narration`. Step texts are kept as *words*,
tiles apart from the prose, so that a renderer can color them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

from rummikub.core.errors import ExplainError
from rummikub.tiles.melds import Meld
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import Tile

RACK: Final = "rack"
NEW: Final = "new"

#: Where a step takes tiles from: the rack, or a meld by number.
Source: TypeAlias = int | Literal["rack"]
#: Where a step puts tiles: a meld by number, or ``"new"`` to start the next meld.
Target: TypeAlias = int | Literal["new"]
#: Human text with tiles kept apart from the prose (a renderer may color them).
Word: TypeAlias = str | Tile
Words: TypeAlias = tuple[Word, ...]

#: How a meld of the new table was made.
ChangeKind = Literal["unchanged", "extended", "rearranged", "new"]
#: What became of a meld of the old table.
AftermathKind = Literal["unchanged", "extended", "rearranged", "broken_up", "joker_released"]


def plain(words: Iterable[Word]) -> str:
    """Words as plain text.

    >>> plain(("Add ", Tile.parse("R4"), " from your rack."))
    'Add R4 from your rack.'
    """
    return "".join(str(word) for word in words)


@dataclass(frozen=True, slots=True)
class Origin:
    """Tiles of a new meld that came from one place (or of an old meld, added to it)."""

    source: Source
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Transfer:
    """Tiles of an old meld that went to one meld of the new table (by its index there)."""

    to: int
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Release:
    """A joker of an old meld that no longer stands where it stood."""

    #: What the joker stood for in a run; None in a group (any missing color).
    stood_for: Tile | None
    #: The tile that took its place, if one did (under ``joker_lock = "free"`` none need).
    by: Tile | None
    #: Where that tile came from.
    source: Source | None


@dataclass(frozen=True, slots=True)
class Change:
    """How one meld of the new table was made."""

    meld: Meld
    #: Its number in the steps: its old meld's number if transformed in place, else the
    #: number the step that starts it gives it.
    number: int
    #: The old meld transformed in place into this one, or None for a new meld.
    old: int | None
    #: Where its tiles came from: the tiles kept in place first (source == old), then the
    #: other old melds by number, then the rack.
    origins: tuple[Origin, ...]
    kind: ChangeKind

    def sources(self) -> tuple[Source, ...]:
        """The origin of each tile of ``meld.tiles``, in order."""
        pools = [(origin.source, Counter(origin.tiles)) for origin in self.origins]
        found: list[Source] = []
        for tile in self.meld.tiles:
            source, pool = next((s, p) for s, p in pools if p[tile] > 0)
            pool[tile] -= 1
            found.append(source)
        return tuple(found)


@dataclass(frozen=True, slots=True)
class Aftermath:
    """What became of one meld of the old table."""

    #: Its number: its index in the old table.
    number: int
    meld: Meld
    kind: AftermathKind
    #: The index, in the new table, of the meld it was transformed into in place (None:
    #: broken up, all its tiles went elsewhere).
    into: int | None
    #: Tiles added to it in place, by source.
    added: tuple[Origin, ...]
    #: Tiles it gave to other melds of the new table.
    gave: tuple[Transfer, ...]
    released: tuple[Release, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """Move ``tiles`` from ``source`` (the rack or a meld number) to ``target``."""

    tiles: tuple[Tile, ...]
    source: Source
    target: Target
    #: The step in words, for people; empty for a step read from data without text.
    words: Words = ()

    @property
    def text(self) -> str:
        return plain(self.words)

    def to_data(self) -> dict[str, Any]:
        """The step as JSON data (INTERFACE.md): tiles, from, to and text."""
        return {
            "tiles": [str(t) for t in self.tiles],
            "from": self.source,
            "to": self.target,
            "text": self.text,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Step:
        """Read a step written by :meth:`to_data` (its text is not needed).

        >>> Step.from_data({"tiles": ["R4"], "from": "rack", "to": 0}).target
        0
        """
        try:
            words = data["tiles"]
            source, target = data["from"], data["to"]
        except (KeyError, TypeError):
            raise ExplainError(f"step {data!r}: expected the keys tiles, from and to") from None
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise ExplainError(f"step {data!r}: tiles must be a list of tile strings")
        if not (source == RACK or _is_number(source)):
            raise ExplainError(f"step {data!r}: from must be 'rack' or a meld number")
        if not (target == NEW or _is_number(target)):
            raise ExplainError(f"step {data!r}: to must be 'new' or a meld number")
        return cls(tuple(Tile.parse(w) for w in words), source, target)


def _is_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


@dataclass(frozen=True, slots=True)
class Explanation:
    """Origins and steps of a move from ``old`` to ``new``."""

    old: tuple[Meld, ...]
    new: tuple[Meld, ...]
    played: tuple[Tile, ...]
    #: One per meld of ``new``, in its order.
    changes: tuple[Change, ...]
    #: One per meld of ``old``, in its order.
    aftermaths: tuple[Aftermath, ...]
    steps: tuple[Step, ...]
    rules: Rules = field(repr=False, compare=False, default_factory=Rules)

    @property
    def fates(self) -> tuple[Aftermath, ...]:
        """The name :attr:`aftermaths` had before 0.2 (kept so that callers keep working)."""
        return self.aftermaths

    def to_data(self) -> dict[str, Any]:
        """``"changes"`` and ``"steps"`` as JSON data (INTERFACE.md, README "Explanations")."""
        return {
            "changes": [
                {
                    "meld": change.number,
                    "change": change.kind,
                    "tiles": [str(t) for t in change.meld.tiles],
                    "from": list(change.sources()),
                }
                for change in self.changes
            ],
            "steps": [step.to_data() for step in self.steps],
        }

    def text(self) -> str:
        """The steps as numbered lines of plain text."""
        return "\n".join(f"{n}. {step.text}" for n, step in enumerate(self.steps, start=1))

    def _repr_svg_(self) -> str:
        """The move as a picture, tiles numbered by step (notebooks show it inline)."""
        from rummikub.render.svg import explanation_svg

        return explanation_svg(self)

    def _repr_html_(self) -> str:
        from rummikub.render.svg import html

        return html(self._repr_svg_(), self.text())
