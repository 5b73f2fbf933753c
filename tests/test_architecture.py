"""The import arrows of ARCHITECTURE.md, read from the source: they point down only."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "rummikub"
MODULES = sorted(PACKAGE.rglob("*.py"))

#: Packages at the top: nothing below them imports them (STYLE.md: "cli and web use
#: everything; nothing below imports cli, web or game").
TOP = ("rummikub.cli", "rummikub.web", "rummikub.game", "rummikub.__main__")
#: Built on the solver's public API, for the top alone.
ANALYSIS = "rummikub.tiles.analysis"
#: Modules whose answers are compared with each other's, so they share no code.
INDEPENDENT = ("rummikub.tiles.checker", "rummikub.tiles.explain", "rummikub.tiles.solver")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function."""
    found: set[str] = set()
    package = module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else None
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the importing package
                anchor = (package or module_name(path)).split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_modules_are_found() -> None:
    names = {module_name(path) for path in MODULES}
    assert {
        "rummikub.tiles.checker",
        "rummikub.tiles.explain",
        "rummikub.tiles.solver.model",
    } <= names


@pytest.mark.parametrize("path", MODULES, ids=module_name)
def test_imports_point_down(path: Path) -> None:
    name = module_name(path)
    found = imports(path)
    # Only the solver (and the card rummies' solver) loads OR-Tools.
    if not any(
        within(name, p) for p in ("rummikub.tiles.solver", "rummikub.cards", "rummikub.core.lp")
    ):
        assert not any(within(i, "ortools") for i in found), name
    # Nothing below the top imports it, nor the analysis.
    if not any(within(name, top) for top in TOP):
        for above in (*TOP, ANALYSIS):
            if not within(name, above):
                assert not any(within(i, above) for i in found), (name, above)
    # The checker, the explanations and the solver stay apart.
    for own in INDEPENDENT:
        if within(name, own):
            others = [p for p in INDEPENDENT if p != own]
            assert not any(within(i, p) for i in found for p in others), (name, found)
