"""The exact endgame on self-played games: how often a game reaches it, and what it costs.

``python -m benchmarks.endgame`` (options: ``--games``, ``--strategies``, ``--rack-size``,
``--rule KEY=VALUE``, ``--nodes``, ``--out``) plays 2-player games seed by seed
(seed ``i`` deals game ``i``) with the strategies
given until the hand ends or the pool is empty, decides every empty-pool state with
:func:`rummikub.tiles.game.endgame.decide` at the budget given, and writes a table between the
markers below in ``benchmarks/RESULTS.md`` (``python -m benchmarks`` keeps the section).
Each run is one line of the table, so several rule sets and strategies sit side by side.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from benchmarks import sections
from rummikub.tiles.game.endgame import ENDGAME_NODES, decide
from rummikub.tiles.game.engine import advance, deal, start, turn_of_move
from rummikub.tiles.game.strategies import strategy
from rummikub.tiles.game.view import view_of
from rummikub.tiles.rules import Rules, read_rules

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "benchmarks" / "RESULTS.md"
START, END = "<!-- endgame:start -->", "<!-- endgame:end -->"
HEADER = (
    "| strategies | rules | rack | games | pool empty | decided | win / draw / loss | "
    "nodes median | p90 | max | seconds median | max |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
)


def measure(
    rules: Rules, names: Sequence[str], games: int, rack_size: int, nodes: int
) -> dict[str, object]:
    players = [strategy(name) for name in names]
    empty = 0
    outcomes: Counter[str] = Counter()
    counts: list[int] = []
    seconds: list[float] = []
    for seed in range(games):
        state = start(deal(["P1", "P2"], rules, seed, rack_size))
        while not state.over and state.pool_count > 0:
            move = players[state.to_move](*view_of(state))
            state = advance(state, turn_of_move(state, move))
        if state.over:
            continue
        empty += 1
        started = time.perf_counter()
        verdict = decide(state, nodes=nodes)
        seconds.append(time.perf_counter() - started)
        outcomes[verdict.outcome] += 1
        counts.append(verdict.nodes)
    return {"games": games, "empty": empty, "outcomes": outcomes, "nodes": counts, "s": seconds}


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(label: str, rules_text: str, rack_size: int, found: dict[str, object]) -> str:
    outcomes = found["outcomes"]
    counts = found["nodes"]
    seconds = found["s"]
    assert isinstance(outcomes, Counter) and isinstance(counts, list)
    assert isinstance(seconds, list)
    if not counts:
        stats = "- | - | - | - | - | - | -"
    else:
        decided = len(counts) - outcomes["unknown"]
        stats = (
            f"{decided} | {outcomes['win']} / {outcomes['draw']} / {outcomes['loss']} | "
            f"{statistics.median(counts):g} | {_quantile(counts, 0.9)} | {max(counts)} | "
            f"{statistics.median(seconds):.2f} | {max(seconds):.2f}"
        )
    return (
        f"| {label} | {rules_text} | {rack_size} | {found['games']} | {found['empty']} | "
        f"{stats} |\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.endgame")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--strategies", default="best,best")
    parser.add_argument("--rack-size", type=int, default=14)
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--nodes", type=int, default=ENDGAME_NODES)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    options = dict(text.split("=", 1) for text in args.rule)
    reading = read_rules({}, options=options)
    if reading.rules is None:
        parser.error("; ".join(reading.problems))
    rules = reading.rules
    names = args.strategies.split(",")
    found = measure(rules, names, args.games, args.rack_size, args.nodes)
    row = line(args.strategies, " ".join(args.rule) or "standard", args.rack_size, found)
    print(row, end="")
    text = args.out.read_text() if args.out.exists() else ""
    kept = sections.kept_section(args.out, START, END) or ""
    # The other runs' lines stay; this run's replaces the line of the same set-up.
    same = row.split(" | ")[:3]
    rows = [
        r
        for r in kept.splitlines()
        if r.startswith("| ")
        and not r.startswith(("| strategies", "|---"))
        and r.split(" | ")[:3] != same
    ]
    section = (
        f"{START}\n## The exact endgame (`decide`, budget {args.nodes} nodes)\n\n"
        "2 players, each game played to its end or to the empty pool, which is then decided. "
        "`python -m benchmarks.endgame --games N --strategies A,B [--rule K=V ...]` "
        "rewrites its line. Seconds are wall time for one decision, on whatever load the "
        "machine had (Machine and versions).\n\n"
        + HEADER
        + "".join(f"{r}\n" for r in rows)
        + row
        + f"{END}\n"
    )
    args.out.write_text(sections.replace_section(text, section, START, END))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
