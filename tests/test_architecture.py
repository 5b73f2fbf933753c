"""The package's layers, read from the source: one table names every module, and imports
point down it.

The rule, precisely:

1. Every module of ``rummikub/`` is in exactly one entry of :data:`LAYERS`.
2. A module imports only modules of its own entry (an entry's modules import each other
   freely: a package drawn as one entry keeps its own order inside) and modules of entries
   in lower layers. So entries side by side in one layer never import each other.
3. The two domains, ``rummikub.tiles`` and ``rummikub.cards``, never import each other,
   although a layer of one may lie below a layer of the other in the table.
4. Only the LP layer (``rummikub.core.lp``) imports OR-Tools, and only inside a function:
   no module of the package loads it on import, and the solvers reach it through the LP
   layer's typed interfaces.

An import is read from the source with :mod:`ast` wherever it stands: at the top, inside a
function, or under ``if TYPE_CHECKING:`` (a type is a dependency too). ``import a.b``
imports the module ``a.b``; ``from a import b`` imports the module ``a.b`` if there is one,
else the module ``a`` (``b`` is a name defined in it). Imports by a string at run time
(``importlib.import_module``: the command table of ``rummikub.cli``, the lazy names of
``rummikub``) are not read; both stand at the top, where everything is below them.

The places where the code breaks the rule today are listed in :data:`BREAKS`, each with
why; a test fails once one is mended, so that the list stays true.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "rummikub"

#: An entry: modules and packages drawn as one box. A name stands for the module of that
#: name and every module below it (``rummikub.cards.solver`` is ``cards/solver.py`` or
#: every module of the package ``cards/solver/``); a package whose modules are drawn in
#: several entries has its own ``__init__`` named as ``<package>.__init__``.
Entry = tuple[str, ...]

#: The layers, bottom to top; a layer holds its entries side by side.
LAYERS: tuple[tuple[Entry, ...], ...] = (
    # core: what both domains share (errors, time limits, reading documents); it imports
    # nothing of rummikub outside core.
    (
        (
            "rummikub.core.__init__",
            "rummikub.core.errors",
            "rummikub.core.arguments",
            "rummikub.core.deadline",
            "rummikub.core.documents",
            "rummikub.core.files",
            "rummikub.core.stats",
            "rummikub.core.cluster",
        ),
    ),
    # core/lp: the builder, rows, records, wire, search, exact (the fallback), zero_half.
    (("rummikub.core.lp",),),
    # The game layer: what a game is (a protocol both domains implement) and the
    # algorithms written once over it; it knows no tile and no card.
    (("rummikub.play",),),
    # The two domains side by side, each a stack of its own (rule 3), first their values.
    (
        (
            "rummikub.tiles.__init__",
            "rummikub.tiles.tiles",
            "rummikub.tiles.melds",
            "rummikub.tiles.rules",
            "rummikub.tiles.position",
            "rummikub.tiles.notation",
            "rummikub.tiles.tile_index",
            "rummikub.tiles.arguments",
        ),
        (
            "rummikub.cards.cards",
            "rummikub.cards.melds",
            "rummikub.cards.rules",
            "rummikub.cards.position",
        ),
    ),
    # Puzzle files.
    (("rummikub.tiles.puzzles",), ("rummikub.cards.puzzles",)),
    # What answers on a position: the checker, the solver, the explanations and the fast
    # playout move apart (their answers are compared with each other's, so they share no
    # code).
    (
        ("rummikub.tiles.checker",),
        ("rummikub.tiles.solver",),
        ("rummikub.tiles.explain",),
        ("rummikub.tiles.fastplay",),
        ("rummikub.cards.checker",),
        ("rummikub.cards.solver",),
    ),
    # The slow reference searches, and the card domain's public names.
    (("rummikub.tiles.exhaustive",), ("rummikub.cards.exhaustive",), ("rummikub.cards.__init__",)),
    # Built on the solver's and the explanations' public names.
    (("rummikub.tiles.analysis",),),
    # Each domain's whole games: its rules of play (deal, turns, scoring, notation, its
    # players), plugged into the game layer below.
    (("rummikub.tiles.game",), ("rummikub.cards.game",)),
    (("rummikub.render",),),
    # Every game by name (``--game``): the one module above both domains' games.
    (("rummikub.games",),),
    # The library's public names, and the module paths of before the layout by domain.
    (("rummikub.__init__", "rummikub._aliases"),),
    (("rummikub.web",),),
    (("rummikub.cli",),),
    (("rummikub.__main__",),),
)


#: The two domains of rule 3.
DOMAINS = ("rummikub.tiles", "rummikub.cards")

#: Rule 4: what may import OR-Tools (its linear solver, CP-SAT and the protobuf messages of
#: its models, which load google.protobuf), and the top-level packages that counts.
ORTOOLS_USERS = ("rummikub.core.lp",)
ORTOOLS = ("ortools", "google.protobuf")

#: Imports against the rule today: (importer, imported) -> why.
BREAKS: dict[tuple[str, str], str] = {
    # Notebooks show a value as a picture through ``_repr_svg_``; the domain's values
    # import the pictures lazily, inside that method.
    ("rummikub.tiles.position", "rummikub.render.svg"): "Position._repr_svg_",
    ("rummikub.tiles.solver.result", "rummikub.render.svg"): "SolveResult._repr_svg_",
    ("rummikub.tiles.explain.results", "rummikub.render.svg"): "Explanation._repr_svg_",
}


def module_name(path: Path) -> str:
    """The module of a file, a package's own ``__init__`` named as such."""
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


