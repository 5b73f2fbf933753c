"""The web API through an HTTP client (Starlette's TestClient): the command line's JSON,
its messages for bad input, the limits, several requests at once."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient

from rummikub.cli import main
from rummikub.web import Limits, create_app

REPO = Path(__file__).resolve().parent.parent
TWO_TILES = str(REPO / "puzzles" / "basics" / "two-tiles-fit.toml")
POSITION = "R1-3 | KRB7 | B9 B10 J / R4 K7 O7"
SWAP = "R5 J R7 | KRBO7 | B4-6 / R6 K5 K6 B3"
#: The content type every request body must declare.
JSON_BODY = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Limits(time_limit=5.0, body_bytes=2_000)))


def cli_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, list(args))
    data: dict[str, Any] = json.loads(result.stdout)
    data.pop("seconds", None)
    return data


def without_time(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("seconds", "svg")}


def test_solve_answers_as_the_command_line(client: TestClient) -> None:
    response = client.post("/api/solve", json={"position": SWAP})
    assert response.status_code == 200
    expected = cli_json("solve", "--position", SWAP, "--json", "--explain")
    assert without_time(response.json()) == expected
    assert list(response.json()) == [
        *("puzzle", "status", "value", "tiles", "played", "rack", "table", "seconds", "changed"),
        *("changes", "steps"),
    ]
    same = client.post(
        "/api/solve",
        json={"rack": "R6 K5 K6 B3", "table": ["R5 J R7", "KRBO7", "B4-6"], "explain": False},
    )
    assert without_time(same.json()) == {
        k: v for k, v in expected.items() if k not in ("changes", "steps")
    }


def test_solve_with_rules_objective_and_picture(client: TestClient) -> None:
    body = {
        "position": "- / R10-13 K1 / not-opened",
        "rules": {"preset": "standard", "initial_meld": 50},
        "svg": True,
    }
    data = client.post("/api/solve", json=body).json()
    assert data["status"] == "no_move"
    assert data["svg"].startswith("<svg")
    body["rules"] = {"initial_meld": 40}
    assert client.post("/api/solve", json=body).json()["value"] == 46
    tiles = client.post(
        "/api/solve", json={"position": "R1-3 / R4 R5 K13 R13 B13", "objective": "tiles"}
    ).json()
    assert tiles == {**tiles, "tiles": 5}


def test_check_answers_as_the_command_line(client: TestClient) -> None:
    for after in ("R1-4 | KRBO7 | B9 B10 J", "R1-4 | KRBO7"):
        response = client.post("/api/check", json={"position": POSITION, "after": after})
        assert response.status_code == 200
        expected = cli_json(
            "check", "--position", POSITION, "--after", after, "--json", "--explain"
        )
        assert response.json() == expected
    data = client.post(
        "/api/check", json={"position": POSITION, "after": ["R1-5"], "svg": True}
    ).json()
    assert data["legal"] is False
    assert "R5 is not in your rack" in data["errors"]
    assert "not a legal move" in data["svg"]


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("/api/solve", {"position": "R1-3 | Q5 / R4"}, 422, 'position "R1-3 | Q5 / R4": column 8'),
        ("/api/solve", {"rack": "Q5", "table": ["R5 R6 R8"]}, 422, 'request: rack "Q5"'),
        ("/api/solve", {"position": "R1-3 / R4", "rules": {"copies": 9}}, 422, "copies=9"),
        ("/api/solve", {"position": 5}, 400, "position: expected a string"),
        ("/api/solve", {"position": "- / R4", "objective": "fun"}, 400, "objective"),
        ("/api/solve", {"position": "- / R4", "time_limit": -1}, 400, "time_limit"),
        ("/api/solve", {"positon": "- / R4"}, 400, "unknown key 'positon'"),
        ("/api/solve", [1], 400, "expected a JSON object"),
        ("/api/check", {"position": POSITION}, 400, "after: the proposed new table is missing"),
        ("/api/check", {"position": POSITION, "after": "R1 X"}, 422, "column 4 ('X')"),
    ],
)
def test_bad_requests_get_the_command_lines_messages(
    client: TestClient, path: str, body: Any, status: int, message: str
) -> None:
    response = client.post(path, json=body)
    assert response.status_code == status
    assert message in response.json()["error"]
    assert response.json()["errors"]


def test_the_same_message_as_the_command_line(client: TestClient) -> None:
    text = "R1-3 | KRB7 | B9 B10 Q / R4 K7 O7"
    result = CliRunner().invoke(main, ["solve", "--position", text])
    web = client.post("/api/solve", json={"position": text}).json()["error"]
    assert result.stderr.strip().endswith(web.split(": ", 1)[1])


def test_limits(client: TestClient) -> None:
    assert client.post("/api/solve", content=b"{not json", headers=JSON_BODY).status_code == 400
    big = {"position": "- / R4", "padding": "x" * 3_000}
    response = client.post("/api/solve", json=big)
    assert response.status_code == 413
    assert "at most 2000 bytes" in response.json()["error"]
    assert client.get("/api/solve").status_code == 405
    assert client.get("/api").json()["time_limit"] == 5.0


def test_page_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert 'src="/static/app.js"' in page.text
    for name in ("app.js", "app.css"):
        assert client.get(f"/static/{name}").status_code == 200


def test_position_endpoint_reads_back(client: TestClient) -> None:
    data = client.post("/api/position", json={"position": "r1-3|krb7 / y7", "svg": True}).json()
    assert data["notation"] == "R1-3 | KRB7 / O7"
    assert data["table"][1] == {"kind": "group", "tiles": ["K7", "R7", "B7"]}
    assert data["svg"].count('class="tile') == 7


def test_several_requests_at_once(client: TestClient) -> None:
    bodies = [{"position": SWAP}, {"position": POSITION}] * 6
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda b: client.post("/api/solve", json=b), bodies))
    assert all(a.status_code == 200 for a in answers)
    assert {a.json()["value"] for a in answers} == {20, 11}


def test_serve_help_and_missing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    assert "127.0.0.1" in result.stdout
    import sys

    monkeypatch.setitem(sys.modules, "uvicorn", None)
    monkeypatch.setitem(sys.modules, "rummikub.web", None)
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 2
    assert "pip install 'rummikub[web]'" in result.stderr


def test_analyse_answers_as_the_command_line(client: TestClient) -> None:
    body = {"position": POSITION, "top": 2, "hold": True, "after": "R1-4 | KRB7 | B9 B10 J"}
    response = client.post("/api/analyse", json=body)
    assert response.status_code == 200
    expected = cli_json(
        "analyse",
        "--position",
        POSITION,
        "--top",
        "2",
        "--hold",
        "--grade",
        "--after",
        "R1-4 | KRB7 | B9 B10 J",
        "--json",
    )

    def timeless(data: Any) -> Any:
        if isinstance(data, dict):
            return {k: timeless(v) for k, v in data.items() if k != "seconds"}
        if isinstance(data, list):
            return [timeless(v) for v in data]
        return data

    assert timeless(response.json()) == timeless(expected)
    picture = client.post("/api/analyse", json={"position": POSITION, "svg": True}).json()
    assert picture["svg"].count('class="tile new"') == 4
    for top in (0, 11, "2"):
        bad = client.post("/api/analyse", json={"position": POSITION, "top": top})
        assert bad.status_code == 400
        assert "top: expected a whole number 1-10" in bad.json()["error"]


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b'{"position": ', "invalid JSON: Expecting value (at line 1, column 14)"),
        (b"[" * 40 + b"]" * 40, "lists and tables nested more than 32 levels deep"),
        (b'{"time_limit": 1' + b"0" * 5000 + b"}", "invalid JSON: a number with too many digits"),
        (b'{"position": "R1 \xff"}', "not UTF-8 text (byte 0xff at offset 17)"),
    ],
    ids=["cut-short", "too-deep", "long-number", "not-utf8"],
)
def test_a_bad_body_is_a_bad_request_read_as_any_document(body: bytes, problem: str) -> None:
    # The body goes through the one document reader (core.documents), as files and stdin do
    # (a body limit above the long number's 5,000 digits).
    roomy = TestClient(create_app(Limits(time_limit=5.0, body_bytes=20_000)))
    response = roomy.post("/api/solve", content=body, headers=JSON_BODY)
    assert response.status_code == 400
    assert problem in response.json()["errors"]


def test_a_body_with_a_byte_order_mark_is_read(client: TestClient) -> None:
    body = "\ufeff" + json.dumps({"position": "R1 R2 R3 / R4"})
    response = client.post("/api/solve", content=body.encode(), headers=JSON_BODY)
    assert response.status_code == 200
    assert response.json()["played"] == ["R4"]
