"""The web page's games against the solver players: ``/api/game/...``, plain functions of JSON.

The server keeps nothing: every request carries the game's record (the data of a
``rummikub-game/1`` record file, README "Record files"), and every answer gives the record
back with what the person may see. Seat 0 is the person; every other seat is a solver player
named by its strategy (``best``, ``tiles``, ``hold``, ``casual``:
:mod:`rummikub.tiles.game.strategies`),
and those seats move, each through ``strategy(*view_of(state, seat))``, until it is the
person's turn again or the hand is over. The same record and the same request always give
the same answer: the deal is shuffled by the record's seed and the players are
deterministic.

* ``new``: deal a game (``opponents``, ``name``, ``rules``, ``seed``, ``rack_size``);
* ``move``: the person lays ``tiles`` (the solver arranges them, as ``rummikub play`` does)
  or gives the whole new ``table``;
* ``draw``: the person draws (or passes, once the pool is empty);
* ``undo``: back to before the person's last turn (the players' answers to it go too);
* ``hint``: the best move for the person, with its steps (as ``/api/solve``);
* ``review``: every turn graded against the best move (:mod:`rummikub.tiles.game.review`);
* ``load``: a record given as data or as the text of a record file (TOML or JSON).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rummikub.core.errors import RummikubError
from rummikub.render.data import result_data
from rummikub.tiles.game.engine import GameState, TurnError, advance, deal, describe, replay
from rummikub.tiles.game.record import (
    MAX_PLAYERS,
    RACK_SIZE,
    Draw,
    Pass,
    Play,
    Record,
    RecordError,
    Turn,
    from_data,
    loads,
    to_data,
)
from rummikub.tiles.game.strategies import STRATEGIES, Strategy
from rummikub.tiles.game.view import view_of
from rummikub.tiles.notation import parse_melds, parse_rack
from rummikub.web.api import Limits, RequestError, _bad, _keys, _rules

__all__ = ["draw", "hint", "load", "move", "new", "review", "undo"]

#: The person's seat.
PERSON = 0
NEW_KEYS = ("opponents", "name", "rules", "seed", "rack_size")
MOVE_KEYS = ("record", "tiles", "table")
RECORD_KEYS = ("record",)
LOAD_KEYS = ("record", "text")
#: Seeds are 0 to this, less one.
MOST_SEEDS = 2**32


def _record(request: Mapping[str, Any]) -> Record:
    if "record" not in request:
        raise _bad("record: the game's record is missing")
    try:
        record = from_data(request["record"], "record")
    except RecordError as error:
        raise RequestError(422, str(error).splitlines()) from None
    if record.problem is not None:
        raise RequestError(422, [f"record: {record.problem}"])
    return record


def _strategy(record: Record, seat: int) -> Strategy:
    name = record.players[seat]
    found = STRATEGIES.get(name.strip().lower())
    if found is None:
        known = ", ".join(STRATEGIES)
        raise RequestError(
            422, [f"record: seat {seat} {name!r} is not a solver player (expected {known})"]
        )
    return found


def _state(record: Record) -> GameState:
    """The record's current state; a record whose turns do not replay is refused."""
    try:
        game = replay(record)
    except RummikubError as error:
        raise RequestError(422, [f"record: {error}"]) from None
    if game.problem is not None:
        raise RequestError(422, [f"record: {game.problem}"])
    return game.state


def _settle(record: Record, state: GameState) -> tuple[Record, GameState]:
    """The solver players' turns until the person is to move or the hand is over."""
    from rummikub.tiles.game.engine import turn_of_move

    turns = list(record.turns)
    while not state.over and state.to_move != PERSON:
        seat = state.to_move
        move = _strategy(record, seat)(*view_of(state, seat))
        turn = turn_of_move(state, move)
        state = advance(state, turn)
        turns.append(turn)
    return record.with_turns(turns, state.result), state


