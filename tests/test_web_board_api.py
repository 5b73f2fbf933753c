"""The board's own routes through Starlette's TestClient: games against the solver players
(``/api/game/...``), the card rummies (``/api/cards/...``) and the favicon. Answers are the
command line's JSON where there is one; bad input is a 400 or 422 with the error JSON of
every other route, never a crash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient

from rummikub.cli import main
from rummikub.tiles.game.engine import replay
from rummikub.tiles.game.record import dumps, from_data
from rummikub.web import Limits, create_app

REPO = Path(__file__).resolve().parent.parent
TAKE_FIVE = REPO / "puzzles" / "cards" / "500-rum-take-five.toml"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Limits(time_limit=10.0)))


def ok(client: TestClient, path: str, body: Any) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def refused(client: TestClient, path: str, body: Any, status: int) -> str:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    data = response.json()
    assert set(data) == {"error", "errors"}
    assert data["error"] == "\n".join(data["errors"])
    message: str = data["error"]
    return message


@pytest.fixture(scope="module")
def new_game(client: TestClient) -> dict[str, Any]:
    return ok(client, "/api/game/new", {"opponents": ["best", "casual"], "seed": 11})


# -- games ------------------------------------------------------------------------------------


def test_a_new_game_is_dealt_by_its_seed(client: TestClient, new_game: dict[str, Any]) -> None:
    game = new_game["game"]
    assert game["players"] == ["you", "best", "casual"]
    assert game["your_turn"] and game["to_move"] == 0 and game["turn"] == 1
    assert len(game["rack"]) == 14 and game["rack_counts"] == [14, 14, 14]
    assert game["pool"] == 106 - 3 * 14
    assert game["notation"].startswith("- / ") and game["notation"].endswith("/ not-opened")
    assert new_game["record"]["format"] == "rummikub-game/1"
    assert new_game["record"]["seed"] == 11
    # The same request, the same game; another seed, another deal.
    assert ok(client, "/api/game/new", {"opponents": ["best", "casual"], "seed": 11}) == new_game
    other = ok(client, "/api/game/new", {"opponents": ["best", "casual"], "seed": 12})
    assert other["game"]["rack"] != game["rack"]


def test_draw_lets_the_solver_players_answer(client: TestClient, new_game: dict[str, Any]) -> None:
    after = ok(client, "/api/game/draw", {"record": new_game["record"]})
    game = after["game"]
    assert game["turn"] == 4 and game["your_turn"]
    turns = game["turns"]
    assert [t["seat"] for t in turns] == [0, 1, 2]
    drawn = new_game["record"]["deal"]["pool"].split()[0]
    assert turns[0]["text"] == f"drew {drawn}"
    assert len(game["rack"]) == 15
    # Another player's draw shows no tile.
    assert all(t["text"] == "drew a tile" for t in turns[1:] if t["text"].startswith("drew"))
    # The record it gives back replays to the same state.
    state = replay(from_data(after["record"])).state
    assert state.turns == 3 and [str(t) for t in state.racks[0] or ()] == game["rack"]


def test_hint_move_undo_and_review(client: TestClient) -> None:
    # Draw until the hint finds a play, then play it.
    answer = ok(client, "/api/game/new", {"opponents": ["best"], "seed": 3})
    for _ in range(12):
        hint = ok(client, "/api/game/hint", {"record": answer["record"]})
        if hint["played"]:
            break
        answer = ok(client, "/api/game/draw", {"record": answer["record"]})
    else:
        pytest.fail("no play in twelve turns")
    assert hint["status"] == "optimal" and hint["steps"]
    assert hint["notation"] == answer["game"]["notation"]
    played = ok(
        client, "/api/game/move", {"record": answer["record"], "tiles": " ".join(hint["played"])}
    )
    mine = [t for t in played["game"]["turns"] if t["seat"] == 0]
    assert mine[-1]["text"] == "played " + " ".join(hint["played"])
    assert played["game"]["opened"][0]
    # Undo: back to before that play, the solver's answer gone too.
    undone = ok(client, "/api/game/undo", {"record": played["record"]})
    assert undone["game"] == answer["game"] | {"undo": answer["game"]["undo"]}
    # The review grades every turn; the person's last play was the best.
    review = ok(client, "/api/game/review", {"record": played["record"]})
    assert review["graded"] == len(review["turns"]) == len(played["record"]["turns"])
    last_mine = [t for t in review["turns"] if t["player"] == "you"][-1]
    assert last_mine["move"] == "play" and last_mine["grade"]["best"]
    assert (
        review["turns"][0]["notation"]
        == ok(client, "/api/game/new", {"opponents": ["best"], "seed": 3})["game"]["notation"]
    )


def test_a_record_loads_from_its_text_or_data(client: TestClient, new_game: dict[str, Any]) -> None:
    after = ok(client, "/api/game/draw", {"record": new_game["record"]})
    record = from_data(after["record"])
    for text in (dumps(record), dumps(record, "json")):
        assert ok(client, "/api/game/load", {"text": text}) == after
    assert ok(client, "/api/game/load", {"record": after["record"]}) == after


def test_bad_game_requests_are_messages(client: TestClient, new_game: dict[str, Any]) -> None:
    record = new_game["record"]
    rack = new_game["game"]["rack"]
    missing = next(t for t in ("O13", "O12", "O11", "B13") if t not in rack)
    message = refused(client, "/api/game/move", {"record": record, "tiles": missing}, 422)
    assert message == f"not in your rack: {missing}"
    assert "Q5" in refused(client, "/api/game/move", {"record": record, "table": "Q5 Q6 Q7"}, 422)
    assert "either tiles" in refused(client, "/api/game/move", {"record": record}, 400)
    assert refused(client, "/api/game/undo", {"record": record}, 422).startswith("nothing to undo")
    assert "unknown player 'genius'" in refused(
        client, "/api/game/new", {"opponents": ["genius"]}, 422
    )
    assert "opponents" in refused(client, "/api/game/new", {"opponents": []}, 400)
    assert "seed" in refused(client, "/api/game/new", {"seed": -1}, 400)
    assert "unknown key 'colour'" in refused(client, "/api/game/new", {"colour": 1}, 400)
    assert refused(client, "/api/game/draw", {}, 400) == "record: the game's record is missing"
    assert "players" in refused(client, "/api/game/draw", {"record": {"format": 1}}, 422)
    bad_turn = json.loads(json.dumps(record))
    bad_turn["turns"] = [{"player": 0, "draw": "O13" if rack[0] != "O13" else "O12"}]
    assert "turn 1" in refused(client, "/api/game/draw", {"record": bad_turn}, 422)
    assert "record" in refused(client, "/api/game/load", {"text": "players = 3"}, 422)
    stranger = json.loads(json.dumps(record))
    stranger["players"][1] = "Alice"
    assert "not a solver player" in refused(client, "/api/game/draw", {"record": stranger}, 422)


# -- the card rummies ---------------------------------------------------------------------


def card_cli_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, list(args))
    data: dict[str, Any] = json.loads(result.stdout)
    data.pop("seconds", None)
    return data


def test_cards_solve_answers_as_the_command_line(client: TestClient) -> None:
    body = {
        "game": "500-rum",
        "hand": "6H 7H KC 2C",
        "table": ["QS QC QH"],
        "discard": ["5C", "8H", "KS"],
        "drawn": False,
    }
    answer = ok(client, "/api/cards/solve", body)
    answer.pop("seconds")
    from rummikub.cards.puzzles import load

    puzzle = load(str(TAKE_FIVE))
    expected = card_cli_json("solve", str(TAKE_FIVE), "--json", "--explain")
    file_answer = ok(
        client,
        "/api/cards/solve",
        {
            "game": puzzle.position.rules.game,
            "hand": " ".join(str(c) for c in puzzle.position.hand),
            "table": [str(m) for m in puzzle.position.table],
            "discard": [str(c) for c in puzzle.position.discard],
            "drawn": puzzle.position.drawn,
        },
    )
    file_answer.pop("seconds")
    assert file_answer == {**expected, "puzzle": None}
    assert answer["game"] == "500-rum" and answer["points"] == 21 and answer["draw"] == 1


def test_cards_check_and_bad_card_requests(client: TestClient) -> None:
    position = {"game": "rummy", "hand": "7S 8S 9S KH 2C", "table": ["7H 7D 7C"]}
    verdict = ok(
        client,
        "/api/cards/check",
        {**position, "after": "7H 7D 7C | 7S 8S 9S", "after_discard": "KH"},
    )
    assert verdict["legal"] and verdict["points"] == 24 and verdict["penalty"] == 2
    broken = ok(client, "/api/cards/check", {**position, "after": ["7H 7D 7C", "7S 8S KH"]})
    assert not broken["legal"] and broken["violations"]
    assert list(broken) == [
        *("legal", "errors", "points", "penalty", "played", "layoffs", "violations"),
    ]
    assert "unknown suit 'X'" in refused(
        client, "/api/cards/check", {**position, "after": "7X"}, 422
    )
    assert "after" in refused(client, "/api/cards/check", position, 400)
    assert "game" in refused(client, "/api/cards/solve", {"hand": "7S"}, 400)
    message = refused(client, "/api/cards/solve", {"game": "poker", "hand": "7S"}, 422)
    assert message.startswith("request: ") and "poker" in message
    assert "1X" in refused(client, "/api/cards/solve", {"game": "rummy", "hand": "7S 1X"}, 422)
    assert "time_limit" in refused(
        client, "/api/cards/solve", {"game": "rummy", "hand": "7S", "time_limit": 0}, 400
    )


def test_the_favicon_and_the_page_s_files(client: TestClient) -> None:
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg")
    page = client.get("/").text
    for name in ("app.js", "i18n.js", "game.js", "cards.js", "app.css"):
        assert f"/static/{name}" in page
        assert client.get(f"/static/{name}").status_code == 200


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_a_draw_undone_is_the_game_dealt(seed: int) -> None:
    client = TestClient(create_app(Limits(time_limit=10.0)))
    dealt = ok(client, "/api/game/new", {"opponents": ["casual"], "seed": seed})
    assert ok(client, "/api/game/load", {"record": dealt["record"]}) == dealt
    drawn = ok(client, "/api/game/draw", {"record": dealt["record"]})
    assert len(drawn["record"]["turns"]) == len(dealt["record"]["turns"]) + 2
    assert ok(client, "/api/game/undo", {"record": drawn["record"]}) == dealt


def test_a_seat_cut_short_by_the_time_limit_records_nothing(new_game: dict[str, Any]) -> None:
    # Under a limit no solve can meet, the seat's solve is cut short: recorded, it would be
    # a draw the seat never chose. The request is refused and the page keeps its record.
    hurried = TestClient(create_app(Limits(time_limit=1e-9)))
    message = refused(hurried, "/api/game/draw", {"record": new_game["record"]}, 503)
    assert (
        "seat 1 (best)" in message and "time limit" in message and "nothing was recorded" in message
    )
    # The same request within a limit it meets: the seats move as before.
    within = TestClient(create_app(Limits(time_limit=10.0)))
    assert len(ok(within, "/api/game/draw", {"record": new_game["record"]})["record"]["turns"]) > 1
