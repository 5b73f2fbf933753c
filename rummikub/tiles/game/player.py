"""Playing to win against whoever sits there: the ``equity`` strategy.

The first ``equity`` (:mod:`rummikub.tiles.game.equity`, kept as ``equity-v1``) plays out its
candidates on sampled deals in which every player, itself included, plays ``best``. Two of
those assumptions decide its games: that the opponent lays what it can (so that every tile
it lays is a tile the player may use), and that the player lays everything on its own next
turn. Both are wrong against a player who hoards, and the duels measured what does win
(benchmarks/RESULTS.md, "The player who plays to win"): a player who draws until one move
lays its whole rack, then goes out, beats every player who feeds the table, because going
out over a table of 40 tiles needs far fewer rack tiles to fit than going out over one's own
melds alone. So this player is built on that race, and reads the opponents instead of
assuming them:

1. **Go out** when one move lays the whole rack (the solver's most-tiles move lays it): the
   hand is won.
2. **The pool empty**: drawing is over, so racing is too. With few tiles on the racks
   (:data:`ENDGAME_TILES`), the first ``equity``'s choice
   (:func:`rummikub.tiles.game.equity.equity`: the exact endgame at 2 players where it
   decides, else its playouts, in which everyone now does play ``best``, as a hoarder does
   once it cannot draw). With more, that choice costs seconds: each of its candidates
   (passing among them) is weighed on the deal (at 2 players the one deal, the truth; at 3
   and 4, :data:`DRY_DEALS` sampled ones) by whether an opponent could go out over the
   table it leaves, then by the racks' totals, which decide a hand ended on passes. At 3
   and 4 players against opponents who never laid a tile while the pool held tiles (all
   hoarders, every rack large), a candidate is weighed a round on instead: each other player
   lays the most tiles it can in turn (one who passed once the pool was empty, waiting as
   this player does, passes again), and the candidate wins on a deal where the player then
   goes out over the table they built (which passing can wait for) and loses where one of
   them goes out first.
3. **Open** with the best move (the solver's, by value) when the rules and the opponents
   make it pay: it shortens the rack, and the player may then use the table on every later
   turn. Where the rules let a player use the table on the turn it opens
   (``open_then_play``), the table is what a hoarder goes out over: at 2 players the player
   opens only when the opponent is not more likely a hoarder than not (:func:`hoarding`);
   at 3 and 4 it never opens short of going out, since the others soon build a table to go
   out over without it, and an early opening only feeds them. Under the ``boxed`` reading
   an opponent cannot use the table before a turn of its own opening, so the player always
   opens.
4. Else **draw**: a tile laid short of going out is a tile the others may go out over.

**The model of an opponent** (:func:`hoarding`) is Bayesian over two kinds of player: a
*hoarder*, who draws every turn until it goes out, and a *feeder*, who lays what it can and
draws only when it cannot (``best``, ``tiles``, ``hold``, ``casual``). It reads only what is
public (RULES.md, "what a player knows"): the kind of each of the opponent's turns, and
whether it had opened by then. A hoarder never lays tiles short of going out while the pool
holds tiles; a feeder draws about half its turns before it opens and a quarter after
(:data:`FEEDER_DRAWS`). A run of draws with a growing rack is read as hoarding.

What it assumes, and its budget: its own later turns follow this same policy (no "it lays
everything next turn"); an opponent is either kind, its kind read from its turns. A decision
costs one or two solves of the player's own position while the pool holds tiles (the
most-tiles move, and the best move when it may open); once it is empty, a solve of each
opponent's rack per candidate and deal, or the first ``equity``'s budget
(:data:`rummikub.tiles.game.equity.DEFAULT`) once the racks are small: work, never time.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummikub.play.equity import Budget, deals
from rummikub.tiles.game.engine import GameState, advance, play_move, turn_of_move
from rummikub.tiles.game.view import View
from rummikub.tiles.position import Move, Position
from rummikub.tiles.solver import solve

__all__ = [
    "DRY_DEALS",
    "ENDGAME_TILES",
    "FEEDER_DRAWS",
    "GOES_ON",
    "HOARDER_LAYS",
    "PRIOR",
    "Reading",
    "equity",
    "hoarding",
    "may_open",
    "reading",
]

#: With the pool empty, the first ``equity`` decides while the racks hold this many tiles
#: in all; above, a decision of it costs seconds (some 20 s of one core for two racks of 50
#: tiles) and the player plays the best move, as a hoarder does.
ENDGAME_TILES = 30

#: What a candidate is worth, once the pool is empty, that leaves the player behind on the
#: racks' totals but the opponent unable to go out: less than a draw on the totals, more
#: than a loss.
GOES_ON = 0.25

#: The deals of the unseen tiles the pool-empty choice weighs at 3 and 4 players.
DRY_DEALS = 4

#: The prior chance that an opponent hoards, before it has taken a turn.
PRIOR = 0.5
#: The chance that a feeder draws on a turn while the pool holds tiles: before its initial
#: meld (it holds no meld of the initial value yet) and after (nothing on its rack fits).
#: Set from the duels' turn counts (``best`` draws some two turns in five), not fitted.
FEEDER_DRAWS = (0.5, 0.25)
#: The chance that a hoarder lays tiles without going out while the pool holds tiles (it
#: never does; not 0, so that one odd turn is evidence, not proof).
HOARDER_LAYS = 0.02


@dataclass(frozen=True, slots=True)
class Reading:
    """What an opponent's public turns say about it."""

    seat: int
    #: Its turns counted: draws, and plays while the pool held tiles.
    draws: int
    plays: int
    #: The chance that it hoards (:func:`hoarding`).
    hoards: float


