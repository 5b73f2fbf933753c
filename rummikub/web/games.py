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
  with ``equity``, turns ``first`` to ``last`` judged in win probability as ``rummikub
  analyse RECORD --equity`` judges them, as many as the time limit allows;
* ``variation``: the record played on another way from a turn (``moves``), and the
  candidates of the position it reaches, in win probability;
* ``load``: a record given as data or as the text of a record file (TOML or JSON).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rummikub.core import deadline
from rummikub.core.errors import RummikubError, unknown
from rummikub.play.equity import Stopped
from rummikub.play.records import name_problem
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
from rummikub.tiles.game.strategies import REGISTRY, Strategy
from rummikub.tiles.game.view import view_of
from rummikub.tiles.notation import parse_melds, parse_rack
from rummikub.web.api import Limits, RequestError, _bad, _flag, _keys, _rules

if TYPE_CHECKING:  # the equity review loads only when a review asks for it
    from rummikub.tiles.game.equity import Budget
    from rummikub.tiles.game.review import EquityTurn

__all__ = ["draw", "hint", "load", "move", "new", "review", "undo", "variation"]

#: The person's seat.
PERSON = 0
NEW_KEYS = ("opponents", "name", "rules", "seed", "rack_size")
MOVE_KEYS = ("record", "tiles", "table")
RECORD_KEYS = ("record",)
BUDGET_KEYS = ("samples", "rounds")
REVIEW_KEYS = ("record", "equity", "first", "last", "reviewed", *BUDGET_KEYS)
VARIATION_KEYS = ("record", "turn", "moves", *BUDGET_KEYS)
#: The most deals and rounds a web request may ask of each turn (the command line's default
#: is 6 deals x 1 round: :data:`rummikub.tiles.game.equity.DEFAULT`).
MOST_SAMPLES = 64
MOST_ROUNDS = 4
#: A part of a review stops before its next turn once this share of the time limit is gone,
#: or once the slowest turn it judged would take the time spent past ``REVIEW_ROOM`` of it:
#: the turn it starts has the rest (a turn of a crowded middle game takes some seconds), and
#: the page asks again from there.
REVIEW_SHARE = 0.5
REVIEW_ROOM = 0.8
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
    if name.strip().lower() not in REGISTRY:
        known = ", ".join(REGISTRY.names)
        raise RequestError(
            422, [f"record: seat {seat} {name!r} is not a solver player (expected one of {known})"]
        )
    return REGISTRY(name)


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
        if deadline.passed():
            # A solve the request's limit cut short answers "no move": recorded, the seat
            # would draw where it could lay, and the game would hang on the machine's load.
            # Nothing is recorded instead; the record the page holds stays as it was.
            raise RequestError(503, [_cut_short(seat, record.players[seat])])
        turn = turn_of_move(state, move)
        state = advance(state, turn)
        turns.append(turn)
    return record.with_turns(turns, state.result), state


def _cut_short(seat: int, name: str) -> str:
    if deadline.stopped():
        return "game: the work was stopped (the client went away, or the server stops)"
    return (
        f"game: seat {seat} ({name}) could not finish its turn within the server's time limit;"
        " nothing was recorded: send the request again, or start the server with a longer"
        " --time-limit"
    )


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
        # Any strategy of the registry, the one list the docs name (docs/players.md).
        if name.strip().lower() not in REGISTRY:
            raise RequestError(422, [f"opponents: {unknown('player', name, REGISTRY.names)}"])
    name = request.get("name", "you")
    # The rule of every name a record holds, so that the record this game writes reads back.
    problem = name_problem(name)
    if problem is not None:
        raise _bad(f"name: {problem}")
    if name.strip().lower() in REGISTRY:
        raise _bad(f"name {name.strip()!r}: the name of a strategy, which a player's must not be")
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
    """``/api/game/review``: every turn graded against the best move; with ``equity``, the
    equity review of turns ``first`` to ``last`` (:func:`equity_review`)."""
    from rummikub.tiles.game.review import review_record

    request = _keys(data, REVIEW_KEYS)
    record = _record(request)
    if _flag(request, "equity", False):
        return equity_review(request, record, limits)
    extra = [key for key in REVIEW_KEYS[2:] if key in request]
    if extra:
        raise _bad(f"{extra[0]}: only with equity (the review in win probability)")
    found = review_record(record, "record", time_limit=limits.time_limit).to_data()
    game = replay(record)
    for turn, state in zip(found["turns"], game.states, strict=False):
        seat = state.to_move
        turn["notation"] = (
            state.position(seat).to_notation() if state.racks[seat] is not None else None
        )
        turn["view"] = _game_view(state)
    return found


