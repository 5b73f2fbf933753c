"""The equity of one position (``rummikub analyse --equity``, ``rummikub.equity``).

:func:`rummikub.tiles.game.equity.evaluate` needs the whole public state of a game (a
:class:`~rummikub.tiles.game.view.View`); a puzzle or an inline position is only a table and a rack.
:func:`view_for` gives it the rest, from choices with defaults a careful player would make
(README, "Playing to win"): 2 players; each other rack as large as the player's own, so that
nobody is taken to lead the race; the others opened (they can lay off and go out, the harder
case); the pool whatever is left of the box. A game record has its own view
(:func:`rummikub.tiles.game.view.view_of`), given to :func:`equity` as ``view``.

:func:`equity` runs the analysis at :data:`ANALYSE`, a budget of playouts set so that a
standard mid-game position is decided in about 2 s of one core (benchmarks/RESULTS.md,
"``analyse --equity``"), with the exact endgame where it decides, and
:class:`PositionEquity` holds the answer with what it was asked, its words
(:meth:`PositionEquity.advice`) and its JSON (:meth:`PositionEquity.to_data`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummikub.core.deadline import Stop
from rummikub.core.errors import RummikubError
from rummikub.play.equity import limited, stopped_by, stopped_data
from rummikub.tiles.analysis import MAX_TOP
from rummikub.tiles.game.endgame import ENDGAME_NODES
from rummikub.tiles.game.equity import Budget, Candidate, Equity, Progress, evaluate, seed_of
from rummikub.tiles.game.record import MAX_PLAYERS, MIN_PLAYERS
from rummikub.tiles.game.view import View
from rummikub.tiles.position import Position
from rummikub.tiles.tiles import Tile

__all__ = ["ANALYSE", "DEFAULT_TOP", "PositionEquity", "equity", "view_for"]

#: The budget of ``analyse --equity``: 48 playouts per candidate (sampled deals, each played
#: out once), 3 rounds each, a variant of the best move played one turn in four
#: (benchmarks/RESULTS.md, "``analyse --equity``", gives its decision time: the median is
#: within the target of 3 s with room for a busier machine).
ANALYSE = Budget(samples=48, rounds=3, explore=0.25)

#: The best moves by value among the candidates of ``analyse --equity`` unless ``--top``
#: says otherwise.
DEFAULT_TOP = 3


def view_for(
    position: Position,
    *,
    players: int = 2,
    rack_sizes: Sequence[int] | None = None,
    others_opened: bool = True,
) -> View:
    """The public state of a game around ``position`` (the player in seat 1, to move):
    ``players`` in all, the others' ``rack_sizes`` (default: each as large as the player's
    own rack), whether the others have opened, and the pool what is left of the box.

    Raises :class:`RummikubError` when the racks do not fit in the tiles out of sight.
    """
    from rummikub.tiles.arguments import count, flag

    if not isinstance(position, Position):
        raise TypeError(f"view_for() takes a Position, got {type(position).__name__}")
    position.check_built()
    count(players, "players", MIN_PLAYERS)
    if players > MAX_PLAYERS:
        raise ValueError(f"players={players} must be at most {MAX_PLAYERS}")
    flag(others_opened, "others_opened")
    if rack_sizes is None:
        sizes = (max(1, len(position.rack)),) * (players - 1)
    else:
        if isinstance(rack_sizes, str) or not isinstance(rack_sizes, Sequence):
            raise TypeError(f"rack_sizes must be a sequence of whole numbers, got {rack_sizes!r}")
        sizes = tuple(count(size, "a rack size") for size in rack_sizes)
        if len(sizes) != players - 1:
            raise ValueError(
                f"rack_sizes={list(sizes)} gives {len(sizes)} rack(s), but {players} players "
                f"have {players - 1} other rack(s)"
            )
    hidden = len(_box_less(position))
    if sum(sizes) > hidden:
        raise RummikubError(
            f"the other racks ({' + '.join(map(str, sizes))}) hold {sum(sizes)} tiles, but "
            f"only {hidden} are out of sight (the box less the table and the rack): give "
            "smaller rack sizes"
        )
    return View(
        seat=0,
        rack_counts=(len(position.rack), *sizes),
        opened=(position.opened, *(others_opened,) * (players - 1)),
        pool_count=hidden - sum(sizes),
        turns=0,
    )


def _box_less(position: Position) -> list[Tile]:
    """The tiles out of sight: the box less the table and the rack."""
    from rummikub.tiles.game.engine import box

    seen = Counter(t for meld in position.table for t in meld.tiles)
    seen.update(position.rack)
    left = Counter(box(position.rules)) - seen
    return sorted(left.elements(), key=position.rules.sort_key)


@dataclass(frozen=True, slots=True)
class PositionEquity:
    """An equity analysis: the position, the game around it, the budget, and the answer."""

    position: Position
    view: View
    budget: Budget
    seed: int
    top: int
    equity: Equity
    #: What cut the playouts short when :attr:`stopped`: ``"time limit"`` or ``"stop"``.
    stopped_by: str | None = None

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        """Every candidate, the best equity first."""
        return self.equity.candidates

    @property
    def best(self) -> Candidate:
        return self.equity.best

    @property
    def win(self) -> float:
        """The player to move's chance to win (the exact value when :attr:`exact`)."""
        return self.equity.win

    @property
    def ci(self) -> tuple[float, float]:
        return self.equity.ci

    @property
    def exact(self) -> bool:
        return self.equity.exact

    @property
    def stopped(self) -> bool:
        """True when the time limit or the stop signal cut the playouts short: each
        candidate had :attr:`playouts` of the ``budget.samples`` asked, and no advice is
        given (:meth:`advice` is None)."""
        return self.equity.stopped

    @property
    def playouts(self) -> int:
        """The playouts each candidate had (``budget.samples`` unless :attr:`stopped`)."""
        return self.equity.playouts

    @property
    def most_points(self) -> Candidate:
        """The candidate laying the most points (then the most tiles, then the best equity)."""
        return max(self.candidates, key=lambda c: (c.value, c.tiles, -self.candidates.index(c)))

    def difference(self) -> dict[str, Any] | None:
        """What the best-equity move does that the most-points move does not, when they
        differ: ``action`` "keep" (``keep``: the tiles held back), "lay" (``lay`` instead of
        ``keep``), "draw" or "pass"; the words of :meth:`advice`, as data for a page that
        says them in its own language. None when they agree, and when the playouts were
        :attr:`stopped` (no advice from an unfinished comparison)."""
        best, most = self.best, self.most_points
        if best is most or self.stopped:
            return None
        sort = self.position.rules.sort_key
        kept = Counter(most.played) - Counter(best.played)
        extra = Counter(best.played) - Counter(most.played)
        if not best.played:
            action = "pass" if self.view.pool_count == 0 else "draw"
        else:
            action = "lay" if extra else "keep"
        return {
            "action": action,
            "keep": [str(t) for t in sorted(kept.elements(), key=sort)],
            "lay": [str(t) for t in sorted(extra.elements(), key=sort)],
        }

    def advice(self) -> str | None:
        """The best-equity move against the most-points move, in words, when they differ:
        "laying the most is not best here: keep the joker"."""
        difference = self.difference()
        if difference is None:
            return None
        best, most = self.best, self.most_points
        kept = Counter(most.played) - Counter(best.played)
        extra = Counter(best.played) - Counter(most.played)
        sort = self.position.rules.sort_key
        what = {
            "pass": "pass",
            "draw": "draw a tile",
            "keep": f"keep {_kept(kept, sort)} back",
            "lay": f"lay {_tiles(extra, sort)} instead of {_tiles(kept, sort)}",
        }[difference["action"]]
        if best.exact and most.exact:
            odds = f"{_EXACT[best.win]} against {_EXACT[most.win]}, exactly"
        else:
            odds = f"{best.win:.0%} to win against {most.win:.0%}"
        return f"Laying the most is not best here: {what} ({odds})."

    def to_data(self) -> dict[str, Any]:
        """The ``"equity"`` key of ``analyse --equity --json`` (README, "Playing to win");
        when :attr:`stopped`, with ``"status": "stopped"`` and ``"stopped_by"`` (``"time
        limit"`` or ``"stop"``) added, and ``"advice"`` null."""
        candidates = self.candidates
        most = candidates.index(self.most_points)
        data = {
            "win": _round(self.win),
            "ci": [_round(x) for x in self.ci],
            "exact": self.exact,
            "candidates": [_candidate_data(c) for c in candidates],
            "most_points": most,
            "advice": self.advice(),
            "difference": self.difference(),
            "players": self.view.players,
            "rack_counts": list(self.view.rack_counts),
            "opened": list(self.view.opened),
            "pool": self.view.pool_count,
            "playouts": self.budget.samples,
            "rounds": self.budget.rounds,
            "explore": self.budget.explore,
            "top": self.top,
            "seed": self.seed,
        }
        if self.stopped:
            data.update(stopped_data(self.playouts, self.budget.samples, self.stopped_by))
        return data


