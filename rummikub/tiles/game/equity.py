"""Playing to win: the equity of a move, by determinized Monte Carlo (the ``equity`` strategy).

Every other strategy answers "which move lays most now". This one asks which move is most
likely to win the hand, as a player sees it (RULES.md, "what a player knows"):

1. **Candidates**: the best move by value, the move laying the most tiles, the best move that
   keeps the jokers, the ``hold`` variant (keep back the melds made of rack tiles alone) and
   drawing, told apart by the tiles they lay (:func:`candidates`).
2. **Determinizations**: ``samples`` deals of the tiles the player cannot see into the other
   racks (their known sizes) and the pool (:func:`rummikub.tiles.game.view.determinize`), seeded by
   the position itself, so that the same position and view give the same move whatever the
   load. Every candidate is played out on the *same* deals (common random numbers: the
   difference between two candidates is measured on equal luck, which is what decides).
3. **Playouts**: after the candidate, every player in turn plays the solver's best move (or
   draws) for ``rounds`` rounds, the player's own next turn included; a hand that ends in a
   playout scores 1 for a win, 0 for a loss (a shared win its share). A hand still running is
   scored by :func:`evaluation`, a win probability from the racks' sizes and totals.
4. The candidate with the highest mean wins (ties: the earlier candidate, the best move
   first); its estimate comes with a 95% interval, the central 95% of its playouts'
   outcomes (:func:`rummikub.play.equity.interval`: the interval of the mean would not be
   honest).

Steps 2 to 4 are the game layer's, written once for every game
(:mod:`rummikub.play.equity`); this module gives it the tile rules (:class:`TileSearch`: the
deal, a move applied, the playouts' moves and their scoring) and keeps what only tiles have:
the candidates, the model of a running hand and the exact endgame. The budget is a count of
samples and rounds, never a clock. With 2 players and the pool empty the game has perfect
information and the exact endgame search decides when it can
(:mod:`rummikub.tiles.game.endgame`).
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, field, replace

from rummikub.core import deadline
from rummikub.core.arguments import instance, whole
from rummikub.play.equity import Budget, Progress, Search, deals, play_out, ranked, wins_of
from rummikub.tiles.fastplay import fast_move
from rummikub.tiles.game.engine import GameState, advance, play_move, turn_of_move
from rummikub.tiles.game.view import View, check_view, determinize, seat_of
from rummikub.tiles.position import Move, Position
from rummikub.tiles.solver import solve
from rummikub.tiles.tiles import Tile

__all__ = [
    "DEFAULT",
    "ENDGAME_BUDGET",
    "Budget",
    "Candidate",
    "Equity",
    "Progress",
    "TileSearch",
    "TileView",
    "candidates",
    "equity",
    "evaluate",
    "evaluation",
]


#: The default budget (benchmarks/RESULTS.md, "Play to win", gives its decision time and
#: its duel against ``best``).
DEFAULT = Budget()

#: Nodes each exact endgame search of :func:`evaluate` may use (``exact=True``): the
#: default of ``game hint`` (:data:`rummikub.tiles.game.endgame.ENDGAME_NODES`).
ENDGAME_NODES_ANALYSE = 2000


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
    #: The expected score of the hand for the player (:func:`_playout`: a finished playout's
    #: score, a running one's expected under :func:`evaluation`).
    score: float = 0.0
    #: True when ``win`` is the exact endgame's value (1, 0.5 or 0) rather than an estimate.
    exact: bool = False
    #: The 95% normal interval of the mean of the playouts (their sampling error alone, not
    #: their bias: ``ci`` is the honest one, see :func:`_interval`).
    mean_ci: tuple[float, float] = (0.0, 1.0)
    #: The share of the playouts whose hand ended (the others were scored by the model,
    #: :func:`evaluation`).
    finished: float = 0.0

    @property
    def played(self) -> tuple[Tile, ...]:
        return self.move.played


@dataclass(frozen=True, slots=True)
class Equity:
    """Every candidate, the best equity first."""

    candidates: tuple[Candidate, ...]
    #: True when the exact endgame decided the position (its value is :attr:`win`).
    exact: bool = False
    #: The position's value when :attr:`exact` (1 a win, 0.5 a draw, 0 a loss), else None.
    value: float | None = None
    #: True when the time limit or the stop signal cut the playouts short (``partial``
    #: of :func:`evaluate`): each candidate has :attr:`playouts` of them, fewer than asked.
    stopped: bool = False

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    @property
    def win(self) -> float:
        """The player to move's chance to win: the exact value, or the best candidate's."""
        return self.value if self.value is not None else self.best.win

    @property
    def ci(self) -> tuple[float, float]:
        """The 95% interval of :attr:`win` (a point when exact)."""
        return (self.win, self.win) if self.value is not None else self.best.ci

    @property
    def playouts(self) -> int:
        """The playouts each candidate had (all alike: the same deals)."""
        return self.best.samples


def candidates(position: Position, top: int = 1) -> list[tuple[str, Move]]:
    """The moves worth comparing, distinct by the tiles they lay: the best by value (with
    ``top`` > 1 the ``top`` best, labelled ``best``, ``top-2``, ...: tiles.analysis's
    :func:`~rummikub.tiles.analysis.top_moves`), the most tiles, the best keeping the jokers,
    the ``hold`` variant, and drawing (laying nothing)."""
    from rummikub.tiles.checker import check
    from rummikub.tiles.game.strategies import held

    whole(top, "top", 1)
    found: list[tuple[str, Move]] = []
    seen: set[tuple[Tile, ...]] = set()

    def add(label: str, move: Move) -> None:
        key = tuple(sorted(move.played, key=position.rules.sort_key))
        if key not in seen:
            seen.add(key)
            # A variant that lays nothing is drawing, whichever variant found it (the solver's
            # best move keeps its label "best": drawing is then the only move).
            found.append((label if move.played or not found else "draw", move))

    if top > 1:
        from rummikub.tiles.analysis import top_moves

        ranked = top_moves(position, top)
        if not ranked:
            return [("best", Move(position.table, ()))]  # drawing is the only move
        for move in ranked:
            add("best" if move.rank == 1 else f"top-{move.rank}", move.move)
    else:
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
    seat = seat_of(state, seat)
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


def _playout_move(
    state: GameState,
    explore: float,
    rng: random.Random | None,
    moves: dict[Position, Move] | None = None,
    fast: bool = False,
) -> Move:
    """The move of a playout's player: the best by value (with ``fast`` the fast move,
    :func:`rummikub.tiles.fastplay.fast_move`), or with chance ``explore`` a variant:
    drawing (passing once the pool is empty) one time in three, else the best move without
    one rack tile chosen at random (a smaller move, such as keeping a tile back). ``moves``
    keeps the best move of each position met, solved once."""
    position = state.position()
    if rng is None or explore <= 0.0 or rng.random() >= explore:
        if fast:
            return fast_move(position)
        if moves is None:
            return solve(position).move
        move = moves.get(position)
        if move is None:
            move = moves[position] = solve(position).move
        return move
    if rng.random() < 1 / 3 or len(position.rack) < 2:
        return Move(position.table, ())
    drop = rng.randrange(len(position.rack))
    rack = position.rack[:drop] + position.rack[drop + 1 :]
    smaller = replace(position, rack=rack)
    return fast_move(smaller) if fast else solve(smaller).move


def _playout_state(
    state: GameState,
    rounds: int,
    explore: float,
    rng: random.Random | None,
    moves: dict[Position, Move] | None = None,
    fast: bool = False,
) -> GameState:
    """The state a playout ends in: the hand over, or ``rounds`` rounds played, everyone
    playing the best move (or, with ``explore``, a variant; with ``fast`` the fast move:
    :func:`_playout_move`)."""
    turns = rounds * len(state.players)
    while not state.over and turns > 0:
        state = play_move(state, _playout_move(state, explore, rng, moves, fast))
        turns -= 1
    return state


def _scored(state: GameState, seat: int) -> tuple[float, float, float]:
    """A playout's end for ``seat``: the win (or its estimate), the lead and the score.

    The lead is the others' smallest rack less the player's own. The score of a finished
    hand is the engine's (RULES.md, "Scoring a finished hand"); of a hand still running, the
    one expected if the player wins with :func:`evaluation`'s chance ``w`` (going out: the
    others' rack totals) and else loses its own rack total: ``w * others - (1 - w) * own``.
    """
    others = [n for s, n in enumerate(state.rack_counts) if s != seat]
    lead = float(min(others) - state.rack_counts[seat])
    if state.over:
        result = state.result
        assert result is not None
        score = result.scores[seat] if result.scores is not None else 0.0
        return _outcome(state, seat), lead, score
    win = evaluation(state, seat)
    totals = [state.rack_total(s) or 0 for s in range(len(state.players))]
    score = win * (sum(totals) - totals[seat]) - (1.0 - win) * totals[seat]
    return win, lead, score


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


#: What a seat sees, as the game layer's search takes it: its position and the public rest.
TileView = tuple[Position, View]


@dataclass(frozen=True, slots=True)
class TileSearch:
    """The tile game as determinized Monte Carlo sees it (:class:`rummikub.play.equity.Search`):
    a candidate is a :class:`Move`, a playout everyone's best move (:func:`_playout_move`),
    its end scored by :func:`_scored`.

    ``moves``, when given, keeps the best move of every position a greedy playout meets, so
    that one is solved once across playouts (the review's luck replays the same deals for
    every tile kind: :func:`rummikub.tiles.game.review.draw_equities`). ``fast`` plays the
    playouts with the fast move (:attr:`rummikub.play.equity.Budget.fast`).
    """

    moves: dict[Position, Move] | None = field(default=None, compare=False)
    fast: bool = False

    def seat_of(self, view: TileView) -> int:
        return view[1].seat

    def seed_of(self, view: TileView) -> int:
        return seed_of(*view)

    def determinize(self, view: TileView, rng: random.Random) -> GameState:
        return determinize(*view, rng)

    def apply(self, state: GameState, decision: Move) -> GameState:
        return play_move(state, decision)

    def over(self, state: GameState) -> bool:
        return state.over

    def playout(
        self, state: GameState, rounds: int, explore: float, rng: random.Random | None
    ) -> GameState:
        return _playout_state(state, rounds, explore, rng, self.moves, self.fast)

    def scored(self, state: GameState, seat: int) -> tuple[float, float, float]:
        return _scored(state, seat)


def _search(budget: Budget) -> Search[GameState, TileView, Move]:
    """The search the budget asks for (checked first: a wrong budget says so at once)."""
    instance(budget, Budget, "budget", "Budget(samples=6)")
    return TileSearch(fast=budget.fast)


def evaluate(
    position: Position,
    view: View,
    budget: Budget = DEFAULT,
    *,
    seed: int | None = None,
    top: int = 1,
    exact: bool = False,
    nodes: int = ENDGAME_NODES_ANALYSE,
    progress: Progress | None = None,
    partial: bool = False,
) -> Equity:
    """Every candidate's equity, the best first (see the module's text).

    ``top`` > 1 adds the ``top`` best moves by value to the candidates (:func:`candidates`).
    With ``exact`` and an exact endgame (2 players, the pool empty), the endgame search
    (:func:`rummikub.tiles.game.endgame.decide`, ``nodes`` per search) decides the position and
    each candidate where it can within its budget: their ``win`` is then 1, 0.5 or 0 and
    ``exact`` True, and a winning or drawing move the candidates lacked is added (label
    ``endgame``). The playouts still give every candidate its ``score`` and ``lead``.
    ``progress(done, total)`` follows every playout.

    The time limit and the stop signal (:mod:`rummikub.core.deadline`) are looked at between
    the deals (:func:`rummikub.play.equity.play_out`): once either cuts the playouts, the
    answer is :attr:`Equity.stopped` with the deals done with ``partial``, else
    :class:`~rummikub.play.equity.Stopped` is raised (a strategy's move, a review's turn).
    """
    check_view(position, view)
    moves = candidates(position, top)
    base = seed_of(position, view) if seed is None else seed
    search, seen = _search(budget), (position, view)
    states = deals(search, seen, budget, seed=base)
    solved: dict[int, float] = {}
    value: float | None = None
    if exact and view.players == 2 and view.pool_count == 0:
        value = _exact(states[0], moves, nodes, solved)
    outcomes = play_out(
        search, seen, moves, budget, seed=base, deals=states, progress=progress, partial=partial
    )
    found: list[Candidate] = []
    for order, outcome in enumerate(outcomes):
        move = outcome.decision
        win, ci, spread = outcome.win, outcome.ci, outcome.mean_ci
        known = solved.get(order)
        if known is not None:
            win, ci, spread = known, (known, known), (known, known)
        found.append(
            Candidate(
                label=outcome.label,
                move=move,
                value=_value(position, move),
                tiles=len(move.played),
                win=win,
                ci=ci,
                lead=outcome.lead,
                samples=outcome.samples,
                score=outcome.score,
                exact=known is not None,
                mean_ci=spread,
                finished=outcome.finished,
            )
        )
    stopped = any(o.stopped for o in outcomes)
    return Equity(tuple(ranked(found)), exact=value is not None, value=value, stopped=stopped)


def _exact(
    state: GameState, moves: list[tuple[str, Move]], nodes: int, solved: dict[int, float]
) -> float | None:
    """The exact endgame of ``state`` (the one deal: nobody draws again): the position's
    value for the player to move if the search decides it, and in ``solved`` the value of
    each candidate (by its index in ``moves``) that its own search decides. A deciding move
    not among ``moves`` is appended to them."""
    from rummikub.tiles.game.endgame import decide

    if state.over:
        return None
    worth = {"win": 1.0, "draw": 0.5, "loss": 0.0}
    verdict = decide(state, nodes=nodes)
    value = worth.get(verdict.outcome)
    sort = state.rules.sort_key
    keys = [tuple(sorted(m.played, key=sort)) for _, m in moves]
    if value is not None:
        move = verdict.move or Move(state.table, ())
        key = tuple(sorted(move.played, key=sort))
        if key not in keys:
            moves.append(("endgame", move))
            keys.append(key)
        solved[keys.index(key)] = value
    for index, (_, move) in enumerate(moves):
        if index in solved:
            continue
        if value == 0.0:
            solved[index] = 0.0  # a lost position: every move loses
            continue
        after = advance(state, turn_of_move(state, move), judge=False)
        if after.over:
            solved[index] = _outcome(after, state.to_move)
            continue
        reply = worth.get(decide(after, nodes=nodes).outcome)
        if reply is not None:
            solved[index] = 1.0 - reply
    if value is None and 1.0 in solved.values():
        value = 1.0  # a candidate proven to win decides the position
    return value


def _value(position: Position, move: Move) -> int:
    return sum(position.rules.tile_value(t) for t in move.played)


#: Nodes the strategy gives the exact endgame before it falls back on playouts: a node costs
#: up to a solve, so this keeps a decision within the playouts' own cost (RESULTS.md, "The
#: exact endgame": most standard endgames decide in a few nodes).
ENDGAME_BUDGET = 60


def equity(position: Position, view: View) -> Move:
    """The ``equity`` strategy: with 2 players and the pool empty, the exact endgame's move
    where the search decides within :data:`ENDGAME_BUDGET`; else the candidate with the best
    equity at the default budget."""
    check_view(position, view)
    if view.players == 2 and view.pool_count == 0:
        from rummikub.tiles.game.endgame import decide

        # Nobody draws again: the opponent holds exactly the unseen tiles, so the one deal
        # is the truth and the hand a game of perfect information.
        state = determinize(position, view, random.Random(0))
        if not state.over:
            verdict = decide(state, nodes=ENDGAME_BUDGET)
            # A search the time limit cut short may have judged on solves that found no
            # move in time: then the playouts below stop too (Stopped), never a move.
            if verdict.outcome != "unknown" and not deadline.passed():
                return verdict.move or Move(position.table, ())
    return evaluate(position, view).best.move


# -- for the game review (rummikub.tiles.game.review) --------------------------------------------


def deals_of(
    position: Position, view: View, budget: Budget = DEFAULT, *, seed: int | None = None
) -> list[GameState]:
    """The sampled deals :func:`evaluate` plays every candidate out on, from the same seeds, so
    that a move judged apart (the move a record played) is measured on the same luck."""
    return deals(_search(budget), (position, view), budget, seed=seed)


def playout(state: GameState, seat: int, rounds: int) -> float:
    """``seat``'s win estimate after ``rounds`` rounds of best moves from ``state``: the
    playout :func:`evaluate` scores a candidate with."""
    return _scored(_playout_state(state, rounds, 0.0, None), seat)[0]


def move_wins(
    position: Position, view: View, move: Move, budget: Budget = DEFAULT
) -> tuple[float, ...]:
    """The win estimate of ``move`` on each of :func:`evaluate`'s deals (their mean is the
    ``win`` evaluate would give it as a candidate), played out greedily."""
    return wins_of(_search(budget), (position, view), move, replace(budget, explore=0.0))
