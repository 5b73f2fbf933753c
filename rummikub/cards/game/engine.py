"""A whole card game (CARDS.md section 7): the deal, the turns, "May I?", the stock running
out, the scores of every hand and of the game.

A :class:`CardGameState` is the whole state between two turns (or between two hands);
:func:`advance` applies one recorded :class:`~rummikub.cards.game.record.Turn` (its
"May I?" claim and its draw, then its lay-down judged by the card checker,
:func:`rummikub.cards.checker.check`) and returns the next state, or raises
:class:`TurnError` with every rule the turn breaks. The steps of a turn are public too
(:func:`claimants` and :func:`claim` once the player to move goes to the stock, then
:func:`draw`, then :func:`lay`), so that self-play asks each player in its order.
:func:`replay` runs a record, hand by hand, and stops at the first bad turn.

Readings of CARDS.md chosen here (README, "Readings of the whole games"):

* The deal: hand ``h`` (from 0) is shuffled with a seed of its own drawn from the game's
  seed (:func:`hand_seed`); seat 0 takes the first ``hand_size`` cards, seat 1 the next,
  ...; the next card is turned up to start the discard pile, the rest is the stock, drawn
  from its front. Seat ``h % players`` leads hand ``h`` (the deal passes to the left).
* "May I?" in the rules' order (CARDS.md section 7): when the player to move goes to the
  stock, the claimant first takes the top discard and the stock's top card as the
  penalty, then the player to move draws the stock's next card. A claim needs both cards:
  with fewer than two in the stock nobody claims (an empty stock is turned over first,
  as for the mover's draw). The cards left below the claimed one are dead: no pick
  reaches them (they do go into a stock turned over). A turn of a record written before
  this order was followed (its claim without ``claim_first``) replays as it was played:
  the mover's draw first, then the claim of the top discard and the stock's next card.
* The stock turned over: the discard pile but its top card, in order (its bottom card is
  the new stock's first).
* A card left in a hand counts its penalty (:meth:`CardRules.penalty`). 500 Rum's "rummy"
  doubles the score of the hand (the cards laid in the one turn that goes out).
  500 Rum's settlement: each opponent pays the winner the difference of their totals
  (tied winners share what the others pay).
* At a real table (``me`` set) the other hands are unknown: their turns are judged with
  the cards they lay and discard as their hand, the cards they draw from the stock are
  unknown, and a hand's scores are those entered in the record where the engine cannot
  count them, judged against the game's scoring rule (:func:`score_problems`: who scores,
  a known hand's exact penalty, an unseen hand's least and most).
"""

from __future__ import annotations

import hashlib
import os
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, TypeAlias

from rummikub.cards.cards import DECK, JOKER, Card, card_problem, format_cards, sort_key, type_of
from rummikub.cards.checker import check
from rummikub.cards.game.record import CardRecord, Deal, Hand, Layoff, Turn, load
from rummikub.cards.melds import CardMeld, RawCardMeld
from rummikub.cards.position import CardPosition, Draw, too_often
from rummikub.cards.rules import GAME_NAMES, CardRules, hand_size_of, most_players, pack_for
from rummikub.core.arguments import described, instance, whole
from rummikub.core.errors import ArgumentError, RummikubError
from rummikub.play import records
from rummikub.play import replay as replaying
from rummikub.play.piles import take_next

__all__ = [
    "CLAIM_NEEDS",
    "CONTRACT_DEALS",
    "CardGameState",
    "GameResult",
    "HandResult",
    "Replay",
    "ScoreError",
    "Seen",
    "TurnError",
    "advance",
    "claim",
    "claimants",
    "deal_hand",
    "describe",
    "draw",
    "draw_and_claim",
    "enter_scores",
    "hand_scores",
    "hand_seed",
    "lay",
    "lowest_wins",
    "new_game",
    "next_deal",
    "pack",
    "real_table",
    "replay",
    "replay_file",
    "rules_argument",
    "score_problems",
    "scores_of",
    "start",
    "start_hand",
    "totals_of",
]

#: A contract game is seven hands, deal 1 to 7 (CARDS.md section 7).
CONTRACT_DEALS = 7


class TurnError(RummikubError, ValueError):
    """A turn the rules do not allow; ``hand`` and ``number`` count from 1."""

    def __init__(self, hand: int, number: int, player: str, problems: Sequence[str]) -> None:
        self.hand = hand
        self.number = number
        self.player = player
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__(f"hand {hand}, turn {number} ({player}): " + "; ".join(self.problems))

    def __reduce__(self) -> tuple[Any, ...]:
        return (TurnError, (self.hand, self.number, self.player, self.problems))


class ScoreError(RummikubError, ValueError):
    """Scores entered for a hand that its game's scoring rule does not allow (CARDS.md
    section 7, "Scoring a hand"); ``hand`` counts from 1, each problem names the rule."""

    def __init__(self, hand: int, scores: Sequence[int], problems: Sequence[str]) -> None:
        self.hand = hand
        self.scores: tuple[int, ...] = tuple(scores)
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__(f"hand {hand}: scores {list(self.scores)}: " + "; ".join(self.problems))

    def __reduce__(self) -> tuple[Any, ...]:
        return (ScoreError, (self.hand, self.scores, self.problems))


