"""README.md and every page of docs/, example by example: every ``console`` example prints
what its page shows.

Each ``$ command`` line of a fenced ``console`` block is run and its output compared with the
lines below it, wall times masked (:data:`TIMES`); each ``python`` block is run and what it
prints compared with its ``# `` lines. The pages are :data:`PAGES` (README.md, then docs/ in
the order of its contents page; ``docs/cli.md`` is generated, see ``test_cli_reference.py``).
Each page's examples run in page order in a temporary folder of its own holding a copy of
``puzzles/``, as a reader going down the page would: later examples read what earlier ones
of the same page wrote (``game.toml``), and no file of the checkout is written.

A ``$ rummikub ...`` line runs in ``/bin/sh`` with ``rummikub`` standing for ``python -m
rummikub`` of the package under test, stdout and stderr into one pipe as a terminal shows
them both, without a tty (so without colors or progress bars, as the README prints them).
Two examples need more than a shell: the ``curl`` one asks a real ``rummikub serve`` started
on a free port, and ``rummikub play`` is typed into a pseudo-terminal, the lines after its
prompt being what the person types.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import itertools
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

import rummikub

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"
#: Generated from the commands' ``--help``: no examples to run.
GENERATED = ("cli.md",)
#: The folder the package under test is imported from: the commands run this code, not
#: whatever ``rummikub`` an installed script would run.
PACKAGE_ROOT = Path(rummikub.__file__).resolve().parent.parent

#: What varies from one run to the next, and only that: wall times, and the rate of games
#: computed from one. Each pattern keeps what is around the time.
TIMES = (
    (re.compile(r"^Time: \d+\.\d+ s$"), "Time: <seconds> s"),
    (re.compile(r'("seconds": ?)\d+(\.\d+)?(e-?\d+)?'), r"\1<seconds>"),
    (re.compile(r"^(\d+ games in )\d+\.\d s \(\d+\.\d+ games/s, "), r"\1<seconds> s (<rate>, "),
)

#: The prompts of ``rummikub play`` (tiles; a card game's draw, then its lay-down): in its
#: examples, what follows one on a line is typed.
PROMPTS = (
    "Your move (help for help): ",
    "Draw (stock, pile; help for help): ",
    "Lay and discard (help for help): ",
)

#: Variables of the reader's environment that would change what is printed (colors forced
#: or refused, a terminal width) and have no place in the examples.
LOOKS = ("FORCE_COLOR", "NO_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "COLUMNS", "LINES")

#: The longest one example may take before it is reported as hanging.
TIMEOUT = 180.0


@dataclass(frozen=True, slots=True)
class Example:
    """One command of a ``console`` block, or one whole ``python`` block."""

    page: str  # the page, as a path from the checkout's root: "docs/players.md"
    index: int  # its place among the page's examples
    line: int  # where it starts in the page
    kind: Literal["console", "python"]
    source: str  # the command after "$ ", or the code
    expected: tuple[str, ...]  # the lines it prints

    @property
    def name(self) -> str:
        first = self.source.splitlines()[0]
        return f"{self.page}:{self.line}: {first[:60]}"

    def missing(self) -> str | None:
        """Why the example cannot run here (an optional dependency missing), or None."""
        needs: list[tuple[str, str]] = []
        if self.kind == "console" and self.source.startswith("curl "):
            needs = [("starlette", "web"), ("uvicorn", "web")]
        elif self.kind == "console" and self.interactive:
            needs = [("pexpect", "test")]
        elif self.kind == "console" and " --chart " in self.source:
            needs = [("matplotlib", "chart")]
        for module, extra in needs:
            if importlib.util.find_spec(module) is None:
                return f"{self.name} needs the [{extra}] extra ({module} is not installed)"
        return None

    @property
    def interactive(self) -> bool:
        return any(line.startswith(PROMPTS) for line in self.expected)


def read_examples(text: str, page: str = "README.md") -> list[Example]:
    """A page's examples in order. A ``console`` block holds ``$ `` commands, each
    followed by its output; in a ``python`` block a line starting with ``# `` is output."""
    examples: list[Example] = []
    lines = text.split("\n")
    number = 0
    while number < len(lines):
        fence = lines[number]
        number += 1
        if fence not in ("```console", "```python"):
            continue
        start = number
        while lines[number] != "```":
            number += 1
        body = lines[start:number]
        number += 1
        if fence == "```python":
            shown = tuple(line[2:] for line in body if line.startswith("# ") or line == "#")
            code = "\n".join(body)
            examples.append(Example(page, len(examples), start + 1, "python", code, shown))
            continue
        if not body or not body[0].startswith("$ "):
            raise ValueError(f"{page}:{start + 1}: a console block starts with a $ command")
        commands = [i for i, line in enumerate(body) if line.startswith("$ ")]
        for i, end in zip(commands, [*commands[1:], len(body)], strict=True):
            source, shown = body[i].removeprefix("$ "), tuple(body[i + 1 : end])
            examples.append(Example(page, len(examples), start + i + 1, "console", source, shown))
    return examples


