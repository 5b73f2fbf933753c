"""Where the time goes, corpus by corpus: the profile behind each speed target.

Issue 10 asks, for a target a run misses, for its figure, its profile and what stands in
the way. The figures are the corpus tables; this module is the profile. For every corpus
timed in the run it profiles (cProfile) two sets of positions, the ones each kind of
target judges:

- the **slowest** positions of the value objective (what p99 and max judge), and
- the **typical** positions of the peer's setting (tiles objective, free jokers: what the
  median of per-position ratios judges), the ones nearest the median time.

Each row splits the solve into its parts (building the model, the branch and bound with
its CLP solves, the MIP back end, reading the answer back) and counts the work the search
did: LP solves and hand-overs to the MIP back end per position, counts that do not depend
on the machine's speed. The profiler slows Python calls, so the shares are what to read;
the plain times beside them are the positions' times in the run itself.
"""

from __future__ import annotations

import cProfile
import pstats
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.tiles.position import Position
from rummikub.tiles.solver import solve

#: Positions profiled per set (the slowest, the typical): enough to show the pattern,
#: few enough that a full-box corpus costs seconds.
POSITIONS = 10
QUICK_POSITIONS = 1

#: The parts of a solve as (label, function name, file name ending, the file its callers
#: must be in or None). "build" counts every model a solve builds (a not-opened position
#: may build several); "clp" only the LP solves the branch and bound asks for (the live
#: model's ``solve``, which the cuts and LP bounds call too).
PARTS = (
    ("whole", "solve", "rummikub/tiles/solver/__init__.py", None),
    ("build", "__init__", "rummikub/tiles/solver/model.py", None),
    ("search", "branch_and_bound", "rummikub/core/lp/search.py", None),
    ("clp", "solve", "rummikub/core/lp/rows.py", "rummikub/core/lp/search.py"),
    ("mip", "_solve_mip", "rummikub/tiles/solver/model.py", None),
    ("read", "_read", "rummikub/tiles/solver/model.py", None),
)


@dataclass(frozen=True, slots=True)
class Timed:
    """One position and the wall time the run measured for it."""

    name: str
    position: Position
    seconds: float


@dataclass(frozen=True, slots=True)
class TailProfile:
    corpus: str
    #: Which positions: "slowest" (value objective) or "typical" (the peer's setting).
    which: str
    objective: str
    #: The positions profiled and their plain times in the run (seconds).
    names: tuple[str, ...]
    plain: tuple[float, ...]
    #: Per part of PARTS: cumulative ms per position under the profiler.
    ms: dict[str, float]
    #: LP solves of the branch and bound, and hand-overs to the MIP back end, per position.
    lp_solves: float
    mip_calls: float


def slowest(timed: Sequence[Timed], count: int) -> list[Timed]:
    """The ``count`` slowest positions, slowest first (ties by name: deterministic)."""
    return sorted(timed, key=lambda t: (-t.seconds, t.name))[:count]


def typical(timed: Sequence[Timed], count: int) -> list[Timed]:
    """The ``count`` positions whose times lie nearest the median."""
    if not timed:
        return []
    middle = statistics.median(t.seconds for t in timed)
    return sorted(timed, key=lambda t: (abs(t.seconds - middle), t.name))[:count]


