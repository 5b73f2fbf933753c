"""The legality checker: RULES.md "A turn" in code, with every broken rule in player words.

The checker only sees the old table, the rack and the proposed new table, so every rule
is read on those. It never imports the solver: it is the specification the solver's
answers are tested against.

Readings chosen where RULES.md leaves room (each is tested in ``tests/test_checker.py``):

* Tiles of one kind are interchangeable, so the table is judged as multisets: the *played*
  tiles are the new table's tiles minus the old table's. A played tile that is not in the
  rack (or one copy too many) is a broken rule, not an exception.
* **Substituted** (joker lock, "released"): a tile equal to what the joker stands for (a tile
  of a missing color, for a group) is on the new table and is either played from the rack or,
  with ``joker_swap_from = "rack_or_table"``, a free table tile: one from a joker-free old
  meld, or a numbered tile of another released locked meld, with no two locked melds
  releasing each other (directly or around a cycle). Each such tile replaces one joker only.
  Where the substitute ends up afterwards is free, because the released meld is free.
* **Kept**: the old meld (with its substitutes in place when partly released) is a contiguous
  block of a new run at the same numbers and with its jokers at the same positions, or a
  sub-multiset of a new group of the same number. A valid group always leaves its jokers a
  missing color, so "the joker's color still missing" needs no further test. Different
  locked melds are kept in different new melds; this, and the sharing of replacement tiles,
  is solved by an exact search over all assignments (at most ``MAX_JOKERS`` locked melds).
* **Partly released** applies to any meld with two or more jokers: a non-empty proper subset
  of its jokers is substituted and the rest kept.
* ``group_joker_release = "both"`` applies to groups of exactly three tiles (with one or two
  jokers): releasing needs a tile of every missing color, and such a group cannot be partly
  released. Larger groups are released as under ``"either"``.
* **Initial meld, open_then_play = true** is read as a sequence: first hand-only melds are
  laid, then the player moves as an opened player. The initial melds need not survive in the
  new table (a player may lay ``K10 K11 K12`` and then add ``K9`` from the table), so they are
  searched for, not read off the new table: any joker-free melds made of played rack tiles,
  plus joker-holding initial melds, which are locked at once and so stay intact inside a new
  meld. Once laid they are table melds like any other (RULES.md), so with
  ``"rack_or_table"`` a free table tile may release (or partly release) a just-laid joker;
  such melds are searched for among the played tiles as well (a release by a rack tile is
  the same as laying that tile in the first place, so ``"rack"`` needs no such search).
  With ``joker_swap_from = "rack"``, a tile laid in an initial meld is no longer in the rack
  and cannot replace a joker; with ``"rack_or_table"`` a joker-free initial meld's tiles are
  free table tiles and can.
* **Initial meld, open_then_play = false**: every old meld must reappear unchanged (same kind;
  a run with the same tiles in the same order, a group with the same tiles in any order), and
  the remaining melds, made of rack tiles only, count toward ``initial_meld``.
* Melds of the proposed table are numbered from 1 in messages, as a player counts them.

Every broken rule is a :class:`Violation`: a stable rule code (:data:`Rule`, listed with
their meanings in the README, "Checking a move"), the meld or tile it concerns, and the
words. ``Violation.meld`` is an index from 0, as in the JSON output: into the proposed table
for ``invalid-meld``, into the old table for the rules about old melds.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, get_args

from rummikub.core.errors import MeldError
from rummikub.tiles.arguments import checkable
from rummikub.tiles.melds import Identity, Meld, RawMeld
from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import JOKER, Tile, sorted_tiles

__all__ = ["RULES", "Rule", "Verdict", "Violation", "check"]

#: The rules a proposed table can break, as stable codes for programs (README, "Checking a
#: move", has a table of them with their meanings).
Rule = Literal[
    "invalid-meld",
    "invalid-table-meld",
    "unknown-tile",
    "table-tile-missing",
    "too-many-copies",
    "not-in-rack",
    "nothing-played",
    "initial-meld",
    "table-changed-before-opening",
    "joker-not-replaced",
    "locked-melds-clash",
]
#: Every rule code, in the order above.
RULES: tuple[Rule, ...] = get_args(Rule)


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: its ``rule`` code, its ``text`` in words a player understands, and
    what it concerns: the ``meld``, as an index from 0 (into the proposed table for
    ``invalid-meld``, into the old table otherwise), or the ``tile``; None where it
    concerns no one meld or tile."""

    rule: Rule
    text: str
    meld: int | None = None
    tile: Tile | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a proposed new table is a legal move, and why not."""

    legal: bool
    #: Every rule broken, in words a player understands (empty when legal).
    errors: tuple[str, ...]
    #: The value of the played tiles (RULES.md rule 5: a joker is worth ``joker_value``).
    value: int
    #: The new table's tiles minus the old table's (a multiset), in rack order.
    played: tuple[Tile, ...]
    #: Every rule broken, with its code and what it concerns: one per error, in order.
    violations: tuple[Violation, ...] = ()


def check(position: Position, proposed: Sequence[Meld | RawMeld]) -> Verdict:
    """Judge ``proposed`` as the new table after the player's turn in ``position``.

    >>> position = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
    >>> after = [Meld.parse(m) for m in ("R1 R2 R3 R4", "K7 R7 B7 O7")]
    >>> verdict = check(position, after)
    >>> verdict.legal, verdict.value, verdict.played
    (True, 11, (Tile.parse('R4'), Tile.parse('O7')))
    >>> check(position, [RawMeld.parse("R1 R2 R3 R5"), Meld.parse("K7 R7 B7")]).errors
    ('meld 1 "R1 R2 R3 R5": not a run (no 4) and not a group', 'R5 is not in your rack')
    >>> for violation in check(position, [Meld.parse("R1 R2 R3")]).violations:
    ...     print(violation.rule, violation.meld, violation.tile)
    table-tile-missing None K7
    table-tile-missing None R7
    table-tile-missing None B7
    nothing-played None None
    """
    checkable(position, proposed)
    rules = position.rules
    melds, errors = _read_melds(proposed, rules)
    old_errors = _old_table_errors(position)
    errors += old_errors
    new_tiles = Counter(tile for meld in proposed for tile in meld.tiles)
    played = new_tiles - position.table_tiles()
    errors += _tile_errors(position, new_tiles, played)
    if not played:
        errors.append(Violation("nothing-played", "no tile was played from the rack"))
    # A broken old table (only possible when a Position is built by hand) has no meaning
    # to reason about, so the turn itself is only judged on a valid one.
    if not old_errors:
        errors += _turn_errors(_Turn.build(position, melds, played))
    return Verdict(
        legal=not errors,
        errors=tuple(error.text for error in errors),
        violations=tuple(errors),
        value=sum(rules.tile_value(tile) for tile in played.elements()),
        played=_sorted(played.elements(), rules),
    )


# -- reading the proposed table ------------------------------------------------


def _read_melds(
    proposed: Sequence[Meld | RawMeld], rules: Rules
) -> tuple[list[Meld], list[Violation]]:
    """The valid melds of ``proposed``, and a violation for each invalid one."""
    melds: list[Meld] = []
    errors: list[Violation] = []
    for index, meld in enumerate(proposed):
        try:
            # A Meld is checked again too: its constructor trusts its caller (the solver).
            melds.append(Meld.of(meld.tiles, kind=meld.kind, rules=rules))
        except MeldError as error:
            text = f'meld {index + 1} "{meld}": {error}'
            errors.append(Violation("invalid-meld", text, meld=index))
    return melds, errors


def _old_table_errors(position: Position) -> list[Violation]:
    errors: list[Violation] = []
    for index, meld in enumerate(position.table):
        try:
            Meld.of(meld.tiles, kind=meld.kind, rules=position.rules)
        except MeldError as error:
            text = f'table meld {index + 1} "{meld}" is not valid: {error}'
            errors.append(Violation("invalid-table-meld", text, meld=index))
    return errors


def _sorted(tiles: Iterable[Tile], rules: Rules) -> tuple[Tile, ...]:
    return sorted_tiles(tiles, rules.colors)


def _tile_errors(
    position: Position, new_tiles: Counter[Tile], played: Counter[Tile]
) -> list[Violation]:
    """Conservation (rule 1) and where the played tiles come from."""
    rules = position.rules
    old_tiles, rack = position.table_tiles(), position.rack_tiles()
    errors: list[Violation] = []
    missing = old_tiles - new_tiles
    for tile in _sorted(missing, rules):
        copies = f" ({missing[tile]} copies)" if missing[tile] > 1 else ""
        text = f"table tile {tile} is missing from the new table{copies}"
        errors.append(Violation("table-tile-missing", text, tile=tile))
    # Tiles not in the box: those on the new table are reported with their meld.
    for tile in _sorted(old_tiles + rack, rules):
        problem = rules.tile_problem(tile)
        if problem:
            errors.append(Violation("unknown-tile", f"tile {tile}: {problem}", tile=tile))
    from_nowhere = played - rack
    in_use = old_tiles + rack + from_nowhere
    too_many: set[Tile] = set()
    for tile in _sorted(in_use, rules):
        if rules.tile_problem(tile) is None and in_use[tile] > rules.copies_of(tile):
            too_many.add(tile)
            text = (
                f"{tile} appears {in_use[tile]} times in table, rack and new table, "
                f"but the rule set has only {rules.copies_of(tile)}"
            )
            errors.append(Violation("too-many-copies", text, tile=tile))
    for tile in _sorted(from_nowhere, rules):
        if tile in too_many or rules.tile_problem(tile) is not None:
            continue
        if rack[tile]:
            text = f"{tile} is played {played[tile]} times, but your rack holds {rack[tile]}"
        else:
            text = f"{tile} is not in your rack"
        errors.append(Violation("not-in-rack", text, tile=tile))
    return errors


# -- the turn ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Turn:
    """What the rules of a turn are decided on."""

    rules: Rules
    opened: bool
    old: tuple[Meld, ...]
    #: The valid melds of the proposed table (invalid ones are reported already).
    new: tuple[Meld, ...]
    old_tiles: Counter[Tile]
    #: Played tiles that really come from the rack (and exist in the box).
    pool: Counter[Tile]
    #: Tiles of joker-free old melds: free to move, and to replace a joker if the rules allow.
    free_table: Counter[Tile]

    @classmethod
    def build(cls, position: Position, melds: Sequence[Meld], played: Counter[Tile]) -> _Turn:
        rules = position.rules
        from_rack = played & position.rack_tiles()
        pool = Counter({t: n for t, n in from_rack.items() if rules.tile_problem(t) is None})
        free = Counter(t for meld in position.table if not meld.jokers for t in meld.tiles)
        return cls(
            rules=rules,
            opened=position.opened,
            old=position.table,
            new=tuple(melds),
            old_tiles=position.table_tiles(),
            pool=pool,
            free_table=free,
        )

    @property
    def rack_only(self) -> bool:
        return self.rules.joker_swap_from == "rack"


def _turn_errors(turn: _Turn) -> list[Violation]:
    """Rules 3 and 4: the initial meld and the joker lock."""
    rules = turn.rules
    if not turn.opened and not rules.open_then_play:
        return _untouched_initial_errors(turn)
    if rules.joker_lock == "free":
        return [] if turn.opened else _free_initial_errors(turn)
    if turn.opened:
        return _opened_errors(turn)
    return _strict_initial_errors(turn)


def _opened_errors(turn: _Turn) -> list[Violation]:
    locked = _old_locked(turn)
    if _feasible(turn, locked, turn.pool, turn.free_table):
        return []
    return _lock_errors(turn, locked)


# -- the initial meld --------------------------------------------------------------


def _target(rules: Rules) -> int:
    # Every meld is worth at least 3, so "at least one meld" is "a total of at least 1".
    return max(rules.initial_meld, 1)


def _initial_error(total: int, rules: Rules, *, counted_twice: bool = False) -> Violation:
    if rules.initial_meld == 0:
        text = "the initial move must lay at least one new meld made only of tiles from your rack"
    else:
        text = f"initial meld totals {total}, needs {rules.initial_meld}"
    if counted_twice:
        text += " (rack tiles that replace jokers cannot count toward it as well)"
    return Violation("initial-meld", text)


def _changed_old(turn: _Turn) -> list[int]:
    """The indexes of the old melds that do not reappear unchanged on the new table."""
    left = Counter(meld.identity() for meld in turn.new)
    changed: list[int] = []
    for index, meld in enumerate(turn.old):
        if left[meld.identity()]:
            left[meld.identity()] -= 1
        else:
            changed.append(index)
    return changed


def _joint_error(turn: _Turn, joint: int, alone: int) -> Violation:
    """The initial meld's shortfall where the joker lock can be kept (``joint``, the best
    total that keeps it; ``alone``, the best with the lock ignored)."""
    # The aside names the one way tiles reaching the target alone fall short jointly: some
    # went to replace a table joker. Without a released table joker the shortfall is the
    # melds' own (a joker read where it stands: "J R9 R10" is worth 27, not 30).
    twice = alone >= _target(turn.rules) and _releases_a_joker(turn)
    return _initial_error(joint, turn.rules, counted_twice=twice)


def _releases_a_joker(turn: _Turn) -> bool:
    """Whether some old meld holding a joker was changed (its jokers moved or replaced)."""
    return any(turn.old[index].jokers for index in _changed_old(turn))


def _changed_errors(turn: _Turn) -> list[Violation]:
    """One for each old meld that does not reappear unchanged on the new table."""
    changed: list[Violation] = []
    for index in _changed_old(turn):
        text = (
            f'table meld "{turn.old[index]}" was changed, but the initial meld must be laid '
            "from your rack alone"
        )
        changed.append(Violation("table-changed-before-opening", text, meld=index))
    return changed


def _untouched_initial_errors(turn: _Turn) -> list[Violation]:
    """open_then_play = false: the old table stays as it was; new melds come from the rack."""
    errors = _changed_errors(turn)
    unchanged = Counter(meld.identity() for meld in turn.old)
    available = turn.pool.copy()
    total = 0
    for meld in turn.new:
        if unchanged[meld.identity()]:
            unchanged[meld.identity()] -= 1
            continue
        tiles = Counter(meld.tiles)
        if tiles <= available:
            available -= tiles
            total += meld.value
    if total < _target(turn.rules):
        errors.append(_initial_error(total, turn.rules))
    return errors


def _free_initial_errors(turn: _Turn) -> list[Violation]:
    """joker_lock = "free": any melds of played rack tiles may be the initial ones."""
    total = _best_packing(turn.pool, turn.rules, _target(turn.rules))
    if total >= _target(turn.rules):
        return []
    return [_initial_error(total, turn.rules), *_changed_errors(turn)]


@dataclass(frozen=True, slots=True)
class _Opening:
    """Joker-holding initial melds, each kept intact inside the new meld ``targets`` names."""

    targets: frozenset[int]
    tiles: Counter[Tile]
    value: int


@dataclass(slots=True)
class _Best:
    """The best initial totals of the choices judged so far (see ``_strict_initial_errors``)."""

    #: With the joker lock satisfied; -1 while no choice satisfies it.
    joint: int = -1
    #: With the joker lock ignored.
    alone: int = 0


def _strict_initial_errors(turn: _Turn) -> list[Violation]:
    """open_then_play = true under the joker lock: search the initial melds (see docstring).

    For every choice of joker-holding initial melds, every way to satisfy the joker lock
    uses some rack tiles as replacements; the joker-free initial melds are then the best
    packing of what is left. Every opening is judged first without released initial melds
    (a legal move almost never needs one); only then are those searched (``rack_or_table``).
    The verdict does not depend on this order: the search keeps the best totals over every
    choice and skips only those that cannot change the words (``_released_search``).
    """
    rules = turn.rules
    target = _target(rules)
    locked = _old_locked(turn)
    best = _Best()
    openings = sorted(_openings(turn), key=lambda o: -o.value)
    satisfiable: list[bool | None] = []
    for opening in openings:
        satisfiable.append(_judge(turn, locked, opening, _NO_RELEASE, best))
        if best.joint >= target:
            return []
    if not turn.rack_only and _released_search(turn, locked, openings, satisfiable, best):
        return []
    errors: list[Violation] = []
    if best.joint < 0:
        errors += _lock_errors(turn, locked)
    if best.joint >= 0:
        errors.append(_joint_error(turn, best.joint, best.alone))
    elif best.alone < target:
        errors.append(_initial_error(best.alone, rules))
    if best.alone < target:
        errors += _changed_errors(turn)
    return errors


def _judge(
    turn: _Turn,
    locked: Sequence[_Locked],
    opening: _Opening,
    released: _Released,
    best: _Best,
    *,
    try_lock: bool = True,
) -> bool | None:
    """Judge one choice of joker-holding initial melds, raising ``best``: whether some way
    satisfies the joker lock, or None when the choice cannot beat ``best.joint`` (not tried;
    nor when ``try_lock`` is false: the lock is known to fail).

    Totals are exact below the initial meld's target and only known to reach it above
    (``_best_packing``'s ``enough``): that is all the words and the verdict need.
    """
    rules = turn.rules
    target = _target(rules)
    rack = turn.pool - opening.tiles - released.tiles
    rest = _numbered(rack)
    value = opening.value + released.value
    alone = value + _best_packing(rest, rules, target - value)
    best.alone = max(best.alone, alone)
    if not try_lock:
        return False
    if alone <= best.joint:
        return None  # cannot improve on what is known
    satisfied = False
    seen: set[frozenset[tuple[Tile, int]]] = set()
    every = [*locked, *released.locks]
    for used in _assignments(turn, every, opening.targets, rack, turn.free_table):
        satisfied = True
        if frozenset(used.items()) in seen:
            continue
        seen.add(frozenset(used.items()))
        left = rest - used if turn.rack_only else rest
        total = value + _best_packing(left, rules, target - value)
        best.joint = max(best.joint, total)
        if total >= target or total == alone:
            break  # legal, or no other assignment can do better for this choice
    return satisfied


def _numbered(tiles: Counter[Tile]) -> Counter[Tile]:
    return Counter({t: n for t, n in tiles.items() if not t.is_joker and n > 0})


def _openings(turn: _Turn) -> list[_Opening]:
    """Every choice of joker-holding initial melds: blocks of new melds made of rack tiles."""
    choices: list[list[tuple[int, Meld]]] = []
    if turn.pool[JOKER]:
        for index, meld in enumerate(turn.new):
            if meld.jokers:
                blocks = [b for b in _blocks(meld) if Counter(b.tiles) <= turn.pool]
                if blocks:
                    choices.append([(index, block) for block in blocks])
    openings: list[_Opening] = []

    # Each block needs a rack joker, so pruning on the rack keeps this to a few choices.
    def pick(depth: int, targets: frozenset[int], tiles: Counter[Tile], value: int) -> None:
        if depth == len(choices):
            openings.append(_Opening(targets, tiles, value))
            return
        pick(depth + 1, targets, tiles, value)
        for index, block in choices[depth]:
            more = tiles + Counter(block.tiles)
            if more <= turn.pool:
                pick(depth + 1, targets | {index}, more, value + block.value)

    pick(0, frozenset(), Counter(), 0)
    return openings


@dataclass(frozen=True, slots=True)
class _Released:
    """Joker-holding initial melds released again in the same turn (``rack_or_table``)."""

    #: Each as a locked meld whose options all substitute a joker.
    locks: tuple[_Locked, ...]
    tiles: Counter[Tile]
    value: int


_NO_RELEASE = _Released((), Counter(), 0)


@dataclass(frozen=True, slots=True)
class _Core:
    """A meld of played rack tiles holding a joker, as an initial meld to release."""

    meld: Meld
    tiles: Counter[Tile]


def _release_cores(turn: _Turn) -> list[_Core]:
    """Every initial meld with a joker that the played rack tiles could lay, each once, the
    most valuable first (whether free table tiles can release it is ``_release_options``).

    RULES.md makes initial melds table melds like any other once laid, locked by rule 4.
    With ``joker_swap_from = "rack"`` a release by a rack tile is the same as laying that
    tile in the first place, so only ``rack_or_table`` needs these; a table tile that is
    free may substitute a just-laid joker, which no other reading of the move covers.
    """
    cores: list[_Core] = []
    seen: set[Identity] = set()
    for core in _hand_melds_with_jokers(turn.pool, turn.rules):
        if core.identity() not in seen:  # a group's joker reads as any missing color
            seen.add(core.identity())
            cores.append(_Core(core, Counter(core.tiles)))
    return sorted(cores, key=lambda c: -c.meld.value)


def _release_options(turn: _Turn, core: Meld, present: Counter[Tile]) -> tuple[_Option, ...]:
    """Each way to release (or partly release) a just-laid ``core`` whose substitutes are
    among the ``present`` tiles (old table and played tiles); none: it cannot be released."""
    options = [
        _Option(None, demands, released=True)
        for demands in _full_releases(core, turn.rules)
        if _within(demands, present)
    ]
    for demands, kept in _partial_releases(core, turn.rules):
        if _within(demands, present):
            options += [_Option(i, demands, released=False) for i in _targets(turn, kept)]
    return tuple(options)


def _within(tiles: Iterable[Tile], stock: Counter[Tile]) -> bool:
    """Whether ``stock`` holds ``tiles`` (``Counter <=`` would walk the whole stock too,
    for a few tiles)."""
    need = tiles if isinstance(tiles, Counter) else Counter(tiles)
    return all(stock[tile] >= count for tile, count in need.items())


def _released_search(
    turn: _Turn,
    locked: Sequence[_Locked],
    openings: Sequence[_Opening],
    satisfiable: list[bool | None],
    best: _Best,
) -> bool:
    """Judge the choices with released initial melds (``rack_or_table``) that can change the
    verdict or its words, raising ``best``; whether one of them makes the move legal.

    The released melds of a choice are a multiset of cores (one joker each at least), so
    listing every choice is exponential in the rack's jokers: hundreds of thousands with four
    jokers in a big rack. The search is a depth-first walk over cores, the most valuable
    first, that leaves out every branch that cannot matter:

    * by value: a choice's total is at most its released melds' value plus the best packing
      of what is left *with* its jokers, an upper bound for every choice that adds more
      released melds; a branch whose bound beats neither best total is left out;
    * by the joker lock: releasing more melds takes tiles from the rack and adds jokers to
      substitute, never helps, so a choice that cannot satisfy the lock (and an opening that
      cannot without released melds) rules out every choice that releases more; its
      branch is then only walked for the total with the joker lock ignored, which is needed
      only below the target.

    It stops at the first choice that makes the move legal.
    """
    target = _target(turn.rules)
    cores = _release_cores(turn)
    # Whether a core can be released is asked only of the cores the walk reaches.
    present = turn.old_tiles + turn.pool
    options: dict[int, tuple[_Option, ...]] = {}

    def options_of(core: _Core) -> tuple[_Option, ...]:
        if id(core) not in options:
            options[id(core)] = _release_options(turn, core.meld, present)
        return options[id(core)]

    for number, opening in enumerate(openings):
        rack = turn.pool - opening.tiles
        if not rack[JOKER]:
            continue
        fitting = [core for core in cores if _within(core.tiles, rack)]
        if not fitting or not _matters(turn, rack, opening.value, best, alive=True):
            continue
        alive = satisfiable[number]
        if alive is None:
            # Skipped before (it could not beat the best total): is the lock satisfiable?
            found = _assignments(turn, locked, opening.targets, rack, turn.free_table)
            alive = next(found, None) is not None
        if _walk(turn, locked, opening, rack, fitting, options_of, best, alive=alive):
            return True
    return best.joint >= target


def _matters(turn: _Turn, left: Counter[Tile], value: int, best: _Best, *, alive: bool) -> bool:
    """Whether a choice worth ``value`` so far, releasing more melds only from ``left``,
    could raise a best total that the words depend on (``alive``: the lock may still be
    satisfied)."""
    target = _target(turn.rules)
    needs = []
    if alive:
        needs.append(best.joint + 1)
    if best.alone < target:
        needs.append(best.alone + 1)
    if not needs:
        return False
    need = min(needs) - value
    # Every tile in a meld, each joker the highest number: a bound that spares the packing.
    most = sum(t.number for t in left.elements() if not t.is_joker)
    if most + left[JOKER] * turn.rules.numbers < need:
        return False
    return _best_packing(left, turn.rules, need) >= need


def _walk(
    turn: _Turn,
    locked: Sequence[_Locked],
    opening: _Opening,
    rack: Counter[Tile],
    fitting: Sequence[_Core],
    options_of: Callable[[_Core], tuple[_Option, ...]],
    best: _Best,
    *,
    alive: bool,
) -> bool:
    """The depth-first walk of ``_released_search`` for one opening; True when legal."""
    target = _target(turn.rules)

    def walk(
        chosen: tuple[_Locked, ...], tiles: Counter[Tile], value: int, start: int, alive: bool
    ) -> bool:
        for k in range(start, len(fitting)):
            core = fitting[k]
            more = tiles + core.tiles
            if not _within(more, rack):
                continue
            worth = value + core.meld.value
            if not _matters(turn, rack - more, opening.value + worth, best, alive=alive):
                continue
            options = options_of(core)
            if not options:
                continue  # it cannot be released: not a choice
            lock = _Locked(-1 - len(chosen), core.meld, options)
            released = _Released((*chosen, lock), more, worth)
            satisfied = _judge(turn, locked, opening, released, best, try_lock=alive)
            if best.joint >= target:
                return True
            if walk(released.locks, more, worth, k, alive and satisfied is not False):
                return True
        return False

    return walk((), Counter(), 0, 0, alive)


def _hand_melds_with_jokers(rack: Counter[Tile], rules: Rules) -> Iterator[Meld]:
    """Every run and group of tiles in ``rack`` that holds a joker and a numbered tile."""
    jokers = rack[JOKER]
    for color in rules.colors:
        for start in range(1, rules.numbers - 1):
            for end in range(start + 2, rules.numbers + 1):
                tiles = [Tile(color, n) for n in range(start, end + 1)]
                if sum(1 for t in tiles if not rack[t]) > jokers:
                    break  # longer runs lack even more
                for laid in _joker_fillings(tiles, rack, jokers):
                    yield Meld("run", laid)
    for number in range(1, rules.numbers + 1):
        for size in range(3, rules.max_group + 1):
            for colors in itertools.combinations(rules.colors, size):
                tiles = [Tile(color, number) for color in colors]
                for laid in _joker_fillings(tiles, rack, jokers):
                    numbered = [t for t in laid if not t.is_joker]
                    yield Meld("group", (*numbered, *(JOKER,) * (len(laid) - len(numbered))))


def _joker_fillings(
    tiles: list[Tile], rack: Counter[Tile], jokers: int
) -> Iterator[tuple[Tile, ...]]:
    """``tiles`` with some (at least one, at most ``jokers``, not all) replaced by jokers,
    every tile not in ``rack`` among them."""
    for laid in itertools.product(*[(t, JOKER) if rack[t] else (JOKER,) for t in tiles]):
        count = laid.count(JOKER)
        if 1 <= count <= jokers and count < len(laid):
            yield laid


def _blocks(meld: Meld) -> Iterator[Meld]:
    """Melds holding a joker that ``meld`` keeps intact: runs' blocks, groups' subsets."""
    size = len(meld.tiles)
    if meld.kind == "run":
        for low in range(size):
            for high in range(low + 3, size + 1):
                part = meld.tiles[low:high]
                if JOKER in part and any(not t.is_joker for t in part):
                    yield Meld("run", part)
        return
    seen: set[Identity] = set()
    for length in range(3, size + 1):
        for picked in itertools.combinations(meld.tiles, length):
            block = Meld("group", picked)
            holds_both = JOKER in picked and any(not t.is_joker for t in picked)
            if holds_both and block.identity() not in seen:
                seen.add(block.identity())
                yield block


# -- best packing of initial melds ------------------------------------------------

_State = tuple[tuple[str, int, int], ...]


def _best_packing(tiles: Counter[Tile], rules: Rules, enough: int | None = None) -> int:
    """The greatest total value of melds laid from ``tiles`` alone (jokers count as they stand).

    With ``enough``, a total of at least ``enough`` may stand for the greatest one: a quick
    packing that reaches it spares the exact search, which grows fast with the tiles
    (benchmarks/RESULTS.md, "Speed choices", *The checker's packing*).
    """
    if enough is not None:
        quick = _greedy_packing(tiles, rules)
        if quick >= enough:
            return quick
    state = tuple(sorted((t.color, t.number, n) for t, n in tiles.items() if not t.is_joker and n))
    return _pack(state, tiles[JOKER], rules.numbers, rules.max_group)


def _greedy_packing(tiles: Counter[Tile], rules: Rules) -> int:
    """The value of a quick packing of ``tiles`` (a lower bound on the best): runs as long
    as they go, then groups as large as they go, or groups first; then the jokers in groups
    with the highest tiles left."""
    best = 0
    for runs_first in (True, False):
        counts = Counter({(t.color, t.number): n for t, n in tiles.items() if not t.is_joker})
        if runs_first:
            value = _greedy_runs(counts, rules) + _greedy_groups(counts, rules)
        else:
            value = _greedy_groups(counts, rules) + _greedy_runs(counts, rules)
        best = max(best, value + _greedy_jokers(counts, tiles[JOKER], rules))
    return best


def _greedy_jokers(counts: Counter[tuple[str, int]], jokers: int, rules: Rules) -> int:
    """Groups of the highest tiles left: two colors and a joker, or one tile and two."""
    if rules.max_group < 3:
        return 0  # one or two colors: no groups at all
    value = 0
    left = sorted(((n, c) for (c, n), k in counts.items() for _ in range(k)), reverse=True)
    while jokers and left:
        number, color = left.pop(0)
        partner = next((i for i, (n, c) in enumerate(left) if n == number and c != color), None)
        if partner is not None:
            del left[partner]
            jokers -= 1
        elif jokers >= 2:
            jokers -= 2
        else:
            continue
        value += 3 * number
    return value


def _greedy_runs(counts: Counter[tuple[str, int]], rules: Rules) -> int:
    """Lay every stretch of three or more consecutive numbers of a color, one copy at a time."""
    value = 0
    for color in rules.colors:
        laid = True
        while laid:
            laid = False
            low = 1
            while low <= rules.numbers:
                high = low
                while high <= rules.numbers and counts[(color, high)] > 0:
                    high += 1
                if high - low >= 3:
                    for number in range(low, high):
                        counts[(color, number)] -= 1
                    value += sum(range(low, high))
                    laid = True
                low = high + 1
    return value


def _greedy_groups(counts: Counter[tuple[str, int]], rules: Rules) -> int:
    """Lay groups of every color present (up to the largest group), while three are."""
    value = 0
    for number in range(1, rules.numbers + 1):
        while True:
            colors = [c for c in rules.colors if counts[(c, number)] > 0][: rules.max_group]
            if len(colors) < 3:
                break
            for color in colors:
                counts[(color, number)] -= 1
            value += number * len(colors)
    return value


def _take(state: _State, tiles: Iterable[tuple[str, int]]) -> _State:
    counts = {(color, number): n for color, number, n in state}
    for key in tiles:
        counts[key] -= 1
    return tuple((color, number, n) for (color, number), n in counts.items() if n)


@lru_cache(maxsize=1 << 16)
def _pack(state: _State, jokers: int, numbers: int, max_group: int) -> int:
    """Exact search on the lowest tile: left out, in a group, or lowest numbered tile of a run.

    ``state`` is sorted by color then number, so no lower tile of that color is left and any
    run holding the first tile has it as its lowest numbered tile.
    """
    if not state:
        return 0
    color, number, _ = state[0]
    best = _pack(_take(state, [(color, number)]), jokers, numbers, max_group)
    partners = [(c, n) for c, n, _ in state[1:] if n == number]
    for count in range(len(partners) + 1):
        for chosen in itertools.combinations(partners, count):
            rest = _take(state, [(color, number), *chosen])
            for used in range(jokers + 1):
                size = 1 + count + used
                if 3 <= size <= max_group:
                    value = number * size + _pack(rest, jokers - used, numbers, max_group)
                    best = max(best, value)
    for prefix in range(min(jokers, number - 1) + 1):
        best = max(best, _best_run(state, jokers, numbers, max_group, prefix))
    return best


def _best_run(state: _State, jokers: int, numbers: int, max_group: int, prefix: int) -> int:
    """The best packing using a run of the first tile, after ``prefix`` jokers below it."""
    color, number, _ = state[0]
    present = {n for c, n, _ in state if c == color}
    best = 0
    # (last number, tiles taken, jokers used, length, value) of runs still growing
    frontier: list[tuple[int, tuple[tuple[str, int], ...], int, int, int]] = [
        (number, ((color, number),), prefix, prefix + 1, sum(range(number - prefix, number + 1)))
    ]
    while frontier:
        last, taken, used, length, value = frontier.pop()
        if length >= 3:
            rest = _take(state, taken)
            best = max(best, value + _pack(rest, jokers - used, numbers, max_group))
        following = last + 1
        if following > numbers:
            continue
        if following in present:
            frontier.append(
                (following, (*taken, (color, following)), used, length + 1, value + following)
            )
        if used < jokers:
            frontier.append((following, taken, used + 1, length + 1, value + following))
    return best


# -- the joker lock ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Option:
    """One way to honour a locked meld."""

    #: The new meld that keeps it intact (kept, partly released), or None (released).
    target: int | None
    #: The tiles that replace its jokers.
    demands: tuple[Tile, ...]
    #: Fully released: its numbered tiles are free (and may replace other jokers).
    released: bool


@dataclass(frozen=True, slots=True)
class _Locked:
    """A meld holding a joker, and every way to honour its lock on this new table."""

    #: Its index in the old table.
    index: int
    meld: Meld
    options: tuple[_Option, ...]


def _old_locked(turn: _Turn) -> list[_Locked]:
    return [
        _Locked(index, meld, tuple(_options(turn, meld)))
        for index, meld in enumerate(turn.old)
        if meld.jokers
    ]


def _contains(big: Meld, small: Meld) -> bool:
    """Whether ``big`` holds ``small`` intact, its jokers standing for the same tiles."""
    if big.kind != small.kind:
        return False
    if big.kind == "group":
        return big.number == small.number and Counter(small.tiles) <= Counter(big.tiles)
    if big.color != small.color or big.start > small.start or big.end < small.end:
        return False
    offset = small.start - big.start
    return big.tiles[offset : offset + len(small.tiles)] == small.tiles


def _both_rule(meld: Meld, rules: Rules) -> bool:
    """Whether releasing needs every missing color (book-1978) and no partial release."""
    return meld.kind == "group" and rules.group_joker_release == "both" and len(meld.tiles) == 3


def _missing_tiles(meld: Meld, rules: Rules) -> tuple[Tile, ...]:
    return tuple(Tile(color, meld.number) for color in meld.missing_colors(rules))


# The ways to release a joker are enumerated here again, apart from ``solver/locks.py`` on
# purpose: the checker is the specification the solver's answers are tested against, so the
# two must not share a mistake. Keep them independent even where they agree.


def _full_releases(meld: Meld, rules: Rules) -> Iterator[tuple[Tile, ...]]:
    """The sets of tiles that can replace every joker of ``meld``."""
    if meld.kind == "run":
        yield meld.joker_tiles()
    elif _both_rule(meld, rules):
        yield _missing_tiles(meld, rules)
    else:
        # Jokers of one group stand for different colors, so their replacements differ too.
        yield from itertools.combinations(_missing_tiles(meld, rules), meld.jokers)


def _partial_releases(meld: Meld, rules: Rules) -> Iterator[tuple[tuple[Tile, ...], Meld]]:
    """(replacements, what must then stay intact) for each partial release of ``meld``."""
    if meld.jokers < 2 or _both_rule(meld, rules):
        return
    if meld.kind == "run":
        stands_for = meld.represents()
        places = [i for i, tile in enumerate(meld.tiles) if tile.is_joker]
        for count in range(1, len(places)):
            for spots in itertools.combinations(places, count):
                tiles = list(meld.tiles)
                for spot in spots:
                    tiles[spot] = stands_for[spot] or JOKER
                yield tuple(tiles[spot] for spot in spots), Meld("run", tuple(tiles))
        return
    for count in range(1, meld.jokers):
        for chosen in itertools.combinations(_missing_tiles(meld, rules), count):
            rest = (JOKER,) * (meld.jokers - count)
            yield chosen, Meld("group", (*meld.numbered, *chosen, *rest))


def _targets(turn: _Turn, meld: Meld) -> list[int]:
    return [index for index, new in enumerate(turn.new) if _contains(new, meld)]


def _options(turn: _Turn, meld: Meld) -> Iterator[_Option]:
    for index in _targets(turn, meld):
        yield _Option(index, (), released=False)
    for demands, kept in _partial_releases(meld, turn.rules):
        for index in _targets(turn, kept):
            yield _Option(index, demands, released=False)
    for demands in _full_releases(meld, turn.rules):
        yield _Option(None, demands, released=True)


def _feasible(
    turn: _Turn, locked: Sequence[_Locked], rack: Counter[Tile], free: Counter[Tile]
) -> bool:
    return next(_assignments(turn, locked, frozenset(), rack, free), None) is not None


def _assignments(
    turn: _Turn,
    locked: Sequence[_Locked],
    reserved: frozenset[int],
    rack: Counter[Tile],
    free: Counter[Tile],
) -> Iterator[Counter[Tile]]:
    """Every way to honour all locked melds at once, as the rack tiles it uses as replacements.

    An exact backtracking search over the options of each locked meld (most constrained
    first): kept melds need distinct new melds (none of ``reserved``), replacements come from
    ``rack`` and, if the rules allow, from ``free`` and released melds. Under
    ``joker_swap_from = "rack_or_table"`` only feasibility matters, so an empty multiset is
    yielded for each success.
    """
    order = sorted(locked, key=lambda lock: len(lock.options))
    chosen: list[tuple[int, _Option]] = []

    def search(
        depth: int, used: frozenset[int], demanded: Counter[Tile]
    ) -> Iterator[Counter[Tile]]:
        if depth == len(order):
            if turn.rack_only:
                yield demanded
            elif _sources_feasible(order, chosen, rack, free):
                yield Counter()
            return
        for option in order[depth].options:
            if option.target is not None and (option.target in used or option.target in reserved):
                continue
            more = demanded + Counter(option.demands)
            if turn.rack_only and not more <= rack:
                continue  # rack-only replacements: prune as soon as the rack runs short
            taken = used if option.target is None else used | {option.target}
            chosen.append((depth, option))
            yield from search(depth + 1, taken, more)
            chosen.pop()

    yield from search(0, frozenset(), Counter())


def _sources_feasible(
    order: Sequence[_Locked],
    chosen: Sequence[tuple[int, _Option]],
    rack: Counter[Tile],
    free: Counter[Tile],
) -> bool:
    """Can every replacement come from the rack, a free table tile or a released meld?

    A released meld's tiles may replace another meld's joker only if that does not close a
    cycle: two locked melds never release each other.
    """
    demands = [(owner, tile) for owner, option in chosen for tile in option.demands]
    released = {
        owner: Counter(order[owner].meld.numbered) for owner, option in chosen if option.released
    }
    rack_left, free_left = rack.copy(), free.copy()
    edges: Counter[tuple[int, int]] = Counter()

    def reaches(start: int, goal: int) -> bool:
        stack, seen = [start], {start}
        while stack:
            node = stack.pop()
            if node == goal:
                return True
            for (tail, head), count in edges.items():
                if tail == node and count and head not in seen:
                    seen.add(head)
                    stack.append(head)
        return False

    def place(index: int) -> bool:
        if index == len(demands):
            return True
        owner, tile = demands[index]
        for stock in (rack_left, free_left):
            if stock[tile] > 0:
                stock[tile] -= 1
                found = place(index + 1)
                stock[tile] += 1
                if found:
                    return True
        for source, stock in released.items():
            if source != owner and stock[tile] > 0 and not reaches(source, owner):
                stock[tile] -= 1
                edges[(owner, source)] += 1
                found = place(index + 1)
                edges[(owner, source)] -= 1
                stock[tile] += 1
                if found:
                    return True
        return False

    return place(0)


# -- explaining a broken joker lock ----------------------------------------------------


def _lock_errors(turn: _Turn, locked: Sequence[_Locked]) -> list[Violation]:
    """Why no assignment honours every locked meld: melds that cannot be honoured even
    alone, then the smallest set of the others that cannot be honoured together."""
    errors: list[Violation] = []
    workable: list[_Locked] = []
    for lock in locked:
        # Generous: every other locked meld's tiles count as free, so a failure is certain.
        others = turn.free_table.copy()
        for other in locked:
            if other is not lock:
                others.update(other.meld.numbered)
        if _feasible(turn, [lock], turn.pool, others):
            workable.append(lock)
        else:
            errors.append(_lost_joker_error(turn, lock))
    if _feasible(turn, workable, turn.pool, turn.free_table):
        return errors
    if len(workable) == 1:
        # It needed a tile of a meld that is broken anyway.
        return [*errors, _lost_joker_error(turn, workable[0])]
    # Each one alone can be honoured, so the clash is between two or more of them.
    for size in range(2, len(workable) + 1):
        for subset in itertools.combinations(workable, size):
            if not _feasible(turn, subset, turn.pool, turn.free_table):
                return [*errors, _clash_error(subset)]
    return errors


def _lost_joker_error(turn: _Turn, lock: _Locked) -> Violation:
    meld = lock.meld
    needs = _replacement_text(meld, turn.rules)
    plural = meld.jokers > 1
    if _jokers_in_place(turn, meld):
        text = (
            f'"{meld}" was broken up without replacing its joker{"s" if plural else ""} by {needs}'
        )
    elif plural:
        text = f'the jokers in "{meld}" were moved without being replaced by {needs}'
    else:
        text = f'the joker in "{meld}" was moved without being replaced by {needs}'
    if turn.rack_only and any(
        turn.old_tiles[tile] and not turn.pool[tile] for tile in _replacements(meld, turn.rules)
    ):
        text += " (only a tile from your rack may replace a joker under these rules)"
    return Violation("joker-not-replaced", text, meld=lock.index)


def _replacements(meld: Meld, rules: Rules) -> tuple[Tile, ...]:
    return meld.joker_tiles() if meld.kind == "run" else _missing_tiles(meld, rules)


def _replacement_text(meld: Meld, rules: Rules) -> str:
    tiles = [str(tile) for tile in _replacements(meld, rules)]
    if meld.kind == "run" or (meld.jokers == len(tiles) and not _both_rule(meld, rules)):
        return _join(tiles, "and")
    if _both_rule(meld, rules):
        return f"both {_join(tiles, 'and')}" if len(tiles) == 2 else f"all of {', '.join(tiles)}"
    if meld.jokers == 1:
        return _join(tiles, "or")
    return f"{_WORDS.get(meld.jokers, str(meld.jokers))} of {', '.join(tiles)}"


_WORDS = {2: "two", 3: "three"}


def _join(words: Sequence[str], conjunction: str) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def _jokers_in_place(turn: _Turn, meld: Meld) -> bool:
    """Whether some new meld still has jokers where ``meld`` had them (so it was split)."""
    for new in turn.new:
        if new.kind != meld.kind or new.jokers < meld.jokers:
            continue
        if meld.kind == "group" and new.number == meld.number:
            return True
        if meld.kind == "run" and new.color == meld.color:
            places = [meld.start + i for i, tile in enumerate(meld.tiles) if tile.is_joker]
            if all(new.start <= p <= new.end and new.tiles[p - new.start].is_joker for p in places):
                return True
    return False


def _clash_error(locks: Sequence[_Locked]) -> Violation:
    """Locked melds that cannot all be honoured together: the words name them (a violation
    concerns one meld at most, so ``meld`` is None)."""
    names = _join([f'"{lock.meld}"' for lock in locks], "and")
    text = (
        f"the jokers in {names} are locked, but these melds cannot each stay intact "
        "in a meld of their own or have their jokers replaced by tiles of their own"
    )
    return Violation("locked-melds-clash", text)
