"""What the commands share: the bad-input exit, the rule options, loading at the edge."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from rummikub.core.errors import RulesError, RummikubError
from rummikub.tiles.puzzles import Overrides
from rummikub.tiles.rules import PRESETS, Rules, parse_option, preset, read_rules

F = TypeVar("F", bound=Callable[..., Any])

#: Exit codes of INTERFACE.md.
EXIT_OK, EXIT_REJECTED, EXIT_BAD_INPUT, EXIT_UNPROVEN = 0, 1, 2, 3


class BadInput(click.ClickException):
    """Input the library rejected: shown as ``Error: ...`` without a traceback, exit 2."""

    exit_code = EXIT_BAD_INPUT

    @classmethod
    def from_error(cls, error: RummikubError) -> BadInput:
        return cls(str(error))


def check_time_limit(
    ctx: click.Context, param: click.Parameter, value: float | None
) -> float | None:
    """The callback of every ``--time-limit``: a finite number of seconds above 0.

    Not ``click.FloatRange``: it lets nan through (every comparison with nan is false).
    """
    if value is not None and not (math.isfinite(value) and value > 0):
        raise click.BadParameter(f"{value} is not a finite number of seconds > 0")
    return value


def _check_preset(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        preset(value)
    except RulesError as error:
        raise click.BadParameter(str(error)) from None
    return value


def _check_rules(
    ctx: click.Context, param: click.Parameter, value: Sequence[str]
) -> dict[str, str]:
    # Checked here, once, so that a bad --rule is a usage error rather than a problem
    # repeated for every puzzle file: the options read together as a tile rule set.
    # A card game's option (CARDS.md) that is no good tile option is checked by the card
    # puzzle reader, with the puzzle's game and [rules], and named there with the file.
    options: dict[str, str] = {}
    try:
        for text in value:
            key, option = parse_option(text)
            options[key] = option
    except RulesError as error:
        raise click.BadParameter(str(error)) from None
    game = ctx.params.get("game")  # --game is read first (is_eager)
    if game is not None:
        _check_card_rules(game, options)
        return options
    reading = read_rules({}, options=options, where="")
    if reading.problems:
        # The card rummies load only now, when a tile rule set cannot hold the options.
        for_cards = {key for key in reading.bad if _card_option(key)}
        tiles = {key: option for key, option in options.items() if key not in for_cards}
        reading = read_rules({}, options=tiles, where="")
    if reading.problems:
        raise click.BadParameter("; ".join(reading.problems))
    return options


def _check_card_rules(game: str, options: dict[str, str]) -> None:
    """With ``--game``: the options read as that card game's, named with its options."""
    from rummikub.cards.rules import option_from_text
    from rummikub.cards.rules import read_rules as read_card_rules

    values = {key: option_from_text(text) for key, text in options.items()}
    reading = read_card_rules(game, None, options=values)
    if reading.problems:
        raise click.BadParameter(
            "; ".join(problem.removeprefix("rules: ") for problem in reading.problems)
        )


def _card_option(key: str) -> bool:
    """Whether ``key`` is a card game's rule option (the card rummies load only then)."""
    from rummikub.cards.rules import OPTION_NAMES

    return key in OPTION_NAMES


def rules_options(command: F) -> F:
    """Add ``--rules PRESET`` and ``--rule KEY=VALUE`` to a command."""
    command = click.option(
        "--rule",
        "rule_options",
        multiple=True,
        metavar="KEY=VALUE",
        callback=_check_rules,
        help="Set one rule option (e.g. initial_meld=0, or a card game's wild_swap=true); "
        "wins over the puzzle's [rules]. Repeatable.",
    )(command)
    return click.option(
        "--rules",
        "rules_preset",
        metavar="PRESET",
        callback=_check_preset,
        help=f"Rule preset ({', '.join(PRESETS)}) instead of the puzzle's; "
        "the puzzle's own [rules] options still apply.",
    )(command)


def rules_of(rules_preset: str | None, rule_options: dict[str, str]) -> Rules:
    """The rules of ``--rules``/``--rule`` for a command with no puzzle file (game, play,
    simulate): the preset (standard when none) with the options set, read as a whole;
    raises :class:`BadInput` with every problem."""
    reading = read_rules({}, preset_name=rules_preset, options=rule_options, where="")
    if reading.rules is None:
        raise BadInput("; ".join(reading.problems))
    return reading.rules


def rack_size_option(command: F) -> F:
    """Add ``--rack-size N`` (tiles dealt to each player) to a command that deals."""
    return click.option(
        "--rack-size",
        type=click.IntRange(1, 50),
        default=14,
        show_default=True,
        help="Tiles dealt to each player.",
    )(command)


def rack_size_given(rack_size: int) -> int | None:
    """``--rack-size`` where the user typed it, else None (its default): a card game,
    which deals its own hands, refuses it given and ignores only its default."""
    given = click.get_current_context().get_parameter_source("rack_size")
    return rack_size if given is not click.core.ParameterSource.DEFAULT else None


def overrides(
    rules_preset: str | None, rule_options: dict[str, str], opened: bool | None = None
) -> Overrides:
    return Overrides(preset=rules_preset, options=rule_options, opened=opened)


def write_svg(path: str, svg: str) -> None:
    """Write the picture asked for with ``--svg FILE``."""
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(svg)
    except OSError as error:
        raise BadInput(f"--svg {path}: cannot write: {error.strerror or error}") from None


# -- the record commands of both games (rummikub game) ------------------------------------


def quoted(text: str) -> str:
    """An option's text as a message quotes it, a long one cut."""
    from rummikub.core.documents import quote

    return quote(text if len(text) <= 40 else text[:37] + "...")


def problem_code(problem: str | None, unread: str | None) -> int:
    """The exit code of a record whose replay stopped at ``problem`` (``game show``, ``game
    replay``, ``analyse RECORD [--equity]``): 0 without one; 2 where it stopped at text
    that is not the game's notation (``unread``, the record's reading problem: bad input,
    as ``hint`` and ``apply`` say of it too); 1 where a turn or a step breaks the rules."""
    if problem is None:
        return EXIT_OK
    return EXIT_BAD_INPUT if problem == unread else EXIT_REJECTED


def named(path: str, played: Any) -> None:
    """``game replay``'s line on stderr naming the record of an illegal turn, as ``show``
    and ``hint`` name it (the lines of stdout name it for any other problem; ``--json``
    prints the JSON alone)."""
    if played.error is not None:
        click.echo(f"{path}: {played.problem}", err=True)


def intact(path: str, problem: str | None) -> None:
    """Refuse to add to a record whose turns are not all legal (undo first)."""
    if problem is not None:
        raise BadInput(f"{path}: {problem} (fix it, or remove it with 'rummikub game undo')")


def refuse_existing(path: str, force: bool) -> None:
    """A new record never overwrites a file without ``--force``."""
    import os

    if os.path.lexists(path) and not force:
        raise BadInput(f"{path} exists: choose another name or use --force to overwrite it")
