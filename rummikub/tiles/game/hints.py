"""What a hint adds to the best move of a tile game: the endgame's verdict where the game
is one (``rummikub game hint``)."""

from __future__ import annotations

from dataclasses import replace

from rummikub.tiles.game import endgame
from rummikub.tiles.game.endgame import Verdict
from rummikub.tiles.game.engine import GameState
from rummikub.tiles.game.view import unseen, view_of

__all__ = ["endgame_verdict"]


def endgame_verdict(state: GameState, nodes: int | None) -> Verdict | None:
    """The endgame's verdict when ``state`` is one: 2 players, the pool empty, both racks
    known, or the opponent's deduced at a real table (it holds exactly the unseen tiles)."""
    if len(state.players) != 2 or state.pool_count != 0:
        return None
    if any(rack is None for rack in state.racks):
        position, view = view_of(state)
        other = 1 - state.to_move
        racks = list(state.racks)
        racks[other] = tuple(sorted(unseen(position, view), key=state.rules.sort_key))
        state = replace(state, racks=tuple(racks))
    if not endgame.is_endgame(state):
        return None
    return endgame.decide(state, nodes=endgame.ENDGAME_NODES if nodes is None else nodes)
