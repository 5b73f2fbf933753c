"""Card strategies: plain functions of what the player knows (a
:class:`~rummikub.cards.game.view.CardView`) to the parts of a turn.

A :class:`CardStrategy` is three functions, one per decision a player makes: ``draw``
(the stock, or a depth of the discard pile), ``lay`` (after the draw: the new melds, the
lay-offs and the discard, a :class:`Lay`) and ``claim`` (whether to say "May I?" for the
top discard another player has left). Each is deterministic: the same view, the same
answer.

* ``best``: the card solver's best turn (CARDS.md section 5): its pick when a pick beats
  the hand as it is, its lay-down after the draw. It claims a discard that makes a meld
  with two cards of its hand while it has not gone down.
* ``keep``: keeps cards for bigger melds or for the contract. In a contract game it plays
  the solver's turn once it can go down, and before that discards the card that helps the
  contract least (the solver would throw away its highest card). In the others it holds
  its melds in hand (discarding the card the best turn would) until it can go out, its
  hand is small, an opponent is close to going out or the stock runs low; then it plays
  like ``best``.
* ``equity``: ``keep``, whose draw and discard are weighed against a few others by
  determinized Monte Carlo (:mod:`rummikub.cards.game.equity`, playouts of ``keep``) and
  left for one clearly better on every deal; at 500 Rum and Continental, rules instead of
  the search (500 Rum: the draw by points laid less penalty held, the discard by deadwood,
  safety and live cards; Continental: the draw and the discard by the cards the contract
  lacks, safety and live cards); claims as ``best``.
* ``casual``: no solver of its own (it asks one only whether a legal turn follows a pick):
  takes the top discard when it makes a meld with its hand, lays
  the natural sets and runs it sees (the contract when it has it), lays off single cards
  at the ends of runs and on sets, and discards its least useful card.

No strategy takes back the top discard when it threw that card earlier in the hand (nor
says "May I?" for it), nor takes a card from the pile when no legal turn follows
(:func:`playable`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rummikub.cards.cards import JOKER, Card, format_cards, sort_key
from rummikub.cards.checker import check
from rummikub.cards.game.view import CardView
from rummikub.cards.melds import HIGH_ACE, CardMeld, card_at, natural_meld, run_near, run_places
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.rules import CardRules
from rummikub.cards.solver import CardTurn, solve, solve_draw
from rummikub.core.errors import MeldError, RummikubError
from rummikub.play.registry import Registry

__all__ = [
    "REGISTRY",
    "STRATEGIES",
    "CardStrategy",
    "Lay",
    "best",
    "casual",
    "equity",
    "is_legal",
    "keep",
    "lay_of",
    "playable",
    "run_with",
    "strategy",
    "thrown_before",
    "usefulness",
]

#: ``keep`` plays like ``best`` once its hand holds this few cards ...
KEEP_UNTIL_HAND = 5
#: ... or an opponent this few, or the stock this few.
KEEP_UNTIL_OPPONENT = 3
KEEP_UNTIL_STOCK = 6
#: A player says "May I?" only while its hand holds fewer cards than this (each claim
#: takes a penalty card too).
CLAIM_UNTIL_HAND = 15


@dataclass(frozen=True, slots=True)
class Lay:
    """The rest of a turn after the draw: new melds, lay-offs (the index of a table meld and
    that meld after the turn) and the discard (None: going out without one)."""

    melds: tuple[CardMeld, ...] = ()
    layoffs: tuple[tuple[int, CardMeld], ...] = ()
    discard: Card | None = None


@dataclass(frozen=True, slots=True)
class CardStrategy:
    """A player: its name and one function per decision (all module-level, so that a
    strategy travels to a Dask worker)."""

    name: str
    draw: Callable[[CardView], Draw]
    lay: Callable[[CardView], Lay]
    claim: Callable[[CardView], bool]


def lay_of(turn: CardTurn, table: Sequence[CardMeld]) -> Lay:
    """The solver's turn as a :class:`Lay`: the old melds it changes are lay-offs."""
    layoffs = tuple(
        (index, meld) for index, meld in enumerate(turn.table[: len(table)]) if meld != table[index]
    )
    return Lay(tuple(turn.table[len(table) :]), layoffs, turn.discard)


