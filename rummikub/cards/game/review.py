"""A card game record judged turn by turn in win probability (``rummikub analyse RECORD
--equity`` on a ``rummikub-cards-game/1`` record): skill and luck.

A card turn is two decisions, each judged as its player saw it
(:func:`rummikub.cards.game.view.view_of`) by determinized Monte Carlo
(:mod:`rummikub.cards.game.equity`, the budget :data:`~rummikub.cards.game.equity.DEFAULT`,
seeded by what the player sees):

* **The draw**, when a pick from the discard pile was worth comparing with the stock
  (:func:`~rummikub.cards.game.equity.draw_candidates`: each draw followed by the ``best``
  lay-down): the draw played against the best one, on the same deals.
* **The lay-down**, after the draw (and any "May I?" claim), against every lay-down
  candidate (:func:`~rummikub.cards.game.equity.lay_candidates`), on the same deals.

The equity a turn **lost** is the sum of what its two decisions lost
(:func:`rummikub.play.review.judge`); its mark and accuracy, and each player's line, are
:mod:`rummikub.play.review`'s. A turn with no choice (one candidate at each decision) is not
graded. A draw from the stock whose card is known has its **luck**
(:func:`rummikub.play.review.draw_luck`): the drawer's equity after the card drawn less the
mean over every card it could have drawn (the unseen cards, each kind weighted by its
count). The equity after a card is measured at the end of the drawer's turn (the card
drawn, the ``best`` lay-down with it, the hand scored there by
:func:`~rummikub.cards.game.equity.evaluation`, or won when it goes out): the card's worth
to the hand now, without playouts, so that the luck of every card that could have been
drawn costs one solve each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from rummikub.cards.cards import Card, sort_key
from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState
from rummikub.cards.game.equity import (
    DEFAULT,
    SEARCH,
    CardDecision,
    _finish_turn,
    draw_candidates,
    lay_candidates,
    lay_words,
    played_of,
)
from rummikub.cards.game.record import CardRecord, RecordError, Turn
from rummikub.cards.game.strategies import Lay, best, best_lay
from rummikub.cards.game.view import CardView, unseen, view_of
from rummikub.cards.position import Draw
from rummikub.cards.rules import CardRules
from rummikub.play.equity import Budget, Outcome, play_out, ranked, wins_of
from rummikub.play.piles import put_on_top
from rummikub.play.review import (
    Judgement,
    Progress,
    Review,
    draw_equities,
    draw_luck,
    judge,
    lines,
    review_arguments,
    reviewed,
    rounded,
    written_mark,
)

__all__ = ["CardEquityReview", "CardEquityTurn", "card_draw_equities", "equity_review"]


@dataclass(frozen=True, slots=True)
class CardEquityTurn:
    """One turn of the review. The equity figures are None where the hand is unknown (or
    the stock ran out at the draw and the hand ended)."""

    #: The hand (from 1) and the turn within it (from 1).
    hand: int
    number: int
    seat: int
    player: str
    #: The turn as recorded: its words, the draw, the card drawn from the stock (when
    #: known), the cards laid and the discard.
    words: str
    draw: Draw
    drew: Card | None
    laid: tuple[Card, ...] = ()
    discard: Card | None = None
    #: The turn judged (None where the hand is unknown): the mover's chance before it (the
    #: best candidate's), the chance the turn kept and the equity it lost (both decisions
    #: together), the best candidate of the decision that lost most, and the candidates of
    #: both decisions counted (one at each: the turn had no choice and is not graded).
    judged: Judgement[Outcome[CardDecision]] | None = None
    #: That best candidate in words.
    best_words: str | None = None
    luck: float | None = None

    @property
    def win(self) -> float | None:
        return None if self.judged is None else self.judged.win

    @property
    def lost(self) -> float | None:
        return None if self.judged is None else self.judged.lost

    @property
    def graded(self) -> bool:
        return self.judged is not None and self.judged.choices > 2

    @property
    def mark(self) -> str | None:
        if self.judged is None or not self.graded:
            return None
        return written_mark(self.judged.lost)

    def to_data(self) -> dict[str, Any]:
        judged = self.judged
        data: dict[str, Any] = {
            "hand": self.hand,
            "turn": self.number,
            "player": self.player,
            "seat": self.seat,
            "move": self.words,
            "draw": self.draw,
            "drew": None if self.drew is None else str(self.drew),
            "laid": [str(c) for c in self.laid],
            "discard": None if self.discard is None else str(self.discard),
            "win": None,
            "played_win": None,
            "lost": None,
            "mark": self.mark,
            "graded": self.graded,
            "choices": 0,
            "best": None,
            "luck": rounded(self.luck),
        }
        if judged is not None:
            best = judged.best
            data |= {
                "win": rounded(judged.win),
                "played_win": rounded(judged.played_win),
                "lost": rounded(judged.lost),
                "choices": judged.choices,
                "best": {"label": best.label, "turn": self.best_words, "win": rounded(best.win)},
            }
        return data


@dataclass(frozen=True, slots=True)
class CardEquityReview(Review[CardEquityTurn]):
    """Every turn of a card record in win probability, up to the first bad turn."""

    rules: CardRules

    def to_data(self) -> dict[str, Any]:
        return self.review_data([turn.to_data() for turn in self.turns], game=self.rules.game)


def equity_review(
    record: CardRecord,
    path: str,
    budget: Budget = DEFAULT,
    *,
    progress: Progress | None = None,
) -> CardEquityReview:
    """Replay ``record`` and judge every turn whose hand is known in win probability (see
    the module's text). The same record and budget give the same review, byte for byte."""
    review_arguments(record, CardRecord, path, budget)
    try:
        replayed = engine.replay(record)
    except engine.ScoreError as error:
        # Scores the game's rule does not allow: the record is refused, as on reading.
        raise RecordError(f"{path}: {error}") from None
    played = _played_turns(record, replayed.states)
    turns = reviewed(played, lambda step: _judge(*step, budget), progress)
    players = lines(record.players, turns)
    return CardEquityReview(path, budget, turns, players, replayed.problem, record.rules)


def _played_turns(
    record: CardRecord, states: Sequence[CardGameState]
) -> list[tuple[CardGameState, Turn]]:
    """Each turn the replay applied, with the state before it (``states`` are the replay's:
    the state before each turn and after the last, hand after hand, each hand's first state
    apart)."""
    found: list[tuple[CardGameState, Turn]] = []
    at = 0
    for number, hand in enumerate(record.hands):
        at += number > 0  # the state the hand starts from
        for turn in hand.turns:
            if at + 1 >= len(states):
                return found
            found.append((states[at], turn))
            at += 1
    return found


def _judge(state: CardGameState, turn: Turn, budget: Budget) -> CardEquityTurn:
    seat = state.to_move
    # The draw and any "May I?" claim, in the order the turn was played (the claim takes
    # nothing from the mover's hand: what it gained is its draw).
    mid = engine.draw_and_claim(state, turn)
    drew = None
    if turn.draw == "stock" and state.hands[seat] is not None and mid.hands[seat] is not None:
        added = Counter(mid.hands[seat] or ()) - Counter(state.hands[seat] or ())
        drew = next(iter(added), None)
    after = engine.advance(state, turn)
    plain = CardEquityTurn(
        hand=state.hand + 1,
        number=state.turns + 1,
        seat=seat,
        player=state.players[seat],
        words=_words(turn, drew),
        draw=turn.draw,
        drew=drew,
    )
    if state.hands[seat] is None or mid.hand_over:
        return plain
    before = view_of(state, seat)
    laying = view_of(mid, seat)
    lay = _lay_of(mid, after, turn.discard)
    plain = replace(plain, laid=played_of(laying, lay), discard=lay.discard)
    # The draw: worth judging when a pick was worth comparing with the stock.
    draws = draw_candidates(before)
    drawn: Judgement[Outcome[CardDecision]] | None = None
    if len(draws) > 1:
        played_draw = (
            CardDecision("stock")
            if turn.draw == "stock"
            else CardDecision(turn.draw, best_lay(replace(before, drawn=turn.draw)))
        )
        drawn = judge(
            ranked(play_out(SEARCH, before, draws, budget)),
            lambda o: o.decision.draw == turn.draw,
            lambda: wins_of(SEARCH, before, played_draw, budget),
        )
    # The lay-down, after the draw.
    key = (plain.laid, lay.discard)
    lays = [(label, CardDecision(None, candidate)) for label, candidate in lay_candidates(laying)]
    laid = judge(
        ranked(play_out(SEARCH, laying, lays, budget)),
        lambda o: (
            o.decision.lay is not None
            and (played_of(laying, o.decision.lay), o.decision.lay.discard) == key
        ),
        lambda: wins_of(SEARCH, laying, CardDecision(None, lay), budget),
    )
    win = laid.win if drawn is None else drawn.win
    lost = laid.lost + (0.0 if drawn is None else drawn.lost)
    # The best candidate shown is the one of the decision that lost most.
    worst = drawn if drawn is not None and drawn.lost > laid.lost else laid
    chosen = worst.best.decision
    if worst is drawn:
        best_words = _draw_words(chosen)
    else:
        best_words = "" if chosen.lay is None else lay_words(laying, chosen.lay)
    luck = None
    hidden = Counter(unseen(before))
    # A card from a stock turned over this draw was seen on the pile: no luck to weigh.
    if drew is not None and before.stock_count > 0 and hidden[drew]:
        luck = draw_luck(card_draw_equities(before), hidden, drew)
    judged = Judgement(
        best=worst.best,
        win=win,
        played_win=max(0.0, win - lost),
        lost=lost,
        choices=len(draws) + laid.choices,
    )
    return replace(plain, judged=judged, best_words=best_words, luck=luck)


def _lay_of(mid: CardGameState, after: CardGameState, discard: Card | None) -> Lay:
    """The lay-down a turn made, from the table before it and after it (as read by the
    engine: its melds and lay-offs as :class:`~rummikub.cards.melds.CardMeld`)."""
    old = len(mid.table)
    layoffs = tuple((i, m) for i, m in enumerate(after.table[:old]) if m != mid.table[i])
    return Lay(tuple(after.table[old:]), layoffs, discard)


def _draw_words(decision: CardDecision) -> str:
    if decision.draw == "stock" or decision.draw is None:
        return "draw from the stock"
    return "take the top discard" if decision.draw == 0 else f"take {decision.draw + 1} cards"


def _words(turn: Turn, drew: Card | None) -> str:
    text = engine.describe(turn)
    if drew is not None:
        text = text.replace("drew from the stock", f"drew {drew} from the stock", 1)
    return text


#: The budget of a draw's luck: one deal of the view, nothing played out after the
#: drawer's turn (see the module's text: every deal scores the same there).
LUCK = Budget(samples=1, rounds=0)


def card_draw_equities(view: CardView) -> dict[Card, float]:
    """The drawer's equity after drawing each card kind it could draw from the stock (its
    unseen cards, as it saw them before the draw): :func:`rummikub.play.review.draw_equities`
    at :data:`LUCK`, a kind drawn by moving it to the stock's top and playing the drawer's
    turn with it (the ``best`` lay-down). Depends only on what the drawer saw, never on the
    card drawn."""
    return draw_equities(SEARCH, view, sorted(set(unseen(view)), key=sort_key), _drawing, LUCK)


def _drawing(state: CardGameState, card: Card) -> CardGameState:
    """The drawer's turn on ``state`` with ``card`` drawn from the stock."""
    return _finish_turn(_stock_top(state, card), best, CardDecision("stock"))


def _stock_top(state: CardGameState, card: Card) -> CardGameState:
    """``state`` with ``card`` on top of the stock (:func:`rummikub.play.piles.put_on_top`)."""
    found = put_on_top(state.stock or (), state.hands, state.to_move, card, sort_key)
    if found is None:
        return state
    stock, hands = found
    return replace(state, stock=stock, hands=hands)
