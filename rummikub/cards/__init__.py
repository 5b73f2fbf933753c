"""The card rummies on the same engine: Rummy, 500 Rum, Rommé, Continental, California.

The domain (cards, melds with wild cards, rules and presets as data), card puzzle files, the
checker of a card turn, and the solver of the best turn (an integer program, proven optimal;
OR-Tools is imported only when a solve runs). CARDS.md is the specification.

>>> from rummikub.cards import CardPosition, check, parse_cards, preset, read_meld, solve
>>> position = CardPosition(preset("rummy"), parse_cards("7S 8S 9S KH 2C"),
...                         (read_meld("7H 7D 7C", preset("rummy")),))
>>> turn = solve(position).best
>>> [str(meld) for meld in turn.table], turn.discard, turn.penalty
(['7H 7D 7C', '7S 8S 9S'], Card(rank=13, suit='H'), 2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rummikub.cards.cards import JOKER, Card, format_cards, parse_cards
from rummikub.cards.checker import CardVerdict, Violation, check
from rummikub.cards.melds import CardMeld, RawCardMeld
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.rules import CONTRACTS, GAMES, PRESETS, CardRules, preset, with_options

if TYPE_CHECKING:
    from rummikub.cards.solver import CardResult, CardTurn


def read_meld(text: str, rules: CardRules) -> CardMeld:
    """Read and judge a meld written in card notation (raises MeldError)."""
    return RawCardMeld.parse(text).read(rules)


def solve(position: CardPosition, *, time_limit: float | None = None) -> CardResult:
    """The best turn (CARDS.md section 5), proven optimal; imports OR-Tools on first use."""
    from rummikub.cards.solver import solve as _solve

    return _solve(position, time_limit=time_limit)


def __getattr__(name: str) -> Any:
    if name in ("CardResult", "CardTurn"):
        from rummikub.cards import solver

        return getattr(solver, name)
    raise AttributeError(name)


__all__ = [
    "CONTRACTS",
    "GAMES",
    "JOKER",
    "PRESETS",
    "Card",
    "CardMeld",
    "CardPosition",
    "CardResult",
    "CardRules",
    "CardTurn",
    "CardVerdict",
    "Draw",
    "RawCardMeld",
    "Violation",
    "check",
    "format_cards",
    "parse_cards",
    "preset",
    "read_meld",
    "solve",
    "with_options",
]
