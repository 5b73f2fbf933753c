"""The second plan: route every tile first, then pair the melds that the most batches join."""

from __future__ import annotations

from collections import Counter

from rummikub.tiles.explain.planner.plan import Plan, Task, matching, size
from rummikub.tiles.explain.planner.routing import Flow, assign
from rummikub.tiles.explain.results import RACK, Source
from rummikub.tiles.tiles import Tile


def routes_first(task: Task, unchanged: dict[int, int]) -> Plan:
    """Route every tile of the changed melds, then pair the melds joined by the most
    batches (each pair saves a step), the bigger batches first."""
    old, new = task.old, task.new
    taken = set(unchanged.values())
    supply: dict[Source, Counter[Tile]] = {
        i: Counter(meld.tiles) for i, meld in enumerate(old) if i not in unchanged
    }
    supply[RACK] = task.played.copy()
    demand = {j: Counter(meld.tiles) for j, meld in enumerate(new) if j not in taken}
    flows = assign(supply, demand, task.rules)
    # One more paired batch always outweighs any difference in tiles kept.
    scale = 1 + sum(size(f.tiles) for f in flows)
    edges = {(f.source, f.to): scale + size(f.tiles) for f in flows if isinstance(f.source, int)}
    pairs = {**unchanged, **matching(edges, len(old))}
    kept = {i: Counter(old[i].tiles) for i in unchanged}
    moving: list[Flow] = []
    for flow in flows:
        if isinstance(flow.source, int) and pairs.get(flow.source) == flow.to:
            kept[flow.source] = flow.tiles
        else:
            moving.append(flow)
    return Plan(task, dict(sorted(pairs.items())), kept, moving)
