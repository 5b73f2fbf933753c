"""Named players: the strategies of one game, looked up by the names the command line takes.

Each domain keeps one :class:`Registry` of its players (``rummikub.tiles.game.strategies``,
``rummikub.cards.game.strategies``) and registers into it; self-play, duels and the play
loop look a name up here, so an unknown name is refused in one way, naming the known ones.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

from rummikub.core.errors import ArgumentError

__all__ = ["Registry"]

P = TypeVar("P")


class Registry(Generic[P]):
    """The players of one game by name, in the order they were registered.

    ``players`` is the registry's own dict (a domain's public ``STRATEGIES``): a player
    added to either is known to both.
    """

    def __init__(self, what: str, players: dict[str, P] | None = None) -> None:
        #: What a name stands for, as the refusal says it ("strategy", "card strategy").
        self.what = what
        self.players: dict[str, P] = players if players is not None else {}

    def register(self, name: str, player: P) -> P:
        """Know ``player`` as ``name`` (a name known already now stands for ``player``)."""
        self.players[name] = player
        return player

    def __call__(self, name: str) -> P:
        """The player called ``name`` (case and surrounding blanks ignored), or a
        :class:`RummikubError` naming the known ones."""
        try:
            return self.players[name.strip().lower()]
        except (KeyError, AttributeError):
            known = ", ".join(self.players)
            raise ArgumentError(f"unknown {self.what} {name!r} (expected one of {known})") from None

    def __contains__(self, name: object) -> bool:
        return name in self.players

    def __iter__(self) -> Iterator[str]:
        return iter(self.players)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.players)
