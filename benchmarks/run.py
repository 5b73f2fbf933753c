"""The benchmark runner: time to a proven optimum per corpus, the peer side by side, the
whole-process time of one CLI call, and the throughput of one call over a folder.

Times are wall-clock seconds around one in-process ``solve`` call (building the model,
solving, reading the answer back), after a warm-up solve per rule set so that one-time work
(imports, the candidate table of a rule set, the peer's cvxpy models) is reported apart.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import gc
import json
import math
import os
import platform
import pstats
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

import rummikub
from benchmarks import analysis as analysis_module
from benchmarks import cards as card_bench
from benchmarks import checker as checker_bench
from benchmarks import peer as peer_module
from benchmarks import startup
from benchmarks import tails as tails_module
from benchmarks.corpora import CORPORA, Case, make_mid, stream
from benchmarks.record import Record, path_for
from rummikub.tiles.checker import check
from rummikub.tiles.position import Position
from rummikub.tiles.puzzles import Puzzle, dump, load
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver import SolveResult, solve
from rummikub.tiles.tiles import JOKER, format_tiles

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "benchmarks" / "RESULTS.md"
#: The example puzzle for the whole-process comparison: small, so start-up dominates.
CLI_PUZZLE = "puzzles/basics/two-tiles-fit.toml"
SECTIONS = (
    *CORPORA,
    "profile",
    "tails",
    "cli",
    "throughput",
    "analysis",
    "checker",
    "cards",
)
#: Corpora of simulated play: slow to simulate, so read from the seed's record.
SIMULATED = ("game", "late", "locked-jokers")


@dataclass(frozen=True, slots=True)
class Settings:
    seed: int
    quick: bool
    peer: bool
    time_limit: float
    sections: tuple[str, ...]
    cli_runs: int
    throughput: int
    command: str
    #: The 1-minute load average when the run started: other processes on the machine
    #: slow every figure, so the report says how busy it was.
    load: float | None
    record: bool


# -- measurements ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Timing:
    """Our answer to one position, and how long it took."""

    name: str
    status: str
    value: int
    tiles: int
    seconds: float

    @property
    def proven(self) -> bool:
        return self.status != "feasible"


@dataclass(frozen=True, slots=True)
class Comparison:
    """The peer and us on one position, both maximising tiles with free jokers."""

    case: Case
    ours_status: str
    ours_tiles: int
    ours_seconds: float
    peer_tiles: int
    peer_seconds: float

    @property
    def ratio(self) -> float:
        return self.peer_seconds / self.ours_seconds

    @property
    def comparable(self) -> bool:
        """Whether the answers must agree: an opened player, and our answer proven."""
        return self.case.position.opened and self.ours_status != "feasible"

    @property
    def agrees(self) -> bool:
        return not self.comparable or self.ours_tiles == self.peer_tiles


@dataclass(slots=True)
class CorpusReport:
    name: str
    description: str
    cases: list[Case]
    generate_seconds: float
    setup_seconds: float
    #: Where the positions came from: generated now, or read from the seed's record.
    source: str = "generated"
    timings: list[Timing] = field(default_factory=list)
    #: Answers the checker rejected, and proven answers unlike the recorded ones.
    illegal: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)
    #: How many proven answers had a recorded one to compare with.
    compared_answers: int = 0
    peak_rss: int | None = None
    rss_before: int | None = None
    comparisons: list[Comparison] = field(default_factory=list)
    peer_errors: list[str] = field(default_factory=list)
    #: Full (generation 2) garbage collections during the timed solves, and their time.
    full_collections: int = 0
    collection_seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class ProcessTimes:
    """Whole-process wall times of one command, run several times."""

    command: str
    seconds: list[float]
    #: A floor: what a process costs before our code runs (the interpreter, OR-Tools).
    floor: bool = False
    #: Said after the command in the report.
    note: str = ""
    #: Where its imports go, by package (benchmarks/startup.py); ours only.
    imports: tuple[startup.ImportShare, ...] = ()


@dataclass(frozen=True, slots=True)
class Throughput:
    positions: int
    command: str
    wall_seconds: float
    inside_seconds: float
    statuses: dict[str, int]
    #: The same folder in one process (``--jobs 1``), and the output of both compared.
    serial_seconds: float | None = None
    same_output: bool | None = None
    #: Where one position's time goes, in this process (seconds per position, mean over
    #: the first positions): reading the file, solving, writing the JSON line.
    phases: dict[str, float] = field(default_factory=dict)
    phase_positions: int = 0


@dataclass(frozen=True, slots=True)
class Stats:
    median: float
    p90: float
    p99: float
    max: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Stats:
        ordered = sorted(values)

        def rank(share: float) -> float:
            # Nearest rank: a percentile is a time some position actually took.
            return ordered[max(0, math.ceil(share * len(ordered)) - 1)]

        return cls(statistics.median(ordered), rank(0.9), rank(0.99), ordered[-1])


# -- peak memory ----------------------------------------------------------------------


class PeakMemory:
    """The peak resident set size over a stretch of the run.

    On Linux writing ``5`` to ``/proc/self/clear_refs`` resets the peak (``VmHWM``), so each
    corpus gets its own figure, including what OR-Tools allocates in C++ (which tracemalloc
    would miss, and which would slow every Python allocation while it traces). Elsewhere it
    falls back to ``getrusage``'s maximum, the high-water mark of the whole process so far.
    """

    def __init__(self) -> None:
        self.resettable = self._reset()
        self.method = (
            "peak RSS during the corpus (VmHWM, reset before each corpus)"
            if self.resettable
            else "peak RSS of the process so far (getrusage ru_maxrss; not reset per corpus)"
        )

    @staticmethod
    def _reset() -> bool:
        try:
            Path("/proc/self/clear_refs").write_text("5")
            return "VmHWM" in Path("/proc/self/status").read_text()
        except OSError:
            return False

    def reset(self) -> None:
        if self.resettable:
            self._reset()

    @staticmethod
    def _status(key: str) -> int | None:
        """A size from /proc/self/status, in bytes."""
        try:
            for line in Path("/proc/self/status").read_text().splitlines():
                if line.startswith(f"{key}:"):
                    return int(line.split()[1]) * 1024
        except OSError:
            pass
        return None

    def current(self) -> int | None:
        """The resident set size now (bytes), where the system tells."""
        return self._status("VmRSS")

    def peak(self) -> int:
        """Bytes."""
        if self.resettable:
            found = self._status("VmHWM")
            if found is not None:
                return found
        maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return maxrss if sys.platform == "darwin" else maxrss * 1024


class FullCollections:
    """Counts and times full (generation 2) garbage collections while in use: a full
    collection walks every object of the process, so one inside a solve is a spike that
    the solve did not cause."""

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0
        self._started: float | None = None
        #: Only collections that start while a solve is timed count: one between solves
        #: (the benchmark's own bookkeeping) is not the solve's.
        self.timing = False

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start" and not self.timing:
            return
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started is not None:
            self.count += 1
            self.seconds += time.perf_counter() - self._started
            self._started = None

    def __enter__(self) -> FullCollections:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._callback)


# -- running the corpora --------------------------------------------------------------


def timed_solve(
    position: Position,
    *,
    objective: str,
    time_limit: float,
    collections: FullCollections | None = None,
) -> tuple[SolveResult, float]:
    if collections is not None:
        collections.timing = True
    started = time.perf_counter()
    result = solve(
        position, objective="tiles" if objective == "tiles" else "value", time_limit=time_limit
    )
    seconds = time.perf_counter() - started
    if collections is not None:
        collections.timing = False
    return result, seconds


def free(position: Position) -> Position:
    """The position with table jokers free to move (the peer has no joker lock)."""
    rules = position.rules.replace(joker_lock="free")
    return Position(position.table, position.rack, position.opened, rules)


def warm_up(rules: Rules, time_limit: float) -> float:
    """Solve a one-tile position under ``rules``, with each number of jokers beside it; its
    time is the rule set's one-time set-up (the candidate table, the template of each
    number of jokers in play), which the timed solves then do not pay."""
    tile = next(rules.tile_types())
    started = time.perf_counter()
    for jokers in range(rules.jokers + 1):
        rack = (tile, *[JOKER] * jokers)
        for objective in ("value", "tiles"):
            position = Position((), rack, True, rules)
            timed_solve(position, objective=objective, time_limit=time_limit)
    return time.perf_counter() - started


def run_corpus(
    name: str,
    settings: Settings,
    memory: PeakMemory,
    say: Callable[[str], None],
    record: Record,
) -> CorpusReport:
    """Generate a corpus and time our solver on it (value objective, the corpus's rules),
    then check every answer (untimed) with the checker and against the recorded answers."""
    corpus = CORPORA[name]
    started = time.perf_counter()
    count = corpus.quick_size if settings.quick else corpus.size
    source = "generated"
    if name in SIMULATED and not settings.record and len(record.played(name)) >= count:
        cases = record.played(name)[:count]
        source = f"read from {path_for(settings.seed).relative_to(REPO)}"
    else:
        cases = corpus.cases(settings.seed, size=count)
    generated = time.perf_counter() - started
    rule_sets = list(dict.fromkeys(case.position.rules for case in cases))
    setup = sum(warm_up(rules, settings.time_limit) for rules in rule_sets)
    report = CorpusReport(name, corpus.description, cases, generated, setup, source)
    report.rss_before = memory.current()
    memory.reset()
    results: list[SolveResult] = []
    with FullCollections() as collections:
        for case in cases:
            result, seconds = timed_solve(
                case.position,
                objective="value",
                time_limit=settings.time_limit,
                collections=collections,
            )
            results.append(result)
            report.timings.append(
                Timing(case.name, result.status, result.value, result.tiles, seconds)
            )
    report.peak_rss = memory.peak()
    report.full_collections = collections.count
    report.collection_seconds = collections.seconds
    for case, result in zip(cases, results, strict=True):
        audit(report, case, result, record)
    say(summary_line(report))
    return report


def audit(report: CorpusReport, case: Case, result: SolveResult, record: Record) -> None:
    """Check one answer: legal by the checker, and as recorded if it is proven."""
    if result.played:
        verdict = check(case.position, result.table)
        if not verdict.legal:
            report.illegal.append(f"{case.name}: {'; '.join(verdict.errors)}")
    recorded = record.answers.get(case.name)
    if recorded is not None and result.proven:
        report.compared_answers += 1
        if recorded != (result.value, result.tiles):
            report.mismatches.append(
                f"{case.name}: value {result.value}, {result.tiles} tiles "
                f"(recorded: value {recorded[0]}, {recorded[1]} tiles)"
            )


def compare_corpus(
    report: CorpusReport, peer: peer_module.Peer, settings: Settings, say: Callable[[str], None]
) -> None:
    """Time ours (tiles, free jokers) and the peer on the corpus, position by position."""
    for rules in dict.fromkeys(case.position.rules for case in report.cases):
        if peer_module.unsupported(rules) is None:
            warm_up(rules.replace(joker_lock="free"), settings.time_limit)
            peer.prepare(rules)
    for case in report.cases:
        # Not opened: the peer's initial-meld mode is its own (see benchmarks.peer), so
        # the two would not be solving the same problem.
        if peer_module.unsupported(case.position.rules) or not case.position.opened:
            continue
        # Interleaved, so that both see the same machine state (caches, clock speed).
        ours, ours_seconds = timed_solve(
            free(case.position), objective="tiles", time_limit=settings.time_limit
        )
        try:
            theirs = peer.solve(case.position)
        except Exception as error:  # a peer failure is a finding, not a reason to stop
            report.peer_errors.append(f"{case.name}: {type(error).__name__}: {error}")
            continue
        report.comparisons.append(
            Comparison(case, ours.status, ours.tiles, ours_seconds, theirs.tiles, theirs.seconds)
        )
    say(peer_line(report))
    for failure in report.peer_errors:
        say(f"{report.name:<12} peer failed on {failure}")


def tail_entry(
    report: CorpusReport,
) -> tuple[str, list[tails_module.Timed], list[tails_module.Timed]]:
    """A corpus's timings for the profile of :mod:`benchmarks.tails`: the value objective's,
    and the peer setting's (free jokers) where the peer was compared."""
    value = [
        tails_module.Timed(t.name, case.position, t.seconds)
        for case, t in zip(report.cases, report.timings, strict=True)
    ]
    peer = [
        tails_module.Timed(c.case.name, free(c.case.position), c.ours_seconds)
        for c in report.comparisons
    ]
    return report.name, value, peer


def summary_line(report: CorpusReport) -> str:
    stats = Stats.of([t.seconds for t in report.timings])
    proven = sum(t.proven for t in report.timings) / len(report.timings)
    line = (
        f"{report.name:<12} {len(report.timings):>4} positions  median {ms(stats.median)}  "
        f"p90 {ms(stats.p90)}  p99 {ms(stats.p99)}  max {ms(stats.max)}  proven {proven:.0%}  "
        f"peak RSS {mib(report.peak_rss)}"
    )
    if report.illegal:
        line += f"  ILLEGAL {len(report.illegal)}"
    if report.mismatches:
        line += f"  UNLIKE RECORDED {len(report.mismatches)}"
    return line


def peer_line(report: CorpusReport) -> str:
    if not report.comparisons:
        return f"{report.name:<12} not compared (not opened, or rules the peer does not take)"
    ratio = statistics.median(c.ratio for c in report.comparisons)
    compared = [c for c in report.comparisons if c.comparable]
    differ = sum(not c.agrees for c in compared)
    return (
        f"{report.name:<12} peer/ours median {ratio:.2f}x over {len(report.comparisons)}, "
        f"tile counts differ on {differ} of {len(compared)} opened"
    )


# -- where the time goes ---------------------------------------------------------------

#: The parts of a solve, as (label, function name, file name ending); a part whose
#: function no longer exists is left out of the report.
PHASES = (
    ("the whole `solve` call", "solve", "rummikub/tiles/solver/__init__.py"),
    ("building the model", "__init__", "rummikub/tiles/solver/model.py"),
    (
        "- the base: the template of the jokers in play",
        "_load_base",
        "rummikub/tiles/solver/model.py",
    ),
    ("- bounding the base to the position", "_bind", "rummikub/tiles/solver/model.py"),
    ("-- its copy, loaded with the bounds in place", "load", "rummikub/tiles/solver/template.py"),
    ("- old melds left as they were", "_add_as_was", "rummikub/tiles/solver/model.py"),
    ("- locked melds (fates)", "add", "rummikub/tiles/solver/units.py"),
    ("- the initial meld", "_add_opening_melds", "rummikub/tiles/solver/model.py"),
    ("- objective", "_set_objective", "rummikub/tiles/solver/model.py"),
    ("branch and bound", "branch_and_bound", "rummikub/core/lp/search.py"),
    ("- CLP solves", "Solve", "ortools/linear_solver/pywraplp.py"),
    ("- reading node solutions", "values", "rummikub/core/lp/rows.py"),
    ("the MIP back end (CBC, CP-SAT)", "_solve_mip", "rummikub/tiles/solver/model.py"),
    ("reading the answer back", "_read", "rummikub/tiles/solver/model.py"),
    ("- laying out the new table", "lay_out", "rummikub/tiles/solver/layout.py"),
)
PROFILE_CORPUS = "small"
PROFILE_POSITIONS = 50
PROFILE_QUICK = 10


@dataclass(frozen=True, slots=True)
class Profile:
    corpus: str
    positions: int
    #: Wall time of the same solves without the profiler (median, ms per position).
    plain_median: float
    #: (label, ms per position, share of the whole call) under the profiler.
    phases: list[tuple[str, float, float]]
    #: (function, own ms per position) of the costliest functions by own time.
    hottest: list[tuple[str, float]]


def run_profile(settings: Settings, say: Callable[[str], None]) -> Profile:
    """cProfile over typical small solves: where each millisecond goes."""
    count = PROFILE_QUICK if settings.quick else PROFILE_POSITIONS
    cases = CORPORA[PROFILE_CORPUS].cases(settings.seed, size=count)
    warm_up(cases[0].position.rules, settings.time_limit)
    plain = [
        timed_solve(c.position, objective="value", time_limit=settings.time_limit)[1] for c in cases
    ]
    profiler = cProfile.Profile()
    profiler.enable()
    for case in cases:
        solve(case.position, objective="value", time_limit=settings.time_limit)
    profiler.disable()
    stats: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    per = 1000.0 / len(cases)
    whole = 0.0
    phases: list[tuple[str, float, float]] = []
    for label, function, ending in PHASES:
        matches = [
            entry[3]
            for (file, _, name), entry in stats.items()
            if name == function and file.replace("\\", "/").endswith(ending)
        ]
        if not matches:
            continue
        cumulative = sum(matches) * per
        whole = whole or cumulative
        phases.append((label, cumulative, cumulative / whole if whole else 0.0))
    hottest = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:12]
    named = [
        (f"{Path(file).name}:{line} {name}" if file != "~" else name, entry[2] * per)
        for (file, line, name), entry in hottest
    ]
    profile = Profile(PROFILE_CORPUS, len(cases), statistics.median(plain) * 1000, phases, named)
    say(
        f"{'profile':<12} {len(cases)} {PROFILE_CORPUS} positions, "
        f"{profile.plain_median:.1f} ms median without the profiler"
    )
    return profile


