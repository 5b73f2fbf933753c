"""The exact endgame: two players, the pool empty, both racks known.

With the pool empty nobody draws, so a 2-player hand is a game of perfect information: the
opponent's rack is exactly the unseen tiles (:func:`rummikub.tiles.game.view.unseen`). The hand ends
when a player goes out (that player wins) or when both pass in a row (the lower rack total
wins; equal totals share the win, a *draw* here: RULES.md "Scoring a finished hand",
:func:`rummikub.tiles.game.engine.advance`). :func:`decide` searches that game tree and says whether
the player to move wins, loses or draws with best play on both sides, and with which move.

The search is a negamax alpha-beta on three values (win 1, draw 0, loss -1) with a table of
bounds keyed on the state: whose turn, whether the last turn was a pass, who has opened, both
racks and the table. The key holds the table as the multiset of the tiles in joker-free melds
plus, meld by meld, the melds holding a joker: a joker-free meld's tiles are free to be
rearranged by the next move whatever their melds (RULES.md, "A turn"), while a locked joker
ties the next move to its meld (the joker lock). With ``joker_lock = "free"`` the whole table
is one multiset.

**The moves.** A turn here is a pass or a play; two plays that lay the same multiset of rack
tiles leave the same racks, so the search generates every *distinct multiset of rack tiles*
the player can lay, each once, laid as the solver lays it (``solve`` with the ``tiles``
objective and one no-good per multiset already found: the most tiles first, so going out
comes first; then the most value, then the fewest old melds disturbed). The moves of a
position are generated lazily, one solve each, and kept for when the search comes back.

**What "exact" means.** The outcome is the game's value under perfect play (not a
heuristic) whenever the table arrangement cannot matter: no joker is on the table in the
lines searched, or the rules have ``joker_lock = "free"``. Then two tables laying the same
tiles are the same state and every move is tried. With a locked joker on the table, the
outcome is exact over the moves generated: every multiset a player can lay, each with the
solver's table, but not every other arrangement of the same tiles (a joker standing for
another tile) that might leave the opponent less. ``tests/test_endgame.py`` holds the search
to a brute-force game tree over every legal table on tiny boxes.

**The budget** counts nodes: every turn the search tries, each a state reached (the ends of
the hand included). A node costs at most one solve (none once its position's moves are
known), plus one per position to prove that its last move was the last. When the budget
runs out the verdict is ``unknown``, with the best move known so far: a move proven to draw
if one was found, else the solver's best move by value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from rummikub.core.errors import RummikubError
from rummikub.tiles.game.engine import GameState
from rummikub.tiles.melds import Identity, Meld
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver import solve
from rummikub.tiles.tiles import Tile, format_tiles

__all__ = ["ENDGAME_NODES", "Outcome", "Verdict", "decide", "is_endgame"]

#: The default budget: nodes searched before giving up.
ENDGAME_NODES = 2000

Outcome = Literal["win", "loss", "draw", "unknown"]

WIN, DRAW, LOSS = 1, 0, -1
_WORDS: dict[int, Outcome] = {WIN: "win", DRAW: "draw", LOSS: "loss"}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The endgame for the player to move: the outcome with best play, a move that achieves
    it (None = pass), the nodes searched and why, in words."""

    outcome: Outcome
    move: Move | None
    nodes: int
    reason: str

    def to_data(self) -> dict[str, Any]:
        """The JSON of ``game hint --json``'s ``endgame`` key (README, "The endgame")."""
        move = self.move
        return {
            "outcome": self.outcome,
            "move": None
            if move is None
            else {
                "played": [str(t) for t in move.played],
                "table": [{"kind": m.kind, "tiles": [str(t) for t in m.tiles]} for m in move.table],
            },
            "nodes": self.nodes,
            "reason": self.reason,
        }


def is_endgame(state: GameState) -> bool:
    """Whether :func:`decide` takes ``state``: 2 players, the pool empty, both racks known,
    the hand not over."""
    return (
        len(state.players) == 2
        and state.pool_count == 0
        and all(rack is not None for rack in state.racks)
        and state.result is None
    )


