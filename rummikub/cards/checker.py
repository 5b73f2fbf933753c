"""Is a card turn legal? Every rule of CARDS.md section 4, each broken one in words and with a
rule code. The checker never imports the solver: it is the specification the solver's answers
are tested against.

Rule codes (``Violation.rule``, in the style of the tile checker's):

=============================  ==================================================
``invalid-draw``               a pick the pile or the game does not allow
``invalid-meld``               a new or extended meld that is not a valid meld
``table-changed``              a table meld missing, or changed other than at its ends
``wild-set-addition``          a natural card added to a set of wild cards
``not-in-hand``                a card laid or discarded that the hand does not hold
``deepest-card-unused``        the deepest card taken from the pile is not laid
``discard-missing``            no discard where the turn ends with one
``discard-not-allowed``        a discard in a game without one
``discard-taken-card``         a card taken from the pile this turn discarded again
``discard-wild``               a wild card discarded while the hand holds another card
``opening-points``             a first lay-down below the opening points
``lay-off-before-opening``     a lay-off before the player has opened (gone down)
``contract``                   going down with other melds than the deal's contract
``new-meld-after-going-down``  a new meld after going down in a contract game
``wild-swap``                  a wild card taken from the table where the rules do
                               not allow it (``wild_swap = false``, a set, or a
                               player who had not opened before this turn)
``freed-wild-unused``          a wild card taken from the table not laid again, as a
                               wild card, in the same turn
=============================  ==================================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

from rummikub.cards.cards import Card, format_cards, sort_key
from rummikub.cards.melds import CardMeld, RawCardMeld, card_at
from rummikub.cards.position import CardPosition, Draw
from rummikub.cards.rules import CardRules
from rummikub.core.errors import MeldError

__all__ = ["CARD_RULES", "CardRule", "CardVerdict", "Violation", "check"]

CardRule = Literal[
    "invalid-draw",
    "invalid-meld",
    "table-changed",
    "wild-set-addition",
    "not-in-hand",
    "deepest-card-unused",
    "discard-missing",
    "discard-not-allowed",
    "discard-taken-card",
    "discard-wild",
    "opening-points",
    "lay-off-before-opening",
    "contract",
    "new-meld-after-going-down",
    "wild-swap",
    "freed-wild-unused",
]
#: Every rule code, in the order above.
CARD_RULES: tuple[CardRule, ...] = get_args(CardRule)


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule, shaped as the tile checker's: its ``rule`` code, its ``text`` in
    words, and what it concerns: the ``meld`` (an index into the proposed table, where old
    melds keep their indices) or the ``card``; None where it concerns no one meld or card."""

    rule: CardRule
    text: str
    meld: int | None = None
    card: str | None = None


@dataclass(frozen=True, slots=True)
class CardVerdict:
    """Whether a proposed turn is legal, why not, and what it lays and leaves."""

    legal: bool
    violations: tuple[Violation, ...]
    #: Points laid: the cards moved from hand to table, valued where they stand.
    points: int
    #: The values of the cards left in the hand after the discard.
    penalty: int
    played: tuple[Card, ...]
    #: The hand after the turn (discard gone).
    hand: tuple[Card, ...]
    #: Cards laid off onto each old table meld, by index (a card swapped for a wild included).
    layoffs: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    #: Wild swaps: (old table meld, the natural card laid, the wild card it took back).
    swaps: tuple[tuple[int, Card, Card], ...] = ()

    @property
    def errors(self) -> tuple[str, ...]:
        return tuple(v.text for v in self.violations)


