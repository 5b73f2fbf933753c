"""``rummikub analyse``: the best moves, the draws that help, holding tiles, a move's grade."""

from __future__ import annotations

import json
import sys
import textwrap
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal

import click

from rummikub.cli import equity as equity_cli
from rummikub.cli import explaining, render, review
from rummikub.cli.card_options import (
    CardOptions,
    card_options_of,
    card_position_options,
    card_record_problem,
    is_card_data,
    is_card_record_data,
)
from rummikub.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_REJECTED,
    EXIT_UNPROVEN,
    check_time_limit,
    overrides,
    rules_options,
    write_svg,
)
from rummikub.cli.positions import (
    COMMAND_LINE,
    Inline,
    after_melds,
    check_sources,
    check_usage,
    rack_table_options,
    read_puzzle,
    stdin_data,
)
from rummikub.core.documents import STDIN, read_document, read_stdin
from rummikub.core.errors import PuzzleError, RummikubError
from rummikub.tiles.analysis import MAX_TOP
from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.puzzles import expand_all
from rummikub.tiles.tiles import Tile

if TYPE_CHECKING:  # the analysis (and the solver) load only when a position is analysed
    from rich.progress import Progress, TaskID

    from rummikub.tiles.analysis import Analysis, Grade, Hold, Outs, RankedMove

#: The outs show a progress bar on a terminal once they have run this long (seconds):
#: most positions finish sooner, and a bar that flashes for a moment only distracts.
BAR_AFTER = 0.5


@click.command()
@click.argument("puzzles", nargs=-1, metavar="[PUZZLE]...")
@rack_table_options
@click.option(
    "--position",
    metavar="TEXT",
    help='A whole position in one line, "TABLE / RACK" (or "TABLE / RACK / not-opened").',
)
@click.option("--not-opened", is_flag=True, help="The player has not made the initial meld yet.")
@click.option(
    "--objective",
    type=click.Choice(["value", "tiles"]),
    default="value",
    show_default=True,
    help="Rank moves by the value of the tiles played, or by their number.",
)
@rules_options
@click.option(
    "--top",
    type=click.IntRange(min=1, max=MAX_TOP),
    metavar="K",
    help="Show the K best moves, distinct by the tiles they play, each proven "
    f"[default: 1; {equity_cli.TOP} with --equity, which weighs them all].",
)
@click.option(
    "--outs",
    "with_outs",
    is_flag=True,
    help="For every tile that could be drawn: the best move with it, and the gain.",
)
@click.option(
    "--hold",
    "with_hold",
    is_flag=True,
    help="The best move keeping the rack's jokers, and the fewest tiles at the best value.",
)
@click.option(
    "--grade",
    "with_grade",
    is_flag=True,
    help="Judge the puzzle's 'after' table (or --after) and compare it with the best move.",
)
@click.option(
    "--after",
    multiple=True,
    metavar="MELDS",
    help="Melds of the new table to grade (instead of the file's 'after'), separated by | "
    "or ;, or repeat the option.",
)
@click.option(
    "--changed", is_flag=True, help="Show only the new or changed melds of each new table."
)
@click.option(
    "--time-limit",
    type=float,
    callback=check_time_limit,
    metavar="SECONDS",
    help="Stop each solve after this long, and --equity's playouts (all of them); an "
    "unproven or stopped answer then gives exit code 3.",
)
@click.option(
    "--chart",
    "chart_path",
    metavar="FILE.png",
    help="With --equity: draw the win probability over the game, marked turns shown "
    "(matplotlib, the [chart] extra).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per puzzle, per line.")
