"""Hypothesis strategies for card positions: small hands (so that the exhaustive search is
quick) that are likely to hold melds, against small tables, for every preset."""

from __future__ import annotations

from hypothesis import strategies as st

from rummikub.cards.cards import DECK, JOKER, Card
from rummikub.cards.melds import CardMeld, RawCardMeld, Slot, card_at, natural_meld
from rummikub.cards.position import CardPosition
from rummikub.cards.rules import CONTRACTS, GAMES, CardRules, preset, with_options
from rummikub.core.errors import MeldError


def _pack(rules: CardRules) -> list[Card]:
    return [c for c in DECK for _ in range(rules.decks)] + [JOKER] * rules.jokers


@st.composite
def card_melds(
    draw: st.DrawFn, rules: CardRules, pack: list[Card], kind: str | None = None
) -> list[Card]:
    """The natural cards of a run or a set (maybe one short), taken from ``pack``."""
    if kind == "run" or (kind is None and draw(st.booleans())):
        suit = draw(st.sampled_from("SHDC"))
        length = draw(st.integers(rules.run_min - (kind is None), rules.run_min + 1))
        start = draw(st.integers(1, 14 - length))
        cards = [Card(1 if p == 14 else p, suit) for p in range(start, start + length)]
    else:
        rank = draw(st.integers(1, 13))
        suits = draw(
            st.lists(st.sampled_from("SHDC"), min_size=3 - (kind is None), max_size=4, unique=True)
        )
        cards = [Card(rank, s) for s in suits]
    return [c for c in cards if c in pack and not pack.remove(c)]  # type: ignore[func-returns-value]


@st.composite
def card_positions(
    draw: st.DrawFn,
    game: str | None = None,
    max_hand: int = 6,
    max_table: int = 2,
    swap: bool = False,
) -> CardPosition:
    """A position; with ``swap``, under ``wild_swap = true`` with wild cards in the table's
    runs, often standing for a card the hand holds."""
    # Rummy has no wild card to swap.
    games = [g for g in GAMES if preset(g).jokers] if swap else list(GAMES)
    rules = preset(game or draw(st.sampled_from(games)))
    if swap:
        rules = with_options(rules, {"wild_swap": True})
    pack = _pack(rules)
    table: list[CardMeld] = []
    swappable: list[Card] = []
    for _ in range(draw(st.integers(int(swap), max_table))):
        cards = draw(card_melds(rules, pack, "run" if swap and not table else None))
        kind = "run" if len({c.suit for c in cards}) == 1 else "set"
        try:
            meld = natural_meld(tuple(cards), kind, rules)
        except MeldError:
            pack.extend(cards)  # not a meld after all: back in the pack
            continue
        if swap and meld.kind == "run":
            meld = draw(_with_a_wild(meld, rules, pack, swappable))
        table.append(meld)
    # A swap needs a player who had opened (in contract games: gone down) before this turn.
    opened = True if swap and rules.opening == "contract" else draw(st.booleans())
    deal = draw(st.sampled_from([1, 2, 3])) if rules.opening == "contract" else None
    hand: list[Card] = []
    if deal is not None and not opened:
        # Often the contract's melds (a card may be missing, or a wild card fill in).
        max_hand += 3
        sets, runs = CONTRACTS[deal]
        for kind in ["set"] * sets + ["run"] * runs:
            meld = draw(card_melds(rules, pack, kind))
            hand += meld[: len(meld) - draw(st.integers(0, 1))]
    else:
        hand = draw(card_melds(rules, pack))
    naturals = [c for c in pack if not c.is_joker]
    extra = draw(st.lists(st.sampled_from(naturals), max_size=3)) if naturals else []
    for card in extra:
        if card in pack and len(hand) < max_hand:
            pack.remove(card)
            hand.append(card)
    wilds = [c for c in pack if rules.is_wild(c)]
    for _ in range(draw(st.integers(0, min(2, len(wilds))))):
        if len(hand) < max_hand:
            card = wilds.pop(draw(st.integers(0, len(wilds) - 1)))
            pack.remove(card)
            hand.append(card)
    for card in swappable:
        # The card a table wild stands for, most often in the hand: a swap to weigh.
        if draw(st.integers(0, 3)) and len(hand) < max_hand:
            hand.append(card)
    if not hand:
        hand.append(pack.pop())
    discard: tuple[Card, ...] = ()
    drawn = True
    if draw(st.integers(0, 3)) == 0 and pack:
        size = draw(st.integers(1, 3))
        naturals = [c for c in pack if not c.is_joker]
        chosen = draw(st.lists(st.sampled_from(naturals), min_size=1, max_size=size))
        pile = []
        for card in chosen:
            if card in pack:
                pack.remove(card)
                pile.append(card)
        if pile:
            discard, drawn = tuple(pile), False
    return CardPosition(rules, tuple(hand[:max_hand]), tuple(table), opened, deal, discard, drawn)


@st.composite
def _with_a_wild(
    draw: st.DrawFn, meld: CardMeld, rules: CardRules, pack: list[Card], swappable: list[Card]
) -> CardMeld:
    """``meld`` (a run) with one card replaced by a wild card from ``pack``, when the pack
    has one and the rules allow it; the card replaced goes to ``swappable``."""
    wilds = sorted({c for c in pack if rules.is_wild(c)}, key=str)
    if not wilds or not draw(st.integers(0, 3)):
        return meld
    wild = draw(st.sampled_from(wilds))
    place = draw(st.integers(0, len(meld.cards) - 1))
    stands = card_at(meld.suit, meld.start + place)
    slots = [Slot(c) for c in meld.cards]
    slots[place] = Slot(wild) if wild.is_joker else Slot(wild, stands)
    try:
        swapped = RawCardMeld(tuple(slots), "run").read(rules)
    except MeldError:
        return meld  # too many wild cards for the rules
    pack.remove(wild)
    swappable.append(stands)
    return swapped
