"""``rummikub solve``: the best move for each puzzle, or for a position given inline."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

import click

from rummikub.cli import explaining, render
from rummikub.cli.cards import CardTask, is_card_file
from rummikub.cli.cards import solve_one as solve_card
from rummikub.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_REJECTED,
    EXIT_UNPROVEN,
    overrides,
    rules_options,
)
from rummikub.cli.positions import (
    COMMAND_LINE,
    STDIN,
    Inline,
    check_usage,
    inline_puzzle,
    stdin_puzzle,
)
from rummikub.errors import PuzzleError
from rummikub.puzzles import Overrides, Puzzle, expand_all, load

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar

#: Below this many puzzles a second process costs more than it saves.
PARALLEL_FROM = 16


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
@click.option(
    "--rack",
    metavar="TILES",
    help='The rack of an inline position, e.g. "R4 K7 O7" (ranges R1-3 and groups KRB7 too).',
)
@click.option(
    "--table",
    "table",
    multiple=True,
    metavar="MELDS",
    help="Melds on the table of an inline position, separated by | or ;, e.g. "
    '"R1-3 | KRB7 | B9 B10 J"; repeatable.',
)
@click.option(
    "--position",
    metavar="TEXT",
    help='A whole position in one line, "TABLE / RACK" (or "TABLE / RACK / not-opened"), '
    'e.g. "R1-3 | KRB7 / R4 K7 O7".',
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
@click.option(
    "--game",
    type=click.Choice(["rummy", "500-rum", "romme", "continental", "california"]),
    help="A card game: the inline position is --hand (and --table) in card notation.",
)
@click.option(
    "--hand", metavar="CARDS", help='The hand of an inline card position, e.g. "7S 8S 9S".'
)
@click.option(
    "--deal", type=click.IntRange(1, 7), help="The deal (1-7) of an inline contract game."
)
@click.option("--opened", is_flag=True, help="The card player has already opened (gone down).")
@click.option(
    "--all-picks", is_flag=True, help="Card games: also list the best turn for every pile pick."
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    metavar="N",
    help=f"Solve puzzles in N processes (default: one per core from {PARALLEL_FROM} puzzles "
    "on, else 1). The output order is the same.",
)
@click.pass_context
def solve(
    ctx: click.Context,
    puzzles: tuple[str, ...],
    rack: str | None,
    table: tuple[str, ...],
    position: str | None,
    not_opened: bool,
    objective: Literal["value", "tiles"],
    rules_preset: str | None,
    rule_options: dict[str, str],
    time_limit: float | None,
    as_json: bool,
    verify: bool,
    explain: bool,
    no_color: bool,
    game: str | None,
    hand: str | None,
    deal: int | None,
    opened: bool,
    all_picks: bool,
    jobs: int | None,
) -> None:
    """Find the best move for each PUZZLE file, or for the position given by --rack/--table
    or --position.

    A folder means every .toml/.json puzzle file below it; - reads one puzzle (TOML, JSON
    or a one-line position) from stdin. Shows the new table with new or
    changed melds marked *, the tiles played, their value, and whether the answer is proven
    optimal. A puzzle with bad input is reported and skipped; the others are still solved.
    Exit 0 done (also for "no move"), 1 --verify found a different answer, 2 bad input,
    3 a time limit left an answer unproven.
    """
    if (game is None) != (hand is None):
        raise click.UsageError("an inline card position needs both --game and --hand")
    # An inline card position (--game/--hand) takes --table in card notation.
    card_inline = hand is not None
    given = Inline(rack, () if card_inline else table, position)
    check_usage(given)
    inline = given.given or card_inline
    if puzzles and inline:
        raise click.UsageError("give either PUZZLE files or an inline position, not both")
    if not puzzles and not inline:
        raise click.UsageError(
            "give PUZZLE files or folders, - for stdin, or a position with --rack/--table "
            "or --position"
        )
    choices = overrides(rules_preset, rule_options, False if not_opened else None)
    # Read once, here: worker processes have no stdin of their own.
    stdin = click.get_text_stream("stdin").read() if STDIN in puzzles else None

    sources: list[str | PuzzleError] = [COMMAND_LINE] if inline else expand_all(puzzles)
    task = _Task(
        inline=given if given.given else None,
        stdin=stdin,
        choices=choices,
        objective=objective,
        time_limit=time_limit,
        as_json=as_json,
        verify=verify,
        explain=explain,
        color=explaining.use_color(no_color) if explain else False,
        several=len(sources) > 1,
        cards=CardTask(
            game=game,
            hand=hand,
            table=table if hand is not None else (),
            deal=deal,
            opened=opened,
            time_limit=time_limit,
            as_json=as_json,
            verify=verify,
            explain=explain,
            all_picks=all_picks,
        ),
    )
    outcome = _Outcome()
    show_bar = len(sources) > 1 and not as_json and _stderr_is_terminal()
    with _progress(len(sources), show_bar) as progress:
        for report in _reports(task, sources, _worker_count(jobs, len(sources))):
            for text, err in report.lines:
                progress.echo(text, err=err)
            outcome.bad_input |= report.bad_input
            outcome.mismatch |= report.mismatch
            outcome.unproven |= report.unproven
            progress.step()
    ctx.exit(outcome.exit_code)


@dataclass(frozen=True)
class _Task:
    """Everything a solve needs besides the puzzle (sent once to each worker process)."""

    inline: Inline | None
    stdin: str | None
    choices: Overrides
    objective: Literal["value", "tiles"]
    time_limit: float | None
    as_json: bool
    verify: bool
    explain: bool
    color: bool
    several: bool
    #: Card games (CARDS.md): the inline card position and card options.
    cards: CardTask = field(default_factory=CardTask)


@dataclass
class _Report:
    """What one puzzle prints (in order; ``True`` for stderr) and what it means for the exit."""

    lines: list[tuple[str, bool]]
    bad_input: bool = False
    mismatch: bool = False
    unproven: bool = False


def _worker_count(jobs: int | None, count: int) -> int:
    if jobs is not None:
        return jobs
    return min(os.cpu_count() or 1, 8) if count >= PARALLEL_FROM else 1


def _reports(task: _Task, sources: list[str | PuzzleError], workers: int) -> Iterator[_Report]:
    """One report per source, in order; solved in ``workers`` processes when more than one
    (each puzzle is independent, and the solver uses one thread)."""
    if workers <= 1:
        for source in sources:
            yield _solve_one(task, source)
        return
    import multiprocessing

    import rummikub.solver.model  # noqa: F401  (imported once here, inherited by the workers)

    # fork: the workers start with the solver already imported.
    context = multiprocessing.get_context("fork")
    with context.Pool(workers, initializer=_start_worker, initargs=(task,)) as pool:
        yield from pool.imap(_solve_in_worker, sources, chunksize=4)


_worker_task: _Task | None = None


def _start_worker(task: _Task) -> None:
    global _worker_task
    _worker_task = task


def _solve_in_worker(source: str | PuzzleError) -> _Report:
    assert _worker_task is not None
    return _solve_one(_worker_task, source)


def _solve_one(task: _Task, source: str | PuzzleError) -> _Report:
    """Load, solve and render one puzzle."""
    # Imported here so that --help and check never load the solver (and OR-Tools).
    from rummikub.solver import solve as solve_position

    if task.cards.inline or (
        task.inline is None and isinstance(source, str) and is_card_file(source)
    ):
        card = solve_card(
            task.cards, source if isinstance(source, str) else "", several=task.several
        )
        return _Report(card.lines, card.bad_input, card.mismatch, card.unproven)
    try:
        if task.inline is not None:
            puzzle = inline_puzzle(task.inline, task.choices)
        elif source == STDIN and task.stdin is not None:
            puzzle = stdin_puzzle(task.stdin, task.choices)
        else:
            puzzle = _load(source, task.choices)
    except PuzzleError as error:
        return _Report([(f"Error: {error}", True)], bad_input=True)
    result = solve_position(puzzle.position, objective=task.objective, time_limit=task.time_limit)
    name = None if task.inline is not None else puzzle.path
    explanation = explaining.explain_result(result) if task.explain else None
    if task.as_json and explanation is not None:
        text = explaining.result_json(result, name, explanation)
    elif task.as_json:
        text = render.result_json(result, name)
    else:
        if explanation is not None:
            text = explaining.result_text(
                result, explanation, name=name, title=puzzle.title, color=task.color
            )
        else:
            text = render.result_text(result, name=name, title=puzzle.title)
        text += "\n" if task.several else ""
    report = _Report([(text, False)], unproven=not result.proven)
    expect = puzzle.expect
    if task.verify and expect and not expect.matches(result.status, result.value, result.tiles):
        report.lines.append(
            (f"Mismatch: {render.mismatch_text(puzzle.path, expect, result)}", True)
        )
        report.mismatch = True
    return report


def _load(source: str | PuzzleError, choices: Overrides) -> Puzzle:
    if isinstance(source, PuzzleError):  # an argument that stood for no puzzle file
        raise source
    return load(source, overrides=choices)
