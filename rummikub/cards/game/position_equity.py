"""The equity of one card position (``rummikub analyse --game NAME --hand ... --equity``).

A card puzzle or an inline position is a hand, a table and a discard pile; the playouts
need the whole public state of a hand in play (a :class:`~rummikub.cards.game.view.CardView`).
:func:`view_for` gives it the rest, from choices with defaults: 2 players; each other hand
as large as a fresh deal's (the game's hand size: nobody is taken to lead the race); the
others opened where the position's player has, else not (a table of melds with nobody
opened cannot be); the stock whatever is left of the pack. The position's player sits in
seat 1 and moves; a position whose ``drawn`` is false decides the draw and the lay-down
(:func:`rummikub.cards.game.equity.candidates`), one whose card is drawn the lay-down.

:func:`equity` runs the analysis at :data:`ANALYSE` and :class:`CardPositionEquity` holds
the answer, its words and its JSON (:meth:`CardPositionEquity.to_data`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.cards.cards import sort_key
from rummikub.cards.game.engine import pack
from rummikub.cards.game.equity import CardDecision, evaluate, lay_words, played_of, seed_of
from rummikub.cards.game.view import CardView
from rummikub.cards.position import CardPosition
from rummikub.cards.rules import hand_size_of, most_players, pack_for
from rummikub.core.deadline import Stop
from rummikub.core.errors import RummikubError
from rummikub.play.equity import (
    Budget,
    Outcome,
    Progress,
    limited,
    stopped_by,
    stopped_data,
    stopped_words,
)

__all__ = [
    "ANALYSE",
    "CardPositionEquity",
    "decision_words",
    "equity",
    "equity_text",
    "view_for",
]

#: The budget of ``analyse --equity`` on a card position: 24 deals per candidate, each
#: played out 2 rounds, a turn of ``keep`` instead of ``best`` one time in four.
ANALYSE = Budget(samples=24, rounds=2, explore=0.25)


def view_for(
    position: CardPosition,
    *,
    players: int = 2,
    hand_sizes: Sequence[int] | None = None,
    others_opened: bool | None = None,
) -> CardView:
    """The public state of a hand around ``position`` (its player in seat 1, to move):
    ``players`` in all, the other ``hand_sizes`` in seat order (default: a fresh deal's
    size each), whether the others have opened (default: as the player has), the stock
    what is left of the pack. Raises :class:`RummikubError` when the hands do not fit."""
    if not isinstance(position, CardPosition):
        raise TypeError(f"view_for() takes a CardPosition, got {type(position).__name__}")
    position.check_built()
    rules = position.rules
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be a whole number, got {players!r}")
    most = most_players(rules)
    if not 2 <= players <= most:
        raise RummikubError(f"{players} players: {rules.game} seats 2-{most}")
    rules = pack_for(rules, players)
    if hand_sizes is None:
        sizes = (hand_size_of(rules, players),) * (players - 1)
    else:
        sizes = tuple(hand_sizes)
        if len(sizes) != players - 1:
            raise RummikubError(
                f"{len(sizes)} other hand size(s) given, but {players} players have "
                f"{players - 1} other hand(s)"
            )
        if any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in sizes):
            raise RummikubError(f"hand sizes {list(sizes)}: each must be a whole number >= 1")
    seen = Counter(position.hand)
    seen.update(position.discard)
    seen.update(c for meld in position.table for c in meld.cards)
    hidden = (Counter(pack(rules)) - seen).total()
    if sum(sizes) > hidden:
        raise RummikubError(
            f"the other hands ({' + '.join(map(str, sizes))}) hold {sum(sizes)} cards, but only "
            f"{hidden} are out of sight (the pack less the hand, the table and the discard "
            "pile): give smaller hand sizes"
        )
    opened = position.opened if others_opened is None else others_opened
    return CardView(
        seat=0,
        rules=rules,
        hand=tuple(sorted(position.hand, key=sort_key)),
        table=position.table,
        owners=tuple((1,) * len(meld.cards) for meld in position.table),
        pile=position.discard,
        dead=0,
        counts=(len(position.hand), *sizes),
        opened=(position.opened, *(opened,) * (players - 1)),
        stock_count=hidden - sum(sizes),
        hand_number=0,
        deal=position.deal,
        to_move=0,
        drawn="stock" if position.drawn else None,
        history=(),
        results=(),
        laid=(0,) * players,
        has_laid=(position.opened, *(opened,) * (players - 1)),
    )


def decision_words(view: CardView, decision: CardDecision) -> str:
    """A candidate in words: ``draw from the stock, then the best turn``, ``take the top
    discard, lay 7S 8S 9S, discard KH``, ``lay 7S 8S 9S, discard KH``."""
    if decision.lay is None:
        return "draw from the stock, then the best turn"
    if decision.draw is None or decision.draw == "stock":
        return lay_words(view, decision.lay)
    depth = decision.draw
    what = "the top discard" if depth == 0 else f"{depth + 1} cards from the pile"
    return f"take {what}, {lay_words(view, decision.lay)}"


@dataclass(frozen=True, slots=True)
class CardPositionEquity:
    """A card position's equity analysis: the game around it, the budget, the answer."""

    position: CardPosition
    view: CardView
    budget: Budget
    seed: int
    #: Every candidate, the best equity first.
    candidates: tuple[Outcome[CardDecision], ...]
    #: What cut the playouts short (``"time limit"`` or ``"stop"``), None when nothing did.
    stopped_by: str | None = None

    @property
    def stopped(self) -> bool:
        """True when the time limit or the stop signal cut the playouts short: each
        candidate had :attr:`playouts` of the ``budget.samples`` asked."""
        return self.best.stopped

    @property
    def playouts(self) -> int:
        """The playouts each candidate had (all alike: the same deals)."""
        return self.best.samples

    @property
    def best(self) -> Outcome[CardDecision]:
        return self.candidates[0]

    @property
    def win(self) -> float:
        """The player's chance to win the hand: the best candidate's."""
        return self.best.win

    @property
    def ci(self) -> tuple[float, float]:
        return self.best.ci

    def to_data(self) -> dict[str, Any]:
        """The ``"equity"`` key of ``analyse --equity --json`` on a card position; when
        :attr:`stopped`, with ``"status": "stopped"``, ``"stopped_by"`` and
        ``"playouts_done"`` added."""
        view = self.view
        data = {
            "win": _round(self.win),
            "ci": [_round(x) for x in self.ci],
            "candidates": [self._candidate(o) for o in self.candidates],
            "players": view.players,
            "hand_counts": list(view.counts),
            "opened": list(view.opened),
            "stock": view.stock_count,
            "playouts": self.budget.samples,
            "rounds": self.budget.rounds,
            "explore": self.budget.explore,
            "seed": self.seed,
        }
        if self.stopped:
            data.update(stopped_data(self.playouts, self.budget.samples, self.stopped_by))
        return data

    def _candidate(self, o: Outcome[CardDecision]) -> dict[str, Any]:
        decision = o.decision
        lay = decision.lay
        return {
            "label": o.label,
            "draw": decision.draw,
            "turn": decision_words(self.view, decision),
            "laid": None if lay is None else [str(c) for c in played_of(self.view, lay)],
            "melds": None if lay is None else [str(m) for m in lay.melds],
            "layoffs": None if lay is None else [[i, str(m)] for i, m in lay.layoffs],
            "discard": None if lay is None or lay.discard is None else str(lay.discard),
            "win": _round(o.win),
            "ci": [_round(x) for x in o.ci],
            "mean_ci": [_round(x) for x in o.mean_ci],
            "score": round(o.score, 2),
            "lead": round(o.lead, 3),
            "finished": _round(o.finished),
            "playouts": o.samples,
        }


