"""``analyse --equity`` and ``rummikub.equity`` (game/position_equity.py, cli/equity.py):
the candidates and their JSON, the game around a position, the exact endgame, the words,
bad input."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import rummikub
from rummikub.cli import equity as equity_cli
from rummikub.cli import main
from rummikub.core.errors import RummikubError
from rummikub.tiles.checker import check
from rummikub.tiles.game.engine import deal, start
from rummikub.tiles.game.equity import Budget, Candidate, Equity
from rummikub.tiles.game.position_equity import (
    ANALYSE,
    DEFAULT_TOP,
    PositionEquity,
    equity,
    view_for,
)
from rummikub.tiles.game.view import View, view_of
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import STANDARD

REPO = Path(__file__).resolve().parent.parent
TWO_TILES = str(REPO / "puzzles" / "basics" / "two-tiles-fit.toml")
FAST = ["--playouts", "6", "--rounds", "1", "--seed", "1"]
#: The README's endgame (3 colors of 1-7, one copy, no joker): Ann wins by laying B4 alone.
TINY = ["--rule", "numbers=7", "--rule", "colors=KRB", "--rule", "copies=1"]
TINY += ["--rule", "jokers=0", "--rule", "initial_meld=0"]
ENDGAME = ["--position", "K4-7 | R1-7 / K1 K3 B1 B3 B4", *TINY, "--rack-sizes", "5"]
REQUIRED = {"win", "ci", "exact", "candidates"}
REQUIRED_CANDIDATE = {"played", "value", "tiles", "win", "ci", "score"}


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_exit(result: Result, code: int) -> None:
    assert result.exit_code == code, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit)


def json_of(result: Result) -> dict[str, Any]:
    [line] = result.stdout.splitlines()
    data: dict[str, Any] = json.loads(line)
    return data


def test_the_json_has_the_equity_keys_best_equity_first() -> None:
    result = run("analyse", TWO_TILES, "--equity", "--json", *FAST)
    assert_exit(result, 0)
    data = json_of(result)
    found = data["equity"]
    assert set(found) >= REQUIRED
    assert found["exact"] is False
    wins = [c["win"] for c in found["candidates"]]
    assert wins == sorted(wins, reverse=True)
    assert found["win"] == wins[0] and found["ci"] == found["candidates"][0]["ci"]
    for c in found["candidates"]:
        assert set(c) >= REQUIRED_CANDIDATE
        assert c["ci"][0] <= c["win"] <= c["ci"][1]
        assert c["tiles"] == len(c["played"]) and c["playouts"] == 6
    # The top 3 by value are candidates, then the variants and drawing.
    played = [c["played"] for c in found["candidates"]]
    assert sorted(map(sorted, played)) == sorted([["O7", "R4"], ["O7"], ["R4"], []])
    assert found["players"] == 2 and found["rack_counts"] == [3, 3] and found["pool"] == 91
    assert found["most_points"] == played.index(["R4", "O7"])


def test_the_other_keys_are_those_of_analyse_at_the_same_top() -> None:
    plain = json_of(run("analyse", TWO_TILES, "--json", "--top", str(DEFAULT_TOP)))
    data = json_of(run("analyse", TWO_TILES, "--json", "--equity", *FAST))
    del data["equity"]
    for answer in (plain, data):
        answer.pop("seconds")
        for move in answer["moves"]:
            move.pop("seconds")
    assert data == plain


def test_the_same_question_gives_the_same_answer_byte_for_byte() -> None:
    first = json_of(run("analyse", TWO_TILES, "--json", "--equity", *FAST))["equity"]
    again = json_of(run("analyse", TWO_TILES, "--json", "--equity", *FAST))["equity"]
    assert json.dumps(first) == json.dumps(again)
    other = json_of(run("analyse", TWO_TILES, "--json", "--equity", *FAST[:4], "--seed", "2"))
    assert other["equity"]["seed"] == 2 and first["seed"] == 1


def test_the_text_shows_every_candidate_and_the_evaluation() -> None:
    result = run("analyse", TWO_TILES, "--equity", *FAST)
    assert_exit(result, 0)
    lines = result.stdout.splitlines()
    start = lines.index(
        "Equity (2 players, other racks 3, pool 91; 6 playouts of 1 round each, seed 1):"
    )
    data = json_of(run("analyse", TWO_TILES, "--equity", "--json", *FAST))["equity"]
    assert (
        lines[start + 1].startswith("  Evaluation: ") and "to win (95% interval" in lines[start + 1]
    )
    rows = lines[start + 3 : start + 3 + len(data["candidates"])]
    for rank, (row, c) in enumerate(zip(rows, data["candidates"], strict=True), 1):
        assert row.split()[:2] == [f"{rank}.", f"{c['win']:.0%}"]
        assert row.endswith(" ".join(c["played"]) + f" ({c['label']})" if c["played"] else "draw")
    assert lines[start + 3 + len(rows)].startswith("  Laying the most is")


def test_the_exact_endgame_decides() -> None:
    result = run("analyse", *ENDGAME, "--equity", "--json", *FAST)
    assert_exit(result, 0)
    found = json_of(result)["equity"]
    assert found["pool"] == 0 and found["exact"] is True
    assert found["win"] == 1.0 and found["ci"] == [1.0, 1.0]
    best = found["candidates"][0]
    assert best["exact"] is True and best["played"] == ["B4"]
    assert all(c["ci"] == [c["win"], c["win"]] for c in found["candidates"] if c["exact"])
    text = run("analyse", *ENDGAME, "--equity", *FAST).stdout
    assert "  Evaluation: a win by force (the exact endgame)." in text
    assert (
        "Laying the most is not best here: lay B4 instead of K1 K3 B1 "
        "(a win against a loss, exactly)." in text
    )


def test_without_the_exact_search_the_endgame_is_estimated() -> None:
    found = json_of(run("analyse", *ENDGAME, "--equity", "--json", "--no-exact", *FAST))["equity"]
    assert found["exact"] is False
    assert not any(c["exact"] for c in found["candidates"])


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--playouts", "0"], "Invalid value for '--playouts': 0 is not in the range x>=1"),
        (["--players", "9"], "Invalid value for '--players': 9 is not in the range 2<=x<=4"),
        (["--rack-sizes", "95"], "only 94 are out of sight"),
        (["--rack-sizes", "x,3"], "'x' in 'x,3' is not a whole number of tiles >= 1"),
        (["--rack-sizes", "0"], "'0' in '0' is not a whole number of tiles >= 1"),
        (["--players", "3", "--rack-sizes", "4"], "1 rack size(s) given, but 3 players have 2"),
        (["--rounds", "-1"], "Invalid value for '--rounds'"),
        (["--nodes", "0"], "Invalid value for '--nodes'"),
    ],
)
def test_bad_equity_options_are_one_line_and_exit_2(args: list[str], words: str) -> None:
    result = run("analyse", TWO_TILES, "--equity", *args)
    assert_exit(result, 2)
    assert words in result.output
    assert "Traceback" not in result.output


def test_the_equity_options_need_equity() -> None:
    result = run("analyse", TWO_TILES, "--playouts", "5")
    assert_exit(result, 2)
    assert "--playouts is an option of --equity: add --equity" in result.output


def test_the_cli_defaults_are_the_librarys() -> None:
    assert (
        ANALYSE.samples,
        ANALYSE.rounds,
        DEFAULT_TOP,
    ) == (equity_cli.PLAYOUTS, equity_cli.ROUNDS, equity_cli.TOP)
    from rummikub.tiles.game.endgame import ENDGAME_NODES

    assert equity_cli.NODES == ENDGAME_NODES


# -- the library --------------------------------------------------------------------------


def _two_tiles() -> Position:
    return Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7", "B9 B10 J"])


def test_the_public_name_and_its_answer() -> None:
    assert rummikub.equity is equity
    found = rummikub.equity(_two_tiles(), playouts=4, rounds=1, seed=3)
    assert isinstance(found, PositionEquity)
    for c in found.candidates:
        if c.played:
            assert check(found.position, c.move.table).legal
    assert found.to_data()["seed"] == 3


def test_a_view_gives_the_game_around_the_position() -> None:
    state = start(deal(["Ann", "Bob", "Cy"], STANDARD, seed=4))
    position, view = view_of(state)
    found = equity(position, view=view, playouts=3, rounds=1)
    assert found.view is view
    assert found.to_data()["rack_counts"] == [14, 14, 14]
    assert found.to_data()["pool"] == 106 - 42


def test_the_view_of_a_puzzle() -> None:
    view = view_for(_two_tiles())
    assert view == View(0, (3, 3), (True, True), 91, 0)
    view = view_for(_two_tiles(), players=3, rack_sizes=[10, 2], others_opened=False)
    assert view == View(0, (3, 10, 2), (True, False, False), 94 - 12, 0)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"playouts": 0}, ValueError, "playouts=0 must be at least 1"),
        ({"playouts": 2.5}, TypeError, "playouts must be a whole number"),
        ({"rounds": -1}, ValueError, "rounds=-1 must be at least 0"),
        ({"players": 5}, ValueError, "players=5 must be at most 4"),
        ({"players": 1}, ValueError, "players=1 must be at least 2"),
        ({"rack_sizes": [3, 3]}, ValueError, "gives 2 rack(s), but 2 players have 1"),
        ({"rack_sizes": "14"}, TypeError, "rack_sizes must be a sequence"),
        ({"rack_sizes": [95]}, RummikubError, "only 94 are out of sight"),
        ({"explore": 2.0}, ValueError, "explore=2.0 must lie between 0 and 1"),
        ({"seed": "x"}, TypeError, "seed must be a whole number or None"),
        ({"exact": 1}, TypeError, "exact must be True or False"),
        ({"view": "x"}, TypeError, "view must be a View"),
    ],
)
def test_bad_arguments_fail_at_once(kwargs: dict[str, Any], error: type, words: str) -> None:
    with pytest.raises(error) as raised:
        equity(_two_tiles(), **kwargs)
    assert words in str(raised.value)


def test_not_a_position() -> None:
    with pytest.raises(TypeError, match="equity\\(\\) takes a Position"):
        equity("R1 R2 R3")  # type: ignore[arg-type]


def test_the_progress_follows_every_playout() -> None:
    calls: list[tuple[int, int]] = []
    found = equity(_two_tiles(), playouts=3, rounds=0, progress=lambda d, t: calls.append((d, t)))
    total = 3 * len(found.candidates)
    assert calls == [(d, total) for d in range(1, total + 1)]


# -- the words ----------------------------------------------------------------------------


def _candidate(position: Position, label: str, played: str, win: float) -> Candidate:
    tiles = rummikub.parse_tiles(played) if played else ()
    return Candidate(
        label=label,
        move=Move(position.table, tuple(tiles)),
        value=sum(position.rules.tile_value(t) for t in tiles),
        tiles=len(tiles),
        win=win,
        ci=(0.0, 1.0),
        lead=0.0,
        samples=4,
    )


def _advice(position: Position, *candidates: Candidate, pool: int = 50) -> str | None:
    view = View(0, (len(position.rack), 9), (True, True), pool, 0)
    found = PositionEquity(position, view, Budget(4, 1), 0, 1, Equity(tuple(candidates)))
    return found.advice()


def test_the_advice_says_what_differs() -> None:
    p = Position.parse(rack="R4 K7 O7 J", table=["R1 R2 R3", "K7 R7 B7"])
    most = _candidate(p, "best", "R4 O7 J", 0.4)
    keep = _candidate(p, "keep-jokers", "R4 O7", 0.6)
    assert _advice(p, keep, most) == (
        "Laying the most is not best here: keep the joker back (60% to win against 40%)."
    )
    draw = _candidate(p, "draw", "", 0.5)
    assert _advice(p, draw, most) == (
        "Laying the most is not best here: draw a tile (50% to win against 40%)."
    )
    assert _advice(p, draw, most, pool=0) is not None
    assert "pass (" in (_advice(p, draw, most, pool=0) or "")
    other = _candidate(p, "top-2", "K7 O7", 0.7)
    assert _advice(p, other, most) == (
        "Laying the most is not best here: lay K7 instead of R4 J (70% to win against 40%)."
    )
    assert _advice(p, most, keep) is None
    kept = Counter(most.played) - Counter(keep.played)
    assert [str(t) for t in kept] == ["J"]


def test_the_playouts_bar_counts_every_playout(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummikub.cli import analyse as analyse_module

    seen: list[object] = []

    class FakeProgress:
        def __init__(self, **_: Any) -> None:
            pass

        def start(self) -> None:
            seen.append("start")

        def add_task(self, label: str, total: int) -> int:
            seen.append((label, total))
            return 0

        def update(self, _: int, completed: int) -> None:
            seen.append(completed)

        def stop(self) -> None:
            seen.append("stop")

    import rich.progress

    monkeypatch.setattr(rich.progress, "Progress", FakeProgress)
    monkeypatch.setattr(analyse_module, "BAR_AFTER", 0.0)
    choices = equity_cli.Choices(3, 0, 2, None, True, 1, True, 10)
    with analyse_module._outs_bar(show=True, label="Playouts") as bar:
        found = equity_cli.run(_two_tiles(), choices, 1, bar)
    total = 3 * len(found.candidates)
    assert seen[:2] == ["start", ("Playouts", total)]
    assert seen[2:] == [*range(1, total + 1), "stop"]
