"""Re-establish every puzzle's ``[expect]`` without the ILP.

    python -m puzzles.tools.verify_exhaustive                  # the whole collection
    python -m puzzles.tools.verify_exhaustive puzzles/basics   # some files or folders

* A **small** puzzle (at most ``--max-table`` table tiles and ``--max-rack`` rack tiles) is
  solved by the exhaustive search of :mod:`rummikub.tiles.exhaustive`: every sub-multiset of the
  rack,
  every partition of the tiles into melds, every reading of every joker, each judged by the
  checker. Its answer must equal the ``[expect]``.
* A **large** puzzle is proven by its ``after`` table and a bound (``certify.py``): the checker
  finds ``after`` legal, and it plays every rack tile that could lie in any meld at all.

Every ``after`` must also be a best move: legal, and worth exactly the ``[expect]``.
The solver (OR-Tools) is never imported. Exit 0 when every answer is established, 1 if any
is not (each such puzzle is named, with the reason).
Run it from the repository's root, as a module (as above), so that ``rummikub``,
``benchmarks`` and the other tools import as they are, with no path edits.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from puzzles.tools.certify import Certificate, certify
from rummikub.cards.puzzles import is_card_file
from rummikub.core.errors import PuzzleError
from rummikub.tiles.checker import check
from rummikub.tiles.exhaustive import NO_MOVE, best_move
from rummikub.tiles.puzzles import Expect, Puzzle, expand_all, load

#: The repository: the collection is its ``puzzles`` folder.
REPO = Path(__file__).resolve().parents[2]

#: Above these sizes the exhaustive search can take minutes; the bound is used instead.
MAX_TABLE = 30
MAX_RACK = 10


def is_small(puzzle: Puzzle, max_table: int, max_rack: int) -> bool:
    position = puzzle.position
    return position.table_tiles().total() <= max_table and len(position.rack) <= max_rack


def answer_text(status: str, value: int, tiles: int) -> str:
    return "no move" if status == "no_move" else f"value {value}, {tiles} tiles"


def by_exhaustive_search(puzzle: Puzzle, expect: Expect) -> tuple[str, str | None]:
    """What the exhaustive search finds, and why it differs from ``expect`` (or None)."""
    best = best_move(puzzle.position)
    if best == NO_MOVE:
        status, value, tiles, note = "no_move", 0, 0, ""
    else:
        assert not isinstance(best, str)
        status, value, tiles = "optimal", best.value, best.tiles
        note = f" ({best.unchanged} of {len(puzzle.position.table)} old melds unchanged)"
    found = answer_text(status, value, tiles)
    if not expect.matches(status, value, tiles):
        return found, f"expected {expect}, the exhaustive search found {found}"
    return found + note, None


def by_bound(puzzle: Puzzle, expect: Expect) -> tuple[str, str | None]:
    """What the witness and the bound prove, and why it differs from ``expect`` (or None)."""
    proof = certify(puzzle)
    if not isinstance(proof, Certificate):
        return "not proven", f"too large for the exhaustive search, and no bound proof: {proof}"
    found = answer_text("optimal", proof.value, proof.tiles)
    if not expect.matches("optimal", proof.value, proof.tiles):
        return found, f"expected {expect}, the `after` table and the bound prove {found}"
    return found + " (the `after` table plays every playable rack tile)", None


def after_problem(puzzle: Puzzle, expect: Expect) -> str | None:
    """Why the puzzle's ``after`` is not a best move (None when it is, or when absent)."""
    if puzzle.after is None:
        return None
    verdict = check(puzzle.position, puzzle.after)
    if not verdict.legal:
        return "the `after` table is not a legal move: " + "; ".join(verdict.errors)
    if not expect.matches("optimal", verdict.value, len(verdict.played)):
        played = answer_text("optimal", verdict.value, len(verdict.played))
        return f"the `after` table plays {played}, but the expected best is {expect}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.path.relpath(REPO / "puzzles")  # the collection, named from here
    parser.add_argument("paths", nargs="*", default=[default])
    parser.add_argument("--max-table", type=int, default=MAX_TABLE)
    parser.add_argument("--max-rack", type=int, default=MAX_RACK)
    args = parser.parse_args(argv)

    failures = 0
    counts = {"exhaustive": 0, "bound": 0}
    for source in expand_all(args.paths):
        if not isinstance(source, PuzzleError) and is_card_file(source):
            continue  # a card puzzle: established by verify_cards.py
        try:
            if isinstance(source, PuzzleError):
                raise source
            puzzle = load(source)
        except PuzzleError as error:
            print(f"FAIL  {error}")
            failures += 1
            continue
        expect = puzzle.expect
        if expect is None:
            print(f"FAIL  {puzzle.path}: no [expect]")
            failures += 1
            continue
        started = time.perf_counter()
        small = is_small(puzzle, args.max_table, args.max_rack)
        method = "exhaustive" if small else "bound"
        found, problem = (by_exhaustive_search if small else by_bound)(puzzle, expect)
        problem = problem or after_problem(puzzle, expect)
        seconds = time.perf_counter() - started
        if problem:
            print(f"FAIL  {method:10} {seconds:6.2f} s  {puzzle.path}: {problem}")
            failures += 1
        else:
            print(f"ok    {method:10} {seconds:6.2f} s  {puzzle.path}: {found}")
            counts[method] += 1
    established = counts["exhaustive"] + counts["bound"]
    print(
        f"{established} answers established ({counts['exhaustive']} by exhaustive search, "
        f"{counts['bound']} by witness and bound), {failures} not."
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
