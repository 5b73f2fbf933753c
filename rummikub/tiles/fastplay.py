"""A fast move for playouts: a good legal move in well under a millisecond, never proven best.

A playout plays whole hands to their end, and an exact solve a turn (about 5 ms) is most of
its cost. :func:`fast_move` finds a move the way a quick human player does, without a model:

1. **Melds from the rack**: the set of runs and groups of rack tiles worth the most
   (:func:`rack_melds`, a depth-first search over the rack, memoized on what is left, its
   work bounded by :data:`RACK_NODES`: the best set found within it, so the same rack gives
   the same melds whatever else runs).
2. **Laying off**: every rack tile left that extends a meld (a run at either end, a group by
   a missing color), new melds and old, until none fits; a joker and a tile two past a
   run's end (the joker between).
3. **Splitting a run**: a tile equal to one inside a joker-free run of five or more cuts it in
   two runs of three or more.
4. **Borrowing**: a rack tile and two more, each from the rack or lent by a joker-free table
   meld that can spare it (the end of a run of four or more, a tile of a run of seven or
   more leaving three each side, any tile of a group of four), make a new meld of three;
   then the same with a rack joker for one of the two (the most rack value first).

Steps 2-4 repeat while they lay a tile, after step 1; then the jokers left are laid anywhere
they fit, and steps 2-4 go on if they did. Where step 1's melds took a joker and rack
tiles are left, the move is also tried with step 1's melds without jokers (a joker kept
back may borrow, step 4). A player who has not opened lays
step 1's melds when their value, each joker counting the number it stands for, reaches the
initial meld, then (``open_then_play``) goes on as an opened player.

5. **Freeing a joker**: a rack tile that substitutes a table meld's one joker (the tile a
   run's joker stands for; a missing color of a group, under ``group_joker_release =
   "either"``) frees it to be laid again, in a rack meld or on any meld it fits; each such
   release is tried before steps 1-4, kept only when the joker is laid again. The move
   laying the most value (then tiles) is kept.
6. **Rebuilding**: where rack tiles are left, the joker-free melds near them (holding a tile
   of the same number, or of the same color within two; and the groups beside a group so
   chosen) are made again from their tiles, the rack tiles left, the rack tiles steps 1-4
   laid in them or at the ends of a meld holding a joker, the new melds of rack tiles
   holding a joker (whole, up to two jokers in all), and the rack jokers left, with the
   locked runs (table runs holding a joker) such a tile could extend, each kept whole in
   one run that may grow at its ends: the melds worth the most, found exactly by a
   dynamic programme over the numbers (:func:`_rebuild`, its work bounded by
   :data:`REBUILD_WORK`; made again without the new melds holding a joker where they make
   it run out); then steps 2-4 again, and the move kept when it lays more. This moves
   tiles out of groups of three into runs or onto a locked run, cuts and joins runs
   anywhere, takes back a tile step 2 laid where a meld needed it more, and a joker step
   1 laid where a rack tile left needs it more. It runs where the box holds one or two
   copies of a tile.

What it never does: use a meld holding a joker other than by extending it or freeing its
one joker (so every move keeps the joker lock's *kept* or *released* fate), or move tiles
between old melds far from every rack tile left. Every move it returns passes the checker
(``tests/test_fastplay.py``); how often it reaches the solver's value is measured in
``benchmarks/RESULTS.md`` ("The fast playout move"). The exact solver stays the answer of
``solve``, ``analyse`` and every move a strategy finally plays.
"""

from __future__ import annotations

import copy
from collections import Counter
from functools import lru_cache

from rummikub.tiles.melds import Kind, Meld
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import JOKER, Tile

__all__ = ["RACK_NODES", "fast_move", "rack_melds"]

#: The work one rack search may do: the nodes of its depth-first search. Racks of 14 tiles
#: take a few hundred; a hoarder's rack of 40 is cut here, keeping the best set found.
RACK_NODES = 4000

#: The work the rebuild (step 6) may do: the choices its search weighs. A playout's table
#: takes a few hundred to a few thousand; a search that would pass it gives up, early where
#: its pace says it would, and the move found before it stands.
REBUILD_WORK = 8000


# -- melds from the rack ---------------------------------------------------------------

#: A meld found in the rack: its kind and its tiles in order (a run's jokers where they stand).
RackMeld = tuple[Kind, tuple[Tile, ...]]
_Score = tuple[int, int]


