"""One command line call over the positions of real games: how many a second.

``python -m benchmarks game-throughput [--count N] [--runs R] [--jobs J]``: ``N`` positions
of the ``game`` corpus (:func:`benchmarks.corpora.make_game`, seed 1: standard rules, 2-4
players playing the solver's best move, tables of 30-100 tiles) are written as puzzle files
to a temporary folder, and ``rummikub solve FOLDER --json --jobs J`` is timed as a whole
process ``R`` times (wall seconds, compiled modules cached as for an installed package, one
untimed call first). Printed, not written: the median positions a second, every run, and
whether every run's answers are the same (their ``seconds`` aside).

The whole-process figure includes what every call pays once: starting the interpreter,
importing OR-Tools (``benchmarks/RESULTS.md``, *One whole process*) and starting the jobs.
So each run also times the same call on the first position alone (the two calls taking
turns going first), and the report splits the median call into that start-up and what each
position costs a job beyond it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.corpora import make_game, stream
from benchmarks.run import load_average, process_env, rummikub_command
from rummikub.tiles.puzzles import Puzzle, dump


def _answers(output: str) -> list[dict[str, Any]]:
    """The JSON answers of a folder's solve, their timing left out."""
    answers = [json.loads(line) for line in output.splitlines() if line.strip()]
    for answer in answers:
        answer.pop("seconds", None)
    return answers


def measure(count: int, runs: int, jobs: int) -> dict[str, Any]:
    """Time ``runs`` calls of ``rummikub solve FOLDER --json --jobs JOBS`` over ``count``
    positions of the ``game`` corpus."""
    cases = make_game(stream(1, "game"), count)
    tables = [sum(len(meld.tiles) for meld in case.position.table) for case in cases]
    walls: list[float] = []
    alone: list[float] = []
    outputs: list[list[dict[str, Any]]] = []
    with (
        tempfile.TemporaryDirectory(prefix="rummikub-bench-") as folder,
        tempfile.TemporaryDirectory(prefix="rummikub-pycache-") as cache,
    ):
        files = [Path(folder) / f"{case.name}.toml" for case in cases]
        for case, file in zip(cases, files, strict=True):
            dump(Puzzle(case.name, case.position), file)
        command = [*rummikub_command(), "solve"]
        argv = [*command, folder, "--json", "--jobs", str(jobs)]
        first = [*command, str(files[0]), "--json"]
        env = process_env(cache)
        # Untimed: fills the cache of compiled modules (as for an installed package).
        subprocess.run(argv, capture_output=True, env=env, check=False)
        for run in range(runs):
            for call in (argv, first) if run % 2 == 0 else (first, argv):
                started = time.perf_counter()
                done = subprocess.run(call, capture_output=True, text=True, env=env, check=False)
                (walls if call is argv else alone).append(time.perf_counter() - started)
                if done.returncode not in (0, 3):
                    raise RuntimeError(f"rummikub solve exited {done.returncode}: {done.stderr}")
                if call is argv:
                    outputs.append(_answers(done.stdout))
    statuses: dict[str, int] = {}
    for answer in outputs[0]:
        statuses[answer["status"]] = statuses.get(answer["status"], 0) + 1
    start_up = statistics.median(alone)
    return {
        "positions": len(cases),
        "tables": (min(tables), max(tables)),
        "jobs": jobs,
        "walls": walls,
        "rate": len(cases) / statistics.median(walls),
        # One position's calls, their median, and each position's wall time on a job
        # beyond it (noise on a few positions may make it negative).
        "alone": alone,
        "start_up": start_up,
        "per_position": (statistics.median(walls) - start_up) * jobs / max(1, len(cases) - 1),
        "same": all(output == outputs[0] for output in outputs),
        "statuses": statuses,
    }


def _load() -> str:
    load = load_average()
    return "unknown" if load is None else f"{load:.1f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks game-throughput")
    parser.add_argument("--count", type=int, default=300, help="positions of the game corpus")
    parser.add_argument("--runs", type=int, default=5, help="timed calls")
    parser.add_argument("--jobs", type=int, default=2, help="the call's --jobs")
    args = parser.parse_args(argv)
    found = measure(args.count, args.runs, args.jobs)
    low, high = found["tables"]
    walls = ", ".join(f"{wall:.2f}" for wall in found["walls"])
    print(
        f"rummikub solve FOLDER --json --jobs {found['jobs']}: {found['positions']} game "
        f"positions (tables of {low}-{high} tiles), median {found['rate']:.0f} positions/s "
        f"over {len(found['walls'])} calls ({walls} s); answers the same every call: "
        f"{'yes' if found['same'] else 'NO'}; {found['statuses']}; load average "
        f"{_load()} at the end"
    )
    print(
        f"  one position alone: median {found['start_up']:.3f} s a call; beyond it, "
        f"{found['per_position'] * 1000:.2f} ms a position on each of the {found['jobs']} "
        "job(s)"
    )
    return 0 if found["same"] else 1
