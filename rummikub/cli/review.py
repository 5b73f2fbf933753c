"""``rummikub analyse RECORD``: every turn of a game record graded against the best move,
and with ``--equity`` (also ``game annotate``) in win probability, with each draw's luck.

The grading itself is :mod:`rummikub.tiles.game.review` (the web page's review mode uses it too);
this module reads the file and words the answer for a terminal.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from rummikub.cli.common import EXIT_BAD_INPUT, EXIT_OK, problem_code
from rummikub.core.documents import STDIN, read_document
from rummikub.core.errors import PuzzleError, RummikubError
from rummikub.tiles.tiles import format_tiles

if TYPE_CHECKING:  # the game package loads only when a record is reviewed
    from rummikub.cards.game.review import CardEquityReview, CardEquityTurn
    from rummikub.play.equity import Budget as CardBudget
    from rummikub.play.review import PlayerLine
    from rummikub.tiles.game.equity import Budget
    from rummikub.tiles.game.record import Record
    from rummikub.tiles.game.review import EquityReview, EquityTurn, Review
    from rummikub.tiles.game.review import PlayerLine as TilePlayerLine

__all__ = ["equity", "equity_text", "is_record", "review", "review_text", "run_equity"]

#: A record file holds this key (``format = "rummikub-game/1"``); a puzzle file never does.
FORMAT_KEY = "format"
FORMAT_PREFIX = "rummikub-game/"


def is_record(path: str) -> bool:
    """Whether ``path`` is a game record rather than a puzzle (by its ``format`` key)."""
    try:
        data = read_document(path)
    except PuzzleError:
        return False  # the puzzle reader reports what is wrong with it
    value = data.get(FORMAT_KEY) if isinstance(data, dict) else None
    return isinstance(value, str) and value.startswith(FORMAT_PREFIX)


def review(path: str, time_limit: float | None = None) -> tuple[Review, int]:
    """Replay the record at ``path`` and grade each turn whose rack is known; the review
    and its exit code (:func:`problem_code`)."""
    from rummikub.tiles.game.record import load
    from rummikub.tiles.game.review import review_record

    record = load(path)
    found = review_record(record, path, time_limit)
    return found, problem_code(found.problem, record.problem)


def review_text(found: Review) -> str:
    graded = found.graded
    lines = [f"{found.path} - {len(found.turns)} turns, {len(graded)} graded"]
    width = max((len(t.player) for t in found.turns), default=0)
    for turn in found.turns:
        verdict = "rack unknown" if turn.grade is None else turn.grade.text()
        lines.append(f"  {turn.number:>3}. {turn.player:<{width}}  {verdict}")
    if graded:
        best = sum(1 for t in graded if t.grade is not None and t.grade.value_gap == 0)
        given_up = sum(t.grade.value_gap for t in graded if t.grade is not None)
        lines.append(
            f"Best value in {best} of {len(graded)} graded turns; "
            f"{given_up} points left unplayed in all."
        )
    if found.problem is not None:
        lines.append(f"The replay stopped: {found.problem}")
    return "\n".join(lines)


# -- the equity review (``analyse RECORD --equity``) ----------------------------------------


def run_equity(
    sources: Sequence[str | PuzzleError],
    inline: bool,
    with_equity: bool,
    chart_path: str | None,
    as_json: bool,
) -> int:
    """``analyse RECORD --equity [--chart FILE.png]``: the equity review of each record, printed
    as text or JSON; the exit code (0, 1 a record with a bad turn, 2 bad input)."""
    if not with_equity:
        raise click.UsageError("--chart draws the equity review: use it with --equity")
    records = [s for s in sources if isinstance(s, str) and s != STDIN and is_record(s)]
    if inline or len(records) != len(sources):
        raise click.UsageError("--equity reviews game records: give RECORD files only")
    if chart_path is not None and len(records) != 1:
        raise click.UsageError("--chart draws one game: give one record")
    if chart_path is not None:
        from rummikub.tiles.game.chart import need_matplotlib

        need_matplotlib()  # before the review: a missing extra is told at once (exit 2)
    from rummikub.tiles.game.record import load

    codes = {EXIT_OK}
    for path in records:
        try:
            record = load(path)
            found = equity(path, bar=not as_json and sys.stderr.isatty(), record=record)
            if chart_path is not None:
                from rummikub.tiles.game.chart import save_review_chart

                save_review_chart(found, chart_path)
        except RummikubError as error:
            click.echo(f"Error: {error}", err=True)
            codes.add(EXIT_BAD_INPUT)
            continue
        if as_json:
            click.echo(json.dumps(found.to_data()))
        else:
            click.echo(equity_text(found) + ("\n" if len(records) > 1 else ""))
        codes.add(problem_code(found.problem, record.problem))
    # Bad input first, then a bad turn (EXIT_BAD_INPUT 2 > EXIT_REJECTED 1 > EXIT_OK 0).
    return max(codes)


def equity(
    path: str, *, bar: bool, budget: Budget | None = None, record: Record | None = None
) -> EquityReview:
    """Replay the record at ``path`` (or ``record``, read from it) and judge each turn whose
    rack is known in win probability; ``bar`` shows a progress bar on stderr (a terminal)."""
    from rummikub.tiles.game.equity import DEFAULT
    from rummikub.tiles.game.record import load
    from rummikub.tiles.game.review import equity_review

    record = load(path) if record is None else record
    if not bar:
        return equity_review(record, path, budget or DEFAULT)
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("Review", total=len(record.turns))
        return equity_review(
            record,
            path,
            budget or DEFAULT,
            progress=lambda done, total: progress.update(task, completed=done, total=total),
        )


def equity_text(found: EquityReview) -> str:
    """The equity review for a terminal: a line a turn, then a line a player."""
    lines = [_heading(found.path, "", len(found.turns), found.players, found.budget, "turn")]
    width = max([len(t.player) for t in found.turns] + [len("player")])
    lines.append(f"  turn  {'player':<{width}}  win   lost    mark  luck   move")
    for turn in found.turns:
        lines.append(f"  {turn.number:>4}  {turn.player:<{width}}  " + _turn_columns(turn))
    lines += _players_lines(found.players, "a turn with nothing to lay is not graded")
    if found.problem is not None:
        lines.append(f"The replay stopped: {found.problem}")
    return "\n".join(lines)


def _heading(
    path: str,
    game: str,
    turns: int,
    players: Sequence[PlayerLine | TilePlayerLine],
    budget: Budget | CardBudget,
    unit: str,
) -> str:
    """An equity review's first line: the record, its turns, the graded ones, the budget."""
    graded = sum(line.graded for line in players)
    rounds = f"{budget.rounds} round{'s' if budget.rounds != 1 else ''}"
    return (
        f"{path} - equity review{game}: {turns} turns, {graded} graded "
        f"({budget.samples} deals x {rounds} a {unit})"
    )


