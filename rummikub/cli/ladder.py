"""``rummikub ladder A B C...``: every pair of strategies in a mirror-paired duel, and what
the duels show together (the win-rate matrix, ratings, the Nash view)."""

from __future__ import annotations

import inspect

import click

from rummikub import games as registry
from rummikub.cli.common import BadInput, rack_size_option, rules_options
from rummikub.cli.simulate import RunOptions, game_option, give_report, play_games, run_options
from rummikub.core.errors import RummikubError
from rummikub.play import ladder as ladders
from rummikub.tiles.game.strategies import STRATEGIES

__all__ = ["ladder"]


def _check_games(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    if value is not None and value < 1:
        raise BadInput(f"--games {value}: expected at least 1 game a pair")
    return value


class _Ladder(click.Command):
    """The command, its help naming the card strategies known when it is shown (read only
    then, so that a tile ladder does not load the card rummies)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        cards = ", ".join(registry.strategy_names(registry.CARD_GAMES[0]))
        base, self.help = self.help, f"{self.help or ''} With --game: {cards}."
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = base


@click.command(
    cls=_Ladder,
    # Said here: click versions end the first sentence of the text below differently.
    short_help="Play every pair of strategies in mirror-paired duels: ratings and Nash view.",
)
@click.argument("strategies", metavar="STRATEGY...", nargs=-1, required=True)
@game_option(
    "A ladder of this card rummy's strategies (CARDS.md section 7) instead of tiles; "
    "--rule sets its options (e.g. target=200)."
)
@click.option(
    "--games",
    type=int,
    callback=_check_games,
    help=f"Games a pair plays: a multiple of the seatings of a deal (2 at 2 and 4 players; 6 "
    f"at 3, where each pair plays both ways; default: {ladders.DEFAULT_DEALS} deals).",
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
    "holds for the same settings: a ladder stopped part way resumes, in the middle of a "
    "pair too, and a strategy added plays only its own pairs. The file trusts the code: "
    "games kept by an older version of a strategy are not detected.",
)
@rack_size_option
@run_options
@rules_options
@click.pass_context
def ladder(
    ctx: click.Context,
    strategies: tuple[str, ...],
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
    """Play every pair of STRATEGY... in a mirror-paired duel (as rummikub duel: every deal
    once per seating, the seats rotated at 3-4 players), each pair on deals of its own
    (seeded by the seed and the two names, so that adding a strategy changes no other
    pair's games).

    Reports the win-rate matrix (the row's share of the wins against the column, with 95%
    Wilson intervals in --json and --csv), Bradley-Terry ratings on the Elo scale with 95%
    intervals, and the Nash view of the meta-game: the mixture of strategies that none of
    them beats, and each one's win rate against it (matchups need not be transitive, so no
    single matchup, and no rating alone, ranks players). --csv writes one row per ordered
    pair; --chart a heat map of the matrix. The same seed gives the same report, with or
    without Dask.
    """
    if game is None and not 2 <= players <= 4:
        raise BadInput(f"--players {players}: the tile game seats 2-4 players")
    given = ctx.get_parameter_source("rack_size") is not click.core.ParameterSource.DEFAULT
    names = tuple(name.strip().lower() for name in strategies)
    try:
        chosen = registry.game_of(
            game or registry.TILES,
            rules_preset=rules_preset,
            rule_options=rule_options,
            rack_size=rack_size if game is None or given else None,
        )
        contest = registry.ladder(chosen, names, players, seed, games)
    except RummikubError as error:
        raise BadInput(str(error)) from None
    setup: ladders.Ladder = contest.setup
    try:
        games_left = ladders.games_to_play(setup, save_path)
    except RummikubError as error:
        raise BadInput(str(error)) from None
    found, timing = play_games(
        games_left,
        run.workers,
        run.scheduler,
        run.no_progress,
        lambda workers, progress: ladders.play(
            setup,
            workers=workers,
            scheduler=run.scheduler,
            batch_size=run.batch_size,
            progress=progress,
            save=save_path,
        ),
    )
    give_report(contest, found, run, timing)


# The strategies known when the command loads, whatever registers them.
ladder.help = inspect.cleandoc(ladder.help or "") + f"\n\nStrategies: {', '.join(STRATEGIES)}."
