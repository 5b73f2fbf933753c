"""Sub-model: the hand's cards, the discard and the cards left, for every draw at once.

Each card of the hand (after the deepest pick) has one row: its copies laid, used as wild
cards, discarded and left add up to the copies held. The model is built for the deepest
pick, and each draw sets what it holds as that row's bounds (:meth:`Hand.settings`), with
the row that makes the deepest card taken laid binding for that draw only: one model for
every draw, built and handed to CLP once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from rummikub.cards.cards import Card, sort_key
from rummikub.cards.position import Draw
from rummikub.cards.solver.shared import Ledger, Terms, Turn, Value, at_least, at_most, equal, ones
from rummikub.core.lp.builder import INF
from rummikub.core.lp.records import Records

#: Row bounds and variable bounds by index: what one draw sets in the shared model.
Settings = tuple[dict[int, tuple[float, float]], dict[int, tuple[float, float]]]


class Hand:
    """The rows of the hand's cards and of the discard, and what an answer leaves."""

    def __init__(self, model: Records, turn: Turn, ledger: Ledger, draws: list[Draw]) -> None:
        self.turn = turn
        rules, position, hand = turn.rules, turn.position, turn.hand
        original = Counter(position.hand)
        #: ``as_wild[card]``: copies of the wild-capable ``card`` laid as wild cards.
        self.as_wild = {c: model.integer(hand[c] + turn.freeable[c]) for c in turn.wildcards}
        # Every wild place is filled by one wild card.
        equal(model, ledger.wild_slots + [(v, -1) for v in self.as_wild.values()], 0)
        self.left: dict[Card, int] = {}
        self.discard: dict[Card, int] = {}
        #: The row of each card's copies, by card: its bounds are what a draw holds.
        self.card_rows: dict[Card, int] = {}
        for card in sorted(set(hand) | set(turn.freeable), key=sort_key):
            used = ones(ledger.use.get(card, []))
            if card in self.as_wild:
                used.append((self.as_wild[card], 1))
            # A card taken from the pile is not discarded again.
            self.discard[card] = disc = model.integer(1 if original[card] else 0)
            self.left[card] = left = model.integer(hand[card])
            freed = ones(ledger.freed.get(card, []), -1)
            # Left + laid + discarded - taken back from the table = held.
            self.card_rows[card] = equal(model, [(left, 1), *used, (disc, 1), *freed], hand[card])
            if freed:
                # A wild card taken from the table is laid again as a wild card.
                at_least(model, [(self.as_wild[card], 1), *freed], 0)
        # The deepest card taken must be laid: a row per draw, binding for that draw only.
        self.deepest_rows: dict[Draw, int] = {}
        for draw in draws:
            deepest = position.deepest(draw)
            if deepest is None:
                continue
            uses = ones(ledger.use.get(deepest, []))
            if deepest in self.as_wild:
                uses.append((self.as_wild[deepest], 1))
            self.deepest_rows[draw] = at_least(model, uses, 0)
        discards = ones(list(self.discard.values()))
        #: The cards left in the hand, as terms (the opening: out at once leaves none).
        self.total_left: Terms = ones(list(self.left.values()))
        cards = turn.cards_total
        if not rules.discard_at_end:
            equal(model, discards, 0)
        elif rules.out_without_discard:
            out_free = model.integer(1)
            equal(model, [*discards, (out_free, 1)], 1)  # one discard, or out without one
            at_most(model, [*self.total_left, (out_free, cards)], cards)  # out: nothing left
        else:
            equal(model, discards, 1)
        if rules.keep_wilds and rules.discard_at_end:
            # A wild card is discarded only when nothing else is left to discard.
            others = [(v, 1) for c, v in self.left.items() if not rules.is_wild(c)] + [
                (self.discard[c], 1) for c in self.left if not rules.is_wild(c)
            ]
            for card in turn.wildcards:
                at_most(model, [*others, (self.discard[card], cards)], cards)

    def settings(self, draw: Draw) -> Settings:
        """The row and variable bounds that make the model that of ``draw``."""
        hand = self.turn.position.hand_after(draw)
        rows: dict[int, tuple[float, float]] = {
            row: (hand[card], hand[card]) for card, row in self.card_rows.items()
        }
        for other, row in self.deepest_rows.items():
            rows[row] = (1 if other == draw else 0, INF)
        variables: dict[int, tuple[float, float]] = {
            left: (0, hand[card]) for card, left in self.left.items()
        }
        return rows, variables

    def wild_pool(self, value: Value) -> Iterator[Card]:
        """The wild cards an answer lays, in the order the parts take them: jokers first,
        then named wild cards (any order is legal)."""
        pool: list[Card] = []
        for card in self.turn.wildcards:
            pool += [card] * value(self.as_wild[card])
        pool.sort(key=lambda c: (not c.is_joker, sort_key(c)))
        return iter(pool)

    def read(self, value: Value) -> tuple[Card | None, tuple[Card, ...]]:
        """An answer's discard (if any) and the cards left in the hand, sorted."""
        discard = next((c for c, v in self.discard.items() if value(v)), None)
        left = tuple(
            sorted((c for c, v in self.left.items() for _ in range(value(v))), key=sort_key)
        )
        return discard, left
