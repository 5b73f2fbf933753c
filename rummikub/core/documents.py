"""Reading documents: the TOML or JSON text of tile puzzles, card puzzles and game records,
from a file or from stdin, with the same care everywhere.

Whatever reads a document reads it here, so that every reader has the same limits and the
same messages: a file is refused before it is read when it is too big, the text must be
UTF-8 (a leading byte order mark is skipped), numbers may not be too long to read and lists
and tables may not nest too deep. Every problem raises a
:class:`~rummikub.core.errors.PuzzleError` naming the file (``-`` for stdin):

>>> try:
...     parse_document(b"rack = \\xff", "p.toml")
... except PuzzleError as error:
...     print(error)
p.toml: not UTF-8 text (byte 0xff at offset 7)

The values of a document are described in messages with :func:`describe` and text is quoted
with :func:`quote`, the same way by every reader.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable, Mapping
from typing import Any, BinaryIO, Literal, TypeVar

from rummikub.core.errors import PuzzleError

__all__ = [
    "FORMATS",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "NOT_A_FILE",
    "STDIN",
    "TOO_DEEP",
    "Format",
    "decode",
    "describe",
    "field",
    "field_list",
    "file_info",
    "format_of",
    "nested_too_deep",
    "os_reason",
    "parse_document",
    "quote",
    "read_bytes",
    "read_document",
    "read_stdin",
]

T = TypeVar("T")

Format = Literal["toml", "json"]
#: The formats a document is written in, by the names ``fmt`` takes.
FORMATS: tuple[Format, ...] = ("toml", "json")

#: The largest document read (the largest real puzzle is a few kilobytes). A bigger file is
#: refused before it is read, so that a wrong file costs no time or memory.
MAX_FILE_BYTES = 1_000_000
#: The deepest nesting of lists and tables read (a puzzle needs 4: the top, ``table``, a
#: meld table, its ``tiles``).
MAX_DEPTH = 32
#: The name stdin goes by, on the command line (as a file argument) and in messages.
STDIN = "-"

#: Why a path that is not a regular file (a pipe, a device) is not read.
NOT_A_FILE = "not a regular file (a pipe or a device is not read: give its text on stdin, as -)"
TOO_DEEP = f"lists and tables nested more than {MAX_DEPTH} levels deep"


def format_of(name: str) -> Format:
    """The format of a file by its name: JSON when it ends in ``.json`` (any case), else TOML."""
    return "json" if name.lower().endswith(".json") else "toml"


def os_reason(error: OSError) -> str:
    """An operating-system error in words, without the path (the message names it)."""
    return (error.strerror or str(error)).lower()


def _too_big(size: int | None = None, limit: int = MAX_FILE_BYTES) -> str:
    """The message for a document over the limit (its size when known: a pipe is read only
    one byte past the limit)."""
    shown = f", this one is {size:,} bytes" if size is not None else ""
    what = "a puzzle file" if limit == MAX_FILE_BYTES else "this file"
    return f"too big: {what} is at most {limit:,} bytes{shown}"


# -- the bytes ------------------------------------------------------------------------------


def file_info(name: str) -> os.stat_result:
    """``os.stat(name)``, its failure a :class:`PuzzleError` (``no such file``, ...)."""
    try:
        return os.stat(name)
    except (FileNotFoundError, NotADirectoryError):
        raise PuzzleError(name, ["no such file"]) from None
    except (OSError, ValueError) as error:  # ValueError: a NUL character in the path
        reason = os_reason(error) if isinstance(error, OSError) else "not a valid path"
        raise PuzzleError(name, [f"cannot read: {reason}"]) from None


def read_bytes(
    name: str, info: os.stat_result | None = None, *, limit: int = MAX_FILE_BYTES
) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (:data:`MAX_FILE_BYTES`; one
    more, read, tells that it is too big); ``info``: the file's ``os.stat`` when the caller
    has it already.
    Anything else (a pipe, a device, a socket) is refused, never waited on: a named pipe
    nobody writes to would hang the reader, and text from a pipe comes on stdin (``-``).
    Raises :class:`PuzzleError`."""
    info = info or file_info(name)
    if stat.S_ISREG(info.st_mode) and info.st_size > limit:
        raise PuzzleError(name, [_too_big(info.st_size, limit)])
    try:
        # Opened without waiting (a pipe's open waits for a writer), then judged by what
        # was opened, not by the path's earlier stat: a file swapped meanwhile is caught.
        handle = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise PuzzleError(name, [f"cannot read: {os_reason(error)}"]) from None
    with os.fdopen(handle, "rb") as file:
        opened = os.fstat(file.fileno())
        if not stat.S_ISREG(opened.st_mode):
            raise PuzzleError(name, [NOT_A_FILE])
        # A file is read at its size when listed (a buffer for the whole limit costs more
        # than reading a small puzzle); one byte more than that tells a file that grew
        # since, which is read on, and one byte more than allowed tells it too big.
        expected = min(info.st_size, limit)
        try:
            data = file.read(expected + 1)
            if len(data) > expected:
                data += file.read(limit + 1 - len(data))
            return data
        except OSError as error:
            raise PuzzleError(name, [f"cannot read: {os_reason(error)}"]) from None


def read_stdin(stream: BinaryIO | None = None) -> str:
    """The text on stdin (or ``stream``), read as a file is: at most :data:`MAX_FILE_BYTES`
    (one byte more tells that it is too big, without reading it all), UTF-8, a byte order
    mark skipped; raises :class:`PuzzleError` naming it ``-``."""
    if stream is None:
        stream = getattr(sys.stdin, "buffer", None)  # None: the process has no stdin at all
    try:
        data = stream.read(MAX_FILE_BYTES + 1) if stream is not None else b""
    except OSError as error:
        raise PuzzleError(STDIN, [f"cannot read: {os_reason(error)}"]) from None
    return decode(data, STDIN)


