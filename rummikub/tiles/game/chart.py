"""PNG charts: a simulation's win rate and mean score per strategy, a duel's win rate,
score difference and deals, with 95% intervals, and a reviewed game's win probability.

matplotlib is an optional extra (``[chart]``), imported only here and only when a chart is
drawn.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from rummikub.core.errors import RummikubError
from rummikub.tiles.game.simulate import Line, Report

if TYPE_CHECKING:
    from rummikub.play.ladder import LadderReport
    from rummikub.tiles.game.duel import DuelReport
    from rummikub.tiles.game.review import EquityReview

__all__ = [
    "need_matplotlib",
    "save_chart",
    "save_duel_chart",
    "save_ladder_chart",
    "save_review_chart",
]


def _pyplot() -> Any:
    try:
        matplotlib: Any = importlib.import_module("matplotlib")
        matplotlib.use("Agg")  # no display needed
        return importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise RummikubError("a chart needs matplotlib: pip install 'rummikub[chart]'") from None


def need_matplotlib() -> None:
    """Raise the chart's :class:`RummikubError` now when matplotlib is missing (before a
    long review, rather than after it)."""
    _pyplot()


def _save(plt: Any, figure: Any, path: str | os.PathLike[str]) -> None:
    # No timestamp in the file, so that the same report gives the same bytes.
    figure.savefig(os.fspath(path), format="png", dpi=100, metadata={"Software": None})
    plt.close(figure)


def save_chart(report: Report, path: str | os.PathLike[str]) -> None:
    """Draw the chart of ``report`` into a PNG file."""
    plt = _pyplot()
    lines = [*report.strategies, *report.seats]
    names = [line.name for line in lines]
    colors = ["#3b6fb6"] * len(report.strategies) + ["#9a9a9a"] * len(report.seats)
    figure, (wins, scores) = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    _bars(wins, names, [100 * x.win_rate for x in lines], _errors(lines, True), colors)
    wins.set_ylabel("win rate (%)")
    wins.set_ylim(0, 100)
    _bars(scores, names, [x.mean_score for x in lines], _errors(lines, False), colors)
    scores.set_ylabel("mean score")
    scores.axhline(0, color="black", linewidth=0.8)
    setup = report.setup
    figure.suptitle(
        f"{report.games} games, {setup.players} players, strategies "
        f"{', '.join(setup.strategies)} (95% intervals)"
    )
    _save(plt, figure, path)


def save_duel_chart(report: DuelReport, path: str | os.PathLike[str]) -> None:
    """Draw the chart of a duel into a PNG file: A's win rate against what equal players
    get, the paired score difference, and the deals won in every seating or split."""
    plt = _pyplot()
    setup = report.setup
    figure, (wins, scores, deals) = plt.subplots(1, 3, figsize=(11, 4), constrained_layout=True)
    rate, (lo, hi) = 100 * report.a_win_rate, report.a_win_ci
    label = f"A {setup.a}"
    _bars(wins, [label], [rate], [[max(0.0, rate - 100 * lo)], [max(0.0, 100 * hi - rate)]], [])
    wins.axhline(100 * setup.even_rate, color="black", linewidth=0.8, linestyle="--")
    wins.set_ylabel("A's win rate (%; dashed: even)")
    wins.set_ylim(0, 100)
    mean, (dlo, dhi) = report.score_difference, report.score_difference_ci
    # Where the lowest score wins (a card rummy's totals) the difference is B's less A's.
    difference = "B - A" if setup.lowest_wins else "A - B"
    _bars(scores, [difference], [mean], [[max(0.0, mean - dlo)], [max(0.0, dhi - mean)]], [])
    scores.axhline(0, color="black", linewidth=0.8)
    scores.set_ylabel("mean score difference (paired by deal)")
    names = [f"A {setup.a}", f"B {setup.b}", "split"]
    counts = [float(report.decisive_a), float(report.decisive_b), float(report.split)]
    _bars(deals, names, counts, None, ["#3b6fb6", "#b6553b", "#9a9a9a"])
    deals.set_ylabel("deals: won in every seating, or split")
    # A card duel names its game (its report's first JSON key); a tile duel has none.
    game = setup.head_data().get("game")
    figure.suptitle(
        f"{f'{game}: ' if game else ''}{setup.a} (A) against {setup.b} (B): {report.games} "
        f"games, {report.deals} deals, {setup.players} players (95% intervals)"
    )
    _save(plt, figure, path)


def save_ladder_chart(report: LadderReport, path: str | os.PathLike[str]) -> None:
    """Draw a ladder (of any game) into a PNG file: a heat map of the win-rate matrix (the
    row's rate against the column; red below one half, blue above), the strategies in the
    order of their ratings, and the Nash mixture's weight of each in its label."""
    plt = _pyplot()
    order = report.ranked()
    names = report.strategies
    rates = [
        [float("nan") if (r := report.rate(i, j)) is None else 100 * r for j in order]
        for i in order
    ]
    size = 2 + 0.8 * len(order)
    figure, axes = plt.subplots(figsize=(size + 1.5, size), constrained_layout=True)
    image = axes.imshow(rates, cmap="RdBu", vmin=0, vmax=100)
    labels = [f"{names[i]} ({100 * report.mixture[i]:.0f}%)" for i in order]
    axes.set_xticks(range(len(order)), [names[i] for i in order], rotation=45, ha="right")
    axes.set_yticks(range(len(order)), labels)
    for row, values in enumerate(rates):
        for col, value in enumerate(values):
            if value == value:  # not the diagonal's nan
                # White on the darkest cells, which black would not show on.
                ink = "white" if abs(value - 50) > 30 else "black"
                axes.text(col, row, f"{value:.0f}", ha="center", va="center", color=ink)
    figure.colorbar(image, ax=axes, label="win rate of the row against the column (%)")
    ladder = report.ladder
    axes.set_title(
        f"{ladder.game.name}: {ladder.players} players, {ladder.games} games a pair "
        "(rows: Nash weight)"
    )
    _save(plt, figure, path)


def save_review_chart(review: EquityReview, path: str | os.PathLike[str]) -> None:
    """Draw a reviewed game into a PNG file: each player's chance to win before each of
    their turns (as the review estimated it, as they saw the game), the marked turns labelled
    with their mark, and each player's accuracy and luck in the legend."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(10, 4), constrained_layout=True)
    colors = ["#3b6fb6", "#b6553b", "#3b9a5a", "#8a5ab6"]
    for line in review.players:
        turns = [t for t in review.turns if t.seat == line.seat and t.win is not None]
        if not turns:
            continue
        color = colors[line.seat % len(colors)]
        accuracy = "-" if line.accuracy is None else f"{line.accuracy:.1f}"
        label = f"{line.player} (accuracy {accuracy}, luck {line.luck:+.2f})"
        xs = [t.number for t in turns]
        axes.plot(xs, [t.win for t in turns], marker=".", color=color, label=label)
        for turn in turns:
            if turn.mark is not None:
                axes.annotate(
                    turn.mark,
                    (turn.number, turn.win),
                    textcoords="offset points",
                    xytext=(0, 6),
                    ha="center",
                    color=color,
                    fontweight="bold",
                )
    axes.set_ylim(0, 1)
    axes.set_xlabel("turn")
    axes.set_ylabel("chance to win before the turn")
    axes.axhline(1 / len(review.players), color="black", linewidth=0.8, linestyle="--")
    axes.legend(loc="best")
    budget = review.budget
    figure.suptitle(
        f"{review.path}: equity review ({budget.samples} deals x {budget.rounds} round a turn; "
        "?! ? ?? marked)"
    )
    _save(plt, figure, path)


def _errors(lines: list[Line], win: bool) -> list[list[float]]:
    low, high = [], []
    for line in lines:
        value, (lo, hi) = (
            (100 * line.win_rate, (100 * line.win_ci[0], 100 * line.win_ci[1]))
            if win
            else (line.mean_score, line.score_ci)
        )
        low.append(max(0.0, value - lo))
        high.append(max(0.0, hi - value))
    return [low, high]


def _bars(
    axes: object,
    names: list[str],
    values: list[float],
    errors: list[list[float]] | None,
    colors: list[str],
) -> None:
    color = colors or ["#3b6fb6"] * len(names)
    axes.bar(names, values, yerr=errors, capsize=4, color=color)  # type: ignore[attr-defined]
    axes.tick_params(axis="x", labelrotation=30)  # type: ignore[attr-defined]
