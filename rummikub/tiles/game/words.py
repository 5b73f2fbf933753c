"""A tile game in words: its state, its result, its annotations, a refused turn.

What ``rummikub game`` (new, show, apply, undo, replay) says of a tile game is written here
once, as plain text, and as JSON (:func:`state_data`, what ``game show --json`` prints).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rummikub.play.session import illegal
from rummikub.tiles.game.engine import GameState, Replay, TurnError, describe
from rummikub.tiles.game.record import Draw, Note, Play, Record, Result, Turn, Variation
from rummikub.tiles.tiles import format_tiles

__all__ = [
    "annotated",
    "line_words",
    "notes_data",
    "notes_lines",
    "replay_data",
    "replay_lines",
    "result_text",
    "state_data",
    "state_text",
    "turn_error_text",
]


def state_text(state: GameState, record: Record) -> str:
    lines: list[str] = []
    if state.result is not None:
        lines.append(result_text(state.result, state))
    else:
        seat = state.to_move
        opened = "" if state.opened[seat] else " (not opened yet)"
        lines.append(
            f"Turn {state.turns + 1}: {state.players[seat]} to move{opened}; "
            f"pool {state.pool_count} tiles."
        )
    lines.append("Table:" if state.table else "Table: (empty)")
    lines += [f"  {i}. {meld}" for i, meld in enumerate(state.table, start=1)]
    for seat, name in enumerate(state.players):
        rack = state.racks[seat]
        shown = "?" if rack is None else format_tiles(rack) or "(empty)"
        opened = "opened" if state.opened[seat] else "not opened"
        # The rack total is what the player would lose if the hand ended now.
        total = state.rack_total(seat)
        worth = "" if total is None else f" (total {total})"
        lines.append(f"  {name}: {state.rack_counts[seat]} tiles{worth}, {opened}: {shown}")
    return "\n".join(lines)


def result_text(result: Result, state: GameState) -> str:
    names = state.players
    how = "went out" if result.ending == "went_out" else "won with the pool empty"
    if not result.winners:
        line = "The hand is over (the pool is empty); the winner is not known."
    else:
        line = f"The hand is over: {' and '.join(names[w] for w in result.winners)} {how}."
    if result.scores is not None:
        scores = ", ".join(f"{n} {_score(s)}" for n, s in zip(names, result.scores, strict=True))
        line += f" Scores: {scores}."
    return line


def _score(value: float) -> str:
    return f"{value:+g}"


def state_data(state: GameState) -> dict[str, Any]:
    result = state.result
    return {
        "turn": state.turns + 1,
        "to_move": state.to_move,
        "players": list(state.players),
        "table": [{"kind": m.kind, "tiles": [str(t) for t in m.tiles]} for m in state.table],
        "racks": [None if r is None else [str(t) for t in r] for r in state.racks],
        "rack_counts": list(state.rack_counts),
        "rack_totals": [state.rack_total(seat) for seat in range(len(state.players))],
        "opened": list(state.opened),
        "pool": state.pool_count,
        "result": None if result is None else result.to_data(),
    }


def annotated(game: Replay) -> list[tuple[int, Turn, Note, GameState | None]]:
    """Each annotated turn: its number, the turn, its note and the state before it (None for
    a turn past the first bad one)."""
    record = game.record
    found = []
    for index, turn in enumerate(record.turns):
        note = record.note(index + 1)
        if note is not None:
            state = game.states[index] if index < len(game.states) else None
            found.append((index + 1, turn, note, state))
    return found


def notes_data(game: Replay) -> list[dict[str, Any]]:
    players = game.record.players
    return [
        {"turn": number, "player": players[(number - 1) % len(players)], **note.to_data()}
        for number, _, note, _ in annotated(game)
    ]


def notes_lines(game: Replay) -> list[str]:
    """The annotations as ``game show`` prints them: a line a turn, then its variations."""
    found = annotated(game)
    if not found:
        return []
    record = game.record
    by = f", by {record.annotator}" if record.annotator else ""
    lines = [f"Annotations{by}:"]
    for number, turn, note, state in found:
        name = record.players[(number - 1) % len(record.players)]
        move = describe(turn, state) if state is not None else "(not replayed)"
        figures = []
        if note.win is not None:
            figures.append(f"win {note.win:.2f}")
        if note.lost is not None:
            figures.append(f"lost {note.lost:.4f}")
        if note.luck is not None:
            figures.append(f"luck {note.luck:+.2f}")
        text = f"  {number:>3}. {name}: {move}{note.mark or ''}"
        if figures:
            text += f" ({', '.join(figures)})"
        if note.comment:
            text += f"  {{{note.comment}}}"
        lines.append(text)
        for variation in note.variations:
            if state is None:
                break
            line = f"       ( {line_words(variation, number, state)} )"
            if variation.comment:
                line += f"  {{{variation.comment}}}"
            lines.append(line)
    return lines


def line_words(variation: Variation, number: int, state: GameState) -> str:
    """A variation's moves in words: ``5. Ann: played K6 R6 B6; 6. Bob: drew``."""
    words = []
    tiles = Counter(state.table_tiles())
    players = state.players
    for step, move in enumerate(variation.moves):
        name = players[(number - 1 + step) % len(players)]
        if isinstance(move, Play):
            new = Counter(t for meld in move.table for t in meld.tiles)
            laid = sorted((new - tiles).elements(), key=state.rules.sort_key)
            what = f"played {format_tiles(laid)}"
            tiles = new
        elif isinstance(move, Draw):
            what = "drew" + ("" if move.tile is None else f" {move.tile}")
        else:
            what = "passed"
        words.append(f"{number + step}. {name}: {what}")
    return "; ".join(words)


def turn_error_text(error: TurnError) -> str:
    """A refused turn with every rule it breaks, as ``game apply`` and ``replay`` tell it."""
    return illegal(f"Turn {error.number} ({error.player}) is illegal", error.problems)


def replay_lines(game: Replay, path: str) -> list[str]:
    """A record replayed, as ``game replay`` prints it: a line a legal turn, then the first
    problem (the record named ``path``), or that every turn is legal and the result."""
    record = game.record
    legal = len(game.states) - 1
    lines = []
    for index, turn in enumerate(record.turns[:legal]):
        state = game.states[index]
        name = state.players[state.to_move]
        lines.append(f"{index + 1:4d}. {name}: {describe(turn, state)}")
    if game.error is not None:
        lines.append(turn_error_text(game.error))
    elif record.problem is not None:
        lines.append(f"{path}: {record.problem}")
    else:
        lines.append(f"All {legal} turns are legal.")
        if game.state.result is not None:
            lines.append(result_text(game.state.result, game.state))
        if game.problem is not None:
            lines.append(f"{path}: {game.problem}")
    return lines


def replay_data(game: Replay) -> dict[str, Any]:
    """A record replayed as JSON (``game replay --json``): its turns, the legal ones, the
    first problem and the result."""
    record = game.record
    error = game.error
    return {
        "turns": len(record.turns) + (record.problem is not None),
        "legal_turns": len(game.states) - 1,
        "legal": game.problem is None,
        "error": None
        if error is None
        else {"turn": error.number, "player": error.player, "problems": list(error.problems)},
        "problem": game.problem,
        "result": state_data(game.state)["result"],
    }
