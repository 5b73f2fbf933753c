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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rummikub.cards import checker
from rummikub.cards.cards import JOKER, Card, card_problem, format_cards, parse_cards, type_of
from rummikub.cards.checker import CardVerdict, Violation
from rummikub.cards.melds import CardMeld, RawCardMeld
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.rules import CONTRACTS, GAMES, PRESETS, CardRules, preset, with_options

if TYPE_CHECKING:
    from rummikub.cards.solver import CardResult, CardTurn


def read_meld(text: str, rules: CardRules) -> CardMeld:
    """Read and judge a meld written in card notation (raises MeldError)."""
    if not isinstance(rules, CardRules):
        raise TypeError(
            f"read_meld() takes a game's CardRules (e.g. preset('rummy')), got {type_of(rules)}"
        )
    return RawCardMeld.parse(text).read(rules)


def solve(position: CardPosition, *, time_limit: float | None = None) -> CardResult:
    """The best turn (CARDS.md section 5), proven optimal unless ``time_limit`` (seconds)
    cut it short; imports OR-Tools on first use. A position that no deal can give (see
    :meth:`CardPosition.check_built`) raises, as the command line refuses it."""
    from rummikub.cards.solver import solve as _solve

    return _solve(position, time_limit=time_limit)


def check(
    position: CardPosition,
    after: Sequence[RawCardMeld | CardMeld],
    *,
    discard: Card | None = None,
    draw: Draw | None = None,
) -> CardVerdict:
    """Judge the turn that makes ``after`` the new table, discards ``discard`` and draws
    ``draw`` (``None``: from the stock, or no draw due); see
    :func:`rummikub.cards.checker.check`. The arguments are checked first: a broken
    position raises as for :func:`solve`, a turn that breaks the rules is the verdict's."""
    if not isinstance(position, CardPosition):
        raise TypeError(f"check() takes a CardPosition, got {type_of(position)}")
    position.check_built()
    if isinstance(after, str) or not isinstance(after, Sequence):
        raise TypeError(
            "check() takes the new table as a list of melds "
            f"(e.g. [RawCardMeld.parse('7S 8S 9S')]), got {type_of(after)}"
        )
    for index, meld in enumerate(after):
        if not isinstance(meld, RawCardMeld | CardMeld):
            raise TypeError(
                f"new table[{index}] must be a RawCardMeld or CardMeld "
                f"(e.g. RawCardMeld.parse('7S 8S 9S')), got {type_of(meld)}"
            )
    if discard is not None and card_problem(discard) is not None:
        raise TypeError(f"discard: {card_problem(discard)}")
    if (
        draw is not None
        and draw != "stock"
        and (isinstance(draw, bool) or not isinstance(draw, int) or draw < 0)
    ):
        raise ValueError(f"draw={draw!r} must be None, 'stock' or a pile depth >= 0")
    return checker.check(position, after, discard=discard, draw=draw)


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