# -- what a card is worth keeping ------------------------------------------------------------


def usefulness(card: Card, hand: Sequence[Card], rules: CardRules, deal: int | None) -> int:
    """How much ``card`` helps ``hand`` towards melds: the cards of its rank (for sets) and
    of its suit within two places (for runs), weighted by what a contract asks for. A wild
    card helps most."""
    if rules.is_wild(card) and (card.is_joker or rules.wild):
        return 1000
    others = list(hand)
    others.remove(card)
    same = sum(1 for c in others if not c.is_joker and c.rank == card.rank)
    if rules.set_suits == "distinct":
        same = len({c.suit for c in others if not c.is_joker and c.rank == card.rank} - {card.suit})
    near = 0
    for other in others:
        if other.is_joker or other.suit != card.suit or other == card:
            continue
        if run_near(card, other, rules.aces, 2):
            near += 1
    set_weight, run_weight = 2, 2
    if rules.opening == "contract" and deal is not None:
        sets, runs = rules.contract(deal)
        set_weight, run_weight = (3 if sets else 1), (3 if runs else 1)
    return same * set_weight + near * run_weight


def least_useful(
    cards: Sequence[Card], rules: CardRules, deal: int | None, banned: Sequence[Card] = ()
) -> Card | None:
    """The card to discard from ``cards``: the least useful one, the costliest first among
    equals; a wild card only when nothing else may go, never a card of ``banned``."""
    choices = [c for c in cards if c not in banned] or list(cards)
    natural = [c for c in choices if not rules.is_wild(c)] or choices
    if not natural:
        return None
    return min(
        natural,
        key=lambda c: (usefulness(c, cards, rules, deal), -rules.penalty(c), sort_key(c)),
    )


def _fits(card: Card, hand: Sequence[Card], rules: CardRules) -> bool:
    """Whether ``card`` makes a meld of three with two cards of ``hand`` (or is wild)."""
    if rules.is_wild(card) and (card.is_joker or rules.wild):
        return True
    cards = [c for c in hand if not c.is_joker]
    ranks = {c.suit for c in cards if c.rank == card.rank and c != card}
    if len(ranks) >= 2 or (rules.set_suits == "any" and _count(cards, card.rank) >= 2):
        return True
    positions = run_places(card, rules.aces)
    suited = {p for c in cards if c.suit == card.suit for p in run_places(c, rules.aces)}
    return any(
        all(p + k in suited or p + k == p for k in window)
        for p in positions
        for window in ((-2, -1, 0), (-1, 0, 1), (0, 1, 2))
        if all(1 <= p + k <= HIGH_ACE for k in window)
    )


def _count(cards: Sequence[Card], rank: int) -> int:
    return sum(1 for c in cards if c.rank == rank)


def thrown_before(view: CardView) -> bool:
    """Whether the top discard is a card this player threw earlier in the hand: a careful
    player does not take back what it threw (and two players who did could pass the same
    cards to each other for ever)."""
    pile = view.live_pile()
    return bool(pile) and any(
        seen.seat == view.seat and seen.discard == pile[-1] for seen in view.history
    )


def _top_fits(view: CardView) -> bool:
    pile = view.live_pile()
    return bool(pile) and not thrown_before(view) and _fits(pile[-1], view.hand, view.rules)


def playable(position: CardPosition, choice: Draw) -> bool:
    """Whether a legal turn follows the draw ``choice``. After the stock one always does
    (the card drawn may go on the pile); after a pick, where laying nothing and discarding
    the least useful card is legal (:func:`_holds`), else only where the solver finds a
    turn: the card taken may not be discarded again, nor a wild card while the hand holds
    another card (``keep_wilds``), so a hand of wild cards that takes a card it cannot meld
    nor lay off has no legal turn (CARDS.md section 4; Continental's wild aces and an ace
    on the pile)."""
    if choice == "stock" or _holds(position, choice):
        return True
    return solve_draw(position, choice).status != "infeasible"


