"""What a game record is, whatever its game: reading one, its players, writing it safely.

Both record formats (the tile game's ``rummikub-game/1``, :mod:`rummikub.tiles.game.record`;
the card rummies' ``rummikub-cards-game/1``, :mod:`rummikub.cards.game.record`) are read
and written with what is here; each domain keeps only its own keys (the deal, the turns,
the notes, the results) and its own :class:`RecordError` (a subclass of this one, so a
message names the format's error type).

* Reading goes through :mod:`rummikub.core.documents` as every document does (a size
  limit, UTF-8 and a byte order mark, TOML or JSON by the file's suffix); a document that
  cannot be parsed is the domain's :class:`RecordError`, naming the path.
* The header's checks every record makes: the players' names (one line of text each, in
  the game's range of seats), ``seats`` (who plays each seat, for ``play --resume``), a
  whole number.
* The TOML writer: a JSON string with ASCII escapes is a valid TOML basic string once a
  character beyond the BMP (JSON's surrogate pair, which TOML refuses) is written as one
  ``\\UXXXXXXXX``.
* :func:`locked` and :func:`write`: a record is written atomically under its lock
  (:mod:`rummikub.core.files`), and refused when the file changed since it was read.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from rummikub.core import files
from rummikub.core.arguments import described, one_of
from rummikub.core.documents import FORMATS, Format, format_of, parse_document, read_bytes
from rummikub.core.errors import PuzzleError, RummikubError

__all__ = [
    "MAX_NAME",
    "MIN_PLAYERS",
    "TOML_INTEGERS",
    "RecordError",
    "check_names",
    "header",
    "json_text",
    "load_data",
    "loads_data",
    "locked",
    "name_problem",
    "players",
    "seats",
    "shown",
    "text_problem",
    "toml_value",
    "whole_or_none",
    "write",
]

#: Every game seats at least two.
MIN_PLAYERS = 2
#: The whole numbers a record holds (a seed, a seat): TOML's integers, of 64 bits, so that
#: every TOML reader reads the record back.
TOML_INTEGERS = (-(2**63), 2**63 - 1)
#: The longest name of a player (its blanks around not counted): a name is shown on one
#: line beside the others' (docs/formats.md, "Record files").
MAX_NAME = 40

R = TypeVar("R")


class RecordError(RummikubError, ValueError):
    """A record that cannot be read at all (its header, not a turn); each format has its
    own subclass."""


# -- reading ------------------------------------------------------------------------------


def load_data(path: str | os.PathLike[str], error: type[RecordError]) -> tuple[Any, str]:
    """The parsed document of the record file at ``path`` (TOML, or JSON for ``.json``) and
    the path as messages name it; ``error`` for a file that cannot be read or parsed."""
    name = os.fspath(path)
    try:
        data = read_bytes(name)
    except PuzzleError as problem:
        raise error(str(problem)) from None
    return loads_data(data, name, format_of(name), error), name


def loads_data(text: str | bytes, path: str, fmt: Format, error: type[RecordError]) -> Any:
    """A record's text (or UTF-8 bytes) parsed as every document is
    (:func:`rummikub.core.documents.parse_document`); ``path`` names it in messages."""
    if not isinstance(text, str | bytes):
        raise TypeError(f"a record's text must be str or bytes, got {described(text)}")
    one_of(fmt, "format", FORMATS)
    try:
        return parse_document(text, path, fmt=fmt)
    except PuzzleError as problem:
        raise error(str(problem)) from None


def header(
    data: Any,
    path: str,
    keys: Sequence[str],
    error: type[RecordError],
    *,
    expected: str,
    default: str | None = None,
    show: Callable[[Any], str] = repr,
    hints: Mapping[str, str] | None = None,
) -> tuple[Mapping[str, Any], list[str]]:
    """A record's top table and the problems of its keys: each key one of ``keys``, and its
    ``format`` the ``expected`` one (``default`` is taken when it is left out). ``show``
    writes a wrong format in the problem and ``hints`` adds a word where it is another known
    format. Not a table at all raises ``error``."""
    if not isinstance(data, Mapping):
        raise error(f"{path}: expected a table of keys at the top")
    written = data.get("format", default)
    problems: list[str] = []
    for key in data:
        if key not in keys:
            problems.append(f"unknown key {key!r} (expected one of {', '.join(keys)})")
    if written != expected:
        hint = (hints or {}).get(written, "") if isinstance(written, str) else ""
        problems.append(f"format {show(written)}: expected {expected!r}{hint}")
    return data, problems


def players(raw: Any, problems: list[str], *, most: int, holds: str) -> tuple[str, ...]:
    """The players' names of a record's header, ``MIN_PLAYERS`` to ``most`` of them, each one
    line of text; a problem is added to ``problems`` (``holds`` says who seats how many, as
    in ``players: 5 given, a game has 2-4``)."""
    if not isinstance(raw, list) or not raw:
        problems.append(f"players: expected a list of {MIN_PLAYERS}-{most} names")
        return ("?", "?")
    if not MIN_PLAYERS <= len(raw) <= most:
        problems.append(f"players: {len(raw)} given, {holds} {MIN_PLAYERS}-{most}")
    for seat, name in enumerate(raw):
        problem = name_problem(name)
        if problem:
            problems.append(f"players[{seat}] {quoted_name(name)}: {problem}")
            return ("?",) * max(len(raw), MIN_PLAYERS)
    return tuple(p.strip() for p in raw)


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a player's name (None if it can): **the** rule of every name
    a record holds, whoever gives it (a record read, a game dealt by the library, the
    command line or the web page): text, not blank, at most :data:`MAX_NAME` characters
    once its blanks around are trimmed, on one line and writable (:func:`text_problem`),
    without control characters."""
    if not isinstance(name, str):
        return "a name is text"
    if not name.strip():
        return "a name must not be blank"
    if len(name.strip()) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters, not {len(name.strip()):,}"
    found = text_problem(name)
    if found is None and any(unicodedata.category(ch) == "Cc" for ch in name):
        # A tab or an escape would move or paint the terminal that shows the name.
        return "a name holds no control characters (such as a tab or an escape)"
    return found


