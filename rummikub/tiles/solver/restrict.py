"""Rows that keep a model to some moves, for the analysis (:mod:`rummikub.tiles.analysis`).

Each function returns an :data:`~rummikub.tiles.solver.model.ExtraRows` hook that
:class:`~rummikub.tiles.solver.model.MoveModel` runs once its rows are built:

- :func:`forbid_played`: no move that plays exactly a given multiset of rack tiles (the k
  best moves are distinct by what they play, so the k-th best is the best move whose played
  tiles differ from each of the first k-1);
- :func:`better_than`: only moves scoring more than a given score on the objective's first
  two levels (the outs ask whether a drawn tile beats today's best).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rummikub.core.lp.rows import INF, Terms
from rummikub.tiles.tiles import Tile

if TYPE_CHECKING:
    from rummikub.tiles.solver.model import ExtraRows, MoveModel


def forbid_played(multiset: Mapping[Tile, int], name: str) -> ExtraRows:
    """Rows that make the played tiles differ from ``multiset`` in at least one tile type.

    The played-tile variables are integers (0..copies in the rack), so "differs" is a
    disjunction over tile types: for some type ``t``, ``played[t] >= q[t] + 1`` (``up``) or
    ``played[t] <= q[t] - 1`` (``down``), each side a binary that switches its bound on. A
    multiset the rack cannot play (a tile it lacks, or too many copies) is no move at all,
    so it needs no row.
    """

    def add(model: MoveModel) -> None:
        rows, rack = model.rows, model.rack
        wanted = {model.index[t]: n for t, n in multiset.items() if n > 0}
        if any(n > rack[t] for t, n in wanted.items()):
            return
        switches: Terms = []
        for t, var in model.vars.played_tiles().items():
            q = wanted.get(t, 0)
            if q < rack[t]:
                # up = 1 forces played[t] >= q + 1:  played[t] - (q + 1) * up >= 0.
                up = rows.boolean(f"{name}_up_{t}")
                rows.row(0.0, INF, [(var, 1.0), (up, -float(q + 1))])
                switches.append((up, 1.0))
            if q > 0:
                # down = 1 forces played[t] <= q - 1:  played[t] + (rack - q + 1) * down <= rack.
                down = rows.boolean(f"{name}_down_{t}")
                rows.row(-INF, float(rack[t]), [(var, 1.0), (down, float(rack[t] - q + 1))])
                switches.append((down, 1.0))
        # At least one tile type differs (no switch at all: the row 0 >= 1, no move).
        rows.row(1.0, INF, switches)

    return add


def better_than(first: int, second: int) -> ExtraRows:
    """Only moves scoring more than (``first``, ``second``) on the objective's first two
    levels (value then tiles, or tiles then value): one row,
    ``weight * first + second >= weight * f0 + s0 + 1``, with a weight above any second
    level, so that it reads lexicographically."""

    def add(model: MoveModel) -> None:
        values = model.index.values()
        played = model.vars.played_tiles()
        value: Terms = [(v, float(values[t])) for t, v in played.items()]
        tiles: Terms = [(v, 1.0) for v in played.values()]
        if model.objective == "value":
            most_second = sum(model.rack)
            levels = (value, tiles)
        else:
            most_second = sum(values[t] * n for t, n in enumerate(model.rack))
            levels = (tiles, value)
        weight = max(most_second, second) + 1
        terms = [(v, weight * c) for v, c in levels[0]] + levels[1]
        model.rows.row(float(weight * first + second + 1), INF, terms)

    return add