def decide(state: GameState, *, nodes: int = ENDGAME_NODES) -> Verdict:
    """The outcome of the endgame ``state`` for the player to move, searched exactly within
    ``nodes`` (see the module's docstring for what "exact" covers).

    Raises :class:`RummikubError` unless ``state`` has 2 players, the pool empty, both racks
    known and the hand not over.
    """
    if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 1:
        raise RummikubError(f"nodes={nodes!r}: the endgame budget must be a whole number >= 1")
    problem = _problem(state)
    if problem is not None:
        raise RummikubError(f"not an exact endgame: {problem}")
    racks = tuple(rack or () for rack in state.racks)
    root = _Node(state.table, (racks[0], racks[1]), state.opened, state.to_move, state.passes)
    search = _Search(state.rules, nodes)
    return search.root(root, state.players)


def _problem(state: GameState) -> str | None:
    if len(state.players) != 2:
        return f"{len(state.players)} players (the endgame search takes 2)"
    if state.result is not None:
        return "the hand is over"
    if state.pool_count != 0:
        return f"the pool still holds {state.pool_count} tiles"
    for seat, rack in enumerate(state.racks):
        if rack is None:
            return f"the rack of {state.players[seat]} is not known"
    tiles = [t for rack in state.racks if rack is not None for t in rack]
    found = Position(state.table, tuple(tiles), True, state.rules).problems()
    if found:
        return "; ".join(found)
    return None


# -- the states -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Node:
    """A state of the endgame: the table, both racks, who has opened, who moves, and whether
    the last turn was a pass (two in a row end the hand)."""

    table: tuple[Meld, ...]
    racks: tuple[tuple[Tile, ...], tuple[Tile, ...]]
    opened: tuple[bool, ...]
    mover: int
    passes: int

    def position(self, rules: Rules) -> Position:
        return Position(self.table, self.racks[self.mover], self.opened[self.mover], rules)

    def after(self, move: Move, rules: Rules) -> _Node:
        """The state after the mover plays ``move`` (nothing played: a pass)."""
        if not move.played:
            return _Node(self.table, self.racks, self.opened, 1 - self.mover, self.passes + 1)
        left = Counter(self.racks[self.mover]) - Counter(move.played)
        racks = list(self.racks)
        racks[self.mover] = tuple(sorted(left.elements(), key=rules.sort_key))
        opened = list(self.opened)
        opened[self.mover] = True
        table = tuple(Meld.of(m.tiles, kind=m.kind, rules=rules) for m in move.table)
        return _Node(table, (racks[0], racks[1]), tuple(opened), 1 - self.mover, 0)


TableKey = tuple[tuple[Tile, ...], tuple[Identity, ...]]


def _table_key(table: tuple[Meld, ...], rules: Rules) -> TableKey:
    """The table as far as the next moves can tell: the tiles of joker-free melds as one
    multiset, the melds holding a joker one by one (all one multiset without the lock)."""
    free: list[Tile] = []
    locked: list[Identity] = []
    for meld in table:
        if rules.joker_lock == "strict" and meld.jokers:
            locked.append(meld.identity())
        else:
            free.extend(meld.tiles)
    return tuple(sorted(free, key=rules.sort_key)), tuple(sorted(locked))


def _total(rack: tuple[Tile, ...], rules: Rules) -> int:
    return sum(rules.tile_value(t) for t in rack)


class _OutOfNodes(Exception):
    """The budget ran out."""