def _holds(position: CardPosition, choice: Draw) -> bool:
    """Whether laying nothing and discarding the least useful card is legal after
    ``choice`` (the checker's word, no solver)."""
    hand = list(position.hand_after(choice).elements())
    card = least_useful(hand, position.rules, position.deal, position.taken(choice))
    return card is not None and is_legal(position, choice, Lay(discard=card))


def _take_top(view: CardView) -> Draw:
    """The top discard where it makes a meld with the hand and a legal turn follows it
    (:func:`playable`), else the stock."""
    return 0 if _top_fits(view) and playable(view.position(), 0) else "stock"


def _turn_after_draw(view: CardView) -> tuple[CardPosition, Draw, CardTurn]:
    """The position, the draw made and the solver's best turn after it; a draw after which
    no legal turn follows is named (no lay-down of it is legal: :func:`playable`)."""
    position = view.position()
    choice: Draw = "stock" if view.drawn is None else view.drawn
    turn = solve_draw(position, choice)
    if turn.status == "infeasible":
        raise RummikubError(
            f"no legal turn follows the draw {choice!r} (hand {format_cards(view.hand)})"
        )
    return position, choice, turn


# -- best ----------------------------------------------------------------------------------


def best_draw(view: CardView) -> Draw:
    position = view.position()
    if not position.picks():
        return "stock"
    choice = solve(position).best.draw
    return "stock" if choice == 0 and thrown_before(view) else choice


def best_lay(view: CardView) -> Lay:
    _, _, turn = _turn_after_draw(view)
    return lay_of(turn, view.table)


def best_claim(view: CardView) -> bool:
    """Claim a discard that makes a meld with the hand, while not down (a contract game)."""
    if view.opened[view.seat] and view.rules.opening == "contract":
        return False
    return len(view.hand) < CLAIM_UNTIL_HAND and _top_fits(view)


best = CardStrategy("best", best_draw, best_lay, best_claim)


# -- keep ----------------------------------------------------------------------------------


def _pressed(view: CardView) -> bool:
    return (
        len(view.hand) <= KEEP_UNTIL_HAND
        or min(view.opponents(), default=99) <= KEEP_UNTIL_OPPONENT
        or view.stock_count <= KEEP_UNTIL_STOCK
    )


def keep_draw(view: CardView) -> Draw:
    if view.rules.opening == "contract":
        return _take_top(view)
    return best_draw(view)


def keep_lay(view: CardView) -> Lay:
    position, choice, turn = _turn_after_draw(view)
    lay = lay_of(turn, view.table)
    out = not turn.hand
    if out or _pressed(view) or (view.rules.opening == "contract" and lay.melds):
        return lay
    if view.rules.opening == "contract" and view.opened[view.seat]:
        return lay
    # Hold the melds: lay nothing and throw the card that helps least (a contract game)
    # or the one the best turn throws (it belongs to no meld of that turn).
    hand = list(position.hand_after(choice).elements())
    banned = position.taken(choice)
    discard = turn.discard
    if view.rules.opening == "contract" or discard is None or rules_wild(view, discard):
        discard = least_useful(hand, view.rules, view.deal, banned)
    held = Lay(discard=discard)
    if is_legal(position, choice, held):
        return held
    return lay


def rules_wild(view: CardView, card: Card) -> bool:
    return view.rules.is_wild(card)


def keep_claim(view: CardView) -> bool:
    return best_claim(view)


keep = CardStrategy("keep", keep_draw, keep_lay, keep_claim)


# -- casual --------------------------------------------------------------------------------


def casual_draw(view: CardView) -> Draw:
    # The top discard where it makes a meld and a legal turn follows it (:func:`playable`:
    # the solver is asked only where laying nothing after the pick is not legal, as in
    # 500 Rum, where the card picked must be melded at once).
    return _take_top(view)


def _natural_melds(
    cards: list[Card], rules: CardRules, order: Sequence[str] = ("run", "set")
) -> list[CardMeld]:
    """Natural sets and runs in ``cards`` (no wild cards), greedily: the kinds in
    ``order``, the longest of a kind first."""
    found: list[CardMeld] = []
    left = Counter(c for c in cards if not c.is_joker)
    jokers = sum(1 for c in cards if c.is_joker)
    for kind in order:
        while True:
            meld = _longest(left, rules, kind)
            if meld is None and kind == "run" and jokers:
                meld = _gapped_run(left, rules)
                jokers -= meld is not None
            if meld is None:
                break
            found.append(meld)
            left -= Counter(c for c in meld.cards if not c.is_joker)
    return found


