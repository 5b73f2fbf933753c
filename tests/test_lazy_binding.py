"""OR-Tools' extension is opened with lazy binding, and Python's flags are restored after
(``rummikub.core.lp.rows.load_pywraplp``; benchmarks/RESULTS.md, "Speed choices",
*Lazy binding*)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

SCRIPT = textwrap.dedent(
    """
    import os, sys
    seen = []

    class Watch:
        def find_spec(self, name, path=None, target=None):
            if name == "ortools.linear_solver._pywraplp":
                seen.append(sys.getdlopenflags())
            return None

    sys.meta_path.insert(0, Watch())
    before = sys.getdlopenflags()
    from rummikub.core.lp import rows

    rows.preload()
    rows.preload()
    print(seen, before, sys.getdlopenflags())
    """
)


def test_the_extension_binds_lazily_and_the_flags_come_back() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    seen, before, after = done.stdout.rsplit(maxsplit=2)
    flags = ast.literal_eval(seen)
    assert len(flags) == 1, done.stdout
    assert flags[0] & os.RTLD_LAZY and not flags[0] & os.RTLD_NOW
    assert int(before) == int(after)


def test_the_module_is_the_one_imported() -> None:
    from ortools.linear_solver import pywraplp

    from rummikub.core.lp.rows import load_pywraplp

    assert load_pywraplp() is pywraplp