def check_names(players: Sequence[object], error: type[RummikubError]) -> tuple[str, ...]:
    """The players' names of a new game, trimmed, or ``error`` naming the first that
    :func:`name_problem` refuses (the seat, the name, why)."""
    for seat, name in enumerate(players):
        problem = name_problem(name)
        if problem:
            raise error(f"players[{seat}] {quoted_name(name)}: {problem}")
    return tuple(str(name).strip() for name in players)


def quoted_name(name: object) -> str:
    """A name as a message quotes it (:func:`shown`), whatever was given for it."""
    return shown(name) if isinstance(name, str) else repr(name)[:40]


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be a name in a record (None if it can): it must be written as
    UTF-8 (a JSON escape such as \\ud800, half of a pair, cannot) and fit on one line."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "not valid text (a lone surrogate such as \\ud800 cannot be written)"
    if any(ch in text for ch in "\n\r"):
        return "a name fits on one line"
    return None


def shown(text: str) -> str:
    """A string as messages quote it, escaped to ASCII (so a lone surrogate prints)."""
    return json.dumps(text if len(text) <= 40 else text[:37] + "...")


def seats(raw: Any, count: int, problems: list[str]) -> tuple[str, ...] | None:
    """A record's ``seats``: who plays each of the ``count`` seats (``"person"`` or a
    strategy's name), None where the record does not say."""
    if raw is None:
        return None
    if (
        not isinstance(raw, list)
        or len(raw) != count
        or not all(isinstance(s, str) and s.strip() and text_problem(s) is None for s in raw)
    ):
        problems.append(
            f'seats: expected one name per player ({count}), "person" or a strategy, '
            'e.g. ["person", "best"]'
        )
        return None
    return tuple(s.strip() for s in raw)


def whole_or_none(
    data: Mapping[str, Any], key: str, problems: list[str], show: Callable[[Any], str] = repr
) -> int | None:
    """The whole number under ``key`` (None when absent); ``show`` writes a wrong value in
    the problem."""
    value = data.get(key)
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not TOML_INTEGERS[0] <= value <= TOML_INTEGERS[1]
    ):
        problems.append(f"{key}: expected a whole number (of 64 bits), got {show(value)}")
        return None
    return value


# -- writing ------------------------------------------------------------------------------


def toml_value(value: Any, *, spaced: bool = False) -> str:
    """A value as TOML writes it on one line; an inline table's braces are ``{ k = v }``
    with ``spaced``, else ``{k = v}`` (each format keeps its own)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v, spaced=spaced) for v in value) + "]"
    if isinstance(value, Mapping):
        pairs = ", ".join(f"{_key(k)} = {toml_value(v, spaced=spaced)}" for k, v in value.items())
        return "{ " + pairs + " }" if spaced else "{" + pairs + "}"
    # A JSON string with ASCII escapes is a valid TOML basic string, once a character beyond
    # the BMP (JSON's surrogate pair, which TOML refuses) is written as one \UXXXXXXXX.
    return _PAIR.sub(_scalar, json.dumps(str(value)))


def _key(key: object) -> str:
    """A key of an inline table: a bare word where it is one, else quoted."""
    text = str(key)
    return text if text.replace("_", "").isalnum() and text.isascii() else json.dumps(text)


_PAIR = re.compile(r"(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})")


def _scalar(match: re.Match[str]) -> str:
    high, low = int(match[2], 16), int(match[3], 16)
    return f"{match[1]}\\U{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):08X}"


@contextlib.contextmanager
def locked(path: str | os.PathLike[str], error: type[RecordError]) -> Iterator[None]:
    """Hold the record's lock (:func:`rummikub.core.files.locked`, raising ``error`` when it
    cannot be had) across a read, a change and :func:`write`, so that two writers lose no
    turn of each other's."""
    with files.locked(path, error=error):
        yield


def write(
    record: R,
    path: str,
    text: Callable[[Format], str],
    *,
    load: Callable[[str], R],
    expect: R | None,
    error: type[RecordError],
) -> None:
    """Write ``record`` (its ``text`` in the format the path's suffix asks) atomically
    under its lock: a temporary file beside it, then one rename, so a crash leaves the old
    record or the new one. With ``expect`` (the record as last read or written), a file
    that no longer holds it (``load`` finds another record, or none) is refused."""
    try:
        data = text(format_of(path)).encode("utf-8")
    except UnicodeEncodeError as problem:
        raise error(
            f"{path}: cannot write {shown(problem.object)}: not valid text "
            "(a lone surrogate such as \\ud800)"
        ) from None
    with locked(path, error):
        if expect is not None:
            try:
                found: R | None = load(path)
            except error:
                found = None
            if found != expect:
                raise error(
                    f"{path}: the record was changed by another program since it was read; "
                    "nothing written (read it again to go on)"
                )
        files.write_atomically(data, path, error=error)


def json_text(data: Mapping[str, Any]) -> str:
    """A record's data as the text of a ``.json`` record file."""
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
