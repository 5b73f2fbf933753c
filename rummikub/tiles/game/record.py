"""Game records (the PGN of this project): a TOML or JSON file holding a whole hand.

A record holds the rule set, the players, an optional seed, the deal, every turn and, once
the hand has ended, the result. Parsing is apart from legality: :func:`loads` reads the
notation (a turn whose text is not tiles stops the reading there, with the error kept in
:attr:`Record.problem`), and :mod:`rummikub.tiles.game.engine` judges the turns.

Writes are atomic (:func:`save`): the text goes to a temporary file in the same folder,
which then replaces the record in one step, so a crash mid-write leaves the old record.
Writers take the record's lock (:func:`locked`, a hidden ``.NAME.lock`` beside it): a
command that reads a record, adds a turn and writes it back holds the lock throughout, so
two at once never lose a turn. A write follows a symlink (the target is written, the link
stays), refuses a read-only record and keeps the file's mode; its temporary file
(``.NAME.tmp``, one name per record) is reused, so one left by a killed writer is
overwritten by the next.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Literal

from rummikub.core.arguments import instance, one_of
from rummikub.core.documents import FORMATS, Format
from rummikub.core.errors import RummikubError
from rummikub.core.files import LOCK_WAIT as LOCK_WAIT
from rummikub.play import records
from rummikub.tiles.melds import KINDS, RawMeld
from rummikub.tiles.notation import parse_meld, parse_rack
from rummikub.tiles.rules import STANDARD, Rules, read_rules, rules_data
from rummikub.tiles.tiles import Tile, format_tiles

__all__ = [
    "FORMAT",
    "MARKS",
    "Deal",
    "Draw",
    "Note",
    "Pass",
    "Play",
    "Record",
    "RecordError",
    "Result",
    "Turn",
    "Variation",
    "dumps",
    "load",
    "loads",
    "locked",
    "move_data",
    "save",
]

#: The value of a record's ``format`` key; a later incompatible format gets a new number.
FORMAT = "rummikub-game/1"
RACK_SIZE = 14
#: A game has 2-4 players (RULES.md, "The game").
MIN_PLAYERS = 2
MAX_PLAYERS = 4
Ending = Literal["went_out", "pool_empty"]
_KEYS = (
    "format",
    "players",
    "rules",
    "seed",
    "rack_size",
    "me",
    "seats",
    "annotator",
    "deal",
    "turns",
    "result",
)
_DEAL_KEYS = ("racks", "pool")
_RESULT_KEYS = ("ending", "winners", "scores")
#: The keys of a turn: its move, and its annotations (all optional).
_MOVE_KEYS = ("play", "draw", "pass")
_NOTE_KEYS = ("mark", "comment", "win", "lost", "luck", "variations")
_VARIATION_KEYS = ("moves", "comment")
#: A turn's mark, as annotated games write them (PGN's move suffixes): a brilliant move, a
#: good one, an interesting one, an inaccuracy, a mistake, a blunder.
MARKS = ("!!", "!", "!?", "?!", "?", "??")


class RecordError(records.RecordError):
    """A record file that cannot be read at all (its header, not a turn)."""


@dataclass(frozen=True, slots=True)
class Play:
    """The player laid tiles: ``table`` is the whole new table."""

    table: tuple[RawMeld, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """The player drew a tile from the pool; ``tile`` is None when it is not known."""

    tile: Tile | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """The pool is empty and the player does not play."""


Turn = Play | Draw | Pass


@dataclass(frozen=True, slots=True)
class Variation:
    """An alternative line: moves in turn order from the player of the turn it hangs on, the
    first one instead of that turn's move."""

    moves: tuple[Turn, ...]
    comment: str | None = None


@dataclass(frozen=True, slots=True)
class Note:
    """The annotations of one turn, all optional: a mark (:data:`MARKS`), a comment, the
    review's figures (the mover's chance to win before the turn, the equity the move lost, a
    draw's luck) and variations."""

    mark: str | None = None
    comment: str | None = None
    win: float | None = None
    lost: float | None = None
    luck: float | None = None
    variations: tuple[Variation, ...] = ()

    @property
    def empty(self) -> bool:
        return self == Note()

    def to_data(self) -> dict[str, Any]:
        """The note's keys as a record's turn holds them (``game show --json`` gives them)."""
        return _note_data(self)


@dataclass(frozen=True, slots=True)
class Deal:
    """The tiles dealt: one rack per seat (None where unknown) and the pool's order (None when
    unknown, as at a real table)."""

    racks: tuple[tuple[Tile, ...] | None, ...]
    pool: tuple[Tile, ...] | None = None