def check(
    position: CardPosition,
    after: Sequence[RawCardMeld | CardMeld],
    *,
    discard: Card | None = None,
    draw: Draw | None = None,
) -> CardVerdict:
    """Judge the turn that makes ``after`` the new table, discards ``discard`` and draws
    ``draw`` (``None``: from the stock, or no draw due)."""
    rules = position.rules
    found: list[Violation] = []
    draw = _draw(position, draw, found)
    hand = position.hand_after(draw)
    old = position.table
    melds = _read(after, rules, found, old)
    layoffs: dict[int, tuple[Card, ...]] = {}
    swaps: list[tuple[int, Card, Card]] = []
    # Wild cards laid as wild cards, to be matched against those taken from the table.
    laid_wild = Counter[Card]()
    points = 0
    for index, meld in enumerate(old):
        new = melds.get(index)
        if index >= len(after):
            found.append(
                Violation("table-changed", f'table meld {index} "{meld}" is missing', index)
            )
            continue
        if new is None:
            continue
        change = _extension(meld, new)
        if change is None:
            if _set_swap(meld, new):
                found.append(
                    Violation(
                        "wild-swap",
                        f'meld {index} "{new}": a wild card is taken from the table only out '
                        "of a run",
                        index,
                    )
                )
                continue
            found.append(
                Violation(
                    "table-changed",
                    f'meld {index} "{new}" changes "{meld}" (cards may only be added at its ends)',
                    index,
                )
            )
            continue
        added, swapped = change
        if swapped:
            here = [(index, new.cards[i], wild) for i, wild in swapped]
            _swap_allowed(position, index, new, here, found)
            swaps += here
        if added and meld.is_wild_set and not all(new.wild[i] for i in added):
            found.append(
                Violation(
                    "wild-set-addition",
                    f'meld {index} "{new}": only wild cards may join a set of wild cards',
                    index,
                )
            )
        # A natural card swapped for a wild card is laid from the hand, like a lay-off.
        laid_here = sorted(added + [i for i, _ in swapped])
        if laid_here:
            values = new.card_values(rules)
            points += sum(values[i] for i in laid_here)
            layoffs[index] = tuple(new.cards[i] for i in laid_here)
            laid_wild.update(new.cards[i] for i in added if new.wild[i])
    new_melds = [melds[i] for i in range(len(old), len(after)) if i in melds]
    points += sum(m.value(rules) for m in new_melds)
    laid = Counter(c for i, m in enumerate(after) if i >= len(old) for c in _cards(m))
    for cards in layoffs.values():
        laid.update(cards)
    # Cards of invalid old-meld extensions count as laid too, so nothing escapes the hand test.
    for index, meld in enumerate(old):
        if index < len(after) and index not in layoffs and melds.get(index) is None:
            extra = Counter(_cards(after[index])) - Counter(meld.cards)
            laid.update(extra)
    # A wild card taken from the table is the player's for this turn, to lay again as a wild
    # card (CARDS.md section 4: "that wild must be used again this turn").
    freed = Counter(wild for _, _, wild in swaps)
    hand += freed
    for meld in new_melds:
        laid_wild.update(c for c, w in zip(meld.cards, meld.wild, strict=True) if w)
    for card in sorted(freed, key=sort_key):
        if laid_wild[card] < freed[card]:
            found.append(
                Violation(
                    "freed-wild-unused",
                    f"the wild card {card} taken from the table must be laid again this turn, "
                    "as a wild card",
                    None,
                    str(card),
                )
            )
    for card in sorted(laid - hand, key=sort_key):
        missing = (laid - hand)[card]
        times = "" if missing == 1 else f" {missing} more times than held"
        found.append(
            Violation("not-in-hand", f"{card} is not in your hand{times}", None, str(card))
        )
    left = hand - laid
    taken = Counter(position.taken(draw))
    deepest = position.deepest(draw)
    if deepest is not None and laid[deepest] == 0:
        found.append(
            Violation(
                "deepest-card-unused",
                f"{deepest}, the deepest card taken from the pile, must be laid this turn",
                None,
                str(deepest),
            )
        )
    _discard(position, left, taken, discard, found)
    if discard is not None and left[discard]:
        left[discard] -= 1
    _opening(position, new_melds, layoffs, +left, found, len(old))
    left_cards = tuple(sorted(left.elements(), key=sort_key))
    return CardVerdict(
        legal=not found,
        violations=tuple(found),
        points=points,
        penalty=sum(rules.penalty(c) for c in left_cards),
        played=tuple(sorted(laid.elements(), key=sort_key)),
        hand=left_cards,
        layoffs=layoffs,
        swaps=tuple(swaps),
    )


