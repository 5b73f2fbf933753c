"""Playing to win by playouts: the ``equity-v1`` strategy's decision time and its duels.

``python -m benchmarks equity`` (options below) writes its own section of
``benchmarks/RESULTS.md``, between the markers below; ``python -m benchmarks`` keeps it. The
strategy measured is the first ``equity``, kept as ``equity-v1`` (determinized Monte Carlo,
:mod:`rummikub.tiles.game.equity`); the ``equity`` that plays to win today
(:mod:`rummikub.tiles.game.player`) is measured by ``rummikub duel`` and ``rummikub ladder``
(RESULTS.md, "The player who plays to win" and "Ladder").

* **Decision time**: the default budget on standard mid-game positions (turns 10-40 of seeded
  ``best`` self-play games, 2 players), in CPU seconds of this one process (one core), so that
  other work on the machine changes the figure less than a wall clock would.
* **Duels**: ``equity-v1`` against each other strategy, mirror-paired (``rummikub duel``),
  with the win rate's 95% interval, and the games per second on 1 and 2 local Dask workers.

``python -m benchmarks equity --analyse`` writes only the section of ``analyse --equity``
(its own markers): the decision time of :func:`rummikub.tiles.game.position_equity.equity` at its
default budget on the same positions, and the honesty of its interval on tiny endgames that
the exact search decides (:func:`endgames`; ``tests/test_equity_honesty.py`` checks the same
on fewer).
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
from rummikub.tiles.game.engine import GameState, replay
from rummikub.tiles.game.equity import DEFAULT, evaluate
from rummikub.tiles.game.simulate import game_seed, play_game
from rummikub.tiles.game.strategies import best
from rummikub.tiles.game.view import view_of
from rummikub.tiles.rules import STANDARD, Rules

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "benchmarks" / "RESULTS.md"
START, END = "<!-- equity:start -->", "<!-- equity:end -->"
#: The strategy the section measures: the playouts' ``equity``, by its registered name.
MEASURED = "equity-v1"
ANALYSE_START, ANALYSE_END = "<!-- equity-analyse:start -->", "<!-- equity-analyse:end -->"

#: The tiny box of the honesty check: 3 colors of 1-7, one copy, no joker, no initial meld.
TINY = Rules(numbers=7, colors="KRB", copies=1, jokers=0, initial_meld=0)


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


def analyse_times(states: Sequence[GameState]) -> list[float]:
    """CPU seconds of one ``analyse --equity`` at its defaults (playouts, rounds, top, the
    exact endgame), per position, with the position's own view."""
    from rummikub.tiles.game.position_equity import equity

    times = []
    for state in states:
        position, view = view_of(state)
        started = time.process_time()
        equity(position, view=view)
        times.append(time.process_time() - started)
    return times


def endgames(count: int, rack_size: int = 6, rules: Rules = TINY) -> list[GameState]:
    """Exact endgames: seeded 2-player deals of ``rules``, played by ``casual`` until the pool
    is empty (the hand still running), the first ``count`` the exact search decides."""
    from rummikub.tiles.game.endgame import decide
    from rummikub.tiles.game.engine import advance, deal, start, turn_of_move
    from rummikub.tiles.game.strategies import casual

    found: list[GameState] = []
    seed = 0
    while len(found) < count:
        state = start(deal(["A", "B"], rules, seed=seed, rack_size=rack_size))
        seed += 1
        while state.pool_count > 0 and not state.over:
            state = advance(state, turn_of_move(state, casual(*view_of(state))))
        if not state.over and decide(state).outcome != "unknown":
            found.append(state)
    return found


def exact_value(state: GameState) -> float:
    """The exact endgame's value for the player to move: 1 a win, 0.5 a draw, 0 a loss."""
    from rummikub.tiles.game.endgame import decide

    return {"win": 1.0, "draw": 0.5, "loss": 0.0}[decide(state).outcome]


def coverage(
    states: Sequence[GameState], seeds: int, playouts: int, rounds: int = 10
) -> tuple[int, int, int, int]:
    """How often the estimate's 95% interval (the exact search off) holds the exact value:
    (held, estimates, intervals narrower than [0, 1], held by the interval of the mean alone)
    over every state and seed."""
    from rummikub.tiles.game.position_equity import equity

    held = total = narrow = mean_held = 0
    for state in states:
        truth = exact_value(state)
        position, view = view_of(state)
        for seed in range(seeds):
            found = equity(
                position, view=view, playouts=playouts, rounds=rounds, seed=seed, exact=False
            )
            low, high = found.ci
            held += low <= truth <= high
            narrow += high - low < 1.0
            low, high = found.best.mean_ci
            mean_held += low <= truth <= high
            total += 1
    return held, total, narrow, mean_held