def profile(
    corpus: str,
    which: str,
    chosen: Sequence[Timed],
    *,
    objective: str,
    time_limit: float,
) -> TailProfile:
    """cProfile the solves of ``chosen`` (each once, after the run has warmed them up)."""
    profiler = cProfile.Profile()
    profiler.enable()
    for timed in chosen:
        solve(
            timed.position,
            objective="tiles" if objective == "tiles" else "value",
            time_limit=time_limit,
        )
    profiler.disable()
    stats: dict[Any, Any] = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    per = 1.0 / len(chosen)
    cumulative: dict[str, float] = {}
    calls: dict[str, int] = {}
    for key, function, ending, caller in PARTS:
        # (primitive calls, cumulative seconds) of the function, or of its calls from
        # ``caller``'s file alone.
        counted: list[tuple[int, float]] = []
        for (file, _, name), entry in stats.items():
            if name != function or not _path(file).endswith(ending):
                continue
            if caller is None:
                counted.append((entry[1], entry[3]))
            else:
                counted += [
                    (calls_from[1], calls_from[3])
                    for (from_file, _, _), calls_from in entry[4].items()
                    if _path(from_file).endswith(caller)
                ]
        cumulative[key] = sum(seconds for _, seconds in counted) * 1000 * per
        calls[key] = sum(n for n, _ in counted)
    return TailProfile(
        corpus,
        which,
        objective,
        tuple(t.name for t in chosen),
        tuple(t.seconds for t in chosen),
        cumulative,
        calls["clp"] * per,
        calls["mip"] * per,
    )


def _path(file: str) -> str:
    return file.replace("\\", "/")


def run(
    corpora: Sequence[tuple[str, Sequence[Timed], Sequence[Timed]]],
    *,
    quick: bool,
    time_limit: float,
    say: Callable[[str], None],
) -> list[TailProfile]:
    """Profile each corpus's slowest positions (value objective, the first list of each
    entry) and its typical ones in the peer's setting (the second list, already set to
    free jokers; empty where the peer was not compared)."""
    count = QUICK_POSITIONS if quick else POSITIONS
    profiles: list[TailProfile] = []
    for corpus, value_times, peer_times in corpora:
        if value_times:
            chosen = slowest(value_times, count)
            profiles.append(
                profile(corpus, "slowest", chosen, objective="value", time_limit=time_limit)
            )
        if peer_times:
            chosen = typical(peer_times, count)
            profiles.append(
                profile(corpus, "typical", chosen, objective="tiles", time_limit=time_limit)
            )
    for p in profiles:
        say(
            f"{'tails':<12} {p.corpus} {p.which}: {statistics.median(p.plain) * 1000:.1f} ms "
            f"median, {p.lp_solves:.1f} LP solves and {p.mip_calls:.1f} MIP hand-overs a "
            "position"
        )
    return profiles


def _share(p: TailProfile, key: str) -> str:
    whole = p.ms["whole"]
    return f"{p.ms[key] / whole:.0%}" if whole else "-"


def markdown(profiles: Sequence[TailProfile]) -> str:
    if not profiles:
        return ""
    lines = [
        "## Where the time goes, corpus by corpus",
        "",
        f"cProfile over each corpus's {POSITIONS} slowest positions with the value objective "
        "(what the p99 and max targets judge) and its "
        f"{POSITIONS} typical ones (nearest the median) in the peer's setting, tiles "
        "objective and free jokers (what the ratio targets judge). *Plain*: those positions' "
        "times in the run above (median and max), without the profiler. The shares of the "
        "profiled solve: building the model(s), the branch and bound (of which its CLP "
        "solves), the MIP back end (CBC, or CP-SAT on many-color boxes) and reading the "
        "answer back; what is left is the solve's own checks and set-up. LP solves and MIP "
        "hand-overs are per position, the same on any machine.",
        "",
        "| corpus | positions | plain median | plain max | building | branch and bound "
        "| - CLP solves | MIP back end | reading back | LP solves | MIP hand-overs | slowest "
        "of them |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for p in profiles:
        setting = "slowest, value" if p.which == "slowest" else "typical, peer's setting"
        worst = max(range(len(p.plain)), key=lambda i: p.plain[i])
        lines.append(
            f"| {p.corpus} | {setting} | {statistics.median(p.plain) * 1000:.1f} ms "
            f"| {max(p.plain) * 1000:.1f} ms | {_share(p, 'build')} | {_share(p, 'search')} "
            f"| {_share(p, 'clp')} | {_share(p, 'mip')} | {_share(p, 'read')} "
            f"| {p.lp_solves:.1f} | {p.mip_calls:.1f} | `{p.names[worst]}` |"
        )
    lines.append("")
    return "\n".join(lines) + "\n"