class _Moves:
    """The plays of one position, generated on demand (one solve each) and kept."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.found: list[Move] = []
        self.done = False

    def __iter__(self) -> Iterator[Move]:
        index = 0
        while True:
            if index < len(self.found):
                yield self.found[index]
                index += 1
                continue
            if self.done:
                return
            excluded = [Counter(move.played) for move in self.found]
            result = solve(self.position, objective="tiles", exclude=excluded)
            if not result.played:
                self.done = True
                return
            self.found.append(Move(result.table, result.played))


class _Search:
    def __init__(self, rules: Rules, budget: int) -> None:
        self.rules = rules
        self.budget = budget
        self.nodes = 0
        #: (lower, upper) bounds of each state's value for its mover.
        self.bounds: dict[tuple[object, ...], tuple[int, int]] = {}
        self.moves: dict[tuple[object, ...], _Moves] = {}

    # -- keys and moves

    def key(self, node: _Node) -> tuple[object, ...]:
        return (
            _table_key(node.table, self.rules),
            node.racks,
            node.opened,
            node.mover,
            node.passes,
        )

    def plays(self, node: _Node) -> _Moves:
        rack = node.racks[node.mover]
        key = (_table_key(node.table, self.rules), rack, node.opened[node.mover])
        moves = self.moves.get(key)
        if moves is None:
            moves = self.moves[key] = _Moves(node.position(self.rules))
        return moves

    def count(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfNodes

    def ending(self, node: _Node) -> int:
        """The value for the mover of a hand ended by two passes: the lower total wins."""
        mine = _total(node.racks[node.mover], self.rules)
        theirs = _total(node.racks[1 - node.mover], self.rules)
        return (mine < theirs) - (mine > theirs)

    def children(self, node: _Node) -> Iterator[tuple[Move, int | None, _Node | None]]:
        """Each turn of the mover with its value when the hand ends with it (else None and
        the state after it): a pass that ends the hand first, then the plays (going out
        first, the most tiles first), then a pass that does not end it."""
        table = node.table
        if node.passes >= 1:
            self.count()
            yield Move(table, ()), self.ending(node), None
        rack = node.racks[node.mover]
        for move in self.plays(node):
            self.count()
            if len(move.played) == len(rack):
                yield move, WIN, None
            else:
                yield move, None, node.after(move, self.rules)
        if node.passes == 0:
            self.count()
            yield Move(table, ()), None, node.after(Move(table, ()), self.rules)

    # -- the search

    def value(self, node: _Node, alpha: int, beta: int) -> int:
        """The value of ``node`` for its mover, fail-soft within (alpha, beta)."""
        key = self.key(node)
        low, high = self.bounds.get(key, (LOSS, WIN))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        start = alpha
        best = LOSS - 1
        for _, known, child in self.children(node):
            if known is None:
                assert child is not None
                known = -self.value(child, -beta, -max(alpha, best))
            best = max(best, known)
            if best >= beta:
                break
        if best <= start:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        self.bounds[key] = (low, high)
        return best

    def root(self, node: _Node, names: tuple[str, ...]) -> Verdict:
        me, them = names[node.mover], names[1 - node.mover]
        best, best_move = LOSS - 1, None
        defence: list[tuple[Move, int]] = []
        try:
            for move, known, child in self.children(node):
                if known is None:
                    assert child is not None
                    # The full window until a draw is found, then only whether a move wins.
                    alpha = LOSS if best < DRAW else DRAW
                    known = -self.value(child, -WIN, -alpha)
                if known > best:
                    best, best_move = known, move
                defence.append((move, known))
                if best == WIN:
                    break
        except _OutOfNodes:
            return self.gave_up(node, best, best_move, me)
        assert best_move is not None  # a pass is always among the turns
        searched = f"{self.nodes} nodes searched"
        if best == WIN:
            return Verdict(
                "win",
                _or_pass(best_move),
                self.nodes,
                self.win_reason(node, best_move, them, searched),
            )
        if best == DRAW:
            return Verdict(
                "draw",
                _or_pass(best_move),
                self.nodes,
                f"neither player can win: with best play both end on equal totals ({searched})",
            )
        # Lost: the best defence lays the most value, so loses least if the opponent goes out.
        defend = max((move for move, _ in defence), key=lambda m: m.value(self.rules))
        return Verdict(
            "loss",
            _or_pass(defend),
            self.nodes,
            f"{them} wins whatever {me} does; best defence: "
            + (f"lay {format_tiles(defend.played)}, the most value" if defend.played else "pass")
            + f" ({searched})",
        )

    def win_reason(self, node: _Node, move: Move, them: str, searched: str) -> str:
        rack = node.racks[node.mover]
        if move.played and len(move.played) == len(rack):
            return "goes out now"
        if not move.played and node.passes >= 1:
            mine = _total(rack, self.rules)
            theirs = _total(node.racks[1 - node.mover], self.rules)
            return f"passes: the hand ends, rack total {mine} against {theirs}"
        return f"wins whatever {them} does ({searched})"

    def gave_up(self, node: _Node, best: int, best_move: Move | None, me: str) -> Verdict:
        nodes = self.budget
        reason = f"gave up after {nodes} nodes"
        if best == DRAW and best_move is not None:
            return Verdict(
                "unknown", _or_pass(best_move), nodes, reason + f" ({me} can draw at least)"
            )
        fallback = solve(node.position(self.rules)).move
        return Verdict("unknown", _or_pass(fallback), nodes, reason)


def _or_pass(move: Move) -> Move | None:
    return move if move.played else None
