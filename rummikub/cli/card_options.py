"""The card options of the command line (CARDS.md), in a module of their own so that
solving tile puzzles never imports the card rummies: ``solve`` carries them in every task,
and :mod:`rummikub.cli.cards` reads them only when a card puzzle comes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

#: The card games (the presets of CARDS.md section 6, ``rummikub.cards.rules.GAMES``),
#: named here so that ``--game`` and ``--help`` need not import the card rummies.
CARD_GAMES = ("rummy", "500-rum", "romme", "continental", "california")
#: The ``format`` of a card game record (``rummikub.cards.game.record.FORMAT``), for the
#: commands that tell a card record from a tile record or a puzzle without importing it.
CARD_RECORD_FORMAT = "rummikub-cards-game/1"


def card_position_options(command: F) -> F:
    """Add ``--game``, ``--hand``, ``--deal`` and ``--opened`` (an inline card position, or
    the game card puzzle files are played as) to a command, in that order."""
    options = [
        click.option(
            "--game",
            type=click.Choice(CARD_GAMES),
            # Read before --rule, which then judges its options as this game's.
            is_eager=True,
            help="A card game: the inline position is --hand (and --table) in card notation; "
            "with card PUZZLE files, play them as this game (their [rules] still apply).",
        ),
        click.option(
            "--hand", metavar="CARDS", help='The hand of an inline card position, e.g. "7S 8S 9S".'
        ),
        click.option(
            "--deal", type=click.IntRange(1, 7), help="The deal (1-7) of an inline contract game."
        ),
        click.option(
            "--opened", is_flag=True, help="The card player has already opened (gone down)."
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


class CardOptions(NamedTuple):
    """``--game``, ``--hand``/``--table``, ``--deal``, ``--opened``, ``--all-picks``,
    ``--four-color``, ``--rule KEY=VALUE`` and ``--rules`` as a card solve reads them."""

    game: str | None = None
    hand: str | None = None
    table: tuple[str, ...] = ()
    deal: int | None = None
    opened: bool = False
    all_picks: bool = False
    #: ``--rule KEY=VALUE``: card rule options over the puzzle's [rules].
    rule_options: tuple[tuple[str, str], ...] = ()
    #: ``--rules PRESET``, a tile rule set: refused for a card puzzle (``--game`` is its like).
    tile_preset: str | None = None
    #: ``--four-color``: cards in the four-color deck's colors (terminal and picture).
    four_color: bool = False

    @property
    def inline(self) -> bool:
        """A position given on the command line (``--hand``), not in a file."""
        return self.hand is not None


def card_options_of(
    game: str | None,
    hand: str | None,
    table: tuple[str, ...],
    deal: int | None,
    opened: bool,
    rule_options: dict[str, str],
    rules_preset: str | None,
    **more: Any,
) -> CardOptions:
    """The card options of a command's arguments (:func:`card_position_options`, ``--table``,
    ``--rule``, ``--rules``; ``more`` the command's own): ``--table`` is the card table only
    with an inline card position (``--hand``)."""
    return CardOptions(
        game=game,
        hand=hand,
        table=table if hand is not None else (),
        deal=deal,
        opened=opened,
        rule_options=tuple(rule_options.items()),
        tile_preset=rules_preset,
        **more,
    )


def is_card_data(data: Any) -> bool:
    """Whether a document's data is a card puzzle: it has a ``game`` key (CARDS.md section
    4; as :func:`rummikub.cards.puzzles.is_card_data`, without importing the card rummies).
    Every command that reads a puzzle tells tiles from cards here, from the document it read
    once (a file or stdin). A card game record has a ``game`` key too, and its ``format``:
    it is no puzzle."""
    return isinstance(data, dict) and "game" in data and "format" not in data


def is_card_record_data(data: Any) -> bool:
    """Whether a document's data is a card game record (its ``format``)."""
    return isinstance(data, dict) and data.get("format") == CARD_RECORD_FORMAT


def is_card_record(path: str) -> bool:
    """Whether ``path`` is a card game record (a readable document of the card format)."""
    from rummikub.core.documents import read_document
    from rummikub.core.errors import PuzzleError

    try:
        return is_card_record_data(read_document(path))
    except PuzzleError:
        return False


def card_record_problem(source: str) -> str:
    """What ``solve``, ``check`` and ``analyse`` say of a card game record given as a
    puzzle."""
    return (
        f"{source}: a card game record, not a puzzle: 'rummikub game show {source}' shows it, "
        f"'rummikub game hint {source}' gives the best turn to play"
    )
