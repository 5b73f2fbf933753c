""" "No move", proven without a linear program, where a count of tiles shows it.

A solve of a position without a legal move still builds its model and runs CLP to prove
that nothing can be laid (a few milliseconds); in a game that is the common case of a
player who must draw. :func:`no_move` proves it for two kinds of position from tile counts
alone, and answers ``None`` (not proven here: solve it) for every other.

The proof, from RULES.md "A turn":

- **Opened player.** A move plays at least one rack tile ``p`` (rule 2), which lies in a
  meld ``M`` of the new table; by conservation (rule 1) ``M``'s tiles are old table tiles
  and played tiles, so ``M`` is a valid meld of tiles of the multiset ``A`` = table + rack
  holding ``p``. A valid meld holding ``p`` has a valid sub-meld of three tiles holding
  ``p`` (a run: three consecutive places of its run around ``p``'s; a group: ``p`` and two
  more of its tiles). So if no rack tile ``p`` lies in any three-tile meld of ``A`` (every
  joker of ``A`` counted as free, whatever the lock: that only allows more melds), no move
  exists.
- **Player not yet opened.** Any move first lays melds of rack tiles alone worth at least
  ``initial_meld`` together, one meld at least (rule 3, under both ``open_then_play``).
  Only rack tiles that lie in a three-tile meld of the rack alone can be in one, a
  numbered tile worth its number there and a joker at most ``numbers``: if those tiles
  are worth less than ``initial_meld`` together, or there are none, no move exists.

A rack joker ``p`` is in a meld of ``A`` only with a numbered tile ``x`` of ``A`` (a meld
holds one), and that meld shows that ``x`` lies in a three-tile meld of ``A``; so a joker
counts as fitting when any numbered tile of ``A`` fits (which may be more than is true:
the proof is then only weaker).

The answer is the solver's own for such a position (``no_move`` has one table: the old
one), so a solve that takes it returns the same result, whatever its options: a restricted
solve (``exclude``, ``better_than``) only allows fewer moves.
``tests/test_solver_quick.py`` checks every ``None``-or-proof against the full solver
with hypothesis; benchmarks/RESULTS.md, "Throughput for playouts", measures the share of
positions it answers and what it saves.
"""

from __future__ import annotations

from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules


def no_move(position: Position) -> bool:
    """True when ``position`` is proven to have no legal move (see the module text);
    False when it may have one (the solver decides)."""
    rules = position.rules
    if position.opened:
        # Opened: does any rack tile lie in a three-tile meld of the table and the rack?
        have = {(t.color, t.number) for meld in position.table for t in meld.tiles}
        have.update((t.color, t.number) for t in position.rack)
        jokers = sum(1 for meld in position.table for t in meld.tiles if t.is_joker)
        jokers += sum(1 for t in position.rack if t.is_joker)
        numbered = [t for t in position.rack if not t.is_joker]
        if any(_fits(t.color, t.number, have, jokers, rules) for t in numbered):
            return False
        if len(numbered) == len(position.rack):
            return True
        # A rack joker is in a meld only with a numbered tile, which then fits too.
        return not any(
            _fits(color, number, have, jokers, rules) for color, number in have if number
        )
    # Not opened: what the rack's tiles that lie in a meld of the rack alone are worth.
    have = {(t.color, t.number) for t in position.rack}
    jokers = sum(1 for t in position.rack if t.is_joker)
    worth = 0
    fits_any = False
    for tile in position.rack:
        if not tile.is_joker and _fits(tile.color, tile.number, have, jokers, rules):
            fits_any = True
            worth += tile.number
    if fits_any:
        # A joker stands for a number of its meld, at most ``numbers``; with no numbered
        # tile in a meld of the rack, no joker is in one either.
        worth += jokers * rules.numbers
    return not fits_any or worth < rules.initial_meld


def _fits(color: str, number: int, have: set[tuple[str, int]], jokers: int, rules: Rules) -> bool:
    """Whether the numbered tile ``color`` ``number`` (of which ``have`` holds a copy) lies
    in a valid three-tile meld of the tiles ``have`` holds (each type at least once) and
    ``jokers`` jokers, every joker free."""
    # A group: two more tiles of the number, of other colors or jokers (a joker stands
    # for a color missing from the group, so a group of three needs three colors).
    if rules.max_group >= 3:
        others = sum(1 for c in rules.colors if c != color and (c, number) in have)
        if others + jokers >= 2:
            return True
    # A run: three consecutive numbers of the color around ``number``, within 1..numbers,
    # each place but the tile's own filled by a tile of ``have`` or by a joker.
    for start in range(max(1, number - 2), min(number, rules.numbers - 2) + 1):
        missing = sum(1 for n in range(start, start + 3) if n != number and (color, n) not in have)
        if missing <= jokers:
            return True
    return False
