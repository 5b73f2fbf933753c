"""What the record commands of a tile game change (``rummikub game``): a turn added, the
last one taken back, a draw as the record writes it.

A refusal is an :class:`EntryError` in words (the command line names the record before
it); the engine judges the turns.
"""

from __future__ import annotations

from rummikub.core.errors import RummikubError
from rummikub.tiles.game.engine import GameState, Replay, advance, replay
from rummikub.tiles.game.record import Draw, Record, Turn
from rummikub.tiles.tiles import Tile

__all__ = ["EntryError", "drawn", "played_on", "undone"]


class EntryError(RummikubError):
    """An entry the record's game does not allow now."""


def drawn(state: GameState, tile: Tile | None) -> Draw:
    """The draw of the player to move, as the record writes it: with the pool's order
    known, the tile drawn is named (``tile``, when given, must be that one)."""
    return Draw(state.pool[0] if tile is None and state.pool else tile)


def played_on(record: Record, state: GameState, turn: Turn) -> tuple[Record, GameState]:
    """The record and the state after ``turn`` (raises the engine's ``TurnError``)."""
    after = advance(state, turn)
    return record.with_turns((*record.turns, turn), after.result), after


def undone(record: Record) -> tuple[Record, Replay]:
    """The record without its last turn (a turn whose text could not be read is the one
    removed first), and it replayed."""
    if not record.turns and record.problem is None:
        raise EntryError("no turn to undo")
    turns = record.turns if record.problem is not None else record.turns[:-1]
    game = replay(record.with_turns(turns, None))
    return record.with_turns(turns, game.state.result), game
