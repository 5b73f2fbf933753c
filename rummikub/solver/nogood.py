"""No-good rows: forbid the moves that play exactly a given multiset of rack tiles.

The analysis's k best moves (:mod:`rummikub.analysis`) are distinct by what they play, so
the k-th best is the best move whose played tiles differ from each of the first k-1
multisets. The played-tile variables are integers (0..copies in the rack), so "differs" is
a disjunction over tile types: for some type ``t``, ``played[t] >= q[t] + 1`` (``up``) or
``played[t] <= q[t] - 1`` (``down``), each side a binary that switches its bound on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummikub.solver.rows import INF, add_row


def forbid_played(
    solver: Any, played: Mapping[int, Any], rack: list[int], multiset: Mapping[int, int], name: str
) -> None:
    """Rows that make ``played`` (tile index -> variable, bounded 0..``rack[t]``) differ
    from ``multiset`` (tile index -> count) in at least one tile type.

    A multiset the rack cannot play (a tile the rack lacks, or too many copies) is no
    move at all, so it needs no row.
    """
    if any(n > 0 and n > rack[t] for t, n in multiset.items()):
        return
    switches: list[Any] = []
    for t, var in played.items():
        q = multiset.get(t, 0)
        if q < rack[t]:
            # up = 1 forces played[t] >= q + 1:  played[t] - (q + 1) * up >= 0.
            up = solver.BoolVar(f"{name}_up_{t}")
            add_row(solver, 0.0, INF, [(var, 1.0), (up, -float(q + 1))])
            switches.append(up)
        if q > 0:
            # down = 1 forces played[t] <= q - 1:  played[t] + (rack - q + 1) * down <= rack.
            down = solver.BoolVar(f"{name}_down_{t}")
            add_row(solver, -INF, float(rack[t]), [(var, 1.0), (down, float(rack[t] - q + 1))])
            switches.append(down)
    # At least one tile type differs. With no switch at all (the multiset is the whole
    # rack's only option) the row 0 >= 1 makes the model infeasible, as it should.
    add_row(solver, 1.0, INF, [(s, 1.0) for s in switches])
