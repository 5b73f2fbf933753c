"""Sub-model: new sets (groups of one rank), and sets of wild cards only.

Sets of distinct suits (at most four cards) are patterns, as runs are intervals: one integer
per choice of suits and number of wild cards, counting the sets laid so. Where suits may
repeat, a set is an instance of a rank with a 0-1 variable per copy of a card, each at most
the set's activity, so that a card laid in a set makes the whole set, wild cards and all,
in the LP too. Both are far tighter than interchangeable numbered sets
(benchmarks/RESULTS.md, "Solver choices: the card model").
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from rummikub.cards.cards import SUITS, Card
from rummikub.cards.melds import CardMeld
from rummikub.cards.solver.shared import Ledger, Turn, Value, at_least, at_most, ones
from rummikub.core.lp.records import Records


class NewSets:
    """The candidate sets of a turn: their variables and rows, and the sets an answer lays."""

    def __init__(self, model: Records, turn: Turn, ledger: Ledger) -> None:
        self.model = model
        self.turn = turn
        self.ledger = ledger
        #: Sets where suits may repeat: (rank, (suit, copy's variable) per card, wild cards).
        self.instances: list[tuple[int, list[tuple[str, int]], int]] = []
        #: Sets of distinct suits as patterns: (rank, suits, wild cards, how many laid).
        self.patterns: list[tuple[int, tuple[str, ...], int, int]] = []
        #: Sets of wild cards only: how many, and the wild cards they hold.
        self.wild_count: int | None = None
        self.wild_cards: int | None = None
        for rank in range(1, 14) if turn.new_melds else ():
            cards = [Card(rank, s) for s in SUITS if turn.hand[Card(rank, s)]]
            if turn.rules.set_suits == "distinct":
                self._patterns(rank, cards)
            else:
                self._instances(rank, cards)
        self._wild_sets()

    def _instances(self, rank: int, cards: list[Card]) -> None:
        model, turn, ledger = self.model, self.turn, self.ledger
        rules, hand = turn.rules, turn.hand
        naturals = sum(hand[c] for c in cards)
        count = min(naturals, (naturals + turn.wild_total) // rules.set_min)
        most = naturals + turn.wild_total
        if rules.set_max:
            most = min(most, rules.set_max)
        previous: int | None = None
        for _ in range(count):
            active = model.integer(1)
            # One 0-1 variable per copy of a card (two packs: two), each at most the set's
            # activity: one variable of 0-2 copies let a set at half activity lay a lone
            # card without its wild cards, a gap of most of a penalty.
            natural: list[tuple[str, int]] = []
            for card in cards:
                before: int | None = None
                for _ in range(hand[card]):
                    var = model.integer(1)
                    at_most(model, [(var, 1), (active, -1)], 0)  # only in a set laid
                    if before is not None:
                        at_most(model, [(var, 1), (before, -1)], 0)  # copies in order
                    before = var
                    natural.append((card.suit, var))
                    ledger.use[card].append(var)
            wild = model.integer(turn.wild_total)
            natural_count = ones([var for _, var in natural])
            size = [*natural_count, (wild, 1)]
            at_least(model, [*natural_count, (active, -1)], 0)  # a natural card at least
            at_least(model, [*size, (active, -rules.set_min)], 0)  # the set's least size
            at_most(model, [*size, (active, -most)], 0)  # and its most
            ledger.wild_limit([(wild, 1)], natural_count)
            ledger.wild_slots.append((wild, 1))
            wild_value = turn.wild_value(Card(rank, "S"))
            for suit, var in natural:
                value = turn.natural_value(Card(rank, suit))
                ledger.points.append((var, value))
                ledger.new_value.append((var, value))
            ledger.points.append((wild, wild_value))
            ledger.new_value.append((wild, wild_value))
            if previous is not None:
                at_most(model, [(active, 1), (previous, -1)], 0)  # sets laid in order
            previous = active
            ledger.new_sets.append(active)
            ledger.any_new.append(active)
            self.instances.append((rank, natural, wild))

    def _patterns(self, rank: int, cards: list[Card]) -> None:
        model, turn, ledger = self.model, self.turn, self.ledger
        rules = turn.rules
        most = rules.set_max
        for size in range(1, len(cards) + 1):
            for chosen in itertools.combinations(cards, size):
                copies = min(turn.hand[c] for c in chosen)
                for wilds in range(min(turn.wild_total, most - size) + 1):
                    if size + wilds < rules.set_min:
                        continue
                    if rules.wilds_at_most == "naturals" and wilds > size:
                        continue
                    laid = model.integer(
                        copies if not wilds else min(copies, turn.wild_total // wilds)
                    )
                    for card in chosen:
                        ledger.use[card].append(laid)
                    value = sum(turn.natural_value(c) for c in chosen)
                    value += wilds * turn.wild_value(Card(rank, "S"))
                    ledger.points.append((laid, value))
                    ledger.new_value.append((laid, value))
                    if wilds:
                        ledger.wild_slots.append((laid, wilds))
                    ledger.new_sets.append(laid)
                    ledger.any_new.append(laid)
                    suits = tuple(c.suit for c in chosen)
                    self.patterns.append((rank, suits, wilds, laid))

    def _wild_sets(self) -> None:
        """Sets of wild cards only (Continental's trio of wild cards)."""
        model, turn, ledger = self.model, self.turn, self.ledger
        rules = turn.rules
        if not (rules.wild_sets and turn.wild_total >= rules.set_min and turn.new_melds):
            return
        most_sets = turn.wild_total // rules.set_min
        count_var = model.integer(most_sets)
        cards_var = model.integer(turn.wild_total)
        self.wild_count, self.wild_cards = count_var, cards_var
        at_least(model, [(cards_var, 1), (count_var, -rules.set_min)], 0)  # each set's least
        per_set = rules.set_max or turn.wild_total
        at_most(model, [(cards_var, 1), (count_var, -per_set)], 0)  # and its most
        ledger.wild_slots.append((cards_var, 1))
        value = turn.wild_value(None)
        ledger.points.append((cards_var, value))
        ledger.new_value.append((cards_var, value))
        ledger.new_sets.append(count_var)
        any_wildset = model.integer(1)
        # any_wildset is 1 exactly when some set of wild cards is laid.
        at_most(model, [(count_var, 1), (any_wildset, -most_sets)], 0)
        at_least(model, [(count_var, 1), (any_wildset, -1)], 0)
        ledger.any_new.append(any_wildset)

    def melds(self, value: Value, pool: Iterator[Card]) -> list[CardMeld]:
        """The sets an answer lays (wild cards from ``pool``): patterns, instances, then
        sets of wild cards only."""
        found: list[CardMeld] = []
        for rank, suits, wilds_each, count_var in self.patterns:
            for _ in range(value(count_var)):
                wilds = [next(pool) for _ in range(wilds_each)]
                found.append(
                    CardMeld(
                        "set",
                        (*[Card(rank, s) for s in suits], *wilds),
                        (*[False] * len(suits), *[True] * len(wilds)),
                        rank=rank,
                    )
                )
        for rank, natural, wild in self.instances:
            cards = [Card(rank, s) for s, v in natural for _ in range(value(v))]
            if not cards:
                continue
            wilds = [next(pool) for _ in range(value(wild))]
            found.append(
                CardMeld(
                    "set",
                    (*cards, *wilds),
                    (*[False] * len(cards), *[True] * len(wilds)),
                    rank=rank,
                )
            )
        wild_cards = [next(pool) for _ in range(value(self.wild_cards))]
        count = value(self.wild_count)
        for k in range(count):
            # The wild cards shared out as evenly as the sets allow.
            part = wild_cards[k::count]
            found.append(CardMeld("set", tuple(part), (True,) * len(part), rank=0))
        return found
