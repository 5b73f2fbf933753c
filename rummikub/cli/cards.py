"""The card rummies at the command line: ``solve`` and ``check`` hand card puzzles (files
or stdin with a ``game`` key, or ``--game`` with ``--hand``) to these functions, which load,
solve or judge, and render: text (cards in their colors on a terminal), JSON
(:mod:`rummikub.render.card_data`) and pictures (:mod:`rummikub.render.card_svg`). The
solver is imported only when a solve runs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rummikub.cards.cards import Card, card_words, format_cards
from rummikub.cards.checker import CardVerdict
from rummikub.cards.melds import RawCardMeld
from rummikub.cards.melds import meld_texts as meld_texts
from rummikub.cards.puzzles import CardOverrides, CardPuzzle, from_data, is_card_file, load
from rummikub.cards.rules import option_from_text
from rummikub.cli.card_options import CardOptions
from rummikub.core.documents import quote
from rummikub.core.errors import NotationError, PuzzleError
from rummikub.render.card_data import meld_cards, steps_data, turn_data, verdict_data

if TYPE_CHECKING:
    from rummikub.cards.solver import CardResult, CardTurn

__all__ = ["CardTask", "is_card_file", "meld_texts"]

#: How an inline card position is named in messages; its JSON "puzzle" is null.
COMMAND_LINE = "command line"


@dataclass(frozen=True)
class CardTask:
    """What a card solve needs besides the puzzle."""

    options: CardOptions
    time_limit: float | None = None
    as_json: bool = False
    verify: bool = False
    explain: bool = False
    #: Cards in their colors (a terminal), and whether to draw the turn (``--svg``).
    color: bool = False
    svg: bool = False

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
    #: With --svg: the picture of the turn.
    svg: str | None = None


def solve_one(
    task: CardTask, source: str, *, several: bool = False, data: Any = None
) -> CardReport:
    """Load, solve and render one card puzzle (``source`` is ignored for an inline one).
    ``data``: the puzzle's document when the caller has read it (a file, or stdin), so that
    it is read once."""
    from rummikub.cards.solver import solve

    try:
        puzzle = _puzzle(task, source, data)
    except PuzzleError as error:
        return CardReport([(f"Error: {error}", True)], bad_input=True)
    result = solve(puzzle.position, time_limit=task.time_limit, all_picks=task.options.all_picks)
    name = None if task.options.inline else puzzle.path
    if task.as_json:
        text = json.dumps(result_data(result, name, task), ensure_ascii=False)
    else:
        text = result_text(result, name, puzzle.title, task)
        if task.color:
            from rummikub.render.text import paint_cards

            text = paint_cards(text, four_color=task.options.four_color)
        text += "\n" if several else ""
    report = CardReport([(text, False)], unproven=not result.proven)
    if task.svg:
        from rummikub.render.card_svg import card_result_svg

        report.svg = card_result_svg(result, four_color=task.options.four_color, title=puzzle.title)
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


def _puzzle(task: CardTask, source: str, data: Any) -> CardPuzzle:
    """The card puzzle of ``task``: inline, from ``data`` (read by the caller) or read from
    ``source``, the command line's choices over it; raises :class:`PuzzleError`."""
    if task.options.tile_preset is not None:
        raise PuzzleError(
            source or "command line",
            [
                f"--rules {task.options.tile_preset} is a tile rule set; a card puzzle is "
                "played as another game with --game"
            ],
        )
    if task.options.inline:
        return _inline(task)
    if data is not None:
        return from_data(data, source, overrides=task.overrides())
    return load(source, overrides=task.overrides())


def _inline(task: CardTask) -> CardPuzzle:
    data: dict[str, Any] = {
        "game": task.options.game,
        "hand": task.options.hand or "",
        "table": meld_texts(task.options.table),
        "opened": task.options.opened,
    }
    if task.options.deal is not None:
        data["deal"] = task.options.deal
    overrides = task.overrides()
    return from_data(data, COMMAND_LINE, overrides=replace(overrides, game=None))


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
    """A card turn to judge: a puzzle (``path``: a file, ``-`` for stdin, or an inline
    position named :data:`COMMAND_LINE`) and the proposed turn, with how to show it."""

    path: str
    after: tuple[str, ...]
    as_json: bool
    explain: bool
    #: ``--rule KEY=VALUE`` card options, and ``--rules`` (refused: a tile rule set).
    rule_options: tuple[tuple[str, str], ...] = ()
    tile_preset: str | None = None
    #: ``--game``: the game of an inline position, or the game a puzzle is played as.
    game: str | None = None
    #: An inline position: ``--hand`` (not None), ``--table``, ``--deal``, ``--opened``.
    hand: str | None = None
    table: tuple[str, ...] = ()
    deal: int | None = None
    opened: bool = False
    #: ``--after-discard CARD``: the card discarded (over the file's ``after_discard``).
    after_discard: str | None = None
    color: bool = False
    four_color: bool = False
    svg: bool = False

    @property
    def inline(self) -> bool:
        return self.hand is not None


@dataclass(frozen=True)
class CheckReport:
    """What ``check`` prints for a card turn, whether it is legal, and its picture."""

    text: str
    legal: bool
    svg: str | None = None


