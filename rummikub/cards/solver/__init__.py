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

from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.solver.model import CardModel, value_of, weights_of
from rummikub.cards.solver.result import CardResult, CardStatus, CardTurn, score


def solve(
    position: CardPosition, *, time_limit: float | None = None, all_picks: bool = False
) -> CardResult:
    """The best turn for ``position``: over every pile pick when the draw is still due.

    A pick whose LP bound cannot beat the best turn so far is not solved (``picks`` then
    holds only the picks solved); ``all_picks`` solves every one.
    """
    start = time.perf_counter()
    rules = position.rules
    weights = weights_of(position)
    depths = position.picks()
    # One program for every draw: built for the hand after the deepest pick, each draw
    # sets the cards held (row bounds), so the program is built and handed to CLP once.
    model = CardModel(position, ["stock", *depths], weights)
    stock = model.solve("stock", time_limit)
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
        turn = model.solve(depth, time_limit)
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
    return CardModel(position, [draw], weights_of(position)).solve(draw, time_limit)


__all__ = ["CardResult", "CardStatus", "CardTurn", "score", "solve", "solve_draw"]
