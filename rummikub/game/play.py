"""A game at the terminal: one person against 1-3 strategies (``rummikub play``).

The loop only talks through two functions, ``ask(prompt) -> line`` and ``say(text)``, so a
test drives it with scripted lines and the command line with the terminal. A move is typed
as tiles to lay (``R4 O7``: the solver arranges them), as the whole new table (melds
separated by ``|``, or one meld after ``table:``), or as a word: ``draw``, ``pass``,
``hint``, ``help``, ``quit``. An illegal move is refused with every rule it breaks.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rummikub.core.errors import RummikubError
from rummikub.game.engine import (
    GameState,
    TurnError,
    advance,
    deal,
    describe,
    start,
    turn_of_move,
)
from rummikub.game.record import RACK_SIZE, Draw, Pass, Play, Record, Turn, save
from rummikub.game.strategies import Strategy
from rummikub.game.view import view_of
from rummikub.tiles.melds import Meld
from rummikub.tiles.notation import parse_melds, parse_rack
from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import Tile

__all__ = ["HELP", "Table", "play", "read_move"]

Paint = Callable[[Tile], str]

HELP = """Type your move:
  R4 O7             tiles to lay: the solver finds where they go
  R1-4 | K7 R7 B7 O7  the whole new table, melds separated by | (table: R1 R2 R3 for one meld)
  draw              draw a tile (pass, once the pool is empty)
  hint              the best move
  quit              stop here (the record is kept)"""


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits where: the person's seat and name, and a strategy for every other seat."""

    name: str
    opponents: tuple[tuple[str, Strategy], ...]
    seat: int = 0

    def players(self) -> list[str]:
        names = [n for n, _ in self.opponents]
        names.insert(self.seat, self.name)
        return names

    def strategy_of(self, seat: int) -> Strategy:
        index = seat if seat < self.seat else seat - 1
        return self.opponents[index][1]


class Quit(Exception):
    """The person stopped the game."""


def read_move(state: GameState, line: str) -> Turn | str:
    """The turn a typed line stands for, or a word (``hint``, ``help``, ``quit``).

    Raises :class:`RummikubError` for text that is not tiles or tiles that cannot be laid.
    """
    text = line.strip()
    word = text.lower()
    if word in ("", "?", "h", "help"):
        return "help"
    if word in ("hint", "quit", "q", "exit"):
        return "quit" if word in ("q", "exit") else word
    if word in ("d", "draw", "p", "pass"):
        return Draw(state.pool[0] if state.pool else None) if state.pool_count else Pass()
    rules = state.rules
    if word.startswith("table:"):
        return Play(parse_melds(text[len("table:") :], rules))
    if "|" in text or ";" in text:
        return Play(parse_melds(text, rules))
    return lay(state, parse_rack(text, rules, box=False), "your rack")


def lay(state: GameState, tiles: Sequence[Tile], rack_name: str | None = None) -> Play:
    """The play laying exactly ``tiles``, arranged by the solver (it solves the position with
    the rack restricted to them, and must lay them all). ``rack_name`` names the rack in
    messages (default: the player's, by name)."""
    from collections import Counter

    from rummikub.tiles.solver import solve

    seat = state.to_move
    rack = state.racks[seat]
    if rack is not None:
        missing = Counter(tiles) - Counter(rack)
        if missing:
            names = " ".join(str(t) for t in sorted(missing.elements(), key=state.rules.sort_key))
            owner = rack_name or f"{state.players[seat]}'s rack"
            raise RummikubError(f"not in {owner}: {names}")
    position = Position(state.table, tuple(tiles), state.opened[seat], state.rules)
    result = solve(position, objective="tiles")
    if result.tiles < len(tiles):
        if not result.played:
            why = "they make no meld with the table"
            if not state.opened[seat]:
                why += f" worth the initial meld of {state.rules.initial_meld}"
        else:
            why = "at most " + " ".join(str(t) for t in result.played) + " can be laid"
        raise RummikubError(f"these tiles cannot all be laid: {why}")
    turn = turn_of_move(state, result.move)
    assert isinstance(turn, Play)
    return turn


