"""What several test modules share: the command line run in process, the mark of tests that
need Dask, running the puzzle tools (``puzzles/tools``) as a user would, for the tile and
card puzzle tests; the browser the board's tests drive."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from rummikub.cli import main
from rummikub.core import deadline

REPO = Path(__file__).resolve().parent.parent

#: Tests of the Dask scheduler: skipped, saying why, where the optional extra is missing.
needs_dask = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="Dask distributed is not installed (the [cluster] extra)",
)


def run(*args: str) -> tuple[int, str, str]:
    """``rummikub ARGS...`` in process: its exit code, standard output and standard error."""
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


class RunsOutAfter:
    """:mod:`rummikub.core.deadline` as the playouts of :mod:`rummikub.play.equity` see it
    (set it as that module's ``deadline``), with a time limit that runs out at the
    ``calls``-th look between playouts rather than on the clock: the cut comes at the same
    playout however busy the machine is. (A clock's 2 s once let no deal finish on a loaded
    CI machine.) The solves inside the playouts keep the real deadline."""

    def __init__(self, calls: int) -> None:
        self.calls = calls

    def passed(self) -> bool:
        self.calls -= 1
        return self.calls < 0 or deadline.passed()

    def __getattr__(self, name: str) -> Any:
        return getattr(deadline, name)


def _screenshots() -> ModuleType:
    """``docs/tools/screenshots.py``, the script that takes the docs' pictures: the browser
    and its flags are its own, and the browser tests drive the same (its top imports only
    the standard library)."""
    path = REPO / "docs" / "tools" / "screenshots.py"
    spec = importlib.util.spec_from_file_location("docs_screenshots", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_SCRIPT = _screenshots()
#: The system's Chromium (``CHROMIUM`` names another) and the flags it is started with.
CHROMIUM: str = _SCRIPT.CHROMIUM
CHROMIUM_ARGS: list[str] = _SCRIPT.ARGS


def run_without_ortools(tool: str, folder: Path) -> list[str]:
    """The output lines of ``puzzles/tools/<tool>.py`` run on ``folder`` in a fresh
    interpreter, after checking that it passed and never loaded ortools (the answers are
    re-established without the ILP)."""
    code = (
        "import runpy, sys\n"
        f"sys.argv = [{tool!r}, {str(folder)!r}]\n"
        "try:\n"
        f"    runpy.run_module('puzzles.tools.{tool}', run_name='__main__')\n"
        "except SystemExit as done:\n"
        "    status = done.code\n"
        "print('ortools loaded:', 'ortools' in sys.modules)\n"
        "sys.exit(status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "ortools loaded: False"
    return lines[:-1]