@dataclass(frozen=True, slots=True)
class Result:
    """How the hand ended. ``scores`` is None when some rack is unknown (a real table)."""

    ending: Ending
    winners: tuple[int, ...]
    scores: tuple[float, ...] | None = None

    def to_data(self) -> dict[str, Any]:
        """The result as ``game show --json`` and the web's game routes give it."""
        scores = None if self.scores is None else list(self.scores)
        return {"ending": self.ending, "winners": list(self.winners), "scores": scores}


@dataclass(frozen=True, slots=True)
class Record:
    """A whole hand as written in a record file."""

    players: tuple[str, ...]
    rules: Rules
    deal: Deal
    turns: tuple[Turn, ...] = ()
    seed: int | None = None
    rack_size: int = RACK_SIZE
    #: At a real table, the seat whose rack is known (the one using this program).
    me: int | None = None
    #: Who plays each seat, for ``rummikub play --resume``: ``"person"`` for the one at the
    #: terminal, else a strategy's name. None for a record written by ``rummikub game``.
    seats: tuple[str, ...] | None = None
    result: Result | None = None
    #: Why reading stopped early: the turn (numbered from 1) whose text could not be read.
    problem: str | None = field(default=None, compare=False)
    #: The turns' annotations: ``notes[i]`` belongs to turn ``i + 1`` (None: none). Kept
    #: canonical (no trailing None, no empty note), so equal annotations compare equal.
    notes: tuple[Note | None, ...] = ()
    #: Who or what wrote the annotations (e.g. ``rummikub game annotate`` and its budget).
    annotator: str | None = None

    def __post_init__(self) -> None:
        notes = [None if n is None or n.empty else n for n in self.notes[: len(self.turns)]]
        while notes and notes[-1] is None:
            notes.pop()
        object.__setattr__(self, "notes", tuple(notes))

    def with_turns(self, turns: Sequence[Turn], result: Result | None = None) -> Record:
        """The record with these turns (the notes of turns beyond them dropped)."""
        return replace(self, turns=tuple(turns), result=result, problem=None)

    def note(self, number: int) -> Note | None:
        """The annotations of turn ``number`` (from 1), or None."""
        return self.notes[number - 1] if 0 < number <= len(self.notes) else None

    def with_notes(self, notes: Sequence[Note | None], annotator: str | None = None) -> Record:
        """The record with these annotations (one per turn, from turn 1)."""
        return replace(self, notes=tuple(notes), annotator=annotator)


# -- reading ------------------------------------------------------------------------------


def load(path: str | os.PathLike[str]) -> Record:
    """Read a record file; the format follows the suffix (``.json``, else TOML)."""
    data, name = records.load_data(path, RecordError)
    return from_data(data, name)


def loads(text: str | bytes, path: str = "<record>", *, fmt: Format = "toml") -> Record:
    """Read a record from text (or UTF-8 bytes); ``path`` names it in messages. Read as
    every document is (:mod:`rummikub.core.documents`): a size limit, UTF-8 and a byte
    order mark, numbers too long, nesting too deep."""
    return from_data(records.loads_data(text, path, fmt, RecordError), path)


def from_data(data: Any, path: str = "<record>") -> Record:
    """A record from parsed TOML/JSON data."""
    data, problems = records.header(data, path, _KEYS, RecordError, expected=FORMAT, default=FORMAT)
    players = records.players(data.get("players"), problems, most=MAX_PLAYERS, holds="a game has")
    rules = _rules(data.get("rules", {}), problems)
    seed = records.whole_or_none(data, "seed", problems)
    rack_size = records.whole_or_none(data, "rack_size", problems)
    me = records.whole_or_none(data, "me", problems)
    if me is not None and not 0 <= me < max(len(players), 1):
        problems.append(f"me = {me}: expected a seat 0-{len(players) - 1}")
    seats = records.seats(data.get("seats"), len(players), problems)
    annotator = data.get("annotator")
    if annotator is not None and (
        not isinstance(annotator, str) or records.text_problem(annotator)
    ):
        problems.append("annotator: expected one line of text")
        annotator = None
    deal = _deal(data.get("deal"), len(players), rules, problems)
    if problems:
        raise RecordError("\n".join(f"{path}: {p}" for p in problems))
    raw_turns = data.get("turns", [])
    if not isinstance(raw_turns, list):
        raise RecordError(f"{path}: turns: expected a list of turns")
    turns: list[Turn] = []
    notes: list[Note | None] = []
    problem: str | None = None
    for number, raw in enumerate(raw_turns, start=1):
        seat = (number - 1) % len(players)
        try:
            turn = _turn(raw, seat, rules, notes=True)
            note = _note(raw, seat, len(players), rules)
        except (RummikubError, ValueError) as error:
            problem = f"turn {number}: {error}"
            break
        turns.append(turn)
        notes.append(note)
    result = None
    if problem is None and "result" in data:
        try:
            result = _result(data["result"])
        except ValueError as error:
            problem = f"result: {error}"
    return Record(
        players=players,
        rules=rules,
        deal=deal,
        turns=tuple(turns),
        seed=seed,
        rack_size=RACK_SIZE if rack_size is None else rack_size,
        me=me,
        seats=seats,
        result=result,
        problem=problem,
        notes=tuple(notes),
        annotator=annotator,
    )


