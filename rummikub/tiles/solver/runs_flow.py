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
least one numbered tile as long as no more than two jokers are in play; with more, the
flow is a relaxation that could lay a run of jokers alone, so :func:`_split` refuses
such an answer (``JokerOnlyRun``) and the model is solved again with candidate runs.
The flow has about a tenth of the columns of the candidate runs, and its LP relaxation is
as tight, so the model builds and solves faster (benchmarks/RESULTS.md, "Solver choices:
the move model").
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from rummikub.core import deadline
from rummikub.core.lp.builder import INF, Builder
from rummikub.tiles.melds import Meld
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver.candidates import Counts, TileIndex
from rummikub.tiles.tiles import JOKER, Tile


class ColorFlow:
    """The flow variables of one color, by number: their indices in the model (or, in
    tests, values that ``count`` reads back as they are). A plain class, not a dataclass
    (benchmarks/RESULTS.md, "Solver choices: start-up")."""

    __slots__ = ("color", "jokers", "long", "start")

    def __init__(
        self,
        color: str,
        start: dict[int, int] | None = None,
        long: dict[int, int] | None = None,
        jokers: dict[int, int] | None = None,
    ) -> None:
        self.color = color
        self.start: dict[int, int] = {} if start is None else start
        self.long: dict[int, int] = {} if long is None else long
        self.jokers: dict[int, int] = {} if jokers is None else jokers


class RunFlow:
    """The free runs of a position as flow variables, by variable index.

    :meth:`build` lays the flow of a whole rule set into a model once (the template of
    :mod:`.template`); :meth:`limit` then fits it to one position by bounds alone.
    """

    def __init__(self, rules: Rules, colors: list[ColorFlow]) -> None:
        self.rules = rules
        self.colors = colors

    @classmethod
    def build(
        cls, model: Builder, rules: Rules, index: TileIndex, balance: Callable[[int], int]
    ) -> RunFlow:
        """Every flow variable and row of ``rules`` (``balance(t)``: the row of tile type
        ``t``), as variable indices. Every variable is fixed at 0 until :meth:`limit` frees
        those the position's tiles can use."""
        numbers = rules.numbers
        colors: list[ColorFlow] = []
        for color in rules.colors:
            deadline.check()  # the time limit covers building (see .deadline)
            flow = ColorFlow(color)
            for n in range(1, numbers - 1):
                flow.start[n] = model.integer(0, f"start_{color}{n}")
            for n in range(3, numbers + 1):
                flow.long[n] = model.integer(0, f"long_{color}{n}")
            for n in range(1, numbers + 1):
                _number(model, flow, n, rules.jokers, index, balance)
            colors.append(flow)
        return cls(rules, colors)

    def limit(self, available: Counts, index: TileIndex) -> tuple[RunFlow, dict[int, float]]:
        """Bound the flow to the tiles in play: the flow of the variables left free to
        move, and their upper bounds by variable index (the others stay fixed at 0, and
        need no reading back).

        A run is a window of 3 or more numbers whose missing tiles (none in play) jokers
        fill, so a variable is freed only where such a window can hold it: ``start[n]``
        needs the window ``n..n+2``, ``long[n]`` the window ``n-2..n``, ``jokers[n]`` any
        window of 3 around ``n``. Each bound is exact (every table's runs respect it);
        with a joker in play this frees a few dozen variables instead of every one.
        """
        jokers = available[index.joker]
        numbers = self.rules.numbers
        ids = _tile_ids(self.rules)
        active: dict[int, float] = {}
        limited: list[ColorFlow] = []
        for flow in self.colors:
            kept = ColorFlow(flow.color)
            limited.append(kept)
            real = [0] * (numbers + 3)
            for n, t in enumerate(ids[flow.color], start=1):
                real[n] = available[t]
            if not any(real):
                continue
            # How many run tiles each number can hold (its copies in play plus jokers).
            room = [r + jokers for r in real]
            room[0] = room[numbers + 1] = room[numbers + 2] = 0
            # fits[n]: the window n..n+2 can be laid (its gaps filled by jokers).
            fits = [False] * (numbers + 3)
            for n in range(1, numbers - 1):
                fits[n] = (not real[n]) + (not real[n + 1]) + (not real[n + 2]) <= jokers
            for n, i in flow.start.items():
                if fits[n]:
                    upper = min(room[n], room[n + 1], room[n + 2])
                    _free(i, upper, kept.start, n, active)
            for n, i in flow.long.items():
                if fits[n - 2]:
                    upper = min(room[n - 2], room[n - 1], room[n])
                    _free(i, upper, kept.long, n, active)
            if jokers:
                for n, i in flow.jokers.items():
                    if fits[n] or (n >= 2 and fits[n - 1]) or (n >= 3 and fits[n - 2]):
                        _free(i, min(jokers, room[n]), kept.jokers, n, active)
        return RunFlow(self.rules, limited), active

    def renumbered(self, where: dict[int, int]) -> RunFlow:
        """The same flow with each variable index ``i`` read as ``where[i]`` (a model that
        holds only some of the template's variables, renumbered)."""
        colors = [
            ColorFlow(
                flow.color,
                {n: where[i] for n, i in flow.start.items()},
                {n: where[i] for n, i in flow.long.items()},
                {n: where[i] for n, i in flow.jokers.items()},
            )
            for flow in self.colors
        ]
        return RunFlow(self.rules, colors)

    def runs(self, count: Callable[[int], int]) -> list[Meld]:
        """Split the chosen flow back into runs (``count`` reads a variable's value)."""
        found: list[Meld] = []
        for flow in self.colors:
            if flow.start:
                found.extend(_split(flow, self.rules.numbers, count))
        return found


def _free(i: int, upper: int, kept: dict[int, int], n: int, active: dict[int, float]) -> None:
    """Let flow variable ``i`` (at number ``n``) move up to ``upper``."""
    if upper > 0:
        kept[n] = i
        active[i] = float(upper)


@lru_cache(maxsize=16)
def _tile_ids(rules: Rules) -> dict[str, tuple[int, ...]]:
    """The tile id of each color's numbers 1.., by color (cached: hashing tiles is slow)."""
    index = TileIndex(rules)
    return {
        color: tuple(index[Tile(color, n)] for n in range(1, rules.numbers + 1))
        for color in rules.colors
    }


def _number(
    model: Builder,
    flow: ColorFlow,
    n: int,
    jokers: int,
    index: TileIndex,
    balance: Callable[[int], int],
) -> None:
    """The rows of number ``n``: runs go on as runs do, and the tiles at ``n`` balance."""
    started = flow.start.get(n - 2)
    long = flow.long.get(n)
    before = flow.long.get(n - 1)
    if long is not None:
        # Runs at their second tile at n-1 go on; longer runs may go on or stop.
        if started is not None:
            model.row(0.0, INF, [(long, 1.0), (started, -1.0)])
        feeders = [(v, -1.0) for v in (started, before) if v is not None]
        model.row(-INF, 0.0, [(long, 1.0), *feeders])
    covering = [v for v in (flow.start.get(n), flow.start.get(n - 1), long) if v is not None]
    tile_row = balance(index[Tile(flow.color, n)])
    for var in covering:
        model.term(tile_row, var, 1.0)
    if jokers:
        joker = model.integer(jokers, f"joker_{flow.color}{n}")
        # No more jokers at n than runs covering it.
        model.row(-INF, 0.0, [(joker, 1.0), *((v, -1.0) for v in covering)])
        model.term(tile_row, joker, -1.0)
        model.term(balance(index.joker), joker, 1.0)
        flow.jokers[n] = joker


class JokerOnlyRun(Exception):
    """The flow's answer splits only into runs of which one holds no numbered tile.

    Possible only with three or more jokers in play, where the flow is a relaxation; the
    model is then rebuilt with candidate runs, which cannot do this.
    """


def _split(flow: ColorFlow, numbers: int, count: Callable[[int], int]) -> list[Meld]:
    def value(table: dict[int, int], n: int) -> int:
        var = table.get(n)
        return 0 if var is None else count(var)

    def numbered(run: list[Tile]) -> bool:
        return any(not t.is_joker for t in run)

    done: list[list[Tile]] = []
    young: list[list[Tile]] = []  # runs with one or two tiles so far
    grown: list[list[Tile]] = []  # runs with three or more
    for n in range(1, numbers + 1):
        starting = value(flow.start, n)
        if not (starting or young or grown):
            continue  # no run here: nothing to read (most numbers of a small position)
        tile = Tile(flow.color, n)
        second = [r for r in young if len(r) == 2]
        first = [r for r in young if len(r) == 1]
        # long[n] counts the runs reaching their third tile and the grown runs going on;
        # runs still without a numbered tile go on first, to find one.
        going_on = value(flow.long, n) - len(second)
        if len(grown) > 1:
            grown.sort(key=numbered)
        done.extend(grown[going_on:])
        grown = grown[:going_on]
        new: list[list[Tile]] = [[] for _ in range(starting)]
        covering = grown + second + first + new
        jokers = value(flow.jokers, n)
        if jokers:
            # Numbered tiles go first to runs without one; jokers to runs that have one.
            covering.sort(key=numbered)
        numbered_here = len(covering) - jokers
        for i, run in enumerate(covering):
            run.append(tile if i < numbered_here else JOKER)
        grown += second
        young = first + new
    assert not young, "every run reaches three tiles"
    runs = done + grown
    if not all(numbered(run) for run in runs):
        raise JokerOnlyRun(flow.color)
    return [Meld("run", tuple(run)) for run in runs]
