"""Explaining a move: where each tile of the new table came from, and steps to get there.

:func:`explain` compares the old table with the new one and answers two questions:

* **Origins.** For every new meld, where each of its tiles came from (the rack, or an old
  meld by number), and for every old meld what became of it: unchanged, extended,
  rearranged (tiles taken from it), broken up, or a joker released (and by which tile).
* **Steps.** A numbered list of physical actions that, replayed in order on the old table,
  gives the new one. Each step moves tiles from one place (the rack or a meld) to one meld.

How the steps are kept few (the choices a good player makes too):

1. Old and new melds are *paired*: a paired old meld is transformed in place, keeps its
   number, and the tiles it keeps never move. Identical melds are paired first, so an
   unchanged meld is never touched. Each step moves the tiles of one source bound for one
   destination, so a step count is the number of (source, destination) batches.
2. Two plans are made and the one with fewer steps kept (then the one that touches fewer
   melds, then the one that moves fewer tiles): pair the rest by a maximum-weight bipartite
   matching on shared tiles (networkx; extended or reordered melds are recognised whatever
   their order) and route the tiles left over; or route all tiles first and pair the melds
   joined by the most batches. A local search then re-pairs one changed old meld at a time
   (with another new meld it shares a tile with, or with none) while that lowers the cost:
   the most shared tiles is not always the fewest steps. Routing is greedy, the largest
   batch first. The plan is not proven minimal.
3. The steps are put in the order that leaves the fewest melds invalid after each step
   (adding to a meld before taking from it keeps it valid; a joker is replaced before it is
   taken), finishing one meld before starting another, taking table tiles before laying
   rack tiles beside them, and otherwise in the old table's order. A step may still leave
   a meld invalid for a while; its text says until which step.

Melds are numbered as in INTERFACE.md ("Explanations"): the old table's melds ``0..n-1``;
each step whose target is ``"new"`` starts the next number. :func:`replay` applies steps
to a table, so anyone can check an explanation.

One module per job: :mod:`.results` (the result types and their JSON), :mod:`.planner`
(pairing and routing, point 1 and 2), :mod:`.origins` (what the plan means for each meld),
:mod:`.ordering` (point 3), :mod:`.arrangement` (loose tiles as a meld),
:mod:`.narration` (every word), :mod:`.replay`.

This package never judges legality (that is :mod:`rummikub.tiles.checker`) and never prints; step
texts are returned as *words*, with tiles kept apart from the prose so a renderer can
color them.
"""

from __future__ import annotations

import sys
import types
from collections import Counter
from collections.abc import Sequence

from rummikub.core.errors import ExplainError, ReplayError
from rummikub.tiles.explain.narration import aftermath_words, change_words, narrate
from rummikub.tiles.explain.ordering import order
from rummikub.tiles.explain.origins import aftermaths, changes
from rummikub.tiles.explain.planner import plan
from rummikub.tiles.explain.replay import listed, replay
from rummikub.tiles.explain.results import (
    NEW,
    RACK,
    Aftermath,
    AftermathKind,
    Change,
    ChangeKind,
    Explanation,
    Origin,
    Release,
    Source,
    Step,
    Target,
    Transfer,
    Word,
    Words,
    plain,
)
from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Move, Position
from rummikub.tiles.tiles import Tile, sorted_tiles

__all__ = [
    "NEW",
    "RACK",
    "Aftermath",
    "AftermathKind",
    "Change",
    "ChangeKind",
    "ExplainError",
    "Explanation",
    "Origin",
    "Release",
    "ReplayError",
    "Source",
    "Step",
    "Target",
    "Transfer",
    "Word",
    "Words",
    "aftermath_words",
    "change_words",
    "explain",
    "plain",
    "replay",
]


def explain(position: Position, move: Move | Sequence[Meld]) -> Explanation:
    """Origins and steps of ``move`` (a :class:`Move`, or just the new table) in ``position``.

    The played tiles are the new table's tiles less the old table's. Raises
    :class:`ExplainError` if a table tile is missing from the new table, if the played tiles
    differ from ``move.played``, or if the rack does not hold them.

    >>> position = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    >>> after = [Meld.parse("R1 R2 R3 R4"), Meld.parse("K7 R7 B7 O7")]
    >>> print(explain(position, after).text())
    1. Add R4 from your rack to "R1 R2 R3" (now "R1 R2 R3 R4").
    2. Add O7 from your rack to "K7 R7 B7" (now "K7 R7 B7 O7").
    """
    from rummikub.tiles.arguments import explainable

    explainable(position, move)
    old = position.table
    new = move.table if isinstance(move, Move) else tuple(move)
    played = _played(position, new, move.played if isinstance(move, Move) else None)
    the_plan = plan(old, new, played, position.rules)
    after = aftermaths(the_plan)
    steps, numbers = narrate(the_plan, after, order(the_plan, after))
    return Explanation(
        old=old,
        new=new,
        played=sorted_tiles(played.elements(), position.rules.colors),
        changes=changes(the_plan, numbers),
        aftermaths=after,
        steps=steps,
        rules=position.rules,
    )


def _played(position: Position, new: Sequence[Meld], given: Sequence[Tile] | None) -> Counter[Tile]:
    """The played tiles, after checking that the move conserves the table's tiles."""
    new_tiles = Counter(t for meld in new for t in meld.tiles)
    old_tiles = position.table_tiles()
    lost = old_tiles - new_tiles
    if lost:
        raise ExplainError(
            f"the new table lacks the table tiles {listed(lost)}: every table tile stays on "
            "the table, so no steps lead there"
        )
    played = new_tiles - old_tiles
    if given is not None and Counter(given) != played:
        raise ExplainError(
            f"the move says it plays {listed(Counter(given)) or 'nothing'}, but the new table "
            f"adds {listed(played) or 'nothing'} to the old one"
        )
    beyond = played - position.rack_tiles()
    if beyond:
        raise ExplainError(f"the new table adds {listed(beyond)}, which the rack does not hold")
    return played


class _CallablePackage(types.ModuleType):
    """This package, callable as :func:`explain`.

    ``rummikub.tiles.explain`` names both this package and the function: the package's own import
    rebinds the attribute ``explain`` of :mod:`rummikub` to the package, so without this
    ``from rummikub import explain`` would give the package or the function depending on
    what was imported first.
    """

    def __call__(self, position: Position, move: Move | Sequence[Meld]) -> Explanation:
        return explain(position, move)


sys.modules[__name__].__class__ = _CallablePackage
