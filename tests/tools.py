"""Running the puzzle tools (``puzzles/tools``) as a user would, shared by the tile and card
puzzle tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


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
