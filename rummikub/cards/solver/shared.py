"""What the card model's parts share: the facts of the turn they read, and the terms each
part adds for the others (:class:`Ledger`), so that the hand's rows, the opening and the
objective can count every card used, every wild place filled and every point laid."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from rummikub.cards.cards import Card, sort_key
from rummikub.cards.melds import HIGH_ACE, card_at
from rummikub.cards.position import CardPosition
from rummikub.cards.rules import CardRules
from rummikub.core.lp.builder import INF
from rummikub.core.lp.records import Records

#: A linear expression of the card model: (variable index, coefficient), in integers.
Terms = list[tuple[int, int]]

#: Reads a variable's value in an answer (an integer; 0 for None: a part left unbuilt).
Value = Callable[[int | None], int]


def ones(variables: list[int], coefficient: int = 1) -> Terms:
    """``coefficient`` times the sum of ``variables``."""
    return [(v, coefficient) for v in variables]


def at_most(model: Records, terms: Terms, bound: float) -> int:
    return model.row(-INF, bound, terms)


def at_least(model: Records, terms: Terms, bound: float) -> int:
    return model.row(bound, INF, terms)


def equal(model: Records, terms: Terms, value: float) -> int:
    return model.row(value, value, terms)


class Turn:
    """The facts of the turn every part reads: the rules, the hand (after the deepest
    pick the model is built for), the wild cards it may lay (its own and those a swap may
    take from the table), and the values of cards as laid."""

    def __init__(self, position: CardPosition, hand: Counter[Card]) -> None:
        self.position = position
        self.rules: CardRules = position.rules
        self.hand = hand
        # Wild cards a swap may take from the table (``wild_swap``), by kind: an upper bound,
        # for the places wild cards may fill.
        self.freeable = freeable(position, hand)
        kinds = {c for c in hand if self.rules.is_wild(c)} | set(self.freeable)
        self.wildcards = sorted(kinds, key=sort_key)
        self.wild_total = sum(hand[c] + self.freeable[c] for c in self.wildcards)
        self.cards_total = sum(hand.values()) + sum(self.freeable.values())
        # After going down in a contract game a player only lays off: no new meld to build.
        self.new_melds = not (self.rules.opening == "contract" and position.opened)

    def natural_value(self, card: Card, position: int = 0) -> int:
        return self.rules.natural_value(card, low_ace=position == 1)

    def wild_value(self, stands: Card | None, position: int = 0) -> int:
        return self.rules.wild_value(stands, low_ace=position == 1)

    def positions(self) -> range:
        """The positions of a run (1 low ace ... 14 high ace) the rules allow."""
        aces = self.rules.aces
        return range(2 if aces == "high" else 1, (HIGH_ACE if aces != "low" else 13) + 1)


class Ledger:
    """The terms the parts add for one another, each list in the order the parts were
    built (the rows and the objective are built from them in that order)."""

    def __init__(self, model: Records, turn: Turn) -> None:
        self.model = model
        self.turn = turn
        #: ``use[card]``: the variables that lay one natural ``card`` each.
        self.use: dict[Card, list[int]] = {c: [] for c in turn.hand if not c.is_joker}
        #: Wild places filled, as terms (each filled by one wild card of the hand).
        self.wild_slots: Terms = []
        #: The points laid (new melds and lay-offs).
        self.points: Terms = []
        #: The value of the new melds alone (the opening by points).
        self.new_value: Terms = []
        #: New sets and new runs laid (the contract), and every new meld's variable.
        self.new_sets: list[int] = []
        self.new_runs: list[int] = []
        self.any_new: list[int] = []
        #: Per table meld laid off on, whether it was touched (tie-break 3); the same
        #: variables, for the opening (a lay-off needs the player down).
        self.touched: list[int] = []
        self.any_layoff: list[int] = []
        #: ``freed[card]``: the swaps that take a wild card ``card`` from the table.
        self.freed: dict[Card, list[int]] = {}

    def wild_limit(self, wilds: Terms, naturals: Terms, old: int = 0) -> None:
        """No more wild cards than natural ones in a meld, where the rules say so (``old``:
        a table meld's naturals minus its wild cards)."""
        if self.turn.rules.wilds_at_most == "naturals":
            at_most(self.model, wilds + [(v, -c) for v, c in naturals], old)


def freeable(position: CardPosition, hand: Counter[Card]) -> Counter[Card]:
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


def run_card(
    suit: str, p: int, natural: dict[int, int], value: Value, pool: Iterator[Card]
) -> tuple[Card, bool]:
    """The card laid at position ``p`` of a run of ``suit``: the natural card where its
    variable in ``natural`` is set, else the next wild card of ``pool``; and whether wild."""
    if p in natural and value(natural[p]):
        return card_at(suit, p), False
    return next(pool), True
