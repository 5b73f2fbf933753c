"""The ``rummikub`` command line: a thin adapter over the library.

This package is the only place that imports click. Commands import the solver only when
they run, so that ``--help`` and ``check`` never load OR-Tools.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import sys
from collections.abc import Sequence
from typing import Any

import click

from rummikub import __version__
from rummikub.cli import ending
from rummikub.cli.common import BadInput
from rummikub.core.errors import RummikubError

__all__ = ["main"]

#: Commands by name: (module under rummikub.cli, attribute), imported only when run or
#: listed. One ``rummikub solve puzzle.toml`` then never imports the game, the simulator
#: or the player (a third of the process's start-up before this).
LAZY_COMMANDS = {
    "check": ("check", "check"),
    "solve": ("solve", "solve"),
    "game": ("game", "game"),
    "simulate": ("simulate", "simulate"),
    "duel": ("duel", "duel"),
    "ladder": ("ladder", "ladder"),
    "play": ("play", "play_command"),
    "serve": ("serve", "serve"),
    "analyse": ("analyse", "analyse"),
}


class _Group(click.Group):
    """A group that turns any library error a command let through into exit 2, and
    imports each command of ``LAZY_COMMANDS`` when first needed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None or cmd_name not in LAZY_COMMANDS:
            return found
        module, attribute = LAZY_COMMANDS[cmd_name]
        command = getattr(importlib.import_module(f"rummikub.cli.{module}"), attribute)
        assert isinstance(command, click.Command)
        self.add_command(command, cmd_name)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RummikubError as error:
            raise BadInput.from_error(error) from error
        except OSError as error:  # past click, which makes a closed pipe exit 1
            raise ending.OutputFailed(error) from error

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """As click's, but every ending has the exit code of :mod:`rummikub.cli.ending`."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        # A process that runs the command line ends after it. Where it goes through the
        # interpreter's shutdown (with worker processes, see ending.leave), its objects
        # (OR-Tools, click, our modules) are frozen just before the last garbage
        # collection, which then need not walk them all (benchmarks/RESULTS.md, "Speed
        # choices", *Objects frozen at exit*). At exit only, so a test process that calls
        # main() many times collects its garbage as usual until it ends.
        atexit.unregister(gc.freeze)  # once, however often main() runs in one process
        atexit.register(gc.freeze)

        def invoke() -> int | None:
            code = super(_Group, self).main(args, prog_name, complete_var, False, **extra)
            return code if isinstance(code, int) else None

        code = ending.run(invoke)
        if args is None:
            # The process's own command line (the ``rummikub`` script, ``python -m
            # rummikub``): it ends here, without the interpreter's shutdown. A caller that
            # passes the arguments (a test, CliRunner) gets SystemExit as usual.
            ending.leave(code)
        sys.exit(code)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rummikub")
def main() -> None:
    """Find the best move in a game of Rummikub and prove it optimal, or check a move; the
    same for a turn of a card rummy: rummy, 500-rum, romme, continental or california
    (solve and check with --game, or a puzzle file with a game key).

    Tiles are a color letter (K black, R red, B blue, O orange) and a number, e.g. R7;
    J is the joker. Cards are a rank and a suit (S H D C), e.g. 10H or AS; * is the
    joker. Exit codes: 0 done, 1 illegal move or --verify mismatch,
    2 bad input, 3 a time limit left an answer unproven, 130 interrupted (Ctrl-C),
    141 the output pipe was closed.
    """