def _gapped_run(left: Counter[Card], rules: CardRules) -> CardMeld | None:
    """A run of ``run_min`` cards with one joker standing for the one card missing."""
    size = max(rules.run_min, 3)
    for suit in "SHDC":
        have = {p for c in left if left[c] and c.suit == suit for p in run_places(c, rules.aces)}
        for start in range(1, HIGH_ACE - size + 2):
            window = range(start, start + size)
            missing = [p for p in window if p not in have]
            if len(missing) != 1:
                continue
            cards = tuple(JOKER if p in missing else card_at(suit, p) for p in window)
            try:
                meld = natural_meld(cards, "run", rules)
            except MeldError:
                continue
            if all(left[c] for c in cards if not c.is_joker):
                return meld
    return None


def _longest(left: Counter[Card], rules: CardRules, kind: str) -> CardMeld | None:
    candidates: list[tuple[Card, ...]] = []
    if kind == "run":
        for suit in "SHDC":
            positions = sorted(
                {p for c in left if left[c] and c.suit == suit for p in run_places(c, rules.aces)}
            )
            run: list[int] = []
            for p in [*positions, 99]:
                if run and p == run[-1] + 1:
                    run.append(p)
                    continue
                if len(run) >= rules.run_min:
                    candidates.append(tuple(card_at(suit, q) for q in run[:13]))
                run = [p]
    else:
        for rank in range(1, 14):
            of_rank = [c for c in sorted(left.elements(), key=sort_key) if c.rank == rank]
            if rules.set_suits == "distinct":
                of_rank = sorted(set(of_rank), key=sort_key)
            if rules.set_max:
                of_rank = of_rank[: rules.set_max]
            if len(of_rank) >= rules.set_min:
                candidates.append(tuple(of_rank))
    for group in sorted(candidates, key=lambda g: (-len(g), sort_key(g[0]))):
        try:
            return natural_meld(group, "run" if kind == "run" else "set", rules)
        except MeldError:
            continue
    return None


def _contract_melds(melds: list[CardMeld], rules: CardRules, deal: int) -> list[CardMeld]:
    sets, runs = rules.contract(deal)
    chosen_sets = [m for m in melds if m.kind == "set"][:sets]
    chosen_runs = [m for m in melds if m.kind == "run"][:runs]
    if len(chosen_sets) < sets or len(chosen_runs) < runs:
        return []
    return chosen_sets + chosen_runs


def _layoff(meld: CardMeld, card: Card, rules: CardRules) -> CardMeld | None:
    """``meld`` with ``card`` added: at an end of a run, or to a set; a natural card where
    it is itself, else a wild card as a wild card (at a run's top end, else its bottom)."""
    trials: list[CardMeld] = []
    if not card.is_joker:
        if meld.kind == "set" and not meld.is_wild_set and card.rank == meld.rank:
            trials.append(CardMeld("set", (*meld.cards, card), (*meld.wild, False), rank=meld.rank))
        if meld.kind == "run" and card.suit == meld.suit:
            positions = run_places(card, rules.aces)
            if meld.start - 1 in positions:
                trials.append(run_with(meld, card, False, low=True))
            if meld.end + 1 in positions:
                trials.append(run_with(meld, card, False, low=False))
    if rules.is_wild(card):
        if meld.kind == "set":
            trials.append(CardMeld("set", (*meld.cards, card), (*meld.wild, True), rank=meld.rank))
        else:
            if meld.end < HIGH_ACE:
                trials.append(run_with(meld, card, True, low=False))
            if meld.start > 1:
                trials.append(run_with(meld, card, True, low=True))
    for trial in trials:
        try:
            again = trial.raw().read(rules)
        except MeldError:
            continue
        if again.raw() == trial.raw():
            return again
    return None


