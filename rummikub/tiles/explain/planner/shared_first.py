"""The first plan: pair old and new melds to keep the most tiles in place, route the rest."""

from __future__ import annotations

from rummikub.tiles.explain.planner.plan import Plan, Task, matching, paired, shared


def shared_first(task: Task, unchanged: dict[int, int]) -> Plan:
    """Pair melds by a maximum-weight matching on shared tiles (same kinds preferred: an
    extended or reordered meld is recognised whatever its order), then route the tiles left
    over."""
    # The same-kind bonuses of all pairs together stay below one shared tile's weight.
    old, new = task.old, task.new
    scale = 2 * (len(old) + len(new) + 1)
    taken = set(unchanged.values())
    edges: dict[tuple[int, int], int] = {}
    for i, before in enumerate(old):
        for j, after in enumerate(new):
            common = shared(before.tiles, after.tiles)
            if i not in unchanged and j not in taken and common:
                edges[i, j] = common * scale + (before.kind == after.kind)
    return paired(task, {**unchanged, **matching(edges, len(old))})