def pages() -> list[str]:
    """README.md, then the pages of docs/ in the order its contents page links them (any
    page it does not link after them, by name), the generated ones left out."""
    contents = (DOCS / "README.md").read_text(encoding="utf-8")
    linked = re.findall(r"\]\(([\w-]+\.md)\)", contents)
    every = sorted(p.name for p in DOCS.glob("*.md") if p.name not in ("README.md", *GENERATED))
    ordered = [name for name in dict.fromkeys(linked) if name in every]
    ordered += [name for name in every if name not in ordered]
    return ["README.md", *(f"docs/{name}" for name in ordered)]


PAGES = pages()
BY_PAGE = {page: read_examples((REPO / page).read_text(encoding="utf-8"), page) for page in PAGES}
EXAMPLES = [example for page in PAGES for example in BY_PAGE[page]]


def masked(lines: list[str] | tuple[str, ...]) -> list[str]:
    for pattern, replacement in TIMES:
        lines = [pattern.sub(replacement, line) for line in lines]
    return list(lines)


def lines_of(text: str) -> list[str]:
    """The lines printed, as the README writes them (no line for the final newline)."""
    lines = text.replace("\r\n", "\n").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Reader:
    """Runs the examples of one page in order in one folder, each once, when first asked."""

    def __init__(self, folder: Path, page: str) -> None:
        self.folder = folder
        self.examples = BY_PAGE[page]
        self.printed: list[list[str] | None] = []  # None: could not run here (missing())
        self.server: subprocess.Popen[bytes] | None = None
        self.port = 0
        bin_folder = folder.parent / "bin"
        bin_folder.mkdir()
        shim = bin_folder / "rummikub"
        shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m rummikub "$@"\n')
        shim.chmod(0o755)
        env = {key: value for key, value in os.environ.items() if key not in LOOKS}
        env["PATH"] = f"{bin_folder}{os.pathsep}{env.get('PATH', '')}"
        path = env.get("PYTHONPATH")
        env["PYTHONPATH"] = f"{PACKAGE_ROOT}{os.pathsep}{path}" if path else str(PACKAGE_ROOT)
        # Unbuffered, so that stdout and stderr lines come in the order they are written,
        # as on a terminal (a pipe would otherwise hold stdout back until the end).
        env["PYTHONUNBUFFERED"] = "1"
        self.env = env

    def output(self, index: int) -> list[str] | None:
        """What example ``index`` printed, after running every example before it."""
        while len(self.printed) <= index:
            example = self.examples[len(self.printed)]
            self.printed.append(None if example.missing() else self._run(example))
        return self.printed[index]

    def close(self) -> None:
        if self.server is not None:
            self.server.terminate()
            self.server.wait(timeout=30)

    def _run(self, example: Example) -> list[str]:
        if example.kind == "python":
            return self._python(example)
        if example.source.startswith("curl "):
            return self._curl(example.source)
        if example.interactive:
            return self._terminal(example)
        try:
            done = subprocess.run(
                ["/bin/sh", "-c", example.source],
                cwd=self.folder,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return [f"<no end after {TIMEOUT:.0f} s>"]
        return lines_of(done.stdout.decode("utf-8", errors="backslashreplace"))

    def _python(self, example: Example) -> list[str]:
        printed = io.StringIO()
        code = compile(example.source, f"{example.page}:{example.line}", "exec")
        with contextlib.chdir(self.folder), contextlib.redirect_stdout(printed):
            try:
                exec(code, {"__name__": "readme"})
            except Exception as error:
                # Part of what it printed: its own test fails on it, the next ones still run.
                print(f"{type(error).__name__}: {error}")
        return lines_of(printed.getvalue())

    def _terminal(self, example: Example) -> list[str]:
        """The session in a pseudo-terminal, each line after a prompt typed in turn. The
        README cannot show colors: they are turned off the documented way (NO_COLOR)."""
        import pexpect

        typed = [
            (prompt, line.removeprefix(prompt))
            for line in example.expected
            for prompt in PROMPTS
            if line.startswith(prompt)
        ]
        child = pexpect.spawn(
            "/bin/sh",
            ["-c", example.source],
            cwd=str(self.folder),
            env={**self.env, "NO_COLOR": "1"},
            encoding="utf-8",
            timeout=TIMEOUT,
        )
        seen = ""
        try:
            for prompt, line in typed:
                child.expect_exact(prompt)
                seen += child.before + child.after
                child.sendline(line)
            child.expect(pexpect.EOF)
            seen += child.before
        except (pexpect.EOF, pexpect.TIMEOUT):
            seen += child.before + "<the prompt did not come>"
        finally:
            child.close(force=True)
        return lines_of(seen)

    def _curl(self, command: str) -> list[str]:
        """``curl -s URL [-H HEADER] -d BODY`` against ``rummikub serve``, which listens on a
        free port here (8000 may be taken): what curl prints is the answer's body."""
        words = shlex.split(command)
        url, body = words[words.index("-s") + 1], words[words.index("-d") + 1]
        header = words[words.index("-H") + 1] if "-H" in words else None
        given = ["-H", header] if header is not None else []
        expected = ["curl", "-s", url, *given, "-d", body]
        assert words == expected, f"not a curl command to run: {command}"
        url = "http://" + url.replace("localhost:8000", f"127.0.0.1:{self._serve()}", 1)
        # What curl -d sends, and the header given with -H.
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Host": "localhost:8000"}
        if header is not None:
            name, _, value = header.partition(":")
            headers[name.strip()] = value.strip()
        request = urllib.request.Request(url, data=body.encode(), headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
                text: str = answer.read().decode()
        except urllib.error.HTTPError as error:  # curl -s prints an error's body too
            text = error.read().decode()
        return lines_of(text)

    def _serve(self) -> int:
        if self.server is None:
            self.port = free_port()
            log = self.folder.parent / "serve.log"
            with log.open("wb") as written:
                self.server = subprocess.Popen(
                    [sys.executable, "-m", "rummikub", "serve", "--port", str(self.port)],
                    cwd=self.folder,
                    env=self.env,
                    stdin=subprocess.DEVNULL,
                    stdout=written,
                    stderr=subprocess.STDOUT,
                )
            deadline = time.monotonic() + TIMEOUT
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api", timeout=5):
                        break
                except OSError:
                    if self.server.poll() is not None or time.monotonic() > deadline:
                        said = log.read_text(errors="replace")
                        raise RuntimeError(f"rummikub serve did not start:\n{said}") from None
                    time.sleep(0.1)
        return self.port


class Readers:
    """One reader per page, each in a folder of its own, made when the page is first read."""

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        self.factory = factory
        self.by_page: dict[str, Reader] = {}

    def __getitem__(self, page: str) -> Reader:
        if page not in self.by_page:
            folder = self.factory.mktemp(Path(page).stem) / "work"
            folder.mkdir()
            shutil.copytree(REPO / "puzzles", folder / "puzzles")
            self.by_page[page] = Reader(folder, page)
        return self.by_page[page]

    def close(self) -> None:
        for running in self.by_page.values():
            running.close()


@pytest.fixture(scope="module")
def readers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Readers]:
    every = Readers(tmp_path_factory)
    try:
        yield every
    finally:
        every.close()


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_the_example_prints_what_its_page_shows(readers: Readers, example: Example) -> None:
    reason = example.missing()
    if reason is not None:
        pytest.skip(reason)
    printed = readers[example.page].output(example.index)
    assert printed is not None
    assert masked(printed) == masked(example.expected), example.name


#: The options by which a command writes a file, besides the records of ``rummikub game``.
WRITES = ("--svg", "--chart", "--csv", "--save")


def written_files(example: Example) -> list[str]:
    words = shlex.split(example.source) if example.kind == "console" else []
    return [after for word, after in itertools.pairwise(words) if word in WRITES]


def test_the_pages_have_their_examples() -> None:
    """The reading finds the examples, those that need more than a shell among them, on
    the README and on the pages of docs/ (each of which is read)."""
    console = [e for e in EXAMPLES if e.kind == "console"]
    assert len(console) >= 30 and len(EXAMPLES) - len(console) >= 4
    assert any(e.source.startswith("curl ") for e in console)
    assert any(e.interactive for e in console)
    assert PAGES[0] == "README.md" and len(BY_PAGE["README.md"]) >= 5
    docs = {f"docs/{p.name}" for p in DOCS.glob("*.md") if p.name not in GENERATED}
    assert docs - {"docs/README.md"} <= set(PAGES)


def test_no_example_is_run_on_two_pages() -> None:
    """An example is shown once: a page that needs another's points to it, so the suite
    does not pay twice for an expensive one (``--equity``)."""
    pages: dict[str, set[str]] = {}
    for example in EXAMPLES:
        pages.setdefault(example.source, set()).add(example.page)
    assert {source: found for source, found in pages.items() if len(found) > 1} == {}


def test_no_example_overwrites_a_file_of_the_checkout() -> None:
    """A reader runs the examples in their checkout: none may write over a tracked file,
    such as a picture in docs/ (an example writes its picture in the current folder)."""
    listed = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    tracked = set(listed.stdout.split())
    if listed.returncode != 0 or not tracked:
        pytest.skip("not a git checkout: which files are tracked is not known")
    for example in EXAMPLES:
        assert [f for f in written_files(example) if f in tracked] == [], example.name


def test_the_pictures_are_what_the_examples_draw(readers: Readers) -> None:
    """Each picture an example writes is there afterwards; an SVG its page shows from
    docs/ under the same name is that file byte for byte (the drawing is deterministic; a
    PNG of matplotlib's depends on its version, so it is only checked to be a PNG)."""
    drawn = 0
    for example in EXAMPLES:
        text = (REPO / example.page).read_text(encoding="utf-8")
        for name in written_files(example):
            if not name.endswith((".svg", ".png")) or example.missing():
                continue
            reader = readers[example.page]
            reader.output(example.index)
            picture = reader.folder / name
            assert picture.is_file(), f"{example.name} did not write {name}"
            shown = DOCS / name
            link = f"](docs/{name})" if example.page == "README.md" else f"]({name})"
            if link in text and name.endswith(".svg"):
                assert picture.read_bytes() == shown.read_bytes(), f"docs/{name} is not {name}"
            if name.endswith(".png"):
                assert picture.read_bytes().startswith(b"\x89PNG\r\n\x1a\n"), name
            drawn += 1
    assert drawn >= 1