def reading(view: View, seat: int) -> Reading:
    """How likely ``seat`` is a hoarder, from its turns in ``view.history`` (public: the kind
    of each turn and the tiles laid, never a tile drawn).

    Every turn multiplies the odds by its likelihood under each kind: a draw is certain for
    a hoarder and :data:`FEEDER_DRAWS` for a feeder (its first or second value as the seat had
    laid tiles by then or not); a play while the pool still held tiles is
    :data:`HOARDER_LAYS` for a hoarder and the rest for a feeder. Passes (the pool empty) and
    plays once the pool is empty say nothing: then everyone plays what it can.
    """
    # The pool before each turn, counted back from now: every draw took one tile out of it.
    pool = view.pool_count + sum(1 for seen in view.history if seen.kind == "draw")
    hoard = feed = 1.0
    draws = plays = 0
    opened = False
    for seen in view.history:
        pooled = pool > 0
        if seen.kind == "draw":
            pool -= 1
        if seen.seat != seat:
            continue
        chance = FEEDER_DRAWS[opened]
        if seen.kind == "draw":
            draws += 1
            feed *= chance
        elif seen.kind == "play" and seen.laid:
            opened = True
            if pooled:
                plays += 1
                hoard *= HOARDER_LAYS
                feed *= 1.0 - chance
        # Renormalise as we go: long histories stay within a float's range.
        total = hoard + feed
        hoard, feed = hoard / total, feed / total
    odds = PRIOR * hoard
    return Reading(seat, draws, plays, odds / (odds + (1.0 - PRIOR) * feed))


def hoarding(view: View, seat: int) -> float:
    """The chance that ``seat`` hoards (:func:`reading`)."""
    return reading(view, seat).hoards


def may_open(position: Position, view: View) -> bool:
    """Whether opening pays (step 3 of the module's text): always under rules where a player
    cannot use the table on the turn it opens; else never at 3 and 4 players, and at 2 only
    when the opponent is not more likely a hoarder than not."""
    if not position.rules.open_then_play:
        return True
    if view.players > 2:
        # Three or two others build the table between two of this player's turns: it soon
        # holds what going out over it needs, and an early opening only adds to what they
        # may go out over (against three `best`, 30 of 48 games won opening early, 44 of 48
        # not; against three `equity-v1` 16 and 21; seed 100).
        return False
    return all(hoarding(view, seat) < 0.5 for seat in range(view.players) if seat != view.seat)


