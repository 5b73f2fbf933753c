"""Solving a not-opened position whose initial meld may hold jokers: relaxations first.

Under the joker lock an initial meld laid with a joker stays locked for the rest of the
turn (RULES.md rule 3), so the exact model makes each such meld the hand can lay a locked
unit with one column per meld it may end in (:mod:`.locks`): for a big rack with 3-4
jokers, thousands of units and tens of thousands of columns, slow to build and to solve
(benchmarks/RESULTS.md, "Targets": the lever "Not opened with jokers, solved by
relaxations first").

Yet a joker in the initial meld is needed only to reach ``initial_meld``: once the player
has opened, the jokers are free tiles like any other. Two relaxations allow every move
the rules allow, so their optimum bounds the exact one from above:

- the position *as if opened* (no initial meld at all);
- the *relaxed* model: initial melds with a joker are laid as free tiles (like joker-free
  ones, no locked units), and the initial melds are not branched on (fractional).

A move of either is legal when the tiles it plays hold an initial meld *without jokers*
(less the tiles that substitute jokers under ``joker_swap_from = "rack"``): the player lays
that meld, then plays on; the jokers are played as free tiles. Or when melds with a joker
of its new table, new and made of tiles played (less every substitute), reach the initial
meld together with such joker-free melds: the player lays them from the hand and leaves
them as they are. A big rack nearly always shows one, so:

1. the position as if opened: its move, if it shows such an initial meld, is optimal;
2. else a rack that cannot open without its jokers goes to the exact model;
3. else the relaxed model, its move likewise;
4. else the exact model without initial melds holding a joker, asked for a move scoring
   as much as the relaxed one: if it finds one, that move is optimal;
5. else the exact model decides (jokers are needed to open at the best score).

Every answer is a legal move, proven optimal by the exact model or by a bound. Which path a
position takes depends on the position alone, never on time.
"""

from __future__ import annotations

from collections.abc import Callable

from rummikub.core import deadline
from rummikub.tiles.position import Position
from rummikub.tiles.solver.candidates import TileIndex
from rummikub.tiles.solver.model import ModelOutcome, MoveModel
from rummikub.tiles.solver.opening import opens_without_jokers
from rummikub.tiles.tiles import JOKER

#: ``build(position, relax)``: the model of ``position``; ``relax``: the relaxed model, or
#: for a position as if opened, the stand-in whose moves must open without jokers.
Build = Callable[[Position, bool], MoveModel]


def takes_relaxations(position: Position) -> bool:
    """Whether ``position`` is one the relaxations serve: not opened, playing on after the
    initial meld, jokers locked, jokers in the rack."""
    rules = position.rules
    if position.opened or not rules.open_then_play or rules.joker_lock != "strict":
        return False
    return JOKER in position.rack


def opens_without_its_jokers(position: Position) -> bool:
    """Whether the rack could lay an initial meld without its jokers."""
    index = TileIndex(position.rules)
    return opens_without_jokers(position.rules, index.counts(position.rack), index)


def solve_model(build: Build, position: Position) -> ModelOutcome:
    """The outcome of the exact model of ``position`` (see the module docstring), within
    the time limit of :mod:`.deadline`."""
    if not takes_relaxations(position):
        return build(position, False).solve(deadline.remaining())
    opened = Position(position.table, position.rack, True, position.rules)
    bound = build(opened, True).solve(deadline.remaining())
    if bound.solution is None or not bound.relaxed:
        return bound  # no move even opened (proven or not), or a legal move
    if not opens_without_its_jokers(position):
        return build(position, False).solve(deadline.remaining())
    model = build(position, True)
    bound = model.solve(deadline.remaining())
    if bound.solution is None or not bound.relaxed or bound.score is None:
        return bound
    # Jokers were needed to open with those tiles: is there a move as good without?
    model.forbid_relaxation()
    restricted = model.solve(deadline.remaining(), above=bound.score - 1)
    if restricted.solution is not None and restricted.score == bound.score:
        proven = restricted.status == "optimal" and bound.status == "optimal"
        return _as(restricted, "optimal" if proven else "feasible")
    return build(position, False).solve(deadline.remaining())


def _as(outcome: ModelOutcome, status: str) -> ModelOutcome:
    return ModelOutcome(
        "optimal" if status == "optimal" else "feasible",
        outcome.solution,
        outcome.nodes,
        outcome.score,
        outcome.relaxed,
    )
