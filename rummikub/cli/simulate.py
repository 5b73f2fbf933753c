"""``rummikub simulate``: self-play between strategies, with win rates and intervals."""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from rummikub import games as registry
from rummikub.cli.common import (
    EXIT_REJECTED,
    BadInput,
    rack_size_given,
    rack_size_option,
    rules_options,
)
from rummikub.core import cluster
from rummikub.core.cluster import Progress
from rummikub.core.errors import RummikubError
from rummikub.play import selfplay
from rummikub.tiles.game.strategies import STRATEGIES

__all__ = [
    "RunOptions",
    "cluster_options",
    "finish",
    "game_option",
    "give_report",
    "output_options",
    "play_and_report",
    "play_games",
    "progress_bar",
    "run_options",
    "simulate",
]

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


def cluster_options(command: F) -> F:
    """``--workers``, ``--scheduler`` and ``--batch-size``: where the games of ``simulate``
    and ``duel`` are played."""
    for option in reversed(
        (
            click.option(
                "--workers",
                type=click.IntRange(min=1),
                help="Local Dask worker processes (default: one per core when Dask is "
                "installed and there are enough games; 1 = play in this process).",
            ),
            click.option(
                "--scheduler", metavar="ADDRESS", help="An existing Dask cluster: tcp://host:8786."
            ),
            click.option("--batch-size", type=click.IntRange(min=1), help="Games per Dask task."),
        )
    ):
        command = option(command)
    return command


def game_option(help: str) -> Callable[[F], F]:
    """``--game NAME``: a card rummy's games instead of tiles (:mod:`rummikub.games`)."""
    return click.option(
        "--game",
        type=click.Choice(registry.CARD_GAMES),
        # Read before --rule, which then judges its options as this game's.
        is_eager=True,
        help=help,
    )


def output_options(command: F) -> F:
    """``--json``, ``--csv FILE``, ``--chart FILE.png`` and ``--no-progress``: how a report
    is given."""
    for option in reversed(
        (
            click.option("--json", "as_json", is_flag=True, help="The report as one JSON object."),
            click.option(
                "--csv", "csv_path", type=click.Path(dir_okay=False), help="Write the table as CSV."
            ),
            click.option(
                "--chart",
                "chart_path",
                type=click.Path(dir_okay=False),
                help="Draw a PNG chart (matplotlib).",
            ),
            click.option("--no-progress", is_flag=True, help="No progress bar."),
        )
    ):
        command = option(command)
    return command


@dataclass(frozen=True, slots=True)
class RunOptions:
    """Where the games of ``simulate`` and ``duel`` are played (:func:`cluster_options`)
    and how their report is given (:func:`output_options`)."""

    workers: int | None
    scheduler: str | None
    batch_size: int | None
    as_json: bool
    csv_path: str | None
    chart_path: str | None
    no_progress: bool


def run_options(command: F) -> F:
    """:func:`cluster_options` and :func:`output_options`, given to ``command`` as one
    ``run`` argument (a :class:`RunOptions`)."""

    @functools.wraps(command)
    def with_run(*args: Any, **kwargs: Any) -> Any:
        chosen = {name: kwargs.pop(name) for name in RunOptions.__dataclass_fields__}
        return command(*args, run=RunOptions(**chosen), **kwargs)

    return cluster_options(output_options(cast(F, with_run)))


def play_games(
    games: int,
    workers: int | None,
    scheduler: str | None,
    no_progress: bool,
    run: Callable[[int, Progress | None], T],
) -> tuple[T, str]:
    """Play the games of a run through ``run(workers, progress)`` with a progress bar; the
    answer and the line that says how long it took (for :func:`finish`). A bad scheduler,
    or any error of the library, is exit 2 with its one line."""
    if workers is None:
        workers = 1 if scheduler is not None else cluster.default_workers(games)
    started = time.perf_counter()
    try:
        with progress_bar(games, not no_progress) as progress:
            found = run(workers, progress)
    except cluster.SchedulerError as error:
        raise BadInput(f"--{error}") from None
    except RummikubError as error:
        raise BadInput(str(error)) from None
    seconds = time.perf_counter() - started
    where = f"scheduler {scheduler}" if scheduler is not None else f"{workers} worker(s)"
    rate = games / seconds if seconds > 0 else float("inf")
    return found, f"{games} games in {seconds:.1f} s ({rate:.2f} games/s, {where})"