def check_one(request: CheckRequest, data: Any = None) -> CheckReport:
    """The verdict's text, whether the turn is legal and (with ``svg``) its picture; raises
    PuzzleError or BadAfter. ``data``: the puzzle's document, read once by the caller (a
    file or stdin); None for an inline position."""
    from rummikub.cards.checker import check

    if request.tile_preset is not None:
        raise PuzzleError(
            request.path,
            [f"--rules {request.tile_preset} is a tile rule set, not a card game's rules"],
        )
    # Every problem of the command line at once: the position's, the proposed turn's.
    problems: list[str] = []
    given: list[RawCardMeld] = []
    for text in meld_texts(request.after):
        try:
            given.append(RawCardMeld.parse(text))
        except NotationError as error:
            problems.append(f"--after {text!r}: {error}")
    discard_given = None
    if request.after_discard is not None:
        try:
            discard_given = _after_discard(request.after_discard)
        except BadAfter as error:
            problems.append(str(error))
    try:
        puzzle = _check_puzzle(request, data)
    except PuzzleError as error:
        raise PuzzleError(error.path, [*error.problems, *problems]) from None
    if problems:
        raise BadAfter("\n".join(problems))
    if request.after:
        proposed = given
    elif puzzle.after is not None:
        proposed = list(puzzle.after)
    elif request.inline:
        raise BadAfter(
            f"{COMMAND_LINE}: no proposed turn to check: give the new table with --after "
            "MELD ... (and the card discarded with --after-discard CARD)"
        )
    else:
        raise BadAfter(
            f"{request.path}: no proposed turn to check: add 'after = [...]' (and "
            "'after_discard') to the file, or give the new table with --after MELD ..."
        )
    discard = puzzle.after_discard if discard_given is None else discard_given
    verdict = check(puzzle.position, proposed, discard=discard, draw=puzzle.after_draw)
    picture = None
    if request.svg:
        from rummikub.render.card_svg import card_verdict_svg

        picture = card_verdict_svg(
            puzzle.position,
            proposed,
            verdict,
            discard=discard,
            draw=puzzle.after_draw,
            four_color=request.four_color,
            title=puzzle.title,
        )
    if request.as_json:
        text = json.dumps(verdict_data(verdict), ensure_ascii=False)
        return CheckReport(text, verdict.legal, picture)
    text = verdict_text(verdict, puzzle, proposed, request.explain)
    if request.color:
        from rummikub.render.text import paint_cards

        text = paint_cards(text, four_color=request.four_color)
    return CheckReport(text, verdict.legal, picture)


def _check_puzzle(request: CheckRequest, data: Any) -> CardPuzzle:
    options = {key: option_from_text(text) for key, text in request.rule_options}
    if request.inline:
        position: dict[str, Any] = {
            "game": request.game,
            "hand": request.hand,
            "table": meld_texts(request.table),
            "opened": request.opened,
        }
        if request.deal is not None:
            position["deal"] = request.deal
        return from_data(position, COMMAND_LINE, overrides=CardOverrides(options=options))
    overrides = CardOverrides(
        game=request.game, options=options, opened=True if request.opened else None
    )
    if data is not None:
        return from_data(data, request.path, overrides=overrides)
    return load(request.path, overrides=overrides)


def _after_discard(text: str) -> Card:
    words = card_words(text)
    if len(words) != 1:
        raise BadAfter(f"--after-discard {quote(text)}: expected one card, such as 'KH'")
    try:
        return Card.parse(words[0])
    except NotationError as error:
        raise BadAfter(f"--after-discard {quote(text)}: {error}") from None


class BadAfter(ValueError):
    """A proposed turn that is not card notation at all."""


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


# -- analyse --equity on a card position --------------------------------------------------


@dataclass(frozen=True)
class EquityRequest:
    """``analyse --equity`` on a card position: the game around it and the budget (None:
    the library's defaults, :data:`rummikub.cards.game.position_equity.ANALYSE`)."""

    players: int = 2
    hand_sizes: tuple[int, ...] | None = None
    #: False: ``--others-not-opened``; None: as the position's player.
    others_opened: bool | None = None
    playouts: int | None = None
    rounds: int | None = None
    seed: int | None = None
    #: ``--time-limit``: the playouts stop early past it, and the answer says so.
    time_limit: float | None = None


def equity_one(
    options: CardOptions,
    request: EquityRequest,
    source: str,
    *,
    data: Any = None,
    as_json: bool = False,
    color: bool = False,
) -> CardReport:
    """The equity analysis of one card position (an inline one, or a puzzle's ``data`` or
    file ``source``), rendered: every candidate with its chance to win the hand."""
    from rummikub.cards.game.position_equity import ANALYSE, equity, equity_text
    from rummikub.core.errors import RummikubError
    from rummikub.play.equity import Stopped

    try:
        puzzle = _puzzle(CardTask(options), source, data)
    except PuzzleError as error:
        return CardReport([(f"Error: {error}", True)], bad_input=True)
    name = None if options.inline else puzzle.path
    try:
        found = equity(
            puzzle.position,
            players=request.players,
            hand_sizes=request.hand_sizes,
            others_opened=request.others_opened,
            playouts=ANALYSE.samples if request.playouts is None else request.playouts,
            rounds=ANALYSE.rounds if request.rounds is None else request.rounds,
            explore=ANALYSE.explore,
            seed=request.seed,
            time_limit=request.time_limit,
        )
    except (RummikubError, ValueError) as error:
        return CardReport([(f"Error: {name or COMMAND_LINE}: {error}", True)], bad_input=True)
    except Stopped as error:
        return CardReport([(f"{name or COMMAND_LINE}: {error}", True)], unproven=True)
    if as_json:
        payload = {"puzzle": name, "game": puzzle.position.rules.game, "equity": found.to_data()}
        return CardReport(
            [(json.dumps(payload, ensure_ascii=False), False)], unproven=found.stopped
        )
    lines = []
    if name is not None:
        lines.append(f"{name} - {puzzle.title}" if puzzle.title else name)
    lines.append(f"Game: {puzzle.position.rules.game}")
    lines.append(equity_text(found))
    text = "\n".join(lines)
    if color:
        from rummikub.render.text import paint_cards

        text = paint_cards(text, four_color=options.four_color)
    return CardReport([(text, False)], unproven=found.stopped)
