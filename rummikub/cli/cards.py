"""The card rummies at the command line: ``solve`` and ``check`` hand card puzzles (files
with a ``game`` key, or ``--game`` with ``--hand``) to these functions, which load, solve or
judge, and render. The solver is imported only when a solve runs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rummikub.cards.cards import Card, format_cards
from rummikub.cards.checker import CardVerdict
from rummikub.cards.melds import RawCardMeld
from rummikub.cards.puzzles import CardOverrides, CardPuzzle, from_data, is_card_file, load
from rummikub.cards.rules import option_from_text
from rummikub.cli.card_options import CardOptions
from rummikub.core.errors import NotationError, PuzzleError
from rummikub.render.card_data import meld_cards, steps_data, turn_data, verdict_data

if TYPE_CHECKING:
    from rummikub.cards.solver import CardResult, CardTurn

__all__ = ["CardTask", "is_card_file"]


@dataclass(frozen=True)
class CardTask:
    """What a card solve needs besides the puzzle."""

    options: CardOptions
    time_limit: float | None = None
    as_json: bool = False
    verify: bool = False
    explain: bool = False

    def overrides(self) -> CardOverrides:
        """What the command line sets over a card puzzle file: ``--game`` plays it as that
        game (its [rules] still apply, as ``--rules`` does for tiles), ``--rule`` options
        win over its [rules], ``--opened`` says the player has opened."""
        return CardOverrides(
            game=self.options.game,
            options={key: option_from_text(text) for key, text in self.options.rule_options},
            opened=True if self.options.opened else None,
        )


@dataclass
class CardReport:
    lines: list[tuple[str, bool]]
    bad_input: bool = False
    mismatch: bool = False
    unproven: bool = False
    #: With --verify: whether the answer is the [expect]ed one (None: nothing expected).
    expected: bool | None = None


def solve_one(task: CardTask, source: str, *, several: bool = False) -> CardReport:
    """Load, solve and render one card puzzle (``source`` is ignored for an inline one)."""
    from rummikub.cards.solver import solve

    try:
        if task.options.tile_preset is not None:
            raise PuzzleError(
                source or "command line",
                [
                    f"--rules {task.options.tile_preset} is a tile rule set; a card puzzle is "
                    "played as another game with --game"
                ],
            )
        puzzle = _inline(task) if task.options.inline else load(source, overrides=task.overrides())
    except PuzzleError as error:
        return CardReport([(f"Error: {error}", True)], bad_input=True)
    result = solve(puzzle.position, time_limit=task.time_limit, all_picks=task.options.all_picks)
    name = None if task.options.inline else puzzle.path
    if task.as_json:
        text = json.dumps(result_data(result, name, task), ensure_ascii=False)
    else:
        text = result_text(result, name, puzzle.title, task) + ("\n" if several else "")
    report = CardReport([(text, False)], unproven=not result.proven)
    expect = puzzle.expect
    best = result.best
    if task.verify and expect:
        report.expected = expect.matches(best.status, best.points, best.penalty)
    if report.expected is False:
        got = "no lay-down" if best.status == "no_move" else f"{best.points} points"
        report.lines.append(
            (
                f"Mismatch: {puzzle.path}: expected {expect}, got {got}, penalty {best.penalty}",
                True,
            )
        )
        report.mismatch = True
    return report


def _inline(task: CardTask) -> CardPuzzle:
    data: dict[str, Any] = {
        "game": task.options.game,
        "hand": task.options.hand or "",
        "table": list(task.options.table),
        "opened": task.options.opened,
    }
    if task.options.deal is not None:
        data["deal"] = task.options.deal
    overrides = task.overrides()
    return from_data(data, "command line", overrides=replace(overrides, game=None))


# -- rendering ----------------------------------------------------------------------------


def result_data(result: CardResult, puzzle: str | None, task: CardTask) -> dict[str, Any]:
    position = result.position
    data: dict[str, Any] = {"puzzle": puzzle, "game": position.rules.game}
    data |= turn_data(result.best, position.drawn)
    if result.baseline is not None:
        data["baseline"] = {"points": result.baseline.points, "penalty": result.baseline.penalty}
    if task.options.all_picks and result.picks:
        data["picks"] = [
            {
                "draw": t.draw,
                "status": t.status,
                "points": t.points,
                "penalty": t.penalty,
            }
            for t in result.picks
        ]
    if task.explain:
        data["steps"] = steps_data(result.best, len(position.table))
    data["seconds"] = round(result.seconds, 6)
    return data


def _draw_text(turn: CardTurn, result: CardResult) -> str | None:
    position = result.position
    if position.drawn:
        return None
    if turn.draw == "stock":
        return "Draw: from the stock (no pick from the discard pile does better)"
    taken = position.taken(turn.draw)
    if turn.draw == 0:
        return f"Draw: the top card of the discard pile, {taken[-1]}"
    return (
        f"Draw: {len(taken)} cards from the discard pile ({format_cards(taken)}); "
        f"{taken[0]} must be laid this turn"
    )


def result_text(result: CardResult, name: str | None, title: str | None, task: CardTask) -> str:
    position, turn = result.position, result.best
    lines = []
    if name is not None:
        lines.append(f"{name} - {title}" if title else name)
    lines.append(f"Game: {position.rules.game}")
    draw = _draw_text(turn, result)
    if draw:
        lines.append(draw)
    old = len(position.table)
    if turn.status == "no_move":
        lines.append("No lay-down: nothing can be laid this turn.")
    else:
        lines.append("New table (* = new or changed):")
        for index, meld in enumerate(turn.table):
            mark = "*" if index >= old or index in turn.layoffs else " "
            where = ""
            if task.explain:
                if index >= old:
                    where = "   new meld from your hand"
                elif index in turn.layoffs:
                    where = "   " + _layoff_text(turn, index)
            lines.append(f"  {mark} {' '.join(meld_cards(meld))}{where}")
        for index, card, wild in turn.swaps:
            lines.append(f"Swap: {card} takes the wild card {wild} from meld {index}")
        lines.append(f"Laid: {format_cards(turn.played)} ({turn.points} points)")
    lines.append(f"Discard: {turn.discard}" if turn.discard else "Discard: none (out)")
    left = format_cards(turn.hand) if turn.hand else "nothing"
    lines.append(f"Hand left: {left} (penalty {turn.penalty})")
    if task.options.all_picks:
        for pick in result.picks:
            lines.append(
                f"  pick depth {pick.draw}: "
                + (
                    "no legal turn"
                    if pick.status == "infeasible"
                    else f"{pick.points} points, penalty {pick.penalty}"
                )
            )
    objective = position.rules.objective
    lines.append(
        f"Proven optimal ({objective} objective)."
        if result.proven
        else "Not proven optimal: the time limit ran out."
    )
    lines.append(f"Time: {result.seconds:.3f} s")
    return "\n".join(lines)


def _layoff_text(turn: CardTurn, index: int) -> str:
    """What a turn laid on table meld ``index``: its wild swaps, then its lay-offs."""
    cards = list(turn.layoffs[index])
    parts = []
    for meld, card, wild in turn.swaps:
        if meld == index:
            cards.remove(card)
            parts.append(f"{card} takes the wild card {wild} back")
    if cards:
        parts.append(f"+ {format_cards(cards)} laid off")
    return "; ".join(parts)


# -- check ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckRequest:
    path: str
    after: tuple[str, ...]
    as_json: bool
    explain: bool
    #: ``--rule KEY=VALUE`` card options, and ``--rules`` (refused: a tile rule set).
    rule_options: tuple[tuple[str, str], ...] = ()
    tile_preset: str | None = None


def check_one(request: CheckRequest) -> tuple[str, bool]:
    """The verdict's text and whether the turn is legal (raises PuzzleError, BadAfter)."""
    from rummikub.cards.checker import check

    if request.tile_preset is not None:
        raise PuzzleError(
            request.path,
            [f"--rules {request.tile_preset} is a tile rule set, not a card game's rules"],
        )
    options = {key: option_from_text(text) for key, text in request.rule_options}
    puzzle = load(request.path, overrides=CardOverrides(options=options))
    if request.after:
        proposed: list[RawCardMeld] = []
        for text in request.after:
            try:
                proposed.append(RawCardMeld.parse(text))
            except NotationError as error:
                raise BadAfter(f"--after {text!r}: {error}") from None
    elif puzzle.after is not None:
        proposed = list(puzzle.after)
    else:
        raise BadAfter(
            f"{request.path}: no proposed turn to check: add 'after = [...]' (and "
            "'after_discard') to the file, or give the new table with --after MELD ..."
        )
    verdict = check(puzzle.position, proposed, discard=puzzle.after_discard, draw=puzzle.after_draw)
    if request.as_json:
        return json.dumps(verdict_data(verdict), ensure_ascii=False), verdict.legal
    return verdict_text(verdict, puzzle, proposed, request.explain), verdict.legal


class BadAfter(ValueError):
    """A proposed table that is not card notation at all."""


def verdict_text(
    verdict: CardVerdict, puzzle: CardPuzzle, proposed: Sequence[RawCardMeld], explain: bool
) -> str:
    if verdict.legal:
        lines = ["Legal turn."]
    else:
        count = len(verdict.violations)
        lines = [f"Illegal turn: {count} rule{'s' if count != 1 else ''} broken."]
        lines += [f"  - {v.text} [{v.rule}]" for v in verdict.violations]
    lines.append(f"Laid: {_list(verdict.played)} ({verdict.points} points)")
    lines.append(f"Hand left: {_list(verdict.hand)} (penalty {verdict.penalty})")
    if explain and verdict.legal:
        old = len(puzzle.position.table)
        for index, cards in sorted(verdict.layoffs.items()):
            lines.append(f'  {format_cards(cards)} laid off on meld {index} "{proposed[index]}"')
        for meld in proposed[old:]:
            lines.append(f"  new meld {meld}")
    return "\n".join(lines)


def _list(cards: Sequence[Card]) -> str:
    return format_cards(cards) if cards else "nothing"
