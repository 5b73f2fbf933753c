"""``rummikub solve``: the best move for each puzzle, or for a position given inline."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import click

from rummikub.cli import ending, render
from rummikub.cli.card_options import (
    CardOptions,
    card_options_of,
    card_position_options,
    card_record_problem,
    is_card_data,
    is_card_record_data,
)
from rummikub.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_REJECTED,
    EXIT_UNPROVEN,
    check_time_limit,
    overrides,
    rules_options,
    write_svg,
)
from rummikub.cli.positions import (
    COMMAND_LINE,
    Inline,
    check_sources,
    check_usage,
    rack_table_options,
    read_puzzle,
    stdin_data,
)
from rummikub.core.documents import STDIN, read_document, read_stdin
from rummikub.core.errors import PuzzleError
from rummikub.render.text import paint, use_color
from rummikub.tiles.puzzles import Overrides, expand_all

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from rummikub.cli.cards import CardTask

#: Below this many puzzles a second process costs more than it saves.
PARALLEL_FROM = 16


# The classes of this module are plain classes and named tuples, not dataclasses: every
# ``rummikub solve`` process imports this module, and a dataclass is slow to make
# (benchmarks/RESULTS.md, "Speed choices", *Records*).


class _Outcome:
    """What decides the exit code, gathered over every puzzle."""

    def __init__(self) -> None:
        self.bad_input = False
        self.mismatch = False
        self.unproven = False

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
    """A progress bar on stderr (rich) that prints results above itself and clears itself
    when done, so that only the results stay on screen."""

    def __init__(self, bar: Progress | None = None, task: TaskID | None = None) -> None:
        self.bar = bar
        self.task = task
        # Results printed through the bar's console go above the bar; that is only needed
        # (and only right) when stdout is the screen the bar is on. To a file or a pipe,
        # results go untouched.
        self.above = bar is not None and sys.stdout.isatty()

    def echo(self, text: str, *, err: bool = False, color: bool = False) -> None:
        with ending.whole_output():  # a signal waits until the line is out
            if self.bar is not None and (err or self.above):
                from rich.text import Text

                self.bar.console.print(Text.from_ansi(text), soft_wrap=True)
            else:
                click.echo(text, err=err, color=color or None)

    def write(self, lines: Sequence[tuple[str, bool]], color: bool) -> None:
        """Print lines in order (``True``: to stderr): each run of lines to the same stream
        in one write, the same bytes as one echo a line (a folder solve's answers come in
        batches, and a write a line was most of what the main process did)."""
        if self.bar is not None:
            for text, err in lines:
                self.echo(text, err=err, color=color and not err)
            return
        start = 0
        while start < len(lines):
            err = lines[start][1]
            stop = start + 1
            while stop < len(lines) and lines[stop][1] == err:
                stop += 1
            text = "\n".join(text for text, _ in lines[start:stop])
            self.echo(text, err=err, color=color and not err)
            start = stop

    def step(self) -> None:
        if self.bar is not None and self.task is not None:
            self.bar.advance(self.task)


@contextmanager
def _progress(count: int, show: bool) -> Iterator[_Progress]:
    if not show:
        yield _Progress()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    bar = Progress(
        TextColumn("Solving"),
        BarColumn(),
        MofNCompleteColumn(),
        # Shown only when stderr was found to be a terminal (see the caller).
        console=Console(file=sys.stderr, highlight=False, force_terminal=True),
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    with bar:
        yield _Progress(bar, bar.add_task("Solving", total=count))


@click.command()
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...")
@rack_table_options
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
    type=float,
    callback=check_time_limit,
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
    help="Show tiles without colors (as when NO_COLOR is set; FORCE_COLOR forces them).",
)
@card_position_options
@click.option(
    "--all-picks", is_flag=True, help="Card games: also list the best turn for every pile pick."
)
@click.option(
    "--four-color",
    is_flag=True,
    help="Card games: show cards in the four-color deck's colors (diamonds blue, clubs "
    "green) on the terminal and in the --svg picture, not red and black.",
)
@click.option(
    "--changed",
    is_flag=True,
    help="Show only the new or changed melds of the new table (the JSON always has their "
    'indices in "changed").',
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    metavar="N",
    help=f"Solve puzzles in N processes (default: one per core from {PARALLEL_FROM} puzzles "
    "on, else 1; never more than there are puzzles). The output order is the same.",
)
@click.option(
    "--svg",
    metavar="FILE",
    help="Also draw the move as an SVG picture in FILE: the old table and rack, then the new "
    "table with tiles from the rack and moved tiles highlighted, numbered by step (cards: "
    "the table, discard pile and hand, then the turn, laid and laid-off cards marked).",
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
    changed: bool,
    game: str | None,
    hand: str | None,
    deal: int | None,
    opened: bool,
    all_picks: bool,
    four_color: bool,
    jobs: int | None,
    svg: str | None,
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
    if hand is not None and game is None:
        raise click.UsageError("an inline card position needs both --game and --hand")
    if game is not None and hand is None and not puzzles:
        raise click.UsageError(
            "--game needs --hand (an inline card position) or card PUZZLE files to play as "
            "that game"
        )
    # An inline card position (--game/--hand) takes --table in card notation.
    card_inline = hand is not None
    if deal is not None and not card_inline:
        raise click.UsageError(
            "--deal goes with an inline card position (--game and --hand); a card puzzle "
            "file gives its own deal"
        )
    if card_inline and (rack is not None or position is not None):
        tile = "--rack" if rack is not None else "--position"
        raise click.UsageError(
            f"{tile} gives a tile position; an inline card position is --hand (and --table)"
        )
    given = Inline(rack, () if card_inline else table, position)
    check_usage(given)
    inline = given.given or card_inline
    check_sources(puzzles, inline)
    choices = overrides(rules_preset, rule_options, False if not_opened else None)
    if svg is not None and (len(puzzles) > 1 or (puzzles and os.path.isdir(puzzles[0]))):
        raise click.UsageError("--svg draws one move: give one puzzle or an inline position")
    # Read once, here: worker processes have no stdin of their own.
    stdin = read_stdin() if STDIN in puzzles else None

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
        color=use_color(no_color, sys.stdout) and not as_json,
        several=len(sources) > 1,
        changed=changed,
        svg=svg is not None,
        cards=card_options_of(
            game,
            hand,
            table,
            deal,
            opened,
            rule_options,
            rules_preset,
            all_picks=all_picks,
            four_color=four_color,
        ),
    )
    outcome = _Outcome()
    tally = _Tally()
    show_bar = len(sources) > 1 and not as_json and _stderr_is_terminal()
    with _progress(len(sources), show_bar) as progress:
        for batch in _report_batches(task, sources, _worker_count(jobs, len(sources))):
            progress.write([line for report in batch for line in report.lines], task.color)
            for report in batch:
                outcome.bad_input |= report.bad_input
                outcome.mismatch |= report.mismatch
                outcome.unproven |= report.unproven
                tally.add(report)
                if report.svg is not None and svg is not None:
                    write_svg(svg, report.svg)
                progress.step()
    if verify and not as_json:
        click.echo(tally.summary())
    ctx.exit(outcome.exit_code)


class _Tally:
    """How the puzzles of a --verify run came out, for its summary line."""

    def __init__(self) -> None:
        self.puzzles = 0
        self.expected = 0
        self.different = 0
        self.unexpected = 0
        self.unread = 0

    def add(self, report: _Report) -> None:
        self.puzzles += 1
        if report.bad_input:
            self.unread += 1
        elif report.expected is None:
            self.unexpected += 1
        elif report.expected:
            self.expected += 1
        else:
            self.different += 1

    def summary(self) -> str:
        """E.g. ``73 puzzles: 73 as expected`` or ``3 puzzles: 1 as expected, 1 different,
        1 with no [expect]``."""
        parts = [f"{self.expected} as expected"]
        if self.different:
            parts.append(f"{self.different} different")
        if self.unexpected:
            parts.append(f"{self.unexpected} with no [expect]")
        if self.unread:
            parts.append(f"{self.unread} not read (bad input)")
        noun = "puzzle" if self.puzzles == 1 else "puzzles"
        return f"{self.puzzles} {noun}: {', '.join(parts)}"


class _Task(NamedTuple):
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
    changed: bool = False
    svg: bool = False
    #: Card games (CARDS.md): the inline card position and card options.
    cards: CardOptions = CardOptions()


class _Report:
    """What one puzzle prints (in order; ``True`` for stderr) and what it means for the exit."""

    __slots__ = ("bad_input", "expected", "lines", "mismatch", "svg", "unproven")

    def __init__(
        self,
        lines: list[tuple[str, bool]],
        bad_input: bool = False,
        mismatch: bool = False,
        unproven: bool = False,
    ) -> None:
        self.lines = lines
        self.bad_input = bad_input
        self.mismatch = mismatch
        self.unproven = unproven
        #: With --verify: whether the answer is the [expect]ed one (None: nothing expected).
        self.expected: bool | None = None
        #: With --svg: the picture of the move.
        self.svg: str | None = None


def _worker_count(jobs: int | None, count: int) -> int:
    if jobs is not None:
        # A process with no puzzle to solve only costs its start-up.
        return min(jobs, count)
    return min(os.cpu_count() or 1, 8, count) if count >= PARALLEL_FROM else 1


def _report_batches(
    task: _Task, sources: list[str | PuzzleError], workers: int
) -> Iterator[list[_Report]]:
    """One report per source, in order, in batches to print at once; solved in ``workers``
    processes when more than one (each puzzle is independent, and the solver uses one
    thread), else one by one (a batch a puzzle, printed as soon as it is solved)."""
    if len(sources) <= 1:  # the process ends after it
        for source in sources:
            yield [_solve_one(task, source)]
        return
    from rummikub.cli.heap import collecting_seldom, keep_freed_memory

    keep_freed_memory()  # before the workers are forked: they inherit it, as the below
    with collecting_seldom():
        if workers <= 1:
            for source in sources:
                yield [_solve_one(task, source)]
            return
        from rummikub.cli.workers import ordered_batches
        from rummikub.tiles.solver import preload

        preload()  # once here, for every forked worker

        # Leaving early (an error, a closed pipe, Ctrl-C, SIGTERM) terminates the workers,
        # which end quietly (see _start_worker).
        yield from ordered_batches(_solve_in_worker, sources, workers, _start_worker, (task,))


_worker_task: _Task | None = None


def _start_worker(task: _Task) -> None:
    global _worker_task
    from rummikub.cli.heap import collect_seldom, keep_freed_memory

    ending.worker_signals()
    _worker_task = task
    # Inherited under fork; a spawned worker (macOS, Windows) starts afresh.
    keep_freed_memory()
    collect_seldom()
    # What the worker starts with (the modules, and under fork the main process's objects)
    # lives until it ends: frozen, no garbage collection walks it again (nor, under fork,
    # writes to the pages it shares with the main process).
    gc.freeze()


def _solve_in_worker(source: str | PuzzleError) -> _Report:
    assert _worker_task is not None
    return _solve_one(_worker_task, source)


def _card_task(task: _Task) -> CardTask:
    from rummikub.cli.cards import CardTask

    return CardTask(
        options=task.cards,
        time_limit=task.time_limit,
        as_json=task.as_json,
        verify=task.verify,
        explain=task.explain,
        color=task.color,
        svg=task.svg,
    )


def _solve_cards(task: _Task, source: str, data: Any = None) -> _Report:
    """A card puzzle (CARDS.md): the card rummies are imported only now."""
    from rummikub.cli.cards import solve_one

    card = solve_one(_card_task(task), source, several=task.several, data=data)
    report = _Report(card.lines, card.bad_input, card.mismatch, card.unproven)
    report.expected = card.expected
    report.svg = card.svg
    return report


def _document(source: str | PuzzleError, task: _Task) -> Any:
    """The parsed data of a puzzle file or of stdin, read once: it tells a card puzzle from
    a tile puzzle, and the puzzle reader then checks the same data. None when there is no
    document (inline, a one-line position on stdin) or it does not read or parse: the tile
    reader then reports why, with its own messages."""
    if task.inline is not None or not isinstance(source, str):
        return None
    if source == STDIN and task.stdin is not None:
        return stdin_data(task.stdin)
    try:
        return read_document(source)
    except PuzzleError:
        return None


def _solve_one(task: _Task, source: str | PuzzleError) -> _Report:
    """Load, solve and render one puzzle."""
    # Imported here so that --help and check never load the solver (and OR-Tools).
    from rummikub.tiles.solver import solve as solve_position

    if task.cards.inline:
        return _solve_cards(task, "")
    data = _document(source, task)
    if is_card_record_data(data):
        assert isinstance(source, str)
        return _Report([(f"Error: {card_record_problem(source)}", True)], bad_input=True)
    if is_card_data(data):
        assert isinstance(source, str)
        return _solve_cards(task, source, data)
    if task.cards.game is not None:
        where = source if isinstance(source, str) else "puzzle"
        text = f"Error: {where}: --game plays card puzzles as another game; a tile puzzle has none"
        return _Report([(text, True)], bad_input=True)
    try:
        puzzle = read_puzzle(source, task.inline, task.stdin, task.choices, data=data)
    except PuzzleError as error:
        return _Report([(f"Error: {error}", True)], bad_input=True)
    result = solve_position(puzzle.position, objective=task.objective, time_limit=task.time_limit)
    name = None if task.inline is not None else puzzle.path
    explanation = None
    if task.explain:
        # Imported only when asked: the explanations are not needed to solve.
        from rummikub.cli import explaining

        explanation = explaining.explain_result(result)
    if task.as_json and explanation is not None:
        text = explaining.result_json(result, name, explanation)
    elif task.as_json:
        text = render.result_json(result, name)
    else:
        if explanation is not None:
            text = explaining.result_text(
                result,
                explanation,
                name=name,
                title=puzzle.title,
                color=task.color,
                only_changed=task.changed,
            )
        else:
            text = render.result_text(
                result, name=name, title=puzzle.title, only_changed=task.changed
            )
            text = paint(text) if task.color else text
        text += "\n" if task.several else ""
    report = _Report([(text, False)], unproven=not result.proven)
    if task.svg:
        from rummikub.render.svg import explanation_svg, result_svg

        report.svg = (
            explanation_svg(explanation, rack=result.position.rack_sorted())
            if explanation is not None
            else result_svg(result)
        )
    expect = puzzle.expect
    if task.verify and expect:
        report.expected = expect.matches(result.status, result.value, result.tiles)
    if report.expected is False:
        assert expect is not None
        report.lines.append(
            (f"Mismatch: {render.mismatch_text(puzzle.path, expect, result)}", True)
        )
        report.mismatch = True
    return report
