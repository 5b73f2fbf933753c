"""Playing to win: the equity of a move, by determinized Monte Carlo (the ``equity`` strategy).

Every other strategy answers "which move lays most now". This one asks which move is most
likely to win the hand, as a player sees it (RULES.md, "what a player knows"):

1. **Candidates**: the best move by value, the move laying the most tiles, the best move that
   keeps the jokers, the ``hold`` variant (keep back the melds made of rack tiles alone) and
   drawing, told apart by the tiles they lay (:func:`candidates`).
2. **Determinizations**: ``samples`` deals of the tiles the player cannot see into the other
   racks (their known sizes) and the pool (:func:`rummikub.game.view.determinize`), seeded by
   the position itself, so that the same position and view give the same move whatever the
   load. Every candidate is played out on the *same* deals (common random numbers: the
   difference between two candidates is measured on equal luck, which is what decides).
3. **Playouts**: after the candidate, every player in turn plays the solver's best move (or
   draws) for ``rounds`` rounds, the player's own next turn included; a hand that ends in a
   playout scores 1 for a win, 0 for a loss (a shared win its share). A hand still running is
   scored by :func:`evaluation`, a win probability from the racks' sizes and totals.
4. The candidate with the highest mean wins (ties: the earlier candidate, the best move
   first); its estimate comes with a 95% interval over the samples.

The budget is a count of samples and rounds, never a clock. With 2 players and the pool empty
the game has perfect information and the exact endgame search decides when it can
(:mod:`rummikub.game.endgame`).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rummikub.core.errors import RummikubError
from rummikub.core.stats import mean_ci
from rummikub.game.engine import GameState, advance, turn_of_move
from rummikub.game.view import View, determinize
from rummikub.tiles.position import Move, Position
from rummikub.tiles.solver import solve
from rummikub.tiles.tiles import Tile

__all__ = [
    "DEFAULT",
    "ENDGAME_BUDGET",
    "Budget",
    "Candidate",
    "Equity",
    "candidates",
    "equity",
    "evaluate",
    "evaluation",
]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much work one decision may do: deals sampled, and rounds played out on each."""

    samples: int = 6
    rounds: int = 1

    def __post_init__(self) -> None:
        if self.samples < 1 or self.rounds < 0:
            raise RummikubError(
                f"an equity budget needs at least 1 sample and 0 rounds, not "
                f"{self.samples} and {self.rounds}"
            )


#: The default budget (benchmarks/RESULTS.md, "Play to win", gives its decision time and
#: its duel against ``best``).
DEFAULT = Budget()


@dataclass(frozen=True, slots=True)
class Candidate:
    """One candidate move and what the playouts made of it."""

    label: str
    move: Move
    #: The value and number of tiles laid.
    value: int
    tiles: int
    #: Mean win probability over the samples, and its 95% interval.
    win: float
    ci: tuple[float, float]
    #: Mean rack-count lead at the end of the playouts (the others' smallest rack less the
    #: player's own), a tie-break and a hint at the margin.
    lead: float
    samples: int

    @property
    def played(self) -> tuple[Tile, ...]:
        return self.move.played


@dataclass(frozen=True, slots=True)
class Equity:
    """Every candidate, the best equity first."""

    candidates: tuple[Candidate, ...]

    @property
    def best(self) -> Candidate:
        return self.candidates[0]


def candidates(position: Position) -> list[tuple[str, Move]]:
    """The moves worth comparing, distinct by the tiles they lay: the best by value, the most
    tiles, the best keeping the jokers, the ``hold`` variant, and drawing (laying nothing)."""
    from rummikub.game.strategies import held
    from rummikub.tiles.checker import check

    found: list[tuple[str, Move]] = []
    seen: set[tuple[Tile, ...]] = set()

    def add(label: str, move: Move) -> None:
        key = tuple(sorted(move.played, key=position.rules.sort_key))
        if key not in seen:
            seen.add(key)
            found.append((label, move))

    add("best", solve(position).move)
    if not found[0][1].played:
        return found  # nothing can be laid: drawing is the only move
    add("tiles", solve(position, objective="tiles").move)
    if any(t.is_joker for t in position.rack):
        kept = tuple(t for t in position.rack if not t.is_joker)
        if kept:
            add("keep-jokers", solve(replace(position, rack=kept)).move)
    variant = held(position)
    # Solver moves pass the checker by construction; a variant built from one is checked.
    if check(position, variant.table).legal:
        add("hold", variant)
    add("draw", Move(position.table, ()))
    return found


def evaluation(state: GameState, seat: int) -> float:
    """``seat``'s chance to win a hand still running: a logistic in the lead in tiles over the
    closest opponent (a tile is about a quarter of a turn of the race), and, with the pool
    empty, in the lead in rack totals (lowest total wins there)."""
    # Set by hand, not fitted: a tile of lead is worth about as much as not having opened
    # is a handicap of two; benchmarks/RESULTS.md ("Play to win") measures the whole.
    mine = state.rack_counts[seat]
    others = [n for s, n in enumerate(state.rack_counts) if s != seat]
    lead = min(others) - mine
    x = 0.45 * lead - 0.35 * (len(others) - 1)
    if not state.opened[seat]:
        x -= 0.8
    x += 0.25 * sum(1 for s, o in enumerate(state.opened) if s != seat and not o)
    return 1.0 / (1.0 + math.exp(-x))


