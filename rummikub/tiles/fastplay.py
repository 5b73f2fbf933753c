"""A fast move for playouts: a good legal move in well under a millisecond, never proven best.

A playout plays whole hands to their end, and an exact solve a turn (about 5 ms) is most of
its cost. :func:`fast_move` finds a move the way a quick human player does, without a model:

1. **Melds from the rack**: the set of runs and groups of rack tiles worth the most
   (:func:`rack_melds`, a depth-first search over the rack, memoized on what is left, its
   work bounded by :data:`RACK_NODES`: the best set found within it, so the same rack gives
   the same melds whatever else runs).
2. **Laying off**: every rack tile left that extends a meld (a run at either end, a group by
   a missing color), new melds and old, until none fits; a joker and a tile two past a
   run's end (the joker between); then the jokers left anywhere they fit.
3. **Splitting a run**: a tile equal to one inside a joker-free run of five or more cuts it in
   two runs of three or more.
4. **Borrowing**: a rack tile and two more, each from the rack or lent by a joker-free table
   meld that can spare it (the end of a run of four or more, a tile of a run of seven or
   more leaving three each side, any tile of a group of four), make a new meld of three.

Steps 2-4 repeat while they lay a tile; two orders run (step 1 before step 2, or after),
and the move laying the most value (then tiles) is kept. A player who
has not opened lays step 1's melds when their value, each joker counting the number it
stands for, reaches the initial meld, then (``open_then_play``) goes on as an opened player.

5. **Freeing a joker**: a rack tile that substitutes a table meld's one joker (the tile a
   run's joker stands for; a missing color of a group, under ``group_joker_release =
   "either"``) frees it to be laid again, in a rack meld or on any meld it fits; each such
   release is tried before steps 1-4, kept only when the joker is laid again.

What it never does: move tiles between old melds beyond the splits and borrows above, or
use a meld holding a joker other than by extending it or freeing its one joker (so every
move keeps the joker lock's *kept* or *released* fate). Every move it returns passes the checker
(``tests/test_fastplay.py``); how often it reaches the solver's value is measured in
``benchmarks/RESULTS.md`` ("The fast playout move"). The exact solver stays the answer of
``solve``, ``analyse`` and every move a strategy finally plays.
"""

from __future__ import annotations

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

    def run(self) -> tuple[RackMeld, ...]:
        return self._best(0, self.jokers)[1]

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
    joker lock's *kept*); a plain one may be split or lend a tile."""

    __slots__ = ("color", "end", "kind", "number", "old", "plain", "present", "start", "tiles")

    def __init__(self, kind: Kind, tiles: list[Tile], old: Meld | None) -> None:
        self.kind = kind
        self.tiles = tiles
        self.old = old
        self.plain = True
        self.color = ""
        self.number = self.start = self.end = 0
        self.present: set[str] = set()
        self.read()

    def read(self) -> None:
        """What :meth:`fits` asks, read again after a change."""
        tiles = self.tiles
        first = next(i for i, t in enumerate(tiles) if not t.is_joker)
        self.plain = all(not t.is_joker for t in tiles)
        self.color, self.number = tiles[first].color, tiles[first].number
        if self.kind == "run":
            self.start = self.number - first
            self.end = self.start + len(tiles) - 1
        else:
            self.present = {t.color for t in tiles if not t.is_joker}

    def fits(self, tile: Tile, rules: Rules) -> int:
        """Where ``tile`` extends this meld: -1 in front, 1 at the end (a group: 1), 0 not."""
        if self.kind == "run":
            if tile.is_joker:
                return 1 if self.end < rules.numbers else (-1 if self.start > 1 else 0)
            if tile.color != self.color:
                return 0
            number = tile.number
            return 1 if number == self.end + 1 else (-1 if number == self.start - 1 else 0)
        if len(self.tiles) >= rules.max_group:
            return 0
        if tile.is_joker:
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
            if not tile.is_joker and tile.number == slot.number and tile.color not in slot.present:
                return tile
        return None

    def release(self, index: int) -> None:
        """Substitute the joker of the meld at ``index`` and take it up to lay again."""
        slot = self.slots[index]
        tile = self.substitute(slot)
        assert tile is not None
        self.take(tile)
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
        """Every rack tile left that extends a meld, numbered tiles first, then a joker and
        a tile beyond it (a run's end and the number after next), then the jokers left
        wherever they fit; whether any was laid."""
        laid = False
        again = True
        while again:
            again = False
            for tile in list(self.left):
                if tile.is_joker:
                    continue
                for slot in self.slots:
                    where = slot.fits(tile, self.rules)
                    if where:
                        slot.add(tile, where)
                        self.take(tile)
                        laid = again = True
                        break
            again = again or self.bridge()
        for tile in [t for t in self.left if t.is_joker]:
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
            if tile.is_joker:
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
            if tile.is_joker:
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
        left = Counter(t for t in self.left if not t.is_joker)
        box = _box(rules)
        # Only tiles a plain meld holds can be lent: shapes needing others are not tried.
        spare = {t for slot in self.slots if slot.plain for t in slot.tiles}
        shapes: list[tuple[int, tuple[Tile, ...], Kind, list[Tile]]] = []
        seen: set[tuple[Tile, ...]] = set()

        def consider(tiles: tuple[Tile, ...], kind: Kind) -> None:
            if tiles in seen:
                return
            seen.add(tiles)
            need = _lent(tiles, left)
            if all(t in spare for t in need):
                shapes.append((len(need), tiles, kind, need))

        for tile in sorted(left, key=rules.sort_key):
            number, color = tile.number, tile.color
            for low in (number - 2, number - 1, number):
                if low >= 1 and low + 2 <= rules.numbers:
                    consider((box[color, low], box[color, low + 1], box[color, low + 2]), "run")
            others = [box[c, number] for c in rules.colors if c != color]
            for i, first in enumerate(others):
                for second in others[i + 1 :]:
                    consider((tile, first, second), "group")
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
        """Lay off, split and borrow while any lays a tile."""
        while self.left and (self.lay_off() or self.split() or self.borrow()):
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


def _lent(tiles: tuple[Tile, ...], left: Counter[Tile]) -> list[Tile]:
    """The tiles of a shape the rack (``left``) does not hold: they must be lent."""
    used: dict[Tile, int] = {}
    need: list[Tile] = []
    for tile in tiles:
        count = used.get(tile, 0)
        if left[tile] > count:
            used[tile] = count + 1
        else:
            need.append(tile)
    return need


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
        if rules.open_then_play:
            table.play_on()
        tables.append(table)
    else:
        # Two orders, the better kept: melds from the rack before laying off or after (each
        # wins where the other blocks it; borrowing first as well doubled the cost and found
        # the best value on 3 more of 100 playout positions). Each again after freeing a
        # table joker a rack tile can substitute, kept only if the joker is laid again.
        for release in (None, *_Table(position).releases()):
            for melds_first in (True, False):
                table = _Table(position)
                if release is not None:
                    table.release(release)
                if not melds_first:
                    table.lay_off()
                table.lay(rack_melds(table.left, rules))
                table.play_on()
                if table.complete():
                    tables.append(table)
    best = max(tables, key=lambda table: table.score(rack))  # the first of equals
    return best.move(position)
