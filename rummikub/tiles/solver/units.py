"""Sub-model: locked units in the move model, and the tiles that substitute their jokers.

Each locked unit (see :mod:`.locks`) gets one variable per fate that fits the tiles in play;
a fate with a meld lays that meld's tiles (a column of the balance rows). Every joker a fate
substitutes needs a tile of its own: a played rack tile not used in the initial meld or,
with ``joker_swap_from = "rack_or_table"``, a table tile that is free.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator

from rummikub.core.lp.rows import INF, Rows, Terms
from rummikub.tiles.melds import Meld
from rummikub.tiles.solver.candidates import Counts, Needs, TileIndex
from rummikub.tiles.solver.locks import Fate
from rummikub.tiles.solver.opening import OpeningMeld

#: ``column(needs, upper, name)``: a new integer column whose tiles enter the balance rows.
Column = Callable[[Needs, int, str], int]


class Unit:
    """A locked meld: an old table meld (``old`` is its index) or an initial joker meld.

    A plain class, not a dataclass: every ``rummikub solve`` process makes the class on
    import, and a dataclass takes far longer to make (benchmarks/RESULTS.md, "Speed
    choices", *Records*)."""

    __slots__ = ("fates", "meld", "old", "variables")

    def __init__(self, meld: Meld, old: int | None, fates: list[Fate]) -> None:
        self.meld = meld
        self.old = old
        self.fates = fates
        #: ``variables[k]``: copies of the unit ending in ``fates[k]``.
        self.variables: list[int] = []

    def copies(self) -> Terms:
        """Copies of the unit laid, whatever their fate."""
        return [(var, 1.0) for var in self.variables]

    def released(self) -> Terms:
        """Copies of the unit released whole (all its tiles go to the free pool)."""
        pairs = zip(self.fates, self.variables, strict=True)
        return [(var, 1.0) for fate, var in pairs if fate.meld is None]

    def left_as_it_was(self) -> list[int]:
        """The variable of the fate that leaves the unit exactly as it was, if any."""
        return [v for f, v in zip(self.fates, self.variables, strict=True) if f.unchanged]

    def chosen(self, count: Callable[[int], int]) -> Iterator[tuple[Fate, int]]:
        """Each fate with the copies a solution gives it (fates with none left out)."""
        for fate, var in zip(self.fates, self.variables, strict=True):
            n = count(var)
            if n:
                yield fate, n


class LockedUnits:
    """The fates of the locked units, and the supply of the tiles their fates demand."""

    def __init__(self, rows: Rows, index: TileIndex, available: Counts, column: Column) -> None:
        self.rows = rows
        self.index = index
        self.available = available
        self.column = column
        self.units: list[Unit] = []
        #: ``demands[t]``: (fate variable, tiles of type ``t`` it needs as substitutes).
        self.demands: dict[int, Terms] = defaultdict(list)

    def old(self) -> list[Unit]:
        """The units that are old table melds."""
        return [u for u in self.units if u.old is not None]

    def add(self, unit: Unit, upper: int) -> Terms:
        """One variable per fate of ``unit`` that fits the tiles in play, each at most
        ``upper`` copies; returns the copies of the unit laid."""
        unit.fates = [f for f in unit.fates if self._fits(f)]
        for k, fate in enumerate(unit.fates):
            name = f"fate_{len(self.units)}_{k}"
            if fate.meld is None:
                var = self.rows.integer(upper, name)
            else:
                var = self.column(self.index.needs(fate.meld.tiles), upper, name)
            unit.variables.append(var)
            for tile, n in Counter(fate.demands).items():
                self.demands[self.index[tile]].append((var, float(n)))
        self.units.append(unit)
        if unit.old is not None:
            # An old locked meld has exactly one fate.
            self.rows.row(1.0, 1.0, unit.copies())
        return unit.copies()

    def _fits(self, fate: Fate) -> bool:
        return all(n <= self.available[self.index[t]] for t, n in fate.needs)

    def supply(
        self,
        played: Callable[[int], int | None],
        opening: list[OpeningMeld],
        free_table: Counts | None,
    ) -> None:
        """Each joker substituted needs its own tile: a played tile not laid in the initial
        meld or, when ``free_table`` is given (``rack_or_table``), a table tile that is free:
        ``free_table[t]`` from the start, or one of a released old locked meld."""
        if not self.demands:
            return
        from_table = free_table is not None
        released = self._release_sources() if from_table else {}
        for t, need in self.demands.items():
            terms = list(need)
            upper = 0.0
            tiles = played(t)
            if tiles is not None:
                terms.append((tiles, -1.0))
                for meld in opening:
                    # Tiles laid in the initial meld have left the rack; with rack_or_table
                    # those of a joker-free initial meld are free table tiles instead.
                    if t in meld.needs and not (from_table and not meld.has_joker):
                        terms += [(var, coef * meld.needs[t]) for var, coef in meld.copies]
            if free_table is not None:
                upper = float(free_table[t])
                terms += [(use, -1.0) for use in released.get(t, [])]
            self.rows.row(-INF, upper, terms)

    def _release_sources(self) -> dict[int, list[int]]:
        """Tiles of released locked units, usable as substitutes for *other* units.

        Old locked melds and, with ``rack_or_table``, initial melds with a joker (released
        in the same turn) give their tiles once released, and take others'. Released units
        are ordered (a rank per unit) so that two locked melds never release each other; a
        unit's tiles serve only units released after it.
        """
        rows = self.rows
        givers = [k for k, u in enumerate(self.units) if u.released()]
        if not givers:
            return {}
        n = len(self.units)
        # Takers by tile type: (unit number, fate variable, tiles of that type demanded).
        takers: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        for b, taker in enumerate(self.units):
            for fate, var in zip(taker.fates, taker.variables, strict=True):
                for t, demanded in Counter(self.index[d] for d in fate.demands).items():
                    takers[t].append((b, var, demanded))
        rank: dict[int, int] = {}

        def ranked(k: int) -> int:
            if k not in rank:
                rank[k] = rows.real(0, n - 1, f"rank_{k}")
            return rank[k]

        sources: dict[int, list[int]] = defaultdict(list)
        # Tiles given to each taker's fate, by tile type: (fate variable, demanded, uses).
        given: dict[tuple[int, int], tuple[int, int, list[int]]] = {}
        for a in givers:
            giver = self.units[a]
            released = giver.released()
            tiles = Counter(self.index[t] for t in giver.meld.numbered)
            for t, count in tiles.items():
                uses = []
                for b, var, demanded in takers.get(t, []):
                    if a == b:
                        continue
                    use = rows.boolean(f"from_{a}_{b}_{t}_{var}")
                    rows.row(-INF, 0.0, [(use, 1.0), (var, -1.0)])
                    # giver released before taker: rank[b] >= rank[a] + 1 when used.
                    rows.row(1.0 - n, INF, [(ranked(b), 1.0), (ranked(a), -1.0), (use, -n)])
                    uses.append(use)
                    given.setdefault((var, t), (var, demanded, []))[2].append(use)
                if uses:
                    rows.row(
                        -INF, 0.0, [(u, 1.0) for u in uses] + [(v, -c * count) for v, c in released]
                    )
                    sources[t].extend(uses)
        for var, demanded, uses in given.values():
            if len(uses) > demanded:
                # A fate takes no more tiles from released melds than it demands: the supply
                # is counted per tile type, so a surplus given to one meld would otherwise
                # cover another meld's demand outside the ranking (a release cycle).
                rows.row(-INF, 0.0, [(u, 1.0) for u in uses] + [(var, -float(demanded))])
        return sources