@dataclass(frozen=True, slots=True)
class Seen:
    """One turn as every player saw it: the draw (the stock's card is seen only by the one
    who drew it), the cards taken from the pile, the new melds, the lay-offs (the table
    meld and the cards added), the discard and a "May I?" claim."""

    seat: int
    draw: Draw
    taken: tuple[Card, ...] = ()
    melds: tuple[CardMeld, ...] = ()
    layoffs: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    discard: Card | None = None
    claim: int | None = None
    claimed: Card | None = None


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what it scored. ``out`` is the seat that went out (None: the
    stock ran out); ``scores`` and ``totals`` are None where a hand left is unknown and
    no scores were entered."""

    out: int | None
    rummy: bool
    #: The points each seat laid this hand, and the penalty of the cards left (None
    #: where unknown).
    laid: tuple[int, ...]
    penalties: tuple[int | None, ...]
    scores: tuple[int, ...] | None
    totals: tuple[int, ...] | None

    def to_data(self) -> dict[str, Any]:
        return {
            "out": self.out,
            "rummy": self.rummy,
            "laid": list(self.laid),
            "penalties": list(self.penalties),
            "scores": None if self.scores is None else list(self.scores),
            "totals": None if self.totals is None else list(self.totals),
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of the game: the winners (equal winning totals share the win), the totals,
    and in 500 Rum what each seat receives (+) or pays (-) in the settlement."""

    winners: tuple[int, ...]
    totals: tuple[int, ...]
    settlement: tuple[float, ...] | None = None

    def to_data(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "totals": list(self.totals),
            "settlement": None if self.settlement is None else list(self.settlement),
        }


@dataclass(frozen=True, slots=True)
class CardGameState:
    """Everything between two turns of a card game. Hands are None where unknown (a real
    table); ``stock`` is None where its order is unknown (its size is ``stock_count``)."""

    rules: CardRules
    players: tuple[str, ...]
    #: The hand in play (from 0); the finished ones are in ``results``.
    hand: int
    results: tuple[HandResult, ...]
    hands: tuple[tuple[Card, ...] | None, ...]
    counts: tuple[int, ...]
    table: tuple[CardMeld, ...]
    #: Who laid each card of each table meld (seats, in the meld's order).
    owners: tuple[tuple[int, ...], ...]
    #: The discard pile, bottom to top; its bottom ``dead`` cards are dead (after a claim).
    pile: tuple[Card, ...]
    dead: int
    stock: tuple[Card, ...] | None
    stock_count: int
    opened: tuple[bool, ...]
    #: Points laid this hand by each seat, and whether each has laid a card yet.
    laid: tuple[int, ...]
    has_laid: tuple[bool, ...]
    #: Turns taken in this hand (the next is ``turns + 1``).
    turns: int = 0
    history: tuple[Seen, ...] = ()
    #: The draw made this turn when the turn is half done (self-play's steps).
    drawn: Draw | None = None
    result: GameResult | None = None
    me: int | None = None
    #: The game's seed (the next hand's deal is drawn from it).
    seed: int | None = None
    #: How often the stock was turned over in this hand.
    turned: int = 0

    @property
    def to_move(self) -> int:
        return (self.hand + self.turns) % len(self.players)

    @property
    def hand_over(self) -> bool:
        """The hand in play has ended (its result is in ``results``)."""
        return len(self.results) > self.hand

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def deal_number(self) -> int | None:
        """The deal of a contract game (1-7), for its contract; None in other games."""
        return self.hand + 1 if self.rules.opening == "contract" else None

    @property
    def totals(self) -> tuple[int, ...] | None:
        """The totals after the finished hands (zeros before the first)."""
        if not self.results:
            return (0,) * len(self.players)
        return self.results[-1].totals

    def live_pile(self) -> tuple[Card, ...]:
        """The cards of the discard pile a pick may reach."""
        return self.pile[self.dead :]

    def position(self, seat: int | None = None) -> CardPosition:
        """The position of ``seat`` (default: the player to move) as the checker and the
        solver take it: before the draw (``drawn = False``, the live pile to pick from),
        after a stock draw, or after a pick (the taken cards still on the pile)."""
        seat = self.to_move if seat is None else seat
        cards = self.hands[seat]
        if cards is None:
            raise RummikubError(f"the hand of {self.players[seat]} is not known")
        drawn = seat != self.to_move or self.drawn == "stock"
        return CardPosition(
            self.rules,
            cards,
            self.table,
            self.opened[seat],
            self.deal_number,
            self.live_pile(),
            drawn,
        )

    def penalty(self, seat: int) -> int | None:
        cards = self.hands[seat]
        return None if cards is None else sum(self.rules.penalty(c) for c in cards)


# -- the pack and the deal -----------------------------------------------------------------


def pack(rules: CardRules) -> list[Card]:
    """Every card of the pack in a fixed order: the decks, then the jokers."""
    rules_argument(rules)
    return [card for card in DECK for _ in range(rules.decks)] + [JOKER] * rules.jokers


