"""The command line is an adapter: its commands parse options, call the library and render.

Three rules hold every module of ``rummikub/cli`` to that, each one able to fail:

1. **Only public names of the library.** A cli module imports from the domains and the
   game layer (``rummikub.tiles``, ``rummikub.cards``, ``rummikub.play``) no name that
   starts with an underscore, from no private module, and reads no underscore attribute
   of a module it imported from them: what it needs, the library offers publicly.
2. **No game advanced here.** A cli module calls none of the functions that construct or
   advance a game state (:data:`ADVANCING`: ``start``, ``advance``, ``draw``, ``claim``,
   ``start_hand``, ``enter_scores``, ``next_deal``, the protocol's ``apply`` and
   ``play_turn``) when it got them from the domains or the game layer, by name or through
   a module: a turn is played, a hand dealt or a score entered by the library
   (``tiles/game/entries.py``, ``cards/game/entries.py``, ``play/session.py``, ...),
   whose answer the command renders.
3. **Small modules.** A cli module has at most :data:`MOST_LINES` lines: a command that
   grows past that is growing logic that belongs in the library.

:data:`BEING_MOVED` lists the modules other changes are still turning into adapters, each
with the rules it breaks today; the list only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parent.parent / "rummikub" / "cli"
#: The packages whose names a cli module uses only publicly, and whose games it never
#: advances itself.
LIBRARY = ("rummikub.tiles", "rummikub.cards", "rummikub.play")
#: What constructs or advances a game state.
ADVANCING = frozenset(
    {
        "start",
        "advance",
        "draw",
        "claim",
        "start_hand",
        "enter_scores",
        "next_deal",
        "apply",
        "play_turn",
    }
)
MOST_LINES = 700
#: Modules being moved into the library by other changes (being moved): module -> the
#: rules it breaks today.
BEING_MOVED: dict[str, frozenset[str]] = {}


def _library(module: str | None) -> bool:
    return module is not None and any(
        module == package or module.startswith(package + ".") for package in LIBRARY
    )


def problems(path: Path) -> dict[str, list[str]]:
    """What ``path`` breaks, by rule (``public``, ``advancing``, ``size``)."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    found: dict[str, list[str]] = {"public": [], "advancing": [], "size": []}
    functions: dict[str, str] = {}  # a local name -> the library function it is
    modules: set[str] = set()  # local names of library modules
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and _library(node.module):
            assert node.module is not None
            if any(part.startswith("_") for part in node.module.split(".")):
                found["public"].append(f"line {node.lineno}: from the private {node.module}")
            for alias in node.names:
                local = alias.asname or alias.name
                if alias.name.startswith("_"):
                    found["public"].append(f"line {node.lineno}: imports {alias.name}")
                if alias.name[:1].islower():
                    functions[local] = alias.name
                    modules.add(local)  # a submodule imported by name (from x import engine)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _library(alias.name):
                    modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and node.attr.startswith("_")
        ):
            found["public"].append(f"line {node.lineno}: {node.value.id}.{node.attr}")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and functions.get(func.id) in ADVANCING:
            found["advancing"].append(f"line {node.lineno}: {func.id}()")
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in modules
            and func.attr in ADVANCING
        ):
            found["advancing"].append(f"line {node.lineno}: {func.value.id}.{func.attr}()")
    lines = text.count("\n")
    if lines > MOST_LINES:
        found["size"].append(f"{lines} lines (at most {MOST_LINES})")
    return found


MODULES = sorted(CLI.glob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[path.stem for path in MODULES])
def test_a_cli_module_is_an_adapter(path: Path) -> None:
    allowed = BEING_MOVED.get(path.stem, frozenset())
    broken = {rule: found for rule, found in problems(path).items() if found}
    assert set(broken) <= allowed, f"{path.name} breaks {broken}"


def test_the_list_of_modules_being_moved_only_names_what_still_breaks() -> None:
    for name, rules in BEING_MOVED.items():
        broken = {rule for rule, found in problems(CLI / f"{name}.py").items() if found}
        assert rules <= broken, f"{name}: {sorted(rules - broken)} hold now: drop them"


def test_the_rules_can_fail(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text(
        "from rummikub.tiles.game import engine\n"
        "from rummikub.cards.game.engine import _error, advance as step\n"
        "engine.advance(state, turn)\n"
        "step(state, turn)\n"
        "engine._draw(state, turn)\n" + "pass\n" * MOST_LINES,
        encoding="utf-8",
    )
    found = problems(module)
    assert len(found["public"]) == 2  # _error, engine._draw
    assert len(found["advancing"]) == 2  # engine.advance(), step()
    assert found["size"]