def _cards(meld: RawCardMeld | CardMeld) -> tuple[Card, ...]:
    return meld.cards


def _draw(position: CardPosition, draw: Draw | None, found: list[Violation]) -> Draw:
    if draw is None or draw == "stock":
        return "stock"
    if position.drawn:
        found.append(Violation("invalid-draw", "the draw is already made (drawn = true)"))
        return "stock"
    if not 0 <= draw < len(position.discard):
        found.append(
            Violation(
                "invalid-draw",
                f"the discard pile has {len(position.discard)} cards, no depth {draw}",
            )
        )
        return "stock"
    if draw > 0 and position.rules.discard_pick == "top":
        found.append(
            Violation(
                "invalid-draw", f"{position.rules.game} takes only the top card of the discard pile"
            )
        )
        return "stock"
    return draw


def _read(
    after: Sequence[RawCardMeld | CardMeld],
    rules: CardRules,
    found: list[Violation],
    old: Sequence[CardMeld],
) -> dict[int, CardMeld]:
    melds: dict[int, CardMeld] = {}
    for index, meld in enumerate(after):
        if isinstance(meld, CardMeld):
            melds[index] = meld
            continue
        if (
            index < len(old)
            and old[index].is_wild_set
            and any(s.stands is None and not s.card.is_joker for s in meld.slots)
        ):
            found.append(
                Violation(
                    "wild-set-addition",
                    f'meld {index} "{meld}": only wild cards may join a set of wild cards',
                    index,
                )
            )
            continue
        try:
            melds[index] = meld.read(rules)
        except MeldError as error:
            found.append(Violation("invalid-meld", f'meld {index} "{meld}": {error}', index))
    return melds


def _extension(old: CardMeld, new: CardMeld) -> tuple[list[int], list[tuple[int, Card]]] | None:
    """How ``new`` grows ``old``: the indices of ``new`` holding the cards added (at the ends
    of a run; anywhere in a set), and the wild swaps (the index of ``new`` where a natural
    card replaced one of the run's wild cards, and that wild card); None when ``new`` is not
    ``old`` grown so."""
    if old.kind != new.kind:
        return None
    pairs = list(zip(old.cards, old.wild, strict=True))
    new_pairs = list(zip(new.cards, new.wild, strict=True))
    if old.kind == "run":
        left = old.start - new.start
        if left < 0 or left + len(pairs) > len(new_pairs) or old.suit != new.suit:
            return None
        swapped: list[tuple[int, Card]] = []
        for offset, (was, now) in enumerate(zip(pairs, new_pairs[left:], strict=False)):
            if was == now:
                continue
            stands = card_at(old.suit, old.start + offset)
            if was[1] and not now[1] and now[0] == stands:
                swapped.append((left + offset, was[0]))
                continue
            return None
        ends = [i for i in range(len(new_pairs)) if not left <= i < left + len(pairs)]
        return ends, swapped
    if old.rank and old.rank != new.rank:
        return None
    rest = Counter(new_pairs)
    rest.subtract(pairs)
    if any(n < 0 for n in rest.values()):
        return None
    added: list[int] = []
    for i, pair in enumerate(new_pairs):
        if rest[pair] > 0:
            added.append(i)
            rest[pair] -= 1
    return added, []


def _set_swap(old: CardMeld, new: CardMeld) -> bool:
    """Whether ``new`` is the set ``old`` with wild cards taken out and natural cards in."""
    if old.kind != "set" or new.kind != "set" or not old.rank or old.rank != new.rank:
        return False
    missing = Counter(zip(old.cards, old.wild, strict=True))
    missing.subtract(zip(new.cards, new.wild, strict=True))
    return all(wild for (_, wild), n in missing.items() if n > 0)


