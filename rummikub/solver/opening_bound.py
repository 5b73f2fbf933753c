"""Solving a not-opened position whose initial meld may hold jokers: a relaxation first.

Under the joker lock an initial meld laid with a joker stays locked for the rest of the
turn (RULES.md rule 3), so the exact model makes each such meld the hand can lay a locked
unit with one column per meld it may end in (:mod:`.locks`): for a rack of 30-50 tiles
with 3-4 jokers, 1,000-2,000 units and 10,000-35,000 columns, seconds to build and solve.

Yet a joker in the initial meld is needed only to reach ``initial_meld``: once laid, a
locked meld's tiles lie on the table in a valid meld, which free tiles could lay as well.
So the *relaxed* model lays initial melds with a joker as free tiles (like joker-free ones,
no locked units) and allows every move the rules allow: its optimum bounds the exact one
from above. It is solved first, then:

1. if its move lays no initial meld with a joker free, that move is legal, so optimal;
2. else the same model with those melds forbidden (the exact model without any initial
   meld holding a joker: a restriction) is solved; if it scores as much, its move is
   optimal (a big rack nearly always opens without jokers);
3. else the exact model decides (jokers are needed to open at the best score).

Every answer is a move of the exact model, proven optimal by the exact model or by the
bound. Whether to take this path is decided by the rack alone, never by time.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from rummikub.position import Position
from rummikub.solver import deadline
from rummikub.solver.candidates import TileIndex
from rummikub.solver.model import ModelOutcome, MoveModel
from rummikub.solver.opening import hand_readings_with_jokers

#: Initial melds with a joker the hand can lay (hand readings) from which the relaxation is
#: tried first: below it the exact model is small and one solve beats up to three.
RELAX_FROM = 0


def worth_relaxing(position: Position) -> bool:
    """Whether the exact model of ``position`` would hold enough locked initial melds for
    the relaxation to pay (a count of the hand's melds, never a time)."""
    rules = position.rules
    if position.opened or not rules.open_then_play or rules.joker_lock != "strict":
        return False
    index = TileIndex(rules)
    rack = index.counts(position.rack)
    if not rack[index.joker]:
        return False
    if RELAX_FROM == 0:
        return True
    return len(hand_readings_with_jokers(rules, rack, index)) >= RELAX_FROM


def solve_model(build: Callable[[bool], MoveModel], position: Position) -> ModelOutcome:
    """The outcome of the exact model of ``position``, where ``build(relax)`` builds it
    (``relax``: the relaxed model), within the time limit of :mod:`.deadline`."""
    if not worth_relaxing(position):
        return build(False).solve(deadline.remaining())
    model = build(True)
    model.forbid_relaxation()
    restricted = model.solve(deadline.remaining())
    model.forbid_relaxation(False)
    if restricted.status == "optimal" and restricted.score is not None:
        better = model.solve(deadline.remaining(), above=restricted.score)
        if better.status == "no_move":
            return restricted  # nothing scores more even relaxed: optimal
        if better.solution is not None and not better.relaxed:
            return better  # a legal move better than the restricted optimum: cannot be
    elif restricted.status == "no_move" and model.lp_bound() == -math.inf:
        return restricted  # no move even relaxed
    bound = model.solve(deadline.remaining())
    if bound.solution is None or not bound.relaxed:
        # No move even relaxed (proven or not), or a move the rules allow.
        return bound
    if restricted.solution is not None and restricted.score == bound.score:
        # As good as the relaxation's best: optimal if both were proven.
        proven = restricted.status == "optimal" and bound.status == "optimal"
        return _as(restricted, "optimal" if proven else "feasible")
    try:
        exact = build(False).solve(deadline.remaining())
    except deadline.OutOfTime:
        exact = ModelOutcome("unknown", None)
    if exact.proven or restricted.solution is None:
        return exact
    if exact.solution is None or (restricted.score or 0) > (exact.score or 0):
        return _as(restricted, "feasible")  # out of time: the best legal move found
    return exact


def _as(outcome: ModelOutcome, status: str) -> ModelOutcome:
    return ModelOutcome(
        "optimal" if status == "optimal" else "feasible",
        outcome.solution,
        outcome.nodes,
        outcome.score,
        outcome.relaxed,
    )
