"""The best card turn (CARDS.md section 5) as an integer program, proven optimal by CP-SAT.

A card model of its own rather than the tile solver's: the tile model is being restructured
and sped up, and a card turn differs where it matters (no rearranging, a discard, opening
by points or by contract, a pile pick). What it shares with the tile model is the idea of a
run as an interval of positions: each run laid is one interval per suit, and a lay-off on a
table run is an interval grown at either end.

Variables (one program for every draw choice: built for the hand after the deepest pick,
each draw setting the card counts as row bounds):

* ``run``: a candidate interval of positions (1 low ace ... 14 high ace) of a suit laid as a
  new run; ``rnat`` the natural card at a position (else a wild card fills it).
* ``set_patterns``: sets of distinct suits, one integer per choice of suits and number of
  wild cards, counting the sets laid so; where suits may repeat, ``sets`` are instances of a
  rank with a 0-1 variable per copy of a card; ``wildset_*``: sets of wild cards only.
* ``ext``/``extnat``: positions added to a table run; ``addnat``/``addwild`` to a table set;
  ``swaps``: a table run's wild card replaced by the natural card (``wild_swap``).
* ``as_wild[t]``: copies of the wild-capable card ``t`` used as a wild card; ``disc[t]``: the
  discard; ``left[t]``: what stays in the hand.

The opening (by points or by contract) splits the program into cases (``_Linear.cases``),
each solved with a tight relaxation, instead of big-M rows.

OR-Tools is imported only when a solve runs.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from rummikub.cards.cards import SUITS, Card, sort_key
from rummikub.cards.melds import HIGH_ACE, CardMeld, card_at
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.rules import CardRules

CardStatus = Literal["optimal", "feasible", "no_move", "infeasible"]


@dataclass(frozen=True, slots=True)
class CardTurn:
    """The best turn for one draw choice."""

    status: CardStatus
    draw: Draw
    #: The whole new table: old melds (extended by lay-offs) at their indices, then new melds.
    table: tuple[CardMeld, ...]
    layoffs: dict[int, tuple[Card, ...]]
    discard: Card | None
    played: tuple[Card, ...]
    hand: tuple[Card, ...]
    points: int
    penalty: int
    touched: int
    #: Wild swaps: (old table meld, the natural card laid, the wild card it took back).
    swaps: tuple[tuple[int, Card, Card], ...] = ()

    @property
    def proven(self) -> bool:
        return self.status != "feasible"


@dataclass(frozen=True, slots=True)
class CardResult:
    """The answer for a position: the best turn, the hand-as-is baseline when a draw was due,
    and the best turn of every pick (``picks``)."""

    best: CardTurn
    position: CardPosition
    seconds: float
    baseline: CardTurn | None = None
    picks: tuple[CardTurn, ...] = field(default_factory=tuple)

    @property
    def status(self) -> CardStatus:
        return self.best.status

    @property
    def proven(self) -> bool:
        turns = [self.best, *self.picks] + ([self.baseline] if self.baseline else [])
        return all(t.proven for t in turns)


def score(turn: CardTurn, rules: CardRules) -> tuple[int, int, int]:
    """The order of CARDS.md section 5 (higher is better)."""
    if rules.objective == "points":
        return (turn.points, -turn.penalty, -turn.touched)
    return (-turn.penalty, turn.points, -turn.touched)


def solve(
    position: CardPosition, *, time_limit: float | None = None, all_picks: bool = False
) -> CardResult:
    """The best turn for ``position``: over every pile pick when the draw is still due.

    A pick whose LP bound cannot beat the best turn so far is not solved (``picks`` then
    holds only the picks solved); ``all_picks`` solves every one.
    """
    start = time.perf_counter()
    rules = position.rules
    weights = _weights(position)
    depths = position.picks()
    # One program for every draw: built for the hand after the deepest pick, each draw
    # sets the cards held (row bounds), so the program is built and handed to CLP once.
    model = _Model(position, ["stock", *depths], weights)
    clp = _Clp(model.lin)
    stock = model.solve("stock", clp, time_limit)
    if not depths:
        return CardResult(stock, position, time.perf_counter() - start)
    order: list[int] = list(depths)
    if not all_picks:
        # The most promising picks first, so that the others are cut by their bound.
        bounds = {depth: clp.bound(model.settings(depth)) for depth in depths}
        order.sort(key=lambda depth: (-bounds[depth], depth))
    picks: list[CardTurn] = []
    best_pick: CardTurn | None = None
    for depth in order:
        if not all_picks:
            if bounds[depth] == -math.inf:
                continue  # not even the LP has a legal turn: nor has this pick
            bound = math.floor(bounds[depth] + 1e-6)
            # A pick must beat the hand as it is; among picks, ties go to the shallower.
            if bound <= _value(stock, weights) or (
                best_pick is not None and bound < _value(best_pick, weights)
            ):
                continue
        turn = model.solve(depth, clp, time_limit)
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
    model = _Model(position, [draw], _weights(position))
    return model.solve(draw, _Clp(model.lin), time_limit)


#: The objective's weights: points, penalty, and table melds touched.
Weights = tuple[int, int, int]


def _weights(position: CardPosition) -> Weights:
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


def _value(turn: CardTurn, weights: Weights) -> int:
    return weights[0] * turn.points - weights[1] * turn.penalty - weights[2] * turn.touched


def _empty_turn(position: CardPosition, draw: Draw, status: CardStatus) -> CardTurn:
    return CardTurn(status, draw, position.table, {}, None, (), (), 0, 0, 0)


class _Linear:
    """An integer program as plain rows (``lower <= sum(coef * var) <= upper``), built fast
    in Python and handed to either back end: CLP with the tile solver's branch and bound
    (fast on the nearly integral card models), or CP-SAT when that search leaves it open."""

    def __init__(self) -> None:
        self.lower: list[int] = []
        self.upper: list[int] = []
        self.rows: list[tuple[float, float, list[tuple[int, int]]]] = []
        self.objective: dict[int, int] = {}
        #: Cases that split the program, each fixing some 0-1 variables (none: one case).
        #: The optimum is the best over the cases: a disjunction whose LP relaxation is weak
        #: (to open or not: every big-M row of the opening at a fraction) is solved as
        #: separate programs, each with a tight relaxation.
        self.cases: list[dict[int, int]] = []

    def var(self, upper: int = 1, lower: int = 0) -> int:
        self.lower.append(lower)
        self.upper.append(upper)
        return len(self.lower) - 1

    def row(self, lower: float, upper: float, terms: list[tuple[int, int]]) -> None:
        merged: dict[int, int] = {}
        for var, coef in terms:
            merged[var] = merged.get(var, 0) + coef
        self.rows.append((lower, upper, [(v, c) for v, c in merged.items() if c]))

    def at_most(self, terms: list[tuple[int, int]], bound: float) -> None:
        self.row(-INF, bound, terms)

    def at_least(self, terms: list[tuple[int, int]], bound: float) -> None:
        self.row(bound, INF, terms)

    def equal(self, terms: list[tuple[int, int]], value: float) -> None:
        self.row(value, value, terms)

    def maximise(self, terms: list[tuple[int, int]]) -> None:
        for var, coef in terms:
            self.objective[var] = self.objective.get(var, 0) + coef


INF = float("inf")

#: The branch and bound's work budget (LP solves, simplex iterations) before the CP-SAT back
#: end takes over: limits of work rather than time, so that an answer does not depend on the
#: machine's load.
NODE_LIMIT = 400
ITERATION_LIMIT = 50_000


def _ones(vars_: list[int], coef: int = 1) -> list[tuple[int, int]]:
    return [(v, coef) for v in vars_]


class _Model:
    """Builds the program for the ``draws`` in ``__init__``: for the hand after the deepest
    of them, with each card's count a row bound that :meth:`settings` sets for one draw (a
    candidate meld needing a card that draw does not hold is then simply not laid).
    :meth:`solve` solves it for one draw and reads the answer back."""

    def __init__(self, position: CardPosition, draws: list[Draw], weights: Weights) -> None:
        self.weights = weights
        self.position = position
        self.rules = position.rules
        self.draws = draws
        depths = [d for d in draws if d != "stock"]
        self.hand = position.hand_after(max(depths) if depths else "stock")
        self.lin = _Linear()
        self.use: dict[Card, list[int]] = {c: [] for c in self.hand if not c.is_joker}
        self.wild_slots: list[tuple[int, int]] = []  # terms: wild places filled
        self.points: list[tuple[int, int]] = []
        self.touched: list[int] = []
        self.new_sets: list[int] = []
        self.new_runs: list[int] = []
        self.new_value: list[tuple[int, int]] = []
        self.any_new: list[int] = []
        self.any_layoff: list[int] = []
        # Wild cards a swap may take from the table (``wild_swap``), by kind: an upper bound,
        # for the places wild cards may fill; ``freed`` holds the swaps that free each kind.
        self.freeable = _freeable(position, self.hand)
        self.freed: dict[Card, list[int]] = {}
        self.swaps: dict[int, dict[int, int]] = {}
        kinds = {c for c in self.hand if self.rules.is_wild(c)} | set(self.freeable)
        self.wildcards = sorted(kinds, key=sort_key)
        self.wild_total = sum(self.hand[c] + self.freeable[c] for c in self.wildcards)
        self.cards_total = sum(self.hand.values()) + sum(self.freeable.values())
        # After going down in a contract game a player only lays off: no new meld to build.
        self.new_melds = not (self.rules.opening == "contract" and position.opened)
        self._runs()
        self._sets()
        self._layoffs()
        self._cards_and_discard()
        self._opening()
        self._objective()

    # -- helpers ----------------------------------------------------------------------

    def _natural_value(self, card: Card, position: int = 0) -> int:
        return self.rules.natural_value(card, low_ace=position == 1)

    def _wild_value(self, stands: Card | None, position: int = 0) -> int:
        return self.rules.wild_value(stands, low_ace=position == 1)

    def _positions(self) -> range:
        aces = self.rules.aces
        return range(2 if aces == "high" else 1, (HIGH_ACE if aces != "low" else 13) + 1)

    def _wild_limit(
        self, wilds: list[tuple[int, int]], naturals: list[tuple[int, int]], old: int = 0
    ) -> None:
        """No more wild cards than natural ones (``old``: the meld's naturals minus wilds)."""
        if self.rules.wilds_at_most == "naturals":
            self.lin.at_most(wilds + [(v, -c) for v, c in naturals], old)

    # -- new runs ---------------------------------------------------------------------

    def _runs(self) -> None:
        """New runs as candidate intervals: one variable per interval of a suit (and per copy
        of the pack), with a natural-or-wild choice where the hand holds the natural card.
        Intervals needing more wild cards than the hand holds are never built. Measured on the
        benchmark's cards corpus, this LP is far tighter than one interval variable per
        position (which needed hundreds of branch-and-bound nodes on 14-card hands)."""
        rules = self.rules
        self.runs: list[tuple[str, int, int, dict[int, int]]] = []
        self.run_lengths: dict[int, int] = {}
        positions = list(self._positions())
        for suit in SUITS if self.new_melds else ():
            have = {p: self.hand[card_at(suit, p)] for p in positions}
            for first in positions:
                forced = 0
                for last in positions:
                    if last < first:
                        continue
                    forced += have[last] == 0
                    length = last - first + 1
                    if forced > self.wild_total or length > 13:
                        break
                    naturals = sum(1 for p in range(first, last + 1) if have[p])
                    if length < rules.run_min or naturals == 0:
                        continue
                    previous: int | None = None
                    for _ in range(min(rules.decks, max(have[p] for p in range(first, last + 1)))):
                        previous = self._run_candidate(suit, first, last, have, previous)

    def _run_length(self, run: int) -> int:
        return self.run_lengths[run]

    def _run_candidate(
        self, suit: str, first: int, last: int, have: dict[int, int], previous: int | None
    ) -> int:
        lin = self.lin
        run = lin.var()
        nat: dict[int, int] = {}
        for p in range(first, last + 1):
            if have[p]:
                nat[p] = lin.var()
                lin.at_most([(nat[p], 1), (run, -1)], 0)
                self.use[card_at(suit, p)].append(nat[p])
        natural_count = _ones(list(nat.values()))
        lin.at_least([*natural_count, (run, -1)], 0)  # a run of wild cards only has no suit
        length = last - first + 1
        self.run_lengths[run] = length
        wilds = [(run, length), *[(v, -c) for v, c in natural_count]]
        self.wild_slots += wilds
        self._wild_limit(wilds, natural_count)
        for p in range(first, last + 1):
            card = card_at(suit, p)
            wild_value = self._wild_value(card, p)
            self.points.append((run, wild_value))
            self.new_value.append((run, wild_value))
            if p in nat:
                delta = self._natural_value(card, p) - wild_value
                self.points.append((nat[p], delta))
                self.new_value.append((nat[p], delta))
        if previous is not None:
            lin.at_most([(run, 1), (previous, -1)], 0)  # copies used in order
        self.new_runs.append(run)
        self.any_new.append(run)
        self.runs.append((suit, first, run, nat))
        return run

    # -- new sets ---------------------------------------------------------------------

    def _sets(self) -> None:
        rules, lin = self.rules, self.lin
        self.sets: list[tuple[int, list[tuple[str, int]], int]] = []
        #: Sets of distinct suits as patterns: (rank, suits, wild cards, how many laid).
        self.set_patterns: list[tuple[int, tuple[str, ...], int, int]] = []
        for rank in range(1, 14) if self.new_melds else ():
            cards = [Card(rank, s) for s in SUITS if self.hand[Card(rank, s)]]
            if rules.set_suits == "distinct":
                self._set_patterns(rank, cards)
                continue
            naturals = sum(self.hand[c] for c in cards)
            count = min(naturals, (naturals + self.wild_total) // rules.set_min)
            most = naturals + self.wild_total
            if rules.set_max:
                most = min(most, rules.set_max)
            previous: int | None = None
            for _ in range(count):
                active = lin.var()
                # Suits may repeat here (distinct suits are patterns, above). One 0-1
                # variable per copy of a card (two packs: two), each at most the set's
                # activity: a card laid in a set makes the whole set, wild cards and all, in
                # the LP too (one variable of 0-2 copies let a set at half activity lay a lone
                # card without its wild cards, a gap of most of a penalty).
                nat: list[tuple[str, int]] = []
                for card in cards:
                    before: int | None = None
                    for _ in range(self.hand[card]):
                        var = lin.var()
                        lin.at_most([(var, 1), (active, -1)], 0)
                        if before is not None:
                            lin.at_most([(var, 1), (before, -1)], 0)  # copies in order
                        before = var
                        nat.append((card.suit, var))
                        self.use[card].append(var)
                wild = lin.var(self.wild_total)
                natural_count = _ones([var for _, var in nat])
                size = [*natural_count, (wild, 1)]
                lin.at_least([*natural_count, (active, -1)], 0)
                lin.at_least([*size, (active, -rules.set_min)], 0)
                lin.at_most([*size, (active, -most)], 0)
                self._wild_limit([(wild, 1)], natural_count)
                self.wild_slots.append((wild, 1))
                wild_value = self._wild_value(Card(rank, "S"))
                for suit, var in nat:
                    value = self._natural_value(Card(rank, suit))
                    self.points.append((var, value))
                    self.new_value.append((var, value))
                self.points.append((wild, wild_value))
                self.new_value.append((wild, wild_value))
                if previous is not None:
                    lin.at_most([(active, 1), (previous, -1)], 0)
                previous = active
                self.new_sets.append(active)
                self.any_new.append(active)
                self.sets.append((rank, nat, wild))
        self._wild_sets()

    def _set_patterns(self, rank: int, cards: list[Card]) -> None:
        """Sets of distinct suits (at most four cards) as patterns, as runs are intervals:
        one integer variable per choice of suits and number of wild cards, counting the
        sets laid so. Measured on the cards corpus, far tighter than numbered instances of
        a set (whose interchangeable numbers also multiplied the branch and bound's nodes)."""
        rules, lin = self.rules, self.lin
        most = rules.set_max
        for size in range(1, len(cards) + 1):
            for chosen in itertools.combinations(cards, size):
                copies = min(self.hand[c] for c in chosen)
                for wilds in range(min(self.wild_total, most - size) + 1):
                    if size + wilds < rules.set_min:
                        continue
                    if rules.wilds_at_most == "naturals" and wilds > size:
                        continue
                    laid = lin.var(copies if not wilds else min(copies, self.wild_total // wilds))
                    for card in chosen:
                        self.use[card].append(laid)
                    value = sum(self._natural_value(c) for c in chosen)
                    value += wilds * self._wild_value(Card(rank, "S"))
                    self.points.append((laid, value))
                    self.new_value.append((laid, value))
                    if wilds:
                        self.wild_slots.append((laid, wilds))
                    self.new_sets.append(laid)
                    self.any_new.append(laid)
                    suits = tuple(c.suit for c in chosen)
                    self.set_patterns.append((rank, suits, wilds, laid))

    def _wild_sets(self) -> None:
        rules, lin = self.rules, self.lin
        # Sets of wild cards only (Continental's trio of wild cards).
        self.wildset_count: int | None = None
        self.wildset_cards: int | None = None
        if rules.wild_sets and self.wild_total >= rules.set_min and self.new_melds:
            most_sets = self.wild_total // rules.set_min
            count_var = lin.var(most_sets)
            cards_var = lin.var(self.wild_total)
            self.wildset_count, self.wildset_cards = count_var, cards_var
            lin.at_least([(cards_var, 1), (count_var, -rules.set_min)], 0)
            per_set = rules.set_max or self.wild_total
            lin.at_most([(cards_var, 1), (count_var, -per_set)], 0)
            self.wild_slots.append((cards_var, 1))
            value = self._wild_value(None)
            self.points.append((cards_var, value))
            self.new_value.append((cards_var, value))
            self.new_sets.append(count_var)
            any_wildset = lin.var()
            lin.at_most([(count_var, 1), (any_wildset, -most_sets)], 0)
            lin.at_least([(count_var, 1), (any_wildset, -1)], 0)
            self.any_new.append(any_wildset)

    # -- lay-offs ---------------------------------------------------------------------

    def _layoffs(self) -> None:
        self.extensions: list[tuple[int, dict[int, int], dict[int, int]]] = []
        self.additions: list[tuple[int, dict[str, int], int]] = []
        for index, meld in enumerate(self.position.table):
            if meld.kind == "run":
                self._run_layoff(index, meld)
            else:
                self._set_layoff(index, meld)

    def _run_layoff(self, index: int, meld: CardMeld) -> None:
        lin, suit = self.lin, meld.suit
        swaps = self._swaps(index, meld)
        positions = [p for p in self._positions() if not meld.start <= p <= meld.end]
        if not positions and not swaps:
            return
        ext = {p: lin.var() for p in positions}
        nat: dict[int, int] = {}
        for p in positions:
            card = card_at(suit, p)
            if self.hand[card]:
                nat[p] = lin.var()
                lin.at_most([(nat[p], 1), (ext[p], -1)], 0)
                self.use[card].append(nat[p])
            # Grown from the meld outwards: a place is added only with its inner neighbour.
            inner = p + 1 if p < meld.start else p - 1
            if inner in ext:
                lin.at_most([(ext[p], 1), (ext[inner], -1)], 0)
        added = _ones(list(ext.values()))
        lin.at_most(added, 13 - len(meld.cards))
        if meld.start == 1 and HIGH_ACE in ext:
            lin.at_most([(ext[HIGH_ACE], 1)], 0)
        elif meld.end == HIGH_ACE and 1 in ext:
            lin.at_most([(ext[1], 1)], 0)
        elif 1 in ext and HIGH_ACE in ext:
            lin.at_most([(ext[1], 1), (ext[HIGH_ACE], 1)], 1)  # never round the corner
        natural_count = _ones(list(nat.values()))
        wilds = added + [(v, -c) for v, c in natural_count]
        self.wild_slots += wilds
        # A swap turns one of the meld's wild cards into a natural one.
        self._wild_limit(
            wilds, natural_count + _ones(list(swaps.values()), 2), meld.naturals - meld.wilds
        )
        for p in positions:
            card = card_at(suit, p)
            wild_value = self._wild_value(card, p)
            self.points.append((ext[p], wild_value))
            if p in nat:
                self.points.append((nat[p], self._natural_value(card, p) - wild_value))
        self._touch([*ext.values(), *swaps.values()])
        self.extensions.append((index, ext, nat))

    def _swaps(self, index: int, meld: CardMeld) -> dict[int, int]:
        """One variable per wild card of a table run that a hand card may replace (the
        natural card it stands for is laid; the wild card joins ``freed``)."""
        swaps: dict[int, int] = {}
        if not self.freeable:
            return swaps
        for i, (card, wild) in enumerate(zip(meld.cards, meld.wild, strict=True)):
            stands = card_at(meld.suit, meld.start + i)
            if not wild or not self.hand[stands]:
                continue
            swaps[i] = var = self.lin.var()
            self.use[stands].append(var)
            self.points.append((var, self._natural_value(stands, meld.start + i)))
            self.freed.setdefault(card, []).append(var)
        self.swaps[index] = swaps
        return swaps

    def _set_layoff(self, index: int, meld: CardMeld) -> None:
        rules, lin = self.rules, self.lin
        # With no maximum (0) every card the turn may lay could go on the set: the hand's
        # cards and any wild card a swap frees (``cards_total``; not ``len(self.hand)``, a
        # Counter's number of distinct kinds, which cut a hand of two jokers short).
        room = self.cards_total
        if rules.set_max:
            room = min(max(rules.set_max - len(meld.cards), 0), room)
        if room == 0:
            return
        nat: dict[str, int] = {}
        if meld.rank:
            present = {c.suit for c, w in zip(meld.cards, meld.wild, strict=True) if not w}
            for suit in SUITS:
                card = Card(meld.rank, suit)
                if not self.hand[card] or (rules.set_suits == "distinct" and suit in present):
                    continue
                top = 1 if rules.set_suits == "distinct" else self.hand[card]
                nat[suit] = lin.var(top)
                self.use[card].append(nat[suit])
        wild = lin.var(min(self.wild_total, room))
        natural_count = _ones(list(nat.values()))
        lin.at_most([*natural_count, (wild, 1)], room)
        self.wild_slots.append((wild, 1))
        if meld.rank:
            # A set of wild cards has no naturals to outnumber (and takes wild cards only).
            self._wild_limit([(wild, 1)], natural_count, meld.naturals - meld.wilds)
        for suit, var in nat.items():
            self.points.append((var, self._natural_value(Card(meld.rank, suit))))
        stands = Card(meld.rank, "S") if meld.rank else None
        self.points.append((wild, self._wild_value(stands)))
        self._touch([*nat.values(), wild])
        self.additions.append((index, nat, wild))

    def _touch(self, parts: list[int]) -> None:
        touched = self.lin.var()
        for part in parts:
            self.lin.at_most([(part, 1), (touched, -self.lin.upper[part])], 0)
        self.lin.at_least([*_ones(parts), (touched, -1)], 0)
        self.touched.append(touched)
        self.any_layoff.append(touched)

    # -- cards, the discard, keep_wilds -------------------------------------------------

    def _cards_and_discard(self) -> None:
        rules, lin, position = self.rules, self.lin, self.position
        original = Counter(position.hand)
        self.as_wild = {c: lin.var(self.hand[c] + self.freeable[c]) for c in self.wildcards}
        lin.equal(self.wild_slots + [(v, -1) for v in self.as_wild.values()], 0)
        self.left: dict[Card, int] = {}
        self.discard: dict[Card, int] = {}
        self.card_rows: dict[Card, int] = {}
        for card in sorted(set(self.hand) | set(self.freeable), key=sort_key):
            used = _ones(self.use.get(card, []))
            if card in self.as_wild:
                used.append((self.as_wild[card], 1))
            # A card taken from the pile is not discarded again.
            self.discard[card] = disc = lin.var(1 if original[card] else 0)
            self.left[card] = left = lin.var(self.hand[card])
            freed = _ones(self.freed.get(card, []), -1)
            self.card_rows[card] = len(lin.rows)
            lin.equal([(left, 1), *used, (disc, 1), *freed], self.hand[card])
            if freed:
                # A wild card taken from the table is laid again as a wild card.
                lin.at_least([(self.as_wild[card], 1), *freed], 0)
        # The deepest card taken must be laid: a row per draw, binding for that draw only.
        self.deepest_rows: dict[Draw, int] = {}
        for draw in self.draws:
            deepest = position.deepest(draw)
            if deepest is None:
                continue
            uses = _ones(self.use.get(deepest, []))
            if deepest in self.as_wild:
                uses.append((self.as_wild[deepest], 1))
            self.deepest_rows[draw] = len(lin.rows)
            lin.at_least(uses, 0)
        discards = _ones(list(self.discard.values()))
        total_left = _ones(list(self.left.values()))
        self.total_left = total_left
        cards = self.cards_total
        if not rules.discard_at_end:
            lin.equal(discards, 0)
        elif rules.out_without_discard:
            out_free = lin.var()
            lin.equal([*discards, (out_free, 1)], 1)
            lin.at_most([*total_left, (out_free, cards)], cards)  # out: nothing left
        else:
            lin.equal(discards, 1)
        if rules.keep_wilds and rules.discard_at_end:
            # A wild card is discarded only when nothing else is left to discard.
            others = [(v, 1) for c, v in self.left.items() if not rules.is_wild(c)] + [
                (self.discard[c], 1) for c in self.left if not rules.is_wild(c)
            ]
            for card in self.wildcards:
                lin.at_most([*others, (self.discard[card], cards)], cards)

    # -- opening ----------------------------------------------------------------------

    def _opening(self) -> None:
        rules, lin, position = self.rules, self.lin, self.position
        if rules.opening == "none":
            return
        if rules.opening == "points":
            if position.opened:
                return
            opens, out = lin.var(), lin.var()
            # Lay nothing (a quick floor for the others: a node no better is cut); open by
            # points; go out at once.
            lin.cases = [{opens: 0, out: 0}, {opens: 1, out: 0}, {opens: 0, out: 1}]
            lin.at_most([(opens, 1), (out, 1)], 1)
            lin.at_least([*self.new_value, (opens, -rules.opening_points)], 0)
            for var in self.any_new:
                lin.at_most([(var, 1), (opens, -lin.upper[var]), (out, -lin.upper[var])], 0)
            for var in self.any_layoff:
                lin.at_most([(var, 1), (opens, -1)], 0)
            # Out at once: every card but the discard laid, in new melds only.
            cards = self.cards_total
            lin.at_most([*self.total_left, (out, cards)], cards)
            return
        if position.opened:
            for var in self.any_new:
                lin.equal([(var, 1)], 0)
            return
        down = lin.var()
        lin.cases = [{down: 1}, {down: 0}]  # lay exactly the contract, or stay down
        sets, runs = rules.contract(position.deal or 1)
        lin.equal([*_ones(self.new_sets), (down, -sets)], 0)
        lin.equal([*_ones(self.new_runs), (down, -runs)], 0)
        for var in self.any_layoff:
            lin.at_most([(var, 1), (down, -1)], 0)

    # -- objective, back ends and read-back -------------------------------------------

    def _objective(self) -> None:
        rules = self.rules
        points, penalty, touched = self.weights
        self.lin.maximise([(v, c * points) for v, c in self.points])
        self.lin.maximise([(v, -rules.penalty(c) * penalty) for c, v in self.left.items()])
        self.lin.maximise([(v, -touched) for v in self.touched])

    def settings(self, draw: Draw) -> _Settings:
        """The row and variable bounds that make the program that of ``draw``."""
        hand = self.position.hand_after(draw)
        rows: dict[int, tuple[float, float]] = {
            row: (hand[card], hand[card]) for card, row in self.card_rows.items()
        }
        for other, row in self.deepest_rows.items():
            rows[row] = (1 if other == draw else 0, INF)
        variables = {left: (0, hand[card]) for card, left in self.left.items()}
        return rows, variables

    def solve(self, draw: Draw, clp: _Clp, time_limit: float | None) -> CardTurn:
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        settings = self.settings(draw)
        outcome, values = clp.search(settings, self.lin.cases, deadline)
        if outcome == "open":
            left = None if deadline is None else max(deadline - time.perf_counter(), 0.001)
            outcome, values = _solve_cp_sat(self.lin, settings, left)
        if outcome == "infeasible" or values is None:
            status: CardStatus = "infeasible" if outcome == "infeasible" else "feasible"
            return _empty_turn(self.position, draw, status)
        return self._read(draw, values, proven=outcome == "optimal")

    def _read(self, draw: Draw, values: list[int], *, proven: bool) -> CardTurn:
        rules, position = self.rules, self.position
        hand = position.hand_after(draw)

        def value(var: int | None) -> int:
            return 0 if var is None else values[var]

        wild_pool: list[Card] = []
        for card in self.wildcards:
            wild_pool += [card] * value(self.as_wild[card])
        # Jokers fill wild places first, then named wild cards (any order is legal).
        wild_pool.sort(key=lambda c: (not c.is_joker, sort_key(c)))
        pool = iter(wild_pool)
        table = list(position.table)
        layoffs: dict[int, tuple[Card, ...]] = {}
        # The indices of each grown table meld that hold cards laid this turn.
        laid_at: dict[int, list[int]] = {}
        freed = Counter[Card]()
        swaps: list[tuple[int, Card, Card]] = []
        for index, ext, nat in self.extensions:
            meld = position.table[index]
            left = [p for p in sorted(ext) if p < meld.start and value(ext[p])]
            right = [p for p in sorted(ext) if p > meld.end and value(ext[p])]
            swapped = sorted(i for i, var in self.swaps.get(index, {}).items() if value(var))
            if not left and not right and not swapped:
                continue
            middle, middle_wild = list(meld.cards), list(meld.wild)
            for i in swapped:
                freed[middle[i]] += 1
                swaps.append((index, card_at(meld.suit, meld.start + i), middle[i]))
                middle[i], middle_wild[i] = card_at(meld.suit, meld.start + i), False
            cards_left = [_run_card(meld.suit, p, nat, value, pool) for p in left]
            cards_right = [_run_card(meld.suit, p, nat, value, pool) for p in right]
            grown = replace(
                meld,
                cards=(*[c for c, _ in cards_left], *middle, *[c for c, _ in cards_right]),
                wild=(*[w for _, w in cards_left], *middle_wild, *[w for _, w in cards_right]),
                start=meld.start - len(left),
            )
            table[index] = grown
            inside = range(len(left), len(left) + len(meld.cards))
            laid_at[index] = [
                i for i in range(len(grown.cards)) if i not in inside or i - len(left) in swapped
            ]
            layoffs[index] = tuple(grown.cards[i] for i in laid_at[index])
        for index, snat, wild in self.additions:
            meld = position.table[index]
            cards = [Card(meld.rank, s) for s, v in snat.items() for _ in range(value(v))]
            wilds = [next(pool) for _ in range(value(wild))]
            if not cards and not wilds:
                continue
            table[index] = replace(
                meld,
                cards=(*meld.cards, *cards, *wilds),
                wild=(*meld.wild, *[False] * len(cards), *[True] * len(wilds)),
            )
            laid_at[index] = list(range(len(meld.cards), len(table[index].cards)))
            layoffs[index] = (*cards, *wilds)
        new_melds: list[CardMeld] = []
        for suit, first, run, rnat in self.runs:
            if not value(run):
                continue
            places = range(first, first + self._run_length(run))
            laid = [_run_card(suit, p, rnat, value, pool) for p in places]
            new_melds.append(
                CardMeld(
                    "run",
                    tuple(c for c, _ in laid),
                    tuple(w for _, w in laid),
                    suit=suit,
                    start=first,
                )
            )
        for rank, suits, wilds_each, count_var in self.set_patterns:
            for _ in range(value(count_var)):
                wilds = [next(pool) for _ in range(wilds_each)]
                new_melds.append(
                    CardMeld(
                        "set",
                        (*[Card(rank, s) for s in suits], *wilds),
                        (*[False] * len(suits), *[True] * len(wilds)),
                        rank=rank,
                    )
                )
        for rank, set_nat, wild in self.sets:
            cards = [Card(rank, s) for s, v in set_nat for _ in range(value(v))]
            if not cards:
                continue
            wilds = [next(pool) for _ in range(value(wild))]
            new_melds.append(
                CardMeld(
                    "set",
                    (*cards, *wilds),
                    (*[False] * len(cards), *[True] * len(wilds)),
                    rank=rank,
                )
            )
        wild_cards = [next(pool) for _ in range(value(self.wildset_cards))]
        count = value(self.wildset_count)
        for k in range(count):
            # The wild cards shared out as evenly as the sets allow.
            part = wild_cards[k::count]
            new_melds.append(CardMeld("set", tuple(part), (True,) * len(part), rank=0))
        discard = next((c for c, v in self.discard.items() if value(v)), None)
        left_cards = tuple(
            sorted((c for c, v in self.left.items() for _ in range(value(v))), key=sort_key)
        )
        # Wild cards taken from the table pass through the hand: laid again, they are played.
        played = hand + freed - Counter(left_cards)
        if discard is not None:
            played[discard] -= 1
        played_cards = tuple(sorted((+played).elements(), key=sort_key))
        full = tuple(table) + tuple(new_melds)
        points = sum(m.value(rules) for m in new_melds) + sum(
            sum(full[i].card_values(rules)[k] for k in laid) for i, laid in laid_at.items()
        )
        status: CardStatus = "optimal" if played_cards else "no_move"
        if not proven:
            status = "feasible"
        return CardTurn(
            status,
            draw,
            full,
            layoffs,
            discard,
            played_cards,
            left_cards,
            points,
            sum(rules.penalty(c) for c in left_cards),
            len(layoffs),
            tuple(swaps),
        )


def _freeable(position: CardPosition, hand: Counter[Card]) -> Counter[Card]:
    """The wild cards of table runs that a card of ``hand`` may replace, by kind (none
    where the rules allow no swap)."""
    free = Counter[Card]()
    if not position.rules.may_swap(position.opened):
        return free
    for meld in position.table:
        if meld.kind != "run":
            continue
        for i, (card, wild) in enumerate(zip(meld.cards, meld.wild, strict=True)):
            if wild and hand[card_at(meld.suit, meld.start + i)]:
                free[card] += 1
    return free


def _run_card(suit: str, p: int, nat: dict[int, int], value: Any, pool: Any) -> tuple[Card, bool]:
    if p in nat and value(nat[p]):
        return card_at(suit, p), False
    return next(pool), True


#: Row bounds and variable bounds by index: what one draw sets in the shared program.
_Settings = tuple[dict[int, tuple[float, float]], dict[int, tuple[int, int]]]


class _Clp:
    """``lin`` as a CLP model to maximise, built once and re-solved for each draw's settings
    (an LP bound, or the tile solver's depth-first branch and bound, a shared building
    block)."""

    def __init__(self, lin: _Linear) -> None:
        from ortools.linear_solver import pywraplp

        self.lin = lin
        solver = pywraplp.Solver.CreateSolver("CLP")
        self.variables = [
            solver.NumVar(lo, hi, "") for lo, hi in zip(lin.lower, lin.upper, strict=True)
        ]
        self.rows = []
        for lower, upper, terms in lin.rows:
            row = solver.Constraint(lower, upper)
            for v, c in terms:
                row.SetCoefficient(self.variables[v], c)
            self.rows.append(row)
        self.objective = solver.Objective()
        for var, coef in lin.objective.items():
            self.objective.SetCoefficient(self.variables[var], coef)
        self.objective.SetMaximization()
        self.solver = solver

    def apply(self, settings: _Settings) -> None:
        rows, variables = settings
        for row, (lower, upper) in rows.items():
            self.rows[row].SetBounds(lower, upper)
        for var, (lower, upper) in variables.items():
            self.variables[var].SetBounds(lower, upper)

    def bound(self, settings: _Settings) -> float:
        """The LP relaxation's optimum (minus infinity when even that is infeasible)."""
        from ortools.linear_solver import pywraplp

        self.apply(settings)
        if self.solver.Solve() != pywraplp.Solver.OPTIMAL:
            return -math.inf
        return float(self.objective.Value())

    def search(
        self, settings: _Settings, cases: list[dict[int, int]], deadline: float | None
    ) -> tuple[str, list[int] | None]:
        """The integer optimum over ``cases`` (see :attr:`_Linear.cases`), or ``open``."""
        from rummikub.core.lp.rows import Rows
        from rummikub.core.lp.search import branch_and_bound

        self.apply(settings)
        lin, variables = self.lin, self.variables
        best: list[int] | None = None
        floor = -math.inf
        for case in cases or [{}]:
            for var, value in case.items():
                variables[var].SetBounds(value, value)
            # Each case seeks only what beats the cases before it (ties: the earlier case).
            outcome = branch_and_bound(
                Rows(self.solver),
                list(range(len(variables))),
                node_limit=NODE_LIMIT,
                iteration_limit=ITERATION_LIMIT,
                deadline=deadline,
                floor=floor,
            )
            for var in case:
                variables[var].SetBounds(lin.lower[var], lin.upper[var])
            if outcome.status == "open":
                return "open", None
            if outcome.values is not None:
                best = [round(v) for v in outcome.values]
                floor = sum(coef * best[var] for var, coef in lin.objective.items())
        return ("optimal", best) if best is not None else ("infeasible", None)


def _solve_cp_sat(
    lin: _Linear, settings: _Settings, time_limit: float | None
) -> tuple[str, list[int] | None]:
    from ortools.sat.python import cp_model

    row_bounds, var_bounds = settings
    model = cp_model.CpModel()
    pairs = enumerate(zip(lin.lower, lin.upper, strict=True))
    bounds = [var_bounds.get(i, pair) for i, pair in pairs]
    variables = [model.new_int_var(lo, hi, "") for lo, hi in bounds]
    for index, (lower, upper, terms) in enumerate(lin.rows):
        lower, upper = row_bounds.get(index, (lower, upper))
        expr = sum(c * variables[v] for v, c in terms)
        if lower == upper:
            model.add(expr == int(lower))
        else:
            if lower != -INF:
                model.add(expr >= int(lower))
            if upper != INF:
                model.add(expr <= int(upper))
    model.maximize(sum(c * variables[v] for v, c in lin.objective.items()))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # deterministic
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    code = solver.solve(model)
    if code == cp_model.INFEASIBLE:
        return "infeasible", None
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "open", None
    values = [solver.value(v) for v in variables]
    return ("optimal" if code == cp_model.OPTIMAL else "feasible"), values


__all__ = ["CardResult", "CardTurn", "score", "solve", "solve_draw"]
