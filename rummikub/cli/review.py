"""``rummikub analyse RECORD``: every turn of a game record graded against the best move.

The grading itself is :mod:`rummikub.game.review` (the web page's review mode uses it too);
this module reads the file and words the answer for a terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummikub.core.documents import read_document
from rummikub.core.errors import PuzzleError

if TYPE_CHECKING:  # the game package loads only when a record is reviewed
    from rummikub.game.review import Review

__all__ = ["is_record", "review", "review_text"]

#: A record file holds this key (``format = "rummikub-game/1"``); a puzzle file never does.
FORMAT_KEY = "format"
FORMAT_PREFIX = "rummikub-game/"


def is_record(path: str) -> bool:
    """Whether ``path`` is a game record rather than a puzzle (by its ``format`` key)."""
    try:
        data = read_document(path)
    except PuzzleError:
        return False  # the puzzle reader reports what is wrong with it
    value = data.get(FORMAT_KEY) if isinstance(data, dict) else None
    return isinstance(value, str) and value.startswith(FORMAT_PREFIX)


def review(path: str, time_limit: float | None = None) -> Review:
    """Replay the record at ``path`` and grade each turn whose rack is known."""
    from rummikub.game.record import load
    from rummikub.game.review import review_record

    return review_record(load(path), path, time_limit)


def review_text(found: Review) -> str:
    graded = found.graded
    lines = [f"{found.path} - {len(found.turns)} turns, {len(graded)} graded"]
    width = max((len(t.player) for t in found.turns), default=0)
    for turn in found.turns:
        verdict = "rack unknown" if turn.grade is None else turn.grade.text()
        lines.append(f"  {turn.number:>3}. {turn.player:<{width}}  {verdict}")
    if graded:
        best = sum(1 for t in graded if t.grade is not None and t.grade.value_gap == 0)
        given_up = sum(t.grade.value_gap for t in graded if t.grade is not None)
        lines.append(
            f"Best value in {best} of {len(graded)} graded turns; "
            f"{given_up} points left unplayed in all."
        )
    if found.problem is not None:
        lines.append(f"The replay stopped: {found.problem}")
    return "\n".join(lines)
