"""Playing the card rummies to win: the equity of a card decision, by determinized Monte
Carlo (:mod:`rummikub.play.equity`), and the ``equity`` card strategy.

The generic search asks a game for deals, for a decision applied to a deal, for playouts
and for their scoring; :class:`CardSearch` answers for the card rummies:

* **Deals**: what the seat cannot see dealt at random into the other hands (their known
  sizes, the cards known taken from the pile first) and the stock
  (:func:`rummikub.cards.game.view.determinize`), seeded by everything the seat sees
  (:func:`seed_of`).
* **Decisions** (:class:`CardDecision`): a draw (the stock, or a depth of the discard pile)
  and the lay-down after it. Before the draw the candidates are the draws (the stock, the
  top discard, the pick the solver likes), each followed by the ``best`` strategy's lay-down
  (after a stock draw the card is not known, so the lay-down is chosen on each deal); after
  the draw they are the lay-downs (:func:`lay_candidates`): the solver's best turn, the
  ``keep`` and ``casual`` strategies' lay-downs, and laying nothing but a discard (the best
  turn's discard, or the least useful card), told apart by the cards they lay and discard.
  The "May I?" claims of the other seats on a deal are the ``best`` strategy's (``keep``
  claims as ``best`` does).
* **Playouts**: every seat plays the search's ``policy`` (with chance ``explore`` a turn of
  its ``variant`` instead) for ``rounds`` rounds, the deciding seat's own next turns included, and
  never past the end of the hand: the hand is the unit a decision changes (the game's
  totals are left out).
* **Scoring** (:meth:`CardSearch.scored`): the score is the hand's score in the seat's
  favour (CARDS.md section 7: high totals win in rummy and 500 Rum, so it is the seat's own
  score; low totals win in the others, so it is its penalty, negated). A hand that ended is
  won by the seat with the best such score (several share it): the seat that went out,
  except in 500 Rum, where the points laid count too. A hand still running is scored by
  :func:`evaluation`.

The analysis (:data:`SEARCH`: ``analyse --equity``, the review) plays its playouts with
``best``. The ``equity`` strategy (:func:`equity_draw`, :func:`equity_lay`, claims as
``best``) starts from ``keep``, the stronger cheap player (``keep`` beats ``best`` in four
games of five at rummy and 500 Rum), and searches with :data:`PLAYER`, whose playouts every
seat plays as ``keep``: before the draw it weighs ``keep``'s draw against the stock and the
picks worth comparing (:func:`draw_candidates`, each followed by ``keep``'s lay-down), after
it ``keep``'s discard against the :data:`DISCARDS` least useful other cards
(:func:`discard_candidates`; the melds laid stay ``keep``'s: a 1-round playout scored by
:func:`evaluation` rewards laying down early, which is what ``keep`` does better than
``best`` by not doing), at :data:`DEFAULT`. It leaves ``keep``'s choice only for a candidate
:func:`clearly_better` on every deal.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rummikub.cards.cards import Card, format_cards, sort_key
from rummikub.cards.game import engine
from rummikub.cards.game.engine import CardGameState
from rummikub.cards.game.simulate import turn_of
from rummikub.cards.game.strategies import (
    CardStrategy,
    Lay,
    best,
    best_claim,
    best_lay,
    casual_lay,
    is_legal,
    keep,
    keep_lay,
    least_useful,
    playable,
    thrown_before,
    usefulness,
)
from rummikub.cards.game.view import CardView, check_view, determinize, seat_of, view_of
from rummikub.cards.position import Draw
from rummikub.cards.solver import solve
from rummikub.play.equity import Budget, Outcome, Progress, play_out, ranked

__all__ = [
    "DEFAULT",
    "DISCARDS",
    "EDGE",
    "PLAYER",
    "SEARCH",
    "CardDecision",
    "CardSearch",
    "candidates",
    "clearly_better",
    "discard_candidates",
    "draw_candidates",
    "equity_draw",
    "equity_lay",
    "evaluate",
    "evaluation",
    "lay_candidates",
    "played_of",
    "seed_of",
]

#: The ``equity`` strategy's budget: 4 deals, each played out 1 round (every seat's next
#: turn), greedily: what keeps a duel of 20 games within minutes (benchmarks/RESULTS.md,
#: "Card duels").
DEFAULT = Budget(samples=4, rounds=1)

#: The ``equity`` strategy leaves ``keep``'s choice only for a candidate whose expected
#: hand margin is higher by more than this many points (and which wins at least as often
#: on every deal: :func:`clearly_better`): at 4 deals a smaller difference is mostly the
#: deals' luck, and ``keep``'s choice is the better prior.
EDGE = 5.0

#: A playout stops after this many turns even with ``rounds`` not played out (a hand in
#: which nobody can go out and the stock turns over for ever).
PLAYOUT_TURNS = 400


@dataclass(frozen=True, slots=True)
class CardDecision:
    """One candidate: the draw (None: already made) and the lay-down after it (None: the
    ``best`` strategy's on each deal, as after a stock draw whose card is unknown)."""

    draw: Draw | None = None
    lay: Lay | None = None


# -- the candidates ---------------------------------------------------------------------


def played_of(view: CardView, lay: Lay) -> tuple[Card, ...]:
    """The cards ``lay`` puts on the table: its new melds and what its lay-offs add."""
    laid = Counter(c for meld in lay.melds for c in meld.cards)
    for index, meld in lay.layoffs:
        laid += Counter(meld.cards) - Counter(view.table[index].cards)
    return tuple(sorted(laid.elements(), key=sort_key))


def lay_words(view: CardView, lay: Lay) -> str:
    """A lay-down in words: ``lay 7S 8S 9S, discard KH`` (``discard KH`` alone: nothing
    laid; ``out`` without a discard)."""
    played = played_of(view, lay)
    parts = [f"lay {format_cards(played)}"] if played else []
    parts.append(f"discard {lay.discard}" if lay.discard is not None else "out")
    return ", ".join(parts)


def lay_candidates(view: CardView, prior: str = "best") -> list[tuple[str, Lay]]:
    """The lay-downs worth comparing after the draw (``view.drawn`` made), distinct by the
    cards they lay and discard: ``best`` (the solver's turn), ``keep``, ``casual``,
    ``hold`` (lay nothing, discard the card the best turn throws) and ``hold-least`` (lay
    nothing, discard the least useful card), the strategy named ``prior`` (``best`` or
    ``keep``: the prior) first. Every one is legal (the variants the checker refuses are
    left out)."""
    check_view(view)
    position = view.position()
    choice: Draw = "stock" if view.drawn is None else view.drawn
    found: list[tuple[str, Lay]] = []
    seen: set[tuple[tuple[Card, ...], Card | None]] = set()

    def add(label: str, lay: Lay) -> None:
        key = (played_of(view, lay), lay.discard)
        if key not in seen and (not found or is_legal(position, choice, lay)):
            seen.add(key)
            found.append((label, lay))

    first = best_lay(view)
    lays = {"best": first, "keep": keep_lay(view)}
    for label in dict.fromkeys([prior, "best", "keep"]):
        add(label, lays[label])
    add("casual", casual_lay(view))
    if first.discard is not None:
        add("hold", Lay(discard=first.discard))
    hand = list(position.hand_after(choice).elements())
    least = least_useful(hand, view.rules, view.deal, position.taken(choice))
    if least is not None:
        add("hold-least", Lay(discard=least))
    return found


def _pick_label(depth: int) -> str:
    return "pile" if depth == 0 else f"pile-{depth + 1}"


def _picks(view: CardView) -> tuple[list[int], Draw]:
    """The picks worth comparing with the stock, the solver's own draw first: the depth the
    solver likes best and the top discard (unless the seat threw it this hand: no strategy
    takes back its own discard), each only where a legal turn follows it; and the solver's
    draw (the stock, or a pick)."""
    position = view.position()
    if not position.picks():
        return [], "stock"
    picks: list[int] = []
    liked = solve(position).best.draw
    for depth in dict.fromkeys([liked, 0]):
        if isinstance(depth, str) or (depth == 0 and thrown_before(view)):
            continue
        if not playable(position, depth):
            continue
        picks.append(depth)
    return picks, liked


def draw_candidates(view: CardView, player: CardStrategy = best) -> list[tuple[str, CardDecision]]:
    """Before the draw: the stock and each pick worth comparing (:func:`_picks`), each
    followed by ``player``'s lay-down (after the stock, on each deal); ``player``'s own
    draw first (the solver's, for ``best``)."""
    check_view(view)
    picks, _ = _picks(view)
    prior = player.draw(view)
    if not isinstance(prior, str) and prior not in picks:
        # A pick no legal turn follows (or one the seat threw): the stock stands for it.
        prior = "stock"
    found = {
        depth: (_pick_label(depth), CardDecision(depth, player.lay(replace(view, drawn=depth))))
        for depth in picks
    }
    stock = ("stock", CardDecision("stock"))
    if isinstance(prior, str):
        return [stock, *found.values()]
    return [found[prior], stock, *(c for d, c in found.items() if d != prior)]


def candidates(view: CardView) -> list[tuple[str, CardDecision]]:
    """Every candidate of the seat's decision: after the draw, the lay-downs
    (:func:`lay_candidates`); before it, the stock (then the ``best`` lay-down on each deal)
    and every pick worth comparing with each lay-down after it (labelled ``pile: keep``,
    ...)."""
    check_view(view)
    if view.drawn is not None:
        return [(label, CardDecision(None, lay)) for label, lay in lay_candidates(view)]
    found = [("stock", CardDecision("stock"))]
    for depth in _picks(view)[0]:
        picked = replace(view, drawn=depth)
        for label, lay in lay_candidates(picked):
            found.append((f"{_pick_label(depth)}: {label}", CardDecision(depth, lay)))
    return found


# -- the search -------------------------------------------------------------------------


def seed_of(view: CardView) -> int:
    """A seed from everything the seat sees (never another hand nor the stock's order)."""
    check_view(view)
    text = repr(
        (
            view.rules,
            view.seat,
            view.hand,
            view.table,
            view.pile,
            view.dead,
            view.counts,
            view.opened,
            view.stock_count,
            view.hand_number,
            view.to_move,
            view.drawn,
            view.history,
            view.turns,
            view.turned,
        )
    )
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def _finish_turn(
    state: CardGameState, player: CardStrategy, decision: CardDecision = CardDecision()
) -> CardGameState:
    """The rest of the turn of the player to move: the draw (the decision's, else the
    player's), the other seats' "May I?" claims (``best``'s), the lay-down (the decision's,
    else the player's). Not judged twice: the engine's checker judges the lay-down."""
    seat = state.to_move
    if state.drawn is None:
        choice = decision.draw if decision.draw is not None else player.draw(view_of(state, seat))
        # The claims come before the draw from the stock (CARDS.md section 7, "May I?").
        for other in engine.claimants(state) if choice == "stock" else ():
            if best_claim(view_of(state, other)):
                state = engine.claim(state, other)
                break
        drew = engine.draw(state, choice)
        if drew.hand_over:
            return drew
        state = drew
    lay = decision.lay if decision.lay is not None else player.lay(view_of(state, seat))
    turn = turn_of(state.drawn if state.drawn is not None else "stock", None, lay)
    return engine.lay(state, turn.melds, turn.layoffs, turn.discard)


def _favour(state: CardGameState, scores: Sequence[int], seat: int) -> float:
    """A hand's score in ``seat``'s favour: its own score where the highest total wins
    (rummy, 500 Rum), its penalty negated where the lowest does."""
    return -float(scores[seat]) if engine.lowest_wins(state.rules) else float(scores[seat])


def evaluation(state: CardGameState, seat: int) -> float:
    """``seat``'s chance to win a hand still running, set by hand (not fitted): a logistic
    in its lead in cards over the closest opponent (a card is about a quarter of a turn of
    the race), lower with more opponents, lower while it has not opened in a game with an
    opening requirement (points or a contract) and higher for each opponent who has not; in
    500 Rum, where a hand is won by its points, also in the lead in points laid less the
    penalty of the cards held (25 points about as much as two cards)."""
    seat = seat_of(state, seat)
    mine = state.counts[seat]
    others = [n for s, n in enumerate(state.counts) if s != seat]
    x = 0.45 * (min(others) - mine) - 0.35 * (len(others) - 1)
    if state.rules.game == "500-rum":
        net = [state.laid[s] - (state.penalty(s) or 0) for s in range(len(state.players))]
        x += 0.036 * (net[seat] - max(n for s, n in enumerate(net) if s != seat))
    if state.rules.opening != "none":
        if not state.opened[seat]:
            x -= 0.8
        x += 0.25 * sum(1 for s, o in enumerate(state.opened) if s != seat and not o)
    return 1.0 / (1.0 + math.exp(-x))


@dataclass(frozen=True, slots=True)
class CardSearch:
    """The card rummies for :mod:`rummikub.play.equity` (see the module's text): the
    playouts' players play ``policy``, with chance ``explore`` a turn of ``variant``."""

    policy: CardStrategy = best
    variant: CardStrategy = keep

    def seat_of(self, view: CardView) -> int:
        return view.seat

    def seed_of(self, view: CardView) -> int:
        return seed_of(view)

    def determinize(self, view: CardView, rng: random.Random) -> CardGameState:
        return determinize(view, rng)

    def apply(self, state: CardGameState, decision: CardDecision) -> CardGameState:
        return _finish_turn(state, self.policy, decision)

    def over(self, state: CardGameState) -> bool:
        return state.hand_over

    def playout(
        self, state: CardGameState, rounds: int, explore: float, rng: random.Random | None
    ) -> CardGameState:
        turns = min(rounds * len(state.players), PLAYOUT_TURNS)
        while not state.hand_over and turns > 0:
            explored = rng is not None and explore > 0 and rng.random() < explore
            state = _finish_turn(state, self.variant if explored else self.policy)
            turns -= 1
        return state

    def scored(self, state: CardGameState, seat: int) -> tuple[float, float, float]:
        others = [n for s, n in enumerate(state.counts) if s != seat]
        lead = float(min(others) - state.counts[seat])
        if state.hand_over:
            result = state.results[-1]
            scores = result.scores or (0,) * len(state.players)
            favour = [_favour(state, scores, s) for s in range(len(state.players))]
            top = [s for s, f in enumerate(favour) if f == max(favour)]
            return (1.0 / len(top) if seat in top else 0.0), lead, _margin(favour, seat)
        win = evaluation(state, seat)
        return (
            win,
            lead,
            win * _if_out(state, seat, seat)
            + (1 - win) * _if_out(state, _closest(state, seat), seat),
        )


def _closest(state: CardGameState, seat: int) -> int:
    """The opponent closest to going out (the fewest cards; the first in seat order)."""
    others = [s for s in range(len(state.players)) if s != seat]
    return min(others, key=lambda s: (state.counts[s], s))


def _margin(favour: Sequence[float], seat: int) -> float:
    """``seat``'s hand score in its favour less the best opponent's: what the hand moves it
    in the race to the game's target (a card held when another goes out costs it there)."""
    return favour[seat] - max(f for s, f in enumerate(favour) if s != seat)


def _if_out(state: CardGameState, out: int, seat: int) -> float:
    """``seat``'s hand margin (:func:`_margin`) were ``out`` to go out now (the others
    keeping their hands): the engine's scoring of the hand as it stands."""
    n = len(state.players)
    penalties = tuple(0 if s == out else state.penalty(s) for s in range(n))
    # The engine's own hand scoring (CARDS.md section 7): the one place it is written.
    scores = engine.hand_scores(state.rules, out, False, state.laid, penalties) or (0,) * n
    return _margin([_favour(state, scores, s) for s in range(n)], seat)


#: The search of the analysis: the playouts play ``best``, a turn of ``keep`` where they explore.
SEARCH = CardSearch()


def evaluate(
    view: CardView,
    budget: Budget = DEFAULT,
    *,
    seed: int | None = None,
    choices: Sequence[tuple[str, CardDecision]] | None = None,
    progress: Progress | None = None,
    partial: bool = False,
) -> list[Outcome[CardDecision]]:
    """Every candidate of the seat's decision (``choices``, default :func:`candidates`) with
    its equity, the best first. Once the time limit or the stop signal cuts the playouts
    (:func:`rummikub.play.equity.play_out`), the outcomes say so (``stopped``) with
    ``partial``, else :class:`~rummikub.play.equity.Stopped` is raised."""
    found = candidates(view) if choices is None else list(choices)
    outcomes = play_out(SEARCH, view, found, budget, seed=seed, progress=progress, partial=partial)
    return ranked(outcomes)


# -- the ``equity`` strategy ----------------------------------------------------------------


#: The search of the ``equity`` strategy: every seat of its playouts plays ``keep``.
PLAYER = CardSearch(policy=keep, variant=best)


def clearly_better(other: Outcome[CardDecision], prior: Outcome[CardDecision]) -> bool:
    """Whether ``other`` beats ``prior`` (``keep``'s own choice) clearly enough to leave
    it: an expected hand margin higher by more than :data:`EDGE` points, a higher mean win
    and a win at least as high on every deal. On 4 deals a margin alone is mostly luck (a
    different discard changes who draws which card of the stock after it), and a candidate
    chosen on it plays worse than ``keep`` itself (benchmarks/RESULTS.md, "Card duels")."""
    return (
        other.score > prior.score + EDGE
        and other.win > prior.win
        and all(a >= b for a, b in zip(other.wins, prior.wins, strict=True))
    )


def _chosen(view: CardView, found: Sequence[tuple[str, CardDecision]]) -> CardDecision:
    """The strategy's choice among ``found`` (``keep``'s own choice first), played out at
    :data:`DEFAULT` by :data:`PLAYER`: the candidate :func:`clearly_better` than ``keep``'s
    with the best expected hand margin (the game is a race in points, so the points a hand
    moves, not only who goes out); else ``keep``'s."""
    if len(found) == 1:
        return found[0][1]
    prior, *others = play_out(PLAYER, view, found, DEFAULT)
    clear = [o for o in others if clearly_better(o, prior)]
    return max(clear, key=lambda o: o.score).decision if clear else prior.decision


def equity_draw(view: CardView) -> Draw:
    """The draw of the ``equity`` strategy among the stock and the picks worth comparing,
    each followed by ``keep``'s lay-down (:func:`draw_candidates`, :func:`_chosen`)."""
    chosen = _chosen(view, draw_candidates(view, keep)).draw
    return "stock" if chosen is None else chosen


#: The ``equity`` strategy weighs ``keep``'s discard against this many other cards.
DISCARDS = 2


def discard_candidates(view: CardView, lay: Lay) -> list[tuple[str, Lay]]:
    """``lay`` (the lay-down after the draw) and the same melds and lay-offs with another
    discard: the :data:`DISCARDS` least useful other cards left in hand (never a wild card,
    nor the card just picked; every one legal). Labelled ``discard 7S``."""
    found = [(f"discard {lay.discard}", lay)]
    if lay.discard is None:
        return found
    position = view.position()
    choice: Draw = "stock" if view.drawn is None else view.drawn
    left = position.hand_after(choice) - Counter(played_of(view, lay))
    banned = position.taken(choice)
    cards = list(left.elements())
    others = sorted(
        {c for c in cards if c != lay.discard and c not in banned and not view.rules.is_wild(c)},
        key=lambda c: (
            usefulness(c, cards, view.rules, view.deal),
            -view.rules.penalty(c),
            sort_key(c),
        ),
    )
    for card in others[:DISCARDS]:
        other = replace(lay, discard=card)
        if is_legal(position, choice, other):
            found.append((f"discard {card}", other))
    return found


def equity_lay(view: CardView) -> Lay:
    """The lay-down of the ``equity`` strategy: ``keep``'s melds and lay-offs, the discard
    among ``keep``'s and a few other cards (:func:`discard_candidates`, :func:`_chosen`)."""
    found = [
        (label, CardDecision(None, lay)) for label, lay in discard_candidates(view, keep_lay(view))
    ]
    lay = _chosen(view, found).lay
    assert lay is not None
    return lay
