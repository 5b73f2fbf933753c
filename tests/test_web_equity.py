"""``/api/analyse`` with ``equity``: the command line's ``"equity"`` key, and bad options."""

from __future__ import annotations

import json
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
POSITION = "R1-3 | KRB7 | B9 B10 J / R4 K7 O7"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Limits(time_limit=5.0, body_bytes=2_000)))


def test_equity_answers_as_the_command_line(client: TestClient) -> None:
    options = {"playouts": 4, "rounds": 1, "seed": 2, "players": 3, "rack_sizes": [5, 6]}
    response = client.post("/api/analyse", json={"position": POSITION, "equity": options})
    assert response.status_code == 200, response.text
    args = ["analyse", "--position", POSITION, "--json", "--equity", "--playouts", "4"]
    args += ["--rounds", "1", "--seed", "2", "--players", "3", "--rack-sizes", "5,6"]
    result = CliRunner().invoke(main, args)
    expected: dict[str, Any] = json.loads(result.stdout)
    assert response.json()["equity"] == expected["equity"]
    assert len(response.json()["moves"]) == 3  # the equity's default top


def test_equity_false_is_the_plain_analysis(client: TestClient) -> None:
    response = client.post("/api/analyse", json={"position": POSITION, "equity": False})
    assert response.status_code == 200
    assert "equity" not in response.json()


@pytest.mark.parametrize(
    ("equity", "status", "words"),
    [
        ("yes", 400, "equity: expected true, false or an object"),
        ({"playouts": 0}, 400, "equity.playouts: expected a whole number 1-200, got integer 0"),
        ({"playouts": 201}, 400, "equity.playouts: expected a whole number 1-200"),
        ({"players": 9}, 400, "equity.players: expected a whole number 2-4"),
        ({"rack_sizes": [0]}, 400, "equity.rack_sizes: expected a list of whole numbers"),
        ({"depth": 3}, 400, "equity: unknown key 'depth'"),
        ({"rack_sizes": [200]}, 422, "equity: the other racks (200) hold 200 tiles"),
        ({"rack_sizes": [2, 2]}, 422, "gives 2 rack(s), but 2 players have 1"),
    ],
)
def test_bad_equity_options(client: TestClient, equity: Any, status: int, words: str) -> None:
    response = client.post("/api/analyse", json={"position": POSITION, "equity": equity})
    assert response.status_code == status, response.text
    assert words in response.json()["error"]