@click.option("--no-color", is_flag=True, help="No colors (as when NO_COLOR is set).")
@click.option(
    "--svg",
    metavar="FILE",
    help="Also draw the best move as an SVG picture in FILE (one position only).",
)
@card_position_options
@equity_cli.equity_options
@click.pass_context
def analyse(
    ctx: click.Context,
    puzzles: tuple[str, ...],
    rack: str | None,
    table: tuple[str, ...],
    position: str | None,
    not_opened: bool,
    objective: Literal["value", "tiles"],
    rules_preset: str | None,
    rule_options: dict[str, str],
    top: int | None,
    with_outs: bool,
    with_hold: bool,
    with_grade: bool,
    after: tuple[str, ...],
    changed: bool,
    time_limit: float | None,
    chart_path: str | None,
    as_json: bool,
    no_color: bool,
    svg: str | None,
    game: str | None,
    hand: str | None,
    deal: int | None,
    opened: bool,
    equity: equity_cli.Choices | None,
) -> None:
    """Analyse each PUZZLE file (- reads one from stdin), or the position given by
    --rack/--table or --position. A game record (see 'rummikub game') has every turn
    graded against the best move instead; with --equity, by the win probability it lost,
    with each draw's luck and each player's accuracy.

    Shows the best move (the K best with --top K), and on request the outs (--outs), what
    holding tiles back costs (--hold), how a proposed move compares with the best
    (--grade) and each candidate's chance to win the hand (--equity). Exit 0 done, 1 a
    graded move is illegal, 2 bad input, 3 a time limit left an answer unproven.

    A card position (--game with --hand and --table, or a card puzzle file) is answered
    with --equity only: each candidate turn's chance to win the hand. A card game record
    with --equity has every turn judged the same way.
    """
    cards = card_options_of(game, hand, table, deal, opened, rule_options, rules_preset)
    if hand is not None or game is not None or deal is not None or opened:
        ctx.exit(_cards(ctx, puzzles, cards, rack, position, equity, as_json, no_color))
    given = Inline(rack, table, position)
    check_usage(given)
    if top is None:
        top = 1 if equity is None else equity_cli.TOP
    inline = given.given
    check_sources(puzzles, inline)
    if after and not with_grade:
        raise click.UsageError("--after gives the move to grade: use it with --grade")
    choices = overrides(rules_preset, rule_options, False if not_opened else None)
    stdin = read_stdin() if STDIN in puzzles else None
    sources: list[str | PuzzleError] = [COMMAND_LINE] if inline else expand_all(puzzles)
    if svg is not None and len(sources) > 1:
        raise click.UsageError("--svg draws one move: give one puzzle or an inline position")
    color = explaining.use_color(no_color)
    records = [p for p in sources if isinstance(p, str) and p != STDIN and review.is_record(p)]
    if chart_path is not None and not records:
        raise click.UsageError("--chart draws a game record's equity review: give one RECORD")
    if (equity is not None and records) or chart_path is not None:
        _no_position_options(ctx)
        ctx.exit(review.run_equity(sources, inline, equity is not None, chart_path, as_json))
    bad = rejected = unproven = False
    for source in sources:
        if isinstance(source, str) and not inline and source != STDIN and review.is_record(source):
            try:
                found, code = review.review(source, time_limit=time_limit)
            except RummikubError as error:
                click.echo(f"Error: {error}", err=True)
                bad = True
                continue
            if as_json:
                click.echo(json.dumps(found.to_data()))
            else:
                click.echo(review.review_text(found) + ("\n" if len(sources) > 1 else ""))
            bad |= code == EXIT_BAD_INPUT
            rejected |= code == EXIT_REJECTED
            unproven |= not found.proven
            continue
        data: Any = None if inline else _document(source, stdin)
        if is_card_record_data(data) and equity is not None:
            _no_position_options(ctx)
            code = review.run_card_equity(str(source), as_json=as_json, several=len(sources) > 1)
            bad |= code == EXIT_BAD_INPUT
            rejected |= code == EXIT_REJECTED
            continue
        if is_card_record_data(data):
            click.echo(f"Error: {card_record_problem(str(source))}", err=True)
            bad = True
            continue
        if is_card_data(data) and equity is not None:
            from rummikub.cli import cards as card_cli

            report = card_cli.equity_one(
                cards,
                _card_request(ctx, equity),
                str(source),
                data=data,
                as_json=as_json,
                color=color and not as_json,
            )
            for line, to_err in report.lines:
                click.echo(line + ("\n" if len(sources) > 1 and not to_err else ""), err=to_err)
            bad |= report.bad_input
            unproven |= report.unproven
            continue
        if is_card_data(data):
            click.echo(
                f"Error: {source}: a card puzzle (it has a 'game' key): analyse answers for "
                "tile positions, and for a card position with --equity only; 'rummikub "
                "solve' gives a card puzzle's best turn (--all-picks: for every pile pick) "
                "and 'rummikub check' judges a turn",
                err=True,
            )
            bad = True
            continue
        try:
            puzzle = read_puzzle(source, given if inline else None, stdin, choices, data=data)
        except PuzzleError as error:
            click.echo(f"Error: {error}", err=True)
            bad = True
            continue
        proposed: Sequence[Meld | RawMeld] | None = None
        if with_grade:
            proposed = after_melds(after, puzzle.position.rules) if after else puzzle.after
            if proposed is None:
                click.echo(
                    f"Error: {puzzle.path}: no move to grade: add 'after = [...]' to the file "
                    "or give the new table with --after MELD ...",
                    err=True,
                )
                bad = True
                continue
        from rummikub.tiles.analysis import analyse as analyse_position

        with _outs_bar(show=with_outs and not as_json and sys.stderr.isatty()) as progress:
            analysis = analyse_position(
                puzzle.position,
                top=top,
                outs=with_outs,
                hold=with_hold,
                grade=proposed,
                objective=objective,
                time_limit=time_limit,
                progress=progress,
            )
        name = None if inline else puzzle.path
        chances = None
        if equity is not None:
            from rummikub.play.equity import Stopped

            try:
                with _outs_bar(show=not as_json and sys.stderr.isatty(), label="Playouts") as bar:
                    chances = equity_cli.run(puzzle.position, equity, top, bar, time_limit)
            except (RummikubError, ValueError) as error:
                click.echo(f"Error: {name or 'the position'}: {error}", err=True)
                bad = True
                continue
            except Stopped as error:
                click.echo(f"{name or 'the position'}: {error}", err=True)
                unproven = True
                continue
        if as_json:
            data = {"puzzle": name, **analysis.to_data()}
            if chances is not None:
                data["equity"] = chances.to_data()
            click.echo(json.dumps(data))
        else:
            text = analysis_text(analysis, name, puzzle.title, changed=changed, color=color)
            if equity is not None and chances is not None:
                text += "\n" + equity_cli.equity_text(
                    chances, color=color, seed_given=equity.seed is not None
                )
            click.echo(text + ("\n" if len(sources) > 1 else ""))
        if svg is not None:
            from rummikub.render.svg import move_svg

            write_svg(svg, move_svg(puzzle.position, analysis.best.table))
        rejected |= analysis.grade is not None and not analysis.grade.legal
        unproven |= not analysis.proven or (chances is not None and chances.stopped)
    if bad:
        ctx.exit(EXIT_BAD_INPUT)
    ctx.exit(EXIT_REJECTED if rejected else EXIT_UNPROVEN if unproven else EXIT_OK)


