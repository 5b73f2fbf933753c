"""A game at the terminal: one person against 1-3 strategies (``rummikub play``).

The loop only talks through two functions, ``ask(prompt) -> line`` and ``say(text)``, so a
test drives it with scripted lines and the command line with the terminal. A move is typed
as tiles to lay (``R4 O7``: the solver arranges them), as the whole new table (melds
separated by ``|``, or one meld after ``table:``), or as a word: ``draw``, ``pass``,
``hint``, ``help``, ``undo``, ``quit``. An illegal move is refused with every rule it breaks;
``undo`` takes back the person's last turn and the others' turns since (the pool keeps its
order, so a tile drawn is drawn again).

The record says who plays each seat (``seats``: ``"person"`` or a strategy's name), so
:func:`resume` goes on with a saved game. The others' draws are told as "drew a tile": at a
real table nobody sees them. The solver's work (the others' moves, a hint) runs through
``think``, so that the command line can make Ctrl-C act at once while it runs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

from rummikub.core.errors import ArgumentError, RummikubError
from rummikub.play import session
from rummikub.play.session import PERSON, Quit, Think, Undo, illegal
from rummikub.play.session import now as _now
from rummikub.tiles.game.engine import (
    GameState,
    TurnError,
    advance,
    deal,
    describe,
    replay,
    turn_of_move,
)
from rummikub.tiles.game.entries import undone
from rummikub.tiles.game.record import RACK_SIZE, Draw, Pass, Play, Record, RecordError, Turn, save
from rummikub.tiles.game.strategies import STRATEGIES, Strategy, strategy
from rummikub.tiles.game.view import view_of
from rummikub.tiles.melds import Meld
from rummikub.tiles.notation import parse_melds, parse_rack
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import Tile

__all__ = ["HELP", "PERSON", "Table", "play", "read_move", "resume", "table_of"]

Paint = Callable[[Tile], str]


HELP = """Type your move:
  R4 O7             tiles to lay: the solver finds where they go
  R1-4 | K7 R7 B7 O7  the whole new table, melds separated by | (table: R1 R2 R3 for one meld)
  draw              draw a tile (pass, once the pool is empty)
  hint              the best move
  undo              take back your last turn (and the others' turns since)
  quit              stop here (the record is kept)"""


class Table(session.Table[Strategy]):
    """Who sits where: the person's seat and name, and a strategy for every other seat."""

    __slots__ = ()

    def seats(self) -> tuple[str, ...]:
        """Who plays each seat, as a record's ``seats`` says: the person, or the name of a
        strategy (a function not among :data:`STRATEGIES` by its ``__name__``)."""
        names = {id(function): name for name, function in STRATEGIES.items()}
        return self.kinds(lambda f: names.get(id(f), getattr(f, "__name__", "?")))


def table_of(record: Record, path: str = "<record>") -> Table:
    """Who sits where in a saved game, from the record's ``seats`` (raises
    :class:`RecordError` if it does not say, or names no person or an unknown strategy)."""
    return Table(*session.seating(record.seats, record.players, path, strategy, RecordError))


def read_move(state: GameState, line: str) -> Turn | str:
    """The turn a typed line stands for, or a word (``hint``, ``help``, ``undo``, ``quit``).

    Raises :class:`RummikubError` for text that is not tiles or tiles that cannot be laid.
    """
    text = line.strip()
    word = text.lower()
    if word in ("", "?", "h", "help"):
        return "help"
    if word in ("hint", "undo", "quit", "q", "exit"):
        return "quit" if word in ("q", "exit") else word
    if word in ("d", "draw", "p", "pass"):
        return Draw(state.pool[0] if state.pool else None) if state.pool_count else Pass()
    rules = state.rules
    if word.startswith("table:"):
        return Play(parse_melds(text[len("table:") :], rules))
    if "|" in text or ";" in text:
        return Play(parse_melds(text, rules))
    # The box's tiles only: "X9" is no tile of this game, not one missing from the rack.
    return lay(state, parse_rack(text, rules), "your rack")


def lay(state: GameState, tiles: Sequence[Tile], rack_name: str | None = None) -> Play:
    """The play laying exactly ``tiles``, arranged by the solver (it solves the position with
    the rack restricted to them, and must lay them all). ``rack_name`` names the rack in
    messages (default: the player's, by name)."""
    from collections import Counter

    from rummikub.tiles.solver import solve

    if not tiles:
        # Laying nothing is a draw or a pass, never a play: said, not left to the solver.
        raise ArgumentError("no tiles to lay: give the tiles, e.g. R4 O7 (or draw)")
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
    think: Think[object] = _now,
) -> Record:
    """Play a game to its end (or until the person quits); the record is saved after every
    turn when ``path`` is given, and returned."""
    record = deal(table.players(), rules, seed, rack_size)
    record = replace(record, seats=table.seats())
    return _game(record, table, ask, say, paint, path, think, False)