def finish(timing: str, failures: int) -> None:
    """End the command: the time taken on stderr (so that stdout is the same for the same
    seed), and exit 1 when a game failed (each is named in the report)."""
    click.echo(timing, err=True)
    sys.stdout.flush()
    if failures:
        click.get_current_context().exit(EXIT_REJECTED)


def play_and_report(contest: registry.Contest, games: int, run: RunOptions) -> None:
    """Play the games of ``contest`` (a simulation or a duel of any game) and give its
    report: the text or ``--json`` on stdout, ``--csv`` and ``--chart`` into their files,
    the time taken on stderr; exit 1 when a game failed."""
    found, timing = play_games(
        games,
        run.workers,
        run.scheduler,
        run.no_progress,
        lambda workers, progress: selfplay.play(
            contest.setup,
            games,
            workers=workers,
            scheduler=run.scheduler,
            batch_size=run.batch_size,
            progress=progress,
        ),
    )
    give_report(contest, found, run, timing)


def give_report(contest: registry.Contest, found: Any, run: RunOptions, timing: str) -> None:
    """The report of ``contest`` on the games (or pairs) ``found``: the text or ``--json``
    on stdout, ``--csv`` and ``--chart`` into their files, then :func:`finish`."""
    report = contest.report(found)
    click.echo(json.dumps(report.to_data()) if run.as_json else contest.text(report))
    if run.csv_path is not None and contest.csv is not None:
        Path(run.csv_path).write_text(contest.csv(report), encoding="utf-8")
    if run.chart_path is not None and contest.chart is not None:
        contest.chart(report, run.chart_path)
    finish(timing, len(report.failures))


@contextmanager
def progress_bar(games: int, show: bool) -> Iterator[Progress | None]:
    """A rich progress bar on stderr (only on a terminal): games finished, rate, time left."""
    if not show:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    columns = (
        TextColumn("Playing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("games", total=games)
        yield lambda done: progress.advance(task, done)


#: The most games one run plays: a million games take days even on many workers (a game
#: takes a good fraction of a second), and a bigger count would only build work lists that
#: do not fit in memory (docs/players.md, "Limits and exit codes").
MAX_GAMES = 10**6


def _check_games(ctx: click.Context, param: click.Parameter, value: int) -> int:
    if not 1 <= value <= MAX_GAMES:
        raise BadInput(f"--games {value}: give 1-{MAX_GAMES:,} games")
    return value


@click.command()
@click.option(
    "--games",
    type=int,
    callback=_check_games,
    default=100,
    show_default=True,
    help=f"Games to play (1-{MAX_GAMES:,}).",
)
@game_option(
    "Play whole card games of this preset (CARDS.md section 7) instead of tiles; "
    "--rule sets its options (e.g. target=200, hand_size=7)."
)
@click.option(
    "--players",
    type=click.IntRange(2, 8),
    default=4,
    show_default=True,
    help="Seats per game (tiles 2-4; cards as the game seats).",
)
@click.option(
    "--strategy",
    "strategies",
    default="best",
    show_default=True,
    metavar="NAMES",
    help=f"Strategies by seat, separated by commas ({', '.join(STRATEGIES)}); "
    "repeated to fill the seats, rotated one seat each game.",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="The same seed, the same games."
)
@rack_size_option
@run_options
@rules_options
def simulate(
    games: int,
    players: int,
    strategies: str,
    seed: int,
    rack_size: int,
    run: RunOptions,
    rules_preset: str | None,
    rule_options: dict[str, str],
    game: str | None,
) -> None:
    """Play whole games between strategies and report, per strategy and seat, the win rate
    and mean score with 95% intervals, game length and how often the pool runs out.
    With --game, whole card games (strategies best, keep, casual, equity): win rates and mean
    totals, hands and turns per game.

    The same seed gives the same games and report, with or without Dask."""
    names = tuple(n.strip().lower() for n in strategies.split(",") if n.strip())
    # After --rules, which the game's reading refuses first for a card game.
    if game is not None and rules_preset is None and (run.chart_path or run.csv_path) is not None:
        raise BadInput(
            "--chart and --csv are for tile games; a card game's report is text or --json"
        )
    try:
        game_played = registry.game_of(
            game or registry.TILES,
            rules_preset=rules_preset,
            rule_options=rule_options,
            # A card game deals its own hands: --rack-size, the tile game's, is refused.
            rack_size=rack_size if game is None else rack_size_given(rack_size),
        )
        contest = registry.simulation(game_played, names, players, seed)
    except RummikubError as error:
        raise BadInput(str(error)) from None
    play_and_report(contest, games, run)
