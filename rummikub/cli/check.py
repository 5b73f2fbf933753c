"""``rummikub check``: is a proposed new table a legal move?"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from rummikub.cli import cards, explaining, render
from rummikub.cli.card_options import (
    CARD_GAMES,
    card_record_problem,
    is_card_data,
    is_card_record_data,
)
from rummikub.cli.common import (
    EXIT_OK,
    EXIT_REJECTED,
    EXIT_UNPROVEN,
    BadInput,
    overrides,
    rules_options,
    write_svg,
)
from rummikub.cli.positions import (
    COMMAND_LINE,
    Inline,
    after_melds,
    check_usage,
    read_puzzle,
    stdin_data,
)
from rummikub.core.documents import STDIN, read_document, read_stdin
from rummikub.core.errors import PuzzleError
from rummikub.render.text import paint, use_color
from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.position import Position

if TYPE_CHECKING:
    from rummikub.tiles.analysis import Grade
    from rummikub.tiles.checker import Verdict
    from rummikub.tiles.explain import Explanation


@click.command()
@click.argument("puzzle", metavar="[PUZZLE]", required=False)
@click.option("--rack", metavar="TILES", help="The rack of an inline position.")
@click.option(
    "--table",
    "table",
    multiple=True,
    metavar="MELDS",
    help="Melds on the table of an inline position (tiles, or cards with --hand), separated "
    "by | or ;. Repeatable.",
)
@click.option(
    "--position",
    metavar="TEXT",
    help='A whole position in one line, "TABLE / RACK" (or "TABLE / RACK / not-opened").',
)
@click.option(
    "--after",
    "after",
    multiple=True,
    metavar="MELDS",
    help="Melds of the proposed new table (instead of the file's 'after'), separated by | "
    'or ;, or repeat the option, e.g. --after "R1-4 | group: R5 J J".',
)
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as one JSON object.")
@click.option(
    "--explain",
    is_flag=True,
    help="For a legal move, also show where every tile of the new table comes from and "
    'numbered steps from the old table to the new (with --json: "changes" and "steps").',
)
@click.option(
    "--no-color",
    is_flag=True,
    help="Show tiles without colors (as when NO_COLOR is set; FORCE_COLOR forces them).",
)
@click.option(
    "--grade",
    is_flag=True,
    help="Also compare the move with the best move (this runs the solver; with --json: "
    'the key "grade").',
)
@rules_options
@click.option(
    "--svg",
    metavar="FILE",
    help="Also draw the move as an SVG picture in FILE (a legal one with its steps; a card "
    "turn with its laid and laid-off cards marked).",
)
@click.option(
    "--game",
    type=click.Choice(CARD_GAMES),
    # Read before --rule, which then judges its options as this game's.
    is_eager=True,
    help="A card game: the inline position is --hand (and --table) in card notation; with a "
    "card PUZZLE file, play it as this game (its [rules] still apply).",
)
@click.option(
    "--hand", metavar="CARDS", help='The hand of an inline card position, e.g. "7S 8S 9S KH".'
)
@click.option(
    "--deal", type=click.IntRange(1, 7), help="The deal (1-7) of an inline contract game."
)
@click.option("--opened", is_flag=True, help="The card player has already opened (gone down).")
@click.option(
    "--after-discard",
    metavar="CARD",
    help="The card the proposed card turn discards (instead of the file's 'after_discard').",
)
@click.option(
    "--four-color",
    is_flag=True,
    help="Card games: show cards in the four-color deck's colors (diamonds blue, clubs "
    "green) on the terminal and in the --svg picture, not red and black.",
)
@click.pass_context
def check(
    ctx: click.Context,
    puzzle: str | None,
    rack: str | None,
    table: tuple[str, ...],
    position: str | None,
    after: tuple[str, ...],
    as_json: bool,
    explain: bool,
    no_color: bool,
    grade: bool,
    rules_preset: str | None,
    rule_options: dict[str, str],
    svg: str | None,
    game: str | None,
    hand: str | None,
    deal: int | None,
    opened: bool,
    after_discard: str | None,
    four_color: bool,
) -> None:
    """Check whether the proposed new table of PUZZLE is a legal move.

    The position is the PUZZLE file (- reads it from stdin), or --rack/--table, or
    --position, or a card position --game/--hand (and --table). The proposed table is the
    puzzle file's 'after' list, or the --after melds (a card turn's discard: the file's
    'after_discard', or --after-discard). Lists every rule the move breaks, the tiles (or
    cards) it plays and their value. Exit 0 if legal, 1 if not, 2 on bad input.
    """
    # The checker never loads OR-Tools, but import it here anyway so that --help stays
    # independent of it.
    from rummikub.tiles.checker import check as check_move

    card_inline = _card_usage(puzzle, rack, position, game, hand, deal)
    given = Inline(rack, () if card_inline else table, position)
    check_usage(given)
    if (puzzle is None) == (not (given.given or card_inline)):
        raise click.UsageError(
            "give a PUZZLE file (- for stdin) or an inline position (--rack/--table, "
            "--position, or --game/--hand for cards), one of them"
        )
    choices = overrides(rules_preset, rule_options)
    # The document is read once; its keys tell a card puzzle (a 'game' key) from a tile one.
    stdin = read_stdin() if puzzle == STDIN else None
    data = _document(puzzle, stdin)
    color = use_color(no_color, sys.stdout) and not as_json
    if is_card_record_data(data):
        raise BadInput(card_record_problem(puzzle or COMMAND_LINE))
    if card_inline or is_card_data(data):
        if grade:
            raise BadInput(
                f"{puzzle or COMMAND_LINE}: --grade compares a tile move with the best move; "
                "for a card turn, 'rummikub solve' gives the best turn"
            )
        request = cards.CheckRequest(
            puzzle or cards.COMMAND_LINE,
            after,
            as_json,
            explain,
            tuple(rule_options.items()),
            rules_preset,
            game=game,
            hand=hand,
            table=table if card_inline else (),
            deal=deal,
            opened=opened,
            after_discard=after_discard,
            color=color,
            four_color=four_color,
            svg=svg is not None,
        )
        try:
            report = cards.check_one(request, data)
        except (PuzzleError, cards.BadAfter) as error:
            raise BadInput(str(error)) from None
        click.echo(report.text, color=color or None)
        if svg is not None and report.svg is not None:
            write_svg(svg, report.svg)
        ctx.exit(EXIT_OK if report.legal else EXIT_REJECTED)
    for flag, value in (
        ("--game", game),
        ("--opened", opened or None),
        ("--after-discard", after_discard),
    ):
        if value is not None:
            raise BadInput(
                f"{puzzle or COMMAND_LINE}: {flag} goes with a card turn; a tile position has none"
            )
    try:
        loaded = read_puzzle(
            puzzle if puzzle is not None else COMMAND_LINE,
            given if given.given else None,
            stdin,
            choices,
            data=data,
        )
    except PuzzleError as error:
        raise BadInput.from_error(error) from None
    if after:
        proposed: list[RawMeld] = after_melds(after, loaded.position.rules)
    elif loaded.after is not None:
        proposed = list(loaded.after)
    else:
        raise BadInput(
            f"{loaded.path}: no proposed table to check: add 'after = [...]' to the file "
            "or give the new table with --after MELDS ..."
        )
    verdict = check_move(loaded.position, proposed)
    graded = _grade(loaded.position, proposed, verdict) if grade else None
    explanation = None
    if explain or svg is not None:
        explanation = _explanation(loaded.position, proposed, verdict.legal)
    if as_json:
        data = render.verdict_data(verdict)
        if explain and explanation is not None:
            data.update(explaining.explanation_data(explanation))
        if graded is not None:
            data["grade"] = graded.to_data()
        click.echo(json.dumps(data))
    else:
        if explain:
            text = explaining.verdict_text(verdict, explanation, color)
        else:
            text = render.verdict_text(verdict)
            text = paint(text) if color else text
        if graded is not None:
            text += f"\nGrade: {graded.text()}"
        click.echo(text, color=color or None)
    if svg is not None:
        from rummikub.render.svg import explanation_svg, proposal_svg

        picture = (
            explanation_svg(explanation, rack=loaded.position.rack_sorted())
            if explanation is not None
            else proposal_svg(loaded.position, [m.tiles for m in proposed], verdict.errors)
        )
        write_svg(svg, picture)
    if graded is not None and not graded.best.proven:
        ctx.exit(EXIT_UNPROVEN if verdict.legal else EXIT_REJECTED)
    ctx.exit(EXIT_OK if verdict.legal else EXIT_REJECTED)


def _card_usage(
    puzzle: str | None,
    rack: str | None,
    position: str | None,
    game: str | None,
    hand: str | None,
    deal: int | None,
) -> bool:
    """The card options' usage errors, as ``solve`` has them; whether the position is an
    inline card position (--game with --hand)."""
    if hand is not None and game is None:
        raise click.UsageError("an inline card position needs both --game and --hand")
    if game is not None and hand is None and puzzle is None:
        raise click.UsageError(
            "--game needs --hand (an inline card position) or a card PUZZLE file to play as "
            "that game"
        )
    card_inline = hand is not None
    if deal is not None and not card_inline:
        raise click.UsageError(
            "--deal goes with an inline card position (--game and --hand); a card puzzle "
            "file gives its own deal"
        )
    if card_inline and (rack is not None or position is not None):
        tile = "--rack" if rack is not None else "--position"
        raise click.UsageError(
            f"{tile} gives a tile position; an inline card position is --hand (and --table)"
        )
    return card_inline


def _document(puzzle: str | None, stdin: str | None) -> Any:
    """The puzzle's document, read once (None: no file, a one-line position on stdin, or a
    file that does not read or parse, which the tile reader then reports)."""
    if stdin is not None:
        return stdin_data(stdin)
    if puzzle is None:
        return None
    try:
        return read_document(puzzle)
    except PuzzleError:
        return None


def _grade(position: Position, proposed: Sequence[Meld | RawMeld], verdict: Verdict) -> Grade:
    """How the move compares with the best move (imports the solver)."""
    from rummikub.tiles.analysis import grade

    return grade(position, proposed, verdict=verdict)


def _explanation(
    position: Position, proposed: Sequence[Meld | RawMeld], legal: bool
) -> Explanation | None:
    """How a legal proposed table is reached; None for an illegal one."""
    if not legal:
        return None
    from rummikub.tiles.explain import explain

    # A legal table's melds are all valid: read them as melds (runs in ascending order).
    melds = [Meld.of(meld.tiles, kind=meld.kind, rules=position.rules) for meld in proposed]
    return explain(position, melds)
