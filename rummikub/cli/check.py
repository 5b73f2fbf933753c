"""``rummikub check``: is a proposed new table a legal move?"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from rummikub.cli import explaining, render
from rummikub.cli.common import (
    EXIT_OK,
    EXIT_REJECTED,
    EXIT_UNPROVEN,
    BadInput,
    overrides,
    rules_options,
)
from rummikub.errors import NotationError, PuzzleError
from rummikub.melds import Meld, RawMeld
from rummikub.position import Position
from rummikub.puzzles import load

if TYPE_CHECKING:
    from rummikub.analysis import Grade
    from rummikub.checker import Verdict
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
@click.option(
    "--grade",
    is_flag=True,
    help="Also compare the move with the best move (this runs the solver; with --json: "
    'the key "grade").',
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
    grade: bool,
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
    graded = _grade(loaded.position, proposed, verdict) if grade else None
    explanation = _explanation(loaded.position, proposed, verdict.legal) if explain else None
    if as_json:
        data = render.verdict_data(verdict)
        if explanation is not None:
            data.update(explaining.explanation_data(explanation))
        if graded is not None:
            data["grade"] = graded.to_data()
        click.echo(json.dumps(data))
    else:
        if explain:
            color = explaining.use_color(no_color)
            text = explaining.verdict_text(verdict, explanation, color)
        else:
            text = render.verdict_text(verdict)
        click.echo(text if graded is None else f"{text}\nGrade: {graded.text()}")
    if graded is not None and not graded.best.proven:
        ctx.exit(EXIT_UNPROVEN if verdict.legal else EXIT_REJECTED)
    ctx.exit(EXIT_OK if verdict.legal else EXIT_REJECTED)


def _grade(position: Position, proposed: Sequence[Meld | RawMeld], verdict: Verdict) -> Grade:
    """How the move compares with the best move (imports the solver)."""
    from rummikub.analysis import grade

    return grade(position, proposed, verdict=verdict)


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
