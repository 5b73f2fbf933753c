"""Putting a plan's batches in order: the order that leaves the fewest melds invalid after
each step.

Adding to a meld before taking from it keeps it valid; a joker is replaced before it is
taken, and picked up at once after; one meld is finished before another is started; table
tiles are taken before rack tiles are laid beside them; otherwise the old table's order is
followed. A step may still leave a meld invalid for a while (the narration says until when).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rummikub.tiles.explain.arrangement import valid
from rummikub.tiles.explain.planner import Flow, Plan
from rummikub.tiles.explain.results import NEW, RACK, Aftermath, Target
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import JOKER, Tile


@dataclass
class Board:
    """The table while the steps are replayed: melds by number, and the new melds begun."""

    melds: list[Counter[Tile]]
    numbers: dict[int, int]  # new index -> meld number, for melds that exist already

    @classmethod
    def start(cls, plan: Plan) -> Board:
        """The old table, with the old melds transformed in place already numbered."""
        return cls([Counter(m.tiles) for m in plan.old], plan.owner)

    def apply(self, flow: Flow) -> tuple[Target, int]:
        """Carry out ``flow``: its target as a step writes it, and the meld number."""
        if isinstance(flow.source, int):
            self.melds[flow.source] -= flow.tiles
        if flow.to in self.numbers:
            number = self.numbers[flow.to]
            self.melds[number] += flow.tiles
            return number, number
        number = len(self.melds)
        self.numbers[flow.to] = number
        self.melds.append(flow.tiles.copy())
        return NEW, number


def order(plan: Plan, aftermaths: tuple[Aftermath, ...]) -> list[Flow]:
    """The plan's flows in the order of the steps."""
    return _Order(plan, aftermaths).flows()


class _Order:
    def __init__(self, plan: Plan, aftermaths: tuple[Aftermath, ...]) -> None:
        self.plan = plan
        self.aftermaths = aftermaths
        self.owner = plan.owner

    def flows(self) -> list[Flow]:
        board = Board.start(self.plan)
        remaining = list(self.plan.flows)
        ordered: list[Flow] = []
        while remaining:
            ready = [f for f in remaining if not self._waits(f, remaining)] or remaining
            last = ordered[-1].to if ordered else None
            # A joker just replaced is picked up at once: the swap reads as one move.
            freed = [f for f in ready if ordered and self._frees(ordered[-1], f)]
            best = min(
                freed or ready,
                key=lambda f: (
                    _harm(board, f, self.plan.rules),
                    f.to != last,  # finish one meld before starting another
                    f.source == RACK,  # take table tiles before laying rack tiles by them
                    self._place(f),
                ),
            )
            board.apply(best)
            remaining.remove(best)
            ordered.append(best)
        return ordered

    def _place(self, flow: Flow) -> tuple[int, int]:
        """Otherwise, go through the old table in its order, then the new melds."""
        n = len(self.plan.old)
        target = self.owner.get(flow.to, n + flow.to)
        return target, flow.source if isinstance(flow.source, int) else n

    def _frees(self, last: Flow, flow: Flow) -> bool:
        """Whether ``flow`` takes a joker that ``last`` just replaced."""
        source = flow.source
        return (
            isinstance(source, int)
            and bool(flow.tiles[JOKER])
            and (last in self._substitutions(source))
        )

    def _waits(self, flow: Flow, remaining: list[Flow]) -> bool:
        """A joker leaves its old meld only after the tile replacing it has arrived."""
        if not isinstance(flow.source, int) or not flow.tiles[JOKER]:
            return False
        return any(f in remaining for f in self._substitutions(flow.source))

    def _substitutions(self, i: int) -> list[Flow]:
        """The flows that bring old meld ``i`` the tiles replacing its jokers in place."""
        aftermath = self.aftermaths[i]
        if aftermath.into is None:
            return []
        found: list[Flow] = []
        for release in aftermath.released:
            for flow in self.plan.incoming(aftermath.into):
                if release.by and flow.source == release.source and flow.tiles[release.by]:
                    found.append(flow)
        return found


def _harm(board: Board, flow: Flow, rules: Rules) -> int:
    """How many more melds are invalid after ``flow`` than before it."""
    touched: list[Counter[Tile]] = []
    if isinstance(flow.source, int):
        touched.append(board.melds[flow.source])
    target = board.melds[board.numbers[flow.to]] if flow.to in board.numbers else Counter()
    before = sum(_invalid(m, rules) for m in (*touched, target))
    after_source = [m - flow.tiles for m in touched]
    after = sum(_invalid(m, rules) for m in (*after_source, target + flow.tiles))
    return after - before


def _invalid(tiles: Counter[Tile], rules: Rules) -> bool:
    return bool(+tiles) and not valid(tiles, rules)
