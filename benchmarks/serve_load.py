"""``python -m benchmarks serve``: a load test of ``rummikub serve``.

Starts the real server (``python -m rummikub serve`` on uvicorn, 127.0.0.1, a free port) and
times how long it takes to answer at all (``GET /api``) and to answer its first solve, from
the moment the process is started. Then sends it N solve requests at once (default 200)
from one asyncio client (httpx), each a position of the puzzle collection (``puzzles/``, in
a fixed order), repeated R times after a warm-up; and one burst of N requests of the page's
API, every route the analysis board calls in turn (position, solve, analyse, check, a game's
new, draw and hint, a card solve). Reports requests/s and the latency (median, p90, p99,
max) of each run and their medians, and fails (exit 1) if any request is lost, fails or
answers differently from what is expected. Local only and bounded: one burst of N per run.

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
    """Every tile puzzle of ``puzzles/`` as a request body, with its expected value and tiles."""
    from rummikub.cards.puzzles import is_card_file
    from rummikub.tiles.puzzles import expand, load

    found = []
    for path in expand(str(REPO / "puzzles")):
        if is_card_file(path):
            continue  # the card puzzles are the page's card route's (see page_requests)
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


POSITION = "R1-3 | KRB7 | B9 B10 J / R4 K7 O7"


def page_requests() -> list[tuple[str, dict[str, Any], Callable[[dict[str, Any]], bool]]]:
    """Every route the analysis board calls, with a body and what its answer must say."""
    from rummikub.web.games import new

    game = new({"opponents": ["best"], "seed": 5})["record"]
    return [
        ("/api/position", {"position": POSITION}, lambda d: len(d["table"]) == 3),
        ("/api/solve", {"position": POSITION, "svg": True}, lambda d: d["value"] == 11),
        ("/api/analyse", {"position": POSITION, "top": 3}, lambda d: len(d["moves"]) == 3),
        (
            "/api/check",
            {"position": POSITION, "after": "R1-4 | KRBO7 | B9 B10 J"},
            lambda d: d["legal"] is True,
        ),
        ("/api/game/new", {"opponents": ["best"], "seed": 5}, lambda d: d["record"] == game),
        ("/api/game/draw", {"record": game}, lambda d: d["game"]["turn"] == 3),
        ("/api/game/hint", {"record": game}, lambda d: d["status"] == "optimal"),
        (
            "/api/cards/solve",
            {
                "game": "500-rum",
                "hand": "6H 7H KC 2C",
                "table": ["QS QC QH"],
                "discard": ["5C", "8H", "KS"],
                "drawn": False,
            },
            lambda d: d["points"] == 21,
        ),
    ]


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


async def first_answer(url: str, started: float, timeout: float = 120.0) -> tuple[float, float]:
    """Seconds from ``started`` (the process start) to the first answer of ``GET /api``,
    then to the first answer of a solve."""
    import httpx

    await _wait_until_up(url, timeout)
    up = time.perf_counter() - started
    async with httpx.AsyncClient(timeout=httpx.Timeout(timeout)) as client:
        response = await client.post(url + "/api/solve", json={"position": POSITION})
        response.raise_for_status()
    return up, time.perf_counter() - started


async def page_burst(
    url: str,
    requests: Sequence[tuple[str, dict[str, Any], Callable[[dict[str, Any]], bool]]],
    count: int,
) -> Run:
    """``count`` requests of the page's API at once (the routes in turn), each checked."""
    import httpx

    limits = httpx.Limits(max_connections=count, max_keepalive_connections=count)
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(300.0)) as client:

        async def one(index: int) -> tuple[float, str | None]:
            path, body, good = requests[index % len(requests)]
            sent = time.perf_counter()
            try:
                response = await client.post(url + path, json=body)
            except httpx.HTTPError as error:
                return time.perf_counter() - sent, f"request {index} {path}: {error!r}"
            took = time.perf_counter() - sent
            if response.status_code != 200:
                return took, f"request {index} {path}: HTTP {response.status_code}"
            if not good(response.json()):
                return took, f"request {index} {path}: unexpected answer {response.text[:200]}"
            return took, None

        started = time.perf_counter()
        answers = await asyncio.gather(*(one(i) for i in range(count)))
        seconds = time.perf_counter() - started
    return Run(
        seconds,
        tuple(took for took, _ in answers),
        tuple(problem for _, problem in answers if problem is not None),
    )


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