def run_with(meld: CardMeld, card: Card, wild: bool, *, low: bool) -> CardMeld:
    """The run ``meld`` with ``card`` added at its low end (``low``) or its high end, as a
    wild card or as itself; not checked against the rules."""
    if low:
        return CardMeld(
            "run", (card, *meld.cards), (wild, *meld.wild), suit=meld.suit, start=meld.start - 1
        )
    return CardMeld(
        "run", (*meld.cards, card), (*meld.wild, wild), suit=meld.suit, start=meld.start
    )


def casual_lay(view: CardView) -> Lay:
    rules = view.rules
    position = view.position()
    choice: Draw = "stock" if view.drawn is None else view.drawn
    hand = sorted(position.hand_after(choice).elements(), key=sort_key)
    banned = position.taken(choice)
    opened = view.opened[view.seat]
    melds: list[CardMeld] = []
    if not (rules.opening == "contract" and opened):
        if rules.opening == "contract":
            _, runs = rules.contract(view.deal or 1)
            melds = _natural_melds(hand, rules, ("run", "set") if runs else ("set", "run"))
            melds = _contract_melds(melds, rules, view.deal or 1)
        else:
            melds = _natural_melds(hand, rules)
        if (
            rules.opening == "points"
            and not opened
            and sum(m.value(rules) for m in melds) < rules.opening_points
        ):
            melds = []
    left = Counter(hand) - Counter(c for m in melds for c in m.cards)
    down = opened or bool(melds) or rules.opening == "none"
    table = list(view.table)
    changed: dict[int, CardMeld] = {}
    if down:
        for card in sorted(left.elements(), key=sort_key):
            if left.total() <= 1 and not rules.out_without_discard:
                break
            for index, meld in enumerate(table):
                grown = _layoff(meld, card, rules)
                if grown is not None:
                    table[index] = grown
                    changed[index] = grown
                    left[card] -= 1
                    break
    rest = sorted((+left).elements(), key=sort_key)
    if not rest and not rules.out_without_discard:
        return _fallback(position, choice, hand, banned, view)
    discard = least_useful(rest, rules, view.deal, banned) if rest else None
    lay = Lay(tuple(melds), tuple(sorted(changed.items())), discard)
    if rest and discard is not None and discard in banned and rest.count(discard) <= 0:
        return _fallback(position, choice, hand, banned, view)
    if is_legal(position, choice, lay):
        return lay
    return _fallback(position, choice, hand, banned, view)


def _fallback(
    position: CardPosition, choice: Draw, hand: list[Card], banned: Sequence[Card], view: CardView
) -> Lay:
    """Lay nothing and discard the least useful card."""
    return Lay(discard=least_useful(hand, view.rules, view.deal, banned))


def is_legal(position: CardPosition, choice: Draw, lay: Lay) -> bool:
    after: list[CardMeld] = list(position.table)
    for index, meld in lay.layoffs:
        after[index] = meld
    after += lay.melds
    verdict = check(
        position, after, discard=lay.discard, draw=None if choice == "stock" else choice
    )
    return verdict.legal


def casual_claim(view: CardView) -> bool:
    return not view.opened[view.seat] and len(view.hand) < CLAIM_UNTIL_HAND and _top_fits(view)


casual = CardStrategy("casual", casual_draw, casual_lay, casual_claim)

# -- equity (rummikub.cards.game.equity, which builds on the strategies above) -----------


def equity_draw(view: CardView) -> Draw:
    from rummikub.cards.game.equity import equity_draw as draw

    return draw(view)


def equity_lay(view: CardView) -> Lay:
    from rummikub.cards.game.equity import equity_lay as lay

    return lay(view)


equity = CardStrategy("equity", equity_draw, equity_lay, best_claim)

STRATEGIES: dict[str, CardStrategy] = {s.name: s for s in (best, keep, casual, equity)}


#: The registry of :data:`STRATEGIES` (the same dict): the lookup by name of every command.
REGISTRY: Registry[CardStrategy] = Registry("card strategy", STRATEGIES)


def strategy(name: str) -> CardStrategy:
    """A strategy by its name (one of :data:`STRATEGIES`)."""
    return REGISTRY(name)