def _game_view(state: GameState) -> dict[str, Any]:
    """The game around the player to move (they first, then the others in turn order): the
    chances to win on the board are asked of the real game."""
    players = len(state.players)
    order = [(state.to_move + step) % players for step in range(players)]
    return {
        "players": players,
        "rack_counts": [state.rack_counts[s] for s in order],
        "opened": [state.opened[s] for s in order],
    }


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
    if all(name.strip().lower() in REGISTRY for name in record.players[1:]):
        record, state = _settle(record, state)
    return answer(record, state)


# -- the equity review and its variations ---------------------------------------------------


def _whole(request: Mapping[str, Any], key: str, low: int, high: int, default: int) -> int:
    value = request.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(f"{key}: expected a whole number {low}-{high}")
    return value


def _budget(request: Mapping[str, Any]) -> Budget:
    """The request's budget: the command line's (6 deals x 1 round) unless it asks for
    another; the same budget gives the same figures as ``rummikub game annotate --samples
    N --rounds M``."""
    from rummikub.tiles.game.equity import DEFAULT, Budget

    return Budget(
        samples=_whole(request, "samples", 1, MOST_SAMPLES, DEFAULT.samples),
        rounds=_whole(request, "rounds", 0, MOST_ROUNDS, DEFAULT.rounds),
    )


def _position_data(state: GameState, seat: int) -> dict[str, Any]:
    """The table, and ``seat``'s rack where it is known, as the page draws them."""
    rack = state.racks[seat]
    return {
        "table": [[str(t) for t in m.tiles] for m in state.table],
        "rack": None if rack is None else [str(t) for t in rack],
    }


def _turn_data(
    turn: EquityTurn, record_turn: Turn, before: GameState, after: GameState
) -> dict[str, Any]:
    """One judged turn as the page shows it: the review's keys (``analyse --equity
    --json``), the accuracy, whether it is a key moment, the move in words (``text``, a
    draw's tile named where the record knows it) and the positions before and after it (the
    mover's rack)."""
    from rummikub.play.review import accuracy_of, key_moment

    data = turn.to_data(before.rules)
    data["accuracy"] = (
        round(accuracy_of(turn.lost), 1) if turn.graded and turn.lost is not None else None
    )
    data["text"] = _said(record_turn, before, after)
    data["key"] = key_moment(turn.mark, turn.luck)
    data["before"] = _position_data(before, turn.seat)
    data["after"] = _position_data(after, turn.seat)
    data["notation"] = (
        before.position(turn.seat).to_notation() if before.racks[turn.seat] is not None else None
    )
    data["view"] = _game_view(before)
    return data


@dataclass(frozen=True, slots=True)
class _Reviewed:
    """A turn the page reviewed before (what :func:`rummikub.play.review.lines` reads), its
    figures as the answer wrote them (4 decimals: a line summed from them may differ from
    the command line's in its last digit; its mark is the same, read from the same
    rounding)."""

    seat: int
    graded: bool
    lost: float | None
    luck: float | None

    @property
    def mark(self) -> str | None:
        from rummikub.play.review import written_mark

        return written_mark(self.lost) if self.graded and self.lost is not None else None


def _share(value: Any, where: str, low: float) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= 1:
        raise _bad(f"{where}: expected a number {low:g} to 1, or null")
    return float(value)


def _reviewed(raw: Any, players: int) -> list[_Reviewed]:
    """The turns the page reviewed before, sent back so that the players' lines cover the
    whole review while each request judges a few turns."""
    if not isinstance(raw, list):
        raise _bad("reviewed: expected the list of turns reviewed before")
    found = []
    for index, item in enumerate(raw):
        where = f"reviewed[{index}]"
        if not isinstance(item, Mapping):
            raise _bad(f"{where}: expected a turn of an earlier answer")
        seat, graded = item.get("seat"), item.get("graded")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise _bad(f"{where}.seat: expected a seat 0-{players - 1}")
        if not isinstance(graded, bool):
            raise _bad(f"{where}.graded: expected true or false")
        lost = _share(item.get("lost"), f"{where}.lost", 0.0)
        luck = _share(item.get("luck"), f"{where}.luck", -1.0)
        found.append(_Reviewed(seat, graded, lost, luck))
    return found


