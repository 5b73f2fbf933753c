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

At 500 Rum the strategy searches nothing (the search, tried, played no better than ``keep``
itself there: docs/cards.md): it draws what leaves the most points laid less the penalty
held (:func:`net_draw`), holds its melds as ``keep`` does only until it has laid this hand,
and discards the card that leaves the least deadwood, feeds no opponent and keeps the most
live cards to draw to (:func:`quick_discard`).

At Continental it searches nothing either (the search won about 60% of the games against
``keep`` at some 8 s a game): it goes down as ``keep`` does, but draws and discards by the
cards its hand lacks for the deal's contract (:func:`contract_need`), where ``keep`` counts
any meld of three, of a kind the contract may not ask for, and once down takes the top
discard only where it lays off (:func:`contract_draw`); while it holds it discards the card
that leaves the contract closest, feeds no opponent and keeps the most live cards to draw to
(:func:`contract_lay`).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from typing import NamedTuple

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
    run_with,
    thrown_before,
    usefulness,
)
from rummikub.cards.game.view import (
    CardView,
    check_view,
    determinize,
    known_cards,
    seat_of,
    unseen,
    view_of,
)
from rummikub.cards.melds import HIGH_ACE, CardMeld, card_at, run_near, run_places
from rummikub.cards.position import Draw
from rummikub.cards.rules import Aces, CardRules
from rummikub.cards.solver import solve, solve_draw
from rummikub.play.equity import Budget, Outcome, Progress, play_out, ranked

