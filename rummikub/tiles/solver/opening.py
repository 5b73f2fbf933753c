"""Sub-model: the initial meld (RULES.md, "Initial meld").

Melds laid from the hand alone, worth at least ``initial_meld`` together, at least one of
them. A player who plays on in the same turn lays them from the tiles played; a meld among
them that holds a joker is a locked unit for the rest of the turn.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable
from typing import NamedTuple

from rummikub.core import deadline
from rummikub.core.lp.rows import INF, Rows, Terms, clp
from rummikub.tiles.melds import Meld
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver.candidates import (
    Counts,
    Needs,
    TileIndex,
    max_run_length,
)
from rummikub.tiles.tiles import JOKER, Tile


# A named tuple, not a dataclass: every ``rummikub solve`` process imports this module,
# and a frozen dataclass takes far longer to make (benchmarks/RESULTS.md, "Speed choices",
# *Records*).
class OpeningMeld(NamedTuple):
    """A meld the hand may lay as (part of) the initial meld."""

    #: Its tiles: tile index -> count.
    needs: dict[int, int]
    #: Its value, jokers at the number they stand for.
    value: int
    #: Copies of it laid, as a linear expression.
    copies: Terms
    has_joker: bool


def require_opening(
    rows: Rows, rules: Rules, melds: list[OpeningMeld], played: Callable[[int], int | None] | None
) -> None:
    """Hand-only melds worth at least ``initial_meld``, at least one of them; with
    ``played`` (playing on after opening), laid from the tiles played."""
    rows.row(
        float(rules.initial_meld),
        INF,
        [(var, coef * meld.value) for meld in melds for var, coef in meld.copies],
    )
    rows.row(1.0, INF, [term for meld in melds for term in meld.copies])
    if played is None:
        return
    for t in range(TileIndex(rules).size):
        terms = [
            (var, coef * meld.needs[t])
            for meld in melds
            if t in meld.needs
            for var, coef in meld.copies
        ]
        if terms:
            tiles = played(t)
            rows.row(-INF, 0.0, terms + ([] if tiles is None else [(tiles, -1.0)]))


def hand_melds(rules: Rules, limit: Counts, index: TileIndex) -> list[tuple[Needs, int, int]]:
    """(tiles, value, copies that fit) of every candidate meld within ``limit`` (a rack):
    what ``candidates(rules).fitting(limit)`` gives, enumerated from the rack alone, since
    a big box's whole candidate table costs more to build than a solve, and a hand lays few
    of them (benchmarks/RESULTS.md, "Speed choices", *The initial meld's melds*). Melds
    with the same tiles are one, at the value of its best reading (as in
    :mod:`.candidates`); sorted by tiles."""
    numbers, colors = rules.numbers, rules.colors
    jokers = min(rules.jokers, limit[index.joker])
    best: dict[Needs, int] = {}

    def keep(numbered: list[int], k: int, value: int) -> None:
        key = tuple(sorted([(t, 1) for t in numbered] + ([(index.joker, k)] if k else [])))
        if best.get(key, -1) < value:
            best[key] = value

    for c in range(len(colors)):
        have = [bool(limit[c * numbers + n]) for n in range(numbers)]
        for length in range(3, max_run_length(rules) + 1):
            for start in range(numbers - length + 1):
                window = range(start, start + length)
                missing = [i for i in window if not have[i]]
                if len(missing) > jokers:
                    continue
                value = sum(n + 1 for n in window)
                present = [i for i in window if have[i]]
                most = min(jokers, length - 1)
                for k in range(len(missing), most + 1):
                    # Jokers in every missing place, and in k - len(missing) of the others.
                    for swapped in itertools.combinations(present, k - len(missing)):
                        numbered = [c * numbers + i for i in present if i not in swapped]
                        keep(numbered, k, value)
    for n in range(numbers):
        held = [c * numbers + n for c in range(len(colors)) if limit[c * numbers + n]]
        for size in range(3, min(5, rules.max_group) + 1):
            for k in range(min(jokers, size - 1) + 1):
                for chosen in itertools.combinations(held, size - k):
                    keep(list(chosen), k, (n + 1) * size)
    found = []
    for key in sorted(best):
        upper = min(limit[t] // count for t, count in key)
        found.append((key, best[key], upper))
    return found


def hand_readings_with_jokers(rules: Rules, rack: Counts, index: TileIndex) -> list[Meld]:
    """Every meld with a joker that the hand alone can lay (each joker reading apart,
    since the lock keeps the reading), in the order of :func:`run_readings` then
    :func:`group_readings`; enumerated from the rack, not from the box's every reading,
    which a big box has too many of to walk per position (benchmarks/RESULTS.md, "Speed choices",
    *The initial meld's melds*)."""
    jokers = min(rules.jokers, rack[index.joker])
    numbers, colors = rules.numbers, rules.colors
    found: list[Meld] = []
    if not jokers:
        return found
    for c, color in enumerate(colors):
        have = [bool(rack[c * numbers + n]) for n in range(numbers)]
        for length in range(3, max_run_length(rules) + 1):
            for start in range(numbers - length + 1):
                missing = {i for i in range(length) if not have[start + i]}
                if len(missing) > jokers:
                    continue
                tiles = [Tile(color, start + i + 1) for i in range(length)]
                for k in range(max(1, len(missing)), min(jokers, length - 1) + 1):
                    for places in itertools.combinations(range(length), k):
                        if missing.issubset(places):
                            laid = [JOKER if i in places else t for i, t in enumerate(tiles)]
                            found.append(Meld("run", tuple(laid)))
    for n in range(numbers):
        for size in range(3, min(5, rules.max_group) + 1):
            for k in range(1, min(jokers, size - 1) + 1):
                for chosen in itertools.combinations(range(len(colors)), size - k):
                    if all(rack[c * numbers + n] for c in chosen):
                        numbered = tuple(Tile(colors[c], n + 1) for c in chosen)
                        found.append(Meld("group", numbered + (JOKER,) * k))
    return found


def opens_without_jokers(rules: Rules, spare: Counts, index: TileIndex, reached: int = 0) -> bool:
    """Whether joker-free melds from the tiles ``spare`` (counts by tile id) are worth
    ``initial_meld`` together, at least one of them: an initial meld without jokers; with
    ``reached`` (the value of initial melds laid besides, at least one), worth the rest.

    The best melds greedily first (nearly always enough: one group of tens reaches 30),
    then, only if that falls short, a small integer program settles it exactly.
    """
    limit = list(spare)
    limit[index.joker] = 0
    melds = sorted(hand_melds(rules, limit, index), key=lambda m: -m[1])
    if not melds:
        return reached > 0 and reached >= rules.initial_meld
    left, total = list(limit), reached
    for tiles, value, _ in melds:
        while all(left[t] >= n for t, n in tiles):
            for t, n in tiles:
                left[t] -= n
            total += value
    if total >= rules.initial_meld:
        return True
    return reached + _best_opening(melds, limit) >= rules.initial_meld


def _best_opening(melds: list[tuple[Needs, int, int]], limit: Counts) -> float:
    """The most the melds (tiles, value, copies that fit) are worth together within
    ``limit``, by branch and bound over CLP (a proven optimum; -inf if left open)."""

    from rummikub.core.lp.search import branch_and_bound

    rows = Rows(clp())
    columns = [rows.integer(upper, f"meld_{k}") for k, (_, _, upper) in enumerate(melds)]
    uses: dict[int, Terms] = {}
    for var, (tiles, _, _) in zip(columns, melds, strict=True):
        for t, n in tiles:
            uses.setdefault(t, []).append((var, float(n)))
    for t, terms in uses.items():
        rows.row(-INF, float(limit[t]), terms)
    rows.maximise((var, float(value)) for var, (_, value, _) in zip(columns, melds, strict=True))
    left = deadline.remaining()
    found = branch_and_bound(
        rows,
        columns,
        node_limit=10_000,
        iteration_limit=1_000_000,
        deadline=None if left is None else time.perf_counter() + left,
    )
    if found.status != "optimal" or found.values is None:
        return -math.inf
    values = found.values
    counts = [round(values[v]) for v in columns]
    return float(sum(n * value for n, (_, value, _) in zip(counts, melds, strict=True)))
