"""The work of each solve, counted: LP solves and hand-overs to the MIP back end, with the
CPU time of the process around each solve (issue 28).

On a machine shared by many processes wall times swing by 3x from one run to the next;
the counts do not, and CPU time swings far less. ``python -m benchmarks.work CORPUS``
prints, per corpus, the median, p99 and max CPU time, the LP solves and MIP hand-overs,
and the positions that did the most work. ``--ab NAME=A,B`` compares two values of a
constant of ``rummikub.tiles.solver.model`` (one the model reads when it solves, such as
``COUNTED_CUT_NODE_LIMIT=100,150`` or ``COUNTED_EXACT_BACKEND=CBC,SAT``), position by
position, the two taking turns which goes first, and checks that the status, value and
tiles agree. ``--ab`` given again changes several constants together (setting A takes
every first value, B every second); a NAME with dots is a module's constant read at solve
time, such as ``rummikub.core.lp.zero_half.CUT_ROUNDS=4,0``.

Seeded as ``python -m benchmarks``: the simulated corpora are read from the seed's record.
"""

from __future__ import annotations

import argparse
import importlib
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


#: One constant an A/B run changes: the module that holds it, its name, its two values.
Change = tuple[Any, str, tuple[int | str, int | str]]


def parse_change(given: str) -> Change | None:
    """``NAME=A,B`` as a :data:`Change`: a constant of the model, or a dotted module path's
    (see the module text); None when it does not name one, or gives other than two values."""
    name, _, listed = given.partition("=")
    values = [int(v) if v.lstrip("-").isdigit() else v for v in listed.split(",")]
    owner: Any = model_module
    if "." in name:
        module, _, name = name.rpartition(".")
        try:
            owner = importlib.import_module(module)
        except ImportError:
            return None
    if not hasattr(owner, name) or len(values) != 2:
        return None
    return owner, name, (values[0], values[1])


def _label(changes: Sequence[Change], side: int) -> str:
    return ", ".join(f"{name}={values[side]}" for _, name, values in changes)


def ab(corpus: str, seed: int, objective: str, changes: Sequence[Change], say: Say) -> int:
    """Two settings of the ``changes`` (A: every first value; B: every second), taking
    turns position by position; returns the number of positions whose answers differ
    (status, value, tiles)."""
    kept = [getattr(owner, name) for owner, name, _ in changes]
    works: tuple[list[Work], list[Work]] = ([], [])
    differ = 0
    try:
        with Counter() as counter:
            for k, (label, position) in enumerate(positions(corpus, seed, objective)):
                answers = set()
                for side in (0, 1) if k % 2 == 0 else (1, 0):
                    for owner, name, values in changes:
                        setattr(owner, name, values[side])
                    work = counter.measure(label, position, objective)
                    works[side].append(work)
                    answers.add(work.answer)
                differ += len(answers) > 1
    finally:
        for (owner, name, _), value in zip(changes, kept, strict=True):
            setattr(owner, name, value)
    for side in (0, 1):
        say(summary(f"{corpus} ({objective}) {_label(changes, side)}", works[side]))
    for pair in zip(*works, strict=True):
        if len({(w.lp_solves, w.mip_calls) for w in pair}) > 1:
            say(
                f"  {pair[0].name}: "
                + ", ".join(
                    f"{_label(changes, side)}: {w.lp_solves} LP, {w.mip_calls} MIP, "
                    f"{w.cpu * 1000:.0f} ms"
                    for side, w in enumerate(pair)
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
    parser.add_argument(
        "--ab",
        metavar="NAME=A,B",
        action="append",
        help="compare two values of model.NAME (or of a dotted module's NAME); again: together",
    )
    args = parser.parse_args(argv)
    changes: list[Change] = []
    for given in args.ab or ():
        change = parse_change(given)
        if change is None:
            parser.error(f"--ab {given!r}: expected NAME=A,B with NAME in model or a module")
        changes.append(change)
    differ = 0
    for corpus in args.corpus:
        if changes:
            differ += ab(corpus, args.seed, args.objective, changes, say)
        else:
            run(corpus, args.seed, args.objective, args.top, say)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
