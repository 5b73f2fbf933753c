"""OR-Tools' model and solution messages read and written as their protobuf wire bytes.

pywraplp hands its messages (``MPModelProto``, ``MPSolutionResponse``) across as bytes: it
calls a message's ``SerializeToString()`` to read one and its ``ParseFromString()`` to
fill one. The solver needs only a few fields of them (the template's variables and rows
with their bounds, a node's variable values), which it reads and writes here straight
from the bytes: importing protobuf's Python messages would cost every ``rummikub solve``
process more than solving a small position (benchmarks/RESULTS.md, "Solver choices:
start-up").

The wire format is protobuf's documented, stable encoding
(https://protobuf.dev/programming-guides/encoding/), and the field numbers are those of
``ortools/linear_solver/linear_solver.proto``, fixed for as long as saved models read
back. Tests compare what is read and written here with protobuf's own messages.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Callable, Collection, Iterator
from typing import Any

#: ``MPModelProto``: its variables and its rows (constraints), one field each.
MODEL_VARIABLE = 3
MODEL_CONSTRAINT = 4
#: ``MPVariableProto``: lower and upper bound, name.
VARIABLE_BOUNDS = (1, 2)
VARIABLE_NAME = 5
#: ``MPVariableProto``: whether the variable is integer.
VARIABLE_INTEGER = 4
#: ``MPConstraintProto``: lower and upper bound, name.
CONSTRAINT_BOUNDS = (2, 3)
CONSTRAINT_NAME = 4
#: ``MPConstraintProto``: whether the row is lazy, its variables and their coefficients
#: (packed varints and packed doubles, in the same order).
CONSTRAINT_LAZY = 5
CONSTRAINT_VARIABLES = 6
CONSTRAINT_COEFFICIENTS = 7
#: ``MPSolutionResponse``: the value of each variable (packed doubles).
RESPONSE_VALUES = 3

#: Wire types: a varint, 8 bytes, a length and that many bytes, 4 bytes.
_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5
_DOUBLE = struct.Struct("<d")


class Message:
    """Stands in for a protobuf message where pywraplp takes one: its serialized bytes."""

    __slots__ = ("data",)

    def __init__(self, data: bytes = b"") -> None:
        self.data = data

    def SerializeToString(self) -> bytes:  # protobuf's name, which pywraplp calls
        return self.data

    def ParseFromString(self, data: bytes) -> None:  # protobuf's name, which pywraplp calls
        self.data = bytes(data)


def through(call: Callable[[Any], Any], data: bytes = b"", kind: str = "MPModelProto") -> bytes:
    """The bytes of the message after ``call(message)`` (a pywraplp method that reads or
    fills a message of type ``kind``), the message holding ``data`` before."""
    message = Message(data)
    try:
        call(message)
    except (TypeError, AttributeError, SystemError):
        # A pywraplp that takes protobuf's own messages only: the same through one.
        from ortools.linear_solver import linear_solver_pb2

        real = getattr(linear_solver_pb2, kind).FromString(data)
        call(real)
        return bytes(real.SerializeToString())
    return message.data


def fields(data: bytes) -> Iterator[tuple[int, bytes, bytes]]:
    """Each field of a message, in order: (field number, value, the whole field as
    written). The value of a length-delimited field is its payload; of any other, its
    bytes as written."""
    for number, start, at, after in _spans(data):
        yield number, data[at:after], data[start:after]


def without(data: bytes, numbers: Collection[int]) -> bytes:
    """The message without its fields of these numbers."""
    kept: list[bytes] = []
    cut = 0  # data[cut:start] is kept when a field to leave out starts at start
    for number, start, _, after in _spans(data):
        if number in numbers:
            kept.append(data[cut:start])
            cut = after
    return b"".join([*kept, data[cut:]]) if cut else data


def _spans(data: bytes) -> Iterator[tuple[int, int, int, int]]:
    """Where each field of a message lies: (field number, start of the field, start of
    its value or payload, end)."""
    at, end = 0, len(data)
    while at < end:
        start = at
        # Keys and lengths are varints, almost always of one byte here: read inline.
        key = data[at]
        key, at = (key, at + 1) if key < 0x80 else _varint(data, at)
        kind = key & 7
        if kind == _LEN:
            length = data[at] if at < end else 0x80
            length, at = (length, at + 1) if length < 0x80 else _varint(data, at)
            after = at + length
        elif kind == _VARINT:
            _, after = _varint(data, at)
        elif kind == _I64:
            after = at + 8
        elif kind == _I32:
            after = at + 4
        else:
            raise ValueError(f"protobuf wire type {kind} (groups) not expected here")
        if after > end:
            raise ValueError("a protobuf message cut short")
        yield key >> 3, start, at, after
        at = after


def field_key(number: int) -> bytes:
    """The key of the length-delimited field ``number``, as written before its length."""
    return _encode_varint(number << 3 | _LEN)


def length_delimited(number: int, payload: bytes) -> bytes:
    """Field ``number`` holding ``payload`` (a message, a string, packed numbers)."""
    return _encode_varint(number << 3 | _LEN) + _encode_varint(len(payload)) + payload


def double(number: int, value: float) -> bytes:
    """Field ``number`` holding the double ``value``."""
    return _encode_varint(number << 3 | _I64) + _DOUBLE.pack(value)


def double_bytes(value: float) -> bytes:
    """``value`` as one element of a packed repeated double field."""
    return _DOUBLE.pack(value)


def varint(number: int, value: int) -> bytes:
    """Field ``number`` holding the non-negative integer (or bool) ``value``."""
    return _encode_varint(number << 3 | _VARINT) + _encode_varint(value)


def payload(field: bytes) -> bytes:
    """The payload of one length-delimited field, as :func:`length_delimited` wrote it."""
    for _, value, _ in fields(field):
        return value
    raise ValueError("an empty protobuf field")


def doubles(data: bytes, number: int) -> list[float]:
    """The values of the repeated double field ``number`` of a message: packed, as
    OR-Tools writes them, or one by one (either way little-endian doubles)."""
    found = array("d")
    view = memoryview(data)
    for n, _, at, after in _spans(data):
        if n == number:
            found.frombytes(view[at:after])
    if sys.byteorder == "big":
        found.byteswap()
    return found.tolist()


def varints(data: bytes, number: int) -> list[int]:
    """The values of the repeated integer field ``number`` of a message (non-negative
    varints): packed, as OR-Tools writes them, or one by one."""
    found: list[int] = []
    for n, start, at, after in _spans(data):
        if n != number:
            continue
        if data[start] & 7 == _VARINT:  # one value, not packed
            found.append(_varint(data, at)[0])
            continue
        while at < after:
            value, at = _varint(data, at)
            found.append(value)
    return found


#: The varints of 0.. up to a model's size, written once: a copy of a template's live
#: part writes thousands of them (indices and lengths), one table lookup each.
_VARINTS: list[bytes] = []


def varint_table(size: int) -> list[bytes]:
    """A list whose item ``k`` is the varint of ``k``, for every ``k < size`` (at least)."""
    if len(_VARINTS) < size:
        _VARINTS.extend(_encode_varint(k) for k in range(len(_VARINTS), max(size, 1024)))
    return _VARINTS


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data):
            raise ValueError("a protobuf message cut short")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def _encode_varint(value: int) -> bytes:
    if value <= 0x7F:  # a key or a length, almost always
        return bytes((value,))
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)
