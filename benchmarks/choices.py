"""The measurements behind the "Speed choices" section of ``benchmarks/RESULTS.md``.

Each part weighs one choice the code makes for speed against its simpler form, and prints
what the section quotes; a comment in the code names the section's entry. Run as
``python -m benchmarks.choices PART...`` (every part when none is given):

- ``records``: how long a class of four fields takes to make, as a frozen dataclass, a
  mutable one, a named tuple and a plain class with ``__slots__`` (*Records*).
- ``fates``: solves with the locked melds' ``fates`` cache warm against without it
  (*Locked melds' fates*).
- ``check``: the full check of a position built field by field against the quick pass,
  as a share of the solve; the box's tile set cached and built (*Position check*).
- ``arranged``: explanations with the ``arranged`` cache (emptied before each) against
  without it (*Arranged melds*).
- ``listing``: the 26x8x4+4J box's readings and candidate melds against the initial meld's
  melds listed from a rack (*The initial meld's melds*).
- ``needs``: a meld's tiles counted in a dict, as ``TileIndex.needs`` does, against a
  ``Counter`` (*Counting a meld's tiles*).
- ``packing``: the checker's exact packing of a rack against the greedy one (*The
  checker's packing*).

The A/B parts run the two sides alternately, position by position (which goes first
alternates too), for ``--rounds`` rounds, so that machine load hits both alike. They swap
a module's function for its uncached form while they time; the original is put back
whatever happens. ``--quick`` runs each part on a tiny workload: it proves the part works,
its figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from types import ModuleType
from typing import NamedTuple, TypeVar

from benchmarks.corpora import CORPORA, GENERALISED
from benchmarks.record import case_from_data, path_for
from rummikub.tiles import checker
from rummikub.tiles import position as position_module
from rummikub.tiles.explain import arrangement, explain, narration
from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Position
from rummikub.tiles.solver import candidates, locks, model, opening, solve
from rummikub.tiles.tiles import Tile

T = TypeVar("T")
Say = Callable[[str], None]

#: The seed of the corpora (the seed-1 record holds the ``game`` and ``late`` positions).
SEED = 1
#: The largest rack the ``packing`` part gives the exact search: the standard-box racks of
#: 39 and 41 tiles take minutes each.
MOST_PACKED = 38


@dataclass(frozen=True, slots=True)
class Settings:
    """How much each part measures: positions per corpus, and repeats of each timing."""

    #: Positions per corpus, by part; ``fates`` takes twice as many.
    positions: int = 100
    #: Rounds of an A/B comparison.
    rounds: int = 3
    #: Scale of the repeats of one timing (1: the counts written in each part).
    repeats: float = 1.0
    #: The ``not-opened-jokers`` positions the ``listing`` and ``packing`` parts look at.
    racks: int = 24

    def times(self, count: int) -> int:
        return max(1, round(count * self.repeats))


FULL = Settings()
QUICK = Settings(positions=2, rounds=1, repeats=0.01, racks=4)


def timed(work: Callable[[], object], repeats: int = 1) -> float:
    """The median wall time of ``repeats`` calls of ``work``, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def clocked(work: Callable[[], T]) -> tuple[float, T]:
    """The wall time of one call of ``work``, and what it returned."""
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def cases(name: str, count: int) -> list[Position]:
    """The first ``count`` positions of a corpus; ``game`` and ``late`` from the record."""
    if name in ("game", "late"):
        data = json.loads(path_for(SEED).read_text(encoding="utf-8"))[name][:count]
        return [case_from_data(item).position for item in data]
    return [case.position for case in CORPORA[name].cases(SEED, size=count)]


@contextmanager
def swapped(module: ModuleType, name: str) -> Iterator[None]:
    """Put ``module.name`` back as it was when the block ends."""
    kept = getattr(module, name)
    try:
        yield
    finally:
        put(module, name, kept)


def put(module: ModuleType, name: str, value: object) -> None:
    """``module.name = value``, for a name the module imported (typed as its own)."""
    setattr(module, name, value)


