"""Sub-model: the opening, by points or by contract (CARDS.md), as cases.

To open or not is a disjunction whose big-M rows have a weak LP relaxation (every row of
the opening at a fraction), so the model is solved as separate cases, each fixing the
opening's 0-1 variables (:func:`rummikub.core.lp.search.settle`), each with a tight
relaxation.
"""

from __future__ import annotations

from rummikub.cards.solver.hand import Hand
from rummikub.cards.solver.shared import Ledger, Turn, at_least, at_most, equal, ones
from rummikub.core.lp.records import Records


class Opening:
    """The rows of the opening, and the cases (variables fixed at a value) it splits the
    model into; no case where the turn needs no opening."""

    def __init__(self, model: Records, turn: Turn, ledger: Ledger, hand: Hand) -> None:
        self.cases: list[dict[int, float]] = []
        rules, position = turn.rules, turn.position
        if rules.opening == "none":
            return
        if rules.opening == "points":
            if position.opened:
                return
            opens, out = model.integer(1), model.integer(1)
            # Lay nothing (a quick floor for the others: a node no better is cut); open by
            # points; go out at once.
            self.cases = [{opens: 0, out: 0}, {opens: 1, out: 0}, {opens: 0, out: 1}]
            at_most(model, [(opens, 1), (out, 1)], 1)
            # Opening lays new melds worth the opening's points.
            at_least(model, [*ledger.new_value, (opens, -rules.opening_points)], 0)
            for var in ledger.any_new:
                upper = int(model.uppers[var])
                at_most(model, [(var, 1), (opens, -upper), (out, -upper)], 0)  # new: if down
            for var in ledger.any_layoff:
                at_most(model, [(var, 1), (opens, -1)], 0)  # a lay-off: if opened
            # Out at once: every card but the discard laid, in new melds only.
            cards = turn.cards_total
            at_most(model, [*hand.total_left, (out, cards)], cards)
            return
        if position.opened:
            for var in ledger.any_new:
                equal(model, [(var, 1)], 0)  # down already: lay-offs only
            return
        down = model.integer(1)
        self.cases = [{down: 1}, {down: 0}]  # lay exactly the contract, or stay down
        sets, runs = rules.contract(position.deal or 1)
        equal(model, [*ones(ledger.new_sets), (down, -sets)], 0)
        equal(model, [*ones(ledger.new_runs), (down, -runs)], 0)
        for var in ledger.any_layoff:
            at_most(model, [(var, 1), (down, -1)], 0)  # a lay-off: if down
