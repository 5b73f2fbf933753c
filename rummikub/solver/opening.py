"""Sub-model: the initial meld (RULES.md, "Initial meld").

Melds laid from the hand alone, worth at least ``initial_meld`` together, at least one of
them. A player who plays on in the same turn lays them from the tiles played; a meld among
them that holds a joker is a locked unit for the rest of the turn.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rummikub.melds import Meld
from rummikub.rules import Rules
from rummikub.solver.candidates import (
    Counts,
    TileIndex,
    group_readings,
    max_run_length,
    run_readings,
)
from rummikub.solver.rows import INF, Rows, Terms


@dataclass(frozen=True, slots=True)
class OpeningMeld:
    """A meld the hand may lay as (part of) the initial meld."""

    #: Its tiles: tile index -> count.
    needs: dict[int, int]
    #: Its value, jokers at the number they stand for.
    value: int
    #: Copies of it laid, as a linear expression.
    copies: Terms
    has_joker: bool


def require_opening(
    rows: Rows, rules: Rules, melds: list[OpeningMeld], played: Callable[[int], Any] | None
) -> None:
    """Hand-only melds worth at least ``initial_meld``, at least one of them; with
    ``played`` (playing on after opening), laid from the tiles played."""
    rows.row(
        float(rules.initial_meld),
        INF,
        [(var, coef * meld.value) for meld in melds for var, coef in meld.copies],
    )
    rows.row(1.0, INF, [term for meld in melds for term in meld.copies])
    if played is None:
        return
    for t in range(TileIndex(rules).size):
        terms = [
            (var, coef * meld.needs[t])
            for meld in melds
            if t in meld.needs
            for var, coef in meld.copies
        ]
        if terms:
            tiles = played(t)
            rows.row(-INF, 0.0, terms + ([] if tiles is None else [(tiles, -1.0)]))


def hand_readings_with_jokers(rules: Rules, rack: Counts, index: TileIndex) -> list[Meld]:
    """Every meld with a joker that the hand alone can lay (each joker reading apart,
    since the lock keeps the reading)."""
    jokers = int(rack[index.joker])
    limited = rules.replace(jokers=min(rules.jokers, jokers))
    found = []
    readings = itertools.chain(
        run_readings(limited, max_run_length(rules)),
        group_readings(limited, min(5, rules.max_group)),
    )
    for meld in readings:
        if meld.jokers == 0:
            continue
        need = Counter(index[t] for t in meld.tiles)
        if all(n <= rack[t] for t, n in need.items()):
            found.append(meld)
    return found
