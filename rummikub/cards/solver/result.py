"""What the card solver answers: the best turn of a draw, the result of a position, and the
order turns are compared in (CARDS.md section 5)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rummikub.cards.cards import Card
from rummikub.cards.melds import CardMeld
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
