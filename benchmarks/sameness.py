"""Same bytes before and after: what a change to the code must not change.

``python -m benchmarks.sameness REV`` runs a fixed list of commands twice, once with the
package of commit ``REV`` (exported with ``git archive`` into a temporary folder) and once
with the working tree's, each in a fresh folder holding a copy of ``puzzles/``, and compares
what each prints: every puzzle solved (the 128 of ``puzzles/``, tiles and cards), tile and
card self-play and duel reports in text, JSON and CSV, ``analyse --equity``, tile and card
records made, shown and replayed on the command line, and the TOML and JSON of seeded
self-played records of both formats through the Python API. Wall times and rates are masked
(:data:`TIMES`): nothing else may differ. Exit 0 when every output is the same, 1 when one
differs (each named, with its first differing line), 2 on bad use.

A refactoring shows it changed nothing by this run; a change that means to change an output
says which and why. The list reads only public names and old paths the alias finder keeps,
so it runs against commits before and after a move of modules.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: What varies from one run to the next, and only that: wall times and rates.
TIMES = (
    (re.compile(r'"seconds": [0-9.e-]+'), '"seconds": <s>'),
    (re.compile(r"^Time: .*$", re.M), "Time: <s>"),
    (re.compile(r"\d+ games in [0-9.]+ s \([0-9.]+ games/s"), "<n> games in <s> (<rate>"),
)

#: One tile game and one of each card rummy, by their names.
CARD_GAMES = ("rummy", "500-rum", "romme", "continental", "california")

#: The commands, each a name (its output's) and what follows ``rummikub`` (as a shell reads it).
COMMANDS: tuple[tuple[str, str], ...] = (
    ("solve-tiles", "solve puzzles --json --jobs 1"),
    ("solve-cards", "solve puzzles/cards --json --jobs 1"),
    ("simulate-tiles", "simulate --games 6 --strategy best,tiles --seed 3"),
    (
        "simulate-tiles-json",
        "simulate --games 6 --players 3 --strategy best,hold,casual --seed 5 --json",
    ),
    ("duel-tiles", "duel best tiles --games 4 --seed 1"),
    ("duel-tiles-json", "duel best casual --games 6 --seed 2 --json"),
    ("duel-equity-json", "duel equity best --games 2 --seed 1 --json"),
    *(
        (f"simulate-{g}", f"simulate --game {g} --games 4 --strategy best,keep --seed 1")
        for g in CARD_GAMES
    ),
    *(
        (
            f"simulate-{g}-json",
            f"simulate --game {g} --games 4 --players 3 --strategy keep,casual --seed 2 --json",
        )
        for g in CARD_GAMES
    ),
    (
        "analyse-equity",
        "analyse --position 'K4-7 | R1-7 / K1 K3 B1 B3 B4' --rule numbers=7 --rule colors=KRB "
        "--rule copies=1 --rule jokers=0 --rule initial_meld=0 --rack-sizes 5 --equity --top 1 "
        "--json",
    ),
    ("analyse-equity-puzzle", "analyse puzzles/basics/two-tiles-fit.toml --equity"),
)

#: Records made, shown and replayed, one command line after another in one folder.
SESSIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "record-tiles",
        (
            "game new g.toml --players Ann,Bob --seed 3",
            "game apply g.toml --draw",
            "game apply g.toml --draw",
            "game show g.toml",
            "game replay g.toml",
            "analyse g.toml --json",
        ),
    ),
    (
        "record-cards",
        (
            "game new rum.toml --game 500-rum --players Ann,Bob --seed 3",
            "game hint rum.toml",
            "game apply rum.toml --draw 0 --lay 'JS QS KS 4D 5D 6D 6S 6H 6C' --discard AC",
            "game show rum.toml",
            "game replay rum.toml --json",
        ),
    ),
)

#: Seeded self-played records of both formats, as their files hold them (TOML and JSON).
RECORDS = """
from rummikub.game import record
from rummikub.game.simulate import play_game
from rummikub.game.strategies import strategy
from rummikub.tiles.rules import preset
from rummikub.cards.game import record as card_record
from rummikub.cards.game.simulate import play_game as play_cards
from rummikub.cards.game.strategies import strategy as card_strategy
from rummikub.cards.rules import preset as card_preset

for seed in (1, 2, 3):
    played, _ = play_game(preset("standard"), [strategy("best"), strategy("casual")], seed)
    print(record.dumps(played))
    print(record.dumps(played, "json"))
for game in ("rummy", "500-rum", "romme", "continental", "california"):
    players = [card_strategy("best"), card_strategy("keep")]
    played, _ = play_cards(card_preset(game), players, 7)
    print(card_record.dumps(played))
    print(card_record.dumps(played, "json"))
"""


def masked(text: str) -> str:
    """``text`` with its wall times and rates masked (:data:`TIMES`)."""
    for pattern, replacement in TIMES:
        text = pattern.sub(replacement, text)
    return text


def _run(package: Path, folder: Path, arguments: Sequence[str]) -> str:
    """What ``arguments`` print (stdout and stderr, then the exit code), with ``package`` on
    the path, in ``folder``."""
    environment = {**os.environ, "PYTHONPATH": str(package), "NO_COLOR": "1"}
    environment.pop("FORCE_COLOR", None)
    done = subprocess.run(
        list(arguments),
        cwd=folder,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )
    return masked(f"{done.stdout}exit {done.returncode}\n")


def outputs(package: Path) -> dict[str, str]:
    """Every output of the list, by name, with the package in ``package``."""
    rummikub = (sys.executable, "-m", "rummikub")
    found: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        shutil.copytree(REPO / "puzzles", folder / "puzzles")
        for name, command in COMMANDS:
            # Self-play in this process: the same games whatever the machine's cores.
            workers = ("--workers", "1") if _with_workers(name) else ()
            found[name] = _run(package, folder, (*rummikub, *shlex.split(command), *workers))
        for name, lines in SESSIONS:
            found[name] = "".join(
                _run(package, folder, (*rummikub, *shlex.split(line))) for line in lines
            )
        found["records-api"] = _run(package, folder, (sys.executable, "-c", RECORDS))
    return found


def _with_workers(name: str) -> bool:
    return name.startswith(("simulate", "duel"))


def export(revision: str, into: Path) -> Path:
    """The package of ``revision``, exported into ``into``: the folder to put on the path."""
    archive = subprocess.run(
        ["git", "archive", revision, "rummikub"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        check=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def differences(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """A line per output that differs, naming its first differing line."""
    found = []
    for name in before:
        if before[name] == after.get(name):
            continue
        diff = difflib.unified_diff(
            before[name].splitlines(), after.get(name, "").splitlines(), lineterm="", n=0
        )
        changed = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
        found.append(f"{name}: {changed[0] if changed else 'differs'}")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.sameness", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("revision", help="the commit to compare the working tree with")
    options = parser.parse_args(argv)
    check = subprocess.run(
        ["git", "rev-parse", "--verify", f"{options.revision}^{{commit}}"],
        cwd=REPO,
        capture_output=True,
        check=False,
    )
    if check.returncode != 0:
        print(f"error: {options.revision!r} is not a commit of this repository", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as temporary:
        before = outputs(export(options.revision, Path(temporary)))
    after = outputs(REPO)
    changed = differences(before, after)
    for line in changed:
        print(line)
    print(f"{len(before)} outputs: {len(before) - len(changed)} the same, {len(changed)} differ")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
