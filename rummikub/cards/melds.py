"""Card melds: sets and runs with wild cards, the ace rules, and their notation.

A meld is written as its cards in order; a run in ascending order with each wild card where
it stands (``5S 6S * 8S``). A card named by the ``wild`` option is wild only where it is
written standing for another card (``AH=8S``, or ``AH=*`` where its place says what it stands
for: in a set, or a set of wild cards only); written plainly it is itself. A meld that reads
both as a run and as a set is a run unless written ``set: 7S * *`` (CARDS.md section 1).

>>> from rummikub.cards.rules import preset
>>> meld = RawCardMeld.parse("QS KS AS").read(preset("500-rum"))
>>> meld.kind, [str(c) for c in meld.represented()], meld.value(preset("500-rum"))
('run', ['QS', 'KS', 'AS'], 35)
>>> try:
...     RawCardMeld.parse("KS AS 2S").read(preset("500-rum"))
... except MeldError as error:
...     print(error)
not a run (a run never goes round the corner K-A-2) and not a set (not all of one rank)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rummikub.cards.cards import JOKER, Card, card_words, type_of
from rummikub.cards.rules import Aces, CardRules
from rummikub.core.errors import MeldError, NotationError

CardKind = Literal["set", "run"]
_PREFIX = re.compile(r"^\s*(run|set)\s*:", re.IGNORECASE)

#: Run positions: 1 is the low ace, 2-13 the ranks, 14 the high ace.
HIGH_ACE = 14


def card_at(suit: str, position: int) -> Card:
    """The card that stands at ``position`` of a run of ``suit``."""
    return Card(1 if position == HIGH_ACE else position, suit)


def run_places(card: Card, aces: Aces) -> tuple[int, ...]:
    """Where a natural ``card`` may stand in a run (:func:`card_at`'s inverse): its rank, or
    for an ace the low end, the high end or both, as the rules' ``aces`` allow."""
    if card.rank != 1:
        return (card.rank,)
    return {"low": (1,), "high": (HIGH_ACE,), "both": (1, HIGH_ACE)}[aces]


def run_near(card: Card, other: Card, aces: Aces, places: int) -> bool:
    """Whether natural cards ``card`` and ``other`` could stand in one run within
    ``places`` places of each other (not at the same place): the suit is the caller's to
    compare."""
    return any(
        0 < abs(p - q) <= places for p in run_places(card, aces) for q in run_places(other, aces)
    )


@dataclass(frozen=True, slots=True)
class Slot:
    """One card as written in a meld: the card, and what it stands for if written ``X=Y``."""

    card: Card
    stands: Card | None = None

    @classmethod
    def parse(cls, word: str) -> Slot:
        if "=" in word:
            left, right = word.split("=", 1)
            return cls(Card.parse(left), Card.parse(right))
        return cls(Card.parse(word))

    def __str__(self) -> str:
        if self.stands is None:
            return str(self.card)
        return f"{self.card}={self.stands}"


@dataclass(frozen=True, slots=True)
class RawCardMeld:
    """Cards as written, with the kind if the text gave one, before they are judged."""

    slots: tuple[Slot, ...]
    kind: CardKind | None = None

    @classmethod
    def parse(cls, text: str) -> RawCardMeld:
        if not isinstance(text, str):
            raise TypeError(
                f"a meld is written as a string such as '7S 8S 9S', got {type_of(text)}"
            )
        kind: CardKind | None = None
        match = _PREFIX.match(text)
        if match:
            kind = "run" if match.group(1).lower() == "run" else "set"
            text = text[match.end() :]
        slots = tuple(Slot.parse(w) for w in card_words(text))
        if not slots:
            raise NotationError("empty meld: expected cards such as '7S 7H 7D'")
        return cls(slots, kind)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(slot.card for slot in self.slots)

    def read(self, rules: CardRules) -> CardMeld:
        """Judge the cards as a meld under ``rules``; raises :class:`MeldError` with the reason."""
        if not isinstance(rules, CardRules):
            raise TypeError(
                f"a meld is judged under a game's CardRules (e.g. preset('rummy')), "
                f"got {type_of(rules)}"
            )
        for slot in self.slots:
            if slot.stands is not None and not rules.is_wild(slot.card):
                raise MeldError(f"{slot}: {slot.card} is not a wild card in {rules.game}")
        wild = tuple(s.card.is_joker or s.stands is not None for s in self.slots)
        if all(wild):
            return _wild_set(self, wild, rules)
        run_problem = set_problem = ""
        if self.kind != "set":
            try:
                return _run(self, wild, rules)
            except MeldError as error:
                run_problem = str(error)
        if self.kind != "run":
            try:
                return _set(self, wild, rules)
            except MeldError as error:
                set_problem = str(error)
        if self.kind == "run":
            raise MeldError(f"not a run ({run_problem})")
        if self.kind == "set":
            raise MeldError(f"not a set ({set_problem})")
        raise MeldError(f"not a run ({run_problem}) and not a set ({set_problem})")

    def __str__(self) -> str:
        body = " ".join(str(slot) for slot in self.slots)
        return f"{self.kind}: {body}" if self.kind else body


@dataclass(frozen=True, slots=True)
class CardMeld:
    """A valid set or run. ``wild[i]`` says whether card ``i`` is used as a wild card.

    A run starts at ``start`` (1 = low ace ... 14 = high ace) in ``suit``; a set has ``rank``
    (0 for a set of wild cards only).
    """

    kind: CardKind
    cards: tuple[Card, ...]
    wild: tuple[bool, ...]
    suit: str = ""
    start: int = 0
    rank: int = 0

    @property
    def is_wild_set(self) -> bool:
        return self.kind == "set" and self.rank == 0

    @property
    def wilds(self) -> int:
        return sum(self.wild)

    @property
    def naturals(self) -> int:
        return len(self.cards) - self.wilds

    @property
    def end(self) -> int:
        """The position of a run's last card."""
        return self.start + len(self.cards) - 1

    def represented(self) -> tuple[Card | None, ...]:
        """The card each card stands for (itself when natural; None in a wild set)."""
        if self.kind == "run":
            return tuple(card_at(self.suit, self.start + i) for i in range(len(self.cards)))
        return tuple(
            None if self.rank == 0 else (Card(self.rank, "") if w else c)
            for c, w in zip(self.cards, self.wild, strict=True)
        )

    def card_values(self, rules: CardRules) -> tuple[int, ...]:
        """What each card of the meld is worth laid (CARDS.md section 3)."""
        values = []
        for i, (card, wild) in enumerate(zip(self.cards, self.wild, strict=True)):
            low = self.kind == "run" and self.start + i == 1
            if wild:
                stands = None if self.rank == 0 and self.kind == "set" else self.represented()[i]
                values.append(rules.wild_value(stands, low_ace=low))
            else:
                values.append(rules.natural_value(card, low_ace=low))
        return tuple(values)

    def value(self, rules: CardRules) -> int:
        return sum(self.card_values(rules))

    def raw(self) -> RawCardMeld:
        """The meld as written: named wild cards used as wild get ``=`` what they stand for."""
        stands = self.represented()
        slots = []
        for i, (card, wild) in enumerate(zip(self.cards, self.wild, strict=True)):
            named = wild and not card.is_joker
            if named and self.kind == "run":
                slots.append(Slot(card, stands[i]))
            elif named:
                # In a set a named wild card stands for the set's rank, whatever its suit:
                # written "AH=*" (wild, its meaning given by its place).
                slots.append(Slot(card, JOKER))
            else:
                slots.append(Slot(card))
        # A set that would also read as a run keeps its kind.
        kind: CardKind | None = None
        if self.kind == "set":
            kind = "set"
        return RawCardMeld(tuple(slots), kind)

    def __str__(self) -> str:
        raw = self.raw()
        body = " ".join(str(slot) for slot in raw.slots)
        # Only say "set:" where the cards could also be read as a run.
        if self.kind == "set" and self.rank and self.naturals <= 1:
            return f"set: {body}"
        return body


def _cards(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"


def _limits(meld: RawCardMeld, wild: tuple[bool, ...], rules: CardRules) -> None:
    wilds = sum(wild)
    if rules.wilds_at_most == "naturals" and wilds > len(wild) - wilds:
        naturals = len(wild) - wilds
        raise MeldError(
            f"{wilds} wild cards outnumber {naturals} natural card{'' if naturals == 1 else 's'}"
        )


def _run(meld: RawCardMeld, wild: tuple[bool, ...], rules: CardRules) -> CardMeld:
    cards = meld.cards
    naturals = [(i, c) for i, (c, w) in enumerate(zip(cards, wild, strict=True)) if not w]
    suits = {c.suit for _, c in naturals}
    if len(suits) > 1:
        raise MeldError("not all of one suit")
    suit = suits.pop()
    if len(cards) < rules.run_min:
        raise MeldError(f"{_cards(len(cards))}, a run needs at least {rules.run_min}")
    if len(cards) > 13:
        raise MeldError("more than 13 cards")
    first, card = (
        next((i, c) for i, c in naturals if c.rank != 1)
        if any(c.rank != 1 for _, c in naturals)
        else naturals[0]
    )
    starts = [card.rank - first] if card.rank != 1 else [1 - first, HIGH_ACE - first]
    problem = "not in sequence"
    for start in starts:
        end = start + len(cards) - 1
        if start < 1 or end > HIGH_ACE:
            continue
        if any(card_at(suit, start + i) != c for i, c in naturals):
            continue
        if start == 1 and end == HIGH_ACE:
            problem = "a run never goes round the corner K-A-2"
            continue
        if start == 1 and rules.aces == "high":
            problem = "the ace is high only (Q-K-A)"
            continue
        if end == HIGH_ACE and rules.aces == "low":
            problem = "the ace is low only (A-2-3)"
            continue
        for slot, i in zip(meld.slots, range(len(cards)), strict=True):
            if slot.stands not in (None, JOKER) and slot.stands != card_at(suit, start + i):
                raise MeldError(f"{slot}: stands at {card_at(suit, start + i)}")
        _limits(meld, wild, rules)
        return CardMeld("run", cards, wild, suit=suit, start=start)
    if problem == "not in sequence" and any(c.rank == 1 for _, c in naturals) and len(cards) > 1:
        # Say why a run through the ace fails when that is the reason.
        ranks = [c.rank for _, c in naturals]
        if 13 in ranks and 2 in ranks:
            problem = "a run never goes round the corner K-A-2"
    raise MeldError(problem)


def _set(meld: RawCardMeld, wild: tuple[bool, ...], rules: CardRules) -> CardMeld:
    cards = meld.cards
    naturals = [c for c, w in zip(cards, wild, strict=True) if not w]
    ranks = {c.rank for c in naturals}
    if len(ranks) > 1:
        raise MeldError("not all of one rank")
    rank = ranks.pop()
    if len(cards) < rules.set_min:
        raise MeldError(f"{_cards(len(cards))}, a set needs at least {rules.set_min}")
    if rules.set_max and len(cards) > rules.set_max:
        raise MeldError(f"{len(cards)} cards, a set holds at most {rules.set_max}")
    suits = [c.suit for c in naturals]
    if rules.set_suits == "distinct" and len(set(suits)) < len(suits):
        raise MeldError("a suit is repeated")
    for slot in meld.slots:
        if slot.stands not in (None, JOKER) and slot.stands.rank != rank:
            raise MeldError(
                f"{slot}: a wild card in a set of {Card(rank, 'S')}s stands for that rank"
            )
    _limits(meld, wild, rules)
    return CardMeld("set", cards, wild, rank=rank)


def _wild_set(meld: RawCardMeld, wild: tuple[bool, ...], rules: CardRules) -> CardMeld:
    if not rules.wild_sets:
        raise MeldError(f"only wild cards: {rules.game} has no sets of wild cards")
    if meld.kind == "run":
        raise MeldError("not a run (only wild cards)")
    if len(wild) < rules.set_min:
        raise MeldError(f"{_cards(len(wild))}, a set needs at least {rules.set_min}")
    if rules.set_max and len(wild) > rules.set_max:
        raise MeldError(f"{len(wild)} cards, a set holds at most {rules.set_max}")
    return CardMeld("set", meld.cards, wild, rank=0)


def natural_meld(cards: tuple[Card, ...], kind: CardKind, rules: CardRules) -> CardMeld:
    """Read plain cards (jokers wild, named wild cards natural) as a meld of ``kind``."""
    return RawCardMeld(tuple(Slot(c) for c in cards), kind).read(rules)


__all__ = [
    "JOKER",
    "CardKind",
    "CardMeld",
    "RawCardMeld",
    "Slot",
    "card_at",
    "meld_cards",
    "meld_texts",
    "natural_meld",
    "run_near",
    "run_places",
]


def meld_cards(meld: CardMeld) -> list[str]:
    """A meld's cards as written (a named wild card with what it stands for: ``AH=5S``)."""
    return [str(slot) for slot in meld.raw().slots]


def meld_texts(texts: Sequence[str]) -> list[str]:
    """The melds of ``--table`` or ``--after`` options, or of a typed table: one or more a
    text, separated by ``|`` or ``;`` (as for tiles); empty pieces are dropped."""
    return [
        piece.strip()
        for text in texts
        for piece in text.replace(";", "|").split("|")
        if piece.strip()
    ]
