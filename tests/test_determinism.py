"""The same position gives the same answer, byte for byte, whatever the machine's load, the
number of worker processes, or how often it is solved (issue 10).

The branch and bound hands over to the MIP back end after a budget of *work* (nodes,
simplex iterations), never of time; these tests would catch a clock creeping back in.
"""

from __future__ import annotations

import gc
import itertools
import json
import pickle
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from benchmarks.corpora import CORPORA, GENERALISED, random_position, stream
from rummikub.core.lp import search as search_module
from rummikub.core.lp.search import SearchOutcome
from rummikub.tiles.position import Position
from rummikub.tiles.puzzles import Puzzle, dump
from rummikub.tiles.rules import STANDARD
from rummikub.tiles.solver import SolveResult, solve
from rummikub.tiles.solver import model as model_module
from rummikub.tiles.solver.candidates import group_candidates
from rummikub.tiles.solver.template import play_template

REPO = Path(__file__).resolve().parent.parent
THRESHOLDS = gc.get_threshold()


def positions() -> list[Position]:
    """Positions whose search branches (8-18 nodes: hard-004 and hard-010 go on to CBC
    under a budget of 10 nodes), where a time budget would have changed the path."""
    hard = CORPORA["hard"].cases(1, size=11)
    rack_jokers = CORPORA["rack-jokers"].cases(1, size=27)
    return [hard[4].position, hard[10].position, rack_jokers[26].position]


def answer(result: SolveResult) -> tuple[str, int, int, str]:
    return (result.status, result.value, result.tiles, " | ".join(map(str, result.table)))


