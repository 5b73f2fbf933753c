"""The module paths of before the two domains had a package each, kept as aliases.

Until version 0.1 the tile domain sat at the package root (``rummikub.checker``,
``rummikub.solver``, ...) and what both domains share inside it (``rummikub.errors``,
``rummikub.solver.search``, ...). Code written against those paths keeps working: importing
an old path gives the module at its new path, the same module object (one set of classes,
one module state to patch), never a second copy. The README lists the aliases ("Module
paths"); new code imports the new paths.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

#: Old module path -> new module path; a module below an old package moved with it
#: (``rummikub.solver.model`` -> ``rummikub.tiles.solver.model``). More specific first.
ALIASES: dict[str, str] = {
    "rummikub.errors": "rummikub.core.errors",
    "rummikub.solver.deadline": "rummikub.core.deadline",
    "rummikub.solver.records": "rummikub.core.lp.records",
    "rummikub.solver.rows": "rummikub.core.lp.rows",
    "rummikub.solver.search": "rummikub.core.lp.search",
    "rummikub.solver.wire": "rummikub.core.lp.wire",
    "rummikub.solver.zero_half": "rummikub.core.lp.zero_half",
    "rummikub.game.cluster": "rummikub.core.cluster",
    "rummikub.game": "rummikub.tiles.game",
    "rummikub.solver": "rummikub.tiles.solver",
    "rummikub.explain": "rummikub.tiles.explain",
    "rummikub.analysis": "rummikub.tiles.analysis",
    "rummikub.arguments": "rummikub.tiles.arguments",
    "rummikub.checker": "rummikub.tiles.checker",
    "rummikub.exhaustive": "rummikub.tiles.exhaustive",
    "rummikub.melds": "rummikub.tiles.melds",
    "rummikub.notation": "rummikub.tiles.notation",
    "rummikub.position": "rummikub.tiles.position",
    "rummikub.puzzles": "rummikub.tiles.puzzles",
    "rummikub.rules": "rummikub.tiles.rules",
    "rummikub.tile_index": "rummikub.tiles.tile_index",
}


def new_path(name: str) -> str | None:
    """The module an old path ``name`` names now, or None when ``name`` is not old."""
    head = name
    while True:
        new = ALIASES.get(head)
        if new is not None:
            return new + name[len(head) :]
        head, dot, _ = head.rpartition(".")
        if not dot or head == "rummikub":
            return None


class _Alias(importlib.abc.Loader):
    """Loads an old path as the module of its new path."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        # The import system writes the alias's spec onto the module it is given; the
        # module keeps its own (reloading, pickling and tracebacks name the new path).
        self._spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self._spec


class _Finder(importlib.abc.MetaPathFinder):
    """Ahead of the path finder, so that an old path below an old package (whose module is
    the new package, with the new ``__path__``) is not found again as a second copy."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("rummikub."):
            return None
        new = new_path(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new))


def install() -> None:
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
