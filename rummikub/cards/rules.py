"""The rules of a card rummy as data: presets and options (CARDS.md sections 2, 3, 6).

>>> rules = preset("500-rum")
>>> rules.decks, rules.jokers, rules.aces, rules.objective
(1, 2, 'both', 'points')
>>> with_options(rules, {"run_min": 4}).run_min
4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from rummikub.cards.cards import JOKER, RANK_NAMES, Card, card_words
from rummikub.core.errors import NotationError, RulesError

Aces = Literal["low", "high", "both"]
Opening = Literal["none", "points", "contract"]

#: Continental's seven contracts (CARDS.md section 4): (sets, runs) for deals 1-7.
CONTRACTS: dict[int, tuple[int, int]] = {
    1: (2, 0),
    2: (1, 1),
    3: (0, 2),
    4: (3, 0),
    5: (2, 1),
    6: (1, 2),
    7: (0, 3),
}

_PIPS = (0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # index 0 (the ace) is set by each preset


@dataclass(frozen=True, slots=True)
class CardRules:
    """Every option of a card game; a preset is one of these (build others with
    :func:`with_options`, which checks every value)."""

    game: str
    decks: int
    jokers: int
    #: Cards wild besides the jokers (Continental: the red aces).
    wild: tuple[Card, ...]
    set_min: int
    #: 0 = no maximum.
    set_max: int
    set_suits: Literal["distinct", "any"]
    run_min: int
    aces: Aces
    #: The value of each rank, ace (1) to king (13); the ace's is its value outside A-2-3.
    values: tuple[int, ...]
    ace_low: int
    #: What a card named by ``wild`` costs (0 = the value of its rank).
    wild_card_value: int
    joker_value: int | Literal["represented"]
    joker_penalty: int
    opening: Opening
    opening_points: int
    discard_pick: Literal["top", "any"]
    objective: Literal["points", "penalty"]
    discard_at_end: bool = True
    out_without_discard: bool = True
    keep_wilds: bool = True
    wilds_at_most: Literal["none", "naturals"] = "none"
    wild_sets: bool = False
    #: A natural card from the hand may take the wild card standing for it from a table run;
    #: the freed wild card must be laid again, as a wild card, in the same turn.
    wild_swap: bool = False

    def is_wild(self, card: Card) -> bool:
        """Whether ``card`` can be wild (a named wild card is also a natural card)."""
        return card.is_joker or card in self.wild

    def copies(self, card: Card) -> int:
        """How many of ``card`` the pack holds."""
        return self.jokers if card.is_joker else self.decks

    def penalty(self, card: Card) -> int:
        """What ``card`` costs left in the hand."""
        if card.is_joker:
            return self.joker_penalty
        if card in self.wild and self.wild_card_value:
            return self.wild_card_value
        return self.values[card.rank - 1]

    def natural_value(self, card: Card, *, low_ace: bool = False) -> int:
        """What a natural card is worth laid (an ace at the bottom of a run: ``ace_low``)."""
        if card in self.wild and self.wild_card_value:
            return self.wild_card_value
        if card.rank == 1 and low_ace:
            return self.ace_low
        return self.values[card.rank - 1]

    def wild_value(self, stands_for: Card | None, *, low_ace: bool = False) -> int:
        """What a wild card laid in a meld is worth, standing for ``stands_for`` (None in a
        set of wild cards only)."""
        if self.joker_value != "represented":
            return self.joker_value
        if stands_for is None:
            return self.joker_penalty
        if stands_for.rank == 1 and low_ace:
            return self.ace_low
        return self.values[stands_for.rank - 1]

    def may_swap(self, opened: bool) -> bool:
        """Whether a player who had ``opened`` before this turn may take a wild card from
        the table: the opening is made from the hand as dealt, so where there is an opening
        (points or a contract) only a player who had opened before may swap."""
        return self.wild_swap and (self.opening == "none" or opened)

    def contract(self, deal: int) -> tuple[int, int]:
        return CONTRACTS[deal]


def _values(ace: int, pips: tuple[int, ...] = _PIPS) -> tuple[int, ...]:
    return (ace, *pips[1:])


_CONTINENTAL_VALUES = (20, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)

PRESETS: dict[str, CardRules] = {
    "rummy": CardRules(
        game="rummy",
        decks=1,
        jokers=0,
        wild=(),
        set_min=3,
        set_max=4,
        set_suits="distinct",
        run_min=3,
        aces="low",
        values=_values(10),
        ace_low=10,
        wild_card_value=0,
        joker_value=0,
        joker_penalty=0,
        opening="none",
        opening_points=0,
        discard_pick="top",
        objective="penalty",
    ),
    "500-rum": CardRules(
        game="500-rum",
        decks=1,
        jokers=2,
        wild=(),
        set_min=3,
        set_max=4,
        set_suits="distinct",
        run_min=3,
        aces="both",
        values=_values(15),
        ace_low=1,
        wild_card_value=0,
        joker_value=15,
        joker_penalty=15,
        opening="none",
        opening_points=0,
        discard_pick="any",
        objective="points",
    ),
    "romme": CardRules(
        game="romme",
        decks=2,
        jokers=6,
        wild=(),
        set_min=3,
        set_max=4,
        set_suits="distinct",
        run_min=3,
        aces="both",
        values=_values(11),
        ace_low=1,
        wild_card_value=0,
        joker_value="represented",
        joker_penalty=20,
        opening="points",
        opening_points=40,
        discard_pick="top",
        objective="penalty",
    ),
    "continental": CardRules(
        game="continental",
        decks=2,
        jokers=4,
        wild=(Card(1, "H"), Card(1, "D")),
        set_min=3,
        set_max=0,
        set_suits="any",
        run_min=4,
        aces="both",
        values=_CONTINENTAL_VALUES,
        ace_low=20,
        wild_card_value=30,
        joker_value=50,
        joker_penalty=50,
        opening="contract",
        opening_points=0,
        discard_pick="top",
        objective="penalty",
        out_without_discard=False,
        wilds_at_most="naturals",
        wild_sets=True,
    ),
    "california": CardRules(
        game="california",
        decks=2,
        jokers=4,
        wild=(),
        set_min=3,
        set_max=0,
        set_suits="any",
        run_min=4,
        aces="high",
        values=_CONTINENTAL_VALUES,
        ace_low=20,
        wild_card_value=0,
        joker_value=50,
        joker_penalty=50,
        opening="contract",
        opening_points=0,
        discard_pick="top",
        objective="penalty",
    ),
}

GAMES = tuple(PRESETS)
OPTION_NAMES = tuple(f.name for f in fields(CardRules) if f.name != "game")

_CHOICES: dict[str, tuple[str, ...]] = {
    "set_suits": ("distinct", "any"),
    "aces": ("low", "high", "both"),
    "opening": ("none", "points", "contract"),
    "discard_pick": ("top", "any"),
    "objective": ("points", "penalty"),
    "wilds_at_most": ("none", "naturals"),
}
_BOOLS = (
    "discard_at_end",
    "out_without_discard",
    "keep_wilds",
    "wild_sets",
    "wild_swap",
)
_RANGES: dict[str, tuple[int, int]] = {
    "decks": (1, 8),
    "jokers": (0, 16),
    "set_min": (2, 13),
    "set_max": (0, 104),
    "run_min": (2, 13),
    "ace_low": (0, 1000),
    "wild_card_value": (0, 1000),
    "joker_penalty": (0, 1000),
    "opening_points": (0, 10000),
}


def preset(name: str) -> CardRules:
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise RulesError(f"unknown game {name!r} (expected one of {', '.join(PRESETS)})") from None


def with_options(rules: CardRules, options: Mapping[str, Any]) -> CardRules:
    """``rules`` with ``options`` changed, each value checked; raises :class:`RulesError`."""
    changes: dict[str, Any] = {}
    for key, value in options.items():
        changes[key] = _option(key, value)
    if "values" in changes:
        table = list(rules.values)
        for index, points in changes["values"].items():
            table[index] = points
        changes["values"] = tuple(table)
    new = replace(rules, **changes)
    if new.set_max and new.set_max < new.set_min:
        raise RulesError(f"set_max={new.set_max} is below set_min={new.set_min} (0 = no maximum)")
    if new.set_suits == "distinct" and (new.set_max == 0 or new.set_max > 4):
        raise RulesError("set_suits='distinct' allows at most 4 cards in a set: set set_max 1-4")
    return new


def option_from_text(text: str) -> Any:
    """A ``--rule KEY=VALUE`` value as a puzzle file's [rules] would hold it: ``true`` and
    ``false``, whole numbers, else the text (``wild=AH,AD``; ``joker_value=represented``)."""
    word = text.strip()
    if word.lower() in ("true", "false"):
        return word.lower() == "true"
    try:
        return int(word)
    except ValueError:
        return word


def _option(key: str, value: Any) -> Any:
    if key not in OPTION_NAMES:
        raise RulesError(f"unknown rule option {key!r} (expected one of {', '.join(OPTION_NAMES)})")
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise RulesError(f"{key}={value!r} must be one of {', '.join(_CHOICES[key])}")
        return value
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(f"{key}={value!r} must be true or false")
        return value
    if key in _RANGES:
        low, high = _RANGES[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RulesError(f"{key}={value!r} must be a whole number in the range {low}-{high}")
        return value
    if key == "joker_value":
        if value == "represented":
            return value
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000:
            raise RulesError(f"joker_value={value!r} must be 'represented' or a number 0-1000")
        return value
    if key == "wild":
        words = card_words(value) if isinstance(value, str) else value
        if not isinstance(words, list | tuple) or not all(isinstance(w, str) for w in words):
            raise RulesError(f"wild={value!r} must be a list of cards such as ['AH', 'AD']")
        try:
            cards = tuple(Card.parse(w) for w in words)
        except NotationError as error:
            raise RulesError(f"wild: {error}") from None
        return tuple(c for c in cards if c != JOKER)
    # values: a table of rank -> value, changing only the ranks it names.
    if not isinstance(value, Mapping):
        raise RulesError(f"values={value!r} must be a table of rank = value, e.g. {{A = 11}}")
    changed: dict[int, int] = {}
    for rank_text, points in value.items():
        name = str(rank_text).upper().replace("T", "10")
        if name not in RANK_NAMES:
            raise RulesError(f"values: unknown rank {rank_text!r} (expected A 2-10 J Q K)")
        if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= 1000:
            raise RulesError(f"values.{rank_text}={points!r} must be a whole number 0-1000")
        changed[RANK_NAMES.index(name)] = points
    return changed