def _swap_allowed(
    position: CardPosition,
    index: int,
    new: CardMeld,
    swaps: list[tuple[int, Card, Card]],
    found: list[Violation],
) -> None:
    rules = position.rules
    what = ", ".join(f"{natural} replaces the wild card {wild}" for _, natural, wild in swaps)
    if not rules.wild_swap:
        reason = f"{rules.game} takes no wild card from the table (wild_swap = false)"
    elif not rules.may_swap(position.opened):
        reason = "only a player who had opened before this turn takes a wild card from the table"
    else:
        return
    found.append(Violation("wild-swap", f'meld {index} "{new}": {what}, but {reason}', index))


def _discard(
    position: CardPosition,
    left: Counter[Card],
    taken: Counter[Card],
    discard: Card | None,
    found: list[Violation],
) -> None:
    rules = position.rules
    remaining = sum(left.values())
    if discard is None:
        if not rules.discard_at_end:
            return
        if remaining:
            found.append(Violation("discard-missing", "the turn ends with a discard"))
        elif not rules.out_without_discard:
            found.append(
                Violation(
                    "discard-missing",
                    f"every card was laid, but {rules.game} ends the turn with a discard: "
                    "keep one card",
                )
            )
        return
    if not rules.discard_at_end:
        found.append(
            Violation("discard-not-allowed", f"{rules.game} has no discard", None, str(discard))
        )
        return
    if left[discard] == 0:
        found.append(
            Violation(
                "not-in-hand", f"the discard {discard} is not in your hand", None, str(discard)
            )
        )
        return
    if taken[discard] and Counter(position.hand)[discard] == 0:
        found.append(
            Violation(
                "discard-taken-card",
                f"{discard} was taken from the pile this turn and may not be discarded",
                None,
                str(discard),
            )
        )
    if rules.keep_wilds and rules.is_wild(discard):
        others = [c for c in (left - Counter([discard])).elements() if not rules.is_wild(c)]
        if others:
            found.append(
                Violation(
                    "discard-wild",
                    f"the wild card {discard} is discarded while the hand holds "
                    f"{format_cards(sorted(others, key=sort_key))}",
                    None,
                    str(discard),
                )
            )


def _opening(
    position: CardPosition,
    new_melds: list[CardMeld],
    layoffs: dict[int, tuple[Card, ...]],
    left: Counter[Card],
    found: list[Violation],
    first_new: int,
) -> None:
    rules = position.rules
    if rules.opening == "none":
        return
    if rules.opening == "points":
        if position.opened or not (new_melds or layoffs):
            return
        worth = sum(m.value(rules) for m in new_melds)
        if worth >= rules.opening_points:
            return
        if not layoffs and not left:
            return  # going out at once opens with any points (Rommé's exception)
        if new_melds:
            found.append(
                Violation(
                    "opening-points",
                    f"the new melds are worth {worth} points; opening needs "
                    f"{rules.opening_points} (or going out at once, without lay-offs)",
                )
            )
        for index in layoffs:
            found.append(
                Violation(
                    "lay-off-before-opening", f"meld {index}: no lay-off before opening", index
                )
            )
        return
    # Contract games.
    if position.opened:
        for offset, _meld in enumerate(new_melds):
            found.append(
                Violation(
                    "new-meld-after-going-down",
                    f"meld {first_new + offset}: after going down a player only lays off",
                    first_new + offset,
                )
            )
        return
    if not new_melds:
        for index in layoffs:
            found.append(
                Violation(
                    "lay-off-before-opening", f"meld {index}: no lay-off before going down", index
                )
            )
        return
    deal = position.deal or 1
    sets, runs = rules.contract(deal)
    have_sets = sum(m.kind == "set" for m in new_melds)
    have_runs = len(new_melds) - have_sets
    if (have_sets, have_runs) != (sets, runs):
        found.append(
            Violation(
                "contract",
                f"deal {deal} goes down with {_count(sets, 'set')} and {_count(runs, 'run')}, "
                f"not {_count(have_sets, 'set')} and {_count(have_runs, 'run')}",
            )
        )


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
