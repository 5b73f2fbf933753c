"""Present the new table as a player would lay it.

The model lays runs of at most 5 tiles; a player lays ``R1 ... R8`` as one run. Runs of one
color that join end to end are shown as one run, except old melds left as they were (they
stay where they lie) and two locked units, old melds or initial melds with a joker (each
must own its own meld).
"""

from __future__ import annotations

from collections.abc import Sequence

from rummikub.tiles.melds import Meld, laid_run
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import Tile


def _chain(runs: list[Meld]) -> list[Meld]:
    """Join runs of one color that meet end to end."""
    joined: list[Meld] = []
    for run in sorted(runs, key=lambda m: (m.color, m.start)):
        last = joined[-1] if joined else None
        if last is not None and last.color == run.color and last.end + 1 == run.start:
            joined[-1] = Meld("run", last.tiles + run.tiles)
        else:
            joined.append(run)
    return joined


def _grow(anchor: Meld, runs: list[Meld]) -> Meld:
    """Attach to a locked run the free runs that meet its ends (removed from ``runs``)."""
    for run in list(runs):
        if run.color != anchor.color:
            continue
        if run.end + 1 == anchor.start:
            anchor = Meld("run", run.tiles + anchor.tiles)
            runs.remove(run)
        elif anchor.end + 1 == run.start:
            anchor = Meld("run", anchor.tiles + run.tiles)
            runs.remove(run)
    return anchor


def lay_out(
    old_table: Sequence[Meld],
    in_place: Sequence[Meld | None],
    growable: Sequence[bool],
    new: list[Meld],
    rules: Rules,
    units: Sequence[Meld] = (),
) -> tuple[Meld, ...]:
    """The whole new table, each meld where a player would look for it.

    ``in_place[i]`` is what became of old meld ``i`` if it stayed a meld of its own (left as
    it was, or a locked unit kept and maybe extended); ``growable[i]`` says it may still
    take free runs at its ends. ``units`` are the initial melds holding a joker, locked for
    the rest of the turn: each stays a meld of its own, its jokers where they stand (joined
    to another locked meld, the lock would be broken). Other new melds take the place of
    the old meld they share most tiles with (an extended or reshaped meld stays where it
    lay); the rest follow, runs by color and start, then groups by number.
    """
    runs = _chain([m for m in new if m.kind == "run"])
    slots: list[Meld | None] = [
        _grow(meld, runs) if meld is not None and grows and meld.kind == "run" else meld
        for meld, grows in zip(in_place, growable, strict=True)
    ]
    rest = [
        *(m for m in new if m.kind != "run"),
        *(_jokers_last(run, rules) for run in runs),
        *units,
    ]
    # Greedy by shared tiles: this only orders the answer, legality does not depend on it.
    pairs = sorted(_sharing([(i, m) for i, m in enumerate(old_table) if slots[i] is None], rest))
    placed: set[int] = set()
    for minus_shared, i, j in pairs:
        if -minus_shared < 2:
            break
        if slots[i] is None and j not in placed:
            slots[i] = rest[j]
            placed.add(j)
    left = sorted(
        (m for j, m in enumerate(rest) if j not in placed), key=lambda m: meld_order(m, rules)
    )
    return (*(m for m in slots if m is not None), *left)


def _jokers_last(run: Meld, rules: Rules) -> Meld:
    """A free run laid as a player lays it, spare jokers at the top where there is room
    (``K5 K6 J`` rather than ``J K5 K6``; :func:`rummikub.tiles.melds.laid_run`): free jokers may
    stand anywhere."""
    if not any(t.is_joker for t in run.tiles):
        return run  # laid in ascending order already: nothing to move
    laid = laid_run(run.tiles, rules)
    assert laid is not None, run
    return laid


def _sharing(olds: list[tuple[int, Meld]], new: list[Meld]) -> list[tuple[int, int, int]]:
    """(-shared tiles, old index, new index) for each old and new meld sharing a tile."""
    holders: dict[Tile, list[int]] = {}
    for j, meld in enumerate(new):
        for tile in set(meld.tiles):
            holders.setdefault(tile, []).append(j)
    found: list[tuple[int, int, int]] = []
    for i, meld in olds:
        # Plain dicts: a Counter per old meld cost more than the counting (a Python set-up,
        # a Python __missing__ per new key; benchmarks/RESULTS.md, "Speed choices",
        # *Counting a meld's tiles*).
        counts: dict[Tile, int] = {}
        for tile in meld.tiles:
            counts[tile] = counts.get(tile, 0) + 1
        shared: dict[int, int] = {}
        for tile, count in counts.items():
            for j in holders.get(tile, ()):
                shared[j] = shared.get(j, 0) + min(count, new[j].tiles.count(tile))
        found.extend((-n, i, j) for j, n in shared.items())
    return found


def meld_order(meld: Meld, rules: Rules) -> tuple[int, int, int]:
    """Runs by color and start, then groups by number."""
    if meld.kind == "run":
        return (0, rules.colors.index(meld.color), meld.start)
    return (1, meld.number, 0)