def _candidate_data(c: Candidate) -> dict[str, Any]:
    return {
        "played": [str(t) for t in c.played],
        "value": c.value,
        "tiles": c.tiles,
        "win": _round(c.win),
        "ci": [_round(x) for x in c.ci],
        "score": round(c.score, 2),
        "label": c.label,
        "exact": c.exact,
        "mean_ci": [_round(x) for x in c.mean_ci],
        "finished": _round(c.finished),
        "lead": round(c.lead, 3),
        "playouts": c.samples,
        "table": [{"kind": m.kind, "tiles": [str(t) for t in m.tiles]} for m in c.move.table],
    }


def _round(x: float) -> float:
    return round(x, 4)


#: An exact endgame's values in words.
_EXACT = {1.0: "a win", 0.5: "a draw", 0.0: "a loss"}


def _tiles(tiles: Counter[Tile], sort: Any) -> str:
    return " ".join(str(t) for t in sorted(tiles.elements(), key=sort))


def _kept(kept: Counter[Tile], sort: Any) -> str:
    jokers = sum(n for t, n in kept.items() if t.is_joker)
    others = Counter({t: n for t, n in kept.items() if not t.is_joker})
    parts = []
    if jokers:
        parts.append("the joker" if jokers == 1 else f"the {jokers} jokers")
    if others:
        parts.append(_tiles(others, sort))
    return " and ".join(parts)


