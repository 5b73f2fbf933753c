"""Start-up of one ``rummikub solve`` process: it imports only what solving needs (issue 10:
one process within 0.15 s; the figure itself is in benchmarks/RESULTS.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

PROGRAM = """
import sys
from rummikub.cli import main
try:
    main(["solve", "puzzles/basics/two-tiles-fit.toml"], prog_name="rummikub")
except SystemExit:
    pass
loaded = sorted(m for m in sys.modules if m.startswith(("rummikub.game", "rummikub.cli.")))
print(" ".join(loaded), file=sys.stderr)
"""


def test_solving_imports_no_other_command() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, cwd=REPO, check=False
    )
    loaded = done.stderr.split()
    assert "rummikub.cli.solve" in loaded, done.stderr
    for other in (
        "rummikub.cli.serve",
        "rummikub.game",
        "rummikub.cli.game",
        "rummikub.cli.play",
        "rummikub.cli.simulate",
    ):
        assert other not in loaded


def test_every_command_is_listed_and_runs_its_help() -> None:
    from click.testing import CliRunner

    from rummikub.cli import LAZY_COMMANDS, main

    listing = CliRunner().invoke(main, ["--help"])
    assert listing.exit_code == 0
    for name in LAZY_COMMANDS:
        assert f"  {name} " in listing.output, name
        assert CliRunner().invoke(main, [name, "--help"]).exit_code == 0, name
