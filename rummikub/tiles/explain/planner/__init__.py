"""The step planner: which old meld becomes which new one, and which tiles move where.

Old and new melds are *paired*: a paired old meld is transformed in place, keeps its number,
and the tiles it keeps never move. Identical melds are paired first, so an unchanged meld is
never touched. Two plans are made and the one with the lower :meth:`Plan.cost` kept
(:mod:`.shared_first`: pair by shared tiles, route the rest; :mod:`.routes_first`: route
first, pair the melds the most batches join), then :mod:`.local_search` re-pairs one meld at
a time while that lowers the cost. Neither first plan is best on every table: the first
keeps ``J K2 K3`` in place for ``J R2 R3`` (and then moves K2 K3 on), the second keeps it
whole for ``J K2 K3 K4 K5 K6``. The plan is not proven minimal.

The planner only plans; what the plan means for each meld is :mod:`rummikub.tiles.explain.origins`.
"""

from __future__ import annotations

from collections import Counter

from rummikub.tiles.explain.planner.local_search import improved
from rummikub.tiles.explain.planner.plan import Plan, Task, unchanged_pairs
from rummikub.tiles.explain.planner.routes_first import routes_first
from rummikub.tiles.explain.planner.routing import Flow
from rummikub.tiles.explain.planner.shared_first import shared_first
from rummikub.tiles.melds import Meld
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import Tile

__all__ = ["Flow", "Plan", "plan"]


def plan(old: tuple[Meld, ...], new: tuple[Meld, ...], played: Counter[Tile], rules: Rules) -> Plan:
    """The plan with the fewest steps (then the fewest melds touched, then the most tiles
    left in place) that the three algorithms find."""
    task = Task(old, new, played, rules)
    unchanged = unchanged_pairs(old, new)
    plans = [shared_first(task, unchanged), routes_first(task, unchanged)]
    return improved(min(plans, key=Plan.cost), unchanged)