def _no_position_options(ctx: click.Context) -> None:
    """A record's review has its own budget: the options of a position's equity are not its."""
    for option_name in equity_cli.POSITION_OPTIONS:
        given_by = ctx.get_parameter_source(option_name)
        if given_by is not None and given_by.name == "COMMANDLINE":
            option = "--" + option_name.replace("_", "-")
            raise click.UsageError(
                f"{option} is an option of a position's --equity, not of a game record's review"
            )


def _card_request(ctx: click.Context, equity: equity_cli.Choices) -> Any:
    """The card position's equity request from the --equity options: the budget the
    library's own for a card position unless given on the command line."""
    from rummikub.cli.cards import EquityRequest

    def given(name: str) -> bool:
        source = ctx.get_parameter_source(name)
        return source is not None and source.name == "COMMANDLINE"

    return EquityRequest(
        players=equity.players,
        hand_sizes=equity.rack_sizes,
        others_opened=None if equity.others_opened else False,
        playouts=equity.playouts if given("playouts") else None,
        rounds=equity.rounds if given("rounds") else None,
        seed=equity.seed,
        time_limit=ctx.params.get("time_limit"),
    )


def _cards(
    ctx: click.Context,
    puzzles: tuple[str, ...],
    cards: CardOptions,
    rack: str | None,
    position: str | None,
    equity: equity_cli.Choices | None,
    as_json: bool,
    no_color: bool,
) -> int:
    """``analyse`` with --game/--hand: a card position's equity (inline, or card puzzle
    files played as --game); the exit code."""
    if cards.hand is not None and cards.game is None:
        raise click.UsageError("an inline card position needs both --game and --hand")
    if cards.hand is None and not puzzles:
        raise click.UsageError(
            "--game needs --hand (an inline card position) or card PUZZLE files to play as "
            "that game"
        )
    if cards.deal is not None and cards.hand is None:
        raise click.UsageError("--deal goes with an inline card position (--game and --hand)")
    if rack is not None or position is not None:
        tile = "--rack" if rack is not None else "--position"
        raise click.UsageError(
            f"{tile} gives a tile position; an inline card position is --hand (and --table)"
        )
    if equity is None:
        raise click.UsageError(
            "analyse answers a card position with --equity (each candidate turn's chance to "
            "win the hand); 'rummikub solve --game ... --hand ...' gives its best turn"
        )
    check_sources(puzzles, cards.hand is not None)
    from rummikub.cli import cards as card_cli

    request = _card_request(ctx, equity)
    color = explaining.use_color(no_color) and not as_json
    stdin = read_stdin() if STDIN in puzzles else None
    sources: list[str | PuzzleError] = (
        [card_cli.COMMAND_LINE] if cards.hand is not None else expand_all(puzzles)
    )
    bad = unproven = False
    for source in sources:
        if isinstance(source, PuzzleError):
            click.echo(f"Error: {source}", err=True)
            bad = True
            continue
        data = None if cards.hand is not None else _document(source, stdin)
        if cards.hand is None and not is_card_data(data):
            click.echo(f"Error: {source}: not a card puzzle (it has no 'game' key)", err=True)
            bad = True
            continue
        report = card_cli.equity_one(
            cards, request, source, data=data, as_json=as_json, color=color
        )
        for line, to_err in report.lines:
            click.echo(line + ("\n" if len(sources) > 1 and not to_err else ""), err=to_err)
        bad |= report.bad_input
        unproven |= report.unproven
    return EXIT_BAD_INPUT if bad else EXIT_UNPROVEN if unproven else EXIT_OK


