"""Puzzle files: a position, maybe a proposed move and a known answer, in TOML or JSON.

The keys are those of INTERFACE.md. Every problem in a file is reported at once, in one
:class:`~rummikub.core.errors.PuzzleError`, each naming the key or index and quoting the text,
so that a file can be fixed in one pass:

>>> try:
...     loads('rack = "Q5"\\ntable = ["R5 R6 R8"]', "p.toml")
... except PuzzleError as error:
...     print(error)
p.toml: rack "Q5": invalid tile 'Q5': unknown color 'Q' (expected one of K, R, B, O)
p.toml: table[0] "R5 R6 R8": not a run (no 7) and not a group

A proposed new table (``after``) is only read as notation here: whether it is a legal move,
including a tile used too often, is for the checker to judge.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from rummikub.core.documents import (
    TOO_DEEP,
    Format,
    describe,
    file_info,
    format_of,
    nested_too_deep,
    os_reason,
    parse_document,
    quote,
    read_bytes,
)
from rummikub.core.errors import MeldError, NotationError, PuzzleError, unknown
from rummikub.tiles.melds import KINDS, Kind, Meld, RawMeld
from rummikub.tiles.notation import expand_word, parse_meld, parse_melds
from rummikub.tiles.position import Position, too_often, vouch_sound
from rummikub.tiles.rules import (
    MAX_COLORS,
    MAX_COPIES,
    MAX_JOKERS,
    MAX_NUMBERS,
    STANDARD,
    Rules,
    read_rules,
    rules_data,
)
from rummikub.tiles.tiles import JOKER, Tile, format_tiles, tile_words

KEYS = ("title", "description", "rack", "table", "opened", "after", "rules", "expect")
EXPECT_KEYS = ("value", "tiles", "status")
MELD_KEYS = ("kind", "tiles")
SUFFIXES = (".toml", ".json")

#: The most tiles any rule set's box holds: no rack or table is longer, whatever the rules.
MAX_TILES = MAX_NUMBERS * MAX_COLORS * MAX_COPIES + MAX_JOKERS


@dataclass(frozen=True, slots=True)
class Expect:
    """A known answer: the value and tiles of the best move, or that there is no move."""

    value: int | None = None
    tiles: int | None = None
    status: Literal["no_move"] | None = None

    def matches(self, status: str, value: int, tiles: int) -> bool:
        """Whether a solver's answer agrees with every part of this one that is given."""
        if self.status == "no_move" and status != "no_move":
            return False
        if self.value is not None and value != self.value:
            return False
        return self.tiles is None or tiles == self.tiles

    def __str__(self) -> str:
        parts = ["no move"] if self.status == "no_move" else []
        if self.value is not None:
            parts.append(f"value {self.value}")
        if self.tiles is not None:
            parts.append(f"{self.tiles} tiles")
        return ", ".join(parts) or "anything"


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle file, read and checked."""

    #: The path as the user gave it (for a file found in a folder: folder + path below it).
    path: str
    position: Position
    title: str | None = None
    description: str | None = None
    #: A proposed new table, as written: judged by the checker, not here.
    after: tuple[RawMeld, ...] | None = None
    expect: Expect | None = None


@dataclass(frozen=True, slots=True)
class Overrides:
    """Command-line choices that take precedence over a file's own, key by key.

    ``preset`` replaces the file's preset; the file's ``[rules]`` options still apply on top
    of it, then ``options`` (so ``--rule`` always wins).
    """

    preset: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    opened: bool | None = None


NO_OVERRIDES = Overrides()


# -- finding and reading files ----------------------------------------------------------


def expand(path: str) -> list[str]:
    """The puzzle files a command-line argument stands for.

    A folder means every ``.toml``/``.json`` file below it, sorted, each shown as the
    folder path joined with its path below it; anything else is taken as a file. Raises
    :class:`PuzzleError` for a folder with no puzzle files or one that cannot be read.
    """
    found: list[str] = []
    for item in _expand(path):
        if isinstance(item, PuzzleError):
            raise item
        found.append(item)
    return found


def _expand(path: str) -> list[str | PuzzleError]:
    """:func:`expand`, with each folder that cannot be read in its place as an error."""
    # os.path.isdir is False for a path that cannot even be looked at: it is then taken as
    # a file, and loading it names the problem.
    if not os.path.isdir(path):
        return [path]
    found: list[tuple[str, str | PuzzleError]] = []
    seen: set[tuple[int, int]] = set()
    pending = [""]
    while pending:
        relative = pending.pop()
        folder = os.path.join(path, relative) if relative else path
        try:
            info = os.stat(folder)
            if (info.st_dev, info.st_ino) in seen:  # a link back up: already listed
                continue
            seen.add((info.st_dev, info.st_ino))
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError as error:
            found.append(
                (relative, PuzzleError(folder, [f"cannot read this folder: {os_reason(error)}"]))
            )
            continue
        for entry in listed:
            below = f"{relative}/{entry.name}" if relative else entry.name
            try:
                if entry.is_dir():
                    pending.append(below)
                elif entry.is_file() and _suffix(entry.name) in SUFFIXES:
                    found.append((below, os.path.join(path, below)))
            except OSError as error:
                found.append((below, PuzzleError(entry.path, [f"cannot read: {os_reason(error)}"])))
    found.sort(key=lambda pair: pair[0])
    if not found:
        return [PuzzleError(path, ["no puzzle files (.toml or .json) in this folder"])]
    return [item for _, item in found]


def _suffix(name: str) -> str:
    """``Path(name).suffix.lower()`` without making a path: the main process lists a folder
    while no worker has started, and making a path per file is most of that listing
    (benchmarks/RESULTS.md, "Speed choices", *Listing a folder*)."""
    dot = name.rfind(".")
    return name[dot:].lower() if 0 < dot < len(name) - 1 else ""


def load(path: str | os.PathLike[str], *, overrides: Overrides = NO_OVERRIDES) -> Puzzle:
    """Read and check a puzzle file; the format follows the suffix."""
    name = os.fspath(path)
    info = file_info(name)
    if stat.S_ISDIR(info.st_mode):
        raise PuzzleError(name, ["is a folder, not a puzzle file"])
    suffix = Path(name).suffix.lower()
    if suffix not in SUFFIXES:
        raise PuzzleError(name, [f"unknown puzzle format {suffix!r} (expected .toml or .json)"])
    data = read_bytes(name, info)
    return loads(data, name, fmt=format_of(name), overrides=overrides)


def has_puzzle_suffix(name: str) -> bool:
    """Whether ``name`` ends in a puzzle file's suffix (.toml or .json, any case)."""
    return Path(name).suffix.lower() in SUFFIXES


