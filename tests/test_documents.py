"""One document reader (rummikub/core/documents.py): every command that reads a file or
stdin reads it alike, with the same limits and the same messages."""

from __future__ import annotations

import ast
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rummikub.cli import main
from rummikub.core.documents import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    describe,
    format_of,
    parse_document,
    quote,
    read_bytes,
    read_document,
    read_stdin,
)
from rummikub.core.errors import PuzzleError

PACKAGE = Path(__file__).resolve().parents[1] / "rummikub"
DOCUMENTS = PACKAGE / "core" / "documents.py"

#: Every command that reads a puzzle from stdin with ``-``.
STDIN_COMMANDS = (["solve", "-"], ["check", "-", "--after", "R1-4"], ["analyse", "-"])


def invoke(args: list[str], data: bytes) -> Result:
    return CliRunner().invoke(main, args, input=data)


def assert_bad_input(result: Result, line: str) -> None:
    """Exit 2, no traceback, and stderr exactly ``line``."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.stderr.splitlines() == [line]


# -- stdin, for every command ------------------------------------------------------------


@pytest.mark.parametrize("args", STDIN_COMMANDS, ids=lambda args: args[0])
def test_stdin_that_is_not_utf8_names_the_byte(args: list[str]) -> None:
    assert_bad_input(invoke(args, b"\xff\xfe"), "Error: -: not UTF-8 text (byte 0xff at offset 0)")


@pytest.mark.parametrize("args", STDIN_COMMANDS, ids=lambda args: args[0])
def test_stdin_over_the_limit_is_refused_without_echoing_it(args: list[str]) -> None:
    result = invoke(args, b"#" * (MAX_FILE_BYTES + 200_000))
    assert_bad_input(
        result, f"Error: -: too big: a puzzle file is at most {MAX_FILE_BYTES:,} bytes"
    )


@pytest.mark.parametrize("args", STDIN_COMMANDS, ids=lambda args: args[0])
def test_a_byte_order_mark_on_stdin_is_skipped(args: list[str]) -> None:
    result = invoke(args, b"\xef\xbb\xbfR1-3 / R4 K7")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_analyse_reads_a_json_puzzle_from_stdin_as_solve_does() -> None:
    data = b'\xef\xbb\xbf{"rack": "R4", "table": ["R1 R2 R3"]}'
    analysed = invoke(["analyse", "--json", "-"], data)
    solved = invoke(["solve", "--json", "-"], data)
    assert analysed.exit_code == solved.exit_code == 0, analysed.output
    assert json.loads(analysed.stdout)["played"] == json.loads(solved.stdout)["played"]


def test_read_stdin_reads_one_byte_past_the_limit_only() -> None:
    stream = io.BytesIO(b"#" * (3 * MAX_FILE_BYTES))
    with pytest.raises(PuzzleError, match="too big"):
        read_stdin(stream)
    assert stream.tell() == MAX_FILE_BYTES + 1
    assert read_stdin(io.BytesIO(b"\xef\xbb\xbfrack = 'R4'")) == "rack = 'R4'"


# -- files -----------------------------------------------------------------------------------


def test_a_file_is_refused_before_it_is_read_when_too_big(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    with open(path, "wb") as file:
        file.truncate(5 * MAX_FILE_BYTES)  # sparse: no disk used
    with pytest.raises(PuzzleError) as caught:
        read_bytes(str(path))
    assert caught.value.problems == (
        f"too big: a puzzle file is at most {MAX_FILE_BYTES:,} bytes, "
        f"this one is {5 * MAX_FILE_BYTES:,} bytes",
    )


def test_files_are_named_in_every_problem(tmp_path: Path) -> None:
    cases = {
        "missing.toml": (None, "no such file"),
        "latin.toml": (b'rack = "R4 \xe9"', "not UTF-8 text (byte 0xe9 at offset 11)"),
        "bad.json": (b'{"rack": ', "invalid JSON: Expecting value (at line 1, column 10)"),
        "long.json": (
            b'{"a": 1' + b"0" * 5000 + b"}",
            "invalid JSON: a number with too many digits",
        ),
        "deep.json": (b"[" * 40 + b"]" * 40, f"lists and tables nested more than {MAX_DEPTH} "),
    }
    for name, (content, problem) in cases.items():
        path = tmp_path / name
        if content is not None:
            path.write_bytes(content)
        with pytest.raises(PuzzleError) as caught:
            read_document(str(path))
        assert caught.value.path == str(path)
        assert caught.value.problems[0].startswith(problem), caught.value.problems


def test_the_format_follows_the_name() -> None:
    assert format_of("p.JSON") == "json"
    assert format_of("p.toml") == format_of("p") == "toml"
    assert parse_document('{"a": [1]}', "p.json", fmt="json") == {"a": [1]}
    assert parse_document(b"\xef\xbb\xbfa = [1]", "p.toml") == {"a": [1]}


def test_values_are_described_and_quoted_alike_everywhere() -> None:
    assert describe(True) == "boolean true"
    assert describe("x" * 50) == 'string "' + "x" * 36 + "..."
    assert describe(10**5000) == "integer ..."
    assert quote('R1 "é"') == '"R1 \\"é\\""'


# -- one reader -----------------------------------------------------------------------------


def _calls(path: Path) -> set[str]:
    """The dotted names ``path`` calls or reads (``tomllib.loads``, ``sys.stdin``...)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            found.add(f"{node.value.id}.{node.attr}")
    return found


#: What reads a document's text, or stdin: only the document reader does.
READING = {"tomllib.loads", "tomllib.load", "sys.stdin", "click.get_text_stream"}


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_no_other_module_reads_a_document(path: Path) -> None:
    if path == DOCUMENTS:
        return
    reading = _calls(path) & READING
    if path.relative_to(PACKAGE) == Path("cli/play.py"):
        # The terminal game waits for a typed line on stdin (its prompt), no document.
        reading -= {"sys.stdin"}
    assert not reading, path
    text = path.read_text()
    # A file read in bytes or text by hand, besides the reader (writing is fine).
    assert '"rb"' not in text and ".read_text(" not in text and ".read_bytes(" not in text


#: What each shared layer must not import: both domains, and everything above it. The core
#: knows no game either; the game layer is written once over its protocol.
ABOVE = {
    "core": ("tiles", "cards", "play", "games", "render", "cli", "web"),
    "play": ("tiles", "cards", "games", "render", "cli", "web"),
}


@pytest.mark.parametrize(
    "path",
    sorted(path for layer in ABOVE for path in (PACKAGE / layer).rglob("*.py")),
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_the_shared_layers_import_no_domain(path: Path) -> None:
    # Both domains read their documents through core/ and play their games through play/:
    # neither knows a tile or a card.
    imported: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    above = [f"rummikub.{name}" for name in ABOVE[path.relative_to(PACKAGE).parts[0]]]
    assert not any(name == a or name.startswith(a + ".") for name in imported for a in above)