def hand_seed(seed: int, hand: int) -> int:
    """The seed hand ``hand`` (from 0) of a game seeded ``seed`` is shuffled with."""
    whole(seed, "seed", *records.TOML_INTEGERS)
    whole(hand, "hand")
    digest = hashlib.sha256(f"rummikub-cards-deal:{seed}:{hand}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def deal_hand(rules: CardRules, players: int, seed: int, hand: int = 0) -> Deal:
    """The deal of hand ``hand`` of a game seeded ``seed`` (README, "Readings of the whole
    games")."""
    rules_argument(rules)
    _fits(rules, whole(players, "players", 2, most_players(rules)))
    whole(hand, "hand", 0)
    effective = pack_for(rules, players)
    size = hand_size_of(effective, players)
    cards = pack(effective)
    random.Random(hand_seed(seed, hand)).shuffle(cards)
    hands = tuple(
        tuple(sorted(cards[i * size : (i + 1) * size], key=sort_key)) for i in range(players)
    )
    rest = cards[players * size :]
    return Deal(hands, rest[0], tuple(rest[1:]))


def rules_argument(rules: object) -> CardRules:
    """The ``rules`` argument of a public function: a :class:`CardRules`."""
    if not isinstance(rules, CardRules):
        raise TypeError(f"rules must be a CardRules (e.g. preset('500-rum')), got {type_of(rules)}")
    return rules


def _names(players: object, rules: CardRules) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise TypeError(f"players must be a list of names, got {type(players).__name__}")
    most = most_players(rules)
    if not 2 <= len(players) <= most:
        raise ArgumentError(f"{len(players)} players: {rules.game} seats 2-{most}")
    if not all(isinstance(name, str) for name in players):
        raise TypeError(f"players must be names (strings), got {list(players)!r:.60}")
    return records.check_names(players, ArgumentError)


def _fits(rules: CardRules, players: int) -> None:
    effective = pack_for(rules, players)
    size = hand_size_of(effective, players)
    cards = 52 * effective.decks + effective.jokers
    if players * size + 1 > cards:
        raise RummikubError(
            f"{players} hands of {size} cards and a card turned up need {players * size + 1} "
            f"cards, but the {rules.game} pack holds {cards}"
        )


def new_game(players: Sequence[str], rules: CardRules, seed: int) -> CardRecord:
    """A new record with its first hand dealt from ``seed``."""
    rules_argument(rules)
    names = _names(players, rules)
    whole(seed, "seed", *records.TOML_INTEGERS)
    _fits(rules, len(names))
    first = deal_hand(rules, len(names), seed, 0)
    return CardRecord(rules=rules, players=names, hands=(Hand(first),), seed=seed)


def real_table(
    players: Sequence[str], rules: CardRules, me: int, cards: Sequence[Card], up: Card
) -> CardRecord:
    """A new record for a game at a real table: only ``me``'s hand (``cards``) is known,
    and the card turned up to start the pile (``up``)."""
    rules_argument(rules)
    names = _names(players, rules)
    if not 0 <= whole(me, "me") < len(names):
        raise RummikubError(f"me={me}: expected a seat 0-{len(names) - 1}")
    _fits(rules, len(names))
    if isinstance(cards, str) or not all(card_problem(c) is None for c in cards):
        raise TypeError(
            f"cards must be a sequence of Card (e.g. parse_cards('7S 8S')), got {cards!r:.40}"
        )
    if card_problem(up) is not None:
        raise TypeError(f"up: {card_problem(up)}")
    hands: list[tuple[Card, ...] | None] = [None] * len(names)
    hands[me] = tuple(sorted(cards, key=sort_key))
    return CardRecord(rules=rules, players=names, hands=(Hand(Deal(tuple(hands), up)),), me=me)


def next_deal(state: CardGameState) -> Deal:
    """The deal of the hand after ``state``'s (which has ended), from the game's seed."""
    if state.seed is None:
        raise RummikubError("the next hand is dealt from the game's seed, and this game has none")
    return deal_hand(state.rules, len(state.players), state.seed, state.hand + 1)


def start(record: CardRecord) -> CardGameState:
    """The state before the first turn of ``record``'s first hand."""
    if not isinstance(record, CardRecord):
        raise TypeError(f"start() takes a CardRecord, got {type(record).__name__}")
    if not record.hands:
        raise RummikubError("the record has no hand dealt")
    rules = pack_for(record.rules, len(record.players))
    n = len(record.players)
    empty = CardGameState(
        rules=rules,
        players=record.players,
        hand=-1,
        results=(),
        hands=(None,) * n,
        counts=(0,) * n,
        table=(),
        owners=(),
        pile=(),
        dead=0,
        stock=None,
        stock_count=0,
        opened=(False,) * n,
        laid=(0,) * n,
        has_laid=(False,) * n,
        me=record.me,
        seed=record.seed,
    )
    return start_hand(empty, record.hands[0].deal, first=True)


def start_hand(state: CardGameState, deal: Deal, *, first: bool = False) -> CardGameState:
    """The state before the first turn of the next hand, dealt ``deal``."""
    if not first and not (state.hand_over and not state.over):
        raise RummikubError("a new hand is dealt only when a hand has ended and the game goes on")
    rules, n = state.rules, len(state.players)
    number = state.hand + 1
    size = hand_size_of(rules, n)
    problems: list[str] = []
    if len(deal.hands) != n:
        problems.append(f"{len(deal.hands)} hands dealt for {n} players")
    for seat, cards in enumerate(deal.hands):
        if cards is not None and len(cards) != size:
            problems.append(f"{state.players[seat]}'s hand has {len(cards)} cards, not {size}")
        if cards is None and state.me is None:
            problems.append(
                f"{state.players[seat]}'s hand is not given (only a real table, me = SEAT, "
                "leaves hands unknown)"
            )
    if state.me is not None and deal.hands[state.me] is None:
        problems.append(f"{state.players[state.me]}'s own hand must be given")
    known = [c for cards in deal.hands if cards is not None for c in cards]
    known += [deal.up, *(deal.stock or ())]
    problems += _card_problems(known, rules)
    total = 52 * rules.decks + rules.jokers
    stock_count = total - n * size - 1
    if deal.stock is not None and len(deal.stock) != stock_count:
        problems.append(f"the stock has {len(deal.stock)} cards, not {stock_count}")
    if problems:
        raise RummikubError(f"hand {number + 1}: deal: " + "; ".join(problems))
    return replace(
        state,
        hand=number,
        hands=tuple(deal.hands),
        counts=(size,) * n,
        table=(),
        owners=(),
        pile=(deal.up,),
        dead=0,
        stock=deal.stock,
        stock_count=stock_count,
        opened=(False,) * n,
        laid=(0,) * n,
        has_laid=(False,) * n,
        turns=0,
        history=(),
        drawn=None,
        turned=0,
    )


def _card_problems(cards: Sequence[Card], rules: CardRules) -> list[str]:
    found = []
    for card in cards:
        problem = card_problem(card)
        if problem is not None:
            found.append(problem)
        elif card.is_joker and rules.jokers == 0:
            found.append(f"{card}: {rules.game} is played without jokers")
    if found:
        return list(dict.fromkeys(found))
    return too_often(Counter(cards), rules)


# -- a turn, step by step -------------------------------------------------------------------


def _error(state: CardGameState, problems: Sequence[str]) -> TurnError:
    return TurnError(state.hand + 1, state.turns + 1, state.players[state.to_move], problems)


def _visible(state: CardGameState, extra: Sequence[Card] = ()) -> list[Card]:
    """Every card whose place is known: the known hands, the table, the pile, the stock."""
    cards = [c for hand in state.hands if hand is not None for c in hand]
    cards += [c for meld in state.table for c in meld.cards]
    cards += [*state.pile, *(state.stock or ()), *extra]
    return cards


def _take_stock(
    state: CardGameState, given: Card | None, who: int, what: str
) -> tuple[CardGameState, Card | None]:
    """The stock's top card drawn by seat ``who``: the state after, and the card (None
    where neither the stock nor that hand is known)."""
    card, stock = take_next(
        state.stock,
        given,
        lambda named, top: _error(state, [f"{what} {named}, but the stock's next card is {top}"]),
    )
    hands = list(state.hands)
    held = hands[who]
    if held is not None:
        if card is None:
            raise _error(
                state, [f"the card {state.players[who]} drew from the stock must be given"]
            )
        # A card of a stock nobody sees: the pack must hold one more of it.
        found = [] if stock is not None else _card_problems(_visible(state, [card]), state.rules)
        if found:
            raise _error(state, [f"{what} {card}: {p}" for p in found])
        hands[who] = tuple(sorted((*held, card), key=sort_key))
    elif given is not None and state.stock is None:
        raise _error(state, [f"{what} {given}: the hand of {state.players[who]} is not known"])
    counts = list(state.counts)
    counts[who] += 1
    after = replace(
        state,
        hands=tuple(hands),
        counts=tuple(counts),
        stock=stock,
        stock_count=state.stock_count - 1,
    )
    return after, card


def _turnable(state: CardGameState) -> bool:
    """Whether an empty stock may be turned over now (``stock_out``, ``stock_turns``): the
    pile must hold more than its top card."""
    return (
        state.rules.stock_out == "turn"
        and len(state.pile) > 1
        and state.turned < state.rules.stock_turns
    )


def _turned_over(state: CardGameState) -> CardGameState:
    """The state with an empty stock turned over: the pile but its top card, face down in
    order, is the new stock (only where :func:`_turnable`)."""
    return replace(
        state,
        stock=state.pile[:-1],
        stock_count=len(state.pile) - 1,
        pile=state.pile[-1:],
        dead=0,
        turned=state.turned + 1,
    )


def draw(state: CardGameState, choice: Draw, card: Card | None = None) -> CardGameState:
    """The draw of the player to move (after any "May I?" claim: :func:`claim`):
    ``"stock"`` (``card``: the card drawn, where the stock's order is unknown) or a depth
    of the discard pile. A stock that is empty is turned over first, or the hand ends
    (``stock_out``): then the state returned has the hand over."""
    if state.over or state.hand_over:
        raise _error(state, ["the game is over" if state.over else "the hand is over"])
    if state.drawn is not None:
        raise _error(state, ["the draw of this turn is already made"])
    if choice == "stock":
        if state.stock_count == 0:
            if not _turnable(state):
                return _end_hand(replace(state, drawn="stock"), None)
            state = _turned_over(state)
        after, _ = _take_stock(state, card, state.to_move, "drew")
        return replace(after, drawn="stock")
    if isinstance(choice, bool) or not isinstance(choice, int) or choice < 0:
        raise _error(
            state, [f"draw {choice!r}: expected 'stock' or a pile depth (0 = the top card)"]
        )
    if card is not None:
        raise _error(state, ["a pick from the pile names no stock card"])
    live = len(state.live_pile())
    if choice >= live:
        dead = f" ({state.dead} dead below)" if state.dead else ""
        raise _error(
            state, [f"the discard pile holds {live} card(s) to take{dead}, no depth {choice}"]
        )
    if choice > 0 and state.rules.discard_pick == "top":
        raise _error(state, [f"{state.rules.game} takes only the top card of the discard pile"])
    return replace(state, drawn=choice)


#: The cards a claim takes from the stock in the rules' order: the claimant's penalty card,
#: then the card of the player to move, who draws after the claim.
CLAIM_NEEDS = 2


def _claim_refused(state: CardGameState, seat: int | None, *, drawn_first: bool) -> str | None:
    """Why ``seat`` (None: any other seat) may not say "May I?" now, or None. In the rules'
    order the claim comes before the player to move draws from the stock, and the stock
    (turned over first if empty) must hold the penalty card and the mover's card; in an
    older record's order (``drawn_first``) the mover has drawn and the stock holds the
    penalty card."""
    if not state.rules.may_i:
        return f'{state.rules.game} plays without "May I?" (may_i = false)'
    if seat is not None and (seat == state.to_move or not 0 <= seat < len(state.players)):
        return f"seat {seat} cannot claim: it is not another player"
    if state.over or state.hand_over:
        return "the hand is over"
    if drawn_first and state.drawn != "stock":
        return "a claim follows a draw from the stock"
    if not drawn_first and state.drawn is not None:
        return "a claim comes before the player to move draws from the stock"
    if len(state.pile) <= state.dead:
        return "the discard pile has no live card to claim"
    if drawn_first:
        if state.stock_count == 0:
            return "the stock holds no card for the penalty"
        return None
    stock = state.stock_count or (len(state.pile) - 1 if _turnable(state) else 0)
    if stock < CLAIM_NEEDS:
        return (
            f"the stock holds {stock} card(s): a claim needs the penalty card and the card "
            "of the player to move"
        )
    return None


def claimants(state: CardGameState) -> tuple[int, ...]:
    """The seats that may say "May I?" now, in the order they are asked (after the player
    to move), when the player to move, before its draw, draws from the stock rather than
    take the top discard: none unless the game has ``may_i``, the pile's top card is live
    and the stock holds the penalty card and the mover's card (CARDS.md section 7)."""
    if _claim_refused(state, None, drawn_first=False) is not None:
        return ()
    n = len(state.players)
    return tuple((state.to_move + k) % n for k in range(1, n))


def claim(state: CardGameState, seat: int, penalty: Card | None = None) -> CardGameState:
    """Seat ``seat`` says "May I?" before the player to move draws from the stock: it takes
    the top discard and the stock's top card (the penalty; ``penalty`` names it where the
    stock's order is unknown); the player to move then draws the next one (:func:`draw`,
    from the stock: the cards below the claimed one are dead)."""
    reason = _claim_refused(state, seat, drawn_first=False)
    if reason is not None:
        raise _error(state, [f'"May I?": {reason}'])
    if state.stock_count == 0:
        state = _turned_over(state)
    return _take_claim(state, seat, penalty)


def _claim_after_draw(state: CardGameState, seat: int, penalty: Card | None) -> CardGameState:
    """A claim in the order records written before the rules' order was followed: the player
    to move has drawn from the stock, then ``seat`` takes the top discard and the stock's
    next card (:attr:`Turn.claim_first` false)."""
    reason = _claim_refused(state, seat, drawn_first=True)
    if reason is not None:
        raise _error(state, [f'"May I?": {reason}'])
    return _take_claim(state, seat, penalty)


def _take_claim(state: CardGameState, seat: int, penalty: Card | None) -> CardGameState:
    """``seat`` takes the top discard and a penalty card from the stock; the cards below
    the claimed one are dead."""
    top = state.pile[-1]
    hands = list(state.hands)
    held = hands[seat]
    if held is not None:
        hands[seat] = tuple(sorted((*held, top), key=sort_key))
    counts = list(state.counts)
    counts[seat] += 1
    after = replace(state, hands=tuple(hands), counts=tuple(counts), pile=state.pile[:-1])
    after = replace(after, dead=len(after.pile))
    after, _ = _take_stock(after, penalty, seat, "penalty card")
    return after


def draw_and_claim(state: CardGameState, turn: Turn) -> CardGameState:
    """The state after ``turn``'s draw and its "May I?" claim, in the order the turn was
    played: the claim first, then the mover's draw from the stock (the rules' order); a
    turn of an older record (:attr:`Turn.claim_first` false) the mover's draw first. The
    state returned may have the hand over (the stock ran out)."""
    if turn.claim is None:
        if turn.penalty is not None:
            raise _error(state, ['a penalty card goes with a "May I?" claim'])
        return draw(state, turn.draw, turn.card)
    if not turn.claim_first:
        after = draw(state, turn.draw, turn.card)
        if after.hand_over:
            return after
        return _claim_after_draw(after, turn.claim, turn.penalty)
    if turn.draw != "stock":
        raise _error(
            state, ['"May I?": a claim comes when the player to move draws from the stock']
        )
    return draw(claim(state, turn.claim, turn.penalty), "stock", turn.card)


def _after_table(
    state: CardGameState, melds: Sequence[RawCardMeld], layoffs: Sequence[Layoff]
) -> list[RawCardMeld | CardMeld]:
    after: list[RawCardMeld | CardMeld] = list(state.table)
    problems = []
    for layoff in layoffs:
        if not 0 <= layoff.meld < len(state.table):
            problems.append(
                f"lay-off on meld {layoff.meld}: the table has {len(state.table)} melds"
            )
            continue
        raw = layoff.to
        if raw.kind is None:
            # Written without its kind, a lay-off keeps the kind of the meld it grows.
            raw = RawCardMeld(raw.slots, state.table[layoff.meld].kind)
        after[layoff.meld] = raw
    if problems:
        raise _error(state, problems)
    return after + list(melds)


def lay(
    state: CardGameState,
    melds: Sequence[RawCardMeld] = (),
    layoffs: Sequence[Layoff] = (),
    discard: Card | None = None,
) -> CardGameState:
    """The rest of the turn of the player to move, after the draw: new melds, lay-offs and
    the discard, judged by the card checker; the turn passes on (or the hand ends)."""
    seat, rules = state.to_move, state.rules
    if state.drawn is None:
        raise _error(state, ["the draw comes first"])
    if state.hand_over:
        raise _error(state, ["the hand is over"])
    after = _after_table(state, melds, layoffs)
    draw_choice: Draw = state.drawn
    held = state.hands[seat]
    taken = (
        state.live_pile()[len(state.live_pile()) - 1 - draw_choice :]
        if draw_choice != "stock"
        else ()
    )
    problems: list[str] = []
    if held is None:
        held = _judged_hand(state, after, discard, taken, problems)
    position = CardPosition(
        rules,
        held,
        state.table,
        state.opened[seat],
        state.deal_number,
        state.live_pile(),
        draw_choice == "stock",
    )
    verdict = check(
        position, after, discard=discard, draw=None if draw_choice == "stock" else draw_choice
    )
    problems += verdict.errors
    if state.hands[seat] is None and verdict.legal:
        problems += _unknown_hand_problems(state, verdict.played, discard, len(taken), melds)
    if problems:
        raise _error(state, problems)
    table = tuple(m if isinstance(m, CardMeld) else m.read(rules) for m in after)
    owners = [*state.owners]
    for index, meld in enumerate(table):
        if index < len(state.table):
            if meld != state.table[index]:
                owners[index] = _owners(state.table[index], state.owners[index], meld, seat)
        else:
            owners.append((seat,) * len(meld.cards))
    hands = list(state.hands)
    counts = list(state.counts)
    if state.hands[seat] is not None:
        hands[seat] = verdict.hand
    counts[seat] = counts[seat] + len(taken) - len(verdict.played) - (discard is not None)
    pile = state.pile[: len(state.pile) - len(taken)] + ((discard,) if discard is not None else ())
    laid_any = bool(verdict.played)
    seen = Seen(
        seat,
        draw_choice,
        taken,
        tuple(table[len(state.table) :]),
        tuple(sorted(verdict.layoffs.items())),
        discard,
    )
    moved = replace(
        state,
        table=table,
        owners=tuple(owners),
        hands=tuple(hands),
        counts=tuple(counts),
        pile=pile,
        opened=_set(state.opened, seat, state.opened[seat] or laid_any),
        laid=_set(state.laid, seat, state.laid[seat] + verdict.points),
        has_laid=_set(state.has_laid, seat, state.has_laid[seat] or laid_any),
        history=(*state.history, seen),
    )
    if counts[seat] == 0:
        rummy = laid_any and not state.has_laid[seat]
        return _end_hand(moved, seat, rummy)
    return replace(moved, turns=state.turns + 1, drawn=None)


def _set(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    items = list(values)
    items[seat] = value
    return tuple(items)


def _owners(old: CardMeld, was: tuple[int, ...], new: CardMeld, seat: int) -> tuple[int, ...]:
    """Who laid each card of ``new``, the meld ``old`` (laid by ``was``) grown by ``seat``."""
    if old.kind == "run":
        left = old.start - new.start
        return tuple(
            was[i - left] if 0 <= i - left < len(was) and old.cards[i - left] == card else seat
            for i, card in enumerate(new.cards)
        )
    pool = Counter[tuple[Card, int]]()
    for card, owner in zip(old.cards, was, strict=True):
        pool[(card, owner)] += 1
    owners = []
    for card in new.cards:
        match = next(
            (key for key in sorted(pool, key=lambda k: k[1]) if key[0] == card and pool[key]), None
        )
        if match is None:
            owners.append(seat)
        else:
            pool[match] -= 1
            owners.append(match[1])
    return tuple(owners)


def _judged_hand(
    state: CardGameState,
    after: Sequence[RawCardMeld | CardMeld],
    discard: Card | None,
    taken: Sequence[Card],
    problems: list[str],
) -> tuple[Card, ...]:
    """The hand another player's turn is judged with at a real table: the cards it lays and
    discards, less those it took from the pile."""
    old = Counter(c for meld in state.table for c in meld.cards)
    new = Counter(c for meld in after for c in meld.cards)
    used = (new - old) + Counter([discard] if discard is not None else [])
    return tuple(sorted((used - Counter(taken)).elements(), key=sort_key))


def _unknown_hand_problems(
    state: CardGameState,
    played: Sequence[Card],
    discard: Card | None,
    taken: int,
    melds: Sequence[RawCardMeld],
) -> list[str]:
    """What can still be judged of a turn by a hand nobody sees: the cards it holds, and
    the opening and discard rules that depend on the cards it keeps."""
    seat, rules = state.to_move, state.rules
    name = state.players[seat]
    problems = []
    holds = state.counts[seat] + taken
    used = len(played) + (discard is not None)
    if used > holds:
        problems.append(f"{used} cards laid and discarded, but {name} holds {holds}")
    left = holds - used
    if discard is None and left > 0 and rules.discard_at_end:
        problems.append("the turn ends with a discard")
    found = _card_problems(_visible(state, played), rules)
    problems += found
    if (
        left > 0
        and rules.opening == "points"
        and not state.opened[seat]
        and melds
        and sum(m.read(rules).value(rules) for m in melds) < rules.opening_points
    ):
        problems.append(f"the new melds are below the {rules.opening_points} points to open")
    return problems


# -- the end of a hand, and of the game -------------------------------------------------------


def _end_hand(state: CardGameState, out: int | None, rummy: bool = False) -> CardGameState:
    rules, n = state.rules, len(state.players)
    penalties = tuple(0 if seat == out else state.penalty(seat) for seat in range(n))
    scores = hand_scores(rules, out, rummy, state.laid, penalties)
    before = state.totals
    totals = (
        None
        if scores is None or before is None
        else tuple(a + b for a, b in zip(before, scores, strict=True))
    )
    result = HandResult(
        out, rummy and rules.game == "500-rum", state.laid, penalties, scores, totals
    )
    ended = replace(state, results=(*state.results, result), turns=state.turns + 1, drawn=None)
    return _maybe_over(ended)


def lowest_wins(rules: CardRules) -> bool:
    """Whether the lowest total wins the game (every rummy here but rummy and 500 Rum,
    where points are won: CARDS.md section 7)."""
    return rules.game not in ("rummy", "500-rum")


def hand_scores(
    rules: CardRules,
    out: int | None,
    rummy: bool,
    laid: Sequence[int],
    penalties: Sequence[int | None],
) -> tuple[int, ...] | None:
    """A hand's scores (CARDS.md section 7, "Scoring a hand"); None where a penalty is
    unknown and the scores depend on it."""
    n = len(laid)
    game = rules.game
    if game == "500-rum":
        if any(p is None for p in penalties):
            return None
        scores = [laid[s] - (penalties[s] or 0) for s in range(n)]
        if out is not None and rummy:
            scores[out] *= 2
        return tuple(scores)
    if game == "rummy":
        if out is None:
            return (0,) * n
        if any(p is None for s, p in enumerate(penalties) if s != out):
            return None
        return tuple(sum(p or 0 for p in penalties) if s == out else 0 for s in range(n))
    # romme, continental, california: the others pay their hand.
    if any(p is None for p in penalties):
        return None
    return tuple(p or 0 for p in penalties)


def _card_costs(rules: CardRules) -> tuple[int, int]:
    """The least and the most one card of the pack costs left in a hand."""
    costs = [rules.penalty(card) for card in (*DECK, *([JOKER] if rules.jokers else []))]
    return min(costs), max(costs)


def score_problems(state: CardGameState, scores: Sequence[int]) -> list[str]:
    """Why ``scores``, entered for the hand ``state`` has just ended, cannot be its scores
    (CARDS.md section 7, "Scoring a hand"), each reason naming the game's rule: in Rummy
    only the player who went out scores, the penalties of the other hands; in Rommé,
    Continental and California the one out scores 0 and every other player the penalty of
    its hand; in 500 Rum every player the points it laid less the penalty of its hand (the
    one out: its points laid, doubled for a rummy). A hand whose cards are known costs
    exactly its penalty; a hand nobody saw, between its size times the cheapest and times
    the dearest card of the pack (scores with a sign only in 500 Rum follow from this)."""
    result = state.results[-1]
    rules, names, out = state.rules, state.players, result.out
    game = GAME_NAMES.get(rules.game, rules.game)
    cheapest, dearest = _card_costs(rules)

    def held(seat: int) -> tuple[int, int, str]:
        """The penalty of ``seat``'s hand left, at least and at most, and why in words."""
        if seat == out:
            return 0, 0, "went out"
        penalty = result.penalties[seat]
        if penalty is not None:
            cards = format_cards(state.hands[seat] or ()) or "nothing"
            return penalty, penalty, f"holds {cards} (penalty {penalty})"
        count = state.counts[seat]
        low, high = count * cheapest, count * dearest
        return low, high, f"holds {count} unseen cards (penalty {low} to {high})"

    problems: list[str] = []

    def judge(seat: int, low: int, high: int, rule: str, because: str) -> None:
        if not low <= scores[seat] <= high:
            span = str(low) if low == high else f"{low} to {high}"
            problems.append(
                f"{rule}: {because}, so {names[seat]} scores {span}, not {scores[seat]}"
            )

    seats = range(len(names))
    if rules.game == "rummy":
        for seat in seats:
            if seat != out and scores[seat] != 0:
                problems.append(
                    f"in {game} only the player who went out scores: {names[seat]} did not go out"
                )
        if out is not None:
            others = [(seat, held(seat)) for seat in seats if seat != out]
            judge(
                out,
                sum(low for _, (low, _, _) in others),
                sum(high for _, (_, high, _) in others),
                f"in {game} the player who went out scores the penalties of the other hands",
                ", ".join(f"{names[seat]} {words}" for seat, (_, _, words) in others),
            )
    elif rules.game == "500-rum":
        for seat in seats:
            low, high, words = held(seat)
            laid = result.laid[seat]
            double = 2 if seat == out and result.rummy else 1
            judge(
                seat,
                (laid - high) * double,
                (laid - low) * double,
                f"in {game} a player scores the points laid less the penalty of the hand left",
                f"{names[seat]} laid {laid} and {words}"
                + (" in one turn (a rummy: doubled)" if double == 2 else ""),
            )
    else:
        for seat in seats:
            if seat == out:
                if scores[seat] != 0:
                    problems.append(
                        f"in {game} the player who went out scores 0: {names[seat]} went out"
                    )
                continue
            low, high, words = held(seat)
            judge(
                seat,
                low,
                high,
                f"in {game} a player who did not go out scores the penalty of the hand left",
                f"{names[seat]} {words}",
            )
    return problems


def enter_scores(state: CardGameState, scores: Sequence[int]) -> CardGameState:
    """The scores of the hand just ended entered by hand (a real table, where the engine
    does not see every hand left); raises :class:`ScoreError` for scores the game's
    scoring rule does not allow (:func:`score_problems`)."""
    instance(state, CardGameState, "state", "replay(record).state")
    if isinstance(scores, str) or not isinstance(scores, Sequence):
        raise TypeError(f"scores must be a list of whole numbers, got {described(scores)}")
    for score in scores:
        whole(score, "a score")
    if not state.hand_over or state.results[-1].scores is not None:
        raise RummikubError("scores are entered only for an ended hand the engine cannot count")
    if len(scores) != len(state.players):
        raise RummikubError(f"{len(scores)} scores for {len(state.players)} players")
    problems = score_problems(state, scores)
    if problems:
        raise ScoreError(state.hand + 1, scores, problems)
    previous = state.results[:-1]
    before = previous[-1].totals if previous else (0,) * len(state.players)
    last = state.results[-1]
    totals = None if before is None else tuple(a + b for a, b in zip(before, scores, strict=True))
    result = replace(last, scores=tuple(scores), totals=totals)
    return _maybe_over(replace(state, results=(*previous, result), result=None))


def _maybe_over(state: CardGameState) -> CardGameState:
    rules = state.rules
    totals = state.results[-1].totals
    if totals is None:
        return state
    if rules.opening == "contract":
        if len(state.results) < CONTRACT_DEALS:
            return state
    elif max(totals) < rules.target:
        return state
    best = min(totals) if lowest_wins(rules) else max(totals)
    winners = tuple(s for s, t in enumerate(totals) if t == best)
    settlement = None
    if rules.game == "500-rum":
        paid = [float(t - best) for t in totals]
        gain = -sum(paid) / len(winners)
        settlement = tuple(gain if s in winners else paid[s] for s in range(len(totals)))
    return replace(state, result=GameResult(winners, totals, settlement))


# -- a recorded turn, and a record -------------------------------------------------------------


def advance(state: CardGameState, turn: Turn) -> CardGameState:
    """The state after the recorded ``turn`` of the player to move (its draw and its claim,
    :func:`draw_and_claim`, then its lay-down); raises :class:`TurnError`."""
    instance(state, CardGameState, "state", "replay(record).state")
    if not isinstance(turn, Turn):
        raise TypeError(f"advance() takes a Turn, got {type(turn).__name__}")
    after = draw_and_claim(state, turn)
    if after.hand_over:
        if turn.melds or turn.layoffs or turn.discard is not None or turn.claim is not None:
            raise _error(state, ["the stock ran out and the hand ended: nothing more is laid"])
        return after
    return lay(after, turn.melds, turn.layoffs, turn.discard)


#: A card record played through (:class:`rummikub.play.replay.Replay`): the states before
#: each turn and after the last, hand after hand, and the first problem.
Replay: TypeAlias = replaying.Replay[CardRecord, CardGameState, TurnError]


def replay(record: CardRecord) -> Replay:
    """Apply every hand and turn of ``record`` until the first bad one. Raises
    :class:`ScoreError` for scores entered that the game's scoring rule does not allow, as
    :func:`start` raises for a first deal that cannot be dealt."""
    return replaying.replay(record, start(record), _steps(record), TurnError)


def _steps(record: CardRecord) -> Iterator[replaying.Step[CardGameState]]:
    """A card record's steps: each hand's deal (after the first), its turns, its scores."""
    Step = replaying.Step
    for number, hand in enumerate(record.hands):
        if number > 0:
            yield Step(partial(_next_hand, number, hand.deal))
        for turn in hand.turns:
            yield Step(partial(_turn, turn))
        if hand.scores is not None:
            yield Step(partial(_entered_scores, number, hand.scores), "replace")
        if number + 1 < len(record.hands):
            yield Step(partial(_ended_before, number), "check")


def _next_hand(number: int, deal: Deal, state: CardGameState) -> CardGameState:
    """Hand ``number`` (from 0) dealt, the hand named where it cannot be."""
    if state.over:
        raise replaying.Trouble(f"hand {number + 1}: dealt after the game's end")
    try:
        return start_hand(state, deal)
    except RummikubError as error:
        raise replaying.Trouble(f"hand {number + 1}: {error}") from None


def _turn(turn: Turn, state: CardGameState) -> CardGameState:
    if state.hand_over:
        raise _error(state, ["the hand is over: the next turn belongs to the next hand"])
    return advance(state, turn)


def _entered_scores(number: int, scores: tuple[int, ...], state: CardGameState) -> CardGameState:
    """The scores written for hand ``number`` (from 0): entered where the engine could not
    count them (scores the game's rule does not allow raise :class:`ScoreError`: such a
    record is refused, not replayed up to them), checked where it did."""
    if not state.hand_over:
        raise replaying.Trouble(f"hand {number + 1}: scores written for a hand that has not ended")
    found = state.results[-1].scores
    if found is None:
        return enter_scores(state, scores)
    if found != scores:
        raise replaying.Trouble(
            f"hand {number + 1}: the record says scores {list(scores)}, its turns "
            f"give {list(found)}"
        )
    return state


def _ended_before(number: int, state: CardGameState) -> CardGameState:
    if not state.hand_over:
        raise replaying.Trouble(f"hand {number + 2}: dealt before hand {number + 1} ended")
    return state


def replay_file(path: str | os.PathLike[str]) -> Replay:
    """Read the record at ``path`` (:func:`rummikub.cards.game.record.load`, which raises
    :class:`~rummikub.cards.game.record.RecordError` for a file that is no record) and
    replay it up to its first bad turn; the problem names the file. A first deal that
    cannot be dealt raises, as :func:`start` does."""
    return replaying.replay_file(path, load, replay)


def scores_of(state: CardGameState) -> tuple[tuple[int, ...] | None, ...]:
    """The scores of each finished hand."""
    instance(state, CardGameState, "state", "replay(record).state")
    return tuple(result.scores for result in state.results)


def totals_of(state: CardGameState) -> tuple[tuple[int, ...] | None, ...]:
    """The totals after each finished hand (for :func:`record.save`'s ``totals``)."""
    return tuple(result.totals for result in state.results)


def describe(turn: Turn) -> str:
    """A turn in words, e.g. ``drew from the stock, laid 7S 8S 9S, discarded KH``."""
    instance(turn, Turn, "turn", "Turn(draw='stock')")
    parts = [
        "drew from the stock" if turn.draw == "stock" else f"took {turn.draw + 1} from the pile"
    ]
    if turn.claim is not None:
        parts.append(f"seat {turn.claim} said May I?")
    for meld in turn.melds:
        parts.append(f"laid {meld}")
    for layoff in turn.layoffs:
        parts.append(f"laid off on meld {layoff.meld}: {layoff.to}")
    if turn.discard is not None:
        parts.append(f"discarded {turn.discard}")
    return ", ".join(parts)