def searches(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Records each branch and bound's outcome (status, nodes) from now on: the search
    (:func:`.search.settle`) and the move model's second search after cuts."""
    seen: list[tuple[str, int]] = []
    original = search_module.branch_and_bound

    def spy(*args: Any, **kwargs: Any) -> SearchOutcome:
        outcome = original(*args, **kwargs)
        seen.append((outcome.status, outcome.nodes))
        return outcome

    monkeypatch.setattr(search_module, "branch_and_bound", spy)
    monkeypatch.setattr(model_module, "branch_and_bound", spy)
    return seen


def test_repeated_solves_give_the_same_table() -> None:
    for position in positions():
        first = answer(solve(position))
        for _ in range(2):
            assert answer(solve(position)) == first


def test_a_slow_clock_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine so loaded that every clock reading is a second later than the last: the
    search takes the same path (same nodes) and gives the same table."""
    cases = positions()
    # A small node budget, so that one position goes on to the MIP back end.
    monkeypatch.setattr(model_module, "NODE_LIMIT", 10)
    seen = searches(monkeypatch)
    normal = [answer(solve(position)) for position in cases]
    normal_searches = list(seen)
    seen.clear()
    tick = itertools.count()
    real = time.perf_counter
    monkeypatch.setattr(time, "perf_counter", lambda: real() + next(tick))
    slow = [answer(solve(position)) for position in cases]
    monkeypatch.setattr(time, "perf_counter", real)
    assert slow == normal
    assert seen == normal_searches
    assert any(status == "open" for status, _ in seen), "one position should reach CBC"


def test_jobs_do_not_change_the_answers(tmp_path: Path) -> None:
    folder = tmp_path / "puzzles"
    folder.mkdir()
    for i, position in enumerate(positions()):
        dump(Puzzle(f"p{i}", position), folder / f"p{i}.toml")
    small = CORPORA["small"].cases(1, size=5)
    for case in small:
        dump(Puzzle(case.name, case.position), folder / f"{case.name}.toml")

    def run(jobs: int) -> list[dict[str, Any]]:
        done = subprocess.run(
            [sys.executable, "-m", "rummikub", "solve", str(folder), "--json", "--jobs", str(jobs)],
            capture_output=True,
            text=True,
            cwd=REPO,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        for item in answers:
            del item["seconds"]  # the one field that may differ
        return answers

    one = run(1)
    assert len(one) == 8
    assert run(2) == one


def test_no_garbage_collection_runs_inside_a_solve() -> None:
    """The caller's garbage (here: many young cycles) is collected outside the solve, and
    the collector's state is restored afterwards, on or off."""
    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    position = positions()[0]
    gc.callbacks.append(count)
    try:
        for _ in range(3):
            gc.set_threshold(1, 1, 1)  # collect at every allocation
            try:
                solve(position)
            finally:
                gc.set_threshold(*THRESHOLDS)
        assert collections == []
        assert gc.isenabled()
        gc.disable()
        try:
            solve(position)
            assert not gc.isenabled()
        finally:
            gc.enable()
    finally:
        gc.callbacks.remove(count)


# -- time limits ---------------------------------------------------------------------------


@pytest.mark.parametrize(("limit", "warm"), [(0.05, False), (0.3, False), (0.3, True)])
def test_a_time_limit_covers_the_whole_solve(limit: float, warm: bool) -> None:
    """A position of the largest box with twice a full-box corpus position's tiles (table
    ~300, rack 60) needs seconds to prove; under a limit the solve answers within the limit
    plus 50 ms, unproven, with a legal move if it found one. The limit counts building the
    model: cold, the rule set's template and candidates (built once per rule set) are cut
    short; warm, the model is built and searched."""
    from rummikub.tiles.checker import check

    position = random_position(stream(5, "time-limit"), GENERALISED, table=300, rack=60)
    # OR-Tools is imported (no limit can cut an import short), and the rule set's
    # candidate groups are built if ``warm``.
    solve(Position.parse(rack="K1", rules=position.rules if warm else STANDARD))
    # The solver reads the wall clock between steps, so on a loaded machine (CI runs three
    # suites on two cores) a step it cannot cut short takes longer in wall time. The time
    # past the limit is therefore weighed by the share of a core the process had during the
    # solve: on an idle machine that share is 1 and this is the contract as stated. The
    # contract is held by the best of three tries, and every try stays far from a run-away.
    excess: list[float] = []
    for _ in range(3):
        if not warm:
            group_candidates.cache_clear()
            play_template.cache_clear()
        started, cpu_started = time.perf_counter(), time.process_time()
        result = solve(position, time_limit=limit)
        took = time.perf_counter() - started
        share = min(1.0, (time.process_time() - cpu_started) / took)
        excess.append(max(0.0, took - limit) * share)
        assert result.status == "feasible"
        if result.played:
            assert check(position, result.table).legal
    assert min(excess) <= 0.05, excess
    assert max(excess) <= 0.25, excess


def test_earlier_solves_leave_no_trace() -> None:
    """What a process solved before (templates loaded, their bounded records cached, other
    rule sets' models) changes no later answer: each position's table is the same solved
    first in a fresh process, after the others, and again after others in between."""
    small = [case.position for case in CORPORA["small"].cases(1, size=12)]
    # Positions with 0, 1 and 2 jokers in play (each gets its own template), a branching
    # one, and the same under free jokers and the tiles objective.
    cases = [*small[:3], positions()[0]]
    cases += [
        Position(p.table, p.rack, p.opened, p.rules.replace(joker_lock="free")) for p in cases
    ]
    script = (
        "import pickle, sys\n"
        "from rummikub.tiles.solver import solve\n"
        "p, objective = pickle.loads(sys.stdin.buffer.read())\n"
        "r = solve(p, objective=objective)\n"
        "print(r.status, r.value, r.tiles, ' | '.join(map(str, r.table)))\n"
    )

    def fresh(position: Position, objective: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", script],
            input=pickle.dumps((position, objective)),
            capture_output=True,
            cwd=REPO,
            check=True,
        )
        return done.stdout.decode().strip()

    def here(position: Position, objective: str) -> str:
        r = solve(position, objective="tiles" if objective == "tiles" else "value")
        return f"{r.status} {r.value} {r.tiles} {' | '.join(map(str, r.table))}"

    jobs = [(p, objective) for p in cases for objective in ("value", "tiles")]
    forward = [here(*job) for job in jobs]
    backward = [here(*job) for job in reversed(jobs)][::-1]
    assert backward == forward
    for k in (0, len(jobs) // 2, len(jobs) - 1):
        assert fresh(*jobs[k]) == forward[k]
