"""What one whole process imports, by package: the profile behind the one-process target.

``python -X importtime`` writes, for every module a process imports, the time spent in
that module's own body (``self``, without the modules it imports in turn). Summed by the
top-level package (the standard library as one), over a few runs of the same command, it
says where the imports of a ``rummikub solve`` go: our modules, click, OR-Tools and its
dependencies, the standard library. The option slows imports a little, so the shares are
what to read beside the plain wall times of the ``cli`` section.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

#: Runs of the command with ``-X importtime`` (the median of each package is kept).
RUNS = 5
QUICK_RUNS = 1
STANDARD_LIBRARY = "standard library"


@dataclass(frozen=True, slots=True)
class ImportShare:
    package: str
    #: Median over the runs of the summed self time of the package's modules (seconds).
    seconds: float
    modules: int


def package_of(module: str) -> str:
    """The group a module's import time is counted under."""
    top = module.split(".", 1)[0]
    if top in sys.stdlib_module_names or top in sys.builtin_module_names:
        return STANDARD_LIBRARY
    return top


def parse(stderr: str) -> dict[str, tuple[float, int]]:
    """Self seconds and module count per package, from one run's ``-X importtime`` lines."""
    found: dict[str, list[float]] = defaultdict(list)
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        fields = line[len("import time:") :].split("|")
        if len(fields) != 3 or not fields[0].strip().isdigit():
            continue  # the header line
        found[package_of(fields[2].strip())].append(int(fields[0]) / 1e6)
    return {package: (sum(times), len(times)) for package, times in found.items()}


def measure(argv: Sequence[str], env: dict[str, str], *, quick: bool) -> list[ImportShare]:
    """Run ``argv`` (a command whose first item is the Python interpreter) with
    ``-X importtime`` and sum its imports by package, largest first."""
    runs: list[dict[str, tuple[float, int]]] = []
    for _ in range(QUICK_RUNS if quick else RUNS):
        done = subprocess.run(
            [argv[0], "-X", "importtime", *argv[1:]],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        runs.append(parse(done.stderr))
    packages = sorted({package for run in runs for package in run})
    shares = [
        ImportShare(
            package,
            statistics.median(run.get(package, (0.0, 0))[0] for run in runs),
            max(run.get(package, (0.0, 0))[1] for run in runs),
        )
        for package in packages
    ]
    return sorted(shares, key=lambda s: (-s.seconds, s.package))


def markdown(command: str, shares: Sequence[ImportShare], *, shown: int = 8) -> list[str]:
    if not shares:
        return []
    total = sum(s.seconds for s in shares)
    lines = [
        f"Where the imports of `{command}` go (`python -X importtime`, the median of "
        "each package's summed self time over the runs; the option itself slows imports, "
        "so read the shares):",
        "",
        "| package | modules | import time | share |",
        "|---|---:|---:|---:|",
    ]
    head, rest = list(shares[:shown]), list(shares[shown:])
    for share in head:
        lines.append(
            f"| {share.package} | {share.modules} | {share.seconds * 1000:.1f} ms "
            f"| {share.seconds / total:.0%} |"
        )
    if rest:
        others = sum(s.seconds for s in rest)
        lines.append(
            f"| {len(rest)} other packages | {sum(s.modules for s in rest)} "
            f"| {others * 1000:.1f} ms | {others / total:.0%} |"
        )
    lines += [f"| all imports | {sum(s.modules for s in shares)} | {total * 1000:.1f} ms | |", ""]
    return lines