def ab(
    say: Say,
    name: str,
    work: Sequence[Callable[[], object]],
    use: Callable[[bool], None],
    rounds: int,
) -> None:
    """Each piece of ``work`` timed with the choice (``use(True)``) and without it,
    alternately; the medians and the median of the per-piece ratios without/with."""
    with_, without, ratios = [], [], []
    for turn in range(rounds):
        for i, piece in enumerate(work):
            seconds = {}
            for side in (True, False) if (i + turn) % 2 else (False, True):
                use(side)
                seconds[side] = timed(piece)
            with_.append(seconds[True])
            without.append(seconds[False])
            ratios.append(seconds[False] / seconds[True])
    say(
        f"{name}: with {statistics.median(with_) * 1e3:.2f} ms, "
        f"without {statistics.median(without) * 1e3:.2f} ms, "
        f"median ratio without/with {statistics.median(ratios):.3f}"
    )


# -- the parts --------------------------------------------------------------------------


def records(say: Say, settings: Settings) -> None:
    """Making a class of four fields, in each record style."""

    def frozen() -> None:
        @dataclass(frozen=True, slots=True)
        class A:
            a: int
            b: int
            c: int
            d: int

    def mutable() -> None:
        @dataclass(slots=True, eq=False)
        class A:
            a: int
            b: int
            c: int
            d: list[int] = field(default_factory=list)

    def named() -> None:
        class A(NamedTuple):
            a: int
            b: int
            c: int
            d: int

    def plain() -> None:
        class A:
            __slots__ = ("a", "b", "c", "d")

            def __init__(self, a: int, b: int, c: int, d: int) -> None:
                self.a, self.b, self.c, self.d = a, b, c, d

    for make in (frozen, mutable, named, plain):
        say(f"records {make.__name__}: {timed(make, settings.times(400)) * 1e3:.3f} ms")


def fates(say: Say, settings: Settings) -> None:
    """Solves with the fates cache warm (every position met before, as when a table comes
    back) against without it."""
    cached = locks.fates
    plain = cached.__wrapped__

    def use(on: bool) -> None:
        put(model, "fates", cached if on else plain)

    with swapped(model, "fates"):
        for name in ("game", "late", "hard", "rack-jokers"):
            positions = cases(name, 2 * settings.positions)
            for p in positions:
                solve(p)
            work = [lambda p=p: solve(p) for p in positions]
            ab(say, f"fates {name}", work, use, settings.rounds)


def check(say: Say, settings: Settings) -> None:
    """Positions built field by field, as a library caller or the game builds them: the
    full check, the quick pass (its melds remembered or not), a position checked again."""
    for name in ("game", "small", "hard", "late"):
        full, quick, cold, again, solves = [], [], [], [], []
        for p in cases(name, settings.positions):

            def fresh(p: Position = p) -> Position:
                return Position(p.table, p.rack, p.opened, p.rules)

            solve(fresh())
            full.append(timed(lambda: fresh()._check_built(), settings.times(5)))
            quick.append(timed(lambda: fresh()._looks_sound(), settings.times(5)))
            position_module._SOUND_MELDS.clear()
            cold.append(timed(lambda: fresh()._looks_sound()))
            again.append(timed(p.check_built, settings.times(200)))
            solves.append(timed(lambda: solve(fresh())))
        median = statistics.median
        s = median(solves)
        say(
            f"check {name}: full {median(full) * 1e3:.3f} ms ({median(full) / s:.1%} of a "
            f"solve), quick {median(quick) * 1e3:.3f} ms ({median(quick) / s:.1%}), melds "
            f"not yet remembered {median(cold) * 1e3:.3f} ms, position remembered "
            f"{median(again) * 1e6:.1f} us, solve {s * 1e3:.2f} ms"
        )
    rules = cases("game", 1)[0].rules
    box = position_module._box
    repeats = settings.times(2000)
    say(
        f"check box of a rule set: cached {timed(lambda: box(rules), repeats) * 1e6:.2f} us, "
        f"built {timed(lambda: box.__wrapped__(rules), repeats) * 1e6:.2f} us"
    )


def arranged(say: Say, settings: Settings) -> None:
    """Explanations with the arranged cache, emptied before each (one explanation's own
    repeats), against without it."""
    cached = arrangement.arranged
    plain = cached.__wrapped__

    def use(on: bool) -> None:
        # Both names: narration imported the function, arrangement's own callers look it up.
        for module in (arrangement, narration):
            put(module, "arranged", cached if on else plain)
        cached.cache_clear()

    with swapped(arrangement, "arranged"), swapped(narration, "arranged"):
        for name in ("game", "late", "hard"):
            moves: list[tuple[Position, tuple[Meld, ...]]] = []
            for p in cases(name, settings.positions):
                result = solve(p)
                if result.played:
                    moves.append((p, tuple(result.table)))
            work = [lambda m=m: explain(*m) for m in moves]
            ab(say, f"arranged {name}", work, use, settings.rounds)


