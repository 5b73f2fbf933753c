"""Every game by the name ``--game`` takes: the one place that knows both domains' games.

:func:`game_of` maps a game's name (``tiles``, or a card rummy's) and its rule options to
the :class:`~rummikub.play.protocol.Game` the algorithms of :mod:`rummikub.play` play;
:func:`simulation` and :func:`duel` give what ``rummikub simulate`` and ``rummikub duel``
run for any of them (the domain's setup and report), so that the commands only parse their
options and render. It sits above both domains (``tests/test_architecture.py``); the
domains load only when their game is asked for.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.core.errors import RummikubError
from rummikub.play import duel as duels
from rummikub.play.protocol import Game, SelfPlay

__all__ = [
    "CARD_GAMES",
    "GAMES",
    "TILES",
    "Contest",
    "duel",
    "game_of",
    "ladder",
    "pairing",
    "simulation",
    "strategy_names",
]

#: The tile game's name.
TILES = "tiles"
#: The card rummies (CARDS.md section 6; ``rummikub.cards.rules.GAMES``), named here so that
#: a command's ``--help`` need not load them.
CARD_GAMES = ("rummy", "500-rum", "romme", "continental", "california")
GAMES = (TILES, *CARD_GAMES)


def _check_name(name: str) -> None:
    if name not in GAMES:
        raise RummikubError(f"unknown game {name!r} (expected one of {', '.join(GAMES)})")


def tile_rules(preset: str | None, options: Mapping[str, str]) -> Any:
    """The tile rules of ``--rules``/``--rule`` (standard when none), read as a whole."""
    from rummikub.tiles.rules import read_rules

    reading = read_rules({}, preset_name=preset, options=options, where="")
    if reading.rules is None:
        raise RummikubError("; ".join(reading.problems))
    return reading.rules


def card_rules(name: str, options: Mapping[str, str]) -> Any:
    """The rules of the card rummy ``name`` with the options of ``--rule`` over its preset."""
    from rummikub.cards.rules import option_from_text, read_rules

    values = {key: option_from_text(text) for key, text in options.items()}
    reading = read_rules(name, None, options=values)
    if reading.rules is None:
        raise RummikubError("; ".join(reading.problems))
    return reading.rules


def _rack(rack_size: int | None) -> int:
    from rummikub.tiles.game.record import RACK_SIZE

    return RACK_SIZE if rack_size is None else rack_size


def _card_rules_of(
    name: str, rules_preset: str | None, options: Mapping[str, str], rack_size: int | None
) -> Any:
    """The card rules of ``name``, refusing the tile game's options."""
    if rules_preset is not None:
        raise RummikubError("--rules is a tile rule set; a card game takes --rule KEY=VALUE")
    if rack_size is not None:
        raise RummikubError("--rack-size is the tile game's deal; a card game deals its own hands")
    return card_rules(name, options)


def game_of(
    name: str = TILES,
    *,
    rules_preset: str | None = None,
    rule_options: Mapping[str, str] | None = None,
    rack_size: int | None = None,
) -> Game[Any, Any, Any, Any, Any]:
    """The game called ``name`` under its rule options: for tiles the preset of ``--rules``
    and the rack size too; a card rummy takes neither (a :class:`RummikubError` names
    them)."""
    _check_name(name)
    options = dict(rule_options or {})
    if name == TILES:
        from rummikub.tiles.game.plugin import TileGame

        return TileGame(tile_rules(rules_preset, options), _rack(rack_size))
    from rummikub.cards.game.plugin import CardGame

    return CardGame(_card_rules_of(name, rules_preset, options, rack_size))


@dataclass(frozen=True, slots=True)
class Contest:
    """What ``rummikub simulate`` and ``rummikub duel`` run for one game: the games to play
    (a self-play :class:`~rummikub.play.selfplay.Lineup` or a duel's
    :class:`~rummikub.play.duel.Pairing`, played by :func:`rummikub.play.selfplay.play`)
    and how their report is made and given (the CSV and the chart where there are some)."""

    setup: Any
    summarize: Callable[[Any, Sequence[Any]], Any]
    text: Callable[[Any], str]
    csv: Callable[[Any], str] | None = None
    chart: Callable[[Any, str | os.PathLike[str]], None] | None = None

    def report(self, games: Sequence[Any]) -> Any:
        return self.summarize(self.setup, games)


