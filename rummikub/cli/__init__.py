"""The ``rummikub`` command line: a thin adapter over the library.

This package is the only place that imports click. Commands import the solver only when
they run, so that ``--help`` and ``check`` never load OR-Tools.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from rummikub import __version__
from rummikub.cli import analyse, check, ending, game, play, serve, simulate, solve
from rummikub.cli.common import BadInput
from rummikub.errors import RummikubError

__all__ = ["main"]


class _Group(click.Group):
    """A group that turns any library error a command let through into exit 2."""

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

        def invoke() -> int | None:
            code = super(_Group, self).main(args, prog_name, complete_var, False, **extra)
            return code if isinstance(code, int) else None

        sys.exit(ending.run(invoke))


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rummikub")
def main() -> None:
    """Find the best move in a game of Rummikub and prove it optimal, or check a move.

    Tiles are a color letter (K black, R red, B blue, O orange) and a number, e.g. R7;
    J is the joker. Exit codes: 0 done, 1 illegal move or --verify mismatch,
    2 bad input, 3 a time limit left an answer unproven, 130 interrupted (Ctrl-C),
    141 the output pipe was closed.
    """


# Added by module, so that ``rummikub.cli.solve`` stays the module (tests patch it) rather
# than being shadowed by the command of the same name.
main.add_command(check.check)
main.add_command(solve.solve)
main.add_command(game.game)
main.add_command(simulate.simulate)
main.add_command(play.play_command)
main.add_command(serve.serve)
main.add_command(analyse.analyse)
