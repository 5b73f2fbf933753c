"""Every estimate knows how much work it did: a time limit or a stop signal cuts the playouts
between deals, the answer says so (``"status": "stopped"``, the playouts done, no advice),
and no playout a cut-short solve spoiled is ever scored.

On the game layer (the race of tests/test_play_equity.py), the tiles and the cards (the
library, the command line), and the web server (its time limit, a client that goes away,
and its own error answers, which must never raise out of the app).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from rummikub.cli import main
from rummikub.core import deadline
from rummikub.play import equity as play_equity
from rummikub.play import review
from rummikub.play.equity import Budget, Stopped, play_out
from rummikub.tiles.game.position_equity import equity
from rummikub.tiles.notation import parse_position
from tests.test_play_equity import CANDIDATES, VIEW, Race, RaceSearch
from tests.tools import RunsOutAfter

#: The position of the report that found the playouts scored after the deadline.
REPORTED = (
    "R1-4 | K7 R7 B7 | B9 B10 B11 | O5 O6 O7 | K10-13 | R12 B12 O12 / "
    "K1 K3 K5 K8 R5 R6 R9 B3 B4 B13 O1 O9 O10 J"
)


def _stop_after(playouts: int) -> tuple[threading.Event, Any]:
    """An event, and a progress callback that sets it once ``playouts`` are done."""
    stop = threading.Event()

    def progress(done: int, total: int) -> None:
        if done >= playouts:
            stop.set()

    return stop, progress


# -- the game layer ------------------------------------------------------------------------


def test_a_stop_between_deals_leaves_every_candidate_the_same_deals() -> None:
    budget = Budget(samples=6, rounds=2)
    whole = play_out(RaceSearch(), VIEW, CANDIDATES, budget, seed=3)
    # Stopped once 5 playouts are done: deals 0 and 1 are whole (4 playouts), deal 2 was cut
    # after its first candidate and is dropped.
    stop, progress = _stop_after(5)
    with deadline.stop_when(stop):
        cut = play_out(
            RaceSearch(), VIEW, CANDIDATES, budget, seed=3, progress=progress, partial=True
        )
    assert [o.samples for o in cut] == [2, 2]
    assert all(o.stopped for o in cut) and not any(o.stopped for o in whole)
    # The deals kept are scored exactly as in the whole run: nothing invented.
    assert [o.wins for o in cut] == [o.wins[:2] for o in whole]
    # Without partial, or with no deal done, nothing is answered.
    stop, progress = _stop_after(5)
    with deadline.stop_when(stop), pytest.raises(Stopped, match="after 2 of 6 playouts"):
        play_out(RaceSearch(), VIEW, CANDIDATES, budget, seed=3, progress=progress)
    with deadline.limit(1e-9), pytest.raises(Stopped, match="time limit ran out after 0 of 6"):
        time.sleep(0.001)
        play_out(RaceSearch(), VIEW, CANDIDATES, budget, seed=3, partial=True)


@dataclass(frozen=True)
class SpoiledSearch(RaceSearch):
    """A race whose playout number ``on_call`` is cut short by the stop (as a solve answers
    "no move" for want of time, which a playout would take for a real move)."""

    stop: threading.Event = field(default_factory=threading.Event)
    on_call: int = 0
    calls: list[int] = field(default_factory=list)

    def playout(self, state: Race, rounds: int, explore: float, rng: Any) -> Race:
        self.calls.append(1)
        if len(self.calls) == self.on_call:
            self.stop.set()
            return state  # nobody moved: the spoiled playout
        return super().playout(state, rounds, explore, rng)


def test_a_playout_the_stop_cut_is_never_scored() -> None:
    budget = Budget(samples=4, rounds=3)
    whole = play_out(RaceSearch(), VIEW, CANDIDATES, budget, seed=5)
    spoiled = SpoiledSearch(on_call=4)
    # The 4th playout (deal 1, second candidate) is the spoiled one: deal 1 is dropped.
    with deadline.stop_when(spoiled.stop):
        cut = play_out(spoiled, VIEW, CANDIDATES, budget, seed=5, partial=True)
    assert [o.wins for o in cut] == [o.wins[:1] for o in whole]


def test_the_luck_is_all_or_nothing() -> None:
    stop = threading.Event()
    stop.set()
    with deadline.stop_when(stop), pytest.raises(Stopped):
        review.draw_equities(
            RaceSearch(), VIEW, [1, 2], lambda deal, face: deal, Budget(samples=2), seed=1
        )


# -- tiles: the library and the command line ----------------------------------------------


def test_a_stopped_tile_equity_says_so_and_advises_nothing() -> None:
    position = parse_position(REPORTED)
    whole = equity(position, playouts=6, rounds=1, top=1, seed=4)
    stop, progress = _stop_after(2 * len(whole.candidates) + 1)
    found = equity(position, playouts=6, rounds=1, top=1, seed=4, stop=stop, progress=progress)
    assert found.stopped and not whole.stopped
    assert found.playouts == 2 and {c.samples for c in found.candidates} == {2}
    assert found.advice() is None
    data = found.to_data()
    assert data["status"] == "stopped" and data["stopped_by"] == "stop"
    assert data["playouts_done"] == 2 and data["playouts"] == 6 and data["advice"] is None
    assert {c["playouts"] for c in data["candidates"]} == {2}
    assert "status" not in whole.to_data()  # nothing cut: the JSON as it always was
    # Each candidate's playouts are the whole run's first two, not playouts nobody moved in.
    by_label = {c.label: c for c in whole.candidates}
    for c in found.candidates:
        assert c.lead == pytest.approx(_first_leads(position, c.label, 2))
        assert c.samples == 2 and by_label[c.label].samples == 6


def _first_leads(position: Any, label: str, n: int) -> float:
    found = equity(position, playouts=n, rounds=1, top=1, seed=4)
    return next(c.lead for c in found.candidates if c.label == label)


def test_a_tile_equity_with_nothing_done_is_refused() -> None:
    position = parse_position(REPORTED)
    with pytest.raises(Stopped, match="0 of 48 playouts"):
        equity(position, time_limit=1e-6)
    with pytest.raises(ValueError, match="time_limit"):
        equity(position, time_limit=-1)


def test_a_strategy_never_moves_on_unfinished_work() -> None:
    from rummikub.tiles.game.equity import equity as equity_strategy
    from rummikub.tiles.game.position_equity import view_for

    position = parse_position(REPORTED)
    stop = threading.Event()
    stop.set()  # the client went away before the seat's turn
    with deadline.stop_when(stop), pytest.raises(Stopped) as stopped:
        equity_strategy(position, view_for(position))
    assert stopped.value.stopped and stopped.value.done == 0


def test_the_command_line_says_it_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    # The playouts' clock alone runs out, at its 11th look: after the first deal or two
    # (the analysis's own solves are not cut).
    looks = [0]

    def passed() -> bool:
        looks[0] += 1
        return looks[0] > 10

    clock = SimpleNamespace(
        passed=passed, stopped=lambda: False, limit=deadline.limit, stop_when=deadline.stop_when
    )
    monkeypatch.setattr(play_equity, "deadline", clock)
    args = ["analyse", "--position", REPORTED, "--equity", "--playouts", "8", "--rounds", "1"]
    result = CliRunner().invoke(main, [*args, "--no-color"])
    assert result.exit_code == 3, result.output
    assert re.search(
        r"Stopped early after [1-7] of 8 playouts per candidate \(the time", result.stdout
    )
    assert "Laying the most" not in result.stdout and "Evaluation" not in result.stdout
    looks[0] = 0
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 3
    found = json.loads(result.stdout)["equity"]
    assert found["status"] == "stopped" and found["advice"] is None
    assert 1 <= found["playouts_done"] < 8


def test_the_command_line_time_limit_covers_the_playouts() -> None:
    args = ["analyse", "--position", REPORTED, "--equity", "--time-limit", "0.001"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 3
    assert "the time limit ran out after 0 of 48 playouts" in result.stderr
    assert "Traceback" not in result.output


# -- cards ---------------------------------------------------------------------------------


def test_a_stopped_card_equity_says_so() -> None:
    from rummikub.cards.game.position_equity import equity as card_equity
    from rummikub.cards.game.position_equity import equity_text
    from rummikub.cards.puzzles import from_data

    position = from_data({"game": "rummy", "hand": "7S 8S 9S KH KD 2C 4D"}, "x").position
    whole = card_equity(position, playouts=4, rounds=1, seed=1)
    stop, progress = _stop_after(2 * len(whole.candidates) + 1)
    found = card_equity(position, playouts=4, rounds=1, seed=1, stop=stop, progress=progress)
    assert found.stopped and found.playouts == 2 and not whole.stopped
    data = found.to_data()
    assert data["status"] == "stopped" and data["playouts_done"] == 2
    assert {c["playouts"] for c in data["candidates"]} == {2}
    assert "status" not in whole.to_data()
    assert "Stopped early after 2 of 4 playouts" in equity_text(found)
    assert "Evaluation" not in equity_text(found)


def test_the_card_command_line_says_it_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    looks = [0]

    def passed() -> bool:  # the playouts' clock runs out at its 8th look
        looks[0] += 1
        return looks[0] > 7

    clock = SimpleNamespace(
        passed=passed, stopped=lambda: False, limit=deadline.limit, stop_when=deadline.stop_when
    )
    monkeypatch.setattr(play_equity, "deadline", clock)
    args = ["analyse", "--game", "rummy", "--hand", "7S 8S 9S 4H 4C", "--table", "10S JS QS"]
    result = CliRunner().invoke(main, [*args, "--opened", "--equity", "--playouts", "6"])
    assert result.exit_code == 3, result.output
    assert re.search(r"Stopped early after [1-5] of 6 playouts per candidate", result.stdout)
    args = [*args, "--opened", "--equity", "--time-limit", "0.0001"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 3
    assert "the time limit ran out after 0 of 24 playouts" in result.stderr


# -- the web server ------------------------------------------------------------------------

starlette = pytest.importorskip("starlette", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient  # noqa: E402

from rummikub.web import Limits, create_app  # noqa: E402
from rummikub.web.api import RequestError  # noqa: E402


def test_the_board_under_a_short_time_limit_says_it_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The time limit runs out a few deals into the playouts: the server stops them, and says
    # so, instead of scoring playouts nobody moved in.
    monkeypatch.setattr(play_equity, "deadline", RunsOutAfter(calls=60))
    client = TestClient(create_app(Limits(time_limit=600.0)))
    response = client.post("/api/analyse", json={"position": REPORTED, "equity": True})
    assert response.status_code == 200, response.text
    found = response.json()["equity"]
    assert found["status"] == "stopped" and found["stopped_by"] == "time limit"
    assert 1 <= found["playouts_done"] < found["playouts"] == 48
    assert {c["playouts"] for c in found["candidates"]} == {found["playouts_done"]}
    assert found["advice"] is None


def test_nothing_done_in_time_is_a_503() -> None:
    client = TestClient(create_app(Limits(time_limit=0.01)))
    response = client.post("/api/analyse", json={"position": REPORTED, "equity": True})
    assert response.status_code == 503, response.text
    found = response.json()
    assert found["error"].startswith("equity: the time limit ran out after 0 of 48")
    # The same keys as an estimate cut later, for a client to act on.
    assert (found["stopped_by"], found["playouts_done"], found["playouts"]) == (
        "time limit",
        0,
        48,
    )


def test_the_most_work_a_request_may_ask_fits_the_time_limit() -> None:
    client = TestClient(create_app(Limits(time_limit=10.0)))
    big = {"position": REPORTED, "equity": {"playouts": 200, "rounds": 20}}
    response = client.post("/api/analyse", json=big)
    assert response.status_code == 422
    assert "28000 playout rounds, more than this server's time limit" in response.text
    # A longer time limit allows more; the defaults are always allowed.
    from rummikub.web.api import most_playout_rounds

    assert most_playout_rounds(Limits(time_limit=120.0)) == 14_400
    assert most_playout_rounds(Limits(time_limit=1.0)) == 48 * 3 * 7


def _scope(path: str) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"localhost"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 1234),
        "server": ("127.0.0.1", 8000),
    }


async def _request(app: Any, path: str, data: Any, leave_after: float | None) -> int:
    """One request straight to the ASGI app; its client goes away after ``leave_after``
    seconds (None: it waits for the answer). The answer's status (0: none)."""
    body = [{"type": "http.request", "body": json.dumps(data).encode(), "more_body": False}]
    status = [0]

    async def receive() -> dict[str, Any]:
        if body:
            return body.pop()
        if leave_after is None:
            await asyncio.Event().wait()
        await asyncio.sleep(leave_after or 0)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status[0] = message["status"]

    await app(_scope(path), receive, send)
    return status[0]