class _RackSearch:
    """The best set of melds from a rack: the most value (``joker_value`` a joker, or with
    ``opening`` the number it stands for, as the initial meld counts it), then the most
    tiles. Depth first over the lowest tile left: left out, or in a run or group through
    it; memoized on what is left."""

    def __init__(self, rack: tuple[Tile, ...] | list[Tile], rules: Rules, opening: bool) -> None:
        numbered = Counter(t for t in rack if not t.is_joker)
        self.rules = rules
        self.opening = opening
        self.cells = sorted(numbered, key=rules.sort_key)
        self.counts = [numbered[t] for t in self.cells]
        self.jokers = len(rack) - sum(self.counts)
        self.index = {(t.color, t.number): i for i, t in enumerate(self.cells)}
        self.nodes = 0
        self.memo: dict[tuple[tuple[int, ...], int], tuple[_Score, tuple[RackMeld, ...]]] = {}

    def run(self, jokers: int | None = None) -> tuple[RackMeld, ...]:
        """The best set with the rack's jokers (or only ``jokers`` of them): a search asked
        again reuses what it found (the same memo, the same work bound)."""
        return self._best(0, self.jokers if jokers is None else jokers)[1]

    def _best(self, start: int, jokers: int) -> tuple[_Score, tuple[RackMeld, ...]]:
        counts = self.counts
        while start < len(counts) and counts[start] == 0:
            start += 1
        if start == len(counts):
            return (0, 0), ()
        key = (tuple(counts[start:]), jokers)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        # Leaving the lowest tile out is always a choice (and the only one once out of work).
        counts[start] -= 1
        best = self._best(start, jokers)
        counts[start] += 1
        if self.nodes <= RACK_NODES:
            for meld, used, spent in self._melds_through(start, jokers):
                for cell in used:
                    counts[cell] -= 1
                rest_score, rest = self._best(start, jokers - spent)
                for cell in used:
                    counts[cell] += 1
                score = self._score(meld)
                total = (score[0] + rest_score[0], score[1] + rest_score[1])
                if total > best[0]:
                    best = (total, (meld, *rest))
        self.memo[key] = best
        return best

    def _score(self, meld: RackMeld) -> _Score:
        kind, tiles = meld
        if not self.opening:
            return sum(self.rules.tile_value(t) for t in tiles), len(tiles)
        return Meld(kind, tiles).value, len(tiles)  # as the initial meld counts it

    def _melds_through(self, start: int, jokers: int) -> list[tuple[RackMeld, list[int], int]]:
        """Every run or group holding the lowest tile left: (the meld, the cells it uses,
        the jokers it spends)."""
        rules, counts, index = self.rules, self.counts, self.index
        tile = self.cells[start]
        found: list[tuple[RackMeld, list[int], int]] = []
        # Runs from the tile up (it is the lowest of its color left), each later number a
        # rack tile or a joker; one reaching the box's top may also start with jokers.
        tiles: list[Tile] = [tile]
        used = [start]
        spent = 0
        number = tile.number
        while True:
            if len(tiles) >= 3:
                found.append((("run", tuple(tiles)), list(used), spent))
            if number == rules.numbers:
                for lead in range(1, jokers - spent + 1):
                    if tile.number - lead < 1:
                        break
                    if len(tiles) + lead >= 3:
                        run = (*([JOKER] * lead), *tiles)
                        found.append((("run", run), list(used), spent + lead))
                break
            number += 1
            cell = index.get((tile.color, number))
            if cell is not None and counts[cell] > 0:
                tiles.append(self.cells[cell])
                used.append(cell)
            elif spent < jokers:
                tiles.append(JOKER)
                spent += 1
            else:
                break
        # Groups through the tile: other colors of its number (all later cells), and jokers.
        others = []
        for color in rules.colors:
            cell = index.get((color, tile.number))
            if color != tile.color and cell is not None and counts[cell] > 0:
                others.append(cell)
        size = rules.max_group
        for mask in range(1 << len(others)):
            chosen = [others[i] for i in range(len(others)) if mask >> i & 1]
            numbered = 1 + len(chosen)
            for pad in range(max(0, 3 - numbered), min(jokers, size - numbered) + 1):
                group = (tile, *(self.cells[c] for c in chosen), *([JOKER] * pad))
                found.append((("group", group), [start, *chosen], pad))
        return found


def rack_melds(
    rack: tuple[Tile, ...] | list[Tile], rules: Rules, *, opening: bool = False
) -> tuple[RackMeld, ...]:
    """The set of melds of rack tiles worth the most (the module's step 1): value as played
    (a joker ``joker_value``), or with ``opening`` as the initial meld counts it; then tiles.
    The same rack always gives the same melds."""
    return _RackSearch(rack, rules, opening).run()


# -- the table ------------------------------------------------------------------------


class _Slot:
    """A meld of the table being built: its tiles (a run's in order) and the old meld it
    still is (None once changed or new). A meld holding a joker is only ever extended (the
    joker lock's *kept*); a plain one may be split or lend a tile.

    Here and in :class:`_Table`, asked for every tile against every meld of every table
    tried, a joker is told by ``number == 0`` (or ``JOKER in``), compared in C, rather than
    by the ``is_joker`` property, a Python call each time."""

    __slots__ = (
        "color",
        "end",
        "kind",
        "number",
        "old",
        "origin",
        "plain",
        "present",
        "start",
        "tiles",
    )

    def __init__(self, kind: Kind, tiles: list[Tile], old: Meld | None) -> None:
        self.kind = kind
        self.tiles = tiles
        self.old = old
        #: The table's meld this one is, or grew from by tiles laid at its ends (None: a
        #: meld made anew).
        self.origin = old
        self.plain = True
        self.color = ""
        self.number = self.start = self.end = 0
        self.present: set[str] = set()
        self.read()

    def read(self) -> None:
        """What :meth:`fits` asks, read again after a change."""
        tiles = self.tiles
        first = 0
        while tiles[first].number == 0:  # a run may start with jokers
            first += 1
        self.plain = JOKER not in tiles
        self.color, self.number = tiles[first].color, tiles[first].number
        if self.kind == "run":
            self.start = self.number - first
            self.end = self.start + len(tiles) - 1
        else:
            self.present = {t.color for t in tiles if t.number != 0}

    def copy(self) -> _Slot:
        """This meld to change apart: its tiles copied, what :meth:`read` found shared
        (:meth:`read` makes new ones), cheaper than reading them again."""
        other = _Slot.__new__(_Slot)
        other.kind, other.tiles, other.old = self.kind, list(self.tiles), self.old
        other.origin = self.origin
        other.plain, other.color, other.number = self.plain, self.color, self.number
        other.start, other.end, other.present = self.start, self.end, self.present
        return other

    def fits(self, tile: Tile, rules: Rules) -> int:
        """Where ``tile`` extends this meld: -1 in front, 1 at the end (a group: 1), 0 not."""
        if self.kind == "run":
            if tile.number == 0:
                return 1 if self.end < rules.numbers else (-1 if self.start > 1 else 0)
            if tile.color != self.color:
                return 0
            number = tile.number
            return 1 if number == self.end + 1 else (-1 if number == self.start - 1 else 0)
        if len(self.tiles) >= rules.max_group:
            return 0
        if tile.number == 0:
            return 1
        return 1 if tile.number == self.number and tile.color not in self.present else 0

    def add(self, tile: Tile, where: int) -> None:
        self.old = None
        if where < 0:
            self.tiles.insert(0, tile)
        else:
            self.tiles.append(tile)
        self.read()

    def remove(self, tile: Tile) -> None:
        """Lend ``tile`` (an end of a run, a tile of a group)."""
        self.old = None
        self.tiles.remove(tile)
        self.read()

    def meld(self, rules: Rules) -> Meld:
        if self.old is not None:
            return self.old
        return Meld.of(self.tiles, kind=self.kind, rules=rules)


