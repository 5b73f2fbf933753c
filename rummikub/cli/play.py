"""``rummikub play``: one person against 1-3 solver players in the terminal."""

from __future__ import annotations

import secrets

import click

from rummikub.cli.common import BadInput, rack_size_option, rules_of, rules_options
from rummikub.cli.explaining import tile_text, use_color
from rummikub.core.errors import RummikubError
from rummikub.game.play import Table, play
from rummikub.game.strategies import STRATEGIES, strategy
from rummikub.tiles.tiles import Tile

__all__ = ["play_command"]

#: Names of the solver players, by seat after the person's.
NAMES = ("Ada", "Bert", "Cleo")


def _ask(prompt: str) -> str:
    return input(prompt)


@click.command("play")
@click.option(
    "--opponents",
    type=click.IntRange(1, 3),
    default=2,
    show_default=True,
    help="Solver players at the table.",
)
@click.option(
    "--strategy",
    "strategies",
    default="best",
    show_default=True,
    metavar="NAMES",
    help=f"Their strategies, separated by commas ({', '.join(STRATEGIES)}), repeated to fill.",
)
@click.option("--seed", type=int, help="The deal's seed (default: a new one, shown).")
@click.option("--name", default="You", show_default=True, help="Your name in the record.")
@click.option(
    "--save",
    "path",
    type=click.Path(dir_okay=False),
    help="The record to write after every turn (default: game-SEED.toml).",
)
@rack_size_option
@click.option("--no-color", is_flag=True, help="Tiles without colors (also: NO_COLOR).")
@rules_options
def play_command(
    opponents: int,
    strategies: str,
    seed: int | None,
    name: str,
    path: str | None,
    rack_size: int,
    no_color: bool,
    rules_preset: str | None,
    rule_options: dict[str, str],
) -> None:
    """Play a game against the solver: type tiles to lay (R4 O7), a whole new table
    (melds separated by |), draw, hint or quit. The game is saved as a record."""
    names = [n.strip() for n in strategies.split(",") if n.strip()] or ["best"]
    try:
        chosen = [strategy(names[i % len(names)]) for i in range(opponents)]
    except RummikubError as error:
        raise BadInput(str(error)) from None
    rules = rules_of(rules_preset, rule_options)
    if seed is None:
        seed = secrets.randbelow(10**6)
    path = path or f"game-{seed}.toml"
    color = use_color(no_color)

    def paint(tile: Tile) -> str:
        return tile_text(tile, color)

    table = Table(name, tuple(zip(NAMES[:opponents], chosen, strict=True)))
    click.echo(f"Seed {seed}; the game is saved to {path} after every turn.")
    play(
        rules,
        table,
        seed=seed,
        ask=_ask,
        say=click.echo,
        paint=paint,
        path=path,
        rack_size=rack_size,
    )