def _tile_chart(report: Any, path: str | os.PathLike[str]) -> None:
    from rummikub.tiles.game.chart import save_chart

    save_chart(report, path)


def _duel_chart(report: Any, path: str | os.PathLike[str]) -> None:
    from rummikub.tiles.game.chart import save_duel_chart

    save_duel_chart(report, path)


def simulation(
    game: SelfPlay[Any, Any, Any, Any], strategies: Sequence[str], players: int, seed: int
) -> Contest:
    """The self-play run of ``strategies`` at ``players`` seats of ``game`` (:func:`game_of`)."""
    chosen: Any = game  # a TileGame or a CardGame: its rules (and a tile game's rack size)
    if game.name == TILES:
        from rummikub.tiles.game import simulate as sim

        setup = sim.Setup(tuple(strategies), players, chosen.rules, chosen.rack_size, seed)
        return Contest(setup, sim.summarize, sim.to_text, sim.to_csv, _tile_chart)
    from rummikub.cards.game import simulate as card_sim

    card_setup = card_sim.CardSetup(chosen.rules, tuple(strategies), players, seed)
    return Contest(card_setup, card_sim.summarize, card_sim.to_text)


def pairing(
    game: SelfPlay[Any, Any, Any, Any], a: str, b: str, players: int, seed: int
) -> duels.Pairing:
    """The duel setup of ``a`` against ``b`` at ``players`` seats of ``game``
    (:func:`game_of`), the domain's :class:`~rummikub.play.duel.Pairing`."""
    chosen: Any = game
    if game.name == TILES:
        from rummikub.tiles.game.duel import DuelSetup

        return DuelSetup(a, b, players, chosen.rules, chosen.rack_size, seed)
    from rummikub.cards.game.duel import CardDuelSetup

    return CardDuelSetup(chosen.rules, a, b, players, seed)


def duel(game: SelfPlay[Any, Any, Any, Any], a: str, b: str, players: int, seed: int) -> Contest:
    """The duel of ``a`` against ``b`` at ``players`` seats of ``game`` (:func:`game_of`);
    the duel, its report, text, CSV and chart are the same for every game."""
    setup = pairing(game, a, b, players, seed)
    return Contest(setup, duels.summarize, duels.to_text, duels.to_csv, _duel_chart)


def _ladder_chart(report: Any, path: str | os.PathLike[str]) -> None:
    from rummikub.tiles.game.chart import save_ladder_chart

    save_ladder_chart(report, path)


def ladder(
    game: SelfPlay[Any, Any, Any, Any],
    strategies: Sequence[str],
    players: int,
    seed: int,
    games: int | None,
) -> Contest:
    """The ladder of ``strategies`` at ``players`` seats of ``game`` (:func:`game_of`),
    ``games`` games a pair (None: the default): every pair in a duel (:func:`pairing`), played by
    :func:`rummikub.play.ladder.play`; its report, text, CSV and chart are the same for
    every game."""
    from rummikub.play import ladder as ladders

    setup = ladders.ladder_of(
        strategies, players, seed, games, lambda a, b, s: pairing(game, a, b, players, s)
    )
    return Contest(setup, ladders.summarize, ladders.to_text, ladders.to_csv, _ladder_chart)


def strategy_names(name: str = TILES) -> tuple[str, ...]:
    """The strategies of the game ``name``, in their registry's order."""
    _check_name(name)
    if name == TILES:
        from rummikub.tiles.game.strategies import REGISTRY

        return REGISTRY.names
    from rummikub.cards.game.strategies import REGISTRY as CARD_REGISTRY

    return CARD_REGISTRY.names
