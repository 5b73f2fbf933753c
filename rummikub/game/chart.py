"""A PNG chart of a simulation: win rate and mean score per strategy, with 95% intervals.

matplotlib is an optional extra (``[chart]``), imported only here and only when a chart is
drawn.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from rummikub.core.errors import RummikubError
from rummikub.game.simulate import Line, Report

__all__ = ["save_chart"]


def save_chart(report: Report, path: str | os.PathLike[str]) -> None:
    """Draw the chart of ``report`` into a PNG file."""
    try:
        matplotlib: Any = importlib.import_module("matplotlib")
        matplotlib.use("Agg")  # no display needed
        plt: Any = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        raise RummikubError("a chart needs matplotlib: pip install 'rummikub[chart]'") from None
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
    # No timestamp in the file, so that the same report gives the same bytes.
    figure.savefig(os.fspath(path), format="png", dpi=100, metadata={"Software": None})
    plt.close(figure)


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
    errors: list[list[float]],
    colors: list[str],
) -> None:
    axes.bar(names, values, yerr=errors, capsize=4, color=colors)  # type: ignore[attr-defined]
    axes.tick_params(axis="x", labelrotation=30)  # type: ignore[attr-defined]