def loads(
    text: str | bytes, path: str, *, fmt: Format = "toml", overrides: Overrides = NO_OVERRIDES
) -> Puzzle:
    """Read and check a puzzle from text (or UTF-8 bytes); ``path`` names it in messages.

    Read as every document is (:mod:`rummikub.core.documents`): a leading byte order mark
    is skipped, as many editors on Windows write one.
    """
    return from_data(parse_document(text, path, fmt=fmt), path, overrides=overrides)


def from_data(data: Any, path: str, *, overrides: Overrides = NO_OVERRIDES) -> Puzzle:
    """Check a puzzle given as parsed TOML/JSON data (also used for command-line positions)."""
    if not isinstance(data, Mapping):
        raise PuzzleError(path, [f"expected a table of keys at the top, got {describe(data)}"])
    if nested_too_deep(data):
        raise PuzzleError(path, [TOO_DEEP])
    return _Reader(path, overrides).read(data)


# -- checking the data --------------------------------------------------------------------


class _Reader:
    """Collects every problem of one file while building its puzzle."""

    def __init__(self, path: str, overrides: Overrides) -> None:
        self.path = path
        self.overrides = overrides
        self.problems: list[str] = []
        #: The tiles of the rule set's box, once it is known.
        self.box: frozenset[Tile] = frozenset()

    def read(self, data: Mapping[str, Any]) -> Puzzle:
        self._unknown_keys(data, KEYS, "")
        title = self._optional_str(data, "title")
        description = self._optional_str(data, "description")
        opened = data.get("opened", True)
        if not isinstance(opened, bool):
            self.problems.append(f"opened: expected true or false, got {describe(opened)}")
            opened = True
        if self.overrides.opened is not None:
            opened = self.overrides.opened
        rules = self._rules(data.get("rules", {}))
        if rules is not None:
            self.box = _box_tiles(rules)
        if "rack" in data:
            rack = self._rack(data["rack"], rules)
        else:
            self.problems.append("missing key 'rack' (the tiles of the player to move)")
            rack = ()
        table = self._table(data.get("table", []), rules)
        after = self._after(data["after"], rules) if "after" in data else None
        expect = self._expect(data["expect"]) if "expect" in data else None
        if rules is not None:
            self._counts(rack, table, rules)
        if self.problems or rules is None:
            raise PuzzleError(self.path, self.problems)
        melds = tuple(m for m in table if isinstance(m, Meld))
        position = Position(melds, rack, opened, rules)
        # Every tile and meld was checked above: the solver need not check them again.
        vouch_sound(position)
        return Puzzle(self.path, position, title, description, after, expect)

    # -- keys -------------------------------------------------------------------------

    def _unknown_keys(self, data: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
        for key in data:
            if key not in known:
                self.problems.append(f"{where}{unknown('key', key, known)}")

    def _optional_str(self, data: Mapping[str, Any], key: str) -> str | None:
        value = data.get(key)
        if value is None or isinstance(value, str):
            return value
        self.problems.append(f"{key}: expected a string, got {describe(value)}")
        return None

    # -- rules ------------------------------------------------------------------------

    def _rules(self, raw: Any) -> Rules | None:
        """The rule set, or None when it is broken in a way that leaves the box unknown
        (then tiles are checked as notation only, since whether a tile or meld exists
        depends on the rules). With a lesser problem the tiles and melds are still judged,
        by the good options, so that the file's other problems are reported too."""
        reading = read_rules(raw, preset_name=self.overrides.preset, options=self.overrides.options)
        self.problems += reading.problems
        return reading.nearest

    # -- tiles and melds ----------------------------------------------------------------

    def _rack(self, raw: Any, rules: Rules | None) -> tuple[Tile, ...]:
        most = rules.tile_count if rules else MAX_TILES
        if isinstance(raw, list) and len(raw) > most:
            self.problems.append(f"rack: {len(raw):,} items, more than {_box(rules)}")
            return ()
        if isinstance(raw, str):
            words = [("rack", raw, w) for w in tile_words(raw)]
        elif isinstance(raw, list):
            words = []
            for index, item in enumerate(raw):
                if isinstance(item, str):
                    words += [(f"rack[{index}]", item, w) for w in tile_words(item)]
                else:
                    self.problems.append(
                        f"rack[{index}]: expected a tile string, got {describe(item)}"
                    )
        else:
            self.problems.append(
                f"rack: expected a string of tiles or a list of tiles, got {describe(raw)}"
            )
            return ()
        if len(words) > most:
            # Refused before reading a single tile: a wrong file may hold millions.
            self.problems.append(f"rack: {len(words):,} tiles, more than {_box(rules)}")
            return ()
        tiles: list[Tile] = []
        for where, text, word in words:
            try:
                # The quick notation too: ranges (R1-5), group shorthands (KRB7), Y for O.
                found = expand_word(word, rules or STANDARD)
            except NotationError as error:
                self.problems.append(f"{where} {quote(text)}: {error}")
                continue
            tiles += [t for t in found if self._tile_ok(t, word, where, text, rules)]
        return tuple(tiles)

    def _tile_ok(
        self, tile: Tile, word: str | None, where: str, text: str, rules: Rules | None
    ) -> bool:
        """Whether ``tile`` is in the box (else the problem is reported with ``word``, the
        tile as written, or as it reads when None)."""
        if rules is None or tile in self.box:
            return True
        problem = rules.tile_problem(tile)
        if problem:
            shown = str(tile) if word is None else word
            self.problems.append(f"{where} {quote(text)}: invalid tile {shown!r}: {problem}")
        return problem is None

    def _table(self, raw: Any, rules: Rules | None) -> list[Meld | RawMeld]:
        """The table's melds: checked ones, or raw ones whose problem is already reported
        (their tiles still count towards the tile totals)."""
        if isinstance(raw, str):
            # The quick notation of a whole table: melds separated by | or ;.
            try:
                raw = [str(meld) for meld in parse_melds(raw, rules or STANDARD)]
            except NotationError as error:
                self.problems.append(f"table {quote(raw)}: {error}")
                return []
        if not isinstance(raw, list):
            self.problems.append(f"table: expected a list of melds, got {describe(raw)}")
            return []
        if not self._few_melds("table", raw, rules):
            return []
        melds: list[Meld | RawMeld] = []
        known = _known_melds(rules) if rules is not None else None
        for index, item in enumerate(raw):
            if known is not None and isinstance(item, str):
                found = known.get(item)
                if found is not None:
                    melds.append(found)
                    continue
            where = f"table[{index}]"
            parsed = self._raw_meld(item, where, rules)
            if parsed is None:
                continue
            meld, text = parsed
            ok = all([self._tile_ok(t, None, where, text, rules) for t in meld.tiles])
            if not ok or rules is None:
                continue
            try:
                read = meld.to_meld(rules)
            except MeldError as error:
                self.problems.append(f"{where} {quote(text)}: {error}")
                melds.append(meld)
                continue
            melds.append(read)
            if known is not None and isinstance(item, str):
                known[item] = read
        return melds

    def _few_melds(self, key: str, raw: list[Any], rules: Rules | None) -> bool:
        """Whether a list of melds is no longer than the box's tiles can make (each meld
        holds three or more), so that a huge one is refused before it is read."""
        most = (rules.tile_count if rules else MAX_TILES) // 3
        if len(raw) <= most:
            return True
        self.problems.append(
            f"{key}: {len(raw):,} melds, more than the {most:,} that {_box(rules)} can make"
        )
        return False

    def _after(self, raw: Any, rules: Rules | None) -> tuple[RawMeld, ...] | None:
        if isinstance(raw, str):
            try:
                melds = parse_melds(raw, rules or STANDARD)
            except NotationError as error:
                self.problems.append(f"after {quote(raw)}: {error}")
                return None
            return melds if self._few_melds("after", list(melds), rules) else None
        if not isinstance(raw, list):
            self.problems.append(f"after: expected a list of melds, got {describe(raw)}")
            return None
        if not self._few_melds("after", raw, rules):
            return None
        parsed = [self._raw_meld(item, f"after[{i}]", rules) for i, item in enumerate(raw)]
        return tuple(p[0] for p in parsed if p is not None)

    def _raw_meld(self, item: Any, where: str, rules: Rules | None) -> tuple[RawMeld, str] | None:
        """A meld as written (a string, a list of tiles or a ``{kind, tiles}`` table) and
        its text for messages."""
        kind: Kind | None = None
        if isinstance(item, Mapping):
            self._unknown_keys(item, MELD_KEYS, f"{where}: ")
            raw_kind = item.get("kind")
            if raw_kind is not None:
                if isinstance(raw_kind, str) and raw_kind.strip().lower() in KINDS:
                    kind = "run" if raw_kind.strip().lower() == "run" else "group"
                else:
                    self.problems.append(
                        f"{where}.kind: expected 'run' or 'group', got {describe(raw_kind)}"
                    )
                    return None
            if "tiles" not in item:
                self.problems.append(f"{where}: missing key 'tiles'")
                return None
            item = item["tiles"]
            where = f"{where}.tiles"
        if isinstance(item, list):
            bad = [i for i, t in enumerate(item) if not isinstance(t, str)]
            for i in bad:
                self.problems.append(
                    f"{where}[{i}]: expected a tile string, got {describe(item[i])}"
                )
            if bad:
                return None
            text = " ".join(item)
        elif isinstance(item, str):
            text = item
        else:
            self.problems.append(
                f"{where}: expected a meld (a string or a list of tiles), got {describe(item)}"
            )
            return None
        try:
            meld = parse_meld(text, rules or STANDARD)
        except NotationError as error:
            self.problems.append(f"{where} {quote(text)}: {error}")
            return None
        if kind is not None:
            meld = RawMeld(meld.tiles, kind)
            text = str(meld)
        return meld, text

    def _counts(self, rack: tuple[Tile, ...], table: list[Meld | RawMeld], rules: Rules) -> None:
        """No tile more often in table and rack than the box holds."""
        counts = Counter(rack)
        for meld in table:
            counts.update(meld.tiles)
        over = [tile for tile, count in counts.items() if count > rules.copies_of(tile)]
        for tile in sorted(over, key=rules.sort_key):
            if rules.tile_problem(tile) is None:
                self.problems += too_often(tile, counts[tile], rules)

    # -- expected answer --------------------------------------------------------------

    def _expect(self, raw: Any) -> Expect | None:
        if not isinstance(raw, Mapping):
            self.problems.append(f"expect: expected a table, got {describe(raw)}")
            return None
        self._unknown_keys(raw, EXPECT_KEYS, "expect: ")
        numbers: dict[str, int | None] = {}
        for key in ("value", "tiles"):
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
        if status == "no_move" and any(numbers.values()):
            self.problems.append("expect: status 'no_move' plays nothing, so value and tiles are 0")
        if not raw.keys() & set(EXPECT_KEYS):
            self.problems.append("expect: give value, tiles or status = 'no_move'")
        return Expect(numbers["value"], numbers["tiles"], "no_move" if status else None)


#: The table melds read so far that had no problem, by rule set and as written: the puzzles
#: of a folder lay the same melds again and again, and reading one (its notation, each tile
#: against the box, run or group) was most of the time a puzzle took to read
#: (benchmarks/RESULTS.md, "Speed choices", *Table melds read once*). A meld with a problem
#: is read again each time, so that its messages name where it is.
_KNOWN_MELDS: dict[Rules, dict[str, Meld]] = {}
#: Melds kept per rule set (then forgotten all at once), and rule sets kept.
KNOWN_MELDS_MAX = 4096
KNOWN_RULES_MAX = 16


def _known_melds(rules: Rules) -> dict[str, Meld]:
    known = _KNOWN_MELDS.get(rules)
    if known is None or len(known) >= KNOWN_MELDS_MAX:
        if len(_KNOWN_MELDS) >= KNOWN_RULES_MAX:
            _KNOWN_MELDS.clear()
        known = _KNOWN_MELDS[rules] = {}
    return known


@lru_cache(maxsize=16)
def _box_tiles(rules: Rules) -> frozenset[Tile]:
    """Every tile the box of ``rules`` holds (a set, to check a puzzle's tiles by)."""
    return frozenset([*rules.tile_types(), *([JOKER] if rules.jokers else [])])


def _box(rules: Rules | None) -> str:
    if rules is None:
        return f"any rule set's box holds ({MAX_TILES:,} tiles)"
    return f"the rule set's box holds ({rules.tile_count} tiles)"


# -- writing ------------------------------------------------------------------------------


def to_data(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle as plain data with the keys of a puzzle file (reads back with :func:`from_data`)."""
    position = puzzle.position
    data: dict[str, Any] = {}
    if puzzle.title is not None:
        data["title"] = puzzle.title
    if puzzle.description is not None:
        data["description"] = puzzle.description
    data["rack"] = format_tiles(position.rack)
    data["table"] = [str(meld) for meld in position.table]
    data["opened"] = position.opened
    if puzzle.after is not None:
        data["after"] = [str(meld) for meld in puzzle.after]
    rules = rules_data(position.rules)
    if rules:
        data["rules"] = rules
    if puzzle.expect is not None:
        expect = puzzle.expect
        data["expect"] = {
            k: v
            for k, v in (
                ("value", expect.value),
                ("tiles", expect.tiles),
                ("status", expect.status),
            )
            if v is not None
        }
    return data


def dumps(puzzle: Puzzle, fmt: Format = "toml") -> str:
    """A puzzle as the text of a puzzle file.

    >>> puzzle = loads('rack = "r4 K7"\\ntable = ["R1 R2 R3"]\\n[expect]\\nvalue = 4', "p.toml")
    >>> print(dumps(puzzle), end="")
    rack = "R4 K7"
    table = [
      "R1 R2 R3",
    ]
    opened = true
    <BLANKLINE>
    [expect]
    value = 4
    """
    data = to_data(puzzle)
    if fmt == "json":
        import json  # lazy: a solve of a TOML puzzle with text output never needs it

        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    lines: list[str] = []
    tables: list[tuple[str, dict[str, Any]]] = []
    for key, value in data.items():
        if isinstance(value, dict):
            tables.append((key, value))
        elif isinstance(value, list):
            lines.append(f"{key} = [")
            lines += [f"  {_toml_value(item)}," for item in value]
            lines.append("]")
        else:
            lines.append(f"{key} = {_toml_value(value)}")
    for key, table in tables:
        lines += ["", f"[{key}]"]
        lines += [f"{name} = {_toml_value(value)}" for name, value in table.items()]
    return "\n".join(lines) + "\n"


def dump(puzzle: Puzzle, path: str | os.PathLike[str]) -> None:
    """Write a puzzle file; the format follows the suffix (``.json`` or else TOML)."""
    Path(path).write_text(dumps(puzzle, format_of(os.fspath(path))), encoding="utf-8")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    import json  # lazy: a solve of a TOML puzzle with text output never needs it

    # A JSON string with ASCII escapes is a valid TOML basic string.
    return json.dumps(str(value))


def expand_all(paths: Iterable[str]) -> list[str | PuzzleError]:
    """The puzzle files of several arguments, with the error in place of an empty folder.

    Files are only listed here, so that a caller can count them (for a progress bar)
    before loading each with :func:`load`.
    """
    found: list[str | PuzzleError] = []
    for path in paths:
        found += _expand(path)
    return found
