"""Card puzzle files: ``game = "500-rum"`` plus a position, maybe a proposed turn and a known
answer (CARDS.md section 4), in TOML or JSON. Read with the care of tile puzzles: every problem
in a file at once, each naming its key and quoting the text.

>>> text = 'game = "rummy"\\nhand = "7S 7H 1X"\\ntable = ["5S 6S 8S"]\\n[expect]\\npoints = -1'
>>> try:
...     loads(text, "p.toml")
... except PuzzleError as error:
...     print(error)
p.toml: hand "7S 7H 1X": invalid card '1X': unknown suit 'X' (expected one of S, H, D, C)
p.toml: table[0] "5S 6S 8S": not a run (not in sequence) and not a set (not all of one rank)
p.toml: expect.points: expected a whole number >= 0, got integer -1
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from rummikub.cards.cards import Card, card_words
from rummikub.cards.melds import CardMeld, RawCardMeld
from rummikub.cards.position import CardPosition, Draw, deal_problem, no_jokers, too_often
from rummikub.cards.rules import CONTRACTS, CardRules, read_rules
from rummikub.core.documents import (
    TOO_DEEP,
    describe,
    format_of,
    nested_too_deep,
    parse_document,
    quote,
    read_document,
)
from rummikub.core.errors import MeldError, NotationError, PuzzleError, unknown

KEYS = (
    "game",
    "title",
    "description",
    "hand",
    "table",
    "opened",
    "deal",
    "discard",
    "drawn",
    "after",
    "after_discard",
    "after_draw",
    "rules",
    "expect",
)
EXPECT_KEYS = ("points", "penalty", "status")


@dataclass(frozen=True, slots=True)
class CardExpect:
    """A known answer: points laid and penalty left by the best turn, or "no lay-down"."""

    points: int | None = None
    penalty: int | None = None
    status: Literal["no_move"] | None = None

    def matches(self, status: str, points: int, penalty: int) -> bool:
        if self.status == "no_move" and status != "no_move":
            return False
        if self.points is not None and points != self.points:
            return False
        return self.penalty is None or penalty == self.penalty

    def __str__(self) -> str:
        parts = ["no lay-down"] if self.status else []
        if self.points is not None:
            parts.append(f"{self.points} points")
        if self.penalty is not None:
            parts.append(f"penalty {self.penalty}")
        return ", ".join(parts) or "anything"


@dataclass(frozen=True, slots=True)
class CardPuzzle:
    path: str
    position: CardPosition
    title: str | None = None
    description: str | None = None
    after: tuple[RawCardMeld, ...] | None = None
    after_discard: Card | None = None
    after_draw: Draw | None = None
    expect: CardExpect | None = None


@dataclass(frozen=True, slots=True)
class CardOverrides:
    """Command-line choices: the game, rule options (``--rule``), opened."""

    game: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    opened: bool | None = None


def is_card_data(data: Any) -> bool:
    return isinstance(data, Mapping) and "game" in data


def is_card_file(path: str) -> bool:
    """Whether ``path`` is a card puzzle (a readable file with a ``game`` key). Anything that
    does not parse is not: the tile puzzle reader then reports it, with its limits."""
    try:
        return is_card_data(read_document(path))
    except PuzzleError:
        return False


def load(path: str, *, overrides: CardOverrides | None = None) -> CardPuzzle:
    """Read and check a card puzzle file (:mod:`rummikub.core.documents` reads it)."""
    return from_data(read_document(path), path, overrides=overrides)


def loads(text: str | bytes, path: str, *, overrides: CardOverrides | None = None) -> CardPuzzle:
    """Read and check a card puzzle from text; ``path`` names it (and its suffix, the format)."""
    data = parse_document(text, path, fmt=format_of(path))
    return from_data(data, path, overrides=overrides)


def from_data(data: Any, path: str, *, overrides: CardOverrides | None = None) -> CardPuzzle:
    """Check a card puzzle given as parsed TOML/JSON data (also an inline position's)."""
    if not isinstance(data, Mapping):
        raise PuzzleError(path, [f"expected a table of keys at the top, got {describe(data)}"])
    if nested_too_deep(data):
        raise PuzzleError(path, [TOO_DEEP])
    return _Reader(path, overrides or CardOverrides()).read(data)


class _Reader:
    def __init__(self, path: str, overrides: CardOverrides) -> None:
        self.path = path
        self.overrides = overrides
        self.problems: list[str] = []

    def read(self, data: Mapping[str, Any]) -> CardPuzzle:
        for key in data:
            if key not in KEYS:
                self.problems.append(unknown("key", key, KEYS))
        rules = self._rules(data)
        title = self._str(data, "title")
        description = self._str(data, "description")
        opened = self._bool(data, "opened", False)
        if self.overrides.opened is not None:
            opened = self.overrides.opened
        drawn = self._bool(data, "drawn", True)
        deal = self._deal(data, rules)
        if "hand" not in data:
            self.problems.append("missing key 'hand' (the cards of the player to move)")
        hand = self._cards(data.get("hand", ""), "hand", rules)
        discard = self._cards(data.get("discard", []), "discard", rules)
        table = self._table(data.get("table", []), rules)
        after = self._after(data["after"]) if "after" in data else None
        after_discard = self._one_card(data, "after_discard", rules)
        after_draw = self._after_draw(data)
        expect = self._expect(data["expect"]) if "expect" in data else None
        if rules is not None:
            self._counts(hand, table, discard, rules)
        if self.problems or rules is None:
            raise PuzzleError(self.path, self.problems)
        position = CardPosition(
            rules,
            hand,
            tuple(m for m in table if isinstance(m, CardMeld)),
            opened,
            deal,
            discard,
            drawn,
        )
        return CardPuzzle(
            self.path, position, title, description, after, after_discard, after_draw, expect
        )

    # -- keys ---------------------------------------------------------------------------

    def _str(self, data: Mapping[str, Any], key: str) -> str | None:
        value = data.get(key)
        if value is None or isinstance(value, str):
            return value
        self.problems.append(f"{key}: expected a string, got {describe(value)}")
        return None

    def _bool(self, data: Mapping[str, Any], key: str, default: bool) -> bool:
        value = data.get(key, default)
        if isinstance(value, bool):
            return value
        self.problems.append(f"{key}: expected true or false, got {describe(value)}")
        return default

    def _rules(self, data: Mapping[str, Any]) -> CardRules | None:
        """The rule set; with a bad option the cards are still judged (by the preset with
        the good values), so that the file's other problems are reported too."""
        reading = read_rules(
            self.overrides.game or data.get("game"),
            data.get("rules"),
            options=self.overrides.options,
        )
        self.problems += reading.problems
        return reading.nearest

    def _deal(self, data: Mapping[str, Any], rules: CardRules | None) -> int | None:
        deal = data.get("deal")
        if deal is not None and (
            isinstance(deal, bool) or not isinstance(deal, int) or deal not in CONTRACTS
        ):
            self.problems.append(f"deal: expected a deal number 1-7, got {describe(deal)}")
            return None
        problem = None if rules is None else deal_problem(deal, rules)
        if problem is not None:
            self.problems.append(problem)
            return None
        return deal

    # -- cards and melds ------------------------------------------------------------------

    def _cards(self, raw: Any, key: str, rules: CardRules | None) -> tuple[Card, ...]:
        if isinstance(raw, str):
            words = [(key, raw, w) for w in card_words(raw)]
        elif isinstance(raw, list):
            words = []
            for index, item in enumerate(raw):
                if isinstance(item, str):
                    words += [(f"{key}[{index}]", item, w) for w in card_words(item)]
                else:
                    self.problems.append(
                        f"{key}[{index}]: expected a card string, got {describe(item)}"
                    )
        else:
            self.problems.append(
                f"{key}: expected a string of cards or a list of cards, got {describe(raw)}"
            )
            return ()
        cards: list[Card] = []
        for where, text, word in words:
            try:
                card = Card.parse(word)
            except NotationError as error:
                self.problems.append(f"{where} {quote(text)}: {error}")
                continue
            if self._card_ok(card, where, text, rules):
                cards.append(card)
        return tuple(cards)

    def _card_ok(self, card: Card, where: str, text: str, rules: CardRules | None) -> bool:
        if rules is not None and card.is_joker and rules.jokers == 0:
            self.problems.append(f"{where} {quote(text)}: {no_jokers(rules)}")
            return False
        return True

    def _raw_meld(self, item: Any, where: str) -> tuple[RawCardMeld, str] | None:
        if isinstance(item, list) and all(isinstance(c, str) for c in item):
            text = " ".join(item)
        elif isinstance(item, str):
            text = item
        else:
            self.problems.append(
                f"{where}: expected a meld (a string or a list of cards), got {describe(item)}"
            )
            return None
        try:
            return RawCardMeld.parse(text), text
        except NotationError as error:
            self.problems.append(f"{where} {quote(text)}: {error}")
            return None

    def _table(self, raw: Any, rules: CardRules | None) -> list[CardMeld | RawCardMeld]:
        if not isinstance(raw, list):
            self.problems.append(f"table: expected a list of melds, got {describe(raw)}")
            return []
        melds: list[CardMeld | RawCardMeld] = []
        for index, item in enumerate(raw):
            parsed = self._raw_meld(item, f"table[{index}]")
            if parsed is None:
                continue
            meld, text = parsed
            if rules is None:
                continue
            if not all(self._card_ok(c, f"table[{index}]", text, rules) for c in meld.cards):
                continue
            try:
                melds.append(meld.read(rules))
            except MeldError as error:
                self.problems.append(f"table[{index}] {quote(text)}: {error}")
                melds.append(meld)
        return melds

    def _after(self, raw: Any) -> tuple[RawCardMeld, ...] | None:
        if not isinstance(raw, list):
            self.problems.append(f"after: expected a list of melds, got {describe(raw)}")
            return None
        parsed = [self._raw_meld(item, f"after[{i}]") for i, item in enumerate(raw)]
        return tuple(p[0] for p in parsed if p is not None)

    def _one_card(self, data: Mapping[str, Any], key: str, rules: CardRules | None) -> Card | None:
        raw = data.get(key)
        if raw is None:
            return None
        if not isinstance(raw, str):
            self.problems.append(f"{key}: expected a card, got {describe(raw)}")
            return None
        words = card_words(raw)
        if len(words) != 1:
            self.problems.append(f"{key} {quote(raw)}: expected one card, such as 'KH'")
            return None
        try:
            return Card.parse(words[0])
        except NotationError as error:
            self.problems.append(f"{key} {quote(raw)}: {error}")
            return None

    def _after_draw(self, data: Mapping[str, Any]) -> Draw | None:
        raw = data.get("after_draw")
        if raw is None or raw == "stock":
            return None if raw is None else "stock"
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
            self.problems.append(
                f'after_draw: expected "stock" or a pile depth >= 0, got {describe(raw)}'
            )
            return None
        return raw

    def _counts(
        self,
        hand: tuple[Card, ...],
        table: list[CardMeld | RawCardMeld],
        discard: tuple[Card, ...],
        rules: CardRules,
    ) -> None:
        counts = Counter(hand) + Counter(discard) + Counter(c for m in table for c in m.cards)
        self.problems += too_often(counts, rules)

    def _expect(self, raw: Any) -> CardExpect | None:
        if not isinstance(raw, Mapping):
            self.problems.append(f"expect: expected a table, got {describe(raw)}")
            return None
        for key in raw:
            if key not in EXPECT_KEYS:
                self.problems.append(f"expect: {unknown('key', key, EXPECT_KEYS)}")
        numbers: dict[str, int | None] = {}
        for key in ("points", "penalty"):
            value = raw.get(key)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0
            ):
                self.problems.append(
                    f"expect.{key}: expected a whole number >= 0, got {describe(value)}"
                )
                value = None
            numbers[key] = value
        status = raw.get("status")
        if status is not None and status != "no_move":
            self.problems.append(f"expect.status: expected 'no_move', got {describe(status)}")
            status = None
        if status == "no_move" and numbers["points"]:
            self.problems.append("expect: status 'no_move' lays nothing, so points are 0")
        if not raw.keys() & set(EXPECT_KEYS):
            self.problems.append("expect: give points, penalty or status = 'no_move'")
        return CardExpect(numbers["points"], numbers["penalty"], "no_move" if status else None)