def decode(data: str | bytes, path: str, *, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a document: at most ``limit`` bytes (:data:`MAX_FILE_BYTES`), UTF-8,
    without a leading byte order mark (many editors on Windows write one); raises
    :class:`PuzzleError`."""
    if len(data) > limit:
        raise PuzzleError(path, [_too_big(limit=limit)])
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            byte = error.object[error.start]
            raise PuzzleError(
                path, [f"not UTF-8 text (byte 0x{byte:02x} at offset {error.start})"]
            ) from None
    return data.removeprefix("\ufeff")


# -- the data -------------------------------------------------------------------------------


def read_document(name: str, *, fmt: Format | None = None, limit: int = MAX_FILE_BYTES) -> Any:
    """The TOML or JSON data of a file (``fmt``, else by its name: :func:`format_of`) of at
    most ``limit`` bytes; raises :class:`PuzzleError`. ``solve`` reads each file once with
    it, then hands the data to the tile or the card puzzle reader."""
    data = read_bytes(name, limit=limit)
    return parse_document(data, name, fmt=fmt or format_of(name), limit=limit)


def parse_document(
    text: str | bytes, path: str, *, fmt: Format = "toml", limit: int = MAX_FILE_BYTES
) -> Any:
    """The TOML or JSON data of a document's text (or UTF-8 bytes) of at most ``limit``
    bytes, read with the care of the module's docstring; ``path`` names it in messages.
    Raises :class:`PuzzleError`."""
    # tomllib is imported here, not with the module: a program that reads no document (the
    # library's solver, ``rummikub play``) never needs it.
    import tomllib

    text = decode(text, path, limit=limit)
    name = "TOML" if fmt == "toml" else "JSON"
    data: Any
    try:
        data = tomllib.loads(text) if fmt == "toml" else _json_data(text, path)
    except tomllib.TOMLDecodeError as error:
        raise PuzzleError(path, [f"invalid TOML: {error}"]) from None
    except RecursionError:
        raise PuzzleError(path, [f"invalid {name}: {TOO_DEEP}"]) from None
    except ValueError as error:
        # Python refuses to read integers of more than 4,300 digits (and tomllib a few
        # values it cannot hold): still bad input, not a crash.
        reason = "a number with too many digits" if "digits" in str(error) else str(error)
        raise PuzzleError(path, [f"invalid {name}: {reason}"]) from None
    if nested_too_deep(data):
        raise PuzzleError(path, [TOO_DEEP])
    return data


def _json_data(text: str, path: str) -> Any:
    # json is imported only here and where JSON is written: a ``rummikub solve`` of a TOML
    # puzzle with text output never needs it (benchmarks/RESULTS.md, "Speed choices", *json*).
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}"
        raise PuzzleError(path, [f"invalid JSON: {error.msg} (at {where})"]) from None


def nested_too_deep(data: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether lists and tables nest more than ``limit`` levels (without recursing: data
    handed over from Python, not read here, may nest deeper than the interpreter's stack)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, Mapping):
            children: Iterable[Any] = value.values()
        elif isinstance(value, list | tuple):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


# -- values in messages ---------------------------------------------------------------------


def quote(text: str) -> str:
    """Text as a message quotes it: in double quotes, escaped as JSON, other scripts kept."""
    import json  # lazy, as in _json_data

    return json.dumps(text, ensure_ascii=False)


def describe(value: Any) -> str:
    """A document's value and its type, for "expected X, got Y" messages.

    >>> describe(3), describe("yes"), describe({"a": [1]})
    ('integer 3', 'string "yes"', 'table {"a": [1]}')
    """
    kinds = {bool: "boolean", int: "integer", float: "number", str: "string", list: "list"}
    kind = "table" if isinstance(value, Mapping) else kinds.get(type(value), type(value).__name__)
    import json  # lazy, as in _json_data

    try:
        shown = json.dumps(value, ensure_ascii=False, default=str)
    except (ValueError, RecursionError):  # an integer too long to show, a nesting too deep
        shown = "..."
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return f"{kind} {shown}"


# -- values read back -----------------------------------------------------------------------

#: What each kind a field may be is called in a message.
_KINDS = {
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "a table",
}


def _is(value: object, kind: type) -> bool:
    """Whether ``value`` is a ``kind`` as a document holds one: a boolean is no integer, an
    integer is a number."""
    if kind is int:
        return type(value) is int
    if kind is float:
        return type(value) in (int, float)
    if kind is dict:
        return isinstance(value, Mapping)
    return isinstance(value, kind)


def field(data: object, key: str, kind: type[T]) -> T:
    """``data[key]``, ``data`` a table of a document, checked to be a ``kind`` (``bool``,
    ``int``, ``float``, ``str``, ``list`` or ``dict``): a :class:`ValueError` naming the key
    and what it holds otherwise. **The** check of a field of data the program wrote and reads
    back (the games a ``--save`` file keeps)."""
    if not isinstance(data, Mapping):
        raise ValueError(f"expected a table, got {describe(data)}")
    if key not in data:
        raise ValueError(f"no {key!r}")
    value = data[key]
    if not _is(value, kind):
        raise ValueError(f"{key!r}: expected {_KINDS[kind]}, got {describe(value)}")
    found: T = value
    return found


def field_list(data: object, key: str, kind: type[T]) -> tuple[T, ...]:
    """``data[key]``, checked to be a list of ``kind`` (as :func:`field` checks one)."""
    found = field(data, key, list)
    for place, value in enumerate(found):
        if not _is(value, kind):
            raise ValueError(
                f"{key!r}, item {place + 1}: expected {_KINDS[kind]}, got {describe(value)}"
            )
    return tuple(found)
