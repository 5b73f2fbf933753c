"""The peer: ``rummikub-solver`` (PyPI), driven on our positions, imported only when asked.

The peer maximises the tiles played and treats table jokers as ordinary tiles (no joker
lock), so it is compared with our ``objective="tiles"`` under ``joker_lock="free"``, where
both solve the same problem for an opened player. For a player who has not opened yet it
runs its own initial-meld mode, which differs from RULES.md (it lays the opening melds first,
then looks for more in a second solve), so such positions are timed but their answers are
not compared.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import JOKER, Tile

#: The peer's colour names for our color letters, where they name the same color.
_NAMES = {"K": "BLACK", "R": "RED", "B": "BLUE", "O": "ORANGE", "G": "GREEN", "W": "WHITE"}
#: The peer's ``Colour`` enum, in order (copied so that a script can be written without
#: importing the peer).
_PEER_COLOURS = ("BLACK", "BLUE", "ORANGE", "RED", "GREEN", "MAGENTA", "WHITE", "CYAN")


@dataclass(frozen=True, slots=True)
class PeerAnswer:
    """What the peer played, and how long its ``solve`` took (seconds, in-process)."""

    tiles: int
    seconds: float


def version() -> str | None:
    """The installed peer's version, or None when it is not installed."""
    try:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as package_version

        return package_version("rummikub-solver")
    except PackageNotFoundError:
        return None


def unsupported(rules: Rules) -> str | None:
    """Why the peer cannot play under ``rules``, or None."""
    if not 2 <= len(rules.colors) <= 8:
        return f"{len(rules.colors)} colors (the peer takes 2-8)"
    if not 1 <= rules.initial_meld <= 50:
        return f"initial_meld={rules.initial_meld} (the peer takes 1-50)"
    return None


def describe(rules: Rules) -> str:
    """The box of a rule set, e.g. ``13x4x2+2J``."""
    return f"{rules.numbers}x{len(rules.colors)}x{rules.copies}+{rules.jokers}J"


def colour_names(rules: Rules, colours: list[str]) -> dict[str, str]:
    """Our color letters to names of the peer's colours, one to one.

    The peer colours its tiles with the first ``colours`` members of its ``Colour`` enum
    (BLACK, BLUE, ORANGE, RED, GREEN, MAGENTA, WHITE, CYAN). Colors are interchangeable in
    the rules, so any one-to-one map will do; this one keeps the names that match.

    >>> colour_names(Rules(), ["BLACK", "BLUE", "ORANGE", "RED", "GREEN"])
    {'K': 'BLACK', 'R': 'RED', 'B': 'BLUE', 'O': 'ORANGE'}
    """
    box = colours[: len(rules.colors)]
    names = {c: _NAMES[c] for c in rules.colors if _NAMES.get(c) in box}
    spare = [name for name in box if name not in names.values()]
    return {c: names.get(c) or spare.pop(0) for c in rules.colors}


class Peer:
    """The peer's rule sets, built once per rule set (building one sets up its cvxpy models,
    which would otherwise be counted in the first solve)."""

    def __init__(self) -> None:
        import rummikub_solver

        self._module: Any = rummikub_solver
        self._rulesets: dict[tuple[int, int, int, int, int], tuple[Any, dict[Tile, Any]]] = {}
        #: Seconds spent building each rule set (the peer's one-time set-up), by description.
        self.setup: dict[str, float] = {}

    @property
    def backend(self) -> str:
        """The MILP solver the peer picked (its default: HiGHS via SciPy unless highspy)."""
        ruleset, _ = self._ruleset(Rules())
        return str(ruleset.backend)

    def _ruleset(self, rules: Rules) -> tuple[Any, dict[Tile, Any]]:
        key = (rules.numbers, len(rules.colors), rules.copies, rules.jokers, rules.initial_meld)
        found = self._rulesets.get(key)
        if found is None:
            started = time.perf_counter()
            ruleset = self._module.RuleSet(
                numbers=rules.numbers,
                repeats=rules.copies,
                colours=len(rules.colors),
                jokers=rules.jokers,
                min_initial_value=rules.initial_meld,
            )
            found = (ruleset, self._tile_map(rules, ruleset))
            self._rulesets[key] = found
            self.setup[describe(rules)] = time.perf_counter() - started
        return found

    def _tile_map(self, rules: Rules, ruleset: Any) -> dict[Tile, Any]:
        """Our tiles to the peer's tile objects."""
        names = colour_names(rules, [c.name for c in self._module.Colour])
        number_tile = self._module.Number
        theirs = {
            (tile.colour.name, tile.value): tile
            for tile in ruleset.tiles
            if isinstance(tile, number_tile)
        }
        mapping: dict[Tile, Any] = {
            tile: theirs[(names[tile.color], tile.number)] for tile in rules.tile_types()
        }
        if rules.jokers:
            mapping[JOKER] = ruleset.tiles[-1]
        return mapping

    def prepare(self, rules: Rules) -> None:
        """Build the peer's rule set now, outside any timing."""
        self._ruleset(rules)

    def solve(self, position: Position) -> PeerAnswer:
        """The peer's answer in tile-count mode (initial-meld mode for a player not opened)."""
        ruleset, mapping = self._ruleset(position.rules)
        state = ruleset.new_game()
        table = [mapping[t] for meld in position.table for t in meld.tiles]
        if table:
            state.add_table(*table)
        state.add_rack(*(mapping[t] for t in position.rack))
        state.initial = not position.opened
        # Mode None lets the peer pick: TILE_COUNT when opened, INITIAL otherwise (passing
        # TILE_COUNT would ignore the initial flag and so solve an easier problem).
        mode = self._module.SolverMode.TILE_COUNT if position.opened else None
        started = time.perf_counter()
        proposed = ruleset.solve(state, mode)
        seconds = time.perf_counter() - started
        return PeerAnswer(len(proposed.tiles) if proposed else 0, seconds)


def script(position: Position) -> str:
    """A stand-alone ``python -c`` program: the peer solving ``position`` (opened, tile
    count), for timing a whole process against one ``rummikub solve`` call."""
    rules = position.rules
    names = colour_names(rules, list(_PEER_COLOURS))

    def tile(t: Tile) -> str:
        return "J" if t.is_joker else f"T[{names[t.color]!r}, {t.number}]"

    table = ", ".join(tile(t) for meld in position.table for t in meld.tiles)
    rack = ", ".join(tile(t) for t in position.rack)
    return "; ".join(
        [
            "from rummikub_solver import Number, RuleSet, SolverMode",
            f"rs = RuleSet(numbers={rules.numbers}, repeats={rules.copies}, "
            f"colours={len(rules.colors)}, jokers={rules.jokers})",
            "T = {(t.colour.name, t.value): t for t in rs.tiles if isinstance(t, Number)}",
            "J = rs.tiles[-1]",
            "st = rs.new_game()",
            f"st.add_table({table})",
            f"st.add_rack({rack})",
            f"st.initial = {not position.opened}",
            "print(rs.solve(st, SolverMode.TILE_COUNT if not st.initial else None))",
        ]
    )
