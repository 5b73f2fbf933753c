"""``rummikub play``: one person against 1-3 solver players in the terminal.

What only a terminal process needs lives here: the prompt, the record never overwritten
without ``--force``, ``--resume``, and Ctrl-C acted on at once. OR-Tools' CBC installs its own
SIGINT handler while it solves and puts Python's back as a restarting one (so ``input()``
would see Ctrl-C only at Enter), and ``input()`` misses a Ctrl-C that comes between its
prompt and its read. So the prompt re-installs Python's handler and waits for the line in
Python (``select`` with a short timeout) before it reads it, and the solver's work (the
others' moves, a hint, tiles to arrange) runs with SIGINT blocked, taken by a watching
thread that interrupts the main thread at once. Either way Ctrl-C ends the run with exit
130, the record saved up to the last whole turn.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import select
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar

import click

from rummikub.cli.card_options import CARD_GAMES, is_card_record
from rummikub.cli.common import BadInput, rack_size_option, rules_of, rules_options
from rummikub.cli.explaining import tile_text, use_color
from rummikub.core.errors import RummikubError
from rummikub.play import session
from rummikub.tiles.game.play import Table, play, resume
from rummikub.tiles.game.record import load
from rummikub.tiles.game.strategies import STRATEGIES, strategy
from rummikub.tiles.tiles import Tile

__all__ = ["play_command"]

#: Names of the solver players, by seat after the person's.
NAMES = ("Ada", "Bert", "Cleo")
T = TypeVar("T")


def _python_sigint() -> None:
    """Python's Ctrl-C handler, installed again as Python installs it (interrupting a read):
    a solve may have left it restarting reads, or the default one."""
    current = signal.getsignal(signal.SIGINT)
    handler = current if callable(current) else signal.default_int_handler
    with contextlib.suppress(ValueError):  # not the main thread (a test runner's)
        signal.signal(signal.SIGINT, handler)


def _ask(prompt: str) -> str:
    """A line typed at the prompt. On a terminal the line is waited for in Python (``select``
    with a short timeout), so that Ctrl-C is acted on at once: ``input()`` alone would miss
    one that arrives between its prompt and its read, until Enter."""
    _python_sigint()
    try:
        descriptor = sys.stdin.fileno()
        terminal = os.isatty(descriptor)
    except (AttributeError, ValueError, OSError):  # a test's stdin, a closed one
        terminal = False
    if not terminal:
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    while not select.select([descriptor], [], [], 0.1)[0]:
        pass  # between two waits, a Ctrl-C that came raises KeyboardInterrupt
    return input()


def _think(work: Callable[[], T]) -> T:
    """``work()`` with Ctrl-C acted on at once: SIGINT is blocked while it runs (so no
    solver's handler takes it), and a thread waiting for it interrupts the main thread."""
    mask = getattr(signal, "pthread_sigmask", None)
    wait = getattr(signal, "sigtimedwait", None)
    if mask is None or wait is None or threading.current_thread() is not threading.main_thread():
        return work()
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            if wait({signal.SIGINT}, 0.05) is not None:
                _python_sigint()
                import _thread

                _thread.interrupt_main(signal.SIGINT)
                return

    previous = mask(signal.SIG_BLOCK, {signal.SIGINT})
    watcher = threading.Thread(target=watch, name="rummikub-ctrl-c", daemon=True)
    watcher.start()  # it inherits the blocked SIGINT
    try:
        return work()
    finally:
        done.set()
        watcher.join()
        _python_sigint()
        mask(signal.SIG_SETMASK, previous)  # a Ctrl-C still pending is raised here


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
@click.option("--force", is_flag=True, help="Overwrite an existing --save record.")
@click.option(
    "--resume",
    "resume_path",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Go on with a game saved by rummikub play (the record says who plays each seat).",
)
@rack_size_option
@click.option("--no-color", is_flag=True, help="Tiles without colors (also: NO_COLOR).")
@click.option(
    "--game",
    type=click.Choice(CARD_GAMES),
    # Read before --rule, which then judges its options as this game's.
    is_eager=True,
    help="Play a card game instead (CARDS.md), against the card strategies (best, keep, "
    "casual, equity).",
)
@click.option(
    "--four-color",
    is_flag=True,
    help="Card games: the four-color deck's colors (diamonds blue, clubs green).",
)
@rules_options
def play_command(
    opponents: int,
    strategies: str,
    seed: int | None,
    name: str,
    path: str | None,
    force: bool,
    resume_path: str | None,
    rack_size: int,
    no_color: bool,
    game: str | None,
    four_color: bool,
    rules_preset: str | None,
    rule_options: dict[str, str],
) -> None:
    """Play a game against the solver: type tiles to lay (R4 O7), a whole new table
    (melds separated by |), draw, hint, undo or quit. The game is saved as a record; --resume
    goes on with one. Ctrl-C stops at once (exit 130), the record kept. With --game, a card
    game (rummy, 500-rum, romme, continental, california): each turn a draw, then the cards
    to lay and the discard (7S 8S 9S / KH)."""
    color = use_color(no_color)
    if game is not None or (resume_path is not None and is_card_record(resume_path)):
        _play_cards(click.get_current_context())
        return

    def paint(tile: Tile) -> str:
        return tile_text(tile, color)

    if resume_path is not None:
        _refuse_with_resume()
        record = load(resume_path)
        click.echo(f"The game is saved to {resume_path} after every turn.")
        with _stopped_by_ctrl_c():
            resume(record, ask=_ask, say=click.echo, paint=paint, path=resume_path, think=_think)
        return
    try:
        chosen = session.opponents(strategies, opponents, strategy)
    except RummikubError as error:
        raise BadInput(str(error)) from None
    rules = rules_of(rules_preset, rule_options)
    if seed is None:
        seed = secrets.randbelow(10**6)
    path = path or f"game-{seed}.toml"
    session.refuse_to_overwrite(path, force, BadInput)
    table = Table(name, tuple(zip(NAMES[:opponents], chosen, strict=True)))
    click.echo(f"Seed {seed}; the game is saved to {path} after every turn.")
    with _stopped_by_ctrl_c():
        play(
            rules,
            table,
            seed=seed,
            ask=_ask,
            say=click.echo,
            paint=paint,
            path=path,
            rack_size=rack_size,
            think=_think,
        )


def _play_cards(context: click.Context) -> None:
    """A card game (:mod:`rummikub.cli.card_play`), with this command's prompt and Ctrl-C."""
    from rummikub.cli.card_play import run

    if context.get_parameter_source("rack_size") == click.core.ParameterSource.COMMANDLINE:
        raise BadInput("--rack-size deals tiles; a card game deals as its rules say")
    params = context.params
    if params["resume_path"] is not None:
        _refuse_with_resume()
    with _stopped_by_ctrl_c():
        run(
            **{key: params[key] for key in _CARD_PARAMS},
            rules_preset=params.get("rules_preset"),
            rule_options=params.get("rule_options") or {},
            color=use_color(params.get("no_color", False)),
            four_color=bool(params.get("four_color")),
            ask=_ask,
            think=_think,
        )


#: The options a card game takes as they are.
_CARD_PARAMS = ("game", "opponents", "strategies", "seed", "name", "path", "force", "resume_path")


@contextlib.contextmanager
def _stopped_by_ctrl_c() -> Iterator[None]:
    """Ctrl-C ends the game with a word (the run then ends with exit 130)."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo("\nGame stopped (Ctrl-C); the record keeps every whole turn so far.", err=True)
        raise


def _refuse_with_resume() -> None:
    """The options a resumed game takes from its record, refused when given with --resume."""
    context = click.get_current_context()
    given = [
        f"--{option.replace('_', '-')}"
        for option in (
            "opponents",
            "strategies",
            "seed",
            "name",
            "path",
            "force",
            "rack_size",
            "game",
        )
        if context.get_parameter_source(option) == click.core.ParameterSource.COMMANDLINE
    ]
    given = [
        {"--strategies": "--strategy", "--path": "--save"}.get(option, option) for option in given
    ]
    if context.params.get("rules_preset") is not None or context.params.get("rule_options"):
        given.append("--rules/--rule")
    if given:
        raise BadInput(f"--resume takes the game as its record has it: drop {', '.join(given)}")
