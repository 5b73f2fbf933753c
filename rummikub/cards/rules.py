"""The rules of a card rummy as data: presets and options (CARDS.md sections 2, 3, 6).

>>> rules = preset("500-rum")
>>> rules.decks, rules.jokers, rules.aces, rules.objective
(1, 2, 'both', 'points')
>>> with_options(rules, {"run_min": 4}).run_min
4

Rule options are read in one place, :func:`read_rules` (a card puzzle's ``game`` and
``[rules]``, the command line's ``--game`` and ``--rule``): every option is applied, then the
rule set they make is checked as a whole (CARDS.md: every value is an option, so a pair of
values may be consistent only together), and every problem is reported at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal, NamedTuple

from rummikub.cards.cards import JOKER, RANK_NAMES, Card, card_words, type_of
from rummikub.core.documents import describe
from rummikub.core.errors import NotationError, RulesError, unknown

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
    # -- a whole game (CARDS.md section 7) -----------------------------------------------
    #: "May I?": a top discard the player to move leaves for the stock may be claimed by
    #: another player, who takes it with the stock's next card as a penalty.
    may_i: bool = False
    #: An empty stock when a player draws from it: ``"turn"`` the discard pile but its top
    #: card over as the new stock (the hand ends when that leaves none), ``"end"`` the hand
    #: ends with nobody out.
    stock_out: Literal["turn", "end"] = "turn"
    #: With ``stock_out = "turn"``, how often the stock may be turned over in one hand;
    #: the next time it runs out the hand ends with nobody out (a house rule: a pile
    #: turned over in order can bring back the same cards for ever).
    stock_turns: int = 3
    #: The total that ends the game at the end of its hand; contract games play their
    #: seven deals instead (0, not used).
    target: int = 0
    #: Cards dealt to each player (0 = by the number of players, :func:`hand_size_of`).
    hand_size: int = 0

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
        target=100,
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
        target=500,
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
        target=500,
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
        may_i=True,
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
        may_i=True,
    ),
}

GAMES = tuple(PRESETS)
#: Each preset's name in words (what the game is called at the table and in messages).
GAME_NAMES: dict[str, str] = {
    "rummy": "Rummy",
    "500-rum": "500 Rum",
    "romme": "Romm\u00e9",
    "continental": "Continental",
    "california": "California",
}
OPTION_NAMES = tuple(f.name for f in fields(CardRules) if f.name != "game")

_CHOICES: dict[str, tuple[str, ...]] = {
    "set_suits": ("distinct", "any"),
    "aces": ("low", "high", "both"),
    "opening": ("none", "points", "contract"),
    "discard_pick": ("top", "any"),
    "objective": ("points", "penalty"),
    "wilds_at_most": ("none", "naturals"),
    "stock_out": ("turn", "end"),
}
_BOOLS = (
    "discard_at_end",
    "out_without_discard",
    "keep_wilds",
    "wild_sets",
    "wild_swap",
    "may_i",
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
    "target": (0, 100000),
    "stock_turns": (1, 100),
    "hand_size": (0, 52),
}


def preset(name: str) -> CardRules:
    """The rules of a game by its name (one of :data:`GAMES`); raises :class:`RulesError`."""
    if not isinstance(name, str):
        raise TypeError(f"preset() takes a game's name ({', '.join(PRESETS)}), got {type_of(name)}")
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise RulesError(unknown("game", name, PRESETS)) from None


def _read_options(
    rules: CardRules, options: Mapping[str, Any]
) -> tuple[CardRules, list[tuple[str, str]]]:
    """``rules`` with every good value of ``options`` applied, and every problem as the
    option and the message: each value on its own, then the rule set as a whole. The
    problems come in the order the options are given."""
    problems: list[tuple[str, str]] = []
    changes: dict[str, Any] = {}
    for key, value in options.items():
        try:
            changes[key] = _option(key, value)
        except RulesError as error:
            problems.append((key, str(error)))
    if "values" in changes:
        table = list(rules.values)
        for index, points in changes["values"].items():
            table[index] = points
        changes["values"] = tuple(table)
    new = replace(rules, **changes)
    problems += _whole_problems(new)
    given = {key: index for index, key in enumerate(options)}
    problems.sort(key=lambda problem: given.get(problem[0], len(given)))
    return new, problems


def _whole_problems(rules: CardRules) -> Iterator[tuple[str, str]]:
    """What makes a rule set inconsistent although each value is good on its own."""
    if rules.set_max and rules.set_max < rules.set_min:
        yield (
            "set_max",
            f"set_max={rules.set_max} is below set_min={rules.set_min} (0 = no maximum)",
        )
    if rules.set_suits == "distinct" and (rules.set_max == 0 or rules.set_max > 4):
        most = "no maximum" if rules.set_max == 0 else f"at most {rules.set_max}"
        yield (
            "set_max",
            f"set_max={rules.set_max} ({most}) with set_suits='distinct': four suits make "
            "sets of at most 4 cards (set set_max 1-4, or set_suits='any')",
        )
    if rules.opening != "contract" and not rules.target:
        yield (
            "target",
            f"target=0: {rules.game} is played to a target total (e.g. target = "
            f"{PRESETS[rules.game].target or 500})",
        )


#: Cards dealt to each player by the number of players (CARDS.md section 7), where the
#: ``hand_size`` option is 0: (most players, cards) in increasing order of players.
HAND_SIZES: dict[str, tuple[tuple[int, int], ...]] = {
    "rummy": ((2, 10), (4, 7), (6, 6)),
    "500-rum": ((2, 13), (4, 7), (6, 6)),
    "romme": ((6, 13),),
    "continental": ((8, 12),),
    "california": ((8, 12),),
}
#: A game has 2 players or more, up to this many (a contract game's pack grows with them).
MAX_PLAYERS = {"contract": 8, "other": 6}


def most_players(rules: CardRules) -> int:
    """The most players a game of ``rules`` seats."""
    return MAX_PLAYERS["contract" if rules.opening == "contract" else "other"]


def hand_size_of(rules: CardRules, players: int) -> int:
    """The cards dealt to each of ``players``: the ``hand_size`` option, or when it is 0
    the preset's number for that many players (CARDS.md section 7; a game built from
    options alone deals as its preset ``game`` does)."""
    if rules.hand_size:
        return rules.hand_size
    for most, cards in HAND_SIZES.get(rules.game, ((8, 10),)):
        if players <= most:
            return cards
    return HAND_SIZES.get(rules.game, ((8, 10),))[-1][1]


def pack_for(rules: CardRules, players: int) -> CardRules:
    """The rules of a game of ``players``: a contract game (Continental, California) takes
    one more pack, with its jokers, for every 2 players beyond 4 (``decks`` for up to 4,
    ceil(players / 2) beyond: CARDS.md section 7); the others play the pack of their
    options."""
    if rules.opening != "contract":
        return rules
    packs = max(rules.decks, -(-players // 2))
    if packs == rules.decks:
        return rules
    per_pack = rules.jokers // rules.decks
    return replace(rules, decks=packs, jokers=rules.jokers + (packs - rules.decks) * per_pack)


def with_options(rules: CardRules, options: Mapping[str, Any]) -> CardRules:
    """``rules`` with ``options`` changed, each value and then the whole checked; raises
    :class:`RulesError` with every problem."""
    if not isinstance(rules, CardRules):
        raise TypeError(
            f"with_options() takes a CardRules (e.g. preset('rummy')), got {type_of(rules)}"
        )
    if not isinstance(options, Mapping):
        raise TypeError(
            f"with_options() takes the options as a mapping such as {{'wild_swap': True}}, "
            f"got {type_of(options)}"
        )
    new, problems = _read_options(rules, options)
    if problems:
        raise RulesError("; ".join(text for _, text in problems))
    return new


class CardRulesReading(NamedTuple):
    """What :func:`read_rules` read."""

    #: The rule set, or None when anything is wrong.
    rules: CardRules | None
    #: Every problem, each naming its key (``game: ...``, ``rules: set_max=...``).
    problems: tuple[str, ...]
    #: The options with a problem (``"game"`` for the game).
    bad: frozenset[str]
    #: The rule set to judge the rest of a puzzle by despite the problems, so that those
    #: are reported too: the game's preset with every good value; None when the game is
    #: unknown. The rule set itself when nothing is wrong.
    nearest: CardRules | None


def read_rules(
    game: object, table: object = None, *, options: Mapping[str, Any] | None = None
) -> CardRulesReading:
    """The rule set of a card puzzle: the preset of ``game``, its ``[rules]`` ``table`` and
    ``options`` over those (the command line's ``--rule``, as :func:`option_from_text`
    reads them).

    >>> read_rules("rummy", {"set_max": 0}, options={"set_suits": "any"}).rules.set_max
    0
    >>> read_rules("rummy", {"set_max": 0}).problems  # doctest: +ELLIPSIS
    ("rules: set_max=0 (no maximum) with set_suits='distinct': four suits make sets of ...",)
    """
    if not isinstance(game, str):
        problem = f"game: expected a game name, got {describe(game)}"
        return CardRulesReading(None, (problem,), frozenset({"game"}), None)
    try:
        base = preset(game)
    except RulesError as error:
        return CardRulesReading(None, (f"game: {error}",), frozenset({"game"}), None)
    problems: list[tuple[str, str]] = []
    given: dict[str, Any] = {}
    if table is None:
        pass
    elif isinstance(table, Mapping):
        given.update(table)
    else:
        problems.append(("rules", f"expected a table, got {describe(table)}"))
    given.update(options or {})
    new, found = _read_options(base, given)
    problems += found
    if not problems:
        return CardRulesReading(new, (), frozenset(), new)
    texts = tuple(f"rules: {text}" for _, text in problems)
    return CardRulesReading(None, texts, frozenset(option for option, _ in problems), new)


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
    """One option's value, checked on its own (:func:`_whole_problems` checks them together)."""
    if key not in OPTION_NAMES:
        raise RulesError(unknown("rule option", key, OPTION_NAMES))
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


def rules_data(rules: CardRules) -> dict[str, Any]:
    """The options of ``rules`` that differ from its preset, as a puzzle's or a record's
    ``[rules]`` holds them (:func:`read_rules` reads them back to the same rules).

    >>> rules_data(with_options(preset("romme"), {"wild_swap": True, "values": {"A": 15}}))
    {'values': {'A': 15}, 'wild_swap': True}
    """
    base = PRESETS[rules.game]
    data: dict[str, Any] = {}
    for name in OPTION_NAMES:
        value, before = getattr(rules, name), getattr(base, name)
        if value == before:
            continue
        if name == "wild":
            data[name] = [str(card) for card in value]
        elif name == "values":
            data[name] = {
                RANK_NAMES[index]: points
                for index, (points, was) in enumerate(zip(value, before, strict=True))
                if points != was
            }
        else:
            data[name] = value
    return data


def contract_words(sets: int, runs: int) -> str:
    """A contract in words: ``2 sets``, ``1 set and 1 run``."""
    parts = [
        f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((sets, "set"), (runs, "run")) if n
    ]
    return " and ".join(parts)