def listing(say: Say, settings: Settings) -> None:
    """The 26x8x4+4J box's readings and candidates, against the initial meld's melds listed
    from the racks of its ``not-opened-jokers`` positions."""
    rules = GENERALISED
    longest = candidates.max_run_length(rules)
    read, readings = clocked(
        lambda: candidates.run_readings(rules, longest) + candidates._groups(rules)
    )
    built, melds = clocked(lambda: candidates._collect(rules, readings).melds)
    say(
        f"listing 26x8x4+4J: {len(readings)} readings listed in {read * 1e3:.0f} ms; "
        f"{len(melds)} candidates built in {built * 1e3:.0f} ms"
    )
    index = candidates.TileIndex(rules)
    racks = [p for p in cases("not-opened-jokers", settings.racks) if p.rules == rules]

    def hand(p: Position) -> object:
        return opening.hand_melds(rules, index.counts(p.rack), index)

    def with_jokers(p: Position) -> object:
        return opening.hand_readings_with_jokers(rules, index.counts(p.rack), index)

    hand_times = [timed(partial(hand, p)) for p in racks]
    jokers = [timed(partial(with_jokers, p)) for p in racks]
    solves = [timed(partial(solve, p)) for p in racks]
    if racks:
        median = statistics.median
        say(
            f"listing {len(racks)} racks: hand_melds {median(hand_times) * 1e3:.2f} ms, "
            f"hand_readings_with_jokers {median(jokers) * 1e3:.2f} ms, "
            f"solve {median(solves) * 1e3:.1f} ms"
        )


def needs(say: Say, settings: Settings) -> None:
    """A meld's tiles counted in a dict (``TileIndex.needs``) or a Counter."""
    positions = cases("game", settings.positions)
    index = candidates.TileIndex(positions[0].rules)
    melds = [m.tiles for p in positions for m in p.table]
    ids = index._ids

    def by_counter(tiles: Sequence[Tile]) -> tuple[tuple[int, int], ...]:
        return tuple(sorted(Counter(ids[t] for t in tiles).items()))

    repeats = settings.times(200)
    in_dict = timed(lambda: [index.needs(t) for t in melds], repeats) / len(melds)
    in_counter = timed(lambda: [by_counter(t) for t in melds], repeats) / len(melds)
    say(
        f"needs {len(melds)} melds: dict {in_dict * 1e6:.2f} us a meld, "
        f"Counter {in_counter * 1e6:.2f} us"
    )


def packing(say: Say, settings: Settings) -> None:
    """The checker's exact packing of each standard-box rack of ``not-opened-jokers`` (up
    to :data:`MOST_PACKED` tiles, its cache emptied) against the greedy packing."""
    racks = sorted(
        (len(p.rack), i, p)
        for i, p in enumerate(cases("not-opened-jokers", settings.racks))
        if p.rules.numbers == 13 and len(p.rack) <= MOST_PACKED
    )
    for size, _, p in racks:
        tiles = Counter(p.rack)
        checker._pack.cache_clear()
        exact = timed(partial(checker._best_packing, tiles, p.rules))
        greedy = timed(partial(checker._greedy_packing, tiles, p.rules))
        say(f"packing a rack of {size}: exact {exact * 1e3:.1f} ms, greedy {greedy * 1e3:.3f} ms")


PARTS: dict[str, Callable[[Say, Settings], None]] = {
    "records": records,
    "fates": fates,
    "check": check,
    "arranged": arranged,
    "listing": listing,
    "needs": needs,
    "packing": packing,
}


def main(argv: Sequence[str] | None = None, say: Say = print) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.choices",
        description="Measure the speed choices of benchmarks/RESULTS.md ('Speed choices').",
    )
    parser.add_argument("parts", nargs="*", metavar="PART", help=f"of {', '.join(PARTS)}")
    parser.add_argument("--quick", action="store_true", help="a tiny workload, to try a part")
    args = parser.parse_args(argv)
    # Checked here rather than by argparse's choices, which reject an empty list of parts.
    unknown = [part for part in args.parts if part not in PARTS]
    if unknown:
        parser.error(f"unknown part {unknown[0]!r} (parts: {', '.join(PARTS)})")
    settings = QUICK if args.quick else FULL
    for part in args.parts or PARTS:
        PARTS[part](say, settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
