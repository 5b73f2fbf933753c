"""A tile record's annotations from a review (``rummikub game annotate``).

Each judged turn's note: the mover's chance to win, the equity the move lost and its mark,
a draw's luck, and the best line as a variation of a marked turn; what the review does not
write (a comment, the variations of before) is kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummikub.tiles.game.engine import GameState
from rummikub.tiles.game.record import Draw, Note, Pass, Play, Turn, Variation
from rummikub.tiles.melds import RawMeld
from rummikub.tiles.position import Move

if TYPE_CHECKING:  # the review loads only when a record is annotated
    from rummikub.tiles.game.review import EquityTurn

__all__ = ["annotator", "review_note", "variation_turn"]


def annotator(samples: int, rounds: int) -> str:
    """Who wrote the annotations, as the record's ``annotator`` says: the command and its
    budget."""
    return (
        f"rummikub game annotate ({samples} deals x {rounds} "
        f"round{'' if rounds == 1 else 's'} a turn)"
    )


def review_note(turn: EquityTurn, old: Note | None, state: GameState) -> Note | None:
    """A turn's note from the review, keeping what the review does not write (a comment, the
    variations of before); a turn the review could not judge keeps its note as it was."""
    if turn.win is None:
        return old
    old = old or Note()
    variations = old.variations
    best = turn.best
    if turn.mark is not None and best is not None:
        line = Variation(
            (variation_turn(best.move, state),),
            f"best: win {best.win:.2f}, the move played {turn.played_win or 0.0:.2f}",
        )
        variations = (line, *(v for v in variations if v.moves != line.moves))
    return Note(
        mark=turn.mark,
        comment=old.comment,
        win=round(turn.win, 4),
        lost=round(turn.lost, 4) if turn.graded and turn.lost is not None else None,
        luck=None if turn.luck is None else round(turn.luck, 4),
        variations=variations,
    )


def variation_turn(move: Move, state: GameState) -> Turn:
    """A candidate (the best, in a review) as a variation's move (a draw's tile left
    unknown)."""
    if move.played:
        return Play(tuple(RawMeld(meld.tiles, meld.kind) for meld in move.table))
    return Draw(None) if state.pool_count else Pass()