__all__ = [
    "DEFAULT",
    "DISCARDS",
    "EDGE",
    "PLAYER",
    "SEARCH",
    "WINDOWS",
    "CardDecision",
    "CardSearch",
    "candidates",
    "clearly_better",
    "contract_draw",
    "contract_lay",
    "contract_need",
    "deadwood",
    "discard_candidates",
    "draw_candidates",
    "equity_draw",
    "equity_lay",
    "evaluate",
    "evaluation",
    "feeds",
    "lay_candidates",
    "net_draw",
    "outs",
    "played_of",
    "quick_discard",
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
    """The draw of the ``equity`` strategy: at 500 Rum the draw that leaves the most points
    laid less the penalty held (:func:`net_draw`); at Continental the top discard only for
    the contract or a lay-off (:func:`contract_draw`); elsewhere the best among the stock and
    the picks worth comparing, each followed by ``keep``'s lay-down
    (:func:`draw_candidates`, :func:`_chosen`)."""
    if view.rules.game == "500-rum":
        return net_draw(view)
    if view.rules.game == "continental":
        return contract_draw(view)
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
    """The lay-down of the ``equity`` strategy. At 500 Rum: ``keep``'s melds and lay-offs
    while the seat has laid nothing this hand (going out at once scores double), the
    solver's best turn once it has (nothing more to gain by holding melds, whose points
    count against it if another goes out), the discard the one that leaves the hand closest
    to going out (:func:`quick_discard`). At Continental ``keep``'s melds and lay-offs, the
    discard the one that leaves the contract closest (:func:`contract_lay`). Elsewhere
    ``keep``'s melds and lay-offs, the discard among ``keep``'s and a few other cards
    (:func:`discard_candidates`, :func:`_chosen`)."""
    if view.rules.game == "500-rum":
        laid = bool(view.has_laid) and view.has_laid[view.seat]
        return quick_discard(view, best_lay(view) if laid else keep_lay(view))
    if view.rules.game == "continental":
        return contract_lay(view)
    found = [
        (label, CardDecision(None, lay)) for label, lay in discard_candidates(view, keep_lay(view))
    ]
    lay = _chosen(view, found).lay
    assert lay is not None
    return lay


# -- the discard that goes out soonest (500 Rum) ------------------------------------------


class _Shape(NamedTuple):
    """What makes a meld under a set of rules (the key of :func:`_covered`'s cache)."""

    set_min: int
    set_max: int | None
    distinct: bool
    run_min: int
    aces: Aces

    @classmethod
    def of(cls, rules: CardRules) -> _Shape:
        return cls(
            rules.set_min, rules.set_max, rules.set_suits == "distinct", rules.run_min, rules.aces
        )


@lru_cache(maxsize=1 << 18)
def _covered(cards: tuple[Card, ...], shape: _Shape) -> int:
    """The most of ``cards`` (natural cards, sorted) that disjoint natural melds can hold:
    the first card is left out, or it goes in one of the sets or runs it makes with the
    others, each tried."""
    if len(cards) < min(shape.set_min, shape.run_min):
        return 0
    first, rest = cards[0], cards[1:]
    found = _covered(rest, shape)
    # Sets: the first card with 2 or 3 others of its rank.
    mates = [c for c in rest if c.rank == first.rank]
    if shape.distinct:
        mates = [c for c in dict.fromkeys(mates) if c.suit != first.suit]
    largest = shape.set_max or len(mates) + 1
    for size in range(shape.set_min - 1, min(largest - 1, len(mates)) + 1):
        for group in combinations(mates, size):
            left = list(rest)
            for card in group:
                left.remove(card)
            found = max(found, size + 1 + _covered(tuple(left), shape))
    # Runs: the first card at one end or inside a run of its suit held in ``cards``.
    suited = {c for c in rest if c.suit == first.suit}
    for place in run_places(first, shape.aces):
        for low in range(place, 0, -1):
            if low < place and card_at(first.suit, low) not in suited:
                break
            for high in range(max(place, low + shape.run_min - 1), HIGH_ACE + 1):
                window = [card_at(first.suit, p) for p in range(low, high + 1) if p != place]
                if not all(c in suited for c in window):
                    break
                left = list(rest)
                for card in window:
                    left.remove(card)
                found = max(found, len(window) + 1 + _covered(tuple(left), shape))
    return found


def _lays_off(card: Card, table: Sequence[CardMeld], rules: CardRules) -> bool:
    """Whether natural ``card`` goes on a meld of ``table``: the next card at an end of a
    run of its suit, or a card of a set's rank (of a suit not there yet, where suits must
    differ) while the set has room."""
    for meld in table:
        if meld.kind == "run" and meld.suit == card.suit:
            if any(p in (meld.start - 1, meld.end + 1) for p in run_places(card, rules.aces)):
                return True
        elif meld.kind == "set" and meld.rank == card.rank and not meld.is_wild_set:
            # A set_max of 0 (Continental's) sets no bound.
            full = bool(rules.set_max) and len(meld.cards) >= rules.set_max
            taken = rules.set_suits == "distinct" and any(
                c.suit == card.suit for c, w in zip(meld.cards, meld.wild, strict=True) if not w
            )
            if not full and not taken:
                return True
    return False


def deadwood(cards: Sequence[Card], table: Sequence[CardMeld], rules: CardRules) -> int:
    """How many of ``cards`` no meld would hold were the hand laid now: the cards that go
    on the table's melds (again and again: a run grows one card at a time) and those the
    most disjoint natural melds hold (:func:`_covered`) are not deadwood, nor a wild card;
    each wild card is taken to make a meld of two deadwood cards that lack one (an estimate:
    a wild card is rare at 500 Rum, two in 54 cards, and never a discard here)."""
    wilds = sum(1 for c in cards if rules.is_wild(c))
    natural = sorted((c for c in cards if not rules.is_wild(c)), key=sort_key)
    grown = list(table)
    placed = True
    while placed:
        placed = False
        for card in natural:
            for index, meld in enumerate(grown):
                if _lays_off(card, [meld], rules):
                    grown[index] = _grown(meld, card, rules)
                    natural.remove(card)
                    placed = True
                    break
            if placed:
                break
    dead = len(natural) - _covered(tuple(natural), _Shape.of(rules))
    return max(dead - 2 * wilds, 0)


def _grown(meld: CardMeld, card: Card, rules: CardRules) -> CardMeld:
    """``meld`` taken to hold ``card`` too, as far as :func:`_lays_off` reads it (a run's
    ends, a set's cards)."""
    if meld.kind == "set":
        return replace(meld, cards=(*meld.cards, card), wild=(*meld.wild, False))
    return run_with(meld, card, False, low=meld.start - 1 in run_places(card, rules.aces))


def _near(card: Card, hand: Sequence[Card], rules: CardRules) -> bool:
    """Whether ``card`` could join a meld with cards of ``hand``: a wild card, a card of a
    rank held, or one of a suit held within two places."""
    if rules.is_wild(card):
        return True
    return any(
        not other.is_joker
        and (
            other.rank == card.rank
            or (other.suit == card.suit and run_near(card, other, rules.aces, 2))
        )
        for other in hand
    )


def outs(
    cards: Sequence[Card], table: Sequence[CardMeld], rules: CardRules, live: Counter[Card]
) -> int:
    """How much the next card helps ``cards`` towards going out: over the ``live`` cards
    (those out of sight, each counted as often as it may come), the deadwood it saves once
    the worst card is thrown again (:func:`deadwood`). A card whose fellows are on the
    table or in the pile is dead, and a hand that waits for it waits in vain."""
    now = deadwood(cards, table, rules)
    total = 0
    for card, count in live.items():
        if count and _near(card, cards, rules):
            total += count * max(0, now - (deadwood([*cards, card], table, rules) - 1))
    return total


#: How a discard is ranked: least first (what is left of the hand, then safety, live cards,
#: penalty, and the card itself so that the order is total).
DiscardKey = tuple[int, bool, int, int, tuple[int, int]]


def _unsafe(card: Card, table: Sequence[CardMeld], known: Counter[Card], rules: CardRules) -> bool:
    """Whether an opponent could use ``card`` at once: it goes on a meld of the table, or
    it makes a meld with cards the opponent is known to hold (taken from the pile)."""
    if _lays_off(card, table, rules):
        return True
    held = sorted(known.elements(), key=sort_key)
    return len(held) >= 2 and _covered(
        tuple(sorted([*held, card], key=sort_key)), _Shape.of(rules)
    ) > _covered(tuple(held), _Shape.of(rules))


def _first_legal_discard(
    view: CardView, lay: Lay, cards: Sequence[Card], key: Callable[[Card], DiscardKey]
) -> Lay:
    """``lay`` with the first legal discard of ``cards`` by ``key`` (``lay``'s own among
    them): never a wild card, nor a card just picked."""
    rules = view.rules
    position = view.position()
    choice: Draw = "stock" if view.drawn is None else view.drawn
    banned = position.taken(choice)
    assert lay.discard is not None
    choices = sorted(
        {c for c in cards if c not in banned and not rules.is_wild(c)} | {lay.discard}, key=key
    )
    for card in choices:
        other = replace(lay, discard=card)
        if card == lay.discard or is_legal(position, choice, other):
            return other
    return lay


def quick_discard(view: CardView, lay: Lay) -> Lay:
    """``lay`` with the discard that leaves the hand closest to going out: the least
    deadwood (:func:`deadwood`), then a card no opponent can use at once (:func:`_unsafe`),
    then the most help from the next card (:func:`outs`), then the costliest card (the
    least penalty held if another goes out). Never a wild card, nor a card just picked;
    ``lay`` unchanged where it goes out without a discard or no other discard is legal."""
    if lay.discard is None:
        return lay
    rules = view.rules
    position = view.position()
    choice: Draw = "stock" if view.drawn is None else view.drawn
    rest = position.hand_after(choice) - Counter(played_of(view, lay))
    table = list(view.table)
    for index, meld in lay.layoffs:
        table[index] = meld
    table += lay.melds
    live = Counter(unseen(view))
    known = Counter[Card]()
    for seat, held in enumerate(known_cards(view)):
        if seat != view.seat:
            known += held
    cards = list(rest.elements())

    def key(card: Card) -> DiscardKey:
        left = list(cards)
        left.remove(card)
        return (
            deadwood(left, table, rules),
            _unsafe(card, table, known, rules),
            -outs(left, table, rules, live),
            -rules.penalty(card),
            sort_key(card),
        )

    return _first_legal_discard(view, lay, cards, key)


def net_draw(view: CardView) -> Draw:
    """The draw whose best turn leaves the most points laid less the penalty held: a pick
    (the depth the solver likes, the top discard) only where it beats the hand as it is on
    that count. The solver counts the points first, so it digs for one card that lays a few
    points and takes the cards above it, which cost their penalty if another goes out."""
    picks, _ = _picks(view)
    if not picks:
        return "stock"
    position = view.position()

    def net(choice: Draw) -> int:
        turn = solve_draw(position, choice)
        return turn.points - turn.penalty

    found: Draw = "stock"
    most = net("stock")
    for depth in picks:
        value = net(depth)
        if value > most:
            found, most = depth, value
    return found


# -- Continental: the contract, then the race to go out ---------------------------------

#: A contract's melds at their smallest (Continental: sets of three, runs of four).
_SET, _RUN = 3, 4

#: :func:`contract_need` tries, for each run of a contract, this many windows of a run (the
#: ones holding the most cards).
WINDOWS = 10


def _run_windows(natural: Counter[Card], rules: CardRules) -> list[tuple[int, tuple[Card, ...]]]:
    """Every window of four places of a run in a suit that holds a card of ``natural``:
    how many of its places are held, and its cards; the fullest first."""
    found: list[tuple[int, tuple[Card, ...]]] = []
    for suit in "SHDC":
        held = {p for c in natural if c.suit == suit for p in run_places(c, rules.aces)}
        for low in range(1, HIGH_ACE - _RUN + 2):
            have = sum(1 for p in range(low, low + _RUN) if p in held)
            if have:
                found.append((have, tuple(card_at(suit, p) for p in range(low, low + _RUN))))
    found.sort(key=lambda window: -window[0])
    return found


def contract_need(
    cards: Sequence[Card], rules: CardRules, deal: int
) -> tuple[int, frozenset[Card]]:
    """How many cards ``cards`` lack to go down with ``deal``'s contract, and the natural
    cards that would lower that (each a card missing from a best way to the contract).

    The contract's runs are tried in the :data:`WINDOWS` fullest windows of four places
    (two runs may share a window where the cards are doubled), its sets in the ranks with
    the most cards left; a wild card stands for one missing card, never for more than half
    a meld (wild cards may not outnumber natural ones). A red ace counts as wild."""
    sets, runs = rules.contract(deal)
    wilds = sum(1 for c in cards if rules.is_wild(c))
    natural = Counter(c for c in cards if not rules.is_wild(c))
    windows = _run_windows(natural, rules)[:WINDOWS]
    fewest = _SET * sets + _RUN * runs
    outs: set[Card] = set()
    for combo in combinations_with_replacement(windows, runs):
        left = Counter(natural)
        missing: list[Card] = []
        lack = wildable = 0
        for _, window in combo:
            gap = 0
            for card in window:
                if left[card] > 0:
                    left[card] -= 1
                else:
                    gap += 1
                    missing.append(card)
            lack += gap
            wildable += min(gap, _RUN // 2)
        lack += _RUN * (runs - len(combo))
        wildable += _RUN // 2 * (runs - len(combo))
        # The sets from what the runs leave: the ranks with the most cards (a rank with six
        # cards or more makes two sets).
        ranks = Counter(c.rank for c in left.elements())
        values = sorted(
            ((min(n - k, _SET), rank) for rank, n in ranks.items() for k in (0, _SET) if n > k),
            reverse=True,
        )[:sets]
        for value, _ in values:
            lack += _SET - value
            wildable += min(_SET - value, _SET // 2)
        lack += _SET * (sets - len(values))
        wildable += _SET // 2 * (sets - len(values))
        need = lack - min(wilds, wildable)
        if need > fewest:
            continue
        if need < fewest:
            fewest, outs = need, set()
        outs.update(missing)
        # A card of any rank as full as the emptiest set chosen brings that set closer.
        edge = values[-1][0] if len(values) == sets and values else 0
        for rank, count in ranks.items() if sets else ():
            if edge <= min(count, _SET) < _SET:
                outs.update(Card(rank, suit) for suit in "SHDC")
    return fewest, frozenset(c for c in outs if not rules.is_wild(c))


def feeds(view: CardView, card: Card, table: Sequence[CardMeld]) -> bool:
    """Whether an opponent could use ``card``, were it thrown: one who is down lays it off
    on the ``table``; one who is not has taken from the pile a card it would join for this
    contract (one of its rank where the contract has sets, one of its suit within three
    places where it has runs)."""
    rules = view.rules
    others = [o for s, o in enumerate(view.opened) if s != view.seat]
    if any(others) and _lays_off(card, table, rules):
        return True
    if all(others):
        return False
    sets, runs = rules.contract(view.deal or 1)
    known = Counter[Card]()
    for seat, held in enumerate(known_cards(view)):
        if seat != view.seat and not view.opened[seat]:
            known += held
    for other in known:
        if rules.is_wild(other):
            continue
        if sets and other.rank == card.rank:
            return True
        if runs and other.suit == card.suit and run_near(card, other, rules.aces, 3):
            return True
    return False


def contract_draw(view: CardView) -> Draw:
    """The draw of a contract game (Continental): the top discard where it brings the
    contract closer (:func:`contract_need`) before going down, or lays off on the table
    after (a wild card too), and a legal turn follows it; else the stock. ``keep`` takes a
    card that makes a meld with two of its own, of a kind the contract may not ask for
    (a run in a deal of sets), and once down one it may no longer meld."""
    pile = view.live_pile()
    if not pile or thrown_before(view):
        return "stock"
    top = pile[-1]
    rules = view.rules
    if view.opened[view.seat]:
        take = _lays_off(top, view.table, rules) or (rules.is_wild(top) and bool(view.table))
    else:
        deal = view.deal or 1
        take = (
            contract_need([*view.hand, top], rules, deal)[0]
            < contract_need(view.hand, rules, deal)[0]
        )
    return 0 if take and playable(view.position(), 0) else "stock"


def contract_lay(view: CardView) -> Lay:
    """The lay-down of a contract game (Continental): ``keep``'s (down as soon as the
    contract is in hand, the solver's turn once down), but while it holds, the discard that
    leaves the contract closest (:func:`contract_need`), then one no opponent can use
    (:func:`feeds`), then the one that keeps the most live cards to draw to the contract,
    then the costliest (a joker 50, a red ace 30 and an ace 20 where another goes out).
    Never a wild card, nor the card just picked."""
    lay = keep_lay(view)
    if lay.discard is None or lay.melds or view.opened[view.seat]:
        return lay
    rules = view.rules
    deal = view.deal or 1
    position = view.position()
    choice: Draw = "stock" if view.drawn is None else view.drawn
    cards = list(position.hand_after(choice).elements())
    live = Counter(unseen(view))

    def key(card: Card) -> DiscardKey:
        left = list(cards)
        left.remove(card)
        need, outs = contract_need(left, rules, deal)
        return (
            need,
            feeds(view, card, view.table),
            -sum(live[c] for c in outs),
            -rules.penalty(card),
            sort_key(card),
        )

    return _first_legal_discard(view, lay, cards, key)
