"""``rummikub check``: is a proposed new table a legal move?"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from rummikub.cli import cards, explaining, render
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
    Inline,
    after_melds,
    check_usage,
    inline_puzzle,
    stdin_puzzle,
)
from rummikub.core.documents import STDIN, read_stdin
from rummikub.core.errors import PuzzleError
from rummikub.render.text import paint, use_color
from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.position import Position
from rummikub.tiles.puzzles import load

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
    help="Melds on the table of an inline position, separated by | or ;. Repeatable.",
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
    help="Also draw the move as an SVG picture in FILE (a legal one with its steps).",
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
) -> None:
    """Check whether the proposed new table of PUZZLE is a legal move.

    The position is the PUZZLE file (- reads it from stdin), or --rack/--table, or
    --position. The proposed table is the puzzle file's 'after' list, or the --after melds.
    Lists every rule the move breaks, the tiles it plays and their value. Exit 0 if legal,
    1 if not, 2 on bad input.
    """
    # The checker never loads OR-Tools, but import it here anyway so that --help stays
    # independent of it.
    from rummikub.tiles.checker import check as check_move

    given = Inline(rack, table, position)
    check_usage(given)
    if (puzzle is None) == (not given.given):
        raise click.UsageError(
            "give a PUZZLE file (- for stdin) or an inline position (--rack/--table or "
            "--position), one of them"
        )
    choices = overrides(rules_preset, rule_options)
    if puzzle is not None and puzzle != STDIN and cards.is_card_file(puzzle):
        # A card puzzle (a file with a 'game' key): judged by the card checker.
        try:
            request = cards.CheckRequest(
                puzzle, after, as_json, explain, tuple(rule_options.items()), rules_preset
            )
            text, legal = cards.check_one(request)
        except (PuzzleError, cards.BadAfter) as error:
            raise BadInput(str(error)) from None
        click.echo(text)
        ctx.exit(EXIT_OK if legal else EXIT_REJECTED)
    try:
        if given.given:
            loaded = inline_puzzle(given, choices)
        elif puzzle == STDIN:
            loaded = stdin_puzzle(read_stdin(), choices)
        else:
            assert puzzle is not None
            loaded = load(puzzle, overrides=choices)
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
    color = use_color(no_color, sys.stdout) and not as_json
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
