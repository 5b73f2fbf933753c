"""``rummikub check``: is a proposed new table a legal move?"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from rummikub.cli import cards, explaining, render
from rummikub.cli.common import EXIT_OK, EXIT_REJECTED, BadInput, overrides, rules_options
from rummikub.errors import NotationError, PuzzleError
from rummikub.melds import Meld, RawMeld
from rummikub.position import Position
from rummikub.puzzles import load

if TYPE_CHECKING:
    from rummikub.explain import Explanation


@click.command()
@click.argument("puzzle", metavar="PUZZLE")
@click.option(
    "--after",
    "after",
    multiple=True,
    metavar="MELD",
    help="A meld of the proposed new table (instead of the file's 'after'); repeat it for "
    'every meld, e.g. --after "R1 R2 R3 R4" --after "group: R5 J J".',
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
    help="Show --explain output without colors (as when NO_COLOR is set).",
)
@rules_options
@click.pass_context
def check(
    ctx: click.Context,
    puzzle: str,
    after: tuple[str, ...],
    as_json: bool,
    explain: bool,
    no_color: bool,
    rules_preset: str | None,
    rule_options: dict[str, str],
) -> None:
    """Check whether the proposed new table of PUZZLE is a legal move.

    The proposed table is the puzzle file's 'after' list, or the --after melds. Lists every
    rule the move breaks, the tiles it plays and their value. Exit 0 if legal, 1 if not,
    2 on bad input.
    """
    # The checker never loads OR-Tools, but import it here anyway so that --help stays
    # independent of it.
    from rummikub.checker import check as check_move

    if cards.is_card_file(puzzle):
        # A card puzzle (a file with a 'game' key): judged by the card checker.
        try:
            text, legal = cards.check_one(cards.CheckRequest(puzzle, after, as_json, explain))
        except (PuzzleError, cards.BadAfter) as error:
            raise BadInput(str(error)) from None
        click.echo(text)
        ctx.exit(EXIT_OK if legal else EXIT_REJECTED)
    try:
        loaded = load(puzzle, overrides=overrides(rules_preset, rule_options))
    except PuzzleError as error:
        raise BadInput.from_error(error) from None
    if after:
        proposed = []
        for text in after:
            try:
                proposed.append(RawMeld.parse(text))
            except NotationError as error:
                raise BadInput(f"--after {text!r}: {error}") from None
    elif loaded.after is not None:
        proposed = list(loaded.after)
    else:
        raise BadInput(
            f"{puzzle}: no proposed table to check: add 'after = [...]' to the file "
            "or give the new table with --after MELD ..."
        )
    verdict = check_move(loaded.position, proposed)
    if explain:
        explanation = _explanation(loaded.position, proposed, verdict.legal)
        if as_json:
            click.echo(explaining.verdict_json(verdict, explanation))
        else:
            color = explaining.use_color(no_color)
            click.echo(explaining.verdict_text(verdict, explanation, color))
    else:
        click.echo(render.verdict_json(verdict) if as_json else render.verdict_text(verdict))
    ctx.exit(EXIT_OK if verdict.legal else EXIT_REJECTED)


def _explanation(
    position: Position, proposed: Sequence[Meld | RawMeld], legal: bool
) -> Explanation | None:
    """How a legal proposed table is reached; None for an illegal one."""
    if not legal:
        return None
    from rummikub.explain import explain

    # A legal table's melds are all valid: read them as melds (runs in ascending order).
    melds = [Meld.of(meld.tiles, kind=meld.kind, rules=position.rules) for meld in proposed]
    return explain(position, melds)
