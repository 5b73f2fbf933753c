"""Timing the analysis: ``--top 5`` and ``--outs`` on the game-like corpora.

In-process wall time of :func:`rummikub.tiles.analysis.top_moves` (k = 5) and
:func:`rummikub.tiles.analysis.outs` per position, which is what ``rummikub analyse --top 5`` and
``rummikub analyse --outs`` spend besides starting the process and reading the file. Every
move found is checked with the checker (untimed), so a fast but wrong analysis cannot pass.
The target of issue 12: ``--outs`` on a standard position under 0.5 s median.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from benchmarks.corpora import CORPORA, Case
from benchmarks.record import Record, path_for
from rummikub.tiles.analysis import RankedMove, outs, top_moves
from rummikub.tiles.checker import check
from rummikub.tiles.position import Position

#: The corpora of positions met in play (``late`` only once it exists).
NAMES = ("game", "late")
#: Positions per corpus: the outs cost one solve per unseen tile kind (53 on the standard
#: box), so the full corpora would take minutes.
SIZE, QUICK_SIZE = 40, 3
#: The target: ``--outs`` median on a standard position, in seconds.
OUTS_TARGET = 0.5


@dataclass(slots=True)
class AnalysisReport:
    """The times of one corpus."""

    corpus: str
    top: list[float] = field(default_factory=list)
    outs: list[float] = field(default_factory=list)
    #: Outs settled without a solve (the tile fits no meld), and outs in all.
    proofs: int = 0
    kinds: int = 0
    illegal: list[str] = field(default_factory=list)


def cases(name: str, seed: int, count: int) -> list[Case]:
    """The corpus's first positions (a simulated corpus as recorded, when it is: simulating
    the games again is slow)."""
    recorded = Record.load(path_for(seed)).played(name)
    if len(recorded) >= count:
        return recorded[:count]
    return CORPORA[name].cases(seed, size=count)


def _audit(report: AnalysisReport, case: Case, move: RankedMove, position: Position) -> None:
    if move.played and not check(position, move.table).legal:
        report.illegal.append(f"{case.name}: {move.table}")


def run(seed: int, quick: bool, say: Callable[[str], None]) -> list[AnalysisReport]:
    reports = []
    for name in NAMES:
        if name not in CORPORA:
            continue
        report = AnalysisReport(name)
        for case in cases(name, seed, QUICK_SIZE if quick else SIZE):
            started = time.perf_counter()
            moves = top_moves(case.position, 5)
            report.top.append(time.perf_counter() - started)
            started = time.perf_counter()
            found = outs(case.position)
            report.outs.append(time.perf_counter() - started)
            for move in moves:
                _audit(report, case, move, case.position)
            for out in found.outs:
                drawn = Position(
                    case.position.table,
                    (*case.position.rack, out.tile),
                    case.position.opened,
                    case.position.rules,
                )
                _audit(report, case, out.best, drawn)
            report.kinds += len(found.outs)
            report.proofs += sum(1 for out in found.outs if out.proof == "fits no meld")
        say(
            f"analysis {name}: --top 5 median {ms(statistics.median(report.top))}, "
            f"--outs median {ms(statistics.median(report.outs))}"
        )
        reports.append(report)
    return reports


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def markdown(reports: list[AnalysisReport]) -> str:
    """The report's section (empty when the analysis was not run)."""
    if not reports:
        return ""
    lines = [
        "",
        "## Analysis (`rummikub analyse`)",
        "",
        "In-process wall time per position of `--top 5` (the five best distinct moves, each "
        "proven) and of `--outs` (one solve per unseen tile kind, except tiles proven to fit "
        f"no meld), on the first {len(reports[0].top)} positions of each corpus. Every move "
        "found passed the checker (untimed).",
        "",
        "| corpus | positions | `--top 5` median | p90 | max | `--outs` median | p90 | max "
        "| outs without a solve | illegal |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for report in reports:
        lines.append(
            f"| {report.corpus} | {len(report.top)} | {_stats(report.top)} "
            f"| {_stats(report.outs)} | {report.proofs} of {report.kinds} "
            f"| {len(report.illegal)} |"
        )
    game = next((r for r in reports if r.corpus == "game"), None)
    if game is not None:
        median = statistics.median(game.outs)
        met = "yes" if median <= OUTS_TARGET else "**no**"
        lines += [
            "",
            f"Target: `--outs` on a standard position (`game`) under {ms(OUTS_TARGET)} median: "
            f"{ms(median)}, met: {met}.",
        ]
    return "\n".join(lines) + "\n"


def _stats(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{ms(statistics.median(values))} | {ms(p90)} | {ms(max(values))}"
