"""Solves per second on the positions a playout meets: the throughput target of issue 28.

``python -m benchmarks playouts`` (options below) writes its own section of
``benchmarks/RESULTS.md``, between the markers below; ``python -m benchmarks`` keeps it.

The positions: every solve the ``equity`` strategy makes (its candidates, then its playouts
on sampled deals) to decide standard mid-game states at its default budget (turns 10-40 of
seeded ``best`` self-play games, 2 players, :func:`benchmarks.equity.midgame`), in the
order made, with their options (the ``tiles`` objective for one candidate).

Each way of solving them runs in a fresh process (``spawn``: no cache of the collection's
solves carries over), after one untimed solve that builds the rule set's template:

* **in sequence**: ``solve`` of each position in turn, one process (the CPU time per
  position, and the share of the positions proven "no move" from tile counts);
* **batch, N jobs**: the whole list through :class:`rummikub.tiles.solver.batch.BatchSolver`
  with N worker processes started and warmed before the clock starts (a playout's pool lives
  across decisions), wall time.

Every way's answers are compared with the first's (status, value, tiles and table): the
same, whatever the order or the batch. The ways take turns round by round (the machine is
shared); medians over the rounds.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

from benchmarks import sections

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "benchmarks" / "RESULTS.md"
START, END = "<!-- playouts:start -->", "<!-- playouts:end -->"
#: The issue's target: solves per second on 2 cores.
TARGET = 1000.0


def playout_positions(games: int, seed: int = 2026) -> list[tuple[Any, dict[str, Any]]]:
    """The solves the ``equity`` strategy makes at its default budget on every mid-game
    decision (its candidates, then its playouts), in order: (position, options)."""
    import rummikub.tiles.game.equity as equity
    import rummikub.tiles.game.strategies as strategies
    from benchmarks.equity import midgame
    from rummikub.tiles.game.view import view_of
    from rummikub.tiles.solver import solve

    found: list[tuple[Any, dict[str, Any]]] = []

    def recorded(position: Any, **options: Any) -> Any:
        found.append((position, options))
        return solve(position, **options)

    states = midgame(games, seed)
    with (
        mock.patch.object(equity, "solve", recorded),
        mock.patch.object(strategies, "solve", recorded),
    ):
        for state in states:
            equity.evaluate(*view_of(state))
    return found


def _key(result: Any) -> tuple[Any, ...]:
    return (result.status, result.value, result.tiles, result.table)


def _warm_up() -> None:
    from rummikub.tiles.position import Position
    from rummikub.tiles.solver import solve

    solve(Position.parse(rack="R4 K9", table=["R1 R2 R3"]))


def in_sequence(calls: Sequence[tuple[Any, dict[str, Any]]]) -> dict[str, Any]:
    """Solve each position in turn; run in a fresh process."""
    from rummikub.tiles.solver import quick, solve

    _warm_up()
    cpu: list[float] = []
    started = time.perf_counter()
    answers = []
    for position, options in calls:
        before = time.process_time()
        answers.append(solve(position, **options))
        cpu.append(time.process_time() - before)
    wall = time.perf_counter() - started
    proven = [quick.no_move(p) for p, _ in calls]
    # The lever alone: the positions the counts prove, solved by the model instead.
    through_model = []
    with mock.patch.object(quick, "no_move", return_value=False):
        for (position, options), short in zip(calls, proven, strict=True):
            if short:
                before = time.process_time()
                solve(position, **options)
                through_model.append(time.process_time() - before)
    shortcut = [t for t, short in zip(cpu, proven, strict=True) if short]
    return {
        "wall": wall,
        "cpu": cpu,
        "answers": [_key(a) for a in answers],
        "statuses": [a.status for a in answers],
        "opened": [p.opened for p, _ in calls],
        "proven": sum(proven),
        "shortcut_cpu": sum(shortcut),
        "model_cpu": sum(through_model),
    }


def batch(calls: Sequence[tuple[Any, dict[str, Any]]], jobs: int) -> dict[str, Any]:
    """Every call through a BatchSolver of ``jobs``, one batch per objective; run in a
    fresh process."""
    from rummikub.tiles.solver.batch import BatchSolver

    _warm_up()
    groups: dict[str, list[int]] = {}
    for index, (_, options) in enumerate(calls):
        groups.setdefault(options.get("objective", "value"), []).append(index)
    answers: list[Any] = [None] * len(calls)
    with BatchSolver(jobs) as solver:
        # Every worker builds the template before the clock starts.
        solver.solve([p for p, _ in calls[: 2 * jobs * 8]])
        spent = solver.cpu_seconds
        started = time.perf_counter()
        for objective, indices in groups.items():
            found = solver.solve([calls[i][0] for i in indices], objective=objective)  # type: ignore[arg-type]
            for index, answer in zip(indices, found, strict=True):
                answers[index] = answer
        wall = time.perf_counter() - started
        cpu = solver.cpu_seconds - spent
    return {"wall": wall, "cpu": cpu, "answers": [_key(a) for a in answers]}


def _fresh(function: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """``function(*args)`` in a fresh interpreter (not a daemon: it may start workers)."""
    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe()
    process = context.Process(target=_run, args=(theirs, function, args))
    process.start()
    theirs.close()
    found: dict[str, Any] = mine.recv()
    process.join()
    return found


def _run(connection: Any, function: Callable[..., dict[str, Any]], args: tuple[Any, ...]) -> None:
    connection.send(function(*args))


def measure(positions: Sequence[Any], rounds: int, jobs: Sequence[int]) -> dict[str, Any]:
    sequence: list[dict[str, Any]] = []
    batches: dict[int, list[dict[str, Any]]] = {j: [] for j in jobs}
    for _ in range(rounds):
        sequence.append(_fresh(in_sequence, positions))
        for j in jobs:
            batches[j].append(_fresh(batch, positions, j))
    reference = sequence[0]["answers"]
    same = all(run["answers"] == reference for run in sequence) and all(
        run["answers"] == reference for runs in batches.values() for run in runs
    )
    return {"sequence": sequence, "batches": batches, "same": same}


def markdown(positions: Sequence[Any], found: dict[str, Any], command: str) -> str:
    sequence = found["sequence"]
    count = len(positions)
    first = sequence[0]
    cpu_each = [statistics.median(run["cpu"][i] for run in sequence) for i in range(count)]
    seq_wall = statistics.median(run["wall"] for run in sequence)
    statuses = first["statuses"]
    kinds: dict[str, list[float]] = {}
    for status, opened, t in zip(statuses, first["opened"], cpu_each, strict=True):
        kinds.setdefault(f"{status}, {'opened' if opened else 'not opened'}", []).append(t)
    lines = [
        START,
        "## Throughput for playouts (`playouts`)",
        "",
        f"`{command}` on {os.cpu_count()} cores ({platform.machine()}, Python "
        f"{platform.python_version()}; load average {os.getloadavg()[0]:.1f} at the end): "
        f"{count} positions met by the playouts of standard mid-game decisions (the module's "
        f"text), each way in a fresh process, {len(sequence)} rounds taking turns, medians.",
        "",
        "| way | wall | solves/s (wall) | CPU per solve | solves per CPU second | target |",
        "|---|---:|---:|---:|---:|---|",
    ]
    seq_cpu = statistics.median(sum(run["cpu"]) for run in sequence)
    lines.append(
        f"| in sequence, 1 process | {seq_wall:.2f} s | {count / seq_wall:.0f} | "
        f"{seq_cpu / count * 1000:.2f} ms | {count / seq_cpu:.0f} | |"
    )
    for jobs, runs in found["batches"].items():
        wall = statistics.median(run["wall"] for run in runs)
        cpu = statistics.median(run["cpu"] for run in runs)
        met = ""
        if jobs == 2:
            met = "met" if count / wall >= TARGET else f"**no** (>= {TARGET:.0f}/s on 2 cores)"
        lines.append(
            f"| batch, {jobs} job(s) | {wall:.2f} s | {count / wall:.0f} | "
            f"{cpu / count * 1000:.2f} ms | {count / cpu:.0f} | {met} |"
        )
    lines += [
        "",
        "Answers: "
        + ("**the same** in every way and round" if found["same"] else "**differ**")
        + " (status, value, tiles and table of every position).",
        "",
        "CPU per position in sequence, by answer:",
        "",
        "| answer | positions | median | mean | share of the CPU |",
        "|---|---:|---:|---:|---:|",
    ]
    total = sum(cpu_each)
    for kind, times in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        lines.append(
            f"| {kind} | {len(times)} | {statistics.median(times) * 1000:.2f} ms | "
            f"{statistics.mean(times) * 1000:.2f} ms | {sum(times) / total:.0%} |"
        )
    proven = first["proven"]
    shortcut = statistics.median(run["shortcut_cpu"] for run in sequence)
    model = statistics.median(run["model_cpu"] for run in sequence)
    lines += [
        "",
        f"*No move without LP* (`tiles/solver/quick.py`): {proven} of {count} positions "
        f"proven from tile counts, {shortcut * 1000:.1f} ms of CPU for all of them against "
        f"{model * 1000:.1f} ms through the model (the same answers).",
        END,
    ]
    return "\n".join(lines) + "\n"


def replace_section(text: str, section: str) -> str:
    return sections.replace_section(text, section, START, END)


def kept_section(path: Path) -> str | None:
    return sections.kept_section(path, START, END)


def main(argv: Sequence[str] | None = None, say: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks playouts")
    parser.add_argument("--games", type=int, default=3, help="self-play games (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every way")
    parser.add_argument("--jobs", default="1,2", help="batch worker counts (default 1,2)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    positions = playout_positions(args.games)
    say(f"{len(positions)} positions")
    found = measure(positions, args.rounds, [int(j) for j in args.jobs.split(",")])
    command = ("python -m benchmarks playouts " + " ".join(argv or [])).strip()
    section = markdown(positions, found, command)
    say(section)
    if not args.no_write:
        text = args.out.read_text() if args.out.exists() else "# Benchmarks\n"
        args.out.write_text(replace_section(text, section))
    return 0 if found["same"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
