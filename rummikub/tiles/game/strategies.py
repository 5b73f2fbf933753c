"""Strategies: plain functions from a position (and the public state of the game) to a move.

A strategy returns a :class:`~rummikub.tiles.position.Move`; one that plays nothing means "draw"
(or "pass" once the pool is empty). Any function with the signature of :data:`Strategy`
plugs into :func:`rummikub.tiles.game.simulate.play_game` and ``rummikub play``.

* ``best``: the solver's best move (greatest value played, RULES.md "The best move").
* ``tiles``: the move that plays the most tiles.
* ``hold``: holds back its jokers and the tiles that complete nothing on the table yet (the
  melds it could lay from its own tiles alone, kept to lay later, all at once, but for one
  that holds the tile freeing a table joker) until its rack is small, an opponent is close
  to going out, or the pool is empty; then it plays like ``best``. Before its initial meld
  it plays like ``best`` without its jokers: only melds from the hand can open.
* ``casual``: misses rearrangements: it lays the best new melds from its hand (the solver on
  an empty table), then adds what it can to the ends of runs and the missing colors of groups,
  old melds and new alike. Nothing already on the table is moved.
* ``hoard``: a baseline, not a good player: it draws every turn until one move lays its whole
  rack (opening and rearranging the table in the same turn, where the rules allow it), then
  goes out; once the pool is empty it plays like ``best``, since drawing is no longer
  possible and passing for ever would never end the hand.
* ``tempo``: adapts to the table: it opens as early as it can (like ``best``), then keeps its
  tiles back as ``hoard`` does (drawing until one move lays its whole rack, so that it feeds
  the table nothing an opponent could build on) while the race is slow, and races like
  ``best`` once an opponent is close to going out (five tiles or fewer) or the pool is
  empty. Everything it watches is public: the opponents' rack sizes and the pool.
* ``equity``: plays to win against whoever sits there (:mod:`rummikub.tiles.game.player`):
  goes out when one move lays its whole rack, else draws; opens when the rules and its
  reading of the opponents' public turns (a hoarder or a feeder) make it pay.
* ``equity-v1``: the first ``equity`` (determinized playouts in which everyone plays ``best``),
  kept unchanged under this name so that later players can be measured against it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from rummikub.core.errors import MeldError
from rummikub.play.registry import Registry
from rummikub.tiles.game.view import View
from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver import solve
from rummikub.tiles.tiles import Tile

__all__ = [
    "REGISTRY",
    "STRATEGIES",
    "Strategy",
    "View",
    "best",
    "casual",
    "equity",
    "equity_v1",
    "held",
    "held_back",
    "hoard",
    "hold",
    "strategy",
    "tempo",
    "tiles",
]


Strategy = Callable[[Position, View], Move]

#: ``hold`` plays its jokers once its rack is this small ...
HOLD_UNTIL_RACK = 6
#: ... or once an opponent holds this few tiles.
HOLD_UNTIL_OPPONENT = 4


def no_move(position: Position) -> Move:
    return Move(position.table, ())


def best(position: Position, view: View) -> Move:
    """The best move by value (then tiles, then the least disturbance)."""
    return solve(position).move


def tiles(position: Position, view: View) -> Move:
    """The move that plays the most tiles (then value)."""
    return solve(position, objective="tiles").move


def hold(position: Position, view: View) -> Move:
    """Keep the jokers, and the melds made of rack tiles alone, while nobody is pressed.

    The move is the best one without the jokers, less its new melds that hold no table tile
    and free no table joker (:func:`held_back`). Before the initial meld nothing is taken
    back.
    """
    pressed = (
        len(position.rack) <= HOLD_UNTIL_RACK
        or min(view.opponents(), default=0) <= HOLD_UNTIL_OPPONENT
        or view.pool_count == 0
    )
    return best(position, view) if pressed else held(position)


def held(position: Position) -> Move:
    """``hold``'s move when nobody is pressed: the best move without the jokers, less its new
    melds made of rack tiles alone (see :func:`hold`)."""
    kept = tuple(t for t in position.rack if not t.is_joker)
    if not kept:
        return no_move(position)
    move = solve(replace(position, rack=kept)).move
    if not position.opened or not move.played:
        return move
    return held_back(position, move)


def held_back(position: Position, move: Move) -> Move:
    """``move`` (a legal move of an opened player) less its new melds made of rack tiles
    alone, but for those that hold a tile a released joker may need.

    Taking such a meld back leaves every table tile where the move put it, so every joker
    lock the move keeps still holds. A released joker is another matter: its substitute is a
    played tile, and once the joker is free (RULES.md, "released") the substitute may lie
    anywhere, in a meld of rack tiles alone too (``K6 R6 B6`` freeing the joker of
    ``K5 J K7`` for ``K7 O7 J``; under ``group_joker_release = "both"``, ``O5 O6 O7`` freeing
    ``K5 R5 J`` with ``B5``). Such a meld stays in the move: without it the joker would move
    without its substitute. Every tile that could substitute a released joker is kept in
    play, so the substitutes the move relied on are all still played.
    """
    from rummikub.tiles.explain import RACK, explain

    rules = position.rules
    explanation = explain(position, move)
    wanted = {
        tile
        for aftermath in explanation.aftermaths
        if aftermath.released and rules.joker_lock == "strict"
        for tile in _substitutes(aftermath.meld, rules)
    }
    played = Counter(move.played)
    shown: list[Meld] = []
    # Where each tile comes from tells the melds laid from the rack alone, also when the
    # rack and the table hold copies of the same tile.
    for change in explanation.changes:
        alone = all(source == RACK for source in change.sources())
        if alone and wanted.isdisjoint(change.meld.tiles):
            played -= Counter(change.meld.tiles)
        else:
            shown.append(change.meld)
    if not played:
        return no_move(position)
    return Move(tuple(shown), tuple(sorted(played.elements(), key=rules.sort_key)))


def _substitutes(meld: Meld, rules: Rules) -> tuple[Tile, ...]:
    """Every tile that may take the place of a joker of ``meld`` (RULES.md, "released"): what
    the jokers of a run stand for; the missing colors of a group."""
    if meld.kind == "run":
        return meld.joker_tiles()
    return tuple(Tile(color, meld.number) for color in meld.missing_colors(rules))


def casual(position: Position, view: View) -> Move:
    """New melds from the hand, then extensions; no rearrangement."""
    from rummikub.tiles.checker import check

    rules = position.rules
    fresh = solve(Position((), position.rack, position.opened, rules))
    if not position.opened and (not fresh.played or not rules.open_then_play):
        return Move(position.table + fresh.table, fresh.played)
    rack = Counter(position.rack) - Counter(fresh.played)
    melds = list(position.table + fresh.table)
    extended = _extend(melds, rack, rules)
    played = tuple(sorted((Counter(position.rack) - rack).elements(), key=rules.sort_key))
    if not played:
        return no_move(position)
    if check(position, extended).legal:
        return Move(tuple(extended), played)
    # An extension the checker refuses (a locked meld's joker read differently): new melds only.
    return Move(position.table + fresh.table, fresh.played)


def _extend(melds: list[Meld], rack: Counter[Tile], rules: Rules) -> list[Meld]:
    """Add rack tiles (taken out of ``rack``) to the ends of runs and to groups while any fits."""
    grown = True
    while grown:
        grown = False
        for index, meld in enumerate(melds):
            for tile, at_start in _fits(meld, rules):
                if rack[tile] <= 0:
                    continue
                tiles = (tile, *meld.tiles) if at_start else (*meld.tiles, tile)
                try:
                    melds[index] = Meld.of(tiles, kind=meld.kind, rules=rules)
                except MeldError:
                    continue
                rack[tile] -= 1
                grown = True
                break
    return melds


def _fits(meld: Meld, rules: Rules) -> list[tuple[Tile, bool]]:
    """The numbered tiles that would extend ``meld``, and whether each goes first."""
    if meld.kind == "run":
        found = []
        if meld.start > 1:
            found.append((Tile(meld.color, meld.start - 1), True))
        if meld.end < rules.numbers:
            found.append((Tile(meld.color, meld.end + 1), False))
        return found
    if len(meld.tiles) >= rules.max_group:
        return []
    return [(Tile(color, meld.number), False) for color in meld.missing_colors(rules)]


def hoard(position: Position, view: View) -> Move:
    """Draws until the move laying the most tiles lays the whole rack, then goes out."""
    move = solve(position, objective="tiles").move
    if view.pool_count == 0 or len(move.played) == len(position.rack):
        return move
    return no_move(position)


#: ``tempo`` races once an opponent holds this few tiles.
TEMPO_RACE_OPPONENT = 5


def tempo(position: Position, view: View) -> Move:
    """Open early, then hoard while the race is slow; race like ``best`` once it is not."""
    racing = (
        not position.opened
        or view.pool_count == 0
        or min(view.opponents(), default=0) <= TEMPO_RACE_OPPONENT
    )
    return best(position, view) if racing else hoard(position, view)


def equity(position: Position, view: View) -> Move:
    """Plays to win against whoever sits there (:mod:`rummikub.tiles.game.player`)."""
    from rummikub.tiles.game.player import equity as decide

    return decide(position, view)


def equity_v1(position: Position, view: View) -> Move:
    """The first ``equity``: the candidate with the best equity over playouts in which
    everyone plays ``best`` (:mod:`rummikub.tiles.game.equity`)."""
    from rummikub.tiles.game.equity import equity as decide

    return decide(position, view)


STRATEGIES: dict[str, Strategy] = {
    "best": best,
    "tiles": tiles,
    "hold": hold,
    "casual": casual,
    "hoard": hoard,
    "tempo": tempo,
    "equity": equity,
    "equity-v1": equity_v1,
}


#: The registry of :data:`STRATEGIES` (the same dict): the lookup by name of every command.
REGISTRY: Registry[Strategy] = Registry("strategy", STRATEGIES)


def strategy(name: str) -> Strategy:
    """A strategy by name."""
    return REGISTRY(name)
