"""Sub-model: lay-offs on the table's melds, and wild swaps.

A table run grows at either end, one position at a time from the meld outwards, each
added position natural or wild; with ``wild_swap`` a card of the hand may replace one of a
table run's wild cards (the natural card it stands for is laid, the wild card is taken back
to be laid again). A table set takes natural cards of its rank and wild cards up to its
largest size. Each table meld laid off on counts as touched (tie-break 3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from rummikub.cards.cards import SUITS, Card
from rummikub.cards.melds import HIGH_ACE, CardMeld, card_at
from rummikub.cards.solver.shared import Ledger, Turn, Value, at_least, at_most, ones, run_card
from rummikub.core.lp.records import Records


class LaidOff:
    """What an answer lays off (:meth:`Layoffs.read`): the table with its grown melds, the
    cards laid on each, the indices of each grown meld that hold them, the wild cards taken
    back by swaps, and the swaps (meld, natural card laid, wild card taken)."""

    __slots__ = ("freed", "laid_at", "layoffs", "swaps", "table")

    def __init__(self, table: list[CardMeld]) -> None:
        self.table = table
        self.layoffs: dict[int, tuple[Card, ...]] = {}
        self.laid_at: dict[int, list[int]] = {}
        self.freed = Counter[Card]()
        self.swaps: list[tuple[int, Card, Card]] = []


class Layoffs:
    """The lay-offs and swaps of a turn, table meld by table meld."""

    def __init__(self, model: Records, turn: Turn, ledger: Ledger) -> None:
        self.model = model
        self.turn = turn
        self.ledger = ledger
        #: Runs grown: (table index, added position's variable by position, natural's).
        self.extensions: list[tuple[int, dict[int, int], dict[int, int]]] = []
        #: Sets grown: (table index, natural card's variable by suit, wild cards').
        self.additions: list[tuple[int, dict[str, int], int]] = []
        #: ``swaps[index][i]``: the swap of the wild card at place ``i`` of table run
        #: ``index``.
        self.swaps: dict[int, dict[int, int]] = {}
        for index, meld in enumerate(turn.position.table):
            if meld.kind == "run":
                self._run(index, meld)
            else:
                self._set(index, meld)

    def _run(self, index: int, meld: CardMeld) -> None:
        model, turn, ledger, suit = self.model, self.turn, self.ledger, meld.suit
        swaps = self._swaps(index, meld)
        positions = [p for p in turn.positions() if not meld.start <= p <= meld.end]
        if not positions and not swaps:
            return
        ext = {p: model.integer(1) for p in positions}
        natural: dict[int, int] = {}
        for p in positions:
            card = card_at(suit, p)
            if turn.hand[card]:
                natural[p] = model.integer(1)
                at_most(model, [(natural[p], 1), (ext[p], -1)], 0)  # natural only if added
                ledger.use[card].append(natural[p])
            # Grown from the meld outwards: a place is added only with its inner neighbour.
            inner = p + 1 if p < meld.start else p - 1
            if inner in ext:
                at_most(model, [(ext[p], 1), (ext[inner], -1)], 0)
        added = ones(list(ext.values()))
        at_most(model, added, 13 - len(meld.cards))  # a run holds 13 cards at most
        if meld.start == 1 and HIGH_ACE in ext:
            at_most(model, [(ext[HIGH_ACE], 1)], 0)
        elif meld.end == HIGH_ACE and 1 in ext:
            at_most(model, [(ext[1], 1)], 0)
        elif 1 in ext and HIGH_ACE in ext:
            at_most(model, [(ext[1], 1), (ext[HIGH_ACE], 1)], 1)  # never round the corner
        natural_count = ones(list(natural.values()))
        wilds = added + [(v, -c) for v, c in natural_count]
        ledger.wild_slots += wilds
        # A swap turns one of the meld's wild cards into a natural one.
        ledger.wild_limit(
            wilds,
            natural_count + ones(list(swaps.values()), 2),
            meld.naturals - meld.wilds,
        )
        for p in positions:
            card = card_at(suit, p)
            wild_value = turn.wild_value(card, p)
            ledger.points.append((ext[p], wild_value))
            if p in natural:
                ledger.points.append((natural[p], turn.natural_value(card, p) - wild_value))
        self._touch([*ext.values(), *swaps.values()])
        self.extensions.append((index, ext, natural))

    def _swaps(self, index: int, meld: CardMeld) -> dict[int, int]:
        """One variable per wild card of a table run that a hand card may replace (the
        natural card it stands for is laid; the wild card joins ``freed``)."""
        turn, ledger = self.turn, self.ledger
        swaps: dict[int, int] = {}
        if not turn.freeable:
            return swaps
        for i, (card, wild) in enumerate(zip(meld.cards, meld.wild, strict=True)):
            stands = card_at(meld.suit, meld.start + i)
            if not wild or not turn.hand[stands]:
                continue
            swaps[i] = var = self.model.integer(1)
            ledger.use[stands].append(var)
            ledger.points.append((var, turn.natural_value(stands, meld.start + i)))
            ledger.freed.setdefault(card, []).append(var)
        self.swaps[index] = swaps
        return swaps

    def _set(self, index: int, meld: CardMeld) -> None:
        model, turn, ledger = self.model, self.turn, self.ledger
        rules = turn.rules
        # With no maximum (0) every card the turn may lay could go on the set: the hand's
        # cards and any wild card a swap frees (``cards_total``; not ``len(hand)``, a
        # Counter's number of distinct kinds, which cut a hand of two jokers short).
        room = turn.cards_total
        if rules.set_max:
            room = min(max(rules.set_max - len(meld.cards), 0), room)
        if room == 0:
            return
        natural: dict[str, int] = {}
        if meld.rank:
            present = {c.suit for c, w in zip(meld.cards, meld.wild, strict=True) if not w}
            for suit in SUITS:
                card = Card(meld.rank, suit)
                if not turn.hand[card] or (rules.set_suits == "distinct" and suit in present):
                    continue
                top = 1 if rules.set_suits == "distinct" else turn.hand[card]
                natural[suit] = model.integer(top)
                ledger.use[card].append(natural[suit])
        wild = model.integer(min(turn.wild_total, room))
        natural_count = ones(list(natural.values()))
        at_most(model, [*natural_count, (wild, 1)], room)  # the set's room
        ledger.wild_slots.append((wild, 1))
        if meld.rank:
            # A set of wild cards has no naturals to outnumber (and takes wild cards only).
            ledger.wild_limit([(wild, 1)], natural_count, meld.naturals - meld.wilds)
        for suit, var in natural.items():
            ledger.points.append((var, turn.natural_value(Card(meld.rank, suit))))
        stands = Card(meld.rank, "S") if meld.rank else None
        ledger.points.append((wild, turn.wild_value(stands)))
        self._touch([*natural.values(), wild])
        self.additions.append((index, natural, wild))

    def _touch(self, parts: list[int]) -> None:
        """A variable that is 1 exactly when one of ``parts`` is laid: the meld touched."""
        model = self.model
        touched = model.integer(1)
        for part in parts:
            at_most(model, [(part, 1), (touched, -int(model.uppers[part]))], 0)
        at_least(model, [*ones(parts), (touched, -1)], 0)
        self.ledger.touched.append(touched)
        self.ledger.any_layoff.append(touched)

    def read(self, value: Value, pool: Iterator[Card]) -> LaidOff:
        """What an answer lays off (wild cards from ``pool``): runs grown, then sets."""
        table = self.turn.position.table
        done = LaidOff(list(table))
        for index, ext, natural in self.extensions:
            meld = table[index]
            left = [p for p in sorted(ext) if p < meld.start and value(ext[p])]
            right = [p for p in sorted(ext) if p > meld.end and value(ext[p])]
            swapped = sorted(i for i, var in self.swaps.get(index, {}).items() if value(var))
            if not left and not right and not swapped:
                continue
            middle, middle_wild = list(meld.cards), list(meld.wild)
            for i in swapped:
                done.freed[middle[i]] += 1
                done.swaps.append((index, card_at(meld.suit, meld.start + i), middle[i]))
                middle[i], middle_wild[i] = card_at(meld.suit, meld.start + i), False
            cards_left = [run_card(meld.suit, p, natural, value, pool) for p in left]
            cards_right = [run_card(meld.suit, p, natural, value, pool) for p in right]
            grown = replace(
                meld,
                cards=(*[c for c, _ in cards_left], *middle, *[c for c, _ in cards_right]),
                wild=(*[w for _, w in cards_left], *middle_wild, *[w for _, w in cards_right]),
                start=meld.start - len(left),
            )
            done.table[index] = grown
            inside = range(len(left), len(left) + len(meld.cards))
            done.laid_at[index] = [
                i for i in range(len(grown.cards)) if i not in inside or i - len(left) in swapped
            ]
            done.layoffs[index] = tuple(grown.cards[i] for i in done.laid_at[index])
        for index, natural_by_suit, wild in self.additions:
            meld = table[index]
            cards = [
                Card(meld.rank, s) for s, v in natural_by_suit.items() for _ in range(value(v))
            ]
            wilds = [next(pool) for _ in range(value(wild))]
            if not cards and not wilds:
                continue
            done.table[index] = replace(
                meld,
                cards=(*meld.cards, *cards, *wilds),
                wild=(*meld.wild, *[False] * len(cards), *[True] * len(wilds)),
            )
            done.laid_at[index] = list(range(len(meld.cards), len(done.table[index].cards)))
            done.layoffs[index] = (*cards, *wilds)
        return done
