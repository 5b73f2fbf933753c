"""Positions given on the command line (``--rack``/``--table``/``--position``) or on stdin
(``-``, read by :func:`rummikub.core.documents.read_stdin`), in the quick notation of
:mod:`rummikub.tiles.notation`, checked like puzzle files."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, NamedTuple, TypeVar

import click

from rummikub.cli.common import BadInput
from rummikub.core.documents import STDIN, parse_document, quote
from rummikub.core.errors import NotationError, PositionError, PuzzleError, RulesError
from rummikub.tiles.melds import RawMeld
from rummikub.tiles.notation import parse_melds, parse_position, parse_rack
from rummikub.tiles.puzzles import (
    Overrides,
    Puzzle,
    from_data,
    has_puzzle_suffix,
    load,
    loads,
)
from rummikub.tiles.rules import Rules, read_rules

#: How a position given by options is named in messages; its JSON "puzzle" is null.
COMMAND_LINE = "command line"

F = TypeVar("F", bound=Callable[..., Any])


class Inline(NamedTuple):
    """The position options of a command, as given (a named tuple, not a dataclass: it is
    made at every start-up of the command line, and a dataclass is slow to make;
    benchmarks/RESULTS.md, "Speed choices", *Records*)."""

    rack: str | None = None
    table: tuple[str, ...] = ()
    position: str | None = None

    @property
    def given(self) -> bool:
        return self.rack is not None or bool(self.table) or self.position is not None


def _rules(choices: Overrides, name: str) -> Rules:
    """The rule set of ``--rules``/``--rule`` for a position without a file of its own (each
    --rule was checked when the command line was read, but a card game's option only
    now meets a tile position); raises :class:`PuzzleError` naming the position."""
    reading = read_rules({}, preset_name=choices.preset, options=choices.options)
    if reading.rules is None:
        raise PuzzleError(name, reading.problems)
    return reading.rules


def check_usage(inline: Inline) -> None:
    """``--position`` holds a whole position: it does not mix with ``--rack``/``--table``."""
    if inline.position is not None and (inline.rack is not None or inline.table):
        raise click.UsageError("give either --position or --rack/--table, not both")


def rack_table_options(command: F) -> F:
    """Add ``--rack TILES`` and ``--table MELDS`` (an inline position) to a command."""
    command = click.option(
        "--table",
        "table",
        multiple=True,
        metavar="MELDS",
        help="Melds on the table of an inline position, separated by | or ;, e.g. "
        '"R1-3 | KRB7 | B9 B10 J"; repeatable.',
    )(command)
    return click.option(
        "--rack",
        metavar="TILES",
        help='The rack of an inline position, e.g. "R4 K7 O7" (ranges R1-3 and groups KRB7 too).',
    )(command)


def check_sources(puzzles: Sequence[str], inline: bool) -> None:
    """PUZZLE files and an inline position are two ways to give the input: exactly one."""
    if puzzles and inline:
        raise click.UsageError("give either PUZZLE files or an inline position, not both")
    if not puzzles and not inline:
        raise click.UsageError(
            "give PUZZLE files or folders, - for stdin, or a position with --rack/--table "
            "or --position"
        )


def read_puzzle(
    source: str | PuzzleError,
    inline: Inline | None,
    stdin: str | None,
    choices: Overrides,
    *,
    data: Any = None,
) -> Puzzle:
    """The puzzle of one source: the inline position when there is one, else stdin's text
    (``-``), else the file (raises PuzzleError, also for a source that named no file).

    ``data``: the file's document (:func:`rummikub.core.documents.read_document`) when the caller
    has read it already, so that the file is not read and parsed twice.
    """
    if inline is not None:
        return inline_puzzle(inline, choices)
    if source == STDIN and stdin is not None:
        return stdin_puzzle(stdin, choices, data=data)
    if isinstance(source, PuzzleError):  # an argument that stood for no puzzle file
        raise source
    if data is not None and has_puzzle_suffix(source):
        return from_data(data, source, overrides=choices)
    return load(source, overrides=choices)


def inline_puzzle(inline: Inline, choices: Overrides) -> Puzzle:
    """The position of the options, checked exactly like a puzzle file.

    A notation problem names the option, quotes its text and gives the column.
    """
    if inline.position is not None:
        return position_puzzle(inline.position, COMMAND_LINE, choices, option="--position ")
    problems: list[str] = []
    rules = _rules(choices, COMMAND_LINE)
    melds: list[str] = []
    for text in inline.table:
        try:
            melds += [str(meld) for meld in parse_melds(text, rules)]
        except NotationError as error:
            problems.append(f"--table {quote(text)}: {error}")
    rack = inline.rack or ""
    try:
        parse_rack(rack, rules, box=False)
    except NotationError as error:
        problems.append(f"--rack {quote(rack)}: {error}")
    if problems:
        raise PuzzleError(COMMAND_LINE, problems)
    # Tiles in the box, melds valid, tile counts: as for a file (each meld by its index).
    return from_data({"rack": rack, "table": melds}, COMMAND_LINE, overrides=choices)


def position_puzzle(text: str, name: str, choices: Overrides, *, option: str = "") -> Puzzle:
    """A one-line position (``table / rack / opened``) as a puzzle named ``name``."""
    rules = _rules(choices, name)
    try:
        position = parse_position(text, rules)
    except (NotationError, PositionError, RulesError) as error:
        raise PuzzleError(name, [f"{option}{quote(text.strip())}: {error}"]) from None
    if choices.opened is not None:
        position = replace(position, opened=choices.opened)
    return Puzzle(name, position)


def _one_line(text: str) -> bool:
    """Whether stdin's text is a one-line position (``table / rack``), not a document."""
    stripped = text.strip()
    return bool(stripped) and "\n" not in stripped and "=" not in stripped and stripped[0] != "{"


def stdin_data(text: str) -> Any:
    """The document read from stdin (JSON where it starts with ``{``, else TOML), parsed once
    so that its keys tell a card puzzle from a tile puzzle; None for a one-line position or
    text that does not parse (the tile reader then says why)."""
    if _one_line(text):
        return None
    try:
        return parse_document(text, STDIN, fmt="json" if text.strip().startswith("{") else "toml")
    except PuzzleError:
        return None


def stdin_puzzle(text: str, choices: Overrides, *, data: Any = None) -> Puzzle:
    """A puzzle read from stdin: JSON (it starts with ``{``), a one-line position, or TOML.
    ``data``: its document, when :func:`stdin_data` has parsed it already."""
    if data is not None:
        return from_data(data, STDIN, overrides=choices)
    stripped = text.strip()
    if stripped.startswith("{"):
        return loads(text, STDIN, fmt="json", overrides=choices)
    if _one_line(text):
        return position_puzzle(stripped, STDIN, choices)
    return loads(text, STDIN, fmt="toml", overrides=choices)


def after_melds(texts: Sequence[str], rules: Rules) -> list[RawMeld]:
    """The melds of ``--after`` options (each may hold several, separated by ``|``): notation
    only, since a proposed table is judged by the checker."""
    melds: list[RawMeld] = []
    for text in texts:
        try:
            melds += parse_melds(text, rules)
        except NotationError as error:
            raise BadInput(f"--after {text!r}: {error}") from None
    return melds
