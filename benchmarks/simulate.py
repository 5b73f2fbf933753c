"""Self-play throughput: games per second in this process, and on 1 and 2 Dask workers, with
an estimate of how it scales on a cluster.

``python -m benchmarks simulate`` (options: ``--games``, ``--repeats``, ``--players``,
``--out``) writes its own section of ``benchmarks/RESULTS.md``, between the markers below;
the rest of the file is left as it is (and ``python -m benchmarks`` keeps this section).

The estimate: a game takes ``t`` seconds on one worker and a Dask task costs ``o`` seconds
of scheduling on top (measured with empty tasks), so ``W`` workers with batches of ``b``
games play ``W * b / (b * t + o)`` games per second, as long as the scheduler keeps up with
``W / (b * t + o)`` tasks per second (one scheduler handles a few thousand a second).
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
from rummikub.tiles.game.simulate import Setup, dask_available, simulate

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "benchmarks" / "RESULTS.md"
START, END = "<!-- simulate:start -->", "<!-- simulate:end -->"
#: Scheduler throughput assumed for the estimate (tasks per second, one Dask scheduler).
SCHEDULER_TASKS_PER_SECOND = 2000.0


def _timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def _task_overhead(client: Any, tasks: int = 200) -> float:
    """Seconds of scheduling per task: the median of a few rounds of empty tasks."""
    rounds = []
    for _ in range(3):
        started = time.perf_counter()
        client.gather(client.map(_nothing, range(tasks), pure=False))
        rounds.append((time.perf_counter() - started) / tasks)
    return statistics.median(rounds)


def _nothing(value: int) -> int:
    return value


def measure(games: int, repeats: int, players: int) -> dict[str, Any]:
    setup = Setup(("best",), players=players, seed=1)
    simulate(setup, 1)  # warm-up: imports and the rule set's template model
    found: dict[str, Any] = {"games": games, "repeats": repeats, "players": players}
    local = [_timed(lambda: simulate(setup, games)) for _ in range(repeats)]
    found["in_process"] = statistics.median(local)
    if not dask_available():
        return found
    import distributed

    for workers in (1, 2):
        cluster = distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = distributed.Client(cluster)
        try:
            # Warm each worker (imports, template model) before timing.
            client.gather(client.map(_warm, range(workers), pure=False))
            times = []
            for _ in range(repeats):
                started = time.perf_counter()
                simulate(setup, games, scheduler=cluster.scheduler_address, batch_size=2)
                times.append(time.perf_counter() - started)
            found[f"dask_{workers}"] = statistics.median(times)
            if workers == 2:
                found["task_overhead"] = _task_overhead(client)
        finally:
            client.close()
            cluster.close()
    return found


def _warm(index: int) -> int:
    simulate(Setup(("best",), players=2, seed=index), 1)
    return index


def estimate(per_game: float, overhead: float, workers: int, batch: int) -> float:
    """Games per second of ``workers`` workers with batches of ``batch`` games."""
    task = batch * per_game + overhead
    rate = workers * batch / task
    tasks_per_second = workers / task
    if tasks_per_second > SCHEDULER_TASKS_PER_SECOND:
        rate *= SCHEDULER_TASKS_PER_SECOND / tasks_per_second
    return rate


def markdown(found: dict[str, Any], command: str) -> str:
    games = found["games"]
    lines = [
        START,
        "## Self-play (simulate)",
        "",
        f"`{command}`: {games} games of {found['players']} players, strategy `best`, standard "
        f"rules; median of {found['repeats']} runs after a warm-up, on "
        f"{os.cpu_count()} cores ({platform.machine()}, Python {platform.python_version()}; "
        f"load average {os.getloadavg()[0]:.1f} at the end).",
        "",
        "| where | seconds | games/s | vs in process |",
        "|---|---|---|---|",
    ]
    base = found["in_process"]
    rows = [("in process (no Dask)", base)]
    rows += [(f"Dask LocalCluster, {w} worker(s)", found.get(f"dask_{w}")) for w in (1, 2)]
    for name, seconds in rows:
        if seconds is None:
            lines.append(f"| {name} | - | - | Dask not installed |")
            continue
        lines.append(f"| {name} | {seconds:.2f} | {games / seconds:.2f} | {base / seconds:.2f}x |")
    if "task_overhead" in found:
        per_game = base / games
        overhead = found["task_overhead"]
        lines += [
            "",
            f"Scaling estimate: a game takes {per_game:.3f} s on one worker, a Dask task "
            f"{overhead * 1000:.1f} ms of scheduling; `W * b / (b * t + o)` games/s "
            f"(module docstring), scheduler capped at {SCHEDULER_TASKS_PER_SECOND:.0f} tasks/s:",
            "",
            "| workers | batch 1 | batch 10 | batch 100 |",
            "|---|---|---|---|",
        ]
        for workers in (8, 32, 128, 1024):
            cells = [f"{estimate(per_game, overhead, workers, b):.0f}" for b in (1, 10, 100)]
            lines.append(f"| {workers} | {' | '.join(cells)} |")
        lines += [
            "",
            "Games are independent, so throughput grows with the workers until the scheduler "
            "is the limit; batching (about four batches per worker by default) keeps the "
            "scheduling share small. On a 2-core machine shared with other work, 2 workers "
            "gain less than 2x.",
        ]
    lines.append(END)
    return "\n".join(lines) + "\n"


def replace_section(text: str, section: str) -> str:
    """``text`` with its simulate section replaced by ``section`` (appended if absent)."""
    return sections.replace_section(text, section, START, END)


def kept_section(path: Path) -> str | None:
    """The simulate section of ``path``, to be kept when the rest is rewritten."""
    return sections.kept_section(path, START, END)


def main(argv: Sequence[str] | None = None, say: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks simulate")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    found = measure(args.games, args.repeats, args.players)
    command = "python -m benchmarks simulate " + " ".join(argv or [])
    section = markdown(found, command.strip())
    say(section)
    text = args.out.read_text() if args.out.exists() else "# Benchmarks\n"
    args.out.write_text(replace_section(text, section))
    return 0
