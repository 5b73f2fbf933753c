"""The third algorithm: improve a plan by re-pairing one changed old meld at a time."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from rummikub.tiles.explain.planner.plan import Plan, Tally, paired, shared

#: How many steps the plans tried by the pairing search may hold in all (each is routed).
SEARCH_BUDGET: Final = 4000


def improved(plan: Plan, unchanged: Mapping[int, int]) -> Plan:
    """Re-pair the changed melds while that lowers the :meth:`Plan.cost` (a local search).

    Pairing by shared tiles can cost steps: for ``K1 K2 K3 K4 K5 K6`` and the rack's
    tiles becoming ``K1 K2 K3 K4``, ``K1 K2 K3``, ``K4 K5 K6`` and ``K5 K6 K7``, the old
    run shares most with ``K1 K2 K3 K4``, but left in place as ``K1 K2 K3`` (or
    ``K4 K5 K6``) it saves a step. So each changed old meld in turn is paired with
    every new meld it shares a tile with (the old meld paired with that one taking its
    former partner, or none) or with none, and a change is kept when the plan it gives
    costs less; until no change does, or the plans tried hold :data:`SEARCH_BUDGET`
    steps in all (a table rearranged throughout stays fast; the search only ever lowers
    the cost). Each plan is made by :func:`paired`.
    """
    taken = set(unchanged.values())
    near: dict[int, list[int]] = {}
    for i, before in enumerate(plan.old):
        if i not in unchanged:
            near[i] = [
                j
                for j, after in enumerate(plan.new)
                if j not in taken and shared(before.tiles, after.tiles)
            ]
    tally = Tally(plan.task)
    best, cost = plan, plan.cost()
    budget = SEARCH_BUDGET
    better = True
    while better:
        better = False
        for i, options in near.items():
            for pairs in _neighbours(best.pairs, i, options, near):
                if budget <= 0:
                    return best
                tried = paired(plan.task, pairs, tally)
                budget -= len(tried.flows)
                if tried.cost() < cost:
                    best, cost, better = tried, tried.cost(), True
                    break
    return best


def _neighbours(
    pairs: dict[int, int], i: int, options: list[int], near: Mapping[int, list[int]]
) -> Iterable[dict[int, int]]:
    """Pairings that differ from ``pairs`` in old meld ``i``'s partner."""
    was = pairs.get(i)
    owner = {j: k for k, j in pairs.items()}
    for j in [*options, None]:
        if j == was:
            continue
        changed = {k: v for k, v in pairs.items() if k != i}
        if j is None:
            yield changed
            continue
        changed[i] = j
        other = owner.get(j)
        if other is None:
            yield changed
            continue
        del changed[other]
        yield changed
        if was is not None and was in near[other]:
            yield {**changed, other: was}
