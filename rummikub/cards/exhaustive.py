"""The best card turn by exhaustive search, without the integer program: the reference the
solver is tested against and the source of the card puzzles' ``[expect]``.

Every way to lay the hand is generated from the notation up: each group of hand cards of one
suit or one rank, with every number of wild cards in every place, is read as a meld by the
same reader the checker uses; every table meld gets every extension read the same way. Every
combination of these, every choice of wild cards and every discard is then judged by the
checker itself, and the best legal turn is kept. Exponential: for small hands only.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from rummikub.cards.cards import JOKER, Card, sort_key
from rummikub.cards.checker import check
from rummikub.cards.melds import CardMeld, RawCardMeld, Slot, card_at
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.rules import CardRules
from rummikub.core.errors import MeldError


@dataclass(frozen=True, slots=True)
class Found:
    """The best turn found for one draw: its score and a witness."""

    draw: Draw
    points: int
    penalty: int
    touched: int
    table: tuple[RawCardMeld, ...]
    discard: Card | None
    laid: bool

    def score(self, rules: CardRules) -> tuple[int, int, int]:
        if rules.objective == "points":
            return (self.points, -self.penalty, -self.touched)
        return (-self.penalty, self.points, -self.touched)


@dataclass(frozen=True, slots=True)
class _Piece:
    """A meld (wild places hold a placeholder joker), its natural cards and wild count, and
    the wild cards it takes back from the table (``wild_swap``)."""

    meld: CardMeld
    naturals: Counter[Card]
    wilds: int
    freed: Counter[Card] = field(default_factory=Counter)


def best(position: CardPosition) -> Found:
    """The best turn, over every pile pick when the draw is due (a pick must beat the hand
    as it is, as in the solver)."""
    rules = position.rules
    stock = best_for_draw(position, "stock")
    assert stock is not None  # laying nothing and discarding is always possible
    answer = stock
    for depth in position.picks():
        found = best_for_draw(position, depth)
        if found is not None and found.score(rules) > answer.score(rules):
            answer = found
    return answer


def best_for_draw(position: CardPosition, draw: Draw) -> Found | None:
    """The best legal turn after ``draw``, or None when that draw allows no legal turn."""
    rules = position.rules
    hand = position.hand_after(draw)
    naturals = Counter({c: n for c, n in hand.items() if not c.is_joker})
    wild_cards = {c: n for c, n in hand.items() if rules.is_wild(c)}
    variants = [_swaps(meld, naturals, position) for meld in position.table]
    most_freed = sum(max(sum(freed.values()) for _, _, freed in v) for v in variants)
    most_wilds = sum(wild_cards.values()) + most_freed
    new_pieces = _new_pieces(naturals, most_wilds, rules)
    layoffs = [
        [
            piece
            for swapped, swap_naturals, freed in variant
            for piece in _swap_pieces(swapped, swap_naturals, freed, naturals, most_wilds, rules)
        ]
        for variant in variants
    ]
    top: Found | None = None
    for chosen, new in _combinations(layoffs, new_pieces, naturals, wild_cards, most_freed):
        used = Counter[Card]()
        freed = Counter[Card]()
        wilds = 0
        for piece in [p for p in chosen if p is not None] + new:
            used += piece.naturals
            wilds += piece.wilds
            freed += piece.freed
        for fill in _wild_fills(wilds, Counter(wild_cards) + freed, used):
            remaining = hand + freed - used - Counter(fill)
            table = _table(position, chosen, new, fill)
            for discard in [None, *sorted(remaining, key=sort_key)]:
                verdict = check(
                    position,
                    table,
                    discard=discard,
                    draw=None if draw == "stock" else draw,
                )
                if not verdict.legal:
                    continue
                found = Found(
                    draw,
                    verdict.points,
                    verdict.penalty,
                    len(verdict.layoffs),
                    tuple(table),
                    discard,
                    bool(verdict.played),
                )
                if top is None or found.score(rules) > top.score(rules):
                    top = found
    return top


# -- pieces -----------------------------------------------------------------------------


def _submultisets(cards: Counter[Card]) -> Iterator[Counter[Card]]:
    items = sorted(cards.items(), key=lambda kv: sort_key(kv[0]))
    for counts in itertools.product(*[range(n + 1) for _, n in items]):
        yield Counter({c: k for (c, _), k in zip(items, counts, strict=True) if k})


def _read(slots: Sequence[Card | Slot], kind: str, rules: CardRules) -> CardMeld | None:
    raw = RawCardMeld(
        tuple(Slot(c) if isinstance(c, Card) else c for c in slots),
        "set" if kind == "set" else "run",
    )
    try:
        return raw.read(rules)
    except MeldError:
        return None


def _spread(wilds: int, gaps: int) -> Iterator[tuple[int, ...]]:
    """Every way to put ``wilds`` wild cards into ``gaps`` gaps."""
    for cut in itertools.combinations(range(wilds + gaps - 1), gaps - 1):
        edges = (-1, *cut, wilds + gaps - 1)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(gaps))


def _run_orders(cards: list[Card]) -> list[list[Card]]:
    """Natural cards of one suit in run order: aces first (low) or last (high)."""
    aces = [c for c in cards if c.rank == 1]
    rest = sorted((c for c in cards if c.rank != 1), key=lambda c: c.rank)
    orders = [aces + rest]
    if aces:
        orders.append(rest + aces)
    return orders


def _with_wilds(order: list[Card], spread: tuple[int, ...]) -> list[Card]:
    """``order`` with ``spread[gap]`` wild cards before its card ``gap``, the last count
    after its last card (cards after a meld: gap 0 is right after the meld)."""
    out: list[Card] = []
    for gap, count in enumerate(spread):
        out += [JOKER] * count
        if gap < len(order):
            out.append(order[gap])
    return out


def _new_pieces(naturals: Counter[Card], most_wilds: int, rules: CardRules) -> list[_Piece]:
    pieces: dict[tuple[object, ...], _Piece] = {}
    smallest = min(rules.set_min, rules.run_min)
    for group in _submultisets(naturals):
        cards = sorted(group.elements(), key=sort_key)
        for wilds in range(most_wilds + 1):
            if len(cards) + wilds < smallest or (not cards and not rules.wild_sets):
                continue
            candidates: list[tuple[list[Card], str]] = []
            if len({c.rank for c in cards}) <= 1:
                candidates.append((cards + [JOKER] * wilds, "set"))
            if cards and len({c.suit for c in cards}) == 1:
                for order in _run_orders(cards):
                    for spread in _spread(wilds, len(order) + 1):
                        candidates.append((_with_wilds(order, spread), "run"))
            for slots, kind in candidates:
                meld = _read(slots, kind, rules)
                if meld is not None:
                    key = (meld.kind, meld.cards, meld.start)
                    pieces[key] = _Piece(meld, group, wilds)
    return list(pieces.values())


def _layoff_pieces(
    meld: CardMeld, naturals: Counter[Card], most_wilds: int, rules: CardRules
) -> list[_Piece]:
    pieces: dict[tuple[object, ...], _Piece] = {}
    # As written: a named wild card of the table meld stays wild where it stands (AH=8H).
    old: list[Card | Slot] = list(meld.raw().slots)
    for group in _submultisets(naturals):
        cards = sorted(group.elements(), key=sort_key)
        for wilds in range(most_wilds + 1):
            if not cards and not wilds:
                continue
            candidates: list[tuple[list[Card | Slot], str, int]] = []
            if meld.kind == "set":
                candidates.append(([*old, *cards, *[JOKER] * wilds], "set", 0))
            else:
                for order in _run_orders(cards) if cards else [[]]:
                    for split in range(len(order) + 1):
                        left, right = order[:split], order[split:]
                        for spread in _spread(wilds, len(left) + len(right) + 2):
                            head = _with_wilds(left, spread[: len(left) + 1])
                            tail = _with_wilds(right, spread[len(left) + 1 :])
                            candidates.append(([*head, *old, *tail], "run", len(head)))
            for slots, kind, offset in candidates:
                new = _read(slots, kind, rules)
                if new is None:
                    continue
                # The table meld's own wild cards keep their places and meaning.
                wild = list(new.wild)
                wild[offset : offset + len(old)] = meld.wild
                new = replace(new, wild=tuple(wild))
                key = (new.cards, new.wild, new.start)
                pieces[key] = _Piece(new, group, wilds)
    return list(pieces.values())


def _swaps(
    meld: CardMeld, naturals: Counter[Card], position: CardPosition
) -> list[tuple[CardMeld, Counter[Card], Counter[Card]]]:
    """The table meld after every choice of wild swaps the hand allows (none first): the
    meld, the natural cards laid in it and the wild cards taken back."""
    out = [(meld, Counter[Card](), Counter[Card]())]
    if meld.kind != "run" or not position.rules.may_swap(position.opened):
        return out
    places = [
        i
        for i, wild in enumerate(meld.wild)
        if wild and naturals[card_at(meld.suit, meld.start + i)]
    ]
    for size in range(1, len(places) + 1):
        for chosen in itertools.combinations(places, size):
            cards, wild = list(meld.cards), list(meld.wild)
            laid, freed = Counter[Card](), Counter[Card]()
            for i in chosen:
                freed[cards[i]] += 1
                cards[i], wild[i] = card_at(meld.suit, meld.start + i), False
                laid[cards[i]] += 1
            out.append((replace(meld, cards=tuple(cards), wild=tuple(wild)), laid, freed))
    return out


def _swap_pieces(
    meld: CardMeld,
    laid: Counter[Card],
    freed: Counter[Card],
    naturals: Counter[Card],
    most_wilds: int,
    rules: CardRules,
) -> list[_Piece]:
    """The lay-offs on a table meld after its swaps (none: the plain lay-offs); with swaps,
    also the swapped meld with nothing added."""
    if not freed:
        return _layoff_pieces(meld, naturals, most_wilds, rules)
    pieces = [_Piece(meld, laid, 0, freed)]
    for piece in _layoff_pieces(meld, naturals - laid, most_wilds, rules):
        pieces.append(_Piece(piece.meld, piece.naturals + laid, piece.wilds, freed))
    return pieces


# -- combining --------------------------------------------------------------------------


def _fits(
    used: Counter[Card],
    wilds: int,
    naturals_left: Counter[Card],
    wild_cards: dict[Card, int],
    more: int = 0,
) -> bool:
    """Whether the natural cards ``used`` are held and ``wilds`` wild places can be filled
    (``more``: wild cards taken from the table besides the hand's)."""
    if any(used[c] > naturals_left[c] for c in used):
        return False
    spare = sum(n - used[c] for c, n in wild_cards.items())
    return wilds <= spare + more


def _combinations(
    layoffs: list[list[_Piece]],
    new_pieces: list[_Piece],
    naturals: Counter[Card],
    wild_cards: dict[Card, int],
    most_freed: int,
) -> Iterator[tuple[list[_Piece | None], list[_Piece]]]:
    def new_melds(
        start: int, used: Counter[Card], wilds: int, freed: int
    ) -> Iterator[list[_Piece]]:
        yield []
        for i in range(start, len(new_pieces)):
            piece = new_pieces[i]
            more = used + piece.naturals
            if _fits(more, wilds + piece.wilds, naturals, wild_cards, freed):
                for rest in new_melds(i, more, wilds + piece.wilds, freed):
                    yield [piece, *rest]

    def table(
        index: int, used: Counter[Card], wilds: int
    ) -> Iterator[tuple[list[_Piece | None], Counter[Card], int]]:
        if index == len(layoffs):
            yield [], used, wilds
            return
        for rest, u, w in table(index + 1, used, wilds):
            yield [None, *rest], u, w
        for piece in layoffs[index]:
            more = used + piece.naturals
            # Another meld's swap may free the wild cards this one needs: counted at the end.
            if _fits(more, wilds + piece.wilds, naturals, wild_cards, most_freed):
                for rest, u, w in table(index + 1, more, wilds + piece.wilds):
                    yield [piece, *rest], u, w

    for chosen, used, wilds in table(0, Counter(), 0):
        freed = sum(sum(p.freed.values()) for p in chosen if p is not None)
        if _fits(used, wilds, naturals, wild_cards, freed):
            for new in new_melds(0, used, wilds, freed):
                yield chosen, new


def _wild_fills(wilds: int, wild_cards: Counter[Card], used: Counter[Card]) -> Iterator[list[Card]]:
    """Every choice of which wild cards fill ``wilds`` wild places."""
    kinds = sorted(wild_cards, key=sort_key)
    spare = [wild_cards[c] - used[c] for c in kinds]
    for counts in itertools.product(*[range(n + 1) for n in spare]):
        if sum(counts) == wilds:
            yield [c for c, k in zip(kinds, counts, strict=True) for _ in range(k)]


def _table(
    position: CardPosition,
    chosen: list[_Piece | None],
    new: list[_Piece],
    fill: list[Card],
) -> list[RawCardMeld]:
    cards = iter(fill)
    out: list[RawCardMeld] = []
    for meld, piece in zip(position.table, chosen, strict=True):
        if piece is None:
            out.append(meld.raw())
            continue
        # Placeholders become the chosen wild cards; the old meld's own cards stay.
        new_cards = list(piece.meld.cards)
        offset = _offset(meld, piece.meld)
        for i, card in enumerate(new_cards):
            inside = offset <= i < offset + len(meld.cards)
            if card.is_joker and piece.meld.wild[i] and not inside:
                new_cards[i] = next(cards)
        out.append(replace(piece.meld, cards=tuple(new_cards)).raw())
    for piece in new:
        new_cards = [next(cards) if c.is_joker else c for c in piece.meld.cards]
        out.append(replace(piece.meld, cards=tuple(new_cards)).raw())
    return out


def _offset(old: CardMeld, new: CardMeld) -> int:
    return old.start - new.start if old.kind == "run" else 0
