"""``rummikub game``: a record of a whole hand, turn by turn (new, show, apply, undo, replay,
hint, annotate). Every change is written atomically, and a refused turn leaves the record as
it was."""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from typing import TYPE_CHECKING

import click

from rummikub.cli import render
from rummikub.cli.common import (
    EXIT_REJECTED,
    BadInput,
    check_time_limit,
    intact,
    named,
    problem_code,
    quoted,
    rack_size_option,
    refuse_existing,
    rules_of,
    rules_options,
)
from rummikub.core.errors import NotationError, RummikubError
from rummikub.tiles.game import engine, entries
from rummikub.tiles.game.engine import GameState, Replay, TurnError
from rummikub.tiles.game.entries import EntryError
from rummikub.tiles.game.record import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    Pass,
    Play,
    Turn,
    load,
    locked,
    save,
)
from rummikub.tiles.game.words import (
    notes_data,
    notes_lines,
    replay_data,
    replay_lines,
    state_data,
    state_text,
    turn_error_text,
)
from rummikub.tiles.melds import RawMeld
from rummikub.tiles.notation import parse_melds, parse_rack
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import Tile, format_tiles

__all__ = ["game"]

if TYPE_CHECKING:  # the endgame search loads only when a hint needs it
    from rummikub.tiles.game.endgame import Verdict


