"""Card duels: two card strategies on the same deals, the seats swapped (the duel itself is
written once for every game, :mod:`rummikub.play.duel`; this is a card rummy's setup of it).

What a card duel adds to the tile duel's report: the score is the game's final total, so
that where the lowest total wins (romme, continental, california; CARDS.md section 7) the
difference is B's total less A's, and a positive difference favours A in every game; the
hands a game takes; and the endings are counted by hand (a player went out, or the stock
ran out with nobody out).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.cards.game.engine import lowest_wins
from rummikub.cards.game.plugin import CardGame
from rummikub.cards.game.simulate import CardGameSummary, CardSetup
from rummikub.cards.rules import CardRules, rules_data
from rummikub.core.stats import mean_ci
from rummikub.play.duel import Pairing

__all__ = ["CardDuelSetup"]


def _round(value: float) -> float:
    return round(value, 6)


@dataclass(frozen=True, slots=True)
class CardDuelSetup(Pairing):
    """What every game of a card duel shares: the rummy of ``rules``, card strategy ``a``
    against card strategy ``b`` (the same name twice is allowed)."""

    rules: CardRules
    a: str
    b: str
    players: int = 2
    seed: int = 0

    deal_salt = "rummikub-cards-duel"
    ending_names = ("went_out", "stock_out")

    def __post_init__(self) -> None:
        # The same checks as a card simulation's: the seats, known strategies.
        CardSetup(self.rules, self.pair(), self.players, self.seed)

    @property
    def game(self) -> CardGame:
        return CardGame(self.rules)

    @property
    def lowest_wins(self) -> bool:
        return lowest_wins(self.rules)

    def title(self) -> str:
        wins = "lowest" if self.lowest_wins else "highest"
        return (
            f"{self.rules.game}: A {self.a} against B {self.b}: {self.players} players, "
            f"seed {self.seed} ({wins} total wins)"
        )

    def head_data(self) -> dict[str, Any]:
        return {"game": self.rules.game}

    def setup_data(self) -> dict[str, Any]:
        return {"rules": rules_data(self.rules), "lowest_total_wins": self.lowest_wins}

    def score_line(self, mean: float, ci: tuple[float, float]) -> str:
        # Oriented so that a positive difference favours A, whichever total wins.
        which = "B-A" if self.lowest_wins else "A-B"
        return (
            f"Total {which}: mean {mean:+.1f} a game "
            f"(95% CI {ci[0]:+.1f} to {ci[1]:+.1f}, paired by deal; positive favours A)"
        )

    def extras(self, games: Sequence[Any]) -> dict[str, Any]:
        found: Sequence[CardGameSummary] = games
        mean, ci = mean_ci([float(g.hands) for g in found])
        return {
            "hands": {"mean": _round(mean), "ci": [_round(x) for x in ci]},
            "rummies": sum(g.rummies for g in found),
            "claims": sum(g.claims for g in found),
        }

    def extra_lines(self, extras: dict[str, Any]) -> list[str]:
        hands = extras["hands"]
        lo, hi = hands["ci"]
        # As the card simulation's report: 500 Rum's rummies, the "May I?" claims.
        extra = f", {extras['rummies']} rummies" if self.rules.game == "500-rum" else ""
        if self.rules.may_i:
            extra += f'; "May I?" claims: {extras["claims"]}'
        return [f"Hands per game: mean {hands['mean']:.1f} (95% CI {lo:.1f}-{hi:.1f}){extra}"]

    def endings_line(self, endings: dict[str, int]) -> str:
        return (
            f"Hands: {endings['went_out']} ended with a player out, "
            f"{endings['stock_out']} with nobody out (the stock ran out)"
        )