def resume(
    record: Record,
    *,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    paint: Paint = str,
    path: str | os.PathLike[str] | None = None,
    think: Think[object] = _now,
) -> Record:
    """Go on with a saved game from its last turn, the seats as the record says
    (:func:`table_of`); raises :class:`RecordError` for a record that cannot go on. With
    ``path``, ``record`` is what the file holds: a file another program changed since (or
    changes during the game) is refused, never overwritten."""
    where = "<record>" if path is None else os.fspath(path)
    table = table_of(record, where)
    game = replay(record)
    session.resumable(game.problem, game.state.over, where, RecordError)
    say(f"Resuming at turn {game.state.turns + 1}.")
    return _game(record, table, ask, say, paint, path, think, True)


def _game(
    record: Record,
    table: Table,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    paint: Paint,
    path: str | os.PathLike[str] | None,
    think: Think[object],
    resuming: bool,
) -> Record:
    state = replay(record).state
    sitting = _Sitting(table, ask, say, paint, think, session.stopped(path))

    def keep(kept: Record, state: GameState, expect: Record | None) -> None:
        assert path is not None
        save(kept, path, expect=expect)

    return session.run(
        sitting,
        record.with_turns(record.turns, state.result),
        state,
        save=None if path is None else keep,
        added=_added,
        undone=_undone,
        resuming=resuming,
        say=say,
    )


def _undone(record: Record) -> tuple[Record, GameState]:
    taken, game = undone(record)
    return taken, game.state


def _added(record: Record, turn: Turn, after: GameState) -> Record:
    return record.with_turns((*record.turns, turn), after.result)


@dataclass(frozen=True, slots=True)
class _Sitting:
    """The tile game at the terminal (:class:`rummikub.play.session.Sitting`)."""

    table: Table
    ask: Callable[[str], str]
    say: Callable[[str], None]
    paint: Paint
    think: Think[object]
    stopped: str

    def over(self, state: GameState) -> bool:
        return state.over

    def person_plays(self, state: GameState) -> bool:
        return state.to_move == self.table.seat

    def person(self, state: GameState) -> Turn:
        return _person(state, state.to_move, self.ask, self.say, self.paint, self.think)

    def strategy(self, state: GameState) -> Turn:
        seat = state.to_move
        move = self.think(partial(self.table.strategy_of(seat), *view_of(state, seat)))
        assert isinstance(move, Move)
        return turn_of_move(state, move)

    def advance(self, state: GameState, turn: Turn) -> GameState:
        return advance(state, turn)

    def tell(self, turn: Turn, before: GameState, after: GameState) -> None:
        seat = before.to_move
        name = before.players[seat]
        if seat == self.table.seat:
            self.say(f"You {_painted(describe(turn, before), self.paint)}.")
        elif isinstance(turn, Draw):
            self.say(f"{name} drew a tile.")  # nobody at a real table sees another's draw
        else:
            self.say(f"{name} {_painted(describe(turn, before), self.paint)}.")

    def ending(self, state: GameState) -> str:
        return _ending(state, self.table)


def _person(
    state: GameState,
    seat: int,
    ask: Callable[[str], str],
    say: Callable[[str], None],
    paint: Paint,
    think: Think[object],
) -> Turn:
    say(show(state, seat, paint))
    while True:
        try:
            line = ask("Your move (help for help): ")
        except EOFError:
            raise Quit from None
        try:
            # Tiles to lay are arranged by the solver: its work too runs through think.
            move = think(partial(read_move, state, line))
            assert isinstance(move, str | Play | Draw | Pass)
        except RummikubError as error:
            say(f"Not a move: {error}")
            continue
        if move == "help":
            say(HELP)
        elif move == "quit":
            raise Quit
        elif move == "undo":
            raise Undo
        elif move == "hint":
            hint = think(partial(_hint, state, paint))
            assert isinstance(hint, str)
            say(hint)
        elif isinstance(move, str):  # pragma: no cover - read_move returns the words above
            say(HELP)
        else:
            try:
                advance(state, move)
            except TurnError as error:
                say(illegal("Illegal move", error.problems))
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