def test_a_client_that_leaves_frees_its_slot_at_once() -> None:
    # One worker; a long analysis (some 30 s of playouts) whose client leaves after 0.3 s,
    # then a tiny request that waits for the slot: it is answered within a second or so.
    # (The old code went on playing out with every solve cut short: 8 s and more.)
    app = create_app(Limits(time_limit=120.0), workers=1)
    big = {"position": REPORTED, "equity": {"playouts": 200, "rounds": 10}}

    async def both() -> tuple[float, int]:
        leaving = asyncio.ensure_future(_request(app, "/api/analyse", big, 0.3))
        await asyncio.sleep(0.1)
        started = time.perf_counter()
        status = await _request(app, "/api/position", {"position": "R1-3 / R4"}, None)
        waited = time.perf_counter() - started
        await leaving
        return waited, status

    waited, status = asyncio.run(both())
    assert status == 200
    assert waited < 2.0, waited


# -- nothing leaves the app: no "Exception in ASGI application" in the server's log --------


def _guarded(failure: BaseException) -> Any:
    from rummikub.web.app import Guard

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise failure

    return Guard(app, Limits(), None)


@pytest.mark.parametrize(
    "failure",
    [
        RequestError(422, ["record: unknown key 'X\ud800'"]),  # a lone surrogate quoted
        RuntimeError("a bug"),
    ],
)
def test_the_guards_own_answer_cannot_raise(failure: Exception) -> None:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {**_scope("/api/game/load"), "method": "GET"}
    asyncio.run(_guarded(failure)(scope, receive, send))
    assert sent[0]["status"] in (422, 500)
    assert json.loads(sent[1]["body"])["errors"]

    async def gone(message: dict[str, Any]) -> None:
        raise OSError("the connection is closed")

    asyncio.run(_guarded(failure)(scope, receive, gone))  # nothing escapes