def _apply(record: Record, state: GameState, turn: Turn) -> dict[str, Any]:
    try:
        state = advance(state, turn)
    except TurnError as error:
        raise RequestError(422, list(error.problems)) from None
    record = record.with_turns([*record.turns, turn], state.result)
    return answer(*_settle(record, state))


def answer(record: Record, state: GameState) -> dict[str, Any]:
    """What the page shows: the record (to keep), and the game as the person sees it."""
    game = replay(record)
    turns = [
        {
            "turn": number,
            "player": record.players[before.to_move],
            "seat": before.to_move,
            # The tile another player drew is theirs to see.
            "text": "drew a tile"
            if isinstance(turn, Draw) and before.to_move != PERSON
            else describe(turn, before),
        }
        for number, (turn, before) in enumerate(zip(record.turns, game.states, strict=False), 1)
    ]
    rack = state.racks[PERSON]
    result = state.result
    return {
        "record": to_data(record),
        "game": {
            "players": list(record.players),
            "to_move": state.to_move,
            "your_turn": not state.over and state.to_move == PERSON,
            "turn": state.turns + 1,
            "table": [{"kind": m.kind, "tiles": [str(t) for t in m.tiles]} for m in state.table],
            "rack": None if rack is None else [str(t) for t in rack],
            "notation": None if rack is None else state.position(PERSON).to_notation(),
            "opened": list(state.opened),
            "rack_counts": list(state.rack_counts),
            "pool": state.pool_count,
            "over": state.over,
            "result": None if result is None else result.to_data(),
            "turns": turns,
            "undo": any(seat == PERSON for seat in _seats(record)),
        },
    }


def _seats(record: Record) -> list[int]:
    return [number % len(record.players) for number in range(len(record.turns))]


# -- the endpoints' work ------------------------------------------------------------------


def new(data: Any) -> dict[str, Any]:
    """``/api/game/new``: a new game, the solver players' first turns taken."""
    request = _keys(data, NEW_KEYS)
    opponents = request.get("opponents", ["best"])
    if (
        not isinstance(opponents, list)
        or not 1 <= len(opponents) <= MAX_PLAYERS - 1
        or not all(isinstance(name, str) for name in opponents)
    ):
        raise _bad(f"opponents: expected a list of 1-{MAX_PLAYERS - 1} strategy names")
    for name in opponents:
        if name.strip().lower() not in STRATEGIES:
            known = ", ".join(STRATEGIES)
            raise RequestError(422, [f"opponents: unknown player {name!r} (expected {known})"])
    name = request.get("name", "you")
    if not isinstance(name, str) or not name.strip() or name.strip().lower() in STRATEGIES:
        raise _bad("name: expected a name that is not a strategy's")
    seed = request.get("seed")
    if seed is None:
        seed = random.SystemRandom().randrange(MOST_SEEDS)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MOST_SEEDS:
        raise _bad(f"seed: expected a whole number 0-{MOST_SEEDS - 1}")
    rack_size = request.get("rack_size", RACK_SIZE)
    if isinstance(rack_size, bool) or not isinstance(rack_size, int):
        raise _bad("rack_size: expected a whole number")
    rules = _rules(request)
    players = [name.strip(), *(o.strip().lower() for o in opponents)]
    try:
        record = deal(players, rules, seed, rack_size)
        state = _state(record)
    except RummikubError as error:
        raise RequestError(422, [str(error)]) from None
    return answer(*_settle(record, state))


def _person_state(request: Mapping[str, Any]) -> tuple[Record, GameState]:
    record = _record(request)
    record, state = _settle(record, _state(record))
    if state.racks[PERSON] is None:
        raise RequestError(422, ["record: the rack of seat 0 is not known"])
    if state.over:
        raise RequestError(422, ["the hand is over"])
    return record, state