def equity_review(request: Mapping[str, Any], record: Record, limits: Limits) -> dict[str, Any]:
    """``/api/game/review`` with ``equity``: turns ``first`` to ``last`` judged in order
    (:func:`rummikub.tiles.game.review.judged_turns`), stopping before a turn once half the
    time limit is gone, or the slowest turn so far would not fit (``done`` says the last turn
    judged: the page asks again from the next). A turn is judged whole or not at all: one
    the time limit (or the client's leaving) would cut short is left to the next request,
    and with not one turn judged :class:`~rummikub.play.equity.Stopped` is raised (the
    server's 503). ``players`` sums up the turns ``reviewed`` before and these."""
    from rummikub.play.review import THRESHOLDS, lines
    from rummikub.tiles.game.review import judged_turns

    game = replay(record)
    legal = len(game.states) - 1
    budget = _budget(request)
    first = _whole(request, "first", 1, max(1, legal), 1)
    last = _whole(request, "last", first, max(first, legal), legal)
    reviewed = _reviewed(request.get("reviewed", []), len(record.players))
    started = time.perf_counter()
    # The request's own limit: the server's, or the deadline it runs under if nearer.
    left = deadline.remaining()
    allowed = limits.time_limit if left is None else min(left, limits.time_limit)
    turns: list[dict[str, Any]] = []
    judged: list[_Reviewed] = []
    slowest = 0.0
    ended = started
    try:
        for number, turn in enumerate(judged_turns(record, budget, first, last), first):
            before, after = game.states[number - 1], game.states[number]
            turns.append(_turn_data(turn, record.turns[number - 1], before, after))
            judged.append(_Reviewed(turn.seat, turn.graded, turn.lost, turn.luck))
            now = time.perf_counter()
            slowest, ended = max(slowest, now - ended), now
            spent = now - started
            if spent >= REVIEW_SHARE * allowed or spent + slowest >= REVIEW_ROOM * allowed:
                break
    except Stopped:
        # No figure from a turn cut short: the turns before it stand, it is asked again.
        if not turns:
            raise
    players = lines(record.players, [*reviewed, *judged])
    return {
        "budget": {"samples": budget.samples, "rounds": budget.rounds},
        "thresholds": {mark: threshold for mark, threshold in THRESHOLDS},
        "total": legal,
        "first": first,
        "done": first + len(turns) - 1,
        "turns": turns,
        "players": [line.to_data() for line in players],
        "problem": game.problem,
    }


def _said(turn: Turn, before: GameState, after: GameState) -> str:
    """A turn in words: a draw written ``"?"`` names the tile the pool gave, where the
    drawer's rack is known."""
    from collections import Counter

    if isinstance(turn, Draw) and turn.tile is None:
        seat = before.to_move
        rack, old = after.racks[seat], before.racks[seat]
        if rack is not None and old is not None:
            drawn = Counter(rack) - Counter(old)
            return describe(Draw(next(iter(drawn))), before)
    return describe(turn, before)


def variation(data: Any) -> dict[str, Any]:
    """``/api/game/variation``: the record played as it was up to turn ``turn``, then
    ``moves`` (a variation's moves, as a record writes them) instead of its turns from
    there; the position reached, and its candidates in win probability (each with its
    ``move`` to play on), as ``rummikub game hint --equity`` weighs them; playouts the
    time limit would cut short give no figure (:class:`~rummikub.play.equity.Stopped`, the
    server's 503)."""
    from rummikub.tiles.game.annotate import variation_turn
    from rummikub.tiles.game.equity import evaluate
    from rummikub.tiles.game.record import move_data

    request = _keys(data, VARIATION_KEYS)
    record = _record(request)
    turn = _whole(request, "turn", 1, len(record.turns) + 1, len(record.turns) + 1)
    moves = request.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, Mapping) for m in moves):
        raise _bad('moves: expected a list of moves such as {"play": ["R1-3"]} or {"draw": "?"}')
    budget = _budget(request)
    raw = to_data(record)
    raw["turns"] = [*raw["turns"][: turn - 1], *moves]
    raw.pop("result", None)
    try:
        line = from_data(raw, "variation")
    except RecordError as error:
        raise RequestError(422, str(error).splitlines()) from None
    if line.problem is not None:
        raise RequestError(422, [line.problem])
    game = replay(line)
    if game.problem is not None:
        raise RequestError(422, [game.problem])
    state = game.state
    seat = state.to_move
    turns = [
        {
            "turn": number,
            "player": line.players[game.states[number - 1].to_move],
            "text": _said(line.turns[number - 1], game.states[number - 1], game.states[number]),
        }
        for number in range(turn, len(line.turns) + 1)
    ]
    found: dict[str, Any] = {
        "turn": state.turns + 1,
        "to_move": seat,
        "player": line.players[seat],
        "over": state.over,
        "result": None if state.result is None else state.result.to_data(),
        "rack_counts": list(state.rack_counts),
        "pool": state.pool_count,
        "turns": turns,
        **_position_data(state, seat),
        "candidates": [],
        "win": None,
    }
    if state.over or state.racks[seat] is None:
        return found
    position, view = view_of(state, seat)
    equity = evaluate(position, view, budget)
    found["win"] = round(equity.win, 4)
    found["candidates"] = [
        {
            "label": c.label,
            "played": [str(t) for t in sorted(c.move.played, key=state.rules.sort_key)],
            "table": [[str(t) for t in m.tiles] for m in c.move.table],
            "win": round(c.win, 4),
            "ci": [round(x, 4) for x in c.ci],
            "move": move_data(variation_turn(c.move, state)),
        }
        for c in equity.candidates
    ]
    return found