def _drawn_dry(position: Position, view: View) -> Move:
    """The move once the pool is empty and the player cannot go out (step 2)."""
    if sum(view.rack_counts) <= ENDGAME_TILES:
        from rummikub.tiles.game.equity import equity as first

        return first(position, view)
    from rummikub.tiles.game.equity import TileSearch, candidates

    # Racks too large for the exact search. At 2 players the hand is one of perfect
    # information (the opponent holds every tile the player cannot see: one deal is the
    # truth); at more, the unseen tiles are dealt :data:`DRY_DEALS` times. Each candidate
    # (passing among them) is worth, on each deal, nothing if it ends the hand lost or an
    # opponent can go out over the table it leaves; else what the racks' totals would give
    # were the hand to end on passes there (RULES.md: the lowest total wins), at least
    # :data:`GOES_ON`. The mean worth decides; then the mean margin in totals, then the
    # earlier candidate (the best move first).
    samples = 1 if view.players == 2 else DRY_DEALS
    states = deals(TileSearch(), (position, view), Budget(samples=samples))
    seat = view.seat
    # At 3 and 4 players against opponents none of whom laid a tile while the pool held
    # tiles (hoarders: their racks all large now), the others move before the player again
    # and each lays what it can: the table one of them leaves is what the next goes out
    # over, and what the player may go out over after them. So a candidate is judged a
    # round on.
    others = [s for s in range(view.players) if s != seat]
    ahead = view.players > 2 and all(reading(view, s).plays == 0 for s in others)
    # A seat that passed once the pool was empty waits too (another player like this one):
    # in the round ahead it passes again rather than laying.
    waiting = frozenset(seen.seat for seen in view.history if seen.kind == "pass")
    scored: list[tuple[float, float, int, Move]] = []
    for order, (_, move) in enumerate(candidates(position)):
        worth = margin = 0.0
        for state in states:
            after = advance(state, turn_of_move(state, move), judge=False)
            if ahead:
                after = _round_after(after, seat, waiting)
            totals = [after.rack_total(s) or 0 for s in range(view.players)]
            lowest = min(t for s, t in enumerate(totals) if s != seat)
            margin += lowest - totals[seat]
            if after.result is not None:
                won = seat in after.result.winners
                worth += 1.0 / len(after.result.winners) if won else 0.0
            elif ahead and _goes_out(after, seat):
                worth += 1.0
            elif any(_goes_out(after, s) for s in others):
                continue
            elif lowest != totals[seat]:
                worth += 1.0 if lowest > totals[seat] else GOES_ON
            else:
                worth += 0.5
        scored.append((-worth, -margin, order, move))
    return min(scored, key=lambda entry: entry[:3])[3]


def _round_after(state: GameState, seat: int, waiting: frozenset[int] = frozenset()) -> GameState:
    """``state`` once every other player has taken its turn, each laying the most tiles it
    can (what every player does once drawing is over) but the ``waiting`` seats, who pass,
    or the hand over first."""
    while not state.over and state.to_move != seat:
        if state.to_move in waiting:
            most = Move(state.table, ())
        else:
            most = solve(state.position(), objective="tiles").move
        state = play_move(state, most)
    return state


def _goes_out(state: GameState, seat: int) -> bool:
    """Whether ``seat`` (its rack known in ``state``) can lay its whole rack on the table."""
    position = state.position(seat)
    return len(solve(position, objective="tiles").move.played) == len(position.rack)


def equity(position: Position, view: View) -> Move:
    """The ``equity`` strategy (see the module's text): go out, else (the pool empty) the
    first ``equity``'s move, else open when it pays, else draw."""
    out = solve(position, objective="tiles").move
    if len(out.played) == len(position.rack):
        return out
    if view.pool_count == 0:
        return _drawn_dry(position, view)
    if not position.opened and may_open(position, view):
        opening = solve(position).move
        if opening.played:
            return opening
    return Move(position.table, ())