def _rules(raw: Any, problems: list[str]) -> Rules:
    reading = read_rules(raw)
    problems += reading.problems
    return reading.rules if reading.rules is not None else STANDARD


def _tiles(raw: Any, where: str, rules: Rules) -> tuple[Tile, ...]:
    """Tiles as typed, in the quick notation (ranges, group shorthands) as everywhere: a
    record is also written by hand, at a real table. Whether they are in the box is for
    the engine to judge."""
    if isinstance(raw, str):
        return parse_rack(raw, rules, box=False)
    if isinstance(raw, list) and all(isinstance(w, str) for w in raw):
        return tuple(t for word in raw for t in parse_rack(word, rules, box=False))
    raise ValueError(f"{where}: expected tiles as a string, got {raw!r}")


def _deal(raw: Any, players: int, rules: Rules, problems: list[str]) -> Deal:
    if raw is None:
        return Deal(racks=(None,) * players)
    if not isinstance(raw, Mapping) or not isinstance(raw.get("racks"), list):
        problems.append('deal: expected a table with racks = ["R1 R2 ...", "?", ...]')
        return Deal(racks=(None,) * players)
    for key in raw:
        if key not in _DEAL_KEYS:
            problems.append(f"deal: unknown key {key!r} (expected one of {', '.join(_DEAL_KEYS)})")
    racks: list[tuple[Tile, ...] | None] = []
    for seat, text in enumerate(raw["racks"]):
        if text == "?":
            racks.append(None)
            continue
        try:
            racks.append(_tiles(text, f"deal.racks[{seat}]", rules))
        except (RummikubError, ValueError) as error:
            problems.append(f"deal.racks[{seat}] {text!r}: {error}")
            racks.append(None)
    if len(racks) != players:
        problems.append(f"deal.racks: {len(racks)} racks for {players} players")
    pool = None
    if "pool" in raw:
        try:
            pool = _tiles(raw["pool"], "deal.pool", rules)
        except (RummikubError, ValueError) as error:
            problems.append(f"deal.pool: {error}")
    return Deal(tuple(racks), pool)


def _turn(raw: Any, seat: int, rules: Rules, *, notes: bool = False) -> Turn:
    """A turn's move; with ``notes`` its annotations' keys are allowed beside it (a turn of
    the record; a move of a variation has none)."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"expected a table with play, draw or pass, got {raw!r}")
    actions = [key for key in _MOVE_KEYS if key in raw]
    allowed = (*_MOVE_KEYS, "player", *(_NOTE_KEYS if notes else ()))
    unknown = [key for key in raw if key not in allowed]
    if unknown or len(actions) != 1:
        also = ", ".join(_NOTE_KEYS) if notes else ""
        raise ValueError(
            f"expected exactly one of play, draw or pass (and player{', ' + also if also else ''})"
            f", got {_brief(raw)}"
        )
    if "player" in raw and raw["player"] != seat:
        raise ValueError(f"player = {raw['player']!r}, but it is seat {seat}'s turn")
    if "pass" in raw:
        if raw["pass"] is not True:
            raise ValueError("pass: expected true")
        return Pass()
    if "draw" in raw:
        text = raw["draw"]
        if text in ("?", True):
            return Draw(None)
        tiles = _tiles(text, "draw", rules)
        if len(tiles) != 1:
            raise ValueError(f"draw {text!r}: expected one tile (or '?' when unknown)")
        return Draw(tiles[0])
    melds = raw["play"]
    if not isinstance(melds, list):
        raise ValueError("play: expected the new table as a list of melds")
    return Play(tuple(_raw_meld(item, rules) for item in melds))


def _brief(raw: Any) -> str:
    shown = repr(raw)
    return shown if len(shown) <= 120 else shown[:117] + "..."


def _note(raw: Mapping[str, Any], seat: int, players: int, rules: Rules) -> Note | None:
    """A turn's annotations (None when it has none)."""
    if not any(key in raw for key in _NOTE_KEYS):
        return None
    mark = raw.get("mark")
    if mark is not None and mark not in MARKS:
        raise ValueError(f"mark {_brief(mark)}: expected one of {', '.join(MARKS)}")
    variations = raw.get("variations", [])
    if not isinstance(variations, list):
        raise ValueError("variations: expected a list of {moves = [...], comment = ...}")
    return Note(
        mark=mark,
        comment=_comment(raw.get("comment"), "comment"),
        win=_share(raw.get("win"), "win", 0.0),
        lost=_share(raw.get("lost"), "lost", 0.0),
        luck=_share(raw.get("luck"), "luck", -1.0),
        variations=tuple(
            _variation(v, f"variations[{i}]", seat, players, rules)
            for i, v in enumerate(variations)
        ),
    )