def profile_section(profile: Profile) -> list[str]:
    lines = [
        "## Where the time goes",
        "",
        f"cProfile over the first {profile.positions} `{profile.corpus}` positions (value "
        f"objective), in ms per position. The profiler slows Python calls, so these times "
        f"are inflated against the {profile.plain_median:.1f} ms median the same solves took "
        "without it; the shares are what to read. Parts nest as indented.",
        "",
        "| part | ms per position | share |",
        "|---|---:|---:|",
    ]
    lines += [f"| {label} | {t:.2f} | {share:.0%} |" for label, t, share in profile.phases]
    lines += [
        "",
        "The costliest functions by their own time (without what they call):",
        "",
        "| function | ms per position |",
        "|---|---:|",
    ]
    lines += [f"| `{name}` | {t:.3f} |" for name, t in profile.hottest]
    lines.append("")
    return lines


# -- whole processes -----------------------------------------------------------------


def rummikub_command() -> list[str]:
    """The console script pip wrote for this interpreter (in its own scripts folder, as a
    virtual environment's user runs it), else the one on PATH, else ``python -m rummikub``.

    The interpreter's own first: a version manager puts a shim of its own first on PATH
    (pyenv: a shell script that looks the interpreter up again on every call, ~50 ms a
    process on this machine), a cost of the machine's set-up, not of the program's.
    """
    name = "rummikub.exe" if os.name == "nt" else "rummikub"
    own = Path(sysconfig.get_path("scripts")) / name
    if own.is_file():
        return [str(own)]
    script = shutil.which("rummikub")
    return [script] if script else [sys.executable, "-m", "rummikub"]


