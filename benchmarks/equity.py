"""Playing to win: the ``equity`` strategy's decision time and its duels.

``python -m benchmarks equity`` (options below) writes its own section of
``benchmarks/RESULTS.md``, between the markers below; ``python -m benchmarks`` keeps it.

* **Decision time**: the default budget on standard mid-game positions (turns 10-40 of seeded
  ``best`` self-play games, 2 players), in CPU seconds of this one process (one core), so that
  other work on the machine changes the figure less than a wall clock would.
* **Duels**: ``equity`` against each other strategy, mirror-paired (``rummikub duel``), with
  the win rate's 95% interval, and the games per second on 1 and 2 local Dask workers.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks import sections
from rummikub.game.engine import GameState, replay
from rummikub.game.equity import DEFAULT, evaluate
from rummikub.game.simulate import game_seed, play_game
from rummikub.game.strategies import best
from rummikub.game.view import view_of
from rummikub.tiles.rules import STANDARD

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "benchmarks" / "RESULTS.md"
START, END = "<!-- equity:start -->", "<!-- equity:end -->"


def midgame(games: int, seed: int = 2026) -> list[GameState]:
    """Standard mid-game positions: turns 10 to 40 of seeded ``best`` self-play games."""
    found = []
    for index in range(games):
        record, _ = play_game(STANDARD, [best, best], game_seed(seed, index))
        found += list(replay(record).states[10:41:3])
    return found


def decision_times(states: Sequence[GameState]) -> list[float]:
    """CPU seconds of one decision at the default budget, per position."""
    times = []
    for state in states:
        position, view = view_of(state)
        started = time.process_time()
        evaluate(position, view, DEFAULT)
        times.append(time.process_time() - started)
    return times


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def duels(opponents: Sequence[str], games: int, seed: int, workers: int) -> list[dict[str, Any]]:
    """``equity`` against each opponent, mirror-paired, with the wall time of each duel."""
    from rummikub.game.duel import DuelSetup, duel, summarize

    found = []
    for name in opponents:
        setup = DuelSetup("equity", name, players=2, seed=seed)
        started = time.perf_counter()
        played = duel(setup, games, workers=workers)
        data = summarize(setup, played).to_data()
        data["seconds"] = time.perf_counter() - started
        data["workers"] = workers
        found.append(data)
    return found


def markdown(times: Sequence[float], found: Sequence[dict[str, Any]], command: str) -> str:
    lines = [
        START,
        "## Play to win (`equity`)",
        "",
        f"`{command}` on {os.cpu_count()} cores ({platform.machine()}, Python "
        f"{platform.python_version()}; load average {os.getloadavg()[0]:.1f} at the end). "
        f"Default budget: {DEFAULT.samples} sampled deals, {DEFAULT.rounds} round of playout.",
        "",
        f"Decision time over {len(times)} standard mid-game positions (CPU seconds, one core): "
        f"median {statistics.median(times):.3f} s, p99 {quantile(times, 0.99):.3f} s, "
        f"max {max(times):.3f} s (targets: median <= 1 s, max <= 5 s).",
    ]
    if found:
        lines += [
            "",
            "| duel | games | equity wins | 95% CI | mean score diff | paired 95% CI | games/s |",
            "|---|---|---|---|---|---|---|",
        ]
        for data in found:
            low, high = data["a_win_rate_ci"]
            diff = data["score_difference"]
            lines.append(
                f"| equity vs {data['b']} | {data['games']} | {data['a_win_rate']:.1%} | "
                f"{low:.1%}-{high:.1%} | {diff['mean']:+.1f} | "
                f"{diff['ci'][0]:+.1f} to {diff['ci'][1]:+.1f} | "
                f"{data['games'] / data['seconds']:.3f} ({data['workers']} worker(s)) |"
            )
    lines.append(END)
    return "\n".join(lines) + "\n"


def replace_section(text: str, section: str) -> str:
    return sections.replace_section(text, section, START, END)


def kept_section(path: Path) -> str | None:
    return sections.kept_section(path, START, END)


def main(argv: Sequence[str] | None = None, say: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks equity")
    parser.add_argument("--positions-from", type=int, default=6, help="self-play games")
    parser.add_argument("--games", type=int, default=0, help="games per duel (0: no duels)")
    parser.add_argument("--against", default="best,hold,tiles,casual")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    times = decision_times(midgame(args.positions_from))
    found = []
    if args.games:
        found = duels(args.against.split(","), args.games, args.seed, args.workers)
    command = ("python -m benchmarks equity " + " ".join(argv or [])).strip()
    section = markdown(times, found, command)
    say(section)
    text = args.out.read_text() if args.out.exists() else "# Benchmarks\n"
    args.out.write_text(replace_section(text, section))
    return 0