@dataclass(frozen=True, slots=True)
class Measured:
    """Everything one ``python -m benchmarks serve`` measures."""

    runs: list[Run]
    page: Run
    up: float
    first: float


def measure(count: int, repeats: int, workers: int) -> Measured:
    bodies = requests_of_the_collection()
    page = page_requests()
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    started = time.perf_counter()
    server = start_server(port, workers)
    try:

        async def runs() -> Measured:
            up, first = await first_answer(url, started)
            await burst(url, bodies, min(count, 20))  # warm-up: imports, rule-set templates
            solves = [await burst(url, bodies, count) for _ in range(repeats)]
            return Measured(solves, await page_burst(url, page, count), up, first)

        return asyncio.run(runs())
    finally:
        server.terminate()
        server.wait(timeout=30)


def _row(name: str, run: Run) -> str:
    return (
        f"| {name} | {run.rate:.1f} | {run.quantile(0.5) * 1000:.0f} ms "
        f"| {run.quantile(0.9) * 1000:.0f} ms | {run.quantile(0.99) * 1000:.0f} ms "
        f"| {max(run.latencies) * 1000:.0f} ms | {len(run.failures)} |"
    )


def markdown(
    runs: list[Run],
    count: int,
    workers: int,
    command: str,
    *,
    page: Run | None = None,
    start: tuple[float, float] | None = None,
) -> str:
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
        lines.append(_row(str(number), run))
    if page is not None:
        lines.append(_row("page", page))
    rate = statistics.median(run.rate for run in runs)
    p99 = statistics.median(run.quantile(0.99) for run in runs)
    failed = sum(len(run.failures) for run in runs) + (0 if page is None else len(page.failures))
    total = count * (len(runs) + (page is not None))
    lines += [
        "",
        f"Median over the runs: **{rate:.1f} requests/s**, **p99 latency "
        f"{p99 * 1000:.0f} ms**; {failed} of {total} requests lost or failed "
        "(a request fails unless its answer is proven and equals the collection's `[expect]`). "
        "Requests beyond the "
        "workers wait their turn, so the latency of the last ones is about count / rate: "
        "a burst measures throughput and fairness, not the time of one solve.",
    ]
    if page is not None:
        lines += [
            "",
            f"The row `page` is one burst of {count} requests of the page's API at once, the "
            "routes the analysis board calls in turn (`/api/position`, `/api/solve` with its "
            "picture, `/api/analyse` top 3, `/api/check`, `/api/game/new`, `/api/game/draw` "
            "with the solver's answer, `/api/game/hint`, `/api/cards/solve` of a 500 Rum "
            "hand), each answer checked.",
        ]
    if start is not None:
        lines += [
            "",
            f"From the process start: the server answers after **{start[0]:.2f} s** "
            f"(`GET /api`) and gives its first solve after **{start[1]:.2f} s** (the solver's "
            "imports and the first rule set's template are paid by that first request).",
        ]
    lines += [END, ""]
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
    found = measure(args.requests, args.repeats, args.workers)
    runs = found.runs
    command = shlex.join(["python", "-m", "benchmarks", "serve", *(argv or [])])
    section = markdown(
        runs,
        args.requests,
        args.workers,
        command,
        page=found.page,
        start=(found.up, found.first),
    )
    say(section)
    for run in [*runs, found.page]:
        for failure in run.failures[:10]:
            say(f"FAILED {failure}")
    text = args.out.read_text() if args.out.exists() else "# Benchmarks\n"
    args.out.write_text(replace_section(text, section))
    return 1 if any(run.failures for run in [*runs, found.page]) else 0
