"""Card game records: a TOML or JSON file holding a whole card game, hand by hand.

The format (``rummikub-cards-game/1``, README "Card game records") holds the game (a
preset and the options that differ from it), the players, an optional seed, and one entry
per hand: the cards dealt (each player's hand, ``"?"`` where unknown, as at a real table),
the card turned up to start the discard pile, the stock in draw order when known, every
turn, and, once the hand is over, its scores and the totals. A turn is the draw (the
stock, with the card drawn when known, or a depth of the discard pile), the new melds, the
lay-offs (each the table meld's index and the meld as it is after it: a wild swap is a
lay-off whose natural card stands where the wild card stood), the discard and a "May I?"
claim (the seat that claimed the top discard, its penalty card when known, and
``claim_first = true``: the claim came before the mover's draw, as the rules order it; a
claim without it is an older record's, replayed with the mover's draw first).

Parsing is apart from legality, as for the tile records: :func:`loads` reads the notation
(a turn whose text is not cards stops the reading there, the error kept in
:attr:`CardRecord.problem`), and :mod:`rummikub.cards.game.engine` judges the turns.
:func:`save` writes a record whole under its lock (:mod:`rummikub.core.files`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from rummikub.cards.cards import Card, format_cards, parse_cards
from rummikub.cards.melds import RawCardMeld
from rummikub.cards.position import Draw
from rummikub.cards.rules import CardRules, most_players, preset, read_rules, rules_data
from rummikub.core.arguments import instance, one_of
from rummikub.core.documents import FORMATS, Format, describe
from rummikub.core.errors import RummikubError
from rummikub.play import records
from rummikub.play.records import MIN_PLAYERS as MIN_PLAYERS

__all__ = [
    "FORMAT",
    "CardRecord",
    "Deal",
    "Hand",
    "Layoff",
    "RecordError",
    "Turn",
    "dumps",
    "from_data",
    "load",
    "loads",
    "locked",
    "save",
    "to_data",
]

#: The value of a card record's ``format`` key.
FORMAT = "rummikub-cards-game/1"
_KEYS = ("format", "game", "players", "rules", "seed", "me", "seats", "hands")
_HAND_KEYS = ("dealt", "up", "stock", "scores", "totals", "turns")
_TURN_KEYS = (
    "player",
    "draw",
    "card",
    "melds",
    "layoffs",
    "discard",
    "may_i",
    "penalty",
    "claim_first",
)


class RecordError(records.RecordError):
    """A card record that cannot be read at all (its header or a hand's deal, not a turn)."""


@dataclass(frozen=True, slots=True)
class Layoff:
    """Cards laid off on table meld ``meld`` (its index before the turn): ``to`` is that
    meld as it is after the turn."""

    meld: int
    to: RawCardMeld


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: the draw, what was laid, the discard, and a "May I?" claim.

    ``card`` is the card drawn from the stock, when known (None for a pick from the pile,
    or for another player's draw at a real table); ``claim`` the seat that said "May I?"
    for the top discard this turn left, and ``penalty`` the stock card it took with it,
    when known. ``claim_first``: the claim came before the mover's draw, as the rules
    order it (the claimant took the stock's top card, the mover the next); false only for
    a claim read from a record written before, where the mover drew first (the record key
    ``claim_first = true`` says which). A turn with no discard has gone out (where the game
    allows it), or ended the hand with the stock run out."""

    draw: Draw = "stock"
    card: Card | None = None
    melds: tuple[RawCardMeld, ...] = ()
    layoffs: tuple[Layoff, ...] = ()
    discard: Card | None = None
    claim: int | None = None
    penalty: Card | None = None
    claim_first: bool = True


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one hand's deal: each seat's hand (None where unknown), the card turned
    up to start the discard pile, and the stock in draw order (None where unknown)."""

    hands: tuple[tuple[Card, ...] | None, ...]
    up: Card
    stock: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand as recorded: its deal, its turns, and the scores written for it (checked
    against the engine's where it knows every hand; taken as entered where it does not, at
    a real table)."""

    deal: Deal
    turns: tuple[Turn, ...] = ()
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class CardRecord:
    """A whole card game as written in a record file."""

    rules: CardRules
    players: tuple[str, ...]
    hands: tuple[Hand, ...] = ()
    seed: int | None = None
    #: At a real table, the seat whose cards are known (the one using this program).
    me: int | None = None
    #: Who plays each seat (``"person"`` or a strategy's name), for ``play --resume``.
    seats: tuple[str, ...] | None = None
    #: Why reading stopped early: the hand and turn whose text could not be read.
    problem: str | None = field(default=None, compare=False)

    @property
    def game(self) -> str:
        return self.rules.game

    def with_hands(self, hands: Sequence[Hand]) -> CardRecord:
        return replace(self, hands=tuple(hands), problem=None)

    def with_turn(self, turn: Turn) -> CardRecord:
        """The record with ``turn`` added to its last hand."""
        if not self.hands:
            raise RummikubError("the record has no hand dealt to add a turn to")
        last = self.hands[-1]
        return self.with_hands((*self.hands[:-1], replace(last, turns=(*last.turns, turn))))


# -- reading ------------------------------------------------------------------------------


def load(path: str | os.PathLike[str]) -> CardRecord:
    """Read a card record file; the format follows the suffix (``.json``, else TOML)."""
    data, name = records.load_data(path, RecordError)
    return from_data(data, name)


def loads(text: str | bytes, path: str = "<record>", *, fmt: Format = "toml") -> CardRecord:
    """Read a card record from text (or UTF-8 bytes); ``path`` names it in messages."""
    return from_data(records.loads_data(text, path, fmt, RecordError), path)


def from_data(data: Any, path: str = "<record>") -> CardRecord:
    """A card record from parsed TOML/JSON data; :class:`RecordError` with every problem of
    its header and deals at once."""
    data, problems = records.header(
        data,
        path,
        _KEYS,
        RecordError,
        expected=FORMAT,
        show=lambda written: repr(written) if isinstance(written, str) else describe(written),
        hints={"rummikub-game/1": " (a tile game's record: rummikub-game/1)"},
    )
    reading = read_rules(data.get("game"), data.get("rules"))
    problems += reading.problems
    rules = reading.rules or reading.nearest or preset("rummy")
    players = records.players(
        data.get("players"), problems, most=most_players(rules), holds=f"{rules.game} seats"
    )
    seed = records.whole_or_none(data, "seed", problems, describe)
    me = records.whole_or_none(data, "me", problems, describe)
    if me is not None and not 0 <= me < len(players):
        problems.append(f"me = {me}: expected a seat 0-{len(players) - 1}")
    seats = records.seats(data.get("seats"), len(players), problems)
    raw_hands = data.get("hands", [])
    if not isinstance(raw_hands, list):
        problems.append("hands: expected a list of hands ([[hands]] tables)")
        raw_hands = []
    hands: list[Hand] = []
    problem: str | None = None
    for number, raw in enumerate(raw_hands, start=1):
        if problems or problem is not None:
            break
        where = f"hand {number}"
        if not isinstance(raw, Mapping):
            problems.append(f"{where}: expected a table with the deal and turns")
            break
        for key in raw:
            if key not in _HAND_KEYS:
                problems.append(
                    f"{where}: unknown key {key!r} (expected one of {', '.join(_HAND_KEYS)})"
                )
        deal = _deal(raw, len(players), where, problems)
        scores = _scores(raw.get("scores"), len(players), where, problems)
        if deal is None:
            break
        turns: list[Turn] = []
        raw_turns = raw.get("turns", [])
        if not isinstance(raw_turns, list):
            problems.append(f"{where}: turns: expected a list of turns")
            break
        first = (number - 1) % len(players)
        for index, item in enumerate(raw_turns):
            try:
                turns.append(_turn(item, (first + index) % len(players), len(players)))
            except (RummikubError, ValueError) as error:
                problem = f"{where}, turn {index + 1}: {error}"
                break
        hands.append(Hand(deal, tuple(turns), scores if problem is None else None))
    if problems:
        raise RecordError("\n".join(f"{path}: {p}" for p in problems))
    return CardRecord(
        rules=rules,
        players=players,
        hands=tuple(hands),
        seed=seed,
        me=me,
        seats=seats,
        problem=problem,
    )


def _cards(raw: Any, where: str) -> tuple[Card, ...]:
    """Cards as typed: a string (``"7S 8S"``) or a list of strings."""
    if isinstance(raw, str):
        return parse_cards(raw)
    if isinstance(raw, list) and all(isinstance(word, str) for word in raw):
        return tuple(card for word in raw for card in parse_cards(word))
    raise ValueError(f"{where}: expected cards as a string such as '7S 8S 9S', got {raw!r:.60}")


def _card(raw: Any, where: str) -> Card:
    cards = _cards(raw, where)
    if len(cards) != 1:
        raise ValueError(f"{where} {raw!r:.40}: expected one card")
    return cards[0]


def _deal(raw: Mapping[str, Any], players: int, where: str, problems: list[str]) -> Deal | None:
    dealt = raw.get("dealt")
    if not isinstance(dealt, list) or len(dealt) != players:
        problems.append(
            f'{where}: dealt: expected one hand per player ({players}), e.g. ["AS 2S ...", "?"]'
        )
        return None
    hands: list[tuple[Card, ...] | None] = []
    found = len(problems)
    for seat, text in enumerate(dealt):
        if text == "?":
            hands.append(None)
            continue
        try:
            hands.append(_cards(text, f"{where}: dealt[{seat}]"))
        except (RummikubError, ValueError) as error:
            problems.append(f"{where}: dealt[{seat}]: {error}")
    up: Card | None = None
    try:
        up = _card(raw.get("up"), f"{where}: up")
    except (RummikubError, ValueError) as error:
        problems.append(f"{where}: up (the card turned up to start the pile): {error}")
    stock = None
    if raw.get("stock") is not None:
        try:
            stock = _cards(raw["stock"], f"{where}: stock")
        except (RummikubError, ValueError) as error:
            problems.append(f"{where}: stock: {error}")
    if len(problems) > found or up is None:
        return None
    return Deal(tuple(hands), up, stock)


def _scores(raw: Any, players: int, where: str, problems: list[str]) -> tuple[int, ...] | None:
    if raw is None:
        return None
    if (
        not isinstance(raw, list)
        or len(raw) != players
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in raw)
    ):
        problems.append(f"{where}: scores: expected one whole number per player ({players})")
        return None
    return tuple(raw)


def _turn(raw: Any, seat: int, players: int) -> Turn:
    if not isinstance(raw, Mapping):
        raise ValueError(f"expected a table with the draw, melds and discard, got {raw!r:.60}")
    unknown = [key for key in raw if key not in _TURN_KEYS]
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} (expected one of {', '.join(_TURN_KEYS)})")
    if "player" in raw and raw["player"] != seat:
        raise ValueError(f"player = {raw['player']!r}, but it is seat {seat}'s turn")
    draw = raw.get("draw", "stock")
    if draw != "stock" and (isinstance(draw, bool) or not isinstance(draw, int) or draw < 0):
        raise ValueError(f"draw = {draw!r}: expected 'stock' or a pile depth (0 = the top card)")
    card = None
    if raw.get("card") not in (None, "?"):
        if draw != "stock":
            raise ValueError("card: only a draw from the stock names the card drawn")
        card = _card(raw["card"], "card")
    melds = raw.get("melds", [])
    if not isinstance(melds, list) or not all(isinstance(m, str) for m in melds):
        raise ValueError("melds: expected a list of melds such as ['7S 8S 9S']")
    new = tuple(RawCardMeld.parse(text) for text in melds)
    layoffs = raw.get("layoffs", [])
    if not isinstance(layoffs, list):
        raise ValueError("layoffs: expected a list of {meld = INDEX, to = 'CARDS'}")
    laid: list[Layoff] = []
    for item in layoffs:
        if (
            not isinstance(item, Mapping)
            or set(item) != {"meld", "to"}
            or isinstance(item["meld"], bool)
            or not isinstance(item["meld"], int)
            or item["meld"] < 0
            or not isinstance(item["to"], str)
        ):
            raise ValueError(
                f"layoffs: expected {{meld = INDEX, to = 'THE MELD AFTER'}}, got {item!r:.60}"
            )
        laid.append(Layoff(item["meld"], RawCardMeld.parse(item["to"])))
    if len({layoff.meld for layoff in laid}) < len(laid):
        raise ValueError("layoffs: one entry per table meld (its whole meld after the turn)")
    discard = None if raw.get("discard") is None else _card(raw["discard"], "discard")
    claim = raw.get("may_i")
    if claim is not None and (
        isinstance(claim, bool) or not isinstance(claim, int) or not 0 <= claim < players
    ):
        raise ValueError(f"may_i = {claim!r}: expected the seat (0-{players - 1}) that claimed")
    penalty = None
    if raw.get("penalty") not in (None, "?"):
        if claim is None:
            raise ValueError('penalty: only a "May I?" claim (may_i = SEAT) takes a penalty card')
        penalty = _card(raw["penalty"], "penalty")
    first = raw.get("claim_first", False)
    if not isinstance(first, bool):
        raise ValueError(f"claim_first = {first!r:.40}: expected true or false")
    if first and claim is None:
        raise ValueError('claim_first: only a "May I?" claim (may_i = SEAT) comes before the draw')
    # A claim written without claim_first is an older record's: the mover drew first.
    return Turn(draw, card, new, tuple(laid), discard, claim, penalty, claim is None or first)


# -- writing ------------------------------------------------------------------------------


def to_data(record: CardRecord, totals: Sequence[Sequence[int] | None] = ()) -> dict[str, Any]:
    """A record as plain data with the keys of a record file (reads back with
    :func:`from_data`). ``totals`` (the engine's, hand by hand) are written beside each
    finished hand's scores for the reader; they are not read back."""
    instance(record, CardRecord, "record", "load_record(path)")
    data: dict[str, Any] = {"format": FORMAT, "game": record.game, "players": list(record.players)}
    if record.seed is not None:
        data["seed"] = record.seed
    if record.me is not None:
        data["me"] = record.me
    if record.seats is not None:
        data["seats"] = list(record.seats)
    options = rules_data(record.rules)
    if options:
        data["rules"] = options
    hands = []
    n = len(record.players)
    for number, hand in enumerate(record.hands):
        item: dict[str, Any] = {
            "dealt": ["?" if cards is None else format_cards(cards) for cards in hand.deal.hands],
            "up": str(hand.deal.up),
        }
        if hand.deal.stock is not None:
            item["stock"] = format_cards(hand.deal.stock)
        if hand.scores is not None:
            item["scores"] = list(hand.scores)
            if number < len(totals) and totals[number] is not None:
                item["totals"] = list(totals[number] or ())
        item["turns"] = [
            _turn_data(turn, (number + index) % n) for index, turn in enumerate(hand.turns)
        ]
        hands.append(item)
    data["hands"] = hands
    return data


def _turn_data(turn: Turn, seat: int) -> dict[str, Any]:
    data: dict[str, Any] = {"player": seat, "draw": turn.draw}
    if turn.card is not None:
        data["card"] = str(turn.card)
    if turn.melds:
        data["melds"] = [str(meld) for meld in turn.melds]
    if turn.layoffs:
        data["layoffs"] = [{"meld": lay.meld, "to": str(lay.to)} for lay in turn.layoffs]
    if turn.discard is not None:
        data["discard"] = str(turn.discard)
    if turn.claim is not None:
        data["may_i"] = turn.claim
        if turn.penalty is not None:
            data["penalty"] = str(turn.penalty)
        if turn.claim_first:
            data["claim_first"] = True
    return data


def dumps(
    record: CardRecord, fmt: Format = "toml", totals: Sequence[Sequence[int] | None] = ()
) -> str:
    """A record as the text of a record file (``totals`` as for :func:`to_data`)."""
    one_of(fmt, "format", FORMATS)
    data = to_data(record, totals)
    if fmt == "json":
        return records.json_text(data)
    lines = [f"{key} = {_toml(value)}" for key, value in data.items() if key not in _TABLES]
    if "rules" in data:
        lines += ["", "[rules]"]
        lines += [f"{key} = {_toml(value)}" for key, value in data["rules"].items()]
    for number, hand in enumerate(data["hands"], start=1):
        lines += ["", f"[[hands]]  # hand {number}"]
        lines += [f"{key} = {_toml(value)}" for key, value in hand.items() if key != "turns"]
        for index, turn in enumerate(hand["turns"], start=1):
            name = record.players[turn["player"]]
            lines += ["", f"[[hands.turns]]  # hand {number}, turn {index}: {name}"]
            lines += [f"{key} = {_toml(value)}" for key, value in turn.items()]
    return "\n".join(lines) + "\n"


_TABLES = ("rules", "hands")


def _toml(value: Any) -> str:
    return records.toml_value(value)


@contextlib.contextmanager
def locked(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the record's lock (:func:`rummikub.core.files.locked`) across a read, a change
    and :func:`save`, so that two writers lose no turn of each other's."""
    with records.locked(path, RecordError):
        yield


def save(
    record: CardRecord,
    path: str | os.PathLike[str],
    *,
    totals: Sequence[Sequence[int] | None] = (),
    expect: CardRecord | None = None,
) -> None:
    """Write a record whole (:func:`rummikub.core.files.write_atomically`: a temporary file
    beside it, then one rename; under its lock). With ``expect`` (the record as last read),
    a file that no longer holds it is refused (another program changed it since)."""
    if not isinstance(record, CardRecord):
        raise TypeError(f"save() takes a CardRecord, got {type(record).__name__}")
    records.write(
        record,
        os.fspath(path),
        partial(_text, record, totals),
        load=load,
        expect=expect,
        error=RecordError,
    )


def _text(record: CardRecord, totals: Sequence[Sequence[int] | None], fmt: Format) -> str:
    return dumps(record, fmt, totals)
