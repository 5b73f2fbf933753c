"""The web page's equity review and variations (``/api/game/review`` with ``equity``,
``/api/game/variation``): the command line's figures, a few turns at a time."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient

from rummikub.play.equity import Stopped
from rummikub.tiles.game.equity import Budget
from rummikub.tiles.game.record import Record, from_data, to_data
from rummikub.tiles.game.review import equity_review
from rummikub.tiles.game.simulate import play_game
from rummikub.tiles.game.strategies import best, equity_v1
from rummikub.tiles.rules import Rules
from rummikub.web import Limits, create_app

#: The README's review game (docs/players.md, "The game review"): 15 turns, turn 5 ``?!``.
RULES = Rules(numbers=7, colors="KRB", copies=1, jokers=0, initial_meld=0)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Limits(time_limit=10.0)))


@pytest.fixture(scope="module")
def record() -> Record:
    found, _ = play_game(RULES, [best, equity_v1], 1, rack_size=6, names=["best", "equity"])
    return found


def post(client: TestClient, path: str, body: Any, status: int = 200) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    return data


def test_the_review_in_parts_gives_the_command_lines_marks_and_lines(
    client: TestClient, record: Record
) -> None:
    whole = equity_review(record, "record", Budget(samples=6, rounds=1)).to_data()
    data = to_data(record)
    first = post(client, "/api/game/review", {"record": data, "equity": True, "last": 5})
    assert (first["first"], first["done"], first["total"]) == (1, 5, 15)
    rest = post(
        client,
        "/api/game/review",
        {"record": data, "equity": True, "first": 6, "reviewed": first["turns"]},
    )
    assert (rest["first"], rest["done"]) == (6, 15)
    turns = first["turns"] + rest["turns"]
    keys = ("turn", "win", "played_win", "lost", "mark", "graded", "luck", "best")
    assert [{k: t[k] for k in keys} for t in turns] == [
        {k: t[k] for k in keys} for t in whole["turns"]
    ]
    assert rest["players"] == whole["players"]
    fifth = turns[4]
    assert fifth["mark"] == "?!" and fifth["key"]
    assert fifth["accuracy"] == 76.3
    # The positions before and after: the mover's rack less the tiles laid.
    assert fifth["after"]["table"][-1] == fifth["played"] == ["K6", "R6", "B6"]
    assert len(fifth["before"]["rack"]) == len(fifth["after"]["rack"]) + 3
    assert [t["turn"] for t in turns if t["key"]] == [2, 3, 5]
    # Each turn in words, every tile drawn named (the record knows them all).
    assert [t["text"] for t in turns[1:5]] == [
        "drew R1",
        "drew R6",
        "played K1 R1 B1",
        "played K6 R6 B6",
    ]


def test_a_review_stops_between_turns_when_time_is_short(record: Record) -> None:
    from rummikub.core import deadline
    from rummikub.web.games import review

    # No time at all (the request's deadline, as the server sets it): not one turn can be
    # judged whole, so no figure at all (the server's 503), never a turn's partial one.
    with deadline.limit(1e-9), pytest.raises(Stopped):
        review({"record": to_data(record), "equity": True}, Limits(time_limit=10.0))
    # A short limit, not yet passed: the part stops between turns, after one judged whole.
    found = review({"record": to_data(record), "equity": True, "first": 3}, Limits(time_limit=0.01))
    assert found["first"] == found["done"] == 3 and "cut" not in found["turns"][0]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"first": 2}, "first: only with equity"),
        ({"equity": True, "first": 16}, "first: expected a whole number 1-15"),
        ({"equity": True, "samples": 0}, "samples: expected a whole number 1-64"),
        ({"equity": True, "reviewed": [{"seat": 5}]}, "reviewed[0].seat: expected a seat 0-1"),
        ({"equity": True, "reviewed": [{"seat": 0, "graded": True, "lost": 2}]}, "lost"),
    ],
)
def test_bad_review_requests_are_refused_in_one_line(
    client: TestClient, record: Record, body: dict[str, Any], message: str
) -> None:
    answer = post(client, "/api/game/review", {"record": to_data(record), **body}, 400)
    assert message in answer["error"] and "\n" not in answer["error"]


def test_play_a_candidate_on_and_save_the_line_as_a_variation(
    client: TestClient, record: Record
) -> None:
    data = to_data(record)
    at = post(client, "/api/game/variation", {"record": data, "turn": 5})
    assert at["turn"] == 5 and at["player"] == "best" and at["turns"] == []
    assert [c["label"] for c in at["candidates"]] == ["draw", "best"]
    assert at["candidates"][0]["move"] == {"draw": "?"}
    # Two moves deep: the draw the review liked, then the next player's best candidate.
    drew = post(
        client, "/api/game/variation", {"record": data, "turn": 5, "moves": [{"draw": "?"}]}
    )
    assert drew["turn"] == 6 and drew["player"] == "equity"
    line = [{"draw": "?"}, drew["candidates"][0]["move"]]
    deeper = post(client, "/api/game/variation", {"record": data, "turn": 5, "moves": line})
    assert deeper["turn"] == 7 and [t["turn"] for t in deeper["turns"]] == [5, 6]
    assert deeper["turns"][0]["text"].startswith("drew ")
    # The line saved in the record's variations reads back as the record's own.
    data["turns"][4]["variations"] = [{"comment": "keep the sixes", "moves": line}]
    saved = from_data(json.loads(json.dumps(data)), "record")
    note = saved.note(5)
    assert note is not None and note.variations[0].comment == "keep the sixes"
    assert len(note.variations[0].moves) == 2


def test_a_variation_that_does_not_replay_is_refused(client: TestClient, record: Record) -> None:
    data = to_data(record)
    answer = post(
        client,
        "/api/game/variation",
        {"record": data, "turn": 5, "moves": [{"play": ["K1 R1 B1 O1"]}]},
        422,
    )
    assert "turn 5" in answer["error"]
