"""Timing the checker where its search is hardest: players not yet opened, with jokers.

The ``not-opened-jokers`` corpus under ``joker_swap_from = "rack_or_table"`` (a free table
tile may then release a joker just laid in the initial meld, so the checker searches the
initial melds laid and released again), each position with the solver's answer (legal) and
two illegal variants of it: one played tile changed into another tile of the box, and one
tile moved from one meld to another. In-process wall time of one
:func:`rummikub.tiles.checker.check`
call per move, the packing cache cleared before each (every call is timed cold); the solves
that make the answers are not timed. Every answer must be judged legal and every variant
illegal, so a fast but wrong checker cannot pass.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import rummikub.tiles.checker as checker_module
from benchmarks.corpora import CORPORA, stream
from rummikub.tiles.checker import check
from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.position import Position
from rummikub.tiles.solver import solve

#: The corpus, and how many of its positions (a full run; ``--quick`` takes the first few).
CORPUS = "not-opened-jokers"
SIZE, QUICK_SIZE = 24, 3
#: The moves judged on each position, in the report's order.
KINDS = ("answer", "a tile changed", "a tile moved")
#: Each answer's solve time limit (seconds); an unproven answer is still a legal move.
SOLVE_LIMIT = 30.0


@dataclass(slots=True)
class CheckReport:
    """The times of one kind of move, and the verdicts that were not as expected."""

    kind: str
    times: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)


def swap_from_table(position: Position) -> Position:
    rules = position.rules.replace(joker_swap_from="rack_or_table")
    return Position(position.table, position.rack, position.opened, rules)


def variants(
    position: Position, answer: Sequence[Meld], rng: random.Random
) -> dict[str, list[Meld | RawMeld]]:
    """The answer, and its illegal variants (a played tile changed, a tile moved)."""
    table: list[Meld | RawMeld] = list(answer)
    played = Counter(t for m in answer for t in m.tiles) - position.table_tiles()
    changed = list(table)
    spots = [
        (i, k)
        for i, meld in enumerate(answer)
        for k, tile in enumerate(meld.tiles)
        if played[tile] and not tile.is_joker
    ]
    i, k = rng.choice(spots)
    tiles = list(answer[i].tiles)
    tiles[k] = rng.choice([t for t in position.rules.tile_types() if t != tiles[k]])
    changed[i] = RawMeld(tuple(tiles), answer[i].kind)
    moved: list[Meld | RawMeld] = [RawMeld(m.tiles, m.kind) for m in answer]
    source, target = rng.sample(range(len(answer)), 2)
    *rest, last = answer[source].tiles
    moved[source] = RawMeld(tuple(rest))
    moved[target] = RawMeld((*answer[target].tiles, last))
    return {"answer": table, "a tile changed": changed, "a tile moved": moved}


def run(seed: int, quick: bool, say: Callable[[str], None]) -> list[CheckReport]:
    reports = {kind: CheckReport(kind) for kind in KINDS}
    rng = stream(seed, "checker")
    cases = CORPORA[CORPUS].cases(seed, size=QUICK_SIZE if quick else SIZE)
    for case in cases:
        position = swap_from_table(case.position)
        result = solve(position, time_limit=SOLVE_LIMIT)
        if not result.played or len(result.table) < 2:
            continue  # no move, or nothing to vary
        for kind, table in variants(position, result.table, rng).items():
            checker_module._pack.cache_clear()
            started = time.perf_counter()
            verdict = check(position, table)
            reports[kind].times.append(time.perf_counter() - started)
            if verdict.legal != (kind == "answer"):
                reports[kind].wrong.append(case.name)
    for report in reports.values():
        say(f"checker {report.kind}: median {ms(statistics.median(report.times))}")
    return list(reports.values())


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def markdown(reports: list[CheckReport]) -> str:
    """The report's section (empty when the checker was not timed)."""
    if not reports:
        return ""
    lines = [
        "",
        "## The checker (`rummikub check`)",
        "",
        f"In-process wall time of one `check` per move, cold (its packing cache cleared), on "
        f"the first {len(reports[0].times)} positions of `{CORPUS}` under "
        '`joker_swap_from = "rack_or_table"`: the solver\'s answer, and two illegal '
        "variants of it. Wrong: verdicts other than legal for the answer, illegal for the "
        "variants.",
        "",
        "| move | moves | median | p90 | max | wrong |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for report in reports:
        ordered = sorted(report.times)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        lines.append(
            f"| {report.kind} | {len(report.times)} | {ms(statistics.median(ordered))} "
            f"| {ms(p90)} | {ms(ordered[-1])} | {len(report.wrong)} |"
        )
    return "\n".join(lines) + "\n"
