"""The card turn's integer program: built from parts that each own their variables, rows and
read-back, as the tile model's sub-models do.

:class:`CardModel` builds the model in its constructor, through the shared builder into
:class:`~rummikub.core.lp.records.Records` (the model as data), then loads it into CLP
once. One model serves every draw: it is built for the hand after the deepest pick, and
each draw sets the cards it holds as row bounds (:meth:`.hand.Hand.settings`). Its parts,
in the order their variables are laid:

- :mod:`.runs`: new runs as candidate intervals of a suit;
- :mod:`.sets`: new sets (patterns of distinct suits, or instances where suits may
  repeat) and sets of wild cards only;
- :mod:`.layoffs`: lay-offs on the table's runs and sets, and wild swaps;
- :mod:`.hand`: each card's copies (laid, as wild cards, discarded, left), the discard;
- :mod:`.opening`: the opening by points or by contract, as cases of the search.

:meth:`CardModel.solve` runs the shared search (:func:`rummikub.core.lp.search.settle`:
branch and bound over CLP, then CP-SAT on the records when it is left open) and reads the
answer back part by part.
"""

from __future__ import annotations

import math
import time
from collections import Counter

from rummikub.cards.cards import Card, sort_key
from rummikub.cards.melds import CardMeld
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.solver.hand import Hand, Settings
from rummikub.cards.solver.layoffs import Layoffs
from rummikub.cards.solver.opening import Opening
from rummikub.cards.solver.result import CardStatus, CardTurn
from rummikub.cards.solver.runs import NewRuns
from rummikub.cards.solver.sets import NewSets
from rummikub.cards.solver.shared import Ledger, Turn
from rummikub.core.lp.records import Records
from rummikub.core.lp.search import Budget, SearchOutcome, settle

#: The branch and bound's work budget (LP solves, simplex iterations) per case before the
#: CP-SAT back end takes over: limits of work rather than time, so that an answer does not
#: depend on the machine's load.
NODE_LIMIT = 400
ITERATION_LIMIT = 50_000

#: The objective's weights: points, penalty, and table melds touched.
Weights = tuple[int, int, int]


def weights_of(position: CardPosition) -> Weights:
    """Weights that order turns as CARDS.md section 5 does, the same for every pick of a
    position (so that one pick's LP bound can be compared with another's answer)."""
    rules = position.rules
    cards = Counter(position.hand) + Counter(position.discard)
    most_penalty = sum(rules.penalty(c) * n for c, n in cards.items())
    joker = rules.joker_value if isinstance(rules.joker_value, int) else max(rules.values)
    top = max(*rules.values, rules.ace_low, rules.wild_card_value, joker)
    # Wild cards taken from the table by swaps are laid too.
    swappable = sum(m.wilds for m in position.table) if rules.wild_swap else 0
    most_points = top * (sum(cards.values()) + swappable)
    touches = len(position.table) + 1
    if rules.objective == "points":
        return ((most_penalty + 1) * touches, touches, 1)
    return (touches, (most_points + 1) * touches, 1)


def value_of(turn: CardTurn, weights: Weights) -> int:
    """A turn's objective under ``weights``."""
    return weights[0] * turn.points - weights[1] * turn.penalty - weights[2] * turn.touched