def _comment(raw: Any, where: str) -> str | None:
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise ValueError(f"{where}: expected text, got {_brief(raw)}")
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(
            f"{where} {records.shown(raw)}: not valid text (a lone surrogate such as \\ud800)"
        ) from None
    return raw


def _share(raw: Any, where: str, low: float) -> float | None:
    """A chance (0 to 1), or a luck (-1 to 1)."""
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float) or not low <= raw <= 1:
        raise ValueError(f"{where} = {_brief(raw)}: expected a number from {low:g} to 1")
    return float(raw)


def _variation(raw: Any, where: str, seat: int, players: int, rules: Rules) -> Variation:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("moves"), list) or not raw["moves"]:
        raise ValueError(f"{where}: expected a table with moves = [{{play = [...]}}, ...]")
    for key in raw:
        if key not in _VARIATION_KEYS:
            raise ValueError(
                f"{where}: unknown key {key!r} (expected one of {', '.join(_VARIATION_KEYS)})"
            )
    moves = []
    for step, move in enumerate(raw["moves"]):
        try:
            moves.append(_turn(move, (seat + step) % players, rules))
        except (RummikubError, ValueError) as error:
            raise ValueError(f"{where}.moves[{step}]: {error}") from None
    return Variation(tuple(moves), _comment(raw.get("comment"), f"{where}.comment"))


def _raw_meld(item: Any, rules: Rules) -> RawMeld:
    if isinstance(item, str):
        return parse_meld(item, rules)
    if isinstance(item, list):
        return RawMeld(_tiles(item, "meld", rules))
    if isinstance(item, Mapping) and item.get("kind") in KINDS:
        return RawMeld(_tiles(item.get("tiles"), "meld", rules), item["kind"])
    raise ValueError(f"meld {item!r}: expected a string such as 'R1 R2 R3'")


def _result(raw: Any) -> Result:
    if not isinstance(raw, Mapping) or raw.get("ending") not in ("went_out", "pool_empty"):
        raise ValueError("expected ending = 'went_out' or 'pool_empty'")
    for key in raw:
        if key not in _RESULT_KEYS:
            raise ValueError(f"unknown key {key!r} (expected one of {', '.join(_RESULT_KEYS)})")
    winners = raw.get("winners", [])
    scores = raw.get("scores")
    if not isinstance(winners, list) or not all(isinstance(w, int) for w in winners):
        raise ValueError("winners: expected a list of seats")
    if scores is not None and not (
        isinstance(scores, list) and all(isinstance(s, int | float) for s in scores)
    ):
        raise ValueError("scores: expected a list of numbers")
    return Result(raw["ending"], tuple(winners), None if scores is None else tuple(scores))


# -- writing ------------------------------------------------------------------------------


