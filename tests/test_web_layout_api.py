"""What the board's new controls ask of the server: the registered players (``GET /api``),
a review's turn with the game around it, and the equity advice as data."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient

from rummikub.tiles.game.position_equity import equity
from rummikub.tiles.game.strategies import STRATEGIES
from rummikub.tiles.notation import parse_position
from rummikub.tiles.rules import Rules
from rummikub.web import Limits, create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Limits(time_limit=5.0)))


def test_the_api_lists_every_registered_strategy(client: TestClient) -> None:
    assert client.get("/api").json()["strategies"] == list(STRATEGIES)


def test_a_reviews_turns_carry_the_game_around_the_mover(client: TestClient) -> None:
    game = client.post("/api/game/new", json={"opponents": ["best", "tiles"], "seed": 3}).json()
    game = client.post("/api/game/draw", json={"record": game["record"]}).json()
    turns = client.post("/api/game/review", json={"record": game["record"]}).json()["turns"]
    assert [turn["view"]["players"] for turn in turns] == [3, 3, 3]
    # Each turn's view starts with the mover's rack: 14 before the first turn, then the
    # second player's 14 once the first has drawn (15).
    assert turns[0]["view"]["rack_counts"] == [14, 14, 14]
    assert turns[1]["view"]["rack_counts"] == [14, 14, 15]
    assert turns[1]["view"]["opened"] == [False, False, False]


def test_the_advice_as_data_says_what_the_sentence_says() -> None:
    # Laying R4 and O7 lays the most; keeping R4 back wins more often (docs/analysts.md).
    position = parse_position("R1-3 | KRB7 | B9 B10 J / R4 K7 O7", Rules())
    found = equity(position, playouts=6, rounds=1, seed=1)
    assert found.difference() == {"action": "keep", "keep": ["R4"], "lay": []}
    assert "keep R4 back" in (found.advice() or "")
    assert found.to_data()["difference"] == found.difference()
    # A position whose best move lays the most (the docstring's): no difference, no advice.
    alone = parse_position("K2-4 / R1 R2 R3 K5", Rules())
    found = equity(alone, playouts=4, rounds=1)
    assert found.best is found.most_points
    assert found.difference() is None and found.to_data()["difference"] is None
