"""``python -m benchmarks.equity_web``: does an ``/api/analyse`` equity at the most the
server allows fit its time limit (``rummikub.web.api.most_playout_rounds``)?

The reported position (the one whose playouts ran past the deadline) and standard mid-game
positions (turns 10-40 of seeded ``best`` self-play) are each asked, through the app in this
process at the default limits (10 s), the board's default (``"equity": true``) and three
requests at the maximum: many playouts of 1 round, the 10 best moves, 20 rounds. Each
answer's wall time is written, with whether it was complete or stopped early, into the
``equity-web`` section of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks import sections
from benchmarks.equity import midgame
from rummikub.tiles.game.view import view_of

START, END = "<!-- equity-web:start -->", "<!-- equity-web:end -->"
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
REPORTED = (
    "R1-4 | K7 R7 B7 | B9 B10 B11 | O5 O6 O7 | K10-13 | R12 B12 O12 / "
    "K1 K3 K5 K8 R5 R6 R9 B3 B4 B13 O1 O9 O10 J"
)
#: The requests: the board's default, then three at the maximum of a 10 s server (1,200).
REQUESTS: tuple[tuple[str, Any, int], ...] = (
    ("default (48 x 3, top 3)", True, 3),
    ("171 x 1, top 3", {"playouts": 171, "rounds": 1}, 3),
    ("85 x 1, top 10", {"playouts": 85, "rounds": 1}, 10),
    ("8 x 20, top 3", {"playouts": 8, "rounds": 20}, 3),
)


def positions(games: int) -> list[str]:
    """The reported position, then every third mid-game position of ``games`` games."""
    return [REPORTED] + [view_of(s)[0].to_notation() for s in midgame(games)[::3]]


def measure(notations: Sequence[str]) -> list[list[tuple[float, str]]]:
    """Per request, per position: the wall seconds and ``complete``/``stopped``/the status."""
    from starlette.testclient import TestClient

    from rummikub.web import Limits, create_app

    client = TestClient(create_app(Limits()))
    found: list[list[tuple[float, str]]] = []
    for _, equity, top in REQUESTS:
        row = []
        for notation in notations:
            started = time.perf_counter()
            answer = client.post(
                "/api/analyse", json={"position": notation, "equity": equity, "top": top}
            )
            seconds = time.perf_counter() - started
            if answer.status_code != 200:
                row.append((seconds, str(answer.status_code)))
            else:
                data = answer.json()["equity"]
                done = data.get("playouts_done")
                row.append((seconds, "complete" if done is None else f"stopped at {done}"))
        found.append(row)
    return found


def markdown(notations: Sequence[str], found: Sequence[Sequence[tuple[float, str]]]) -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        START,
        "## Equity over the web: the most a request may ask",
        "",
        f"`python -m benchmarks.equity_web` ({platform.machine()}, Python "
        f"{platform.python_version()}; load average {load:.1f} at the end): `/api/analyse` "
        "with `equity` through the app in one process at the default limits (10 s, at most "
        "1,200 playout rounds: `playouts` x `rounds` x (`top` + 4)), on the reported position "
        f"and {len(notations) - 1} standard mid-game positions. Wall seconds of the whole "
        "request (the analysis's solves too), and whether the equity was complete:",
        "",
        "| request | median s | max s | complete |",
        "|---|---|---|---|",
    ]
    for (label, _, _), row in zip(REQUESTS, found, strict=True):
        times = sorted(s for s, _ in row)
        complete = sum(1 for _, how in row if how == "complete")
        median = times[len(times) // 2]
        lines.append(f"| {label} | {median:.2f} | {times[-1]:.2f} | {complete} of {len(row)} |")
    lines += [
        "",
        "Reported position alone: "
        + ", ".join(
            f"{label} {row[0][0]:.2f} s ({row[0][1]})"
            for (label, _, _), row in zip(REQUESTS, found, strict=True)
        )
        + ".",
        END,
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.equity_web")
    parser.add_argument("--games", type=int, default=1, help="self-play games for positions")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    notations = positions(args.games)
    section = markdown(notations, measure(notations))
    print(section, end="")
    text = args.out.read_text() if args.out.exists() else ""
    args.out.write_text(sections.replace_section(text, section, START, END))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