def analyse_markdown(
    times: Sequence[float],
    honest: tuple[int, int, int, int],
    endgames: int,
    playouts: int,
    command: str,
) -> str:
    from rummikub.tiles.game.position_equity import ANALYSE, DEFAULT_TOP

    held, total, narrow, mean_held = honest
    return (
        "\n".join(
            [
                ANALYSE_START,
                "## `analyse --equity`: decision time and honesty",
                "",
                f"`{command}` on {os.cpu_count()} cores ({platform.machine()}, Python "
                f"{platform.python_version()}; load average {os.getloadavg()[0]:.1f} at the end). "
                f"Default budget: {ANALYSE.samples} playouts per candidate of {ANALYSE.rounds} "
                f"rounds, a variant of the best move one turn in {round(1 / ANALYSE.explore)}, "
                f"the {DEFAULT_TOP} best moves among the candidates, the exact endgame on.",
                "",
                f"Decision time over {len(times)} standard mid-game positions (turns 10-40 of "
                "seeded `best` self-play, 2 players; CPU seconds, one core): "
                f"median {statistics.median(times):.3f} s, p99 {quantile(times, 0.99):.3f} s, "
                f"max {max(times):.3f} s (target: median <= 3 s).",
                "",
                f"Honesty: on {total} estimates ({endgames} endgames, {total // max(1, endgames)} "
                "seeds each) of tiny exact endgames (2 players, the pool empty, 3 colors of 1-7, "
                f"racks of 6 dealt then played by `casual`; {playouts} playouts of 10 rounds, the "
                f"exact search off), the 95% interval held the exact value {held} times "
                f"({held / max(1, total):.1%}); {narrow} of the intervals were narrower than "
                f"[0, 1]. The interval of the mean alone (`mean_ci`) held it {mean_held} times "
                f"({mean_held / max(1, total):.1%}): it counts the playouts' sampling error, "
                "not their bias. The interval errs on the wide side: it claims 95% and holds "
                "more, the outcomes of a few playouts spanning most of [0, 1] unless the hand "
                "is as good as decided.",
                ANALYSE_END,
            ]
        )
        + "\n"
    )


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def duels(opponents: Sequence[str], games: int, seed: int, workers: int) -> list[dict[str, Any]]:
    """``equity-v1`` against each opponent, mirror-paired, with the wall time of each duel."""
    from rummikub.tiles.game.duel import DuelSetup, duel, summarize

    found = []
    for name in opponents:
        setup = DuelSetup(MEASURED, name, players=2, seed=seed)
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
        f"## Play to win (`{MEASURED}`, the first `equity`)",
        "",
        f"These are the figures of the first `equity`, now `{MEASURED}`; the `equity` that "
        'plays to win today has its own section below ("The player who plays to win").',
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
            f"| duel | games | {MEASURED} wins | 95% CI | mean score diff | paired 95% CI "
            "| games/s |",
            "|---|---|---|---|---|---|---|",
        ]
        for data in found:
            low, high = data["a_win_rate_ci"]
            diff = data["score_difference"]
            lines.append(
                f"| {MEASURED} vs {data['b']} | {data['games']} | {data['a_win_rate']:.1%} | "
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
    parser.add_argument(
        "--analyse", action="store_true", help="only the section of analyse --equity"
    )
    parser.add_argument("--endgames", type=int, default=40, help="endgames of the honesty check")
    parser.add_argument("--seeds", type=int, default=5, help="seeds per endgame")
    parser.add_argument("--playouts", type=int, default=16, help="playouts in the honesty check")
    args = parser.parse_args(argv)
    command = ("python -m benchmarks equity " + " ".join(argv or [])).strip()
    text = args.out.read_text() if args.out.exists() else "# Benchmarks\n"
    states = midgame(args.positions_from)
    honest = coverage(endgames(args.endgames), args.seeds, args.playouts)
    section = analyse_markdown(analyse_times(states), honest, args.endgames, args.playouts, command)
    say(section)
    text = sections.replace_section(text, section, ANALYSE_START, ANALYSE_END)
    args.out.write_text(text)
    if args.analyse:
        return 0
    times = decision_times(states)
    found = []
    if args.games:
        found = duels(args.against.split(","), args.games, args.seed, args.workers)
    section = markdown(times, found, command)
    say(section)
    args.out.write_text(replace_section(text, section))
    return 0