class _Game(click.Group):
    """The tile game's commands, or the card game's (:mod:`rummikub.cli.card_game`) where
    the command line names a card game: ``new --game G``, or a record of the card format
    (the card rummies load only then). ``deal`` and ``score`` are the card game's only."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), "deal", "score"})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is None and cmd_name in ("deal", "score"):
            from rummikub.cli.card_game import game as card_game

            return card_game.get_command(ctx, cmd_name)
        return found

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if name is not None and _for_cards(name, rest):
            from rummikub.cli.card_game import game as card_game

            found = card_game.get_command(ctx, name)
            if found is None:
                # A tile command the card games lack (annotate): said plainly, exit 2.
                known = ", ".join(card_game.list_commands(ctx))
                raise BadInput(
                    f"'game {name}' is for tile records; a card game record takes {known} "
                    "(its review: rummikub analyse RECORD --equity)"
                )
            return name, found, rest
        return name, command, rest


def _for_cards(name: str, args: list[str]) -> bool:
    """Whether a game command's arguments name a card game: ``--game`` (for ``new``), or a
    record of the card format."""
    from rummikub.cli.card_options import is_card_record

    if name == "new":
        return any(a == "--game" or a.startswith("--game=") for a in args)
    return any(not a.startswith("-") and os.path.isfile(a) and is_card_record(a) for a in args)


@click.group(cls=_Game)
def game() -> None:
    """Record a whole game: deal or enter a real table's game, apply turns, replay, hint.

    A record is a TOML (or .json) file; see docs/formats.md, "Record files". A card game
    (CARDS.md: rummy, 500-rum, romme, continental, california) is started with
    'rummikub game new RECORD --game G'; the other commands read it from its record
    (and a real table's card game has 'deal' and 'score' too).
    """


def _players(text: str) -> list[str]:
    """The names of ``--players``: a count (P1, P2, ...) or names; 2-4 of them (checked
    before a name is built, so a huge count costs nothing)."""
    if text.strip().isdigit():
        digits = text.strip()
        # Told by its digits, never converted whole: a count of 10**20 costs nothing.
        if len(digits.lstrip("0")) > 1 or not MIN_PLAYERS <= int(digits[-1]) <= MAX_PLAYERS:
            raise BadInput(
                f"--players {quoted(digits)}: a game has {MIN_PLAYERS}-{MAX_PLAYERS} players"
            )
        return [f"P{i + 1}" for i in range(int(digits[-1]))]
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise BadInput(
            f"--players {quoted(text)}: {len(names)} names, "
            f"a game has {MIN_PLAYERS}-{MAX_PLAYERS} players"
        )
    return names


def _open(path: str) -> Replay:
    """The record at ``path`` replayed up to its first bad turn (bad input: exit 2)."""
    record = load(path)
    try:
        return engine.replay(record)
    except TurnError as error:  # pragma: no cover - replay catches these itself
        raise BadInput(f"{path}: {error}") from None
    except RummikubError as error:
        raise BadInput(f"{path}: {error}") from None


@game.command("new")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--players",
    default="2",
    show_default=True,
    help="Names separated by commas (in turn order), or a count (P1, P2, ...).",
)
@click.option("--seed", type=int, help="Shuffle and deal the box with this seed.")
@click.option(
    "--rack",
    "rack_text",
    metavar="TILES",
    help="A real table: your dealt rack (ranges R1-3 and groups KRB7 too).",
)
@click.option("--me", type=int, default=0, show_default=True, help="Your seat (with --rack).")
@rack_size_option
@click.option("--force", is_flag=True, help="Overwrite an existing record.")
@rules_options
def new(
    path: str,
    players: str,
    seed: int | None,
    rack_text: str | None,
    me: int,
    rack_size: int,
    force: bool,
    rules_preset: str | None,
    rule_options: dict[str, str],
) -> None:
    """Start a record: dealt from a seed (every rack and the pool known), or, with --rack, a
    game at a real table where only your rack is known."""
    refuse_existing(path, force)
    if (seed is None) == (rack_text is None):
        raise BadInput("give --seed N to deal a game, or --rack TILES for a game at a real table")
    names = _players(players)
    rules = rules_of(rules_preset, rule_options)
    if rack_text is not None:
        if not 0 <= me < len(names):
            raise BadInput(f"--me {me}: expected a seat 0-{len(names) - 1}")
        rack = _tiles("--rack", rack_text, rules)
        record = engine.real_table(names, rules, me, rack, rack_size)
    else:
        assert seed is not None
        record = engine.deal(names, rules, seed, rack_size)
    state = engine.replay(record).state  # a rack with tiles the box lacks is refused here
    with locked(path):
        # Checked again under the lock: of two `new` at once, the second one refuses.
        refuse_existing(path, force)
        save(record, path)
    click.echo(f"New game of {len(names)} players: {', '.join(names)}. Saved to {path}.")
    click.echo(state_text(state, record))


def _tiles(option: str, text: str, rules: Rules) -> tuple[Tile, ...]:
    """The tiles of an option, in the quick notation (ranges R1-5, group shorthands KRB7) as
    everywhere a position is typed; a mistake names the option, its text and the column.
    Whether the tiles are in the box is for the engine to judge."""
    try:
        return parse_rack(text, rules, box=False)
    except NotationError as error:
        raise BadInput(f"{option} {text!r}: {error}") from None


def _melds(texts: tuple[str, ...], rules: Rules) -> tuple[RawMeld, ...]:
    """The melds of ``--table`` options (each may hold several, separated by | or ;), as
    written: the engine judges the new table."""
    melds: list[RawMeld] = []
    for text in texts:
        try:
            melds += parse_melds(text, rules)
        except NotationError as error:
            raise BadInput(f"--table {text!r}: {error}") from None
    return tuple(melds)


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="The state as one JSON object.")
def show(path: str, as_json: bool) -> None:
    """The position to move, whose turn it is, the racks known, the pool and the scores.

    A record with a bad turn is shown up to it, with the error (exit 1).
    """
    game = _open(path)
    if as_json:
        data = state_data(game.state)
        data["problem"] = game.problem
        data["annotator"] = game.record.annotator
        data["annotations"] = notes_data(game)
        click.echo(json.dumps(data))
    else:
        click.echo(state_text(game.state, game.record))
        notes = notes_lines(game)
        if notes:
            click.echo("\n".join(notes))
    if game.problem is not None:
        click.echo(f"{path}: {game.problem}", err=True)
        sys.exit(problem_code(game.problem, game.record.problem))


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--table",
    "melds",
    multiple=True,
    metavar="MELDS",
    help='The whole new table: melds separated by | or ; (e.g. "R1-3 | KRB7 | B9 B10 J"); '
    "repeatable, the options together give the table.",
)
@click.option("--play", "play_text", metavar="TILES", help="Tiles to lay: the solver lays them.")
@click.option(
    "--draw",
    "draw_text",
    is_flag=False,
    flag_value="?",
    metavar="[TILE]",
    help="A draw: the tile drawn (needed for your own rack at a real table).",
)
@click.option("--pass", "passed", is_flag=True, help="No play with the pool empty.")
def apply(
    path: str, melds: tuple[str, ...], play_text: str | None, draw_text: str | None, passed: bool
) -> None:
    """Apply the next turn: a new table (--table ...), tiles to lay (--play), a draw or a
    pass. An illegal turn is refused with every rule it breaks (exit 1)."""
    given = sum([bool(melds), play_text is not None, draw_text is not None, passed])
    if given != 1:
        raise BadInput("give exactly one of --table MELD..., --play TILES, --draw [TILE], --pass")
    # Read, judge and write under the record's lock: two `apply` at once never lose a turn.
    with locked(path):
        _apply(path, melds, play_text, draw_text, passed)


def _apply(
    path: str, melds: tuple[str, ...], play_text: str | None, draw_text: str | None, passed: bool
) -> None:
    game = _open(path)
    intact(path, game.problem)
    state = game.state
    turn: Turn
    if melds:
        turn = Play(_melds(melds, state.rules))
    elif play_text is not None:
        turn = lay(state, play_text)
    elif draw_text is not None:
        tiles = () if draw_text.strip() == "?" else _tiles("--draw", draw_text, state.rules)
        if len(tiles) > 1:
            raise BadInput(f"--draw {draw_text!r}: one tile, e.g. --draw R5")
        tile = tiles[0] if tiles else None
        turn = entries.drawn(state, tile)
    else:
        turn = Pass()
    try:
        record, after = entries.played_on(game.record, state, turn)
    except TurnError as error:
        click.echo(turn_error_text(error), err=True)
        sys.exit(EXIT_REJECTED)
    save(record, path)
    click.echo(
        f"Turn {after.turns}: {state.players[state.to_move]} {engine.describe(turn, state)}."
    )
    click.echo(state_text(after, record))


def lay(state: GameState, text: str) -> Play:
    """The play laying exactly ``text``'s tiles, arranged by the solver."""
    from rummikub.tiles.game.play import lay as lay_tiles

    tiles = _tiles("--play", text, state.rules)
    if not tiles:
        raise BadInput("--play: give the tiles to lay, e.g. --play 'R4 O7'")
    problems = Position((), tiles, True, state.rules).problems()
    if problems:
        raise BadInput(f"--play {text!r}: {'; '.join(problems)}")
    try:
        return lay_tiles(state, tiles)
    except RummikubError as error:
        raise BadInput(f"--play {text!r}: {error}; give the new table with --table") from None


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
def undo(path: str) -> None:
    """Remove the last turn of the record."""
    with locked(path):
        _undo(path)


def _undo(path: str) -> None:
    try:
        record, game = entries.undone(load(path))
    except EntryError as error:
        raise BadInput(f"{path}: {error}") from None
    save(record, path)
    click.echo(f"Removed turn {len(record.turns) + 1}.")
    click.echo(state_text(game.state, game.record))


@game.command("replay")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="One JSON object: turns, legal, error.")
def replay_command(path: str, as_json: bool) -> None:
    """Check every turn with the checker; the first illegal turn is reported with its number
    and the broken rules (exit 1)."""
    game = _open(path)
    if as_json:
        click.echo(json.dumps(replay_data(game)))
    else:
        click.echo("\n".join(replay_lines(game, path)))
        named(path, game)
    if game.problem is not None:
        sys.exit(problem_code(game.problem, game.record.problem))


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="The answer as solve --json prints it.")
@click.option(
    "--time-limit",
    type=float,
    callback=check_time_limit,
    metavar="SECONDS",
    help="Stop the solve early; the hint may then be unproven.",
)
@click.option(
    "--strategy",
    "strategy_name",
    metavar="NAME",
    help="The move this strategy would play (best, tiles, hold, casual, ...) instead.",
)
@click.option(
    "--nodes",
    type=click.IntRange(1),
    default=None,
    metavar="N",
    help="The endgame search's budget in nodes (2 players, pool empty); default 2000.",
)
def hint(
    path: str,
    as_json: bool,
    time_limit: float | None,
    strategy_name: str | None,
    nodes: int | None,
) -> None:
    """The best move for the player to move (their rack must be known).

    With 2 players and the pool empty the opponent's rack is known too (at a real table: the
    unseen tiles), and the hint searches the endgame to its end: a win by force, a loss, a
    draw, or that the search gave up. See docs/researchers.md, "The endgame".
    """
    from rummikub.tiles.game.hints import endgame_verdict
    from rummikub.tiles.solver import solve

    game = _open(path)
    intact(path, game.problem)
    state = game.state
    if state.result is not None:
        raise BadInput(f"{path}: the hand is over")
    seat = state.to_move
    if state.racks[seat] is None:
        raise BadInput(
            f"{path}: it is {state.players[seat]}'s turn, and their rack is not known "
            "(enter their turn with 'rummikub game apply')"
        )
    if strategy_name is not None:
        _strategy_hint(state, strategy_name, as_json)
        return
    verdict = endgame_verdict(state, nodes)
    if verdict is not None and not as_json:
        click.echo(f"Turn {state.turns + 1}: {state.players[seat]} to move.")
        click.echo(_verdict_text(verdict, state))
        return
    result = solve(state.position(), time_limit=time_limit)
    if as_json:
        data = render.result_data(result, path)
        data["endgame"] = None if verdict is None else verdict.to_data()
        click.echo(json.dumps(data))
        return
    click.echo(f"Turn {state.turns + 1}: {state.players[seat]} to move.")
    click.echo(render.result_text(result))
    if not result.played:
        click.echo("Draw a tile." if state.pool_count else "Pass (the pool is empty).")


