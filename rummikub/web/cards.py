"""The web page's card rummies: ``/api/cards/solve`` and ``/api/cards/check``.

A request is a card puzzle's data (README "Card puzzle files": ``game``, ``hand``, ``table``,
``opened``, ``deal``, ``discard``, ``drawn``, ``rules``), read by the same reader as a file
(every problem at once, each with its key); the answer is the JSON of ``solve --json`` or
``check --json`` for a card puzzle (README "Card JSON"), from :mod:`rummikub.render.card_data`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummikub.cards.melds import RawCardMeld
from rummikub.cards.puzzles import CardPuzzle, from_data
from rummikub.core.documents import quote
from rummikub.core.errors import NotationError, PuzzleError
from rummikub.render.card_data import steps_data, turn_data, verdict_data
from rummikub.web.api import REQUEST, Limits, RequestError, _bad, _flag, _keys, time_limit_of

__all__ = ["check", "solve"]

POSITION_KEYS = ("game", "hand", "table", "opened", "deal", "discard", "drawn", "rules")
SOLVE_KEYS = (*POSITION_KEYS, "time_limit", "explain")
CHECK_KEYS = (*POSITION_KEYS, "after", "after_discard", "after_draw")


def _puzzle(request: Mapping[str, Any]) -> CardPuzzle:
    data = {key: request[key] for key in POSITION_KEYS if key in request}
    if "game" not in data:
        raise _bad('game: expected one of the card games, e.g. "500-rum"')
    try:
        return from_data(data, REQUEST)
    except PuzzleError as error:
        raise RequestError(422, [f"{REQUEST}: {p}" for p in error.problems]) from None


def solve(data: Any, limits: Limits) -> dict[str, Any]:
    """``/api/cards/solve``: the best turn, as ``solve --json --explain`` prints it."""
    from rummikub.cards.solver import solve as solve_cards

    request = _keys(data, SOLVE_KEYS)
    puzzle = _puzzle(request)
    time_limit = time_limit_of(request, limits)
    result = solve_cards(puzzle.position, time_limit=time_limit)
    position = result.position
    answer: dict[str, Any] = {"puzzle": None, "game": position.rules.game}
    answer |= turn_data(result.best, position.drawn)
    if result.baseline is not None:
        answer["baseline"] = {"points": result.baseline.points, "penalty": result.baseline.penalty}
    if _flag(request, "explain", True):
        answer["steps"] = steps_data(result.best, len(position.table))
    answer["seconds"] = round(result.seconds, 6)
    return answer


def check(data: Any) -> dict[str, Any]:
    """``/api/cards/check``: the proposed turn judged, as ``check --json`` prints it."""
    from rummikub.cards.checker import check as check_cards

    request = _keys(data, CHECK_KEYS)
    puzzle = _puzzle(request)
    if "after" not in request:
        raise _bad("after: the proposed new table is missing")
    raw = request["after"]
    if isinstance(raw, str):
        raw = [m for m in raw.split("|") if m.strip()]
    if not isinstance(raw, list) or not all(isinstance(m, str) for m in raw):
        raise _bad("after: expected melds, as a string (separated by |) or a list of strings")
    try:
        proposed = [RawCardMeld.parse(text) for text in raw]
    except NotationError as error:
        raise RequestError(422, [f"after {quote(' | '.join(raw))}: {error}"]) from None
    extra: dict[str, Any] = {}
    if "after_discard" in request or "after_draw" in request:
        # Read by the puzzle reader, as a file's after_discard and after_draw are.
        keyed = {k: request[k] for k in ("after_discard", "after_draw") if k in request}
        try:
            read = from_data(
                {**{k: request[k] for k in POSITION_KEYS if k in request}, **keyed, "after": raw},
                REQUEST,
            )
        except PuzzleError as error:
            raise RequestError(422, [f"{REQUEST}: {p}" for p in error.problems]) from None
        extra = {"discard": read.after_discard, "draw": read.after_draw}
    verdict = check_cards(puzzle.position, proposed, **extra)
    return verdict_data(verdict)
