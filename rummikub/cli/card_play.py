"""``rummikub play --game PRESET``: one person against 1-3 solver players at a card game.

The game itself is the library's (:mod:`rummikub.cards.game.play`); what lives here is the
command: the options read into a table and a record, the cards painted in their colors,
the prompt and Ctrl-C of :mod:`rummikub.cli.play`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import replace

import click

from rummikub.cards.game import engine
from rummikub.cards.game.play import HELP, NAMES, PERSON, CardTable, play_cards, table_of
from rummikub.cards.game.record import load
from rummikub.cards.game.strategies import strategy
from rummikub.cards.game.words import GAME_NAMES
from rummikub.cli.card_game import card_rules
from rummikub.cli.common import BadInput
from rummikub.core.errors import RummikubError
from rummikub.play import session
from rummikub.play.session import Think, refuse_to_overwrite, resumable

__all__ = ["HELP", "PERSON", "CardTable", "play_cards", "run", "table_of"]


def run(
    *,
    game: str | None,
    opponents: int,
    strategies: str,
    seed: int | None,
    name: str,
    path: str | None,
    force: bool,
    resume_path: str | None,
    rules_preset: str | None,
    rule_options: dict[str, str],
    color: bool,
    four_color: bool,
    ask: Callable[[str], str],
    think: Think[object],
) -> None:
    """``rummikub play --game PRESET`` (or ``--resume`` with a card record)."""
    from rummikub.render.text import paint_cards

    def say(text: str) -> None:
        click.echo(paint_cards(text, four_color=four_color) if color else text)

    if resume_path is not None:
        try:
            record = load(resume_path)
            table = table_of(record, resume_path)
            played = engine.replay(record)
            resumable(played.problem, played.state.over, resume_path, RummikubError)
        except RummikubError as error:
            said = str(error)
            raise BadInput(
                said if said.startswith(resume_path) else f"{resume_path}: {said}"
            ) from None
        click.echo(f"The game is saved to {resume_path} after every turn.")
        say(f"Resuming at hand {played.state.hand + 1}, turn {played.state.turns + 1}.")
        play_cards(record, table, ask=ask, say=say, path=resume_path, think=think, resuming=True)
        return
    assert game is not None
    rules = card_rules(game, rules_preset, rule_options)
    try:
        chosen = session.opponents(strategies, opponents, strategy)
    except RummikubError as error:
        raise BadInput(f"--strategy: {error}") from None
    if seed is None:
        seed = secrets.randbelow(10**6)
    path = path or f"{game}-{seed}.toml"
    refuse_to_overwrite(path, force, BadInput)
    table = CardTable(name, tuple(zip(NAMES[:opponents], chosen, strict=True)))
    try:
        record = engine.new_game(table.players(), rules, seed)
    except RummikubError as error:
        raise BadInput(str(error)) from None
    record = replace(record, seats=table.seats())
    against = ", ".join(f"{n} ({s.name})" for n, s in table.opponents)
    click.echo(f"Seed {seed}; the game is saved to {path} after every turn.")
    say(f"{GAME_NAMES.get(rules.game, rules.game)}: you against {against}.")
    play_cards(record, table, ask=ask, say=say, path=path, think=think)