def _document(source: str | PuzzleError, stdin: str | None) -> Any:
    """A puzzle's document, read once: its keys tell a card puzzle (refused) from a tile
    one, which the tile reader then checks (None: nothing to read, or it does not read or
    parse, which the tile reader reports)."""
    if not isinstance(source, str):
        return None
    if source == STDIN and stdin is not None:
        return stdin_data(stdin)
    try:
        return read_document(source)
    except PuzzleError:
        return None


class _Bar:
    """A long step's progress (the outs, the playouts): a rich bar on stderr, shown only
    once the step runs long."""

    def __init__(self, label: str = "Outs") -> None:
        self.label = label
        self.started = time.perf_counter()
        self.progress: Progress | None = None
        self.task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if self.progress is None:
            if time.perf_counter() - self.started < BAR_AFTER or done == total:
                return
            from rich.console import Console
            from rich.progress import Progress

            self.progress = Progress(console=Console(stderr=True), transient=True)
            self.progress.start()
            self.task = self.progress.add_task(self.label, total=total)
        assert self.task is not None
        self.progress.update(self.task, completed=done)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()


@contextmanager
def _outs_bar(*, show: bool, label: str = "Outs") -> Iterator[_Bar | None]:
    if not show:
        yield None
        return
    bar = _Bar(label)
    try:
        yield bar
    finally:
        bar.close()


# -- the human output ---------------------------------------------------------------------


def analysis_text(
    analysis: Analysis, name: str | None, title: str | None, *, changed: bool, color: bool
) -> str:
    lines: list[str] = []
    if name is not None or title is not None:
        lines.append(" - ".join(part for part in (name, title) if part))
    lines += _moves_lines(analysis, changed=changed, color=color)
    if analysis.hold is not None:
        lines += _hold_lines(analysis.hold, color)
    if analysis.outs is not None:
        lines += _outs_lines(analysis.outs, color)
    if analysis.grade is not None:
        lines += _grade_lines(analysis.grade)
    return "\n".join(lines)


def _tiles(tiles: Sequence[Tile], color: bool) -> str:
    return " ".join(explaining.tile_text(t, color) for t in tiles)


def _status(move: RankedMove) -> str:
    return "proven" if move.proven else "not proven (time limit)"


def table_lines(move: RankedMove, *, changed: bool, color: bool, indent: str = "  ") -> list[str]:
    """A move's new table, new or changed melds marked (only those with ``changed``)."""
    marked = set(move.changed)
    lines = []
    for i, meld in enumerate(move.table):
        if i in marked:
            lines.append(f"{indent}{render.CHANGED} {_tiles(meld.tiles, color)}")
        elif not changed:
            lines.append(f"{indent}  {_tiles(meld.tiles, color)}")
    return lines