def _verdict_text(verdict: Verdict, state: GameState) -> str:
    me = state.players[state.to_move]
    words = {
        "win": f"{me} wins by force",
        "loss": f"the hand cannot be won by {me}",
        "draw": f"the best {me} can force is a draw (a shared win)",
        "unknown": "the search gave up",
    }[verdict.outcome]
    lines = [f"Endgame (2 players, the pool empty): {words}.", f"Why: {verdict.reason}."]
    label = {"loss": "Best defence", "unknown": "A move"}.get(verdict.outcome, "The move")
    if verdict.move is None:
        lines.append(f"{label}: pass.")
    else:
        lines.append(f"{label}:")
        lines += _move_lines(state.position(), verdict.move)
    return "\n".join(lines)


def _move_lines(position: Position, move: Move) -> list[str]:
    """A move as ``solve`` shows one: the new table, new and changed melds marked."""
    marks = render.changed_melds(position.table, move.table, position.rules)
    lines = [f"New table ({render.CHANGED} = new or changed):"]
    lines += [
        f"  {render.CHANGED if mark else ' '} {meld}"
        for meld, mark in zip(move.table, marks, strict=True)
    ]
    rules = position.rules
    played = sorted(move.played, key=rules.sort_key)
    count = f"{len(played)} tile" + ("" if len(played) == 1 else "s")
    lines.append(f"Played: {format_tiles(played)} ({count}, value {move.value(rules)})")
    left = Counter(position.rack) - Counter(move.played)
    rack = sorted(left.elements(), key=rules.sort_key)
    lines.append(f"Rack left: {format_tiles(rack) or '(empty)'}")
    return lines