class _Table:
    """A table being built from the old one and a rack: what is left of the rack, and the
    value and tiles laid so far."""

    def __init__(self, position: Position) -> None:
        self.rules = position.rules
        self.slots = [_Slot(m.kind, list(m.tiles), m) for m in position.table]
        self.left = sorted(position.rack, key=self.rules.sort_key)
        #: Rack jokers: a joker freed from the table joins ``left`` and must be laid again.
        self.jokers = self.left.count(JOKER)
        #: The rack tiles that substituted a table joker: played, wherever they end.
        self.substitutes: list[Tile] = []
        #: The melds of the initial meld, laid by a player who had not opened: kept as laid.
        self.opening: list[RackMeld] = []

    def copy(self) -> _Table:
        """This table to change apart: each try of :func:`fast_move` starts from a copy of
        the position's table, read once, rather than reading its melds again."""
        other = copy.copy(self)
        other.slots = [slot.copy() for slot in self.slots]
        other.left = list(self.left)
        other.substitutes = list(self.substitutes)
        other.opening = list(self.opening)
        return other

    def complete(self) -> bool:
        """Every joker freed from the table is on the table again (jokers are alike: the
        ones left are rack jokers)."""
        return self.left.count(JOKER) <= self.jokers

    def releases(self) -> list[int]:
        """The melds whose one joker a rack tile can substitute (RULES.md rule 4: a run's
        joker by the tile it stands for; a group's by a missing color, unless the rules ask
        for every missing color)."""
        found = []
        for index, slot in enumerate(self.slots):
            if slot.old is None or slot.tiles.count(JOKER) != 1:
                continue
            if self.substitute(slot) is not None:
                found.append(index)
        return found

    def substitute(self, slot: _Slot) -> Tile | None:
        """The rack tile that frees ``slot``'s joker, if any."""
        if slot.kind == "run":
            wanted = Tile(slot.color, slot.start + slot.tiles.index(JOKER))
            return wanted if wanted in self.left else None
        if self.rules.group_joker_release != "either":
            return None
        for tile in self.left:
            if tile.number != 0 and tile.number == slot.number and tile.color not in slot.present:
                return tile
        return None

    def release(self, index: int) -> None:
        """Substitute the joker of the meld at ``index`` and take it up to lay again."""
        slot = self.slots[index]
        tile = self.substitute(slot)
        assert tile is not None
        self.take(tile)
        self.substitutes.append(tile)
        slot.tiles[slot.tiles.index(JOKER)] = tile
        slot.old = None
        slot.read()
        self.left.append(JOKER)  # jokers sort last

    def score(self, rack: tuple[Tile, ...]) -> _Score:
        played = len(rack) - len(self.left)
        value = sum(self.rules.tile_value(t) for t in rack) - sum(
            self.rules.tile_value(t) for t in self.left
        )
        return value, played

    def take(self, tile: Tile) -> None:
        self.left.remove(tile)

    def lay(self, melds: tuple[RackMeld, ...]) -> None:
        for kind, tiles in melds:
            for tile in tiles:
                self.take(tile)
            self.slots.append(_Slot(kind, list(tiles), None))

    def lay_off(self) -> bool:
        """Every rack tile left that extends a meld, then a joker and a tile beyond it (a
        run's end and the number after next); whether any was laid."""
        laid = False
        again = True
        while again:
            again = False
            for tile in list(self.left):
                if tile.number == 0:
                    continue
                for slot in self.slots:
                    # A run it fits is of its color, a group of its number: a meld of
                    # neither is passed without asking :meth:`_Slot.fits` (the most melds).
                    if slot.color != tile.color and slot.number != tile.number:
                        continue
                    where = slot.fits(tile, self.rules)
                    if where:
                        slot.add(tile, where)
                        self.take(tile)
                        laid = again = True
                        break
            again = again or self.bridge()
        return laid

    def lay_jokers(self) -> bool:
        """The jokers left wherever they fit; whether any was laid."""
        laid = False
        for tile in [t for t in self.left if t.number == 0]:
            for slot in self.slots:
                where = slot.fits(tile, self.rules)
                if where:
                    slot.add(tile, where)
                    self.take(tile)
                    laid = True
                    break
        return laid

    def bridge(self) -> bool:
        """A rack joker and a rack tile two past a run's end (or before its start): the
        joker fills the number between; whether one was laid."""
        if JOKER not in self.left:
            return False
        for tile in self.left:
            if tile.number == 0:
                continue
            for slot in self.slots:
                if slot.kind != "run" or slot.color != tile.color:
                    continue
                if tile.number == slot.end + 2:
                    where = 1
                elif tile.number == slot.start - 2:
                    where = -1
                else:
                    continue
                slot.add(JOKER, where)
                slot.add(tile, where)
                self.take(JOKER)
                self.take(tile)
                return True
        return False

    def split(self) -> bool:
        """A rack tile equal to one inside a plain run of five or more cuts it in two."""
        for tile in list(self.left):
            if tile.number == 0:
                continue
            for index, slot in enumerate(self.slots):
                if slot.kind != "run" or not slot.plain or slot.color != tile.color:
                    continue
                at = tile.number - slot.start
                if at >= 2 and len(slot.tiles) - at >= 3:
                    low = _Slot("run", slot.tiles[: at + 1], None)
                    high = _Slot("run", [tile, *slot.tiles[at + 1 :]], None)
                    self.slots[index : index + 1] = [low, high]
                    self.take(tile)
                    return True
        return False

    def spares(self) -> set[Tile]:
        """The tiles some meld can spare, as :meth:`donor` finds them (asked once, for
        every tile the borrowing step tries, it decides nothing: :meth:`donor` does)."""
        found: set[Tile] = set()
        for slot in self.slots:
            if not slot.plain:
                continue
            tiles = slot.tiles
            size = len(tiles)
            if slot.kind == "group":
                if size > 3:
                    found.update(tiles)
            elif size >= 4:
                found.add(tiles[0])
                found.add(tiles[-1])
                found.update(tiles[3 : size - 3])
        return found

    def donor(self, wanted: Tile, taken: list[_Slot]) -> _Slot | None:
        """A plain meld that can spare ``wanted`` (the end of a run of four or more, a tile
        of a run of seven or more leaving three each side, a tile of a group of four or more), not
        one of ``taken``; None if none can."""
        for slot in self.slots:
            if not slot.plain or slot in taken or wanted not in slot.tiles:
                continue
            size = len(slot.tiles)
            if slot.kind == "group":
                if size > 3:
                    return slot
                continue
            at = wanted.number - slot.start
            if (size >= 4 and at in (0, size - 1)) or (at >= 3 and size - at - 1 >= 3):
                return slot
        return None

    def lend(self, slot: _Slot, wanted: Tile) -> None:
        """Take ``wanted`` from ``slot``, which :meth:`donor` chose."""
        at = wanted.number - slot.start
        if slot.kind == "group" or at in (0, len(slot.tiles) - 1):
            slot.remove(wanted)
            return
        index = next(i for i, s in enumerate(self.slots) if s is slot)
        low = _Slot("run", slot.tiles[:at], None)
        high = _Slot("run", slot.tiles[at + 1 :], None)
        self.slots[index : index + 1] = [low, high]

    def borrow(self) -> bool:
        """A rack tile and two more make a new meld of three, each of the two from the rack
        or lent by a table meld that can spare it; whether one was laid (the shapes using
        the most rack tiles first)."""
        rules = self.rules
        # The tiles of a shape are all distinct: each is the rack's, or must be lent.
        left = {t for t in self.left if t.number != 0}
        wild = JOKER in self.left
        box = _box(rules)
        # Only tiles a plain meld can spare can be lent: shapes needing others are not tried.
        found = left | self.spares()
        shapes: list[tuple[tuple[int, int], tuple[Tile, ...], Kind, list[Tile]]] = []
        seen: set[tuple[Tile, ...]] = set()

        def consider(tiles: tuple[Tile, ...], kind: Kind) -> None:
            if tiles not in seen:
                seen.add(tiles)
                need = [t for t in tiles if t not in left]
                shapes.append(((len(need), 0), tiles, kind, need))

        def consider_joker(tiles: tuple[Tile, ...], kind: Kind) -> None:
            """A shape with a rack joker, its other tiles from the rack or lent: after the
            shapes without one, the most rack value first (a joker is worth the same in
            any)."""
            if tiles not in seen:
                seen.add(tiles)
                need = [t for t in tiles if t.number and t not in left]
                laid = sum(t.number for t in tiles) - sum(t.number for t in need)
                shapes.append(((3, -laid), tiles, kind, need))

        # Each shape is tried only when its tiles are found (the tile itself is the rack's).
        for tile in sorted(left, key=rules.sort_key):
            number, color = tile.number, tile.color
            for low in (number - 2, number - 1, number):
                if low >= 1 and low + 2 <= rules.numbers:
                    run = (box[color, low], box[color, low + 1], box[color, low + 2])
                    here = [t in found for t in run]
                    if all(here):
                        consider(run, "run")
                    if wild:  # the joker for one of the other two numbers
                        for at in range(3):
                            if low + at != number and sum(here) - here[at] == 2:
                                consider_joker((*run[:at], JOKER, *run[at + 1 :]), "run")
            others = [box[c, number] for c in rules.colors if c != color]
            others = [t for t in others if t in found]
            for i, first in enumerate(others):
                for second in others[i + 1 :]:
                    consider((tile, first, second), "group")
                if wild:
                    consider_joker((tile, first, JOKER), "group")
        shapes.sort(key=lambda shape: shape[0])  # stable: the order above breaks ties
        for _, tiles, kind, need in shapes:
            lent: list[tuple[_Slot, Tile]] = []
            for tile in need:
                slot = self.donor(tile, [s for s, _ in lent])
                if slot is None:
                    break
                lent.append((slot, tile))
            else:
                for slot, tile in lent:
                    self.lend(slot, tile)
                for tile in (Counter(tiles) - Counter(need)).elements():
                    self.take(tile)
                self.slots.append(_Slot(kind, list(tiles), None))
                return True
        return False

    def play_on(self) -> None:
        """Lay off, split and borrow while any lays a tile; the jokers left wherever they
        fit only once none does (a joker may make a borrowed meld of a tile and a lent one)."""
        while self.left and (self.lay_off() or self.split() or self.borrow() or self.lay_jokers()):
            pass

    def move(self, position: Position) -> Move:
        played = Counter(position.rack) - Counter(self.left)
        table = tuple(slot.meld(self.rules) for slot in self.slots)
        return Move(table, tuple(sorted(played.elements(), key=self.rules.sort_key)))