def _round(x: float) -> float:
    return round(x, 4)


def equity(
    position: CardPosition,
    *,
    players: int = 2,
    hand_sizes: Sequence[int] | None = None,
    others_opened: bool | None = None,
    playouts: int = ANALYSE.samples,
    rounds: int = ANALYSE.rounds,
    explore: float = ANALYSE.explore,
    seed: int | None = None,
    progress: Progress | None = None,
    time_limit: float | None = None,
    stop: Stop | None = None,
) -> CardPositionEquity:
    """Every candidate of ``position`` with its chance to win the hand, the best first:
    ``playouts`` deals (:func:`view_for` of ``players``, ``hand_sizes``, ``others_opened``)
    each played out for ``rounds`` rounds (``explore``: :class:`~rummikub.play.equity.Budget`),
    seeded by ``seed`` (default: one drawn from what the player sees). ``time_limit``
    (seconds) and ``stop`` (an event) cut the playouts short between deals: the answer is
    then :attr:`CardPositionEquity.stopped`; with not one deal done,
    :class:`~rummikub.play.equity.Stopped` is raised."""
    for value, name in ((playouts, "playouts"), (rounds, "rounds")):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be a whole number, got {value!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be a whole number or None, got {seed!r}")
    if isinstance(explore, bool) or not isinstance(explore, int | float):
        raise TypeError(f"explore must be a number between 0 and 1, got {explore!r}")
    budget = Budget(samples=playouts, rounds=rounds, explore=float(explore))
    view = view_for(position, players=players, hand_sizes=hand_sizes, others_opened=others_opened)
    used = seed_of(view) if seed is None else seed
    with limited(time_limit, stop):
        found = evaluate(view, budget, seed=used, progress=progress, partial=True)
        cause = stopped_by() if found[0].stopped else None
    return CardPositionEquity(position, view, budget, used, tuple(found), cause)


def equity_text(found: CardPositionEquity) -> str:
    """The ``--equity`` part of ``analyse``'s text on a card position."""
    view, budget = found.view, found.budget
    others = ", ".join(str(n) for n in view.opponents())
    rounds = f"{budget.rounds} round" + ("" if budget.rounds == 1 else "s")
    low, high = found.ci
    lines = [
        f"Equity ({view.players} players, other hands {others}, stock {view.stock_count}; "
        f"{budget.samples} playouts of {rounds} each, seed {found.seed}):",
        "  "
        + (
            stopped_words(found.playouts, budget.samples, found.stopped_by)
            if found.stopped
            else f"Evaluation: {found.win:.0%} to win the hand (95% interval {low:.0%}-{high:.0%})."
        ),
        f"       win  {'95%':>9}  mean ±    score  turn",
    ]
    for rank, o in enumerate(found.candidates, 1):
        interval = f"{o.ci[0]:.0%}-{o.ci[1]:.0%}"
        half = (o.mean_ci[1] - o.mean_ci[0]) / 2
        lines.append(
            f"  {rank:>2}. {o.win:>4.0%}  {interval:>9}  {half:>6.0%}  {o.score:>+7.1f}  "
            f"{decision_words(view, o.decision)} ({o.label})"
        )
    return "\n".join(lines)
