"""The game review on self-played games: what it costs, and whom it finds the stronger.

``python -m benchmarks.review`` (options: ``--seeds``, ``--strategies``, ``--samples``,
``--rounds``, ``--rack-size``, ``--rule KEY=VALUE``, ``--out``) plays one 2-player game per
seed (:func:`rummikub.tiles.game.simulate.play_game`, the seed deals the game) between the
strategies given, reviews it with :func:`rummikub.tiles.game.review.equity_review` at the budget
given, and writes one line per game between the markers below in ``benchmarks/RESULTS.md``
(``python -m benchmarks`` keeps the section): the turns, the CPU seconds of the review and of
its luck alone, and each player's equity lost, accuracy, marks and luck.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks import sections
from rummikub.tiles.game import review
from rummikub.tiles.game.equity import Budget
from rummikub.tiles.game.simulate import play_game
from rummikub.tiles.game.strategies import strategy
from rummikub.tiles.rules import Rules, read_rules

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "benchmarks" / "RESULTS.md"
START, END = "<!-- review:start -->", "<!-- review:end -->"
HEADER = (
    "| strategies | rules | rack | seed | budget | turns | review s (CPU) | of which luck | "
    "player: lost, accuracy, ?! / ? / ??, luck |\n"
    "|---|---|---|---|---|---|---|---|---|\n"
)


def measure(
    rules: Rules, names: Sequence[str], seed: int, rack_size: int, budget: Budget
) -> tuple[review.EquityReview, float, float]:
    """The review of game ``seed``, its CPU seconds, and the CPU seconds of its luck."""
    record, _ = play_game(rules, [strategy(n) for n in names], seed, rack_size=rack_size)
    luck = [0.0]
    timed = review.draw_luck

    def draw_luck(*args: object, **kwargs: object) -> float:
        started = time.process_time()
        try:
            return timed(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            luck[0] += time.process_time() - started

    review.draw_luck = draw_luck  # type: ignore[assignment]
    try:
        started = time.process_time()
        found = review.equity_review(record, f"seed {seed}", budget)
        seconds = time.process_time() - started
    finally:
        review.draw_luck = timed
    return found, seconds, luck[0]


def line(
    setup: tuple[str, str, int, int, Budget],
    found: review.EquityReview,
    seconds: float,
    luck: float,
) -> str:
    label, rules_text, rack_size, seed, budget = setup
    players = "; ".join(
        f"{p.player} {p.lost:.2f}, {'-' if p.accuracy is None else f'{p.accuracy:.1f}'}, "
        + " / ".join(str(n) for _, n in p.marks)
        + f", {p.luck:+.2f}"
        for p in found.players
    )
    return (
        f"| {label} | {rules_text} | {rack_size} | {seed} | {budget.samples} x "
        f"{budget.rounds} | {len(found.turns)} | {seconds:.0f} | {luck:.0f} | {players} |\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.review")
    parser.add_argument("--seeds", default="1", help="comma-separated seeds, one game each")
    parser.add_argument("--strategies", default="best,equity")
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--rack-size", type=int, default=14)
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    options = dict(text.split("=", 1) for text in args.rule)
    reading = read_rules({}, options=options)
    if reading.rules is None:
        parser.error("; ".join(reading.problems))
    names = args.strategies.split(",")
    budget = Budget(args.samples, args.rounds)
    rules_text = " ".join(args.rule) or "standard"
    rows = []
    for seed in (int(s) for s in args.seeds.split(",")):
        found, seconds, luck = measure(reading.rules, names, seed, args.rack_size, budget)
        setup = (args.strategies, rules_text, args.rack_size, seed, budget)
        row = line(setup, found, seconds, luck)
        print(row, end="", flush=True)
        rows.append(row)
    text = args.out.read_text() if args.out.exists() else ""
    kept = sections.kept_section(args.out, START, END) or ""
    # The other runs' lines stay; this run's replace the lines of the same set-up and seed.
    keys = {tuple(r.split(" | ")[:5]) for r in rows}
    old = [
        r
        for r in kept.splitlines()
        if r.startswith("| ")
        and not r.startswith(("| strategies", "|---"))
        and tuple(r.split(" | ")[:5]) not in keys
    ]
    section = (
        f"{START}\n## The game review (`analyse RECORD --equity`)\n\n"
        "One self-played 2-player game per seed, reviewed whole (`python -m benchmarks.review "
        "--seeds 1,2 --strategies A,B [--samples N] [--rule K=V ...]` rewrites its lines). "
        "CPU seconds of one core for the whole review and for its luck (every kind of tile "
        "that could be drawn, at every draw); per player the equity lost, the accuracy, the "
        "marks and the luck (P1 plays the first strategy named, P2 the second). At the "
        "`equity` strategy's own budget (6 x 1) the review judges "
        "it by the evaluations it chose with, so its loss is zero wherever it chose among the "
        "candidates: a larger budget is the fairer judge.\n\n"
        + HEADER
        + "".join(f"{r}\n" for r in old)
        + "".join(rows)
        + f"{END}\n"
    )
    args.out.write_text(sections.replace_section(text, section, START, END))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
