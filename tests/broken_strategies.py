"""Strategies broken on purpose, for the tests of self-play's failures (never shipped).

Module-level functions, so that Dask workers unpickle them by reference (a test registers
them in ``STRATEGIES`` with ``monkeypatch``; the run looks them up once and sends them). Both
play like ``casual`` until a condition read from the position alone, so that they fail in
some games and not in others, the same games every time.
"""

from __future__ import annotations

from rummikub.tiles.game.strategies import casual
from rummikub.tiles.game.view import View
from rummikub.tiles.position import Move, Position


def raises(position: Position, view: View) -> Move:
    """Raises once the game is six turns old with a red tile first in its rack."""
    if view.turns >= 6 and position.rack and position.rack[0].color == "R":
        raise ValueError("this strategy gave up")
    return casual(position, view)


def cheats(position: Position, view: View) -> Move:
    """Takes the first meld off the table while it lays a tile, once the game is ten turns
    old with K2 first in its rack: a move the engine refuses."""
    if view.turns >= 10 and position.table and position.rack and str(position.rack[0]) == "K2":
        return Move(position.table[1:], position.rack[:1])
    return casual(position, view)