def equity(
    position: Position,
    *,
    view: View | None = None,
    players: int = 2,
    rack_sizes: Sequence[int] | None = None,
    others_opened: bool = True,
    playouts: int = ANALYSE.samples,
    rounds: int = ANALYSE.rounds,
    explore: float = ANALYSE.explore,
    top: int = DEFAULT_TOP,
    seed: int | None = None,
    exact: bool = True,
    nodes: int = ENDGAME_NODES,
    progress: Progress | None = None,
    time_limit: float | None = None,
    stop: Stop | None = None,
) -> PositionEquity:
    """Every candidate move of ``position`` with its chance to win, the best equity first.

    The candidates are the ``top`` best moves by value, the most tiles, the best keeping
    the jokers, the ``hold`` variant and drawing; each is played out ``playouts`` times for
    ``rounds`` rounds (``explore``: :class:`~rummikub.tiles.game.equity.Budget`), seeded by
    ``seed`` (default: one drawn from the position and the view, so the same question gives
    the same answer). The game around the position is ``view`` (a record's:
    :func:`~rummikub.tiles.game.view.view_of`), or :func:`view_for` of ``players``,
    ``rack_sizes`` and ``others_opened``. With ``exact``, an exact endgame (2 players, the
    pool empty) is searched within ``nodes`` per search, and decides where it can.

    ``time_limit`` (seconds, over the whole analysis; a web request's encloses it) and
    ``stop`` (a :class:`threading.Event` set from another thread) cut the playouts short
    between deals: the answer is then :attr:`PositionEquity.stopped`, each candidate with
    the deals done, and gives no advice; with not one deal done,
    :class:`~rummikub.play.equity.Stopped` is raised.

    >>> from rummikub import Position
    >>> p = Position.parse(rack="R1 R2 R3 K5", table=["K2 K3 K4"], opened=True)
    >>> found = equity(p, playouts=4, rounds=1)
    >>> found.best.label, found.win, found.ci
    ('best', 1.0, (1.0, 1.0))
    """
    from rummikub.tiles.arguments import count, flag

    if not isinstance(position, Position):
        raise TypeError(f"equity() takes a Position, got {type(position).__name__}")
    position.check_built()
    count(playouts, "playouts")
    count(rounds, "rounds", 0)
    count(top, "top", 1, MAX_TOP)
    count(nodes, "nodes")
    flag(exact, "exact")
    if isinstance(explore, bool) or not isinstance(explore, int | float):
        raise TypeError(f"explore must be a number between 0 and 1, got {explore!r}")
    if not 0.0 <= explore <= 1.0:
        raise ValueError(f"explore={explore!r} must lie between 0 and 1")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise TypeError(f"seed must be a whole number or None, got {seed!r}")
    if view is None:
        view = view_for(
            position, players=players, rack_sizes=rack_sizes, others_opened=others_opened
        )
    elif not isinstance(view, View):
        kind = type(view).__name__
        raise TypeError(f"view must be a View (rummikub.tiles.game.view), got {kind}")
    budget = Budget(samples=playouts, rounds=rounds, explore=float(explore))
    used = seed_of(position, view) if seed is None else seed
    with limited(time_limit, stop):
        found = evaluate(
            position,
            view,
            budget,
            seed=used,
            top=top,
            exact=exact,
            nodes=nodes,
            progress=progress,
            partial=True,
        )
        cause = stopped_by() if found.stopped else None
    return PositionEquity(position, view, budget, used, top, found, cause)
