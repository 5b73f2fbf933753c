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

from rummikub.core.cluster import Progress
from rummikub.core.errors import RummikubError
from rummikub.play import duel as duels
from rummikub.play.protocol import SelfPlay

__all__ = [
    "CARD_GAMES",
    "GAMES",
    "TILES",
    "Duel",
    "Simulation",
    "duel",
    "game_of",
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
) -> SelfPlay[Any, Any, Any, Any]:
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


Play = Callable[..., list[Any]]


@dataclass(frozen=True, slots=True)
class Simulation:
    """What ``rummikub simulate`` runs for one game: its setup, how its games are played
    and how its report is given (the domain's report; the CSV and the chart where the
    domain has them)."""

    setup: Any
    play: Play
    summarize: Callable[[Any, Sequence[Any]], Any]
    text: Callable[[Any], str]
    csv: Callable[[Any], str] | None = None
    chart: Callable[[Any, str | os.PathLike[str]], None] | None = None

    def run(
        self,
        games: int,
        *,
        workers: int = 1,
        scheduler: str | None = None,
        batch_size: int | None = None,
        progress: Progress | None = None,
    ) -> list[Any]:
        return self.play(
            self.setup,
            games,
            workers=workers,
            scheduler=scheduler,
            batch_size=batch_size,
            progress=progress,
        )

    def report(self, games: Sequence[Any]) -> Any:
        return self.summarize(self.setup, games)


def _tile_chart(report: Any, path: str | os.PathLike[str]) -> None:
    from rummikub.tiles.game.chart import save_chart

    save_chart(report, path)


def _duel_chart(report: Any, path: str | os.PathLike[str]) -> None:
    from rummikub.tiles.game.chart import save_duel_chart

    save_duel_chart(report, path)


def simulation(
    name: str,
    strategies: Sequence[str],
    players: int,
    seed: int,
    *,
    rules_preset: str | None = None,
    rule_options: Mapping[str, str] | None = None,
    rack_size: int | None = None,
) -> Simulation:
    """The self-play run of ``strategies`` at ``players`` seats of the game ``name``."""
    _check_name(name)
    options = dict(rule_options or {})
    if name == TILES:
        from rummikub.tiles.game import simulate as sim

        rules = tile_rules(rules_preset, options)
        setup = sim.Setup(tuple(strategies), players, rules, _rack(rack_size), seed)
        return Simulation(setup, sim.simulate, sim.summarize, sim.to_text, sim.to_csv, _tile_chart)
    from rummikub.cards.game import simulate as card_sim

    card = _card_rules_of(name, rules_preset, options, rack_size)
    card_setup = card_sim.CardSetup(card, tuple(strategies), players, seed)
    return Simulation(card_setup, card_sim.simulate, card_sim.summarize, card_sim.to_text)


@dataclass(frozen=True, slots=True)
class Duel:
    """What ``rummikub duel`` runs for one game: its setup (a :class:`~rummikub.play.duel.
    Pairing`); the duel, its report, text, CSV and chart are the same for every game."""

    setup: duels.Pairing

    def run(
        self,
        games: int,
        *,
        workers: int = 1,
        scheduler: str | None = None,
        batch_size: int | None = None,
        progress: Progress | None = None,
    ) -> list[Any]:
        return duels.duel(
            self.setup,
            games,
            workers=workers,
            scheduler=scheduler,
            batch_size=batch_size,
            progress=progress,
        )

    def report(self, games: Sequence[Any]) -> duels.DuelReport:
        return duels.summarize(self.setup, games)

    text = staticmethod(duels.to_text)
    csv = staticmethod(duels.to_csv)
    chart = staticmethod(_duel_chart)


def duel(
    name: str,
    a: str,
    b: str,
    players: int,
    seed: int,
    *,
    rules_preset: str | None = None,
    rule_options: Mapping[str, str] | None = None,
    rack_size: int | None = None,
) -> Duel:
    """The duel of ``a`` against ``b`` at ``players`` seats of the game ``name``."""
    _check_name(name)
    options = dict(rule_options or {})
    if name == TILES:
        from rummikub.tiles.game.duel import DuelSetup

        rules = tile_rules(rules_preset, options)
        return Duel(DuelSetup(a, b, players, rules, _rack(rack_size), seed))
    from rummikub.cards.game.duel import CardDuelSetup

    card = _card_rules_of(name, rules_preset, options, rack_size)
    return Duel(CardDuelSetup(card, a, b, players, seed))


def strategy_names(name: str = TILES) -> tuple[str, ...]:
    """The strategies of the game ``name``, in their registry's order."""
    _check_name(name)
    if name == TILES:
        from rummikub.tiles.game.strategies import REGISTRY

        return REGISTRY.names
    from rummikub.cards.game.strategies import REGISTRY as CARD_REGISTRY

    return CARD_REGISTRY.names
