"""What the web API does with a request, apart from HTTP: read the position, solve or check,
and answer with the command line's JSON (plus ``"svg"`` when asked).

Plain functions of JSON data, run in worker threads (solving is CPU work and must not hold
up the event loop). A problem with the request raises :class:`RequestError` carrying the
HTTP status and the same messages as the command line gives.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rummikub.core.documents import describe, quote
from rummikub.core.errors import NotationError, PositionError, PuzzleError, RummikubError
from rummikub.render.data import result_data, verdict_data
from rummikub.tiles.melds import Meld, RawMeld
from rummikub.tiles.notation import parse_meld, parse_melds, parse_position
from rummikub.tiles.position import Position
from rummikub.tiles.puzzles import from_data
from rummikub.tiles.rules import Rules, read_rules

__all__ = ["Limits", "RequestError", "analyse", "check", "read_position", "solve"]

#: What names the request's position in messages (the command line says "command line").
REQUEST = "request"
#: The keys of a request besides the position's own.
POSITION_KEYS = ("position", "rack", "table", "opened")
SOLVE_KEYS = (*POSITION_KEYS, "rules", "objective", "time_limit", "explain", "svg")
CHECK_KEYS = (*POSITION_KEYS, "rules", "after", "explain", "svg")
PARSE_KEYS = (*POSITION_KEYS, "rules", "svg")


@dataclass(frozen=True, slots=True)
class Limits:
    """What one request may ask of the server."""

    #: Seconds a solve may take (a request may ask for less, never more).
    time_limit: float = 10.0
    #: Bytes of a request body.
    body_bytes: int = 64_000
    #: Seconds a client may take to send a request (its headers, then its body).
    read_seconds: float = 10.0


class RequestError(Exception):
    """A request the API rejects: 400 (not the expected JSON) or 422 (a position or move
    that cannot be read), with every problem in words."""

    def __init__(
        self, status: int, problems: list[str], details: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__("\n".join(problems))
        self.status = status
        self.problems = problems
        #: More keys of the answer, for a client to act on (an estimate cut short: how far
        #: it got, and why).
        self.details = dict(details or {})

    def data(self) -> dict[str, Any]:
        return {"error": "\n".join(self.problems), "errors": self.problems, **self.details}


def _bad(message: str) -> RequestError:
    return RequestError(400, [message])


def _keys(data: Any, known: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise _bad("expected a JSON object")
    unknown = [key for key in data if key not in known]
    if unknown:
        raise _bad(f"unknown key {unknown[0]!r} (expected one of {', '.join(known)})")
    return data


def _flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise _bad(f"{key}: expected true or false")
    return value


def _rules(data: Mapping[str, Any]) -> Rules:
    raw = data.get("rules", {})
    if not isinstance(raw, Mapping):
        raise _bad('rules: expected an object such as {"preset": "standard"}')
    # Read as a puzzle file's [rules] is: every problem at once, each with its option.
    reading = read_rules(raw)
    if reading.rules is None:
        raise RequestError(422, list(reading.problems))
    return reading.rules


def read_position(data: Mapping[str, Any]) -> Position:
    """The request's position: ``"position"`` in one line, or ``"rack"`` and ``"table"``
    (and ``"opened"``) as in a puzzle file, under ``"rules"``."""
    rules = _rules(data)
    if "position" in data:
        text = data["position"]
        if not isinstance(text, str):
            raise _bad('position: expected a string such as "R1-3 | KRB7 / R4 K7 O7"')
        if any(key in data for key in ("rack", "table", "opened")):
            raise _bad("give either position or rack/table/opened, not both")
        try:
            return parse_position(text, rules)
        except (NotationError, PositionError) as error:
            raise RequestError(422, [f"position {quote(text)}: {error}"]) from None
    if "rack" not in data:
        raise _bad('expected a position: "position", or "rack" and "table"')
    puzzle_data = {key: data[key] for key in ("rack", "table", "opened") if key in data}
    try:
        # Checked exactly like a puzzle file: every problem, each with its place.
        puzzle = from_data({**puzzle_data, "rules": _rules_data(data)}, REQUEST)
    except PuzzleError as error:
        raise RequestError(422, [f"{REQUEST}: {p}" for p in error.problems]) from None
    return puzzle.position


def _rules_data(data: Mapping[str, Any]) -> Mapping[str, Any]:
    raw = data.get("rules", {})
    return raw if isinstance(raw, Mapping) else {}


def _after(raw: Any, rules: Rules) -> list[RawMeld]:
    """The proposed table: melds as notation only (the checker judges them)."""
    try:
        if isinstance(raw, str):
            return list(parse_melds(raw, rules))
        if isinstance(raw, list) and all(isinstance(m, str) for m in raw):
            return [parse_meld(m, rules) for m in raw]
    except NotationError as error:
        raise RequestError(422, [f"after {quote(str(raw))}: {error}"]) from None
    raise _bad("after: expected melds, as a string (separated by |) or a list of strings")


# -- the endpoints' work ------------------------------------------------------------------


def parse(data: Any) -> dict[str, Any]:
    """``/api/position``: the position read back, in the shortest notation and as lists."""
    request = _keys(data, PARSE_KEYS)
    position = read_position(request)
    answer: dict[str, Any] = {
        "notation": position.to_notation(),
        "table": [{"kind": m.kind, "tiles": [str(t) for t in m.tiles]} for m in position.table],
        "rack": [str(t) for t in position.rack],
        "opened": position.opened,
    }
    if _flag(request, "svg", False):
        from rummikub.render.svg import position_svg

        answer["svg"] = position_svg(position)
    return answer


def solve(data: Any, limits: Limits) -> dict[str, Any]:
    """``/api/solve``: ``solve --json --explain`` of the position, plus ``"svg"`` if asked."""
    from rummikub.tiles.solver import solve as solve_position

    request = _keys(data, SOLVE_KEYS)
    position = read_position(request)
    objective, time_limit = _solve_options(request, limits)
    result = solve_position(position, objective=objective, time_limit=time_limit)
    answer = result_data(result, None)
    explain = _flag(request, "explain", True)
    want_svg = _flag(request, "svg", False)
    if explain or want_svg:
        from rummikub.tiles.explain import explain as explain_move

        explanation = explain_move(position, result.move)
        if explain:
            answer.update(explanation.to_data())
        if want_svg:
            from rummikub.render.svg import explanation_svg

            answer["svg"] = explanation_svg(explanation, rack=position.rack_sorted())
    return answer


def check(data: Any) -> dict[str, Any]:
    """``/api/check``: ``check --json --explain`` of the proposed table, plus ``"svg"``."""
    from rummikub.tiles.checker import check as check_move

    request = _keys(data, CHECK_KEYS)
    position = read_position(request)
    if "after" not in request:
        raise _bad("after: the proposed new table is missing")
    proposed = _after(request["after"], position.rules)
    verdict = check_move(position, proposed)
    answer = verdict_data(verdict)
    explanation = None
    explain = _flag(request, "explain", True)
    want_svg = _flag(request, "svg", False)
    if verdict.legal and (explain or want_svg):
        from rummikub.tiles.explain import explain as explain_move

        melds = [Meld.of(m.tiles, kind=m.kind, rules=position.rules) for m in proposed]
        explanation = explain_move(position, melds)
        if explain:
            answer.update(explanation.to_data())
    if want_svg:
        from rummikub.render.svg import explanation_svg, proposal_svg

        answer["svg"] = (
            explanation_svg(explanation, rack=position.rack_sorted())
            if explanation is not None
            else proposal_svg(position, [m.tiles for m in proposed], verdict.errors)
        )
    return answer


ANALYSE_KEYS = (
    *POSITION_KEYS,
    "rules",
    "objective",
    "time_limit",
    "top",
    "outs",
    "hold",
    "after",
    "svg",
    "equity",
)
#: The most best moves one request may ask for.
MOST_MOVES = 10
#: The keys of ``/api/analyse``'s ``equity`` object, and the most playouts it may ask for.
EQUITY_KEYS = ("playouts", "rounds", "players", "rack_sizes", "others_opened", "seed", "exact")
MOST_PLAYOUTS = 200
MOST_ROUNDS = 20
#: The playout rounds an equity request may ask for per second of the server's time limit:
#: its ``playouts`` x ``rounds`` (at least 1) x the candidates it may have (``top`` + 4:
#: the most tiles, keeping the jokers, the hold variant, drawing). At the default 10 s a
#: request at the maximum, 1,200 rounds, takes 1-2 s on a standard mid-game position and
#: up to 4.7 s on a hard one, 9.6 s on a busy machine (benchmarks/RESULTS.md, "Equity over
#: the web"): it fits; past the limit it stops early anyway, and says so.
PLAYOUT_ROUNDS_PER_SECOND = 120
#: The candidates besides the ``top`` best moves (see above).
OTHER_CANDIDATES = 4


def _solve_options(request: Mapping[str, Any], limits: Limits) -> tuple[Any, float]:
    objective = request.get("objective", "value")
    if objective not in ("value", "tiles"):
        raise _bad('objective: expected "value" or "tiles"')
    return objective, time_limit_of(request, limits)


def time_limit_of(request: Mapping[str, Any], limits: Limits) -> float:
    """The request's ``time_limit`` (seconds above 0, finite), never above the server's."""
    time_limit = request.get("time_limit", limits.time_limit)
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, int | float)
        or not time_limit > 0
        or (isinstance(time_limit, float) and not math.isfinite(time_limit))
    ):
        raise _bad(
            f"time_limit: expected a finite number of seconds above 0, got {describe(time_limit)}"
        )
    # Compared before float(): an integer of thousands of digits is no float.
    return limits.time_limit if time_limit >= limits.time_limit else float(time_limit)


def analyse(data: Any, limits: Limits) -> dict[str, Any]:
    """``/api/analyse``: ``analyse --json`` of the position (``top`` best moves, ``outs``,
    ``hold``, the grade of ``after``), plus ``"svg"`` (the best move) if asked."""
    from rummikub.tiles.analysis import analyse as analyse_position

    request = _keys(data, ANALYSE_KEYS)
    position = read_position(request)
    objective, time_limit = _solve_options(request, limits)
    options = _equity_options(request)
    top = request.get("top", 1 if options is None else 3)
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MOST_MOVES:
        raise _bad(f"top: expected a whole number 1-{MOST_MOVES}")
    grade = _after(request["after"], position.rules) if "after" in request else None
    found = analyse_position(
        position,
        top=top,
        outs=_flag(request, "outs", False),
        hold=_flag(request, "hold", False),
        grade=grade,
        objective=objective,
        time_limit=time_limit,
    )
    answer: dict[str, Any] = {"puzzle": None, **found.to_data()}
    if options is not None:
        from rummikub.tiles.game.position_equity import equity, view_for

        around = {k: options[k] for k in ("players", "rack_sizes", "others_opened") if k in options}
        try:
            view_for(position, **around)  # the game around it first: its problems come first
            _within_time(options, top, limits)
            answer["equity"] = equity(position, top=top, **options).to_data()
        except (RummikubError, ValueError) as error:
            raise RequestError(422, [f"equity: {error}"]) from None
    if _flag(request, "svg", False):
        from rummikub.render.svg import move_svg

        answer["svg"] = move_svg(position, found.best.table)
    return answer


def playout_rounds(playouts: int, rounds: int, top: int) -> int:
    """The most playout rounds an equity analysis may play: ``playouts`` x ``rounds`` (at
    least 1) x its candidates (at most ``top`` + :data:`OTHER_CANDIDATES`)."""
    return playouts * max(rounds, 1) * (top + OTHER_CANDIDATES)


def most_playout_rounds(limits: Limits) -> int:
    """The playout rounds one equity request may ask for: :data:`PLAYOUT_ROUNDS_PER_SECOND`
    over the server's time limit, and never fewer than the defaults' (``"equity": true``,
    the board's *Chances to win*: under a short time limit they stop early and say so)."""
    from rummikub.tiles.game.position_equity import ANALYSE, DEFAULT_TOP

    default = playout_rounds(ANALYSE.samples, ANALYSE.rounds, DEFAULT_TOP)
    return max(default, math.floor(PLAYOUT_ROUNDS_PER_SECOND * limits.time_limit))


def _within_time(options: Mapping[str, Any], top: int, limits: Limits) -> None:
    """Refuse (422) an equity request that could not end within the server's time limit:
    more playout rounds than :func:`most_playout_rounds`."""
    from rummikub.tiles.game.position_equity import ANALYSE

    playouts = options.get("playouts", ANALYSE.samples)
    rounds = options.get("rounds", ANALYSE.rounds)
    work = playout_rounds(playouts, rounds, top)
    most = most_playout_rounds(limits)
    if work > most:
        raise RequestError(
            422,
            [
                f"equity: {playouts} playouts x {max(rounds, 1)} round(s) x up to "
                f"{top + OTHER_CANDIDATES} candidates is {work} playout rounds, more than "
                f"this server's time limit of {limits.time_limit:g} s allows ({most}): ask "
                "for fewer playouts, rounds or top moves, or start the server with a longer "
                "--time-limit"
            ],
        )


def _whole(raw: Mapping[str, Any], key: str, low: int, high: int | None) -> int | None:
    value = raw.get(key)
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        span = f"{low}-{high}" if high is not None else f"{low} or more"
        raise _bad(f"equity.{key}: expected a whole number {span}, got {describe(value)}")
    return value


def _equity_options(request: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``equity`` key of ``/api/analyse``: false (the default), true (the defaults of
    ``analyse --equity``) or an object of :data:`EQUITY_KEYS`; the keyword arguments of
    :func:`rummikub.tiles.game.position_equity.equity`, or None."""
    raw = request.get("equity", False)
    if raw is False:
        return None
    if raw is True:
        raw = {}
    if not isinstance(raw, Mapping):
        raise _bad('equity: expected true, false or an object such as {"playouts": 48}')
    unknown = [key for key in raw if key not in EQUITY_KEYS]
    if unknown:
        raise _bad(f"equity: unknown key {unknown[0]!r} (expected one of {', '.join(EQUITY_KEYS)})")
    options: dict[str, Any] = {}
    for key, low, high in (
        ("playouts", 1, MOST_PLAYOUTS),
        ("rounds", 0, MOST_ROUNDS),
        ("players", 2, 4),
        ("seed", 0, None),
    ):
        value = _whole(raw, key, low, high)
        if value is not None:
            options[key] = value
    sizes = raw.get("rack_sizes")
    if sizes is not None:
        if not isinstance(sizes, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in sizes
        ):
            raise _bad("equity.rack_sizes: expected a list of whole numbers >= 1, such as [14]")
        options["rack_sizes"] = sizes
    for key in ("others_opened", "exact"):
        if key in raw:
            options[key] = _flag(raw, key, True)
    return options
