"""A plan: which old meld is transformed into which new one, the tiles each keeps in place,
and the batches of tiles that move. How good a plan is (:meth:`Plan.cost`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rummikub.tiles.explain.planner.routing import Flow, route
from rummikub.tiles.explain.results import RACK, Source
from rummikub.tiles.melds import Meld
from rummikub.tiles.rules import Rules
from rummikub.tiles.tile_index import TileIndex
from rummikub.tiles.tiles import Tile


def size(tiles: Counter[Tile]) -> int:
    return sum(tiles.values())


def shared(a: Sequence[Tile], b: Sequence[Tile]) -> int:
    """How many tiles two melds have in common."""
    return sum((Counter(a) & Counter(b)).values())


@dataclass(frozen=True)
class Task:
    """What a plan is made for: the old and the new table, the played tiles, the rules."""

    old: tuple[Meld, ...]
    new: tuple[Meld, ...]
    played: Counter[Tile]
    rules: Rules


@dataclass
class Plan:
    """The pairing, the tiles kept in place and the tiles that move."""

    task: Task
    pairs: dict[int, int]  # old index -> new index
    kept: dict[int, Counter[Tile]]  # old index -> tiles that stay in place
    flows: list[Flow]

    @property
    def old(self) -> tuple[Meld, ...]:
        return self.task.old

    @property
    def new(self) -> tuple[Meld, ...]:
        return self.task.new

    @property
    def played(self) -> Counter[Tile]:
        return self.task.played

    @property
    def rules(self) -> Rules:
        return self.task.rules

    def cost(self) -> tuple[int, int, int]:
        """Fewer steps, then fewer melds touched, then more tiles left in place."""
        owner, n = self.owner, len(self.old)
        touched = {f.source for f in self.flows} | {owner.get(f.to, n + f.to) for f in self.flows}
        touched.discard(RACK)
        return len(self.flows), len(touched), -sum(map(size, self.kept.values()))

    @property
    def owner(self) -> dict[int, int]:
        """New index -> the old meld transformed into it."""
        return {j: i for i, j in self.pairs.items()}

    def incoming(self, j: int) -> list[Flow]:
        """The flows into new meld ``j``: from old melds by number, then from the rack."""
        found = [flow for flow in self.flows if flow.to == j]
        return sorted(found, key=lambda f: f.source if isinstance(f.source, int) else len(self.old))


class Tally:
    """The tiles of the old and the new melds and the rack, counted once for all the
    pairings a search plans; and, for each pair tried, what it keeps and leaves."""

    def __init__(self, task: Task) -> None:
        self.index = TileIndex(task.rules)
        self._before = [Counter(m.tiles) for m in task.old]
        self._after = [Counter(m.tiles) for m in task.new]
        self.old = [self.index.sparse(c) for c in self._before]
        self.new = [self.index.sparse(c) for c in self._after]
        self.rack = self.index.sparse(task.played)
        self._pairs: dict[tuple[int, int], tuple[Counter[Tile], dict[int, int], dict[int, int]]]
        self._pairs = {}

    def pair(self, i: int, j: int) -> tuple[Counter[Tile], dict[int, int], dict[int, int]]:
        """Old meld ``i`` paired with new meld ``j``: the tiles kept in place, and the
        counts of what the old meld gives away and of what the new one still needs."""
        if (i, j) not in self._pairs:
            kept = self._before[i] & self._after[j]
            gives = self.index.sparse(self._before[i] - kept)
            self._pairs[i, j] = kept, gives, self.index.sparse(self._after[j] - kept)
        return self._pairs[i, j]


def paired(task: Task, pairs: Mapping[int, int], tally: Tally | None = None) -> Plan:
    """The plan for a pairing: each paired old meld keeps the tiles it shares with its
    new meld in place; the other tiles are routed. ``tally``: the tiles of these melds,
    if already counted (a search plans many pairings)."""
    tally = tally or Tally(task)
    kept: dict[int, Counter[Tile]] = {}
    supply: dict[Source, dict[int, int]] = {}
    demand: dict[int, dict[int, int]] = {}
    for i in range(len(task.old)):
        if i in pairs:
            kept[i], supply[i], demand[pairs[i]] = tally.pair(i, pairs[i])
        else:
            supply[i] = tally.old[i]
    supply[RACK] = tally.rack
    demand = {j: demand[j] if j in demand else tally.new[j] for j in range(len(task.new))}
    flows = route(supply, demand, tally.index.tiles)
    return Plan(task, dict(sorted(pairs.items())), kept, flows)


def unchanged_pairs(old: Sequence[Meld], new: Sequence[Meld]) -> dict[int, int]:
    """Old meld index -> an identical new meld: paired first, so never touched."""
    pairs: dict[int, int] = {}
    for j, after in enumerate(new):
        i = next((i for i, m in enumerate(old) if i not in pairs and m.same_as(after)), None)
        if i is not None:
            pairs[i] = j
    return pairs


def matching(edges: Mapping[tuple[int, int], int], n: int) -> dict[int, int]:
    """A maximum-weight matching of old melds to new ones, from ``{(i, j): weight}``."""
    # Imported here: only explanations need networkx, and it is slow to load
    # (benchmarks/RESULTS.md, "Targets": the earlier lever "One `rummikub solve` imports
    # only what solving needs").
    import networkx as nx

    # Nodes are integers (old i is i, new j is n + j): string nodes would hash differently
    # in every process, and so would the matching chosen among equally good ones.
    graph = nx.Graph()
    for (i, j), weight in edges.items():
        graph.add_edge(i, n + j, weight=weight)
    return {min(a, b): max(a, b) - n for a, b in nx.max_weight_matching(graph)}
