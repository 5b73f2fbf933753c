"""The checker's initial-meld search as it was before it was made lazy: every choice of
released initial melds listed, then judged in order of value, with exact packings. The
tests compare the checker's verdicts with this reference (``tests/test_checker_search.py``).

It reuses the checker's parts that the lazy search left as they were (the openings, the
joker-lock assignments, the packing, the words); only the enumeration is the old one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from unittest import mock

import rummikub.tiles.checker as checker
from rummikub.tiles.checker import (
    Verdict,
    Violation,
    _assignments,
    _best_packing,
    _changed_errors,
    _full_releases,
    _hand_melds_with_jokers,
    _initial_error,
    _joint_error,
    _lock_errors,
    _Locked,
    _numbered,
    _old_locked,
    _Opening,
    _openings,
    _Option,
    _partial_releases,
    _Released,
    _target,
    _targets,
    _Turn,
    check,
)
from rummikub.tiles.melds import Identity, Meld, RawMeld
from rummikub.tiles.position import Position
from rummikub.tiles.tiles import JOKER, Tile


def reference_check(position: Position, proposed: Sequence[Meld | RawMeld]) -> Verdict:
    """:func:`rummikub.tiles.checker.check` with the old initial-meld search."""
    with mock.patch.object(checker, "_strict_initial_errors", _strict_initial_errors):
        return check(position, proposed)


def _strict_initial_errors(turn: _Turn) -> list[Violation]:
    rules = turn.rules
    target = _target(rules)
    locked = _old_locked(turn)
    best_joint = -1
    best_alone = 0
    for opening, released in _choices(turn, _openings(turn)):
        rack = turn.pool - opening.tiles - released.tiles
        rest = _numbered(rack)
        value = opening.value + released.value
        alone = value + _best_packing(rest, rules)
        best_alone = max(best_alone, alone)
        if alone <= best_joint:
            continue
        seen: set[frozenset[tuple[Tile, int]]] = set()
        every = [*locked, *released.locks]
        for used in _assignments(turn, every, opening.targets, rack, turn.free_table):
            if frozenset(used.items()) in seen:
                continue
            seen.add(frozenset(used.items()))
            left = rest - used if turn.rack_only else rest
            total = value + _best_packing(left, rules)
            best_joint = max(best_joint, total)
            if total >= target:
                return []
            if total == alone:
                break
    errors: list[Violation] = []
    if best_joint < 0:
        errors += _lock_errors(turn, locked)
    if best_joint >= 0:
        errors.append(_joint_error(turn, best_joint, best_alone))
    elif best_alone < target:
        errors.append(_initial_error(best_alone, rules))
    if best_alone < target:
        errors += _changed_errors(turn)
    return errors


def _choices(turn: _Turn, openings: list[_Opening]) -> Iterator[tuple[_Opening, _Released]]:
    none = _Released((), Counter(), 0)
    first = sorted(openings, key=lambda o: -o.value)
    yield from ((opening, none) for opening in first)
    rest = [
        (opening, released)
        for opening in first
        for released in released_openings(turn, turn.pool - opening.tiles)
        if released.locks
    ]
    yield from sorted(rest, key=lambda c: -c[0].value - c[1].value)


def released_openings(turn: _Turn, rack: Counter[Tile]) -> list[_Released]:
    """Every choice of initial melds with a joker released at once (the old listing)."""
    none = _Released((), Counter(), 0)
    if turn.rack_only or not rack[JOKER]:
        return [none]
    present = turn.old_tiles + turn.pool
    cores: list[tuple[Meld, tuple[_Option, ...]]] = []
    seen: set[Identity] = set()
    for core in _hand_melds_with_jokers(rack, turn.rules):
        if core.identity() in seen:
            continue
        seen.add(core.identity())
        options = [
            _Option(None, demands, released=True)
            for demands in _full_releases(core, turn.rules)
            if Counter(demands) <= present
        ]
        for demands, kept in _partial_releases(core, turn.rules):
            if Counter(demands) <= present:
                options += [_Option(i, demands, released=False) for i in _targets(turn, kept)]
        if options:
            cores.append((core, tuple(options)))
    found: list[_Released] = []

    def pick(start: int, chosen: tuple[_Locked, ...], tiles: Counter[Tile], value: int) -> None:
        found.append(_Released(chosen, tiles, value))
        for k in range(start, len(cores)):
            core, options = cores[k]
            more = tiles + Counter(core.tiles)
            if more <= rack:
                lock = _Locked(-1 - len(chosen), core, options)
                pick(k, (*chosen, lock), more, value + core.value)

    pick(0, (), Counter(), 0)
    return found
