"""``python -m benchmarks serve``: a load test of ``rummikub serve``.

Starts the real server (``python -m rummikub serve`` on uvicorn, 127.0.0.1, a free port) and
sends it N solve requests at once (default 200) from one asyncio client (httpx), each a
position of the puzzle collection (``puzzles/``, in a fixed order), repeated R times after a
warm-up. Reports requests/s and the latency (median, p90, p99, max) of each run and their
medians, and fails (exit 1) if any request is lost, fails or answers differently from the
collection's ``[expect]``. Local only and bounded: one burst of N per run.

Writes its own section of ``benchmarks/RESULTS.md`` between the markers below (a full
``python -m benchmarks`` run keeps it).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import platform
import shlex
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import sections

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "benchmarks" / "RESULTS.md"
START, END = "<!-- serve:start -->", "<!-- serve:end -->"


@dataclass(frozen=True, slots=True)
class Run:
    """One burst of requests sent at once."""

    seconds: float
    latencies: tuple[float, ...]
    failures: tuple[str, ...]

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds

    def quantile(self, share: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def requests_of_the_collection() -> list[tuple[dict[str, Any], tuple[int, int] | None]]:
    """Every puzzle of ``puzzles/`` as a request body, with its expected value and tiles."""
    from rummikub.cards.puzzles import is_card_file
    from rummikub.tiles.puzzles import expand, load

    found = []
    for path in expand(str(REPO / "puzzles")):
        if is_card_file(path):
            continue  # a card puzzle (puzzles/cards/): the web API solves tile positions
        puzzle = load(path)
        position = puzzle.position
        body = {
            "position": position.to_notation(),
            "rules": position.rules.options(),
            "explain": True,
        }
        expect = puzzle.expect
        answer = None
        if expect is not None and expect.value is not None and expect.tiles is not None:
            answer = (expect.value, expect.tiles)
        found.append((body, answer))
    return found


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "rummikub", "serve", "--port", str(port)]
    command += ["--workers", str(workers)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def _wait_until_up(url: str, timeout: float = 60.0) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as client:
        while True:
            try:
                if (await client.get(url + "/api")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            await asyncio.sleep(0.1)


async def burst(
    url: str, bodies: Sequence[tuple[dict[str, Any], tuple[int, int] | None]], count: int
) -> Run:
    """``count`` solve requests at once (the bodies in turn); every answer is checked."""
    import httpx

    limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
    timeout = httpx.Timeout(300.0)
    async with httpx.AsyncClient(limits=limits, timeout=timeout) as client:

        async def one(index: int) -> tuple[float, str | None]:
            body, expected = bodies[index % len(bodies)]
            sent = time.perf_counter()
            try:
                response = await client.post(url + "/api/solve", json=body)
            except httpx.HTTPError as error:
                return time.perf_counter() - sent, f"request {index}: {error!r}"
            took = time.perf_counter() - sent
            if response.status_code != 200:
                return took, f"request {index}: HTTP {response.status_code} {response.text}"
            data = response.json()
            if data["status"] == "feasible":
                return took, f"request {index}: not proven within the time limit"
            if expected is not None and (data["value"], data["tiles"]) != expected:
                return took, f"request {index}: {data['value']}, {data['tiles']} != {expected}"
            return took, None

        started = time.perf_counter()
        answers = await asyncio.gather(*(one(i) for i in range(count)))
        seconds = time.perf_counter() - started
    return Run(
        seconds,
        tuple(took for took, _ in answers),
        tuple(problem for _, problem in answers if problem is not None),
    )


def measure(count: int, repeats: int, workers: int) -> list[Run]:
    bodies = requests_of_the_collection()
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_server(port, workers)
    try:

        async def runs() -> list[Run]:
            await _wait_until_up(url)
            await burst(url, bodies, min(count, 20))  # warm-up: imports, rule-set templates
            return [await burst(url, bodies, count) for _ in range(repeats)]

        return asyncio.run(runs())
    finally:
        server.terminate()
        server.wait(timeout=30)


def markdown(runs: list[Run], count: int, workers: int, command: str) -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        START,
        "## Web server under load (serve)",
        "",
        f"`{command}`: {count} `POST /api/solve` requests sent at once by one asyncio client "
        f"to `rummikub serve --workers {workers}` on 127.0.0.1 (uvicorn), the positions of the "
        f"puzzle collection in turn (explanations included); {len(runs)} runs after a warm-up, "
        f"on {os.cpu_count()} cores ({platform.machine()}, Python {platform.python_version()}; "
        f"load average {load:.1f} at the end).",
        "",
        "| run | requests/s | median latency | p90 | p99 | max | failed |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for number, run in enumerate(runs, start=1):
        lines.append(
            f"| {number} | {run.rate:.1f} | {run.quantile(0.5) * 1000:.0f} ms "
            f"| {run.quantile(0.9) * 1000:.0f} ms | {run.quantile(0.99) * 1000:.0f} ms "
            f"| {max(run.latencies) * 1000:.0f} ms | {len(run.failures)} |"
        )
    rate = statistics.median(run.rate for run in runs)
    p99 = statistics.median(run.quantile(0.99) for run in runs)
    failed = sum(len(run.failures) for run in runs)
    lines += [
        "",
        f"Median over the runs: **{rate:.1f} requests/s**, **p99 latency "
        f"{p99 * 1000:.0f} ms**; {failed} of {count * len(runs)} requests lost or failed "
        "(a request fails unless its answer is proven and equals the collection's `[expect]`). "
        "Requests beyond the "
        "workers wait their turn, so the latency of the last ones is about count / rate: "
        "a burst measures throughput and fairness, not the time of one solve.",
        END,
        "",
    ]
    return "\n".join(lines)


def replace_section(text: str, section: str) -> str:
    """``text`` with its serve section replaced by ``section`` (appended if absent)."""
    return sections.replace_section(text, section, START, END)


def kept_section(path: Path) -> str | None:
    """The serve section of ``path``, to be kept when the rest is rewritten."""
    return sections.kept_section(path, START, END)


def main(argv: Sequence[str] | None = None, say: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks serve")
    parser.add_argument("--requests", type=int, default=200, help="sent at once (default 200)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2, help="rummikub serve --workers")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    runs = measure(args.requests, args.repeats, args.workers)
    command = shlex.join(["python", "-m", "benchmarks", "serve", *(argv or [])])
    section = markdown(runs, args.requests, args.workers, command)
    say(section)
    for run in runs:
        for failure in run.failures[:10]:
            say(f"FAILED {failure}")
    text = args.out.read_text() if args.out.exists() else "# Benchmarks\n"
    args.out.write_text(replace_section(text, section))
    return 1 if any(run.failures for run in runs) else 0