@lru_cache(maxsize=16)
def _box(rules: Rules) -> dict[tuple[str, int], Tile]:
    """Every numbered tile of the box by color and number, made once per box: a lookup
    costs less than making the tile in the borrowing step's inner loop."""
    return {(c, n): Tile(c, n) for c in rules.colors for n in range(1, rules.numbers + 1)}


# -- rebuilding the table around the tiles left ----------------------------------------
#
# A dynamic programme over the numbers, low to high (the joker-free case of van Rijn, Takes
# and Vis, "The complexity of Rummikub problems", 2015): the tiles of each number go, color by
# color, to the runs of their color (each color holds two runs at most, two copies in the
# box) or to the groups of their number. A run is known by its length so far, 0-2 or 3 (three
# or more: it may end); a color's two runs by the pair of lengths, low first. The table's
# tiles must all be used, the rack's may be; the most value wins.

#: A color's two runs: the pairs of lengths (0-3, low first), each known by its index.
_PAIRS = [(low, high) for low in range(4) for high in range(low, 4)]
#: The pairs in which both runs may end (neither holds one or two tiles).
_ENDED = frozenset(i for i, (low, high) in enumerate(_PAIRS) if low in (0, 3) and high in (0, 3))
#: What a run of a length does at the next number: ``c`` continues, ``s`` stops (the run
#: ended at the number before), ``b`` begins a run, ``i`` stays idle; with its new length.
#: A run continued or begun takes a tile, or a joker (``C``, ``B``).
_STEPS = {0: (("b", 1), ("i", 0)), 1: (("c", 2),), 2: (("c", 3),), 3: (("c", 3), ("s", 0))}
_Acts = tuple[str, str]
#: For each pair, what its two runs may do at a number: the new pair, the steps (low first).
_PAIR_STEPS: list[list[tuple[int, _Acts]]] = [
    [
        (_PAIRS.index((min(low_to, high_to), max(low_to, high_to))), (a, b))
        for a, low_to in _STEPS[low]
        for b, high_to in _STEPS[high]
    ]
    for low, high in _PAIRS
]
#: A state's key, low digits first: the number's colors giving its groups one tile (x1) and
#: two (x16); the jokers used so far (x256); then each color's pair, a decimal digit each
#: (x1024, x10240, ...). A number closed keeps the key's jokers and pairs (the key // 256).
_GROUPS = 256
_PAIR_SHIFT = 1024
#: What one color did at a number, to build the melds from: the steps, the tiles it gave
#: the groups, the rack tiles it used.
_Done = tuple[_Acts, int, int]
#: One choice: the change of the color's pair, the key's other change, the rack tiles and
#: jokers used, and what it was.
_Choice = tuple[int, int, int, int, _Done]
#: A locked run's tile in the rebuild: the number the run starts at, and whether the tile
#: is its joker.
_Anchor = tuple[int, bool]
#: A state reached: its score (value x1000 + tiles), the state before, what led here.
_Reached = tuple[int, int, _Done | None]


