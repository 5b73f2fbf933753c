"""``rummikub duel A B``: two strategies on the same deals with the seats swapped."""

from __future__ import annotations

import inspect

import click

from rummikub import games as registry
from rummikub.cli.common import BadInput, rack_size_given, rack_size_option, rules_options
from rummikub.cli.simulate import (
    RunOptions,
    game_option,
    give_report,
    play_games,
    run_options,
)
from rummikub.core.errors import RummikubError
from rummikub.play import kept
from rummikub.tiles.game.strategies import STRATEGIES

__all__ = ["duel"]

#: Deals played when ``--games`` is not given.
DEFAULT_DEALS = 50


class _Duel(click.Command):
    """The command, its help naming the card strategies known when it is shown (read only
    then, so that a tile duel does not load the card rummies)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        cards = ", ".join(registry.strategy_names(registry.CARD_GAMES[0]))
        base, self.help = self.help, f"{self.help or ''} With --game: {cards}."
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = base


@click.command(cls=_Duel)
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@game_option(
    "Duel at this card rummy (CARDS.md section 7) instead of tiles: card strategies, "
    "the score is the game's final total; --rule sets its options (e.g. target=200)."
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    help=f"Games to play: a multiple of the seatings of a deal (2 at 2 and 4 players, 3 at "
    f"3; default: {DEFAULT_DEALS} deals).",
)
@click.option(
    "--players",
    type=click.IntRange(2, 8),
    default=2,
    show_default=True,
    help="Seats per game (tiles 2-4; cards as the game seats).",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="The same seed, the same games."
)
@click.option(
    "--save",
    "save_path",
    metavar="FILE",  # a folder is refused as every bad save file is: one line, exit 2
    help="Keep every game in this JSON file as it finishes, and take from it the games it "
    "holds for the same settings: a duel stopped part way resumes, and more --games reuse "
    "those played. The file trusts the code: games kept by an older version of a "
    "strategy are not detected.",
)
@rack_size_option
@run_options
@rules_options
@click.pass_context
def duel(
    ctx: click.Context,
    a: str,
    b: str,
    game: str | None,
    games: int | None,
    players: int,
    seed: int,
    save_path: str | None,
    rack_size: int,
    run: RunOptions,
    rules_preset: str | None,
    rule_options: dict[str, str],
) -> None:
    """Play strategy A against strategy B on the same deals, every deal once per seating
    (the seats rotated: A B then B A at 2 players), so that the luck of the deal cancels.

    Reports A's win rate with its 95% (Wilson) interval, the mean score difference A-B with
    a 95% interval paired by deal, the deals one strategy won in every seating, and the game
    length. With --game, a card rummy's duel between card strategies: the score is the
    game's final total, and where the lowest total wins the difference is B-A, so that a
    positive difference favours A. The same seed gives the same games and report, with or
    without Dask, and with --save whether the games were played in one run or resumed.
    """
    if game is None and not 2 <= players <= 4:
        # As click's range says it, as when --players was the tile game's alone.
        raise click.BadParameter(
            f"{players} is not in the range 2<=x<=4.", ctx=ctx, param_hint="'--players'"
        )
    try:
        chosen = registry.game_of(
            game or registry.TILES,
            rules_preset=rules_preset,
            rule_options=rule_options,
            rack_size=rack_size if game is None else rack_size_given(rack_size),
        )
        contest = registry.duel(chosen, a.strip().lower(), b.strip().lower(), players, seed)
        if games is None:
            games = DEFAULT_DEALS * len(contest.setup.seatings)
        contest.setup.check_games(games)
        duels = [(contest.setup, games)]
        # Only the games not kept are played, and shown by the progress bar.
        games_left = kept.to_play(duels, save_path)
    except RummikubError as error:
        raise BadInput(str(error)) from None
    found, timing = play_games(
        games_left,
        run.workers,
        run.scheduler,
        run.no_progress,
        lambda workers, progress: kept.play(
            duels,
            contest.setup.table(),
            save=save_path,
            workers=workers,
            scheduler=run.scheduler,
            batch_size=run.batch_size,
            progress=progress,
        )[0],
    )
    give_report(contest, found, run, timing)


# The strategies known when the command loads, whatever registers them.
duel.help = inspect.cleandoc(duel.help or "") + f"\n\nStrategies: {', '.join(STRATEGIES)}."