def _players_lines(players: Sequence[PlayerLine | TilePlayerLine], ungraded: str) -> list[str]:
    """Each player's line of an equity review (tiles or cards), and the marks' key."""
    from rummikub.play.review import THRESHOLDS

    lines = ["Players:"]
    width = max(len(line.player) for line in players)
    for line in players:
        marks = ", ".join(f"{mark} {count}" for mark, count in line.marks)
        accuracy = "-" if line.accuracy is None else f"{line.accuracy:.1f}"
        lines.append(
            f"  {line.player:<{width}}  accuracy {accuracy:>5} over {line.graded} graded "
            f"turn{'' if line.graded == 1 else 's'}; equity lost {line.lost:.2f} ({marks}); "
            f"luck {line.luck:+.2f} in {line.draws} draw{'' if line.draws == 1 else 's'}"
        )
    lines.append(
        "Marks by the win probability lost: "
        + ", ".join(f"{mark} {threshold:.2f}+" for mark, threshold in reversed(THRESHOLDS))
        + f"; {ungraded}."
    )
    return lines


def _turn_columns(turn: EquityTurn) -> str:
    move = _move_words(turn)
    if turn.win is None:
        return f"{'':4}  {'':6}  {'':4}  {'':5}  {move} (rack unknown)"
    lost = f"{turn.lost:.4f}" if turn.graded and turn.lost is not None else "-"
    luck = "" if turn.luck is None else f"{turn.luck:+.2f}"
    text = f"{turn.win:.2f}  {lost:<6}  {turn.mark or '':<4}  {luck:<5}  {move}"
    best = turn.best
    if turn.mark is not None and best is not None:
        laid = format_tiles(best.played)
        what = f"lay {laid}" if best.played else "draw" if turn.kind != "pass" else "pass"
        text += f"; best: {what} ({best.win:.2f})"
    return text


def _move_words(turn: EquityTurn) -> str:
    if turn.kind == "play":
        return f"played {format_tiles(turn.played)}"
    if turn.kind == "draw":
        return "drew" + ("" if turn.drew is None else f" {turn.drew}")
    return "passed"


# -- the equity review of a card game record -----------------------------------------------


def run_card_equity(path: str, *, as_json: bool, several: bool = False) -> int:
    """``analyse CARD_RECORD --equity``: the card record's equity review printed as text or
    JSON; the exit code (0, 1 a record with a bad turn, 2 a file that is no record)."""
    from rummikub.cards.game.record import load
    from rummikub.cards.game.review import equity_review

    try:
        record = load(path)
    except RummikubError as error:
        click.echo(f"Error: {error}", err=True)
        return EXIT_BAD_INPUT
    if as_json or not sys.stderr.isatty():
        found = equity_review(record, path)
    else:
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("Review", total=None)
            found = equity_review(
                record,
                path,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
            )
    if as_json:
        click.echo(json.dumps(found.to_data(), ensure_ascii=False))
    else:
        click.echo(card_equity_text(found) + ("\n" if several else ""))
    return problem_code(found.problem, record.problem)


def card_equity_text(found: CardEquityReview) -> str:
    """A card record's equity review for a terminal: a line a turn, then a line a player."""
    game = f" ({found.rules.game})"
    lines = [_heading(found.path, game, len(found.turns), found.players, found.budget, "decision")]
    width = max([len(t.player) for t in found.turns] + [len("player")])
    lines.append(f"  hand  turn  {'player':<{width}}  win   lost    mark  luck   move")
    for turn in found.turns:
        lines.append(
            f"  {turn.hand:>4}  {turn.number:>4}  {turn.player:<{width}}  " + _card_columns(turn)
        )
    lines += _players_lines(found.players, "a turn with no choice is not graded")
    if found.problem is not None:
        lines.append(f"The replay stopped: {found.problem}")
    return "\n".join(lines)


def _card_columns(turn: CardEquityTurn) -> str:
    judged = turn.judged
    if judged is None:
        return f"{'':4}  {'':6}  {'':4}  {'':5}  {turn.words} (hand unknown)"
    lost = f"{judged.lost:.4f}" if turn.graded else "-"
    luck = "" if turn.luck is None else f"{turn.luck:+.2f}"
    text = f"{judged.win:.2f}  {lost:<6}  {turn.mark or '':<4}  {luck:<5}  {turn.words}"
    if turn.mark is not None and turn.best_words is not None:
        text += f"; best: {turn.best_words} ({judged.best.win:.2f})"
    return text