class CardModel:
    """The program of ``position`` for the ``draws`` (built in ``__init__``, for the hand
    after the deepest of them); :meth:`solve` solves it for one draw and reads the answer
    back, :meth:`bound` gives a draw's LP bound."""

    def __init__(self, position: CardPosition, draws: list[Draw], weights: Weights) -> None:
        self.position = position
        self.weights = weights
        depths = [d for d in draws if d != "stock"]
        hand = position.hand_after(max(depths) if depths else "stock")
        self.records = model = Records()
        self.turn = turn = Turn(position, hand)
        ledger = Ledger(model, turn)
        self.runs = NewRuns(model, turn, ledger)
        self.sets = NewSets(model, turn, ledger)
        self.layoffs = Layoffs(model, turn, ledger)
        self.hand = Hand(model, turn, ledger, draws)
        self.opening = Opening(model, turn, ledger, self.hand)
        # Points laid, less the penalty of the cards left, less the table melds touched.
        rules = turn.rules
        points, penalty, touched = weights
        model.maximise([(v, c * points) for v, c in ledger.points])
        model.maximise([(v, -rules.penalty(c) * penalty) for c, v in self.hand.left.items()])
        model.maximise([(v, -touched) for v in ledger.touched])
        #: The live CLP model the search solves, loaded from the records once.
        self.lp = model.load()

    def _apply(self, settings: Settings) -> None:
        rows, variables = settings
        for row, (lower, upper) in rows.items():
            self.lp.set_row_bounds(row, lower, upper)
        for var, (lower, upper) in variables.items():
            self.lp.set_bounds(var, lower, upper)

    def bound(self, draw: Draw) -> float:
        """The LP relaxation's optimum for ``draw`` (minus infinity when even that is
        infeasible)."""
        self._apply(self.hand.settings(draw))
        if self.lp.solve(presolve=True, dual=False) != "optimal":
            return -math.inf
        return self.lp.objective_value()

    def solve(self, draw: Draw, time_limit: float | None) -> CardTurn:
        """The best turn after ``draw``, within ``time_limit`` seconds (None: proven)."""
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        settings = self.hand.settings(draw)
        self._apply(settings)
        rows, variables = settings

        def cp_sat() -> SearchOutcome:
            # Imported here, as the tile model imports CBC's: most searches never need it.
            from rummikub.core.lp import exact

            left = None if deadline is None else max(deadline - time.perf_counter(), 0.001)
            return exact.cp_sat(self.records, rows=rows, variables=variables, time_limit=left)

        outcome = settle(
            self.lp,
            range(self.records.variables()),
            Budget(NODE_LIMIT, ITERATION_LIMIT),
            cp_sat,
            deadline=deadline,
            cases=self.opening.cases or ({},),
        )
        if outcome.status == "infeasible" or outcome.values is None:
            status: CardStatus = "infeasible" if outcome.status == "infeasible" else "feasible"
            return CardTurn(status, draw, self.position.table, {}, None, (), (), 0, 0, 0)
        values = [round(v) for v in outcome.values]
        return self._read(draw, values, proven=outcome.status == "optimal")

    def _read(self, draw: Draw, values: list[int], *, proven: bool) -> CardTurn:
        rules, position = self.turn.rules, self.position

        def value(var: int | None) -> int:
            return 0 if var is None else values[var]

        # The parts take the wild cards laid in the order they were built.
        pool = self.hand.wild_pool(value)
        laid_off = self.layoffs.read(value, pool)
        new_melds: list[CardMeld] = [*self.runs.melds(value, pool), *self.sets.melds(value, pool)]
        discard, left_cards = self.hand.read(value)
        # Wild cards taken from the table pass through the hand: laid again, they are played.
        played = position.hand_after(draw) + laid_off.freed - Counter(left_cards)
        if discard is not None:
            played[discard] -= 1
        played_cards: tuple[Card, ...] = tuple(sorted((+played).elements(), key=sort_key))
        full = tuple(laid_off.table) + tuple(new_melds)
        points = sum(m.value(rules) for m in new_melds) + sum(
            sum(full[i].card_values(rules)[k] for k in laid) for i, laid in laid_off.laid_at.items()
        )
        status: CardStatus = "optimal" if played_cards else "no_move"
        if not proven:
            status = "feasible"
        return CardTurn(
            status,
            draw,
            full,
            laid_off.layoffs,
            discard,
            played_cards,
            left_cards,
            points,
            sum(rules.penalty(c) for c in left_cards),
            len(laid_off.layoffs),
            tuple(laid_off.swaps),
        )
