"""Cards and their notation (CARDS.md section 1).

A card is a rank (1 = ace ... 13 = king) and a suit (``S H D C``), or the joker ``*``.
Input is case-insensitive and also takes ``T`` for 10, the suit symbols and ``JK``/``JOKER``;
output is canonical:

>>> Card.parse("th"), str(Card.parse("♠a")), str(Card.parse("joker"))
(Card(rank=10, suit='H'), 'AS', '*')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rummikub.core.errors import NotationError

SUITS = "SHDC"
RED = "HD"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANKS = {name: rank for rank, name in enumerate(RANK_NAMES, start=1)} | {"T": 10}
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_JOKER_NAMES = ("*", "JK", "JOKER")


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card: ``rank`` 1-13 and ``suit`` one of ``S H D C``; the joker is rank 0, suit ``*``."""

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @classmethod
    def parse(cls, text: str) -> Card:
        if not isinstance(text, str):
            raise TypeError(f"a card is written as a string such as '7S', got {type_of(text)}")
        word = text.strip().upper()
        for symbol, suit in _SUIT_SYMBOLS.items():
            word = word.replace(symbol, suit)
        if word in _JOKER_NAMES:
            return JOKER
        if len(word) < 2:
            raise NotationError(
                f"invalid card {text!r}: expected a rank and a suit such as 'AS' or '10H', or '*'"
            )
        # The suit may come first (a symbol before the rank: '♠A').
        if word[0] in SUITS and word[1:] in _RANKS:
            word = word[1:] + word[0]
        rank_text, suit = word[:-1], word[-1]
        if suit not in SUITS:
            raise NotationError(
                f"invalid card {text!r}: unknown suit {suit!r} (expected one of S, H, D, C)"
            )
        if rank_text not in _RANKS:
            raise NotationError(
                f"invalid card {text!r}: unknown rank {rank_text!r} "
                "(expected one of A 2-10 J Q K, or T for 10)"
            )
        return cls(_RANKS[rank_text], suit)

    def __str__(self) -> str:
        return "*" if self.is_joker else RANK_NAMES[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card(rank={self.rank}, suit={self.suit!r})"


JOKER = Card(0, "*")

#: Every natural card, in sort order.
DECK = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))


def type_of(value: object) -> str:
    """A value handed to the public API, shown in a message: its type and (cut) repr."""
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"


def card_problem(card: object) -> str | None:
    """Why ``card`` is no card (a :class:`Card` built field by field), or None."""
    if not isinstance(card, Card):
        return f"expected a Card (e.g. Card.parse('7S')), got {type_of(card)}"
    if card == JOKER:
        return None
    if (
        type(card.rank) is not int
        or not 1 <= card.rank <= 13
        or not isinstance(card.suit, str)
        or card.suit not in SUITS
        or len(card.suit) != 1
    ):
        return f"{card!r} is no card: rank 1-13 and suit one of S, H, D, C (or the joker '*')"
    return None


def card_words(text: str) -> list[str]:
    """The words of cards as typed: separated by spaces or commas. Every reader of cards
    (a hand, a meld, the ``wild`` option) splits them here, so that they all read alike.

    >>> card_words("7S, 8S 10H,*")
    ['7S', '8S', '10H', '*']
    """
    return text.replace(",", " ").split()


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards separated by spaces or commas.

    >>> parse_cards("as, 10h")
    (Card(rank=1, suit='S'), Card(rank=10, suit='H'))
    """
    if not isinstance(text, str):
        raise TypeError(
            f"parse_cards() takes cards as a string such as '7S 8S 9S', got {type_of(text)}"
        )
    return tuple(Card.parse(word) for word in card_words(text))


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def sort_key(card: Card) -> tuple[int, int]:
    """Hand order: by suit (S H D C), then rank; jokers last."""
    return (4, 0) if card.is_joker else (SUITS.index(card.suit), card.rank)
