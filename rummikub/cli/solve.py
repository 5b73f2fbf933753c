"""``rummikub solve``: the best move for each puzzle, or for a position given inline."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import click

from rummikub.cli import explaining, render
from rummikub.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_REJECTED,
    EXIT_UNPROVEN,
    overrides,
    rules_options,
)
from rummikub.errors import PuzzleError
from rummikub.puzzles import Overrides, Puzzle, expand_all, from_data, load

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar

#: How a position given by --rack/--table is named in messages; its JSON "puzzle" is null.
COMMAND_LINE = "command line"


@dataclass
class _Outcome:
    """What decides the exit code, gathered over every puzzle."""

    bad_input: bool = False
    mismatch: bool = False
    unproven: bool = False

    @property
    def exit_code(self) -> int:
        # Bad input first (something was not solved at all), then a wrong answer, then an
        # unproven one.
        if self.bad_input:
            return EXIT_BAD_INPUT
        if self.mismatch:
            return EXIT_REJECTED
        return EXIT_UNPROVEN if self.unproven else EXIT_OK


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


class _Progress:
    """A progress bar on stderr that steps aside whenever a result is printed."""

    def __init__(self, bar: ProgressBar[int] | None) -> None:
        self.bar = bar

    def echo(self, text: str, *, err: bool = False) -> None:
        if self.bar is not None:
            click.echo("\r\033[K", err=True, nl=False)  # clear the bar's line first
        click.echo(text, err=err)

    def step(self) -> None:
        if self.bar is not None:
            self.bar.update(1)


@contextmanager
def _progress(count: int, show: bool) -> Iterator[_Progress]:
    if not show:
        yield _Progress(None)
        return
    with click.progressbar(length=count, label="Solving", file=sys.stderr) as bar:
        yield _Progress(bar)


@click.command()
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...")
@click.option("--rack", metavar="TILES", help='The rack of an inline position, e.g. "R4 K7 O7".')
@click.option(
    "--table",
    "table",
    multiple=True,
    metavar="MELD",
    help='A meld on the table of an inline position, e.g. "R1 R2 R3"; repeat for every meld.',
)
@click.option(
    "--not-opened",
    is_flag=True,
    help="The player has not made the initial meld yet (also overrides puzzle files).",
)
@click.option(
    "--objective",
    type=click.Choice(["value", "tiles"]),
    default="value",
    show_default=True,
    help="Maximise the value of the tiles played, or their number (the other breaks ties).",
)
@rules_options
@click.option(
    "--time-limit",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="Stop each solve after this long; an unproven answer then gives exit code 3.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object per puzzle, one per line."
)
@click.option(
    "--verify",
    is_flag=True,
    help="Compare each answer with the puzzle's [expect]; exit 1 if any differs.",
)
@click.option(
    "--explain",
    is_flag=True,
    help="Also show where every tile of the new table comes from and numbered steps that "
    'turn the old table into the new one (with --json: the keys "changes" and "steps").',
)
@click.option(
    "--no-color",
    is_flag=True,
    help="Show --explain output without colors (as when NO_COLOR is set).",
)
@click.pass_context
def solve(
    ctx: click.Context,
    puzzles: tuple[str, ...],
    rack: str | None,
    table: tuple[str, ...],
    not_opened: bool,
    objective: Literal["value", "tiles"],
    rules_preset: str | None,
    rule_options: dict[str, str],
    time_limit: float | None,
    as_json: bool,
    verify: bool,
    explain: bool,
    no_color: bool,
) -> None:
    """Find the best move for each PUZZLE file, or for the position given by --rack/--table.

    A folder means every .toml/.json puzzle file below it. Shows the new table with new or
    changed melds marked *, the tiles played, their value, and whether the answer is proven
    optimal. A puzzle with bad input is reported and skipped; the others are still solved.
    Exit 0 done (also for "no move"), 1 --verify found a different answer, 2 bad input,
    3 a time limit left an answer unproven.
    """
    inline = rack is not None or bool(table)
    if puzzles and inline:
        raise click.UsageError("give either PUZZLE files or --rack/--table, not both")
    if not puzzles and not inline:
        raise click.UsageError("give PUZZLE files or folders, or a position with --rack/--table")
    choices = overrides(rules_preset, rule_options, False if not_opened else None)

    # Imported here so that --help and check never load the solver (and OR-Tools).
    from rummikub.solver import solve as solve_position

    sources: list[str | PuzzleError] = [COMMAND_LINE] if inline else expand_all(puzzles)
    outcome = _Outcome()
    show_bar = len(sources) > 1 and not as_json and _stderr_is_terminal()
    with _progress(len(sources), show_bar) as progress:
        for source in sources:
            try:
                if isinstance(source, PuzzleError):
                    raise source
                puzzle = (
                    _inline(rack, table, choices) if inline else load(source, overrides=choices)
                )
            except PuzzleError as error:
                if show_bar:
                    click.echo("\r\033[K", err=True, nl=False)
                click.echo(f"Error: {error}", err=True)
                outcome.bad_input = True
                progress.step()
                continue
            result = solve_position(puzzle.position, objective=objective, time_limit=time_limit)
            name = None if inline else puzzle.path
            explanation = explaining.explain_result(result) if explain else None
            if as_json and explanation is not None:
                progress.echo(explaining.result_json(result, name, explanation))
            elif as_json:
                progress.echo(render.result_json(result, name))
            else:
                if explanation is not None:
                    color = explaining.use_color(no_color)
                    text = explaining.result_text(
                        result, explanation, name=name, title=puzzle.title, color=color
                    )
                else:
                    text = render.result_text(result, name=name, title=puzzle.title)
                progress.echo(text + ("\n" if len(sources) > 1 else ""))
            outcome.unproven |= not result.proven
            expect = puzzle.expect
            if verify and expect and not expect.matches(result.status, result.value, result.tiles):
                progress.echo(
                    f"Mismatch: {render.mismatch_text(puzzle.path, expect, result)}", err=True
                )
                outcome.mismatch = True
            progress.step()
    ctx.exit(outcome.exit_code)


def _inline(rack: str | None, table: tuple[str, ...], choices: Overrides) -> Puzzle:
    """The position of --rack/--table, checked exactly like a puzzle file."""
    data = {"rack": rack or "", "table": list(table)}
    return from_data(data, COMMAND_LINE, overrides=choices)


def _load(source: str | PuzzleError, choices: Overrides) -> Puzzle:
    if isinstance(source, PuzzleError):  # an argument that stood for no puzzle file
        raise source
    return load(source, overrides=choices)
