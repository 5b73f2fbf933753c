"""Hypothesis strategies for card positions: small hands (so that the exhaustive search is
quick) that are likely to hold melds, against small tables, for every preset."""

from __future__ import annotations

from hypothesis import strategies as st

from rummikub.cards.cards import DECK, JOKER, Card
from rummikub.cards.melds import CardMeld, natural_meld
from rummikub.cards.position import CardPosition
from rummikub.cards.rules import CONTRACTS, GAMES, CardRules, preset
from rummikub.errors import MeldError


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
    draw: st.DrawFn, game: str | None = None, max_hand: int = 6, max_table: int = 2
) -> CardPosition:
    rules = preset(game or draw(st.sampled_from(GAMES)))
    pack = _pack(rules)
    table: list[CardMeld] = []
    for _ in range(draw(st.integers(0, max_table))):
        cards = draw(card_melds(rules, pack))
        kind = "run" if len({c.suit for c in cards}) == 1 else "set"
        try:
            table.append(natural_meld(tuple(cards), kind, rules))
        except MeldError:
            pack.extend(cards)  # not a meld after all: back in the pack
    opened = draw(st.booleans())
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
