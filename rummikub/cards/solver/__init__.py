"""The best card turn (CARDS.md section 5) as an integer program, proven optimal.

A card model of its own rather than the tile solver's (a card turn differs where it
matters: no rearranging, a discard, opening by points or by contract, a pile pick), built
and searched by what both solvers share (:mod:`rummikub.core.lp`: one builder, one branch
and bound with its exact back end, here CP-SAT). What it shares with the tile model is
the idea of a run as an interval of positions: each run laid is one interval per suit,
and a lay-off on a table run is an interval grown at either end.

- :mod:`.model`: the program, from its parts (:mod:`.runs`, :mod:`.sets`, :mod:`.layoffs`,
  :mod:`.hand`, :mod:`.opening`), and its solve for one draw;
- :mod:`.result`: :class:`CardTurn`, :class:`CardResult` and :func:`score`;
- here: :func:`solve` over every pile pick, and :func:`solve_draw` for one draw.

OR-Tools is imported only when a solve runs.
"""

from __future__ import annotations

import math
import time

from rummikub.cards.cards import type_of
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.solver.model import CardModel, value_of, weights_of
from rummikub.cards.solver.result import CardResult, CardStatus, CardTurn, score
from rummikub.core import deadline


def solve(
    position: CardPosition, *, time_limit: float | None = None, all_picks: bool = False
) -> CardResult:
    """The best turn for ``position``: over every pile pick when the draw is still due.

    A pick whose LP bound cannot beat the best turn so far is not solved (``picks`` then
    holds only the picks solved); ``all_picks`` solves every one. ``time_limit`` (seconds,
    None: until proven) covers the whole solve, every pick, and ends no later than an
    enclosing limit (:mod:`rummikub.core.deadline`: a web request's).
    """
    solvable(position, time_limit)
    if not isinstance(all_picks, bool):
        raise TypeError(f"all_picks must be True or False, got {type_of(all_picks)}")
    with deadline.limit(time_limit):
        return _solve(position, all_picks)


def _solve(position: CardPosition, all_picks: bool) -> CardResult:
    start = time.perf_counter()
    rules = position.rules
    weights = weights_of(position)
    depths = position.picks()
    # One program for every draw: built for the hand after the deepest pick, each draw
    # sets the cards held (row bounds), so the program is built and handed to CLP once.
    model = CardModel(position, ["stock", *depths], weights)
    stock = model.solve("stock", deadline.remaining())
    if not depths:
        return CardResult(stock, position, time.perf_counter() - start)
    order: list[int] = list(depths)
    if not all_picks:
        # The most promising picks first, so that the others are cut by their bound.
        bounds = {depth: model.bound(depth) for depth in depths}
        order.sort(key=lambda depth: (-bounds[depth], depth))
    picks: list[CardTurn] = []
    best_pick: CardTurn | None = None
    for depth in order:
        if not all_picks:
            if bounds[depth] == -math.inf:
                continue  # not even the LP has a legal turn: nor has this pick
            bound = math.floor(bounds[depth] + 1e-6)
            # A pick must beat the hand as it is; among picks, ties go to the shallower.
            if bound <= value_of(stock, weights) or (
                best_pick is not None and bound < value_of(best_pick, weights)
            ):
                continue
        turn = model.solve(depth, deadline.remaining())
        picks.append(turn)
        if turn.status != "infeasible" and (
            best_pick is None
            or score(turn, rules) > score(best_pick, rules)
            or (
                score(turn, rules) == score(best_pick, rules)
                and int(turn.draw) < int(best_pick.draw)
            )
        ):
            best_pick = turn
    best = stock
    if best_pick is not None and score(best_pick, rules) > score(stock, rules):
        best = best_pick
    picks.sort(key=lambda turn: int(turn.draw))
    return CardResult(best, position, time.perf_counter() - start, stock, tuple(picks))


def solve_draw(position: CardPosition, draw: Draw, *, time_limit: float | None = None) -> CardTurn:
    """The best turn after ``draw`` (``"stock"``: the hand as it is)."""
    solvable(position, time_limit)
    if draw != "stock" and draw not in position.picks():
        raise ValueError(
            f"draw={draw!r} must be 'stock' or a pile depth the position allows "
            f"({position.picks() or 'none: the draw is made or the pile is empty'})"
        )
    with deadline.limit(time_limit):
        left = deadline.remaining()
        return CardModel(position, [draw], weights_of(position)).solve(draw, left)


def solvable(position: object, time_limit: object) -> None:
    """The arguments of a card solve: a sound :class:`CardPosition` (as the puzzle reader
    judges one, :meth:`CardPosition.check_built`), a time limit None or finite > 0."""
    if not isinstance(position, CardPosition):
        raise TypeError(
            "solve() takes a CardPosition (e.g. CardPosition(preset('rummy'), "
            f"parse_cards('7S 8S 9S'))), got {type_of(position)}"
        )
    position.check_built()
    if time_limit is None:
        return
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        raise TypeError(
            f"time_limit must be a number of seconds or None, got {type_of(time_limit)}"
        )
    if not math.isfinite(time_limit) or time_limit <= 0:
        raise ValueError(
            f"time_limit={time_limit!r} must be a finite number of seconds > 0 "
            "(or None for no limit)"
        )


__all__ = ["CardResult", "CardStatus", "CardTurn", "score", "solvable", "solve", "solve_draw"]
