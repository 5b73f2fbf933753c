"""Re-establish every card puzzle's [expect] without the integer program.

Each card puzzle (a file with a ``game`` key) is solved by the exhaustive search of
``rummikub.cards.exhaustive`` (every way to lay the hand, judged by the checker) and its
``points``/``penalty``/``status`` compared with ``[expect]``; its ``after`` turn, if any, must
be legal and score exactly the expected answer. OR-Tools is never imported.

    python -m puzzles.tools.verify_cards [PATH ...]     (default: puzzles/cards)

Run it from the repository's root, as a module, like the other tools.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from rummikub.cards.checker import check
from rummikub.cards.exhaustive import best
from rummikub.cards.puzzles import CardPuzzle, is_card_file, load
from rummikub.core.errors import PuzzleError
from rummikub.tiles.puzzles import expand_all

#: The repository: the card puzzles are its ``puzzles/cards`` folder.
REPO = Path(__file__).resolve().parents[2]


def problem(puzzle: CardPuzzle) -> str | None:
    expect = puzzle.expect
    if expect is None:
        return "no [expect]"
    found = best(puzzle.position)
    status = "optimal" if found.laid else "no_move"
    if not expect.matches(status, found.points, found.penalty):
        got = f"{found.points} points" if found.laid else "no lay-down"
        return f"expected {expect}, the exhaustive search found {got}, penalty {found.penalty}"
    if puzzle.after is not None:
        verdict = check(
            puzzle.position, puzzle.after, discard=puzzle.after_discard, draw=puzzle.after_draw
        )
        if not verdict.legal:
            return "the `after` turn is not legal: " + "; ".join(verdict.errors)
        if not expect.matches(status, verdict.points, verdict.penalty):
            return (
                f"the `after` turn lays {verdict.points} points, penalty {verdict.penalty}, "
                f"but the expected best is {expect}"
            )
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.path.relpath(REPO / "puzzles" / "cards")
    parser.add_argument("paths", nargs="*", default=[default])
    args = parser.parse_args(argv)
    failures = done = 0
    for source in expand_all(args.paths):
        if isinstance(source, PuzzleError):
            print(f"FAIL  {source}")
            failures += 1
            continue
        if not is_card_file(source):
            continue
        started = time.perf_counter()
        try:
            found = problem(load(source))
        except PuzzleError as error:
            found = str(error)
        seconds = time.perf_counter() - started
        if found:
            print(f"FAIL  {seconds:6.2f} s  {source}: {found}")
            failures += 1
        else:
            print(f"ok    {seconds:6.2f} s  {source}")
            done += 1
    print(f"{done} card answers established by exhaustive search, {failures} not.")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
