"""Rule sets as data: every option of RULES.md, with range checks and presets.

A rule set is read from options in one place, :func:`read_rules` (a document's ``[rules]``
table, the command line's ``--rules``/``--rule``, a web request's ``rules``): every option is
applied, then the rule set they make is checked as a whole, and every problem is reported at
once, each naming its option, in the order the options were given.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from rummikub.core.documents import describe
from rummikub.core.errors import RulesError, unknown
from rummikub.tiles.tiles import Tile, sort_key

#: Per rule set's color letters, each tile's sort key (:class:`SortKeys`); at most
#: :data:`_SORT_KEYS_MAX` of each (a box holds at most 26 numbers of 8 colors and the joker).
_SORT_KEYS: dict[str, SortKeys] = {}
_SORT_KEYS_MAX = 1024

#: A whole number as an option value is written in ASCII digits (``int()`` would also
#: take "١٣", "1_3" or a 5,000-digit number).
_WHOLE = re.compile(r"[+-]?[0-9]{1,9}")

JokerLock = Literal["strict", "free"]
JokerSwapFrom = Literal["rack", "rack_or_table"]
GroupJokerRelease = Literal["either", "both"]

#: Color letters used when a rule set asks for ``colors = N`` instead of letters:
#: black, red, blue, orange, then green, yellow, purple, white.
DEFAULT_COLOR_LETTERS = "KRBOGYPW"

MAX_NUMBERS = 26
MAX_COLORS = len(DEFAULT_COLOR_LETTERS)
MAX_COPIES = 4
MAX_JOKERS = 4

_CHOICES: dict[str, tuple[str, ...]] = {
    "joker_lock": ("strict", "free"),
    "joker_swap_from": ("rack", "rack_or_table"),
    "group_joker_release": ("either", "both"),
}
_RANGES: dict[str, tuple[int, int]] = {
    "numbers": (3, MAX_NUMBERS),
    "copies": (1, MAX_COPIES),
    "jokers": (0, MAX_JOKERS),
    "initial_meld": (0, 1000),
    "joker_value": (0, 1000),
}


class SortKeys(dict[Tile, tuple[int, str, int]]):
    """Each tile's sort key under one rule set's color letters
    (:func:`rummikub.tiles.tiles.sort_key`), reckoned when first asked (:meth:`Rules.sort_keys`)."""

    def __init__(self, colors: str) -> None:
        super().__init__()
        self.colors = colors

    def __missing__(self, tile: Tile) -> tuple[int, str, int]:
        key = sort_key(tile, self.colors)
        if len(self) < _SORT_KEYS_MAX:
            self[tile] = key
        return key


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """A rule set; the defaults are the ``standard`` preset.

    >>> Rules().tile_count
    106
    >>> Rules(copies=9)
    Traceback (most recent call last):
    ...
    rummikub.core.errors.RulesError: copies=9 must be in the range 1-4
    """

    numbers: int = 13
    colors: str = "KRBO"
    copies: int = 2
    jokers: int = 2
    initial_meld: int = 30
    joker_value: int = 30
    open_then_play: bool = True
    joker_lock: JokerLock = "strict"
    joker_swap_from: JokerSwapFrom = "rack"
    group_joker_release: GroupJokerRelease = "either"

    def __post_init__(self) -> None:
        problems = [text for _, text in _problems(_values(self))]
        if problems:
            raise RulesError("; ".join(problems))

    # -- tile set -------------------------------------------------------------

    @property
    def tile_count(self) -> int:
        """How many tiles the box holds."""
        return self.numbers * len(self.colors) * self.copies + self.jokers

    @property
    def max_group(self) -> int:
        """The longest group: one tile of every color."""
        return len(self.colors)

    def tile_types(self) -> Iterator[Tile]:
        """Every numbered tile type, in color order then number order."""
        for color in self.colors:
            for number in range(1, self.numbers + 1):
                yield Tile(color, number)

    def copies_of(self, tile: Tile) -> int:
        """How many copies of ``tile`` the box holds."""
        return self.jokers if tile.is_joker else self.copies

    def tile_problem(self, tile: Tile) -> str | None:
        """Why ``tile`` is not in this rule set's box, or None."""
        if tile.is_joker:
            return None if self.jokers else "this rule set has no jokers"
        if tile.color not in self.colors:
            expected = ", ".join(self.colors)
            return f"unknown color {tile.color!r} (expected one of {expected})"
        if not 1 <= tile.number <= self.numbers:
            return f"number {tile.number} out of range 1-{self.numbers}"
        return None

    def sort_key(self, tile: Tile) -> tuple[int, str, int]:
        """Order tiles as players sort a rack: by color, then number, jokers last
        (:func:`rummikub.tiles.tiles.sort_key` with this rule set's colors)."""
        keys = _SORT_KEYS.get(self.colors) or self.sort_keys()
        try:
            return keys[tile]
        except TypeError:  # no tile: the reckoning says what is wrong
            return sort_key(tile, self.colors)

    def sort_keys(self) -> SortKeys:
        """Each tile's :meth:`sort_key`, reckoned once per color letters: every rack a
        playout's fast move reads is sorted again, and a look-up costs half the reckoning
        (as a sort's key, ``rules.sort_keys().__getitem__``, a fraction)."""
        keys = _SORT_KEYS.get(self.colors)
        if keys is None:
            if len(_SORT_KEYS) >= _SORT_KEYS_MAX:
                _SORT_KEYS.clear()
            keys = _SORT_KEYS.setdefault(self.colors, SortKeys(self.colors))
        return keys

    def tile_value(self, tile: Tile) -> int:
        """What a played tile is worth (RULES.md, rule 5)."""
        return self.joker_value if tile.is_joker else tile.number

    # -- variants -------------------------------------------------------------

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed; values are checked like ``Rules(...)``."""
        return with_options(self, changes)

    def options(self) -> dict[str, Any]:
        """Every option as a plain dict (for JSON / TOML output)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def preset_name(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return None


def _shown(value: object) -> str:
    """A value as a message quotes it: its repr, cut short if long (a huge integer's repr
    would even fail beyond Python's 4,300-digit limit)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        return "a number with too many digits"
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:36] + "..." + shown[-1]


def _values(rules: Rules) -> dict[str, Any]:
    return {name: getattr(rules, name) for name in OPTION_NAMES}


def _problems(values: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """Every problem of a rule set's values (one for each option of :data:`OPTION_NAMES`),
    as the option and the message."""
    for name, (low, high) in _RANGES.items():
        value = values[name]
        if isinstance(value, bool) or not isinstance(value, int):
            yield name, f"{name}={_shown(value)} must be a whole number in the range {low}-{high}"
        elif not low <= value <= high:
            yield name, f"{name}={_shown(value)} must be in the range {low}-{high}"
    colors = values["colors"]
    if not isinstance(colors, str):
        yield (
            "colors",
            f"colors={_shown(colors)} must be a string of color letters or a count 1-{MAX_COLORS}",
        )
    elif not 1 <= len(colors) <= MAX_COLORS:
        yield "colors", f"colors={_shown(colors)} must have 1-{MAX_COLORS} letters"
    elif not all(c.isascii() and c.isalpha() and c.isupper() for c in colors):
        yield "colors", f"colors={colors!r} must be upper-case letters A-Z"
    elif "J" in colors:
        yield "colors", f"colors={colors!r}: J is the joker, never a color letter"
    elif len(set(colors)) != len(colors):
        yield "colors", f"colors={colors!r} repeats a letter"
    if not isinstance(values["open_then_play"], bool):
        yield (
            "open_then_play",
            f"open_then_play={_shown(values['open_then_play'])} must be true or false",
        )
    for name, choices in _CHOICES.items():
        value = values[name]
        # Compared only as a string: an unhashable or odd value is simply not a choice.
        if not (isinstance(value, str) and value in choices):
            expected = " or ".join(repr(c) for c in choices)
            yield name, f"{name}={_shown(value)} must be {expected}"


#: Every option, in the order of the fields (and of RULES.md).
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))
#: The options that decide which tiles and melds exist (the box).
TILE_SET_OPTIONS = ("numbers", "colors")


STANDARD = Rules()

PRESETS: dict[str, Rules] = {
    "standard": STANDARD,
    "boxed": Rules(open_then_play=False, joker_swap_from="rack_or_table"),
    "book-1978": Rules(group_joker_release="both"),
    "free-jokers": Rules(joker_lock="free"),
}


def rules_argument(rules: object) -> Rules:
    """**The** check of a public function's ``rules`` argument: a :class:`Rules`, else
    :class:`TypeError` (``Meld.parse(text, rules="x")``).

    >>> rules_argument("standard")
    Traceback (most recent call last):
    TypeError: rules must be a Rules (e.g. preset('standard')), got str 'standard'
    """
    if not isinstance(rules, Rules):
        shown = repr(rules)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise TypeError(
            f"rules must be a Rules (e.g. preset('standard')), got {type(rules).__name__} {shown}"
        )
    return rules


def preset(name: str) -> Rules:
    """The rule set of a preset, by name (case-insensitive)."""
    if not isinstance(name, str):
        raise TypeError(f"a preset name is a string such as 'standard', got {_shown(name)}")
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise RulesError(unknown("preset", name, PRESETS)) from None


def rules_data(rules: Rules) -> dict[str, Any]:
    """The preset closest to ``rules`` and the options that differ from it ({} = standard).

    How puzzle files and game records write their ``rules`` table.
    """

    def differences(base: Rules) -> dict[str, Any]:
        return {
            name: getattr(rules, name)
            for name in OPTION_NAMES
            if getattr(rules, name) != getattr(base, name)
        }

    name = min(PRESETS, key=lambda n: len(differences(PRESETS[n])))
    options = differences(PRESETS[name])
    if name == "standard" and not options:
        return {}
    return {"preset": name, **options}


def _coerce(name: str, value: Any) -> Any:
    """Turn option values as written in TOML, JSON or ``KEY=VALUE`` into their types."""
    if name == "colors":
        if isinstance(value, int) and not isinstance(value, bool):
            if not 1 <= value <= MAX_COLORS:
                raise RulesError(f"colors={_shown(value)} must be in the range 1-{MAX_COLORS}")
            return DEFAULT_COLOR_LETTERS[:value]
        if isinstance(value, str):
            text = value.strip()
            if _WHOLE.fullmatch(text):
                return _coerce(name, int(text))
            # Letters outside ASCII stay as written (and are refused): "ﬁ".upper() is "FI".
            return text.upper() if text.isascii() else text
        return value
    if name == "open_then_play":
        if isinstance(value, str):
            lowered = value.strip().lower()
            if lowered in ("true", "yes", "1", "on"):
                return True
            if lowered in ("false", "no", "0", "off"):
                return False
        return value
    if name in _RANGES and isinstance(value, str):
        text = value.strip()
        return int(text) if _WHOLE.fullmatch(text) else text
    if name in _CHOICES and isinstance(value, str):
        return value.strip().lower().replace("-", "_")
    return value


def _read_options(
    base: Rules, options: Mapping[str, Any]
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The changes ``options`` make to ``base``, and every problem as the option and the
    message: each value is read, then the rule set they make together is checked as a whole.
    The problems come in the order the options are given."""
    problems: list[tuple[str, str]] = []
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if name not in OPTION_NAMES:
            problems.append((name, unknown("rule option", name, OPTION_NAMES)))
            continue
        try:
            changes[name] = _coerce(name, value)
        except RulesError as error:
            problems.append((name, str(error)))
    problems += _problems(_values(base) | changes)
    given = {name: index for index, name in enumerate(options)}
    problems.sort(key=lambda problem: given.get(problem[0], len(given)))
    return changes, problems


def with_options(base: Rules, options: Mapping[str, Any]) -> Rules:
    """``base`` with ``options`` applied; reports every unknown key and bad value at once.

    >>> with_options(STANDARD, {"initial_meld": "0"}).initial_meld
    0
    """
    changes, problems = _read_options(base, options)
    if problems:
        raise RulesError("; ".join(text for _, text in problems))
    return dataclasses.replace(base, **changes) if changes else base


class RulesReading(NamedTuple):
    """What :func:`read_rules` read (a named tuple: one is made for every puzzle read)."""

    #: The rule set, or None when anything is wrong.
    rules: Rules | None
    #: Every problem, each naming its place and option (``rules: copies=9 must be ...``).
    problems: tuple[str, ...]
    #: The options with a problem (``"preset"`` for the preset).
    bad: frozenset[str]
    #: The rule set to judge the rest of a document by despite the problems, so that those
    #: are reported too: the preset with the good options; None when the preset or the box
    #: itself (:data:`TILE_SET_OPTIONS`) is in doubt, since whether a tile exists depends
    #: on it. The rule set itself when nothing is wrong.
    nearest: Rules | None


def read_rules(
    table: object,
    *,
    preset_name: str | None = None,
    options: Mapping[str, Any] | None = None,
    where: str = "rules",
) -> RulesReading:
    """The rule set of a ``[rules]`` table (its ``preset``, default standard, and options),
    with ``preset_name`` in place of its preset and ``options`` over its own, as the command
    line's ``--rules`` and ``--rule`` are; ``where`` names the table in messages ("" for
    none). Values written as text (``KEY=VALUE``) are read as their types.

    >>> read_rules({"preset": "boxed", "initial_meld": 0}).rules.initial_meld
    0
    >>> read_rules({"copies": 9, "jokerz": 1}).problems  # doctest: +NORMALIZE_WHITESPACE
    ('rules: copies=9 must be in the range 1-4',
     "rules: unknown rule option 'jokerz': did you mean 'jokers'? (expected one of numbers,
     colors, copies, jokers, initial_meld, joker_value, open_then_play, joker_lock,
     joker_swap_from, group_joker_release)")
    """

    def placed(option: str, text: str) -> str:
        if option == "preset":
            return f"{where}.preset: {text}" if where else f"preset: {text}"
        return f"{where}: {text}" if where else text

    if not isinstance(table, Mapping):
        problem = f"expected a table, got {describe(table)}"
        return RulesReading(None, (placed("", problem),), frozenset(), None)
    name = table.get("preset", "standard") if preset_name is None else preset_name
    if not isinstance(name, str):
        problem = placed("preset", f"expected a string, got {describe(name)}")
        return RulesReading(None, (problem,), frozenset({"preset"}), None)
    try:
        base = preset(name)
    except RulesError as error:
        return RulesReading(None, (placed("preset", str(error)),), frozenset({"preset"}), None)
    given = {key: value for key, value in table.items() if key != "preset"}
    given.update(options or {})
    if not given:
        return RulesReading(base, (), frozenset(), base)
    changes, problems = _read_options(base, given)
    if not problems:
        rules = dataclasses.replace(base, **changes)
        return RulesReading(rules, (), frozenset(), rules)
    bad = frozenset(option for option, _ in problems)
    nearest: Rules | None = None
    if not bad & set(TILE_SET_OPTIONS):
        try:
            nearest = dataclasses.replace(
                base, **{key: value for key, value in changes.items() if key not in bad}
            )
        except RulesError:  # pragma: no cover - every option is checked on its own
            nearest = None
    return RulesReading(
        None, tuple(placed(option, text) for option, text in problems), bad, nearest
    )


def parse_option(text: str) -> tuple[str, str]:
    """Split a ``KEY=VALUE`` rule option from the command line."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise RulesError(f"rule option {text!r} must be written KEY=VALUE")
    return key.strip().lower().replace("-", "_"), value.strip()