def table_heading(move: RankedMove, *, changed: bool) -> str:
    marks = [i in move.changed for i in range(len(move.table))]
    return render.table_heading(marks, changed)


def _moves_lines(analysis: Analysis, *, changed: bool, color: bool) -> list[str]:
    moves = analysis.moves
    if not moves:
        best = analysis.best
        if best.proven:
            return ["No move: no legal move exists, so draw a tile (proven)."]
        return ["No move found before the time limit (not proven that none exists)."]
    if analysis.top == 1:
        lines = ["Best move:"]
    elif len(moves) < analysis.top:
        lines = [f"Best moves (only {len(moves)} distinct by the tiles played, best first):"]
    else:
        lines = [f"Best moves ({len(moves)} distinct by the tiles played, best first):"]
    width = max(len(str(m.value)) for m in moves)
    for move in moves:
        count = f"{move.tiles} tile" + ("" if move.tiles == 1 else "s")
        lines.append(
            f"  {move.rank}. value {move.value:>{width}}, {count:>8}: "
            f"{_tiles(move.played, color)}" + ("" if move.proven else "  (not proven: time limit)")
        )
    for move in moves:
        lines.append(f"Move {move.rank}, new table {table_heading(move, changed=changed)}:")
        lines += table_lines(move, changed=changed, color=color)
        lines.append(f"  Rack left: {_tiles(move.rack, color) or '(empty)'}")
    return lines


def _hold_lines(hold: Hold, color: bool) -> list[str]:
    lines = ["Hold or play:"]
    keep = hold.keep_jokers
    if keep is None:
        lines.append("  Keep the jokers: no joker in the rack.")
    elif not keep.played:
        lines.append(f"  Keep the jokers: no move without them (costs {hold.joker_cost}).")
    else:
        lines.append(
            f"  Keep the jokers: value {keep.value}, {_tiles(keep.played, color)} "
            f"(costs {hold.joker_cost})."
        )
    fewest = hold.fewest
    if fewest.played:
        kept = hold.tiles_kept
        lines.append(
            f"  Fewest tiles at value {fewest.value}: {fewest.tiles} "
            f"({_tiles(fewest.played, color)}; keeps {kept} more than the best move)."
        )
    return lines


def _outs_lines(outs: Outs, color: bool) -> list[str]:
    level = "value" if outs.objective == "value" else "tiles"
    today = outs.today.value if outs.objective == "value" else outs.today.tiles
    lines = [f"Outs ({outs.unseen} unseen tiles; today's best: {level} {today}):"]
    helping = outs.helping
    if helping:
        lines.append(f"  tile  unseen  chance  {level:>5}  gain  played")
        for out in helping:
            score = out.best.value if outs.objective == "value" else out.best.tiles
            lines.append(
                f"  {explaining.tile_text(out.tile, color)}{' ' * (4 - len(str(out.tile)))}"
                f"  {out.count:>6}  {float(out.chance):>6.1%}  {score:>5}  {out.gain:>+4}"
                f"  {_tiles(out.best.played, color)}"
            )
    else:
        lines.append("  No tile that could be drawn improves the best move.")
    rest = len(outs.outs) - len(helping)
    if rest:
        proofs = sum(1 for out in outs.outs if out.proof == "fits no meld")
        lines.append(
            f"  No gain: {rest} other tile kind{'s' if rest != 1 else ''}"
            + (f" ({proofs} proven without a solve: they fit no meld)." if proofs else ".")
        )
    if helping:
        chances = [f"{n}+: {float(outs.chance(n)):.1%}" for n in outs.thresholds()]
        text = "Chance the next draw gains " + ", ".join(chances) + "."
        lines += textwrap.wrap(text, width=96, initial_indent="  ", subsequent_indent="    ")
    return lines


def _grade_lines(grade: Grade) -> list[str]:
    lines = [f"Grade: {grade.text()}"]
    if not grade.legal:
        lines += [f"  - {error}" for error in grade.errors]
    return lines


def grade_data(grade: Grade) -> dict[str, Any]:
    """The ``"grade"`` key of ``check --grade --json``."""
    return grade.to_data()