def _strategy_hint(state: GameState, name: str, as_json: bool) -> None:
    """The move the strategy ``name`` plays, seeing what the player to move sees."""
    from rummikub.tiles.game.strategies import strategy
    from rummikub.tiles.game.view import view_of

    try:
        chosen = strategy(name)
    except RummikubError as error:
        raise BadInput(f"--strategy {name!r}: {error}") from None
    position, view = view_of(state)
    move = chosen(position, view)
    rules = state.rules
    if as_json:
        left = Counter(position.rack) - Counter(move.played)
        data = {
            "strategy": name.strip().lower(),
            "value": move.value(rules),
            "tiles": move.tiles,
            "played": [str(t) for t in sorted(move.played, key=rules.sort_key)],
            "rack": [str(t) for t in sorted(left.elements(), key=rules.sort_key)],
            "table": [{"kind": m.kind, "tiles": [str(t) for t in m.tiles]} for m in move.table],
            "changed": render.changed_indices(position.table, move.table),
        }
        click.echo(json.dumps(data))
        return
    click.echo(f"Turn {state.turns + 1}: {state.players[state.to_move]} to move.")
    if not move.played:
        what = "draw a tile" if state.pool_count else "pass (the pool is empty)"
        click.echo(f"Strategy {name.strip().lower()}: {what}.")
        return
    click.echo(f"Strategy {name.strip().lower()} plays:")
    click.echo("\n".join(_move_lines(position, move)))


@game.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--samples",
    type=click.IntRange(1, 1000),
    default=None,
    metavar="N",
    help="Deals sampled per evaluation (default: the equity strategy's, 6).",
)
@click.option(
    "--rounds",
    type=click.IntRange(0, 100),
    default=None,
    metavar="N",
    help="Rounds played out on each deal (default 1).",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the review as analyse --equity --json."
)
def annotate(path: str, samples: int | None, rounds: int | None, as_json: bool) -> None:
    """Review the game (as 'rummikub analyse RECORD --equity') and write the review into the
    record: each judged turn's chance to win, the equity it lost and its mark, each draw's
    luck, and the best line as a variation of every marked turn. A comment already written
    is kept. The record is written atomically, and refused if another program changed it
    while the review ran (exit 2: read it again)."""
    from rummikub.cli.review import equity
    from rummikub.tiles.game.annotate import annotator, review_note
    from rummikub.tiles.game.equity import DEFAULT, Budget

    budget = Budget(
        samples=DEFAULT.samples if samples is None else samples,
        rounds=DEFAULT.rounds if rounds is None else rounds,
    )
    game = _open(path)
    intact(path, game.problem)
    record = game.record
    found = equity(path, bar=not as_json and sys.stderr.isatty(), budget=budget, record=record)
    notes = [review_note(t, record.note(t.number), game.states[t.number - 1]) for t in found.turns]
    by = annotator(budget.samples, budget.rounds)
    save(record.with_notes(notes, by), path, expect=record)
    if as_json:
        click.echo(json.dumps(found.to_data()))
        return
    from rummikub.cli.review import equity_text

    click.echo(equity_text(found))
    marked = sum(1 for t in found.turns if t.mark is not None)
    judged = sum(1 for t in found.turns if t.win is not None)
    click.echo(f"Annotated {judged} turns of {path} ({marked} marked).")


def _endgame(state: GameState, nodes: int | None) -> Verdict | None:
    """The endgame's verdict of a hint (:func:`rummikub.tiles.game.hints.endgame_verdict`)."""
    from rummikub.tiles.game.hints import endgame_verdict

    return endgame_verdict(state, nodes)