def move(data: Any) -> dict[str, Any]:
    """``/api/game/move``: the person's play: ``tiles`` to lay, or the whole new ``table``."""
    from rummikub.tiles.game.play import lay

    request = _keys(data, MOVE_KEYS)
    record, state = _person_state(request)
    if ("tiles" in request) == ("table" in request):
        raise _bad("give either tiles (to lay) or table (the whole new table)")
    rules = state.rules
    try:
        if "tiles" in request:
            text = request["tiles"]
            if not isinstance(text, str):
                raise _bad('tiles: expected a string such as "R4 O7"')
            turn: Turn = lay(state, parse_rack(text, rules, box=False), "your rack")
        else:
            raw = request["table"]
            if isinstance(raw, list) and all(isinstance(m, str) for m in raw):
                raw = " | ".join(raw)
            if not isinstance(raw, str):
                raise _bad("table: expected melds, as a string (separated by |) or a list")
            turn = Play(parse_melds(raw, rules))
    except RummikubError as error:
        raise RequestError(422, [str(error)]) from None
    return _apply(record, state, turn)


def draw(data: Any) -> dict[str, Any]:
    """``/api/game/draw``: the person draws a tile (passes once the pool is empty)."""
    request = _keys(data, RECORD_KEYS)
    record, state = _person_state(request)
    turn: Turn = Draw(state.pool[0] if state.pool else None) if state.pool_count else Pass()
    return _apply(record, state, turn)


def undo(data: Any) -> dict[str, Any]:
    """``/api/game/undo``: the game as it was before the person's last turn."""
    request = _keys(data, RECORD_KEYS)
    record = _record(request)
    _state(record)
    mine = [number for number, seat in enumerate(_seats(record)) if seat == PERSON]
    if not mine:
        raise RequestError(422, ["nothing to undo: you have not moved yet"])
    record = record.with_turns(record.turns[: mine[-1]])
    return answer(record, _state(record))


def hint(data: Any, limits: Limits) -> dict[str, Any]:
    """``/api/game/hint``: the person's best move, as ``/api/solve`` answers it."""
    from rummikub.tiles.explain import explain
    from rummikub.tiles.solver import solve

    request = _keys(data, RECORD_KEYS)
    _, state = _person_state(request)
    position = state.position(PERSON)
    result = solve(position, time_limit=limits.time_limit)
    found = result_data(result, None)
    found.update(explain(position, result.move).to_data())
    found["notation"] = position.to_notation()
    return found


def review(data: Any, limits: Limits) -> dict[str, Any]:
    """``/api/game/review``: every turn graded against the best move."""
    from rummikub.tiles.game.review import review_record

    request = _keys(data, RECORD_KEYS)
    record = _record(request)
    found = review_record(record, "record", time_limit=limits.time_limit).to_data()
    game = replay(record)
    for turn, state in zip(found["turns"], game.states, strict=False):
        seat = state.to_move
        turn["notation"] = (
            state.position(seat).to_notation() if state.racks[seat] is not None else None
        )
        # The game around the mover (they first, then the others in turn order): the
        # chances to win on the board are asked of the real game.
        order = [(seat + step) % len(record.players) for step in range(len(record.players))]
        turn["view"] = {
            "players": len(record.players),
            "rack_counts": [state.rack_counts[s] for s in order],
            "opened": [state.opened[s] for s in order],
        }
    return found


def load(data: Any) -> dict[str, Any]:
    """``/api/game/load``: a record as data (``record``) or as a file's ``text``."""
    request = _keys(data, LOAD_KEYS)
    if ("record" in request) == ("text" in request):
        raise _bad("give either record (its data) or text (a record file, TOML or JSON)")
    if "text" in request:
        text = request["text"]
        if not isinstance(text, str):
            raise _bad("text: expected the text of a record file")
        try:
            record = loads(text, "record", fmt="json" if text.lstrip()[:1] == "{" else "toml")
        except RecordError as error:
            raise RequestError(422, str(error).splitlines()) from None
        if record.problem is not None:
            raise RequestError(422, [f"record: {record.problem}"])
    else:
        record = _record(request)
    state = _state(record)
    if all(name.strip().lower() in STRATEGIES for name in record.players[1:]):
        record, state = _settle(record, state)
    return answer(record, state)
