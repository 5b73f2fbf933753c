"""``rummikub duel A B``: two strategies on the same deals with the seats swapped."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import click

from rummikub.cli.common import rack_size_option, rules_of, rules_options
from rummikub.cli.simulate import cluster_options, finish, output_options, play_games
from rummikub.tiles.game import duel as duels
from rummikub.tiles.game.strategies import STRATEGIES

__all__ = ["duel"]

#: Deals played when ``--games`` is not given.
DEFAULT_DEALS = 50


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option(
    "--games",
    type=click.IntRange(min=1),
    help=f"Games to play: a multiple of the seatings of a deal (2 at 2 and 4 players, 3 at "
    f"3; default: {DEFAULT_DEALS} deals).",
)
@click.option(
    "--players", type=click.IntRange(2, 4), default=2, show_default=True, help="Seats per game."
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="The same seed, the same games."
)
@rack_size_option
@cluster_options
@output_options
@rules_options
def duel(
    a: str,
    b: str,
    games: int | None,
    players: int,
    seed: int,
    rack_size: int,
    workers: int | None,
    scheduler: str | None,
    batch_size: int | None,
    as_json: bool,
    csv_path: str | None,
    chart_path: str | None,
    no_progress: bool,
    rules_preset: str | None,
    rule_options: dict[str, str],
) -> None:
    """Play strategy A against strategy B on the same deals, every deal once per seating
    (the seats rotated: A B then B A at 2 players), so that the luck of the deal cancels.

    Reports A's win rate with its 95% (Wilson) interval, the mean score difference A-B with
    a 95% interval paired by deal, the deals one strategy won in every seating, and the game
    length. The same seed gives the same games and report, with or without Dask.
    """
    rules = rules_of(rules_preset, rule_options)
    setup = duels.DuelSetup(a.strip().lower(), b.strip().lower(), players, rules, rack_size, seed)
    if games is None:
        games = DEFAULT_DEALS * len(setup.seatings)
    setup.check_games(games)
    found, timing = play_games(
        games,
        workers,
        scheduler,
        no_progress,
        lambda workers, progress: duels.duel(
            setup,
            games,
            workers=workers,
            scheduler=scheduler,
            batch_size=batch_size,
            progress=progress,
        ),
    )
    report = duels.summarize(setup, found)
    if as_json:
        click.echo(json.dumps(report.to_data()))
    else:
        click.echo(duels.to_text(report))
    if csv_path is not None:
        Path(csv_path).write_text(duels.to_csv(report), encoding="utf-8")
    if chart_path is not None:
        from rummikub.tiles.game.chart import save_duel_chart

        save_duel_chart(report, chart_path)
    finish(timing, len(report.failures))


# The strategies known when the command loads, whatever registers them.
duel.help = inspect.cleandoc(duel.help or "") + f"\n\nStrategies: {', '.join(STRATEGIES)}."
