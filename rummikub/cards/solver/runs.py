"""Sub-model: new runs, as candidate intervals of positions of a suit.

One variable per interval (and per copy of the pack) laid as a new run, with a
natural-or-wild choice at each position where the hand holds the natural card; intervals
needing more wild cards than the turn may lay are never built. Its LP is far tighter than
one variable per position laid (benchmarks/RESULTS.md, "Solver choices: the card model").
"""

from __future__ import annotations

from collections.abc import Iterator

from rummikub.cards.cards import SUITS, Card
from rummikub.cards.melds import CardMeld, card_at
from rummikub.cards.solver.shared import Ledger, Turn, Value, at_least, at_most, ones, run_card
from rummikub.core.lp.records import Records


class NewRun:
    """A candidate run: its suit, first position and length, its variable (copies laid, 0
    or 1) and the variable of each natural card it may hold, by position."""

    __slots__ = ("first", "length", "natural", "suit", "var")

    def __init__(self, suit: str, first: int, length: int, var: int, natural: dict[int, int]):
        self.suit = suit
        self.first = first
        self.length = length
        self.var = var
        self.natural = natural


class NewRuns:
    """The candidate runs of a turn: their variables and rows, and the runs an answer lays."""

    def __init__(self, model: Records, turn: Turn, ledger: Ledger) -> None:
        self.model = model
        self.turn = turn
        self.ledger = ledger
        self.runs: list[NewRun] = []
        rules, hand = turn.rules, turn.hand
        positions = list(turn.positions())
        for suit in SUITS if turn.new_melds else ():
            have = {p: hand[card_at(suit, p)] for p in positions}
            for first in positions:
                forced = 0
                for last in positions:
                    if last < first:
                        continue
                    forced += have[last] == 0
                    length = last - first + 1
                    if forced > turn.wild_total or length > 13:
                        break
                    naturals = sum(1 for p in range(first, last + 1) if have[p])
                    if length < rules.run_min or naturals == 0:
                        continue
                    previous: int | None = None
                    for _ in range(min(rules.decks, max(have[p] for p in range(first, last + 1)))):
                        previous = self._candidate(suit, first, last, have, previous)

    def _candidate(
        self, suit: str, first: int, last: int, have: dict[int, int], previous: int | None
    ) -> int:
        model, turn, ledger = self.model, self.turn, self.ledger
        run = model.integer(1)
        natural: dict[int, int] = {}
        for p in range(first, last + 1):
            if have[p]:
                natural[p] = model.integer(1)
                at_most(model, [(natural[p], 1), (run, -1)], 0)  # a natural card of a run laid
                ledger.use[card_at(suit, p)].append(natural[p])
        natural_count = ones(list(natural.values()))
        at_least(model, [*natural_count, (run, -1)], 0)  # a run of wild cards only has no suit
        length = last - first + 1
        wilds = [(run, length), *[(v, -c) for v, c in natural_count]]
        ledger.wild_slots += wilds
        ledger.wild_limit(wilds, natural_count)
        for p in range(first, last + 1):
            card = card_at(suit, p)
            wild_value = turn.wild_value(card, p)
            ledger.points.append((run, wild_value))
            ledger.new_value.append((run, wild_value))
            if p in natural:
                delta = turn.natural_value(card, p) - wild_value
                ledger.points.append((natural[p], delta))
                ledger.new_value.append((natural[p], delta))
        if previous is not None:
            at_most(model, [(run, 1), (previous, -1)], 0)  # copies used in order
        ledger.new_runs.append(run)
        ledger.any_new.append(run)
        self.runs.append(NewRun(suit, first, length, run, natural))
        return run

    def melds(self, value: Value, pool: Iterator[Card]) -> list[CardMeld]:
        """The runs an answer lays (wild cards from ``pool``)."""
        found: list[CardMeld] = []
        for run in self.runs:
            if not value(run.var):
                continue
            places = range(run.first, run.first + run.length)
            laid = [run_card(run.suit, p, run.natural, value, pool) for p in places]
            found.append(
                CardMeld(
                    "run",
                    tuple(c for c, _ in laid),
                    tuple(w for _, w in laid),
                    suit=run.suit,
                    start=run.first,
                )
            )
        return found