def time_process(
    argv: list[str], runs: int, *, ok: tuple[int, ...] = (0,), env: dict[str, str] | None = None
) -> list[float]:
    seconds: list[float] = []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, check=False, env=env)
        seconds.append(time.perf_counter() - started)
        if done.returncode not in ok:
            raise RuntimeError(f"{shlex.join(argv)} exited {done.returncode}: {done.stderr}")
    return seconds


def process_env(cache: str) -> dict[str, str]:
    """The environment of the timed processes: compiled modules cached (in ``cache``), as
    for an installed package, whose ``.pyc`` files pip writes; ``PYTHONDONTWRITEBYTECODE``
    would make every process compile our modules again (reported in its own row)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    return env


#: What one process costs before our code runs, on the same machine: the interpreter alone,
#: with and without ``site`` (the .pth files of the site-packages), and OR-Tools' linear
#: solver module, which every solve imports (and with protobuf's messages, which a solve no
#: longer imports: it reads OR-Tools' messages as bytes, rummikub/core/lp/wire.py).
_PYWRAPLP = "import ortools.linear_solver.pywraplp"
_PROTOBUF = f"{_PYWRAPLP}, ortools.linear_solver.linear_solver_pb2"
FLOORS = (
    ("python -c pass", ["-c", "pass"]),
    ("python -S -c pass", ["-S", "-c", "pass"]),
    (f"python -c '{_PYWRAPLP}'", ["-c", _PYWRAPLP]),
    (f"python -c '{_PROTOBUF}'", ["-c", _PROTOBUF]),
)
#: The floor our cost is judged above (see :func:`cli_floor`).
ORTOOLS_FLOOR = FLOORS[2][0]


def run_cli(settings: Settings, say: Callable[[str], None]) -> list[ProcessTimes]:
    """Whole processes, the commands interleaved run by run (so that load hits each alike),
    after one untimed run of each (which fills the cache of compiled modules)."""
    commands: list[tuple[str, list[str], dict[str, str] | None, bool, str]] = []
    with tempfile.TemporaryDirectory(prefix="rummikub-pycache-") as cache:
        env = process_env(cache)
        ours = [*rummikub_command(), "solve", CLI_PUZZLE]
        commands.append(("rummikub solve " + CLI_PUZZLE, ours, env, False, ""))
        for label, args in FLOORS:
            commands.append((label, [sys.executable, *args], env, True, ""))
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            note = "with PYTHONDONTWRITEBYTECODE set, as here: our modules compiled every time"
            commands.append(("rummikub solve " + CLI_PUZZLE, ours, None, False, note))
        for _, argv, environment, _, _ in commands:
            time_process(argv, 1, env=environment)
        seconds: list[list[float]] = [[] for _ in commands]
        for _ in range(settings.cli_runs):
            for index, (_, argv, environment, _, _) in enumerate(commands):
                seconds[index] += time_process(argv, 1, env=environment)
        # Where the imports go (benchmarks/startup.py): in its own runs, after the timed
        # ones, since -X importtime slows them.
        imports = startup.measure(
            [sys.executable, "-m", "rummikub", "solve", CLI_PUZZLE], env, quick=settings.quick
        )
    found = [
        ProcessTimes(label, times, floor, note)
        for (label, _, _, floor, note), times in zip(commands, seconds, strict=True)
    ]
    if found:
        found[0] = dataclasses.replace(found[0], imports=tuple(imports))
    for times in found:
        say(
            f"{'process':<12} {ms(statistics.median(times.seconds))} median of "
            f"{len(times.seconds)}: {times.command}" + (f" ({times.note})" if times.note else "")
        )
    return found


def cli_floor(processes: Sequence[ProcessTimes]) -> str:
    """Our process's cost above the interpreter and OR-Tools, and whether the target can
    be met at all on this machine."""
    medians = {p.command: statistics.median(p.seconds) for p in processes}
    ours = statistics.median(processes[0].seconds)
    floor = medians.get(ORTOOLS_FLOOR)
    if floor is None:
        return ""
    text = (
        f"Our cost above the interpreter and OR-Tools (`{ORTOOLS_FLOOR}`, {ms(floor)}): "
        f"**{ms(ours - floor)}**; the target of {PROCESS_TARGET:g} s leaves "
        f"{ms(PROCESS_TARGET - floor)} above that floor on this machine."
    )
    if floor >= PROCESS_TARGET:
        text += f" The floor alone is over {PROCESS_TARGET:g} s here: the target cannot be met."
    return text


#: Worker processes of the throughput call: the target is for 2 cores.
THROUGHPUT_JOBS = 2
#: Positions whose phases (read, solve, write) are timed one by one in this process.
PHASE_POSITIONS = 200


def run_throughput(settings: Settings, say: Callable[[str], None]) -> Throughput:
    cases = make_mid(stream(settings.seed, "throughput"), settings.throughput)
    with (
        tempfile.TemporaryDirectory(prefix="rummikub-bench-") as folder,
        tempfile.TemporaryDirectory(prefix="rummikub-pycache-") as cache,
    ):
        files = [Path(folder) / f"{case.name}.toml" for case in cases]
        for case, file in zip(cases, files, strict=True):
            dump(Puzzle(case.name, case.position), file)
        argv = [
            *rummikub_command(),
            "solve",
            folder,
            "--json",
            "--time-limit",
            str(settings.time_limit),
        ]
        env = process_env(cache)
        # Untimed: fills the cache of compiled modules (as for an installed package).
        subprocess.run([*argv[:2], str(files[0])], capture_output=True, env=env, check=False)
        started = time.perf_counter()
        done = subprocess.run(
            [*argv, "--jobs", str(THROUGHPUT_JOBS)],
            capture_output=True,
            text=True,
            check=False,
            env=env,
        )
        wall = time.perf_counter() - started
        started = time.perf_counter()
        serial = subprocess.run(
            [*argv, "--jobs", "1"], capture_output=True, text=True, check=False, env=env
        )
        serial_wall = time.perf_counter() - started
        phases = time_phases(files[:PHASE_POSITIONS], settings.time_limit)
    # Exit 3 means some answer was cut short by the time limit: still a measurement.
    if done.returncode not in (0, 3):
        raise RuntimeError(f"rummikub solve DIR exited {done.returncode}: {done.stderr}")
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if len(answers) != len(cases):
        raise RuntimeError(f"expected {len(cases)} answers, got {len(answers)}")
    statuses: dict[str, int] = {}
    for answer in answers:
        statuses[answer["status"]] = statuses.get(answer["status"], 0) + 1
    command = (
        f"rummikub solve DIR --json --time-limit {settings.time_limit:g} --jobs {THROUGHPUT_JOBS}"
    )
    found = Throughput(
        len(answers),
        command,
        wall,
        sum(a["seconds"] for a in answers),
        statuses,
        serial_seconds=serial_wall,
        same_output=_without_seconds(serial.stdout) == _without_seconds(done.stdout),
        phases=phases,
        phase_positions=min(len(files), PHASE_POSITIONS),
    )
    say(
        f"{'throughput':<12} {found.positions / wall:.1f} positions/s over {found.positions} "
        f"mid positions in one process ({wall:.1f} s; --jobs 1: {serial_wall:.1f} s)"
    )
    return found


def _without_seconds(output: str) -> list[dict[str, Any]]:
    """The JSON answers without their timings, which differ from run to run."""
    answers = [json.loads(line) for line in output.splitlines() if line.strip()]
    for answer in answers:
        answer.pop("seconds", None)
    return answers


def time_phases(files: Sequence[Path], time_limit: float) -> dict[str, float]:
    """Seconds per position (mean) of each phase of ``rummikub solve FILE --json`` done
    here, one position at a time: reading and checking the file, solving (of which
    ``inside``: the solver's own ``seconds``), and making the JSON line."""
    from rummikub.render.data import result_data

    totals = {"read": 0.0, "solve": 0.0, "inside": 0.0, "json": 0.0}
    if not files:
        return totals
    warm_up(load(files[0]).position.rules, time_limit)
    for file in files:
        started = time.perf_counter()
        puzzle = load(file)
        read = time.perf_counter()
        result = solve(puzzle.position, time_limit=time_limit)
        solved = time.perf_counter()
        json.dumps(result_data(result, str(file)))
        written = time.perf_counter()
        totals["read"] += read - started
        totals["solve"] += solved - read
        totals["inside"] += result.seconds
        totals["json"] += written - solved
    return {phase: total / len(files) for phase, total in totals.items()}


# -- the report ------------------------------------------------------------------------


def busy_note(load: float | None) -> str:
    cores = os.cpu_count() or 1
    if load is None or load <= cores:
        return ""
    return f" (above the {cores} cores: other processes shared the machine, times inflated)"


def fmt_load(load: float | None) -> str:
    return "n/a" if load is None else f"{load:.2f}"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def mib(size: int | None) -> str:
    return "n/a" if size is None else f"{size / 2**20:.0f} MiB"


def memory_figure(report: CorpusReport) -> str:
    if report.peak_rss is None or report.rss_before is None:
        return mib(report.peak_rss)
    return f"{mib(report.peak_rss)} (+{mib(max(0, report.peak_rss - report.rss_before))})"


def installed(name: str) -> str:
    try:
        return package_version(name)
    except PackageNotFoundError:
        return "not installed"


def load_average() -> float | None:
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def git_state() -> str:
    """The commit benchmarked, and whether the solver's working tree differs from it (its
    owner edits it concurrently, so a figure must say which code it measured)."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], capture_output=True, text=True, cwd=REPO, check=False)
        return done.stdout.rstrip()  # not strip(): porcelain lines start with a status column

    commit = git("rev-parse", "--short", "HEAD").strip() or "unknown"
    changed = [line[3:] for line in git("status", "--porcelain", "--", "rummikub").splitlines()]
    if not changed:
        return commit
    return f"{commit}, with uncommitted changes to {', '.join(f'`{p}`' for p in changed)}"


def describe_position(position: Position) -> str:
    table = " | ".join(str(meld) for meld in position.table) or "(empty)"
    return f"table: {table}; rack: {format_tiles(position.rack_sorted())}"


def markdown(
    settings: Settings,
    reports: list[CorpusReport],
    processes: list[ProcessTimes],
    throughput: Throughput | None,
    memory: PeakMemory,
    peer: peer_module.Peer | None,
    probes: list[Comparison],
    profile: Profile | None = None,
) -> str:
    if peer is not None:
        backend = (
            f"backend {peer.backend}, cvxpy {installed('cvxpy-base')}, scipy {installed('scipy')}"
        )
        peer_version = f"{installed('rummikub-solver')} ({backend})"
    elif settings.peer:
        peer_version = installed("rummikub-solver")
    else:
        peer_version = f"{installed('rummikub-solver')} (not compared in this run)"
    lines = [
        "# Benchmarks",
        "",
        "Written by `python -m benchmarks`; rerun it to refresh every figure here.",
        "",
        "## Machine and versions",
        "",
        f"- date: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- command: `{settings.command}`",
        f"- cpu: {cpu_model()}, {os.cpu_count()} cores; {platform.system()} {platform.release()}",
        f"- load average (1 min): {fmt_load(settings.load)} at the start, "
        f"{fmt_load(load_average())} at the end" + busy_note(settings.load),
        f"- python {platform.python_version()}, ortools {installed('ortools')}, "
        f"rummikub {rummikub.__version__} at {git_state()}",
        f"- rummikub-solver {peer_version}",
        f"- seed {settings.seed}, time limit {settings.time_limit:g} s per solve"
        + (", quick run (a few positions per corpus)" if settings.quick else ""),
        "",
    ]
    lines += targets_section(reports, processes, throughput)
    if reports:
        lines += [
            "## Time to a proven optimum (value objective, each corpus's own rules)",
            "",
            "In-process wall time of one `rummikub.tiles.solver.solve` call. "
            "An answer the time limit "
            "cut short counts at the time it took (a lower bound) and is not proven. "
            f"Memory: {memory.method}, and in brackets its rise over the RSS before the corpus "
            "(the process keeps what earlier corpora loaded). Warm-up: untimed one-tile "
            "solves under each rule set not yet met in this process (they build the rule "
            "set's candidate melds; the first also pays the solver's imports). Full GCs: "
            "full (generation 2) garbage collections that ran inside the timed solves, and "
            "the time they took.",
            "",
            "| corpus | positions | table tiles | rack tiles | opened | median | p90 | p99 | max "
            "| proven | peak RSS | full GCs in solves | warm-up |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for report in reports:
            stats = Stats.of([t.seconds for t in report.timings])
            proven = sum(t.proven for t in report.timings) / len(report.timings)
            positions = [case.position for case in report.cases]
            tables = [sum(len(m.tiles) for m in p.table) for p in positions]
            racks = [len(p.rack) for p in positions]
            opened = sum(p.opened for p in positions) / len(positions)
            lines.append(
                f"| {report.name} | {len(report.timings)} | {span(tables)} | {span(racks)} "
                f"| {opened:.0%} | {ms(stats.median)} | {ms(stats.p90)} | {ms(stats.p99)} "
                f"| {ms(stats.max)} "
                f"| {proven:.0%} | {memory_figure(report)} "
                f"| {report.full_collections} ({ms(report.collection_seconds)}) "
                f"| {ms(report.setup_seconds)} |"
            )
        lines += ["", "Corpora:", ""]
        lines += [
            f"- `{r.name}`: {r.description}"
            + ("." if r.source == "generated" else f"; {r.source}.")
            for r in reports
        ]
        lines.append("")
        lines += checks_section(reports, settings.seed)
        slowest = sorted(
            (t for r in reports for t in r.timings), key=lambda t: t.seconds, reverse=True
        )[:5]
        lines += [
            "Slowest positions: " + ", ".join(f"`{t.name}` {ms(t.seconds)}" for t in slowest) + ".",
            "",
        ]
    compared = [r for r in reports if r.comparisons or r.peer_errors]
    if compared and peer is not None:
        lines += peer_section(compared, peer, probes)
    if profile is not None:
        lines += profile_section(profile)
    if processes:
        lines += [
            "## One whole process",
            "",
            f"Wall time of a fresh process solving `{CLI_PUZZLE}` (start-up, imports, reading, "
            f"solving, printing), median of {len(processes[0].seconds)} runs, and the floors "
            "on the same machine: the interpreter alone (`-S`: without `site`, which runs the "
            ".pth files of the site-packages) and OR-Tools' solver module, alone and with "
            "protobuf's messages (which a solve does not import). The commands take turns run "
            "by run, after one untimed run each; compiled modules are cached, as for an "
            "installed package.",
            "",
            "| command | median | min | max |",
            "|---|---:|---:|---:|",
        ]
        for times in processes:
            shown = f"floor: `{times.command}`" if times.floor else f"`{times.command}`"
            shown += f" ({times.note})" if times.note else ""
            lines.append(
                f"| {shown} | {ms(statistics.median(times.seconds))} "
                f"| {ms(min(times.seconds))} | {ms(max(times.seconds))} |"
            )
        lines.append("")
        floor_text = cli_floor(processes)
        if floor_text:
            lines += [floor_text, ""]
        lines += startup.markdown(f"python -m rummikub solve {CLI_PUZZLE}", processes[0].imports)
    if throughput is not None:
        statuses = ", ".join(f"{n} {s}" for s, n in sorted(throughput.statuses.items()))
        lines += [
            "## Throughput",
            "",
            f"{throughput.positions} `mid` positions written as puzzle files to a temporary "
            f"folder and solved by one `{throughput.command}` call: "
            f"**{throughput.positions / throughput.wall_seconds:.1f} positions/s** "
            f"({throughput.wall_seconds:.1f} s for the process; "
            f"{throughput.inside_seconds:.1f} s of it solving, by the `seconds` of the JSON "
            f"answers). Answers: {statuses}.",
            "",
        ]
        lines += throughput_breakdown(throughput)
    return "\n".join(lines).rstrip() + "\n"


def throughput_breakdown(throughput: Throughput) -> list[str]:
    """Where the throughput call's time goes."""
    lines: list[str] = []
    rate = throughput.positions / throughput.wall_seconds
    if throughput.serial_seconds is not None:
        speed_up = throughput.serial_seconds / throughput.wall_seconds
        same = {True: "byte for byte the same answers", False: "**different answers**"}
        lines.append(
            f"The same folder with `--jobs 1`: {throughput.serial_seconds:.1f} s "
            f"({throughput.positions / throughput.serial_seconds:.1f} positions/s; "
            f"{THROUGHPUT_JOBS} jobs are {speed_up:.2f}x "
            f"faster), {same.get(throughput.same_output, 'not compared')} (timings aside)."
        )
        lines.append("")
    phases = throughput.phases
    if phases:
        per = sum(phases[p] for p in ("read", "solve", "json"))
        lines.append(
            f"Where one position's time goes (in one process, mean over the first "
            f"{throughput.phase_positions}): reading and checking the file "
            f"{ms(phases['read'])}, solving {ms(phases['solve'])} (of which "
            f"{ms(phases['inside'])} inside the solver's own `seconds`), the JSON line "
            f"{ms(phases['json'])}: {ms(per)} in all, so {THROUGHPUT_JOBS} cores at best "
            f"{THROUGHPUT_JOBS / per:.0f} positions/s; the call reached {rate:.0f} (the rest: "
            "starting the processes and their imports, each worker's first solve of a rule "
            "set, passing the answers back in order, and other load on the machine)."
        )
    return [*lines, ""] if lines else []


#: The speed targets of issue 10. Every corpus of the standard box (13x4x2+2J, any
#: rules) but the not-opened one with jokers: p99 and max; ``late`` also a median.
STANDARD_TAIL = (0.030, 0.100)
MEDIAN_TARGETS = {"late": 0.005}
#: (max seconds, peak RSS bytes) per corpus.
BOUNDED = {
    "full-box": (0.5, 300 * 2**20),
    "not-opened-jokers": (1.0, 300 * 2**20),
    "largest-box": (1.0, 300 * 2**20),
}
PEER_TARGET = 10.0
PROCESS_TARGET = 0.15
THROUGHPUT_TARGET = 400.0
GENERALISED_TARGET = 10.0  # "proven optimal in seconds"


def standard_box(rules: Rules) -> bool:
    return (rules.numbers, len(rules.colors), rules.copies, rules.jokers) == (13, 4, 2, 2)


def targets_section(
    reports: list[CorpusReport], processes: list[ProcessTimes], throughput: Throughput | None
) -> list[str]:
    """Each speed target with the figure of this run, met or not."""
    rows: list[tuple[str, str, bool]] = []
    for report in reports:
        if not report.timings:
            continue
        stats = Stats.of([t.seconds for t in report.timings])
        proven = all(t.proven for t in report.timings)
        all_proven = "all proven" if proven else "**not all proven**"
        name = report.name
        if name in BOUNDED:
            most, memory = BOUNDED[name]
            peak = report.peak_rss
            rows.append(
                (
                    f"`{name}`: max <= {ms(most)}, peak memory <= {mib(memory)}, all proven",
                    f"max {ms(stats.max)}, peak RSS {mib(peak)}, {all_proven}",
                    stats.max <= most and (peak is None or peak <= memory) and proven,
                )
            )
        elif all(standard_box(case.position.rules) for case in report.cases):
            p99, most = STANDARD_TAIL
            median = MEDIAN_TARGETS.get(name)
            wanted = f"median <= {ms(median)}, " if median is not None else ""
            rows.append(
                (
                    f"`{name}`: {wanted}p99 <= {ms(p99)}, max <= {ms(most)}, all proven",
                    f"median {ms(stats.median)}, p99 {ms(stats.p99)}, max {ms(stats.max)}, "
                    + all_proven,
                    (median is None or stats.median <= median)
                    and stats.p99 <= p99
                    and stats.max <= most
                    and proven,
                )
            )
        elif name == "generalised":
            rows.append(
                (
                    f"`generalised` (26x8x4+4J): proven optimal in seconds (max <= "
                    f"{GENERALISED_TARGET:g} s)",
                    f"max {ms(stats.max)}, {all_proven}",
                    stats.max <= GENERALISED_TARGET and proven,
                )
            )
    for report in reports:
        if report.comparisons:
            ratio = Stats.of([c.ratio for c in report.comparisons]).median
            rows.append(
                (
                    f"`{report.name}`: >= {PEER_TARGET:g}x the peer's speed (median of "
                    "per-position ratios)",
                    f"{ratio:.1f}x",
                    ratio >= PEER_TARGET,
                )
            )
    for times in processes[:1]:
        median = statistics.median(times.seconds)
        rows.append(
            (
                f"one `rummikub solve puzzle.toml` process <= {PROCESS_TARGET:g} s",
                ms(median),
                median <= PROCESS_TARGET,
            )
        )
    if throughput is not None:
        rate = throughput.positions / throughput.wall_seconds
        rows.append(
            (
                f"a folder of {throughput.positions} mid positions in one call >= "
                f"{THROUGHPUT_TARGET:g} positions/s",
                f"{rate:.0f} positions/s",
                rate >= THROUGHPUT_TARGET,
            )
        )
    if not rows:
        return []
    lines = [
        "## Targets",
        "",
        "| target | this run | met |",
        "|---|---|---|",
    ]
    lines += [
        f"| {target} | {figure} | {'yes' if met else '**no**'} |" for target, figure, met in rows
    ]
    lines += ["", *MISSED_NOTE, ""] if not all(met for _, _, met in rows) else [""]
    lines += [*LEVERS, ""]
    return lines


#: What stands in the way of the targets that this machine misses (see docs/performance.md).
MISSED_NOTE = [
    "What stands in the way where a target is missed (issue 10), as measured on 2026-12-01 (the",
    "profile of each corpus is *Where the time goes, corpus by corpus* below):",
    "",
    "- **Peer ratios of the standard box** (`small` ~6-6.5x; `game`, `presets` ~8.5-9.5x;",
    "  `mid` and `late` at the line, 9.1-10.5x from run to run; `hard`, `rack-jokers` 14-15x):",
    "  the peer's times are fixed, so 10x on",
    "  `small` means ~1.3 ms a solve (ours ~2.1 ms of CPU). Of a small solve in the peer's",
    "  setting, building is ~0.95 ms (its live copy 0.49: CLP's load 0.19, our Python 0.30; old",
    "  melds, run-flow limits, objective ~0.25), the branch and bound ~0.70 ms (CLP 0.57 for",
    "  ~1.5 LPs; the first, ~30 dual iterations from scratch, ~0.25-0.3 ms; a warm re-solve",
    "  ~0.05 ms), reading back ~0.2 ms, the rest ~0.25 ms: 10x needs nearly all of the ~1.3 ms",
    "  of Python gone. A live copy (only the variables a position can use) wins below 35% of",
    "  the template's variables and is neutral above; CLP's primal, presolve, GLOP and one CLP",
    "  model kept alive per rule set (its basis would carry over between positions, against",
    "  the determinism contract) were measured and not adopted. On `game`, `mid` and `presets`",
    "  half of a typical solve is CLP (2-3 LPs), so the last 10-15% has to come from fewer LP",
    "  solves; the root LP of a `late` median position alone is ~107 dual iterations, ~2.2 ms.",
    "- **The `late` median** (5 ms; 5.5-6.4 ms from run to run): the same fixed cost (building",
    "  ~1/3, CLP ~1/3). **Tails at the line on a noisy machine** (`late` and `hard` p99 24-34",
    "  ms from run to run, met in some): the slowest positions spend 60-75%",
    "  in the branch and bound, 14-24 LP solves; given the optimum in advance, hard-027 and",
    "  hard-054 prove in 3 and 5 nodes instead of 24 and 27, so the search's time goes into",
    "  finding the best table (a long dive), not into the bound. Gomory cuts of our own (exact",
    "  integers; measured, not kept) close most root gaps (mid-031: 48 -> 1 node) but cost",
    "  15-30 ms of Python per position; a primal heuristic that finds the optimum early, or",
    "  cuts in compiled code, is what is left.",
    "- **8-color boxes** (`full-box` ~4.5-5x, `generalised` ~6x the peer; `full-box`'s max",
    "  415-530 ms from run to run against 0.5 s, its slowest being `full-box-001`, whose",
    "  value-level gap the cuts below do not close): no position goes to",
    "  CBC any more in the peer's setting, but a position takes 13-43 LP solves of 2-3 ms",
    "  (~0.7 ms of each fixed inside pywraplp/CLP), where given the optimum 1-27 (median ~7)",
    "  would prove it: again the finding, not the bound. The root bound sits 0.75-3.5 kept",
    "  melds too high; zero-half cuts close the kept-melds gaps but not the value level's.",
    "- **One process** (0.15 s): the floor is `import ortools.linear_solver.pywraplp` (~105-150",
    "  ms here, the dynamic loading of ~100 absl and COIN libraries) and the interpreter with",
    "  this machine's `site` (~45 ms of it). Above the floor we are at ~45-55 ms: click ~21-25",
    "  ms (its `uuid` -> `platform` regexes alone ~3.8 ms), our imports ~15 ms (10 public",
    "  dataclasses ~5 ms: `Tile`, `Meld`, `Rules`, `Position`, `SolveResult`, the puzzle",
    "  records), tomllib ~1.5 ms, the first solve ~6 ms (candidate groups ~1.2, template",
    "  ~1.5, the CLP solve), reading and printing ~2 ms. See the imports table under *One",
    "  whole process*.",
    "- **Throughput** (400 positions/s on 2 cores means 2.5 s for the 1,000): start-up is ~0.3",
    "  s (the main process's imports and fork), the rest of a position ~0.5 ms idle (reading",
    "  0.25, the position 0.3, the JSON line 0.25 ms, under load), and the solve ~88% of each",
    "  worker's time (~4.7 ms idle): the solve has to reach ~3.9 ms per `mid` position.",
]

#: Levers measured, before and after (each A/B run alternately, position by position or
#: run by run, on the loaded machine; figures as medians and ratios), newest first.
LEVERS = [
    "Levers measured (issue 10), before -> after; this session's first (old code and new in",
    "worker processes taking turns position by position, best of 3, unless said):",
    "",
    "- A small position's model holds only the template's variables it can use and the rows",
    "  they enter (`Template.load_live`, where they are at most 35% of the template's):",
    "  loading 0.36 -> 0.14 ms, the first LP 0.47 -> 0.28 ms; against main with it off (CPU,",
    "  load 2-4): `small` 0.86x in the peer's setting (2.31 -> 1.99 ms), 0.90x with the value",
    "  objective; `game`, `mid`, `presets` 1.00-1.03x (so it is used on small models only).",
    "- Branching first on the number of groups laid of a number (its aggregate made when first",
    "  branched on) while a played tile is fractional: nodes over `mid` + `hard` + `late` +",
    "  `rack-jokers` (500 positions) 2,666 -> 2,577, the most for one 49 -> 39 (`mid` 432 -> 342,",
    "  48 -> 17); `mid` p99 25.4 -> 15.9 ms, max 34.9 -> 17.1 ms.",
    "- 8-color boxes: what the first 50 nodes leave open gets zero-half cuts at the root",
    "  (`solver/zero_half.py`, each cut rebuilt in exact integers), then a second search of up",
    "  to 100 nodes, before CBC: CBC hand-overs in the peer's setting 6 -> 0 of 16 positions;",
    "  `full-box` (tiles, free jokers) max 412 -> 224 ms, `generalised` max 700 -> 260 ms;",
    "  with the value objective `full-box-002` 308 -> 194 and `-005` 266 -> 130 ms, but",
    "  `full-box-001` 259 -> 405 ms and `-009` 144 -> 233 ms, whose value-level gaps the cuts",
    "  do not close (quiet machine, against the session's start). Cuts before the first",
    "  search (1.26x), heavier rounds, dives and CBC options (pywraplp sets only the gap, time",
    "  and threads) were slower or not possible.",
    "- A rule set's template written straight as its records (`solver/records.py`, the same",
    "  bytes as pywraplp's export): building the standard box's 7.5-12 -> 2.3 ms, its rows from",
    "  a table of varints 1.5 -> 0.6 ms; CLP models made by solver type, not by name (the first",
    '  `CreateSolver("CLP")` of a process costs ~1.4 ms); the solver\'s 13 internal records named',
    "  tuples or classes with slots, not dataclasses (~0.5 ms each to make on 3.11): importing",
    "  the solve path 132 -> 102 ms (load ~4); the command line's process ends with `os._exit`",
    "  once its output is flushed (teardown 19.0 -> 7.7 ms); a text solve of a TOML file no",
    "  longer imports json. Whole process, 31 alternating runs (load ~0.8): median 237.9 ->",
    "  216.2 ms (0.88x per run), our cost above the OR-Tools floor 92.9 -> 71.2 ms.",
    "- Folder solve: glibc's trim and mmap thresholds at 32 MiB before the workers fork (page",
    "  faults 47-80k -> 17k per 1,000 positions), table melds read once per rule set and text",
    "  (reading a file 521 -> 325 us), chunks of up to 16 puzzles shrinking to one at the end",
    "  and answers written a batch at a time, the collector every 50,000 allocations in a",
    "  folder's workers (its time ~75 -> 20 ms per 1,000), the solver's modules imported before",
    "  the fork (a worker's first puzzle 95-117 -> 22-36 ms of CPU): 1,000 `mid` files with",
    "  `--jobs 2`, 5 alternating runs (load 1.5-1.9): 4.19 -> 3.87 s (0.88x per run), CPU of",
    "  all processes 8.11 -> 7.08 s; `--jobs 1` 8.37 -> 6.34 s; the same bytes either way.",
    "",
    "Earlier sessions:",
    "",
    "- Opening cores with jokers enumerate only kept melds that the tiles in play can lay,",
    "  uncached (they went through `locks.fates`, which also built every release and kept",
    "  up to 4,096 tuples): on `not-opened-jokers` positions, old code then new, alternately",
    "  (load ~9): 2 jokers 6.1 s -> 2.9 s (2.1x), 26x8 box with 3 jokers 22.8 s -> 8.1 s",
    "  (2.8x, peak RSS 198 -> 128 MiB), 4 jokers 44.1 s -> 12.0 s (3.7x, 424 -> 233 MiB);",
    "  `Fate` objects built for that 4-joker position: 276,763 -> 23,194.",
    "- No garbage collection inside a solve (the collector paused and resumed): the",
    "  `not-opened-jokers` quick run before it had 6 full collections inside 2 solves taking",
    "  3.5 s together; the column *full GCs in solves* above is now 0 by construction.",
    "- The search's budget is work, not time (determinism): no speed change intended; the",
    "  8-color models now reach CBC after ~14 nodes instead of after 60 ms.",
    "- Commands imported only when run: one `rummikub solve` imports 231 modules instead of",
    "  248; 7 alternate runs each (load ~9): median 2.80 s -> 2.39 s (1.23x).",
    "- HiGHS instead of CBC for what the branch and bound leaves open: not adopted (above).",
    "- One `rummikub solve` imports only what solving needs (not the card rummies, the",
    "  explanations, `render.svg` with the XML escaping that pulls in urllib and http, nor",
    "  rich), the command line's records are named tuples, and its objects are frozen before",
    "  the interpreter's last garbage collection: the code of the session's start, then the",
    "  new, alternately (21 runs each, load ~5, compiled modules cached): CPU median 244 ms",
    "  -> 176 ms, wall 620 ms -> 443 ms (0.70x, median of per-run ratios); with",
    "  PYTHONDONTWRITEBYTECODE set as in this environment, CPU 322 ms -> 232 ms (0.73x).",
    "- A folder solve reads each file once (card puzzles are told by the data: every file",
    "  was parsed twice), the reader vouches for the positions it built (the solver checked",
    "  each one again) and a tile word is read once per rule set: per position, in one",
    "  process (CPU, load ~5.5), reading 0.80 -> 0.62 ms and the solve's own check (~0.3 ms)",
    "  gone; the 1,000-position `--jobs 2` call, before the solver changes of this session,",
    "  7.6 s -> 7.2 s of CPU (0.94x). The rest of a position is the solver's (~5 ms).",
    "- The standard box's per-position cost (a template per number of jokers in play, its",
    "  copy loaded with the position's bounds already in place, a run flow freed only where a",
    "  window of the position's tiles can hold a run, old melds counted by their own columns,",
    "  results read back by index; depth first to a first answer, then best bound first, 200",
    "  nodes): old code, new code and the peer in worker processes taking turns position by",
    "  position (load 1.3-1.8), new/old medians of per-position ratios: `small` 0.70x (3.72 ->",
    "  2.59 ms), `game` 0.74x, `late` 0.75x (p99 110 -> 46 ms), `rack-jokers` 0.81x (max 139",
    "  -> 36 ms); branch-and-bound nodes over `late` + `rack-jokers` 3,276 and 3 hand-overs to",
    "  CBC -> 2,613 and none.",
    "- Groups counted by number in boxes of more than four colors (`solver/group_counts.py`,",
    "  ~1,100 columns instead of ~4,300, a template again): old and new alternately (load",
    "  4-4.5): `full-box` 0.19x (median 1.15 s -> 0.26 s, max 2.04 -> 0.47 s), `generalised`",
    "  0.24x; peak RSS 115-122 -> 64-70 MiB.",
    "- Not opened with jokers, solved by relaxations first (the position as if opened, proven",
    "  by an initial meld among the tiles it plays; then the opening's jokers as free tiles;",
    "  the exact model last) and hand melds listed from the rack rather than the box: old and",
    "  new alternately (load 2.3) on `not-opened-jokers`: 0.052x (median 483 -> 15.8 ms, max",
    "  2.05 s -> 0.26 s, peak RSS 420 -> 145 MiB); `initial` 0.99x.",
]


def checks_section(reports: list[CorpusReport], seed: int) -> list[str]:
    moves = sum(t.tiles > 0 for r in reports for t in r.timings)
    illegal = [item for r in reports for item in r.illegal]
    mismatches = [item for r in reports for item in r.mismatches]
    compared = sum(r.compared_answers for r in reports)
    record = path_for(seed).relative_to(REPO)
    lines = [
        f"Checks (untimed): the checker (`rummikub.tiles.checker.check`) judged every answer that "
        f"plays tiles: **{moves - len(illegal)} of {moves} legal**. "
        + (
            f"Proven answers against the record `{record}`: **{compared - len(mismatches)} of "
            f"{compared} equal** in value and tiles."
            if compared
            else f"No recorded answers to compare with (`{record}`; `--record` writes it)."
        ),
        "",
    ]
    for title, items in (("Illegal answers", illegal), ("Unlike the record", mismatches)):
        if items:
            lines += [f"{title} ({len(items)}):", ""]
            lines += [f"- {item}" for item in items[:20]]
            lines.append("")
    return lines


def peer_section(
    reports: list[CorpusReport], peer: peer_module.Peer, probes: list[Comparison]
) -> list[str]:
    lines = [
        "## Side by side with rummikub-solver",
        "",
        'The same positions in the same run: ours with `objective="tiles"` and '
        '`joker_lock="free"`, the peer in its tile-count mode (it has no joker lock, and its '
        "value mode is broken), each timed in-process around one solve, interleaved position "
        "by position (ours, then the peer, then the next position), so that machine load "
        "hits both alike; the ratio is the median of the per-position ratios. A player not "
        "yet opened is left out: the peer's initial-meld mode is its own (opening melds "
        "first, then a second solve), not RULES.md's. Tile counts are compared on positions "
        "whose answer we proved.",
        "",
        "| corpus | positions | ours median | peer median | peer/ours median | peer/ours p90 "
        "| compared | tile counts differ | peer fewer | peer more |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for report in reports:
        comparisons = report.comparisons
        if not comparisons:
            lines.append(f"| {report.name} | 0 | | | | | | | | |")
            continue
        ratios = Stats.of([c.ratio for c in comparisons])
        compared = [c for c in comparisons if c.comparable]
        differ = [c for c in compared if not c.agrees]
        fewer = sum(c.peer_tiles < c.ours_tiles for c in differ)
        lines.append(
            f"| {report.name} | {len(comparisons)} "
            f"| {ms(statistics.median(c.ours_seconds for c in comparisons))} "
            f"| {ms(statistics.median(c.peer_seconds for c in comparisons))} "
            f"| {ratios.median:.2f}x | {ratios.p90:.2f}x | {len(compared)} | {len(differ)} "
            f"| {fewer} | {len(differ) - fewer} |"
        )
    setup = ", ".join(f"{box} {ms(seconds)}" for box, seconds in peer.setup.items())
    lines += [
        "",
        f"The peer's one-time set-up (building its models per box), not in the times: {setup}.",
        "",
    ]
    if probes:
        lines += [
            "Probes, solved in this run (opened, empty table): where the peer's candidate "
            "sets have gaps. Its runs of 4-5 tiles hold jokers only inside, never at an end, "
            "and its groups hold jokers only when 3 tiles long.",
            "",
            "| rack | ours (tiles) | peer (tiles) |",
            "|---|---:|---:|",
        ]
        for probe in probes:
            rack = format_tiles(probe.case.position.rack)
            lines.append(f"| `{rack}` | {probe.ours_tiles} | {probe.peer_tiles} |")
        lines.append("")
    errors = [error for r in reports for error in r.peer_errors]
    if errors:
        lines += [f"The peer failed on {len(errors)} positions:", ""]
        lines += [f"- {error}" for error in errors[:10]]
        lines.append("")
    differ = [c for r in reports for c in r.comparisons if not c.agrees]
    if differ:
        shown = sorted(differ, key=lambda c: len(c.case.position.rack))[:10]
        lines += [
            f"Positions where the tile counts differ ({len(differ)}; "
            f"up to 10 with the smallest racks):",
            "",
        ]
        for c in shown:
            lines.append(
                f"- `{c.case.name}`: ours {c.ours_tiles}, peer {c.peer_tiles}; "
                f"{describe_position(c.case.position)}"
            )
        lines.append("")
    return lines


def span(values: Sequence[int]) -> str:
    return f"{min(values)}-{max(values)}" if min(values) != max(values) else str(values[0])


#: Tiny positions on which the peer's candidate sets fall short (see ``peer_section``).
PROBE_RACKS = ("R5 R6 R7 J", "K5 R5 B5 J", "R5 R6 R7 R8 J")


def run_probes(peer: peer_module.Peer, time_limit: float) -> list[Comparison]:
    found: list[Comparison] = []
    for index, rack in enumerate(PROBE_RACKS):
        position = Position.parse(rack=rack)
        ours, seconds = timed_solve(free(position), objective="tiles", time_limit=time_limit)
        theirs = peer.solve(position)
        case = Case(f"probe-{index}", position)
        found.append(
            Comparison(case, ours.status, ours.tiles, seconds, theirs.tiles, theirs.seconds)
        )
    return found


# -- entry point -------------------------------------------------------------------------


def save_record(record: Record, reports: list[CorpusReport], seed: int) -> None:
    """Keep this run's games and proven answers (older answers of corpora not run stay)."""
    for report in reports:
        if report.name in SIMULATED:
            record.keep(report.name, report.cases)
        for timing in report.timings:
            if timing.proven:
                record.answers[timing.name] = (timing.value, timing.tiles)
    record.save(path_for(seed), seed)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Time the solver to a proven optimum on seeded corpora, side by side "
        "with rummikub-solver, and write benchmarks/RESULTS.md.",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a few positions per corpus (a smoke test); writes no report unless --out is given",
    )
    parser.add_argument(
        "--corpus",
        action="append",
        choices=SECTIONS,
        metavar="NAME",
        help=f"run only this part (repeatable): {', '.join(SECTIONS)}",
    )
    parser.add_argument("--seed", type=int, default=1, help="the corpora's seed (default 1)")
    parser.add_argument("--no-peer", action="store_true", help="skip rummikub-solver")
    parser.add_argument(
        "--out", type=Path, help="the report to write (default benchmarks/RESULTS.md)"
    )
    parser.add_argument(
        "--record",
        action="store_true",
        help="simulate the game corpus afresh and record it, with every proven answer, in "
        "benchmarks/data/seed-SEED.json (later runs read the games from there and compare "
        "their answers)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="stop each solve after this long (default 30); it is then unproven",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None, say: Callable[[str], None] = print) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(args_list)
    if args.record and args.quick:
        say("--record takes a full run, not --quick")
        return 2
    sections = tuple(args.corpus or SECTIONS)
    settings = Settings(
        seed=args.seed,
        quick=args.quick,
        peer=not args.no_peer and peer_module.version() is not None,
        time_limit=args.time_limit,
        sections=sections,
        cli_runs=2 if args.quick else 11,
        throughput=10 if args.quick else 1000,
        command=shlex.join(["python", "-m", "benchmarks", *args_list]),
        load=load_average(),
        record=args.record,
    )
    if not args.no_peer and not settings.peer:
        say("rummikub-solver is not installed (pip install '.[bench]'): no side by side")
    memory = PeakMemory()
    # Ours first on every corpus, the peer after: its imports and models (cvxpy, SciPy)
    # would otherwise sit in our memory figures.
    record = Record.load(path_for(settings.seed))
    reports = [
        run_corpus(name, settings, memory, say, record) for name in CORPORA if name in sections
    ]
    if settings.record:
        save_record(record, reports, settings.seed)
        say(f"recorded {path_for(settings.seed).relative_to(REPO)}")
    peer = peer_module.Peer() if settings.peer and reports else None
    if peer is not None:
        for report in reports:
            compare_corpus(report, peer, settings, say)
    probes = run_probes(peer, settings.time_limit) if peer and reports else []
    profile = run_profile(settings, say) if "profile" in sections else None
    tails = (
        tails_module.run(
            [tail_entry(report) for report in reports],
            quick=settings.quick,
            time_limit=settings.time_limit,
            say=say,
        )
        if "tails" in sections
        else []
    )
    processes = run_cli(settings, say) if "cli" in sections else []
    throughput = run_throughput(settings, say) if "throughput" in sections else None
    analysis = (
        analysis_module.run(settings.seed, settings.quick, say) if "analysis" in sections else []
    )
    checks = checker_bench.run(settings.seed, settings.quick, say) if "checker" in sections else []
    # The card rummies: their own corpus and section (benchmarks/cards.py).
    cards = card_bench.run(settings.seed, settings.quick, say) if "cards" in sections else []
    out = args.out if args.out is not None else (None if args.quick else DEFAULT_OUT)
    if out is not None:
        text = markdown(settings, reports, processes, throughput, memory, peer, probes, profile)
        text += tails_module.markdown(tails)
        text += analysis_module.markdown(analysis)
        text += checker_bench.markdown(checks)
        out.write_text(text + ("\n" + card_bench.markdown(cards, settings.seed) if cards else ""))
        say(f"wrote {out}")
    return 0