def _outcome(state: GameState, seat: int) -> float:
    result = state.result
    assert result is not None
    if seat not in result.winners:
        return 0.0
    return 1.0 / len(result.winners)


def _playout(state: GameState, seat: int, rounds: int) -> tuple[float, float]:
    """Everyone plays the best move for ``rounds`` rounds; the win estimate and the lead."""
    turns = rounds * len(state.players)
    while not state.over and turns > 0:
        move = solve(state.position()).move
        state = advance(state, turn_of_move(state, move), judge=False)
        turns -= 1
    others = [n for s, n in enumerate(state.rack_counts) if s != seat]
    lead = float(min(others) - state.rack_counts[seat])
    if state.over:
        return _outcome(state, seat), lead
    return evaluation(state, seat), lead


def seed_of(position: Position, view: View) -> int:
    """A seed from everything the player sees, so that a decision is the same whatever the
    load or the order games are played in."""
    text = "|".join(
        (
            position.to_notation(),
            repr(position.opened),
            repr(view.rack_counts),
            repr(view.opened),
            str(view.pool_count),
            str(view.turns),
        )
    )
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def evaluate(
    position: Position, view: View, budget: Budget = DEFAULT, *, seed: int | None = None
) -> Equity:
    """Every candidate's equity, the best first (see the module's text)."""
    moves = candidates(position)
    base = seed_of(position, view) if seed is None else seed
    deals = [determinize(position, view, random.Random(base + i)) for i in range(budget.samples)]
    scored: list[tuple[float, float, int, Candidate]] = []
    for order, (label, move) in enumerate(moves):
        wins: list[float] = []
        leads: list[float] = []
        for state in deals:
            after = advance(state, turn_of_move(state, move), judge=False)
            win, lead = _playout(after, view.seat, budget.rounds)
            wins.append(win)
            leads.append(lead)
        mean = sum(wins) / len(wins)
        candidate = Candidate(
            label=label,
            move=move,
            value=_value(position, move),
            tiles=len(move.played),
            win=mean,
            ci=_interval(wins),
            lead=sum(leads) / len(leads),
            samples=len(wins),
        )
        scored.append((-mean, -candidate.lead, order, candidate))
    scored.sort(key=lambda s: s[:3])
    return Equity(tuple(s[3] for s in scored))


def _value(position: Position, move: Move) -> int:
    return sum(position.rules.tile_value(t) for t in move.played)


def _interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95% normal interval of the mean of values in [0, 1] (simulate's), clipped to
    [0, 1]; with one sample nothing is known."""
    if len(values) < 2:
        return (0.0, 1.0)
    _, (low, high) = mean_ci(values)
    return (max(0.0, low), min(1.0, high))


#: Nodes the strategy gives the exact endgame before it falls back on playouts: a node costs
#: up to a solve, so this keeps a decision within the playouts' own cost (RESULTS.md, "The
#: exact endgame": most standard endgames decide in a few nodes).
ENDGAME_BUDGET = 60


def equity(position: Position, view: View) -> Move:
    """The ``equity`` strategy: with 2 players and the pool empty, the exact endgame's move
    where the search decides within :data:`ENDGAME_BUDGET`; else the candidate with the best
    equity at the default budget."""
    if view.players == 2 and view.pool_count == 0:
        from rummikub.game.endgame import decide

        # Nobody draws again: the opponent holds exactly the unseen tiles, so the one deal
        # is the truth and the hand a game of perfect information.
        state = determinize(position, view, random.Random(0))
        if not state.over:
            verdict = decide(state, nodes=ENDGAME_BUDGET)
            if verdict.outcome != "unknown":
                return verdict.move or Move(position.table, ())
    return evaluate(position, view).best.move


# -- for the game review (rummikub.game.review) --------------------------------------------


def deals_of(
    position: Position, view: View, budget: Budget = DEFAULT, *, seed: int | None = None
) -> list[GameState]:
    """The sampled deals :func:`evaluate` plays every candidate out on, from the same seeds, so
    that a move judged apart (the move a record played) is measured on the same luck."""
    base = seed_of(position, view) if seed is None else seed
    return [determinize(position, view, random.Random(base + i)) for i in range(budget.samples)]


def playout(state: GameState, seat: int, rounds: int) -> float:
    """``seat``'s win estimate after ``rounds`` rounds of best moves from ``state``: the
    playout :func:`evaluate` scores a candidate with."""
    return _playout(state, seat, rounds)[0]


def move_wins(
    position: Position, view: View, move: Move, budget: Budget = DEFAULT
) -> tuple[float, ...]:
    """The win estimate of ``move`` on each of :func:`evaluate`'s deals (their mean is the
    ``win`` evaluate would give it as a candidate)."""
    wins = []
    for state in deals_of(position, view, budget):
        after = advance(state, turn_of_move(state, move), judge=False)
        wins.append(playout(after, view.seat, budget.rounds))
    return tuple(wins)