def show(state: GameState, seat: int, paint: Paint) -> str:
    """The table, the person's rack and the others' tile counts."""
    lines = [""]
    if state.table:
        lines.append("Table:")
        lines += [f"  {i:2d}. {_meld(m, paint)}" for i, m in enumerate(state.table, start=1)]
    else:
        lines.append("Table: (empty)")
    others = ", ".join(
        f"{name} {count}" + ("" if opened else " (not opened)")
        for s, (name, count, opened) in enumerate(
            zip(state.players, state.rack_counts, state.opened, strict=True)
        )
        if s != seat
    )
    lines.append(f"Pool: {state.pool_count} tiles. Others: {others}.")
    rack = state.racks[seat] or ()
    opened = "" if state.opened[seat] else f" (initial meld: {state.rules.initial_meld})"
    lines.append(f"Your rack{opened}: {' '.join(paint(t) for t in rack)}")
    return "\n".join(lines)


def _meld(meld: Meld, paint: Paint) -> str:
    text = " ".join(paint(t) for t in meld.tiles)
    if meld.kind == "group" and len(meld.numbered) == 1:
        return f"group: {text}"
    return text


def play(
    rules: Rules,
    table: Table,
    *,
    seed: int,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    paint: Paint = str,
    path: str | os.PathLike[str] | None = None,
    rack_size: int = RACK_SIZE,
) -> Record:
    """Play a game to its end (or until the person quits); the record is saved after every
    turn when ``path`` is given, and returned."""
    record = deal(table.players(), rules, seed, rack_size)
    state = start(record)
    turns: list[Turn] = []

    def keep() -> Record:
        kept = record.with_turns(turns, state.result)
        if path is not None:
            save(kept, path)
        return kept

    keep()
    while not state.over:
        seat = state.to_move
        name = state.players[seat]
        try:
            if seat == table.seat:
                turn = _person(state, seat, ask, say, paint)
            else:
                move = table.strategy_of(seat)(*view_of(state, seat))
                turn = turn_of_move(state, move)
        except Quit:
            say("Game stopped; the record keeps every turn so far.")
            return keep()
        before = state
        state = advance(state, turn)
        turns.append(turn)
        who = "You" if seat == table.seat else name
        say(f"{who} {_painted(describe(turn, before), paint)}.")
        keep()
    say(_ending(state, table))
    return keep()


def _person(
    state: GameState, seat: int, ask: Callable[[str], str], say: Callable[[str], None], paint: Paint
) -> Turn:
    say(show(state, seat, paint))
    while True:
        try:
            line = ask("Your move (help for help): ")
        except EOFError:
            raise Quit from None
        try:
            move = read_move(state, line)
        except RummikubError as error:
            say(f"Not a move: {error}")
            continue
        if move == "help":
            say(HELP)
        elif move == "quit":
            raise Quit
        elif move == "hint":
            say(_hint(state, paint))
        elif isinstance(move, str):  # pragma: no cover - read_move returns the words above
            say(HELP)
        else:
            try:
                advance(state, move)
            except TurnError as error:
                count = len(error.problems)
                lines = [f"Illegal move: {count} rule{'' if count == 1 else 's'} broken."]
                lines += [f"  - {problem}" for problem in error.problems]
                say("\n".join(lines))
                continue
            return move


def _hint(state: GameState, paint: Paint) -> str:
    from rummikub.tiles.solver import solve

    result = solve(state.position())
    if not result.played:
        return "Hint: no move; " + ("draw." if state.pool_count else "pass.")
    played = " ".join(paint(t) for t in result.played)
    table = " | ".join(_meld(m, paint) for m in result.table)
    return f"Hint: lay {played} (value {result.value}): {table}"


def _painted(text: str, paint: Paint) -> str:
    words = []
    for word in text.split(" "):
        try:
            words.append(paint(Tile.parse(word)) if word[:1].isupper() else word)
        except RummikubError:
            words.append(word)
    return " ".join(words)


def _ending(state: GameState, table: Table) -> str:
    result = state.result
    assert result is not None
    names = ["You" if s == table.seat else n for s, n in enumerate(state.players)]
    winners = " and ".join(names[w] for w in result.winners)
    how = "went out" if result.ending == "went_out" else "won: the pool is empty and nobody plays"
    line = f"Game over: {winners} {how}."
    if result.scores is not None:
        scores = ", ".join(f"{n} {s:+g}" for n, s in zip(names, result.scores, strict=True))
        line += f" Scores: {scores}."
    return line