def _short(length: int, ahead: int) -> int:
    """The jokers a run of ``length`` (0-3, :data:`_PAIRS`) needs to reach three, where
    ``ahead`` says which of the next two numbers hold a tile of its color (1 the next, 2
    the one after)."""
    if length in (0, 3):
        return 0
    return (not ahead & 1) + (length == 1 and not ahead & 2)


@lru_cache(maxsize=1024)
def _choices(
    table: int, tiles: int, jokers: int, anchor: int = 0, ahead: int = 3
) -> tuple[tuple[_Choice, ...], ...]:
    """For each pair, a color's choices at a number where it has ``tiles`` tiles,
    ``table`` of them the table's (all to be used), and ``jokers`` jokers may still be used.
    At a locked run's first number (``anchor`` 1) a run takes one of the tiles; at its
    others (2), one run goes on with one, and the other neither begins nor goes on. No run
    is left short of three where the tiles of its color at the next two numbers (``ahead``:
    1 the next, 2 the one after) and the jokers left could not make it three: it could
    never end."""
    found = []
    for pair, moves in enumerate(_PAIR_STEPS):
        options: list[_Choice] = []
        for to, (a, b) in moves:
            low, high = _PAIRS[to]
            need = _short(low, ahead) + _short(high, ahead)
            if need > jokers:
                continue
            if anchor == 2 and not (min(a, b) == "c" and max(a, b) in "is"):
                continue
            takers = [i for i, act in enumerate((a, b)) if act in "cb"]
            for mask in range(1 << len(takers)):  # which takers take a joker
                wild = bin(mask).count("1")
                if wild + need > jokers:
                    continue
                acts = tuple(
                    act.upper() if i in takers and mask >> takers.index(i) & 1 else act
                    for i, act in enumerate((a, b))
                )
                taken = len(takers) - wild
                if (anchor and not taken) or (anchor == 2 and wild):
                    continue
                for used in range(max(table, taken), tiles + 1):
                    grouped = used - taken
                    mark = 1 if grouped == 1 else 16 if grouped == 2 else 0
                    done = ((acts[0], acts[1]), grouped, used - table)
                    options.append((to - pair, wild * _GROUPS + mark, used - table, wild, done))
        found.append(tuple(options))
    return tuple(found)


@lru_cache(maxsize=16384)
def _steps_at(
    table: int,
    tiles: int,
    jokers: int,
    shift: int,
    gain: int,
    wild_gain: int,
    anchor: int = 0,
    ahead: int = 3,
) -> tuple[tuple[int, tuple[tuple[int, int, _Done], ...]], ...]:
    """:func:`_choices` for one color at one number, as the search adds them: for each
    pair, how many choices it has (the work they count) and (the key's change, the score's
    change, what it was) for each change of the key; made once, asked often.

    Choices changing the key alike (a pair's two runs swapping what they do) reach the same
    state, where only the one adding the most, the first of equals, can be kept: the rest
    are left out, and the one kept stands where the first of them stood, so the search
    reaches its states in the same order and keeps the same choices."""
    found = []
    for options in _choices(table, tiles, jokers, anchor, ahead):
        best: dict[int, tuple[int, int, _Done]] = {}
        for change, mark, used, wild, done in options:
            step = (change * shift + mark, used * gain + wild * wild_gain, done)
            known = best.get(step[0])
            if known is None or known[1] < step[1]:
                best[step[0]] = step  # a key already there keeps its place
        found.append((len(options), tuple(best.values())))
    return tuple(found)