MODULES = sorted(module_name(path) for path in PACKAGE.rglob("*.py"))
KNOWN = frozenset(MODULES)


def package_of(module: str) -> str:
    """The package a module's relative imports start from."""
    return module.rsplit(".", 1)[0]


def source(module: str) -> Path:
    return PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")


def as_module(name: str) -> str | None:
    """The module an imported name loads: a module of ours (a package: its ``__init__``),
    the dotted name itself for another library, None for a name that is not a module."""
    if not (name == "rummikub" or name.startswith("rummikub.")):
        return name
    for candidate in (name, f"{name}.__init__"):
        if candidate in KNOWN:
            return candidate
    return None


@cache
def imported(module: str) -> frozenset[str]:
    """Every module ``module`` imports (see the module docstring for how it is read)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source(module).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(filter(None, (as_module(alias.name) for alias in node.names)))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the importing package
                anchor = package_of(module).split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                name = as_module(f"{base}.{alias.name}") or as_module(base)
                assert name is not None, (module, base, alias.name)
                found.add(name)
    found.discard(module)
    return frozenset(found)


def imported_on_load(module: str) -> set[str]:
    """What importing ``module`` imports at once: imports outside any function body and
    outside ``if TYPE_CHECKING:``, as imported names (not resolved)."""
    found: set[str] = set()

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                found.add(node.module or "")
            elif isinstance(node, ast.If):
                if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                for block in (node.body, node.orelse, node.finalbody):
                    visit(block)
                for handler in node.handlers:
                    visit(handler.body)
            elif isinstance(node, ast.ClassDef | ast.With):
                visit(node.body)

    visit(ast.parse(source(module).read_text(encoding="utf-8")).body)
    return found


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def places(module: str) -> list[tuple[int, int]]:
    """(layer, entry) of every entry naming ``module``."""
    return [
        (level, column)
        for level, layer in enumerate(LAYERS)
        for column, entry in enumerate(layer)
        if any(within(module, name) for name in entry)
    ]


def place(module: str) -> tuple[int, int]:
    (found,) = places(module)
    return found


def domain(module: str) -> str | None:
    return next((d for d in DOMAINS if within(module, d)), None)


def allowed(importer: str, target: str) -> bool:
    """Whether rules 2 and 3 let ``importer`` import ``target`` (both of ours)."""
    (level, column), (target_level, target_column) = place(importer), place(target)
    if domain(importer) and domain(target) and domain(importer) != domain(target):
        return False
    return target_level < level or (target_level, target_column) == (level, column)


def ours(names: frozenset[str]) -> set[str]:
    return {name for name in names if within(name, "rummikub")}


def test_the_modules_are_found() -> None:
    assert {
        "rummikub.__init__",
        "rummikub.tiles.checker",
        "rummikub.tiles.explain.__init__",
        "rummikub.tiles.solver.model",
        "rummikub.core.lp.search",
    } <= set(MODULES)
    # A package's __init__, and ``from package import module``: what the reader relies on.
    assert ours(imported("rummikub.tiles.__init__")) == {"rummikub.tiles.tiles"}
    assert "rummikub.tiles.melds" in imported("rummikub.cli.render")  # from ... import


@pytest.mark.parametrize("module", MODULES)
def test_every_module_is_in_exactly_one_layer(module: str) -> None:
    assert len(places(module)) == 1, (module, places(module))


def test_every_name_of_the_table_is_a_module_or_a_package() -> None:
    for layer in LAYERS:
        for entry in layer:
            for name in entry:
                found = any(within(module, name) for module in MODULES)
                assert found, name


@pytest.mark.parametrize("module", MODULES)
def test_imports_point_down(module: str) -> None:
    wrong = sorted(
        target
        for target in ours(imported(module))
        if not allowed(module, target) and (module, target) not in BREAKS
    )
    assert wrong == [], f"{module} (layer {place(module)}) imports {wrong}"


def test_the_breaks_of_the_rule_are_still_there_and_break_it() -> None:
    for importer, target in BREAKS:
        assert target in imported(importer), (importer, target)
        assert not allowed(importer, target), (importer, target)


@pytest.mark.parametrize("module", MODULES)
def test_only_the_lp_layer_and_the_solvers_import_ortools_and_only_when_solving(
    module: str,
) -> None:
    others = [name for name in imported(module) if any(within(name, o) for o in ORTOOLS)]
    if not any(within(module, user) for user in ORTOOLS_USERS):
        assert others == [], module
    on_load = [name for name in imported_on_load(module) if any(within(name, o) for o in ORTOOLS)]
    assert on_load == [], module


def test_the_ortools_rule_holds_something() -> None:
    # Rule 4 is stated for the modules that do import OR-Tools: they exist, and load it
    # only in a function.
    users = [m for m in MODULES if any(within(i, "ortools") for i in imported(m))]
    assert {"rummikub.core.lp.rows", "rummikub.core.lp.wire", "rummikub.core.lp.exact"} <= set(
        users
    )
    assert all(any(within(m, user) for user in ORTOOLS_USERS) for m in users), users
