"""Find hard puzzles: seeded random large positions, solved with ``rummikub.solve``; keep the
slowest ones whose answer a bound proves, and write them as puzzle files.

A kept position's answer does not rest on the ILP: the solver's new table is written as the
puzzle's ``after`` (the witness, which ``rummikub check`` finds legal), and it plays every rack
tile that could lie in any meld at all, so no move plays more (see ``certify.py``).

    python -m puzzles.tools.find_hard --seed 1 --count 150 --keep 4 --out puzzles/hardest

The positions are drawn with the benchmark corpora's samplers (``benchmarks.corpora``): random
valid melds taken out of the box, some holding jokers, and a rack drawn from the rest. The
same options and seed give the same positions; the times (and so the choice of the slowest)
depend on the machine.
Run it from the repository's root, as a module (as above), so that ``rummikub``,
``benchmarks`` and the other tools import as they are, with no path edits.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.corpora import GENERALISED, box, random_rack, random_table
from puzzles.tools.certify import Certificate, certify
from rummikub.tiles.melds import RawMeld
from rummikub.tiles.position import Position
from rummikub.tiles.puzzles import Expect, Puzzle, dumps
from rummikub.tiles.rules import PRESETS, Rules
from rummikub.tiles.solver import SolveResult, solve
from rummikub.tiles.tiles import JOKER, format_tiles

#: Every preset, and the largest box the rules allow (26 numbers, 8 colors, 4 copies, 4 jokers).
RULE_SETS: dict[str, Rules] = {**PRESETS, "generalised": GENERALISED}


@dataclass(frozen=True, slots=True)
class Found:
    """A position whose best move is proven without the ILP, and how long the ILP took."""

    index: int
    seconds: float
    puzzle: Puzzle
    certificate: Certificate


def draw(rng: random.Random, rules: Rules, table: int, rack: int, opened: bool) -> Position:
    """A random position: a table of about ``table`` tiles holding at least one joker, and a
    rack of ``rack`` tiles, now and then with one of the jokers left over."""
    available = box(rules)
    table_jokers = rng.randint(1, rules.jokers) if rules.jokers else 0
    # One joker per meld, or two of them sharing one meld.
    splits = [(1,) * table_jokers]
    if table_jokers >= 2:
        splits.append((2,) + (1,) * (table_jokers - 2))
    melds = random_table(rng, rules, available, table, joker_melds=rng.choice(splits))
    rack_jokers = min(available[JOKER], rng.choice([0, 0, 1]))
    tiles = random_rack(rng, rules, available, rack - rack_jokers, jokers=False)
    tiles += [JOKER] * rack_jokers
    position = Position(tuple(melds), tuple(sorted(tiles, key=rules.sort_key)), opened, rules)
    position.validate()
    return position


def timed_solve(position: Position, repeats: int) -> tuple[SolveResult, float]:
    """The answer and the least wall time over ``repeats`` solves (less noise than one)."""
    best = float("inf")
    result = None
    for _ in range(repeats):
        started = time.perf_counter()
        result = solve(position)
        best = min(best, time.perf_counter() - started)
    assert result is not None
    return result, best


def describe(found: Found, args: argparse.Namespace, rules_name: str) -> str:
    position = found.puzzle.position
    table_tiles = sum(len(m.tiles) for m in position.table)
    jokers = sum(m.jokers for m in position.table)
    cert = found.certificate
    slowest = "the slowest" if args.keep == 1 else f"among the {args.keep} slowest"
    state = "opened" if position.opened else "not opened yet (the initial meld is to be made)"
    parts = [
        f"A large random position ({rules_name} rules, find_hard.py --seed {args.seed}, "
        f"position {found.index}): {table_tiles} table tiles in {len(position.table)} melds "
        f"with {jokers} locked joker{'s' if jokers != 1 else ''}, a rack of "
        f"{len(position.rack)}, {state}. Of {args.count} such positions, it was {slowest} for "
        f"the ILP (at most {args.max_seconds} s, to keep the collection fast) whose answer a "
        "bound proves.",
        "How the answer is known (without the ILP): the `after` table is legal (`rummikub check`)",
    ]
    if cert.unplayable:
        parts[-1] += (
            f" and plays every rack tile except {format_tiles(cert.unplayable)}, which fit no "
            "meld even with every tile of table and rack (and every joker) free. "
            "No move can play more, so "
        )
    else:
        parts[-1] += " and plays the whole rack. No move can play more than the whole rack, so "
    parts[-1] += f"value {cert.value} and {cert.tiles} tiles are the best."
    return " ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=150, help="positions to draw")
    parser.add_argument("--keep", type=int, default=4, help="slowest proven positions to write")
    parser.add_argument("--rules", choices=sorted(RULE_SETS), default="standard")
    parser.add_argument("--table", type=int, default=75, help="table tiles, about")
    parser.add_argument("--rack", type=int, default=14, help="rack tiles")
    parser.add_argument("--not-opened", action="store_true", help="the initial meld is to come")
    parser.add_argument(
        "--max-seconds", type=float, default=1.0, help="skip positions slower than this"
    )
    parser.add_argument("--repeats", type=int, default=3, help="solves per timing")
    parser.add_argument("--out", type=Path, required=True, help="folder for the puzzle files")
    parser.add_argument("--prefix", default="hard", help="file name prefix")
    args = parser.parse_args(argv)

    rules = RULE_SETS[args.rules]
    rng = random.Random(f"find_hard:{args.seed}:{args.rules}")
    solve(Position.parse(rack="R4", table=["R1 R2 R3"]))  # warm-up: import OR-Tools first
    kept: list[Found] = []
    for index in range(args.count):
        position = draw(rng, rules, args.table, args.rack, not args.not_opened)
        result, seconds = timed_solve(position, args.repeats)
        if not result.proven or seconds > args.max_seconds or not result.played:
            why = "no move" if result.proven else "not proven"
            if seconds > args.max_seconds:
                why = f"slower than --max-seconds {args.max_seconds}"
            print(f"position {index}: {seconds:.3f} s, skipped: {why}", file=sys.stderr)
            continue
        after = tuple(RawMeld.parse(str(meld)) for meld in result.table)
        puzzle = Puzzle("", position, after=after, expect=Expect(result.value, result.tiles))
        proof = certify(puzzle)
        proven = not isinstance(proof, str)
        note = "kept" if proven else "skipped: the bound does not prove it"
        print(f"position {index}: {seconds:.3f} s, value {result.value}, {note}", file=sys.stderr)
        if isinstance(proof, Certificate):
            kept.append(Found(index, seconds, puzzle, proof))
    kept.sort(key=lambda f: f.seconds, reverse=True)
    args.out.mkdir(parents=True, exist_ok=True)
    for rank, found in enumerate(kept[: args.keep], start=1):
        name = f"{args.prefix}-{args.seed}-{found.index:03d}"
        puzzle = Puzzle(
            name,
            found.puzzle.position,
            title=f"Hard: {args.rules} seed {args.seed}, position {found.index}",
            description=describe(found, args, args.rules),
            after=found.puzzle.after,
            expect=found.puzzle.expect,
        )
        path = args.out / f"{name}.toml"
        path.write_text(dumps(puzzle), encoding="utf-8")
        print(f"{rank}. {path}: {found.seconds:.3f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