def to_data(record: Record) -> dict[str, Any]:
    """A record as plain data with the keys of a record file (reads back with from_data)."""
    instance(record, Record, "record", "load_record(path)")
    data: dict[str, Any] = {"format": FORMAT, "players": list(record.players)}
    if record.seed is not None:
        data["seed"] = record.seed
    if record.rack_size != RACK_SIZE:
        data["rack_size"] = record.rack_size
    if record.me is not None:
        data["me"] = record.me
    if record.seats is not None:
        data["seats"] = list(record.seats)
    if record.annotator is not None:
        data["annotator"] = record.annotator
    rules = rules_data(record.rules)
    if rules:
        data["rules"] = rules
    deal: dict[str, Any] = {
        "racks": ["?" if rack is None else format_tiles(rack) for rack in record.deal.racks]
    }
    if record.deal.pool is not None:
        deal["pool"] = format_tiles(record.deal.pool)
    data["deal"] = deal
    players = len(record.players)
    data["turns"] = [
        _turn_data(turn, number % players) | _note_data(record.note(number + 1))
        for number, turn in enumerate(record.turns)
    ]
    if record.result is not None:
        result: dict[str, Any] = {
            "ending": record.result.ending,
            "winners": list(record.result.winners),
        }
        if record.result.scores is not None:
            result["scores"] = [_number(s) for s in record.result.scores]
        data["result"] = result
    return data


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _note_data(note: Note | None) -> dict[str, Any]:
    if note is None:
        return {}
    data: dict[str, Any] = {}
    for key in ("mark", "comment", "win", "lost", "luck"):
        value = getattr(note, key)
        if value is not None:
            data[key] = value
    if note.variations:
        data["variations"] = [_variation_data(v) for v in note.variations]
    return data


def _variation_data(variation: Variation) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if variation.comment is not None:
        data["comment"] = variation.comment
    data["moves"] = [move_data(move) for move in variation.moves]
    return data


def move_data(turn: Turn) -> dict[str, Any]:
    """A variation's move as a record writes it: a turn's keys without the seat."""
    data = _turn_data(turn, 0)
    del data["player"]
    return data


def _turn_data(turn: Turn, seat: int) -> dict[str, Any]:
    if isinstance(turn, Play):
        return {"player": seat, "play": [str(meld) for meld in turn.table]}
    if isinstance(turn, Draw):
        return {"player": seat, "draw": "?" if turn.tile is None else str(turn.tile)}
    return {"player": seat, "pass": True}


def dumps(record: Record, fmt: Format = "toml") -> str:
    """A record as the text of a record file."""
    one_of(fmt, "format", FORMATS)
    data = to_data(record)
    if fmt == "json":
        return records.json_text(data)
    lines: list[str] = []
    tables: dict[str, dict[str, Any]] = {}
    for key, value in data.items():
        if key == "turns":
            continue
        if isinstance(value, dict):
            tables[key] = value
        else:
            lines.append(f"{key} = {_toml(value)}")
    for key in ("rules", "deal"):
        if key in tables:
            lines += ["", f"[{key}]"]
            lines += [f"{name} = {_toml(value)}" for name, value in tables[key].items()]
    for number, turn in enumerate(data["turns"], start=1):
        seat = turn["player"]
        lines += ["", f"[[turns]]  # {number}: {record.players[seat]}"]
        lines += [f"{name} = {_toml(value)}" for name, value in turn.items()]
    if "result" in tables:
        lines += ["", "[result]"]
        lines += [f"{name} = {_toml(value)}" for name, value in tables["result"].items()]
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    return records.toml_value(value, spaced=True)


@contextlib.contextmanager
def locked(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the record's lock: no other writer (process or thread) changes the record
    within the block, so read, change and :func:`save` inside it lose no other turn.

    Waits up to :data:`LOCK_WAIT` seconds for another writer, then raises
    :class:`RecordError`. Re-entrant: :func:`save` inside the block takes it again at no
    cost. The lock is :func:`rummikub.core.files.locked`'s.
    """
    with records.locked(path, RecordError):
        yield


def save(record: Record, path: str | os.PathLike[str], *, expect: Record | None = None) -> None:
    """Write a record atomically: a temporary file in the same folder, then one rename.

    A crash at any point leaves either the old record or the new one, never half of one.
    The write holds the record's lock (:func:`locked`), follows a symlink to its target,
    keeps an existing file's mode and refuses a read-only one (:class:`RecordError`, the
    file untouched). With ``expect`` (the record as last read or written), a file that no
    longer holds it (another program changed or removed it since) is refused too.
    """
    if not isinstance(record, Record):
        raise TypeError(f"save() takes a Record, got {_type(record)}")
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"save() takes the path of the record file, got {_type(path)}")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise TypeError(f"save() takes the path as text, got {_type(name)}")
    records.write(
        record,
        name,
        partial(dumps, record),
        load=load,
        expect=expect,
        error=RecordError,
    )


def _type(value: object) -> str:
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"
