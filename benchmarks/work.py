"""The work of each solve, counted: LP solves and hand-overs to the MIP back end, with the
CPU time of the process around each solve (issue 28).

On a machine shared by many processes wall times swing by 3x from one run to the next;
the counts do not, and CPU time swings far less. ``python -m benchmarks.work CORPUS``
prints, per corpus, the median, p99 and max CPU time, the LP solves and MIP hand-overs,
and the positions that did the most work. ``--ab NAME=A,B`` compares two values of a
constant of ``rummikub.tiles.solver.model`` (one the model reads when it solves, such as
``COUNTED_CUT_NODE_LIMIT=100,150`` or ``COUNTED_EXACT_BACKEND=CBC,SAT``), position by
position, the two taking turns which goes first, and checks that the status, value and
tiles agree.

Seeded as ``python -m benchmarks``: the simulated corpora are read from the seed's record.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from benchmarks.corpora import CORPORA, Case
from benchmarks.record import Record, path_for
from benchmarks.run import SIMULATED, free
from rummikub.core.lp import rows as rows_module
from rummikub.tiles.position import Position
from rummikub.tiles.solver import model as model_module
from rummikub.tiles.solver import solve

Say = Callable[[str], None]


class Work(NamedTuple):
    """One solve: its answer, its CPU time and the work it did."""

    name: str
    answer: tuple[str, int, int]
    cpu: float
    lp_solves: int
    mip_calls: int


class Counter:
    """Counts the LP solves (every ``Rows.solve``) and the MIP hand-overs of the solves
    run inside it, by wrapping the two methods for as long as it is entered."""

    def __init__(self) -> None:
        self.lp_solves = 0
        self.mip_calls = 0
        self._saved: list[tuple[type, str, Any]] = []

    def __enter__(self) -> Counter:
        counter = self
        lp_solve = rows_module.Rows.solve
        mip = model_module.MoveModel._solve_mip

        def counted_solve(rows: Any, *args: Any, **kwargs: Any) -> Any:
            counter.lp_solves += 1
            return lp_solve(rows, *args, **kwargs)

        def counted_mip(model: Any, *args: Any, **kwargs: Any) -> Any:
            counter.mip_calls += 1
            return mip(model, *args, **kwargs)

        self._saved = [
            (rows_module.Rows, "solve", lp_solve),
            (model_module.MoveModel, "_solve_mip", mip),
        ]
        setattr(rows_module.Rows, "solve", counted_solve)  # noqa: B010
        setattr(model_module.MoveModel, "_solve_mip", counted_mip)  # noqa: B010
        return self

    def __exit__(self, *_: object) -> None:
        for owner, name, method in self._saved:
            setattr(owner, name, method)

    def measure(self, name: str, position: Position, objective: str) -> Work:
        self.lp_solves = self.mip_calls = 0
        started = time.process_time()
        result = solve(position, objective="tiles" if objective == "tiles" else "value")
        cpu = time.process_time() - started
        answer = (result.status, result.value, result.tiles)
        return Work(name, answer, cpu, self.lp_solves, self.mip_calls)


def cases(corpus: str, seed: int) -> list[Case]:
    recorded = Record.load(path_for(seed)).played(corpus) if corpus in SIMULATED else []
    return recorded or CORPORA[corpus].cases(seed)


def positions(corpus: str, seed: int, objective: str) -> list[tuple[str, Position]]:
    """The corpus's positions; in the peer's setting (``tiles``) with free jokers and
    only the opened ones, as the side by side compares them."""
    if objective == "tiles":
        return [(c.name, free(c.position)) for c in cases(corpus, seed) if c.position.opened]
    return [(c.name, c.position) for c in cases(corpus, seed)]


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(label: str, works: Sequence[Work]) -> str:
    cpu = [w.cpu for w in works]
    return (
        f"{label}: {len(works)} positions, CPU median {statistics.median(cpu) * 1000:.1f} ms, "
        f"p99 {percentile(cpu, 0.99) * 1000:.1f} ms, max {max(cpu) * 1000:.1f} ms, "
        f"sum {sum(cpu):.2f} s; LP solves {sum(w.lp_solves for w in works)} "
        f"(median {statistics.median(w.lp_solves for w in works):g}, most "
        f"{max(w.lp_solves for w in works)}), MIP hand-overs {sum(w.mip_calls for w in works)}"
    )


def run(corpus: str, seed: int, objective: str, top: int, say: Say) -> list[Work]:
    chosen = positions(corpus, seed, objective)
    with Counter() as counter:
        for _, position in chosen[:2]:  # warm-up: the rule set's one-time set-up
            counter.measure("", position, objective)
        works = [counter.measure(name, position, objective) for name, position in chosen]
    say(summary(f"{corpus} ({objective})", works))
    for w in sorted(works, key=lambda w: (-w.lp_solves, w.name))[:top]:
        say(
            f"  {w.name}: {w.lp_solves} LP solves, {w.mip_calls} MIP, "
            f"{w.cpu * 1000:.1f} ms CPU, {w.answer[0]} {w.answer[1]}/{w.answer[2]}"
        )
    return works


def ab(
    corpus: str, seed: int, objective: str, name: str, values: Sequence[int | str], say: Say
) -> int:
    """Two values of ``model.NAME``, taking turns position by position; returns the number
    of positions whose answers differ (status, value, tiles)."""
    kept = getattr(model_module, name)
    works: dict[int | str, list[Work]] = {value: [] for value in values}
    differ = 0
    try:
        with Counter() as counter:
            for k, (label, position) in enumerate(positions(corpus, seed, objective)):
                order = values if k % 2 == 0 else list(reversed(values))
                answers = set()
                for value in order:
                    setattr(model_module, name, value)
                    work = counter.measure(label, position, objective)
                    works[value].append(work)
                    answers.add(work.answer)
                differ += len(answers) > 1
    finally:
        setattr(model_module, name, kept)
    for value in values:
        say(summary(f"{corpus} ({objective}) {name}={value}", works[value]))
    for pair in zip(*(works[value] for value in values), strict=True):
        if len({(w.lp_solves, w.mip_calls) for w in pair}) > 1:
            say(
                f"  {pair[0].name}: "
                + ", ".join(
                    f"{value}: {w.lp_solves} LP, {w.mip_calls} MIP, {w.cpu * 1000:.0f} ms"
                    for value, w in zip(values, pair, strict=True)
                )
            )
    say(f"  answers differ on {differ} positions")
    return differ


def main(argv: Sequence[str] | None = None, say: Say = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.work", description=__doc__)
    parser.add_argument("corpus", nargs="+", choices=sorted(CORPORA))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--objective", choices=("value", "tiles"), default="value")
    parser.add_argument("--top", type=int, default=5, help="positions with the most work")
    parser.add_argument("--ab", metavar="NAME=A,B", help="compare two values of model.NAME")
    args = parser.parse_args(argv)
    differ = 0
    for corpus in args.corpus:
        if args.ab:
            name, _, given = args.ab.partition("=")
            values = [int(v) if v.lstrip("-").isdigit() else v for v in given.split(",")]
            if not hasattr(model_module, name) or len(values) != 2:
                parser.error(f"--ab {args.ab!r}: expected NAME=A,B with NAME in model")
            differ += ab(corpus, args.seed, args.objective, name, values, say)
        else:
            run(corpus, args.seed, args.objective, args.top, say)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
