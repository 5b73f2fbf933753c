"""The module paths of before the layout by domain still import, as the same modules."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from rummikub._aliases import ALIASES, new_path

REPO = Path(__file__).resolve().parents[1]

OLD_AND_NEW = [
    ("rummikub.checker", "rummikub.tiles.checker"),
    ("rummikub.errors", "rummikub.core.errors"),
    ("rummikub.puzzles", "rummikub.tiles.puzzles"),
    ("rummikub.solver", "rummikub.tiles.solver"),
    ("rummikub.game.cluster", "rummikub.core.cluster"),
    ("rummikub.game", "rummikub.tiles.game"),
    ("rummikub.game.engine", "rummikub.tiles.game.engine"),
    ("rummikub.game.equity", "rummikub.tiles.game.equity"),
    ("rummikub.solver.model", "rummikub.tiles.solver.model"),
    ("rummikub.solver.search", "rummikub.core.lp.search"),
    ("rummikub.solver.deadline", "rummikub.core.deadline"),
    ("rummikub.explain.planner.plan", "rummikub.tiles.explain.planner.plan"),
    ("rummikub.analysis", "rummikub.tiles.analysis"),
]


@pytest.mark.parametrize(("old", "new"), OLD_AND_NEW)
def test_an_old_path_is_the_module_at_its_new_path(old: str, new: str) -> None:
    assert new_path(old) == new
    module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__name__ == new and module.__spec__ is not None
    assert module.__spec__.name == new  # the module keeps its own spec


def test_every_alias_names_a_module_that_exists() -> None:
    for old, new in ALIASES.items():
        assert importlib.import_module(old) is importlib.import_module(new), old


def test_paths_that_never_moved_are_not_aliased() -> None:
    for name in ("rummikub.cards", "rummikub.tiles", "rummikub.cards.game", "rummikub.nothing"):
        assert new_path(name) is None
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("rummikub.solver.nothing_of_that_name")


def test_an_old_path_imported_first_makes_no_second_copy() -> None:
    # In a fresh process, the old package first, then a module below it by its old path and
    # by its new one: one module, whose classes are the public ones.
    code = (
        "import rummikub.solver.model as a, rummikub.tiles.solver.model as b, sys\n"
        "from rummikub.checker import Verdict\n"
        "from rummikub import Verdict as V\n"
        "copies = [k for k, m in sys.modules.items() if m is b]\n"
        "assert a is b and Verdict is V, (a, b)\n"
        "print(sorted(copies))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert done.stdout.split() == ["['rummikub.solver.model',", "'rummikub.tiles.solver.model']"]