@lru_cache(maxsize=64)
def _groups_fit(jokers: int, largest: int) -> tuple[tuple[bool, ...], ...]:
    """For each count of jokers up to ``jokers``, and each mark of a state's key (the colors
    giving one tile x1, two x16), whether :func:`_group_split` finds groups."""
    return tuple(
        tuple(
            _group_split(marks % 16, marks // 16, wild, largest) is not None
            for marks in range(_GROUPS)
        )
        for wild in range(jokers + 1)
    )


@lru_cache(maxsize=1024)
def _group_split(singles: int, doubles: int, jokers: int, largest: int) -> tuple[int, int] | None:
    """How the tiles one number gives its groups make groups of three to ``largest`` tiles,
    each of distinct colors: ``singles`` colors give one tile, ``doubles`` two (then two
    groups, each with every doubled color), and ``jokers`` jokers fill missing colors. The
    single colors and jokers the first group takes (the second the rest); None if none fits.
    Nothing at all fits, with no group; jokers alone never do."""
    if doubles == 0:
        size = singles + jokers
        if singles == 0:
            return (0, 0) if jokers == 0 else None
        return (singles, jokers) if 3 <= size <= largest else None
    for first in range(singles + 1):
        for wild in range(jokers + 1):
            one = doubles + first + wild
            two = doubles + singles - first + jokers - wild
            if 3 <= one <= largest and 3 <= two <= largest:
                return first, wild
    return None


def _rebuild(
    table: dict[tuple[int, int], int],
    rack: dict[tuple[int, int], int],
    colors: str,
    jokers: int,
    rules: Rules,
    numbers: tuple[int, int],
    anchors: dict[tuple[int, int], _Anchor] | None = None,
    enough: int = 0,
) -> tuple[int, list[RackMeld], dict[tuple[int, int], int], int] | None:
    """The melds of every ``table`` tile with ``rack`` tiles and up to ``jokers`` rack
    jokers worth the most (tiles by (color index, number)), within :data:`REBUILD_WORK`:
    (their score, value x1000 + tiles; the melds; the rack tiles used; the jokers used),
    score 0 and no melds if no rack tile fits; None if the work runs out or no melds hold
    every table tile. ``numbers``: the lowest and highest number a meld may reach.
    ``anchors``: the tiles of locked runs among ``table``'s (a joker's number counted as a
    tile of it), each kept whole in one run, which may grow. A score at most ``enough`` is
    given alone, without its melds (the caller has no use for them)."""
    anchors = anchors or {}
    count = len(colors)
    low, high = numbers
    largest = rules.max_group
    wild_gain = rules.joker_value * 1000 + 1  # value first, then tiles
    fits = _groups_fit(jokers, largest)
    # The tiles by color, then number (to one past the top), read in the search's loops
    # without making a key: the table's, and the table's and the rack's together.
    on_table = [[0] * (rules.numbers + 3) for _ in range(count)]
    at_all = [[0] * (rules.numbers + 3) for _ in range(count)]
    for (color, number), copies in table.items():
        on_table[color][number] = copies
        at_all[color][number] += copies
    for (color, number), copies in rack.items():
        at_all[color][number] += copies
    shifts = [_PAIR_SHIFT * 10**color for color in range(count)]
    closed: dict[int, tuple[int, int, int]] = {0: (0, 0, 0)}
    history: list[tuple[list[dict[int, _Reached] | None], dict[int, tuple[int, int, int]]]] = []
    empty = [True] * count  # whether the color had no tile at the number before
    work = 0
    for number in range(low, high + 1):
        partial: dict[int, _Reached] = {
            key * _GROUPS: (score, 0, None) for key, (score, _, _) in closed.items()
        }
        steps: list[dict[int, _Reached] | None] = []
        gain = number * 1000 + 1
        for color in range(count):
            here = on_table[color][number]
            tiles = at_all[color][number]
            if not tiles and not jokers and empty[color]:
                # No tile here nor at the number before: no run of the color goes on, and
                # every state stays as it is (None: the step that changes nothing).
                steps.append(None)
                continue
            empty[color] = not tiles
            shift = shifts[color]
            # A locked run's tile goes to a run, which alone goes on to the locked run's
            # end (at its joker's number, taking the table's joker).
            anchor = anchors.get((color, number)) if anchors else None
            where = 0 if anchor is None else 1 if number == anchor[0] else 2
            # (with jokers, where none is left to spend)
            ahead = bool(at_all[color][number + 1]) + 2 * bool(at_all[color][number + 2])
            following: dict[int, _Reached] = {}
            reached = following.get  # the search's innermost loop: looked up once
            if jokers:
                by_spare = [
                    _steps_at(here, tiles, spare, shift, gain, wild_gain, where, ahead)
                    for spare in range(jokers + 1)
                ]
                for key, (score, _, _) in partial.items():
                    choices, options = by_spare[jokers - key // _GROUPS % 4][key // shift % 10]
                    work += choices
                    for change, add, choice in options:
                        after = key + change
                        value = score + add
                        known = reached(after)
                        if known is None or known[0] < value:
                            following[after] = (value, key, choice)
            else:  # the same, with no joker to count (most rebuilds)
                by_pair = _steps_at(here, tiles, 0, shift, gain, wild_gain, where, ahead)
                for key, (score, _, _) in partial.items():
                    choices, options = by_pair[key // shift % 10]
                    work += choices
                    for change, add, choice in options:
                        after = key + change
                        value = score + add
                        known = reached(after)
                        if known is None or known[0] < value:
                            following[after] = (value, key, choice)
            if work > REBUILD_WORK:
                return None
            steps.append(following)
            partial = following
        closed = {}
        if jokers:
            for key, (score, _, _) in partial.items():
                marks = key % _GROUPS
                spent = key // _GROUPS % 4
                for wild in range(jokers - spent + 1):
                    if not fits[wild][marks]:
                        continue
                    after = key // _GROUPS + wild
                    value = score + wild * wild_gain
                    known_closed = closed.get(after)
                    if known_closed is None or known_closed[0] < value:
                        closed[after] = (value, key, wild)
        else:
            fit = fits[0]
            for key, (score, _, _) in partial.items():
                if fit[key % _GROUPS]:
                    after = key // _GROUPS
                    known_closed = closed.get(after)
                    if known_closed is None or known_closed[0] < score:
                        closed[after] = (score, key, 0)
        if not closed:
            return None
        history.append((steps, closed))
        # Give up early where the work so far, at this pace, would run out.
        if work * (high - low + 1) > REBUILD_WORK * (number - low + 1):
            return None
    ends = [
        (score, key)
        for key, (score, _, _) in closed.items()
        if all(key // (4 * 10**color) % 10 in _ENDED for color in range(count))
    ]
    best, key = max(ends, default=(0, 0))
    if best <= enough:
        return best, [], {}, 0
    # Back from the end: what each color did at each number, and the jokers of its groups.
    done: dict[tuple[int, int], _Done] = {}
    grouped: dict[int, int] = {}
    for number in range(high, low - 1, -1):
        steps, closed = history[number - low]
        _, state, grouped[number] = closed[key]
        for color in range(count - 1, -1, -1):
            step = steps[color]
            if step is None:
                done[number, color] = (("i", "i"), 0, 0)
                continue
            _, state, what = step[state]
            assert what is not None
            done[number, color] = what
        key = state // _GROUPS
    used = {(color, number): what[2] for (number, color), what in done.items() if what[2]}
    melds = _melds(done, grouped, colors, numbers, largest, anchors)
    return best, melds, used, sum(t.is_joker for _, tiles in melds for t in tiles)


def _melds(
    done: dict[tuple[int, int], _Done],
    wilds: dict[int, int],
    colors: str,
    numbers: tuple[int, int],
    largest: int,
    anchors: dict[tuple[int, int], _Anchor],
) -> list[RackMeld]:
    """The melds of what each color did at each number and the jokers each number's groups
    took (from :func:`_rebuild`); a locked run's joker in the run holding its tiles."""
    melds: list[RackMeld] = []
    runs: list[list[list[Tile]]] = [[[], []] for _ in colors]
    for number in range(numbers[0], numbers[1] + 1):
        singles: list[Tile] = []
        doubles: list[Tile] = []
        for color, letter in enumerate(colors):
            acts, grouped, _ = done[number, color]
            tile = Tile(letter, number)
            # The two runs as the pair reads them, shorter first (three or more alike), and
            # as they stood on a tie: ``sorted`` by that key, without its cost for two.
            pair = runs[color]
            if min(len(pair[0]), 3) > min(len(pair[1]), 3):
                pair = [pair[1], pair[0]]
            # A locked run's joker: the one run going on there (never its first tile).
            anchor = anchors.get((color, number))
            here = JOKER if anchor is not None and anchor[1] else tile
            for run, act in zip(pair, acts, strict=True):
                if act in "cb":
                    run.append(here)
                elif act in "CB":
                    run.append(JOKER)
                elif act == "s":
                    melds.append(("run", tuple(run)))
                    run.clear()
            runs[color] = pair
            if grouped == 1:
                singles.append(tile)
            elif grouped == 2:
                doubles.append(tile)
        split = _group_split(len(singles), len(doubles), wilds[number], largest)
        assert split is not None
        first, wild = split
        if singles or doubles:
            melds.append(("group", (*doubles, *singles[:first], *[JOKER] * wild)))
        if doubles:
            rest = wilds[number] - wild
            melds.append(("group", (*doubles, *singles[first:], *[JOKER] * rest)))
    melds.extend(("run", tuple(run)) for pair in runs for run in pair if run)
    return melds


def _taken_up(slot: _Slot) -> tuple[list[Tile], Meld] | None:
    """The tiles this move laid at the ends of a table meld now holding a joker, and that
    meld as it was (the rebuild takes them back); None if the move laid none there."""
    origin = slot.origin
    if origin is None or len(slot.tiles) == len(origin.tiles):
        return None
    tiles, kept = slot.tiles, list(origin.tiles)
    if slot.kind == "group":
        return list((Counter(tiles) - Counter(kept)).elements()), origin
    for at in range(len(tiles) - len(kept) + 1):
        if tiles[at : at + len(kept)] == kept:
            return [*tiles[:at], *tiles[at + len(kept) :]], origin
    return None


def _rebuilt(position: Position, base: _Table, wild_melds: bool = True) -> _Table | None:
    """``base`` with its joker-free melds near the rack tiles it leaves (a tile of the same
    number, or of the same color within two) rebuilt with those tiles by :func:`_rebuild`;
    None if that lays none, or the rules have more than two copies of a tile.

    The rack tiles and jokers ``base`` laid at the ends of a table meld now holding a joker
    go back to the rebuild too, and the meld is as it was (plain again, if a joker laid off
    made it hold one): a locked run's end may serve a new meld better. A table joker taken
    back must be laid again (:meth:`_Table.complete`), and what the rebuild lays is kept
    only when it lays more than ``base`` (:func:`fast_move`). So do, with ``wild_melds``,
    the new melds of rack tiles holding a joker, whole: a rack tile left may need the joker
    more. If they make the rebuild's work run out, it is made again without them.

    A locked run (a table run holding a joker, not at its start) with a tile of the rebuild
    one number past either end goes in too, kept whole in one run that may grow there
    (a run of one of its tiles' other copies may end at its first number, not inside); if
    that makes the rebuild's work run out, it is made without them."""
    rules = position.rules
    left = [t for t in base.left if not t.is_joker]
    if rules.copies > 2 or len(rules.colors) > 9 or not left:
        return None
    # A meld holding a joker is only extended, and the initial meld stays as it was laid
    # (none is rebuilt if a step after it changed one of its melds).
    opening = [sorted(tiles, key=rules.sort_key) for _, tiles in base.opening]
    # The rack's tiles ``base`` laid (tiles are alike: which copy is which is ours to say);
    # not a tile that substituted a joker, which must be played (RULES.md rule 4), nor one
    # of the initial meld, which is the rack's alone (rule 3).
    laid = Counter(position.rack) - Counter(base.left)
    for given in (base.substitutes, [t for _, tiles in base.opening for t in tiles]):
        if given:  # (a Counter's difference costs its making, with nothing to take)
            laid -= Counter(given)
    slots: list[_Slot] = []
    free = []
    up: list[Tile] = []  # the tiles taken up from melds holding a joker
    holding: list[_Slot] = []  # new melds holding a joker
    for slot in base.slots:
        if opening and sorted(slot.tiles, key=rules.sort_key) in opening:
            opening.remove(sorted(slot.tiles, key=rules.sort_key))
            slots.append(slot)
            continue
        if not slot.plain:
            taken = _taken_up(slot)
            if taken is not None:
                ends, origin = taken
                up.extend(ends)
                slot = _Slot(origin.kind, list(origin.tiles), origin)
            elif slot.origin is None:
                holding.append(slot)
        slots.append(slot)
        if slot.plain:
            free.append(slot)
    if opening:
        return None
    # A new meld of the rack's tiles holding a joker is taken up whole, where the rebuild's
    # jokers stay two: the joker may serve a rebuilt meld better (not a meld holding a lent
    # tile, the table's). If that makes the rebuild's work run out, it is made without them.
    taken_whole = False
    if holding and wild_melds:
        spare = laid - Counter(up)
        wilds = base.left.count(JOKER) + up.count(JOKER)  # the rebuild's jokers so far
        for slot in holding:
            numbered = Counter(t for t in slot.tiles if t.number)
            held = len(slot.tiles) - sum(numbered.values())
            if wilds + held <= 2 and not numbered - spare:
                wilds += held
                spare -= numbered
                up.extend(slot.tiles)
                slots.remove(slot)
                taken_whole = True
    numbers = {t.number for t in left}
    near = {(t.color, t.number + step) for t in left for step in (-2, -1, 1, 2)}
    rebuilt: list[_Slot] = []
    # Melds are told apart by identity (two melds may hold the same tiles).
    free_ids = {id(slot) for slot in free}
    for slot in slots:
        # (a tile is a named tuple: it is found among the (color, number) pairs as it is)
        if id(slot) in free_ids and any(t.number in numbers or t in near for t in slot.tiles):
            rebuilt.append(slot)
    # And the groups beside a group rebuilt (a tile of its color one number on): groups
    # side by side may become runs.
    beside = {
        (t.color, t.number + step)
        for s in rebuilt
        if s.kind == "group"
        for t in s.tiles
        for step in (-1, 1)
    }
    rebuilt_ids = {id(slot) for slot in rebuilt}
    for slot in free:
        if (
            slot.kind == "group"
            and id(slot) not in rebuilt_ids
            and any(t in beside for t in slot.tiles)
        ):
            rebuilt.append(slot)
            rebuilt_ids.add(id(slot))
    kept = [s for s in slots if id(s) not in rebuilt_ids]
    present = (
        {t.color for t in left}
        | {t.color for t in up if not t.is_joker}
        | {t.color for s in rebuilt for t in s.tiles}
    )
    colors = "".join(c for c in rules.colors if c in present)
    index = {c: i for i, c in enumerate(colors)}
    # The rack's tiles ``base`` laid in the melds rebuilt may go elsewhere, or back: the
    # rebuild counts them as rack tiles.
    if up:
        laid -= Counter(up)
    table: dict[tuple[int, int], int] = {}
    rack: dict[tuple[int, int], int] = {}
    up_jokers = [t for t in up if t.is_joker]
    taken_back = [t for t in up if not t.is_joker]  # rack tiles, as the rebuild counts them
    for tile in (t for s in rebuilt for t in s.tiles):
        cell = (index[tile.color], tile.number)
        if laid.get(tile, 0) > 0:  # (``get``: a Counter's missing key costs a call)
            laid[tile] -= 1
            taken_back.append(tile)
            rack[cell] = rack.get(cell, 0) + 1
        else:
            table[cell] = table.get(cell, 0) + 1
    for tile in (*left, *taken_back[: len(up) - len(up_jokers)]):
        cell = (index[tile.color], tile.number)
        rack[cell] = rack.get(cell, 0) + 1
        if table.get(cell, 0) + rack[cell] > 2:
            return None
    # The locked runs (table melds holding a joker) a tile of the rebuild may extend: their
    # tiles, and their jokers' numbers, go in as the table's, all kept in one run.
    anchors: dict[tuple[int, int], _Anchor] = {}
    locked = []
    grown = dict(table)  # ``table`` and the locked runs' tiles
    for slot in slots:
        if slot.plain or slot.kind != "run" or slot.old is None or slot.color not in index:
            continue
        color = index[slot.color]
        beyond = ((color, slot.start - 1), (color, slot.end + 1))
        if not any(table.get(cell) or rack.get(cell) for cell in beyond):
            continue
        run = [(color, number) for number in range(slot.start, slot.end + 1)]
        if slot.tiles[0].is_joker or any(
            cell in anchors or table.get(cell, 0) + rack.get(cell, 0) > 1 for cell in run
        ):
            continue
        for cell, tile in zip(run, slot.tiles, strict=True):
            grown[cell] = grown.get(cell, 0) + 1
            anchors[cell] = (slot.start, tile.is_joker)
        locked.append(slot)
    jokers = base.left.count(JOKER) + len(up_jokers)
    if jokers > 2:  # three would allow a run of jokers alone
        return None

    def reached(cells: list[tuple[int, int]]) -> tuple[int, int]:
        """The lowest and highest number a meld of these tiles and the jokers may reach."""
        return (
            max(1, min(n for _, n in cells) - jokers),
            min(rules.numbers, max(n for _, n in cells) + jokers),
        )

    # No more than ``base`` laid there is no use (with tiles taken up: fast_move says).
    enough = 0 if up else sum(t.number for t in taken_back) * 1000 + len(taken_back)
    cells = reached([*grown, *rack])
    found = _rebuild(grown, rack, colors, jokers, rules, cells, anchors, enough)
    if found is None and locked:  # (the locked runs' tiles make more work) without them
        anchors, locked = {}, []
        cells = reached([*table, *rack])
        found = _rebuild(table, rack, colors, jokers, rules, cells, None, enough)
    if found is None and taken_whole:
        return _rebuilt(position, base, False)
    if found is None or found[0] <= enough:
        return None
    _, melds, used, wild = found
    after = copy.copy(base)  # its rules, jokers, substitutes and initial meld
    locked_ids = {id(slot) for slot in locked}
    # Copies: ``base`` stands if what follows lays no more (fast_move).
    after.slots = [s.copy() for s in kept if id(s) not in locked_ids]
    after.left = sorted([*base.left, *taken_back, *up_jokers], key=rules.sort_key)
    olds = {s.old: s.old for s in (*rebuilt, *locked) if s.old is not None}
    for kind, tiles in melds:
        after.slots.append(_Slot(kind, list(tiles), olds.get(Meld(kind, tiles))))
    for (color, number), copies in used.items():
        for _ in range(copies):
            after.take(Tile(colors[color], number))
    for _ in range(wild - sum(joker for _, joker in anchors.values())):  # the rack's jokers
        after.take(JOKER)
    return after


# -- the move -------------------------------------------------------------------------


def fast_move(position: Position) -> Move:
    """A good legal move for ``position`` (nothing played: draw), found without a model and
    never proven best (see the module's text). The same position always gives the same move."""
    rules = position.rules
    rack = position.rack
    tables: list[_Table] = []
    if not position.opened:
        melds = rack_melds(rack, rules, opening=True)
        if not melds or sum(Meld(k, t).value for k, t in melds) < rules.initial_meld:
            return Move(position.table, ())
        table = _Table(position)
        table.lay(melds)
        table.opening = list(melds)
        if rules.open_then_play:
            table.play_on()
        tables.append(table)
    else:
        # Melds from the rack, then the table; again after freeing a table joker a rack tile
        # can substitute, kept only if the joker is laid again. (Laying off before the rack's
        # melds, a second order, found the best value on 2 more of 200 playout positions
        # once the rebuild below ran, for twice the cost of the steps before it.)
        start = _Table(position)
        for release in (None, *start.releases()):
            table = start.copy()
            if release is not None:
                table.release(release)
            search = _RackSearch(table.left, rules, False)
            melds = search.run()
            table.lay(melds)
            table.play_on()
            if table.complete():
                tables.append(table)
            # And the rack's melds without the jokers they took, where rack tiles are left:
            # a joker kept back may make a meld of one and a lent tile (borrowing).
            if any(JOKER in tiles for _, tiles in melds) and any(t.number for t in table.left):
                held = start.copy()
                if release is not None:
                    held.release(release)
                held.lay(search.run(jokers=0))
                held.play_on()
                if held.complete():
                    tables.append(held)
    best = max(tables, key=lambda table: table.score(rack))  # the first of equals
    if position.opened or rules.open_then_play:
        # The rebuild only adds rack tiles to what ``best`` lays: never worse.
        rebuilt = _rebuilt(position, best)
        if rebuilt is not None:
            rebuilt.play_on()
            # Tiles taken back from melds holding a joker may not find a better place, and
            # a table joker among them must be laid again: kept only when it lays more.
            if rebuilt.complete() and rebuilt.score(rack) > best.score(rack):
                best = rebuilt
    return best.move(position)
