"""docs/cli.md, the command-line reference, is the ``--help`` of every command as it is now.

The page is written by ``docs/tools/cli_reference.py``; a command or an option added without
regenerating it fails here, with the command that regenerates it.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import click
import pytest

from rummikub.cli import LAZY_COMMANDS, main
from rummikub.cli.card_game import game as card_game

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "cli.md"
SCRIPT = REPO / "docs" / "tools" / "cli_reference.py"
REGENERATE = "python docs/tools/cli_reference.py"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cli_reference", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def commands(
    command: click.Command, path: str, parent: click.Context | None
) -> Iterator[tuple[str, click.Command]]:
    """Every command below ``command`` (itself first), by its path, as click lists them."""
    context = click.Context(command, info_name=path.rsplit(" ", 1)[-1], parent=parent)
    yield path, command
    if isinstance(command, click.Group):
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            assert sub is not None, f"{path} lists {name} but has no such command"
            yield from commands(sub, f"{path} {name}", context)


def every_command() -> list[tuple[str, click.Command]]:
    found = list(commands(main, "rummikub", None))
    root = click.Context(main, info_name="rummikub")
    found += list(commands(card_game, "rummikub game", root))[1:]
    return found


def long_options(command: click.Command) -> list[str]:
    return [
        name
        for parameter in command.params
        if isinstance(parameter, click.Option)
        for name in (*parameter.opts, *parameter.secondary_opts)
        if name.startswith("--")
    ]


def sections(text: str) -> dict[str, str]:
    """The page's sections by their title ("`rummikub game new` (card games)")."""
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def test_the_cli_reference_is_what_the_script_writes_now() -> None:
    written = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
    assert written == script().render(), (
        f"docs/cli.md is not the --help of the commands as they are now: run {REGENERATE} "
        "(and commit docs/cli.md)"
    )


def test_the_cli_reference_does_not_depend_on_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "37")
    narrow = script().render()
    monkeypatch.setenv("COLUMNS", "250")
    assert script().render() == narrow


def test_every_command_and_option_is_in_the_cli_reference() -> None:
    found = sections(PAGE.read_text(encoding="utf-8"))
    listed = every_command()
    assert {path.split()[1] for path, _ in listed if " " in path} >= set(LAZY_COMMANDS)
    missing = []
    for path, command in listed:
        text = "".join(body for title, body in found.items() if title.startswith(f"`{path}`"))
        if not text:
            missing.append(f"{path}: no section")
            continue
        missing += [f"{path} {name}" for name in long_options(command) if name not in text]
    assert missing == [], f"not in docs/cli.md: {', '.join(missing)}; run {REGENERATE}"
