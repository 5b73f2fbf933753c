"""Free runs as a flow along the numbers of each color (a compact alternative to one column
per candidate run).

For color ``c`` and number ``n``:
- ``start[n]``: runs whose first tile is at ``n`` (they cover ``n``, ``n+1``, ``n+2`` at least);
- ``long[n]``: runs at their third or later tile at ``n``;
- ``jokers[n]``: jokers standing at ``n`` in those runs.
Runs at their second tile at ``n`` are ``start[n-1]``, so the tiles at ``n`` are
``start[n] + start[n-1] + long[n]``, and a run continues exactly when
``start[n-2] <= long[n] <= start[n-2] + long[n-1]``.

Any flow splits back into runs of 3 or more tiles, one tile per number. A run holds at
least one numbered tile as long as no more than two jokers are in play, which is when
the model uses this formulation (otherwise it lays candidate runs as columns).
The flow has about a tenth of the columns of the candidate runs, and its LP relaxation is
as tight; on the benchmark's hard corpus it made the model build and solve several times
faster.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rummikub.melds import Meld
from rummikub.rules import Rules
from rummikub.solver.candidates import Counts, TileIndex
from rummikub.solver.rows import INF, add_row
from rummikub.tiles import JOKER, Tile


@dataclass(slots=True)
class ColorFlow:
    color: str
    start: dict[int, Any] = field(default_factory=dict)
    long: dict[int, Any] = field(default_factory=dict)
    jokers: dict[int, Any] = field(default_factory=dict)


class RunFlow:
    """The free runs of a position as flow variables in ``solver``."""

    def __init__(
        self,
        solver: Any,
        rules: Rules,
        index: TileIndex,
        available: Counts,
        balance: Callable[[int], Any],
    ) -> None:
        self.rules = rules
        self.colors: list[ColorFlow] = []
        jokers = int(available[index.joker])
        numbers = rules.numbers
        for color in rules.colors:
            flow = ColorFlow(color)
            real = [0] * (numbers + 3)
            for n in range(1, numbers + 1):
                real[n] = available[index[Tile(color, n)]]
            if not any(real):
                continue
            # How many run tiles each number can hold (its copies in play plus jokers).
            room = [r + jokers if 1 <= n <= numbers else 0 for n, r in enumerate(real)]
            for n in range(1, numbers - 1):
                upper = min(room[n], room[n + 1], room[n + 2])
                # The first three places of a run need numbered tiles where no joker is left.
                covered = sum(1 for k in range(n, n + 3) if real[k])
                if upper and covered + jokers >= 3:
                    flow.start[n] = solver.IntVar(0, upper, f"start_{color}{n}")
            for n in range(3, numbers + 1):
                if room[n] and (n - 2 in flow.start or n - 1 in flow.long):
                    flow.long[n] = solver.IntVar(0, room[n], f"long_{color}{n}")
            for n in range(1, numbers + 1):
                self._number(solver, flow, n, jokers, index, balance)
            self.colors.append(flow)

    @staticmethod
    def _number(
        solver: Any,
        flow: ColorFlow,
        n: int,
        jokers: int,
        index: TileIndex,
        balance: Callable[[int], Any],
    ) -> None:
        started = flow.start.get(n - 2)
        long = flow.long.get(n)
        before = flow.long.get(n - 1)
        if n >= 3:
            # Runs at their second tile at n-1 go on; longer runs may go on or stop.
            if long is not None:
                if started is not None:
                    add_row(solver, 0.0, INF, [(long, 1.0), (started, -1.0)])
                feeders = [(v, -1.0) for v in (started, before) if v is not None]
                add_row(solver, -INF, 0.0, [(long, 1.0), *feeders])
            elif started is not None:
                raise AssertionError("a run at its second tile always has room to go on")
        covering = [v for v in (flow.start.get(n), flow.start.get(n - 1), long) if v is not None]
        if not covering:
            return
        tile_row = balance(index[Tile(flow.color, n)])
        for var in covering:
            tile_row.SetCoefficient(var, 1.0)
        if jokers:
            joker = solver.IntVar(0, jokers, f"joker_{flow.color}{n}")
            add_row(solver, -INF, 0.0, [(joker, 1.0), *((v, -1.0) for v in covering)])
            tile_row.SetCoefficient(joker, -1.0)
            balance(index.joker).SetCoefficient(joker, 1.0)
            flow.jokers[n] = joker

    def runs(self, count: Callable[[Any], int]) -> list[Meld]:
        """Split the chosen flow back into runs."""
        found: list[Meld] = []
        for flow in self.colors:
            found.extend(_split(flow, self.rules.numbers, count))
        return found


class JokerOnlyRun(Exception):
    """The flow's answer splits only into runs of which one holds no numbered tile.

    Possible only with three or more jokers in play, where the flow is a relaxation; the
    model is then rebuilt with candidate runs, which cannot do this.
    """


def _split(flow: ColorFlow, numbers: int, count: Callable[[Any], int]) -> list[Meld]:
    def value(table: dict[int, Any], n: int) -> int:
        var = table.get(n)
        return 0 if var is None else count(var)

    def numbered(run: list[Tile]) -> bool:
        return any(not t.is_joker for t in run)

    done: list[list[Tile]] = []
    young: list[list[Tile]] = []  # runs with one or two tiles so far
    grown: list[list[Tile]] = []  # runs with three or more
    for n in range(1, numbers + 1):
        tile = Tile(flow.color, n)
        second = [r for r in young if len(r) == 2]
        first = [r for r in young if len(r) == 1]
        # long[n] counts the runs reaching their third tile and the grown runs going on;
        # runs still without a numbered tile go on first, to find one.
        going_on = value(flow.long, n) - len(second)
        grown.sort(key=numbered)
        done.extend(grown[going_on:])
        grown = grown[:going_on]
        new: list[list[Tile]] = [[] for _ in range(value(flow.start, n))]
        covering = grown + second + first + new
        # Numbered tiles go first to runs without one; jokers to runs that have one.
        covering.sort(key=numbered)
        numbered_here = len(covering) - value(flow.jokers, n)
        for i, run in enumerate(covering):
            run.append(tile if i < numbered_here else JOKER)
        grown += second
        young = first + new
    assert not young, "every run reaches three tiles"
    runs = done + grown
    if not all(numbered(run) for run in runs):
        raise JokerOnlyRun(flow.color)
    return [Meld("run", tuple(run)) for run in runs]
