"""Bad input on the game surfaces, as an attacker would try it: every case is answered as
the docs say (a 4xx with a one-line message on the web, exit 2 with one line naming the
file on the command line, a TypeError/ValueError naming the argument from the library),
never a traceback, a 500 or a hang, and nothing is lost."""

from __future__ import annotations

import json
import os
import re
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rummikub.cli import main
from rummikub.core.documents import read_bytes
from rummikub.core.errors import PuzzleError
from rummikub.play.equity import Budget
from rummikub.play.records import MAX_NAME, name_problem
from rummikub.tiles.game.engine import deal
from rummikub.tiles.game.record import RecordError, dumps, from_data, loads, to_data
from rummikub.tiles.game.strategies import REGISTRY
from rummikub.tiles.rules import STANDARD

REPO = Path(__file__).resolve().parent.parent


def run(*args: str) -> tuple[int, str]:
    done = CliRunner().invoke(main, list(args))
    return done.exit_code, done.output


# -- files: only regular files are read ---------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    # Opening a pipe nobody writes to waits for ever: the reader refuses it at once (the
    # alarm fails the test where the old reader would hang).
    pipe = tmp_path / "game.toml"
    os.mkfifo(pipe)

    def hung(*_: object) -> None:
        raise TimeoutError("the reader waits on the pipe")

    signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)
    with pytest.raises(PuzzleError, match="not a regular file"):
        read_bytes(str(pipe))
    for args in (["game", "show", str(pipe)], ["solve", str(pipe)], ["game", "replay", str(pipe)]):
        code, output = run(*args)
        assert code == 2, (args, output)
        assert f"{pipe}: not a regular file" in output
    signal.alarm(0)


# -- names: one rule for every name a record holds -----------------------------------------


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("a\nb", "one line"),
        ("x" * (MAX_NAME + 1), f"at most {MAX_NAME} characters"),
        ("   ", "blank"),
        ("\ud800", "not valid text"),
        ("a\tb", "no control characters"),
        ("\x1b[31mred", "no control characters"),
        (5, "text"),
    ],
)
def test_a_name_no_record_can_hold_is_refused_everywhere(name: Any, problem: str) -> None:
    found = name_problem(name)
    assert found is not None and problem in found
    # The library's deal refuses it (a ValueError naming the seat) ...
    error: type[Exception] = TypeError if not isinstance(name, str) else ValueError
    with pytest.raises(error):
        deal(["Ann", name], STANDARD, 1)
    # ... and the record reader refuses it by the same rule.
    good = to_data(deal(["Ann", "Bob"], STANDARD, 1))
    good["players"] = ["Ann", name]
    with pytest.raises(RecordError, match=re.escape(problem)):
        from_data(good, "r.toml")


def test_a_seed_is_a_toml_integer(tmp_path: Path) -> None:
    # TOML's integers have 64 bits: a bigger seed would write a record no TOML reader reads.
    with pytest.raises(ValueError, match="seed=1000000000000000000000000000000 must be at most"):
        deal(["Ann", "Bob"], STANDARD, 10**30)
    data = to_data(deal(["Ann", "Bob"], STANDARD, 1))
    data["seed"] = 10**30
    with pytest.raises(RecordError, match="seed: expected a whole number"):
        loads(json.dumps(data), "r.json", fmt="json")
    code, output = run("game", "new", str(tmp_path / "x.toml"), "--seed", str(10**30))
    assert code == 2 and "seed=" in output


def test_a_name_of_the_longest_length_reads_back() -> None:
    longest = "N" * MAX_NAME
    record = deal([longest, "Bob"], STANDARD, 1)
    assert from_data(to_data(record)).players == (longest, "Bob")
    assert loads(json.dumps(to_data(record)), "r.json", fmt="json").players[0] == longest


# -- the library's arguments ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"samples": 1.5}, TypeError, "samples must be a whole number, got float 1.5"),
        ({"rounds": "1"}, TypeError, "rounds must be a whole number"),
        ({"explore": None}, TypeError, "explore must be a number"),
        ({"samples": 0}, ValueError, "at least 1 sample"),
        ({"explore": float("nan")}, ValueError, "explore=nan"),
    ],
)
def test_an_equity_budget_checks_its_counts(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        Budget(**arguments)


def test_the_ranking_of_moves_has_one_cap() -> None:
    from rummikub import Position
    from rummikub.tiles.analysis import MAX_TOP, analyse, top_moves
    from rummikub.tiles.game.position_equity import equity

    position = Position.parse(rack="R1 R2 R3")
    with pytest.raises(ValueError, match=f"^top=1000000000000.* must be at most {MAX_TOP}$"):
        analyse(position, top=10**100)
    with pytest.raises(ValueError, match=f"k={MAX_TOP + 1} must be at most"):
        top_moves(position, MAX_TOP + 1)
    with pytest.raises(ValueError, match="top="):
        equity(position, top=MAX_TOP + 1)
    code, output = run("analyse", "--rack", "R1 R2 R3", "--top", str(MAX_TOP + 1))
    assert code == 2 and "--top" in output


# -- the web page's games ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Any:
    pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
    from starlette.testclient import TestClient

    from rummikub.web import Limits, create_app

    return TestClient(create_app(Limits(time_limit=10.0)), raise_server_exceptions=False)


def refused(client: Any, path: str, body: Any, status: int) -> str:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    message: str = response.json()["error"]
    assert "\n" not in message
    return message


@pytest.fixture(scope="module")
def record(client: Any) -> dict[str, Any]:
    response = client.post("/api/game/new", json={"opponents": ["best"], "seed": 1})
    assert response.status_code == 200
    found: dict[str, Any] = response.json()["record"]
    return found


@pytest.mark.parametrize("tiles", ["", "   ", "\n\t"])
def test_laying_no_tiles_is_a_message_not_a_crash(
    client: Any, record: dict[str, Any], tiles: str
) -> None:
    message = refused(client, "/api/game/move", {"record": record, "tiles": tiles}, 422)
    assert message.startswith("no tiles to lay")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("a\nb", "name: a name fits on one line"),
        ("x" * 20_000, f"name: a name has at most {MAX_NAME} characters, not 20,000"),
        ("  ", "name: a name must not be blank"),
        (7, "name: a name is text"),
        ("Best", "name 'Best': the name of a strategy, which a player's must not be"),
    ],
)
def test_a_new_game_refuses_a_name_its_record_could_not_hold(
    client: Any, name: Any, words: str
) -> None:
    assert refused(client, "/api/game/new", {"name": name, "seed": 1}, 400) == words


def test_the_opponents_are_the_registry_s_strategies(client: Any) -> None:
    for name in REGISTRY.names:
        response = client.post("/api/game/new", json={"opponents": [name], "seed": 1})
        assert response.status_code == 200, (name, response.text)
    message = refused(client, "/api/game/new", {"opponents": ["genius"], "seed": 1}, 422)
    assert message.endswith(f"(expected one of {', '.join(REGISTRY.names)})")
    # The docs list exactly the strategies the page accepts.
    players = (REPO / "docs" / "players.md").read_text(encoding="utf-8")
    row = next(line for line in players.splitlines() if line.startswith("| `POST /api/game/new`"))
    listed = re.search(r"`opponents` \(1-3 strategies: (.*?), as", row)
    assert listed is not None
    assert re.findall(r"`([^`]+)`", listed.group(1)) == list(REGISTRY.names)


# -- the public functions of whole games: a table of misuses --------------------------------


def _misuses() -> dict[str, tuple[Callable[[], Any], type[Exception], str]]:
    """Each misuse, the error it must raise at once and words of its message (each ended in
    an AttributeError, an IndexError or a wrong answer deep inside, or was accepted)."""
    import random

    from rummikub import Position
    from rummikub.cards import preset
    from rummikub.cards.game import duel as card_duel
    from rummikub.cards.game import engine as card_engine
    from rummikub.cards.game import equity as card_equity
    from rummikub.cards.game import record as card_record
    from rummikub.cards.game import review as card_review
    from rummikub.cards.game import simulate as card_simulate
    from rummikub.cards.game import turns as card_turns
    from rummikub.cards.game import view as card_view
    from rummikub.cards.game import words as card_words
    from rummikub.tiles.game import duel, equity, review, simulate
    from rummikub.tiles.game import engine as tile_engine
    from rummikub.tiles.game.view import view_of

    rummy = preset("rummy")
    position = Position.parse(rack="R1 R2 R3 K5", table=["K2 K3 K4"], opened=True)
    record = deal(["a", "b"], STANDARD, 1)
    state = tile_engine.replay(record).state
    card_game = card_engine.new_game(["a", "b"], rummy, 1)
    card_state = card_engine.start(card_game)
    setup = simulate.Setup(("best",), 2)
    card_setup = card_simulate.CardSetup(rummy, ("best",), 2)
    # Wrong on purpose: typed Any, so that mypy lets the test hand them over.
    budget_5: Any = 5
    nothing: Any = None
    word: Any = "x"
    xml: Any = "xml"
    return {
        "DuelSetup(5, 'best')": (
            lambda: duel.DuelSetup(5, "best"),  # type: ignore[arg-type]
            TypeError,
            "a and b must hold names (strings), got int 5",
        ),  # type: ignore[arg-type]
        "DuelSetup(rack_size=0)": (
            lambda: duel.DuelSetup("best", "best", rack_size=0),
            ValueError,
            "rack_size=0 must be at least 1",
        ),
        "DuelSetup(rules=None)": (
            lambda: duel.DuelSetup("best", "best", rules=nothing),
            TypeError,
            "rules must be a Rules",
        ),
        "DuelSetup(seed=1.5)": (
            lambda: duel.DuelSetup("best", "best", seed=1.5),  # type: ignore[arg-type]
            TypeError,
            "seed must be a whole number",
        ),
        "duel('setup', 2)": (lambda: duel.duel("setup", 2), TypeError, "the setup of a run"),  # type: ignore[arg-type]
        "duel(workers=0)": (
            lambda: duel.duel(duel.DuelSetup("best", "best"), 2, workers=0),
            ValueError,
            "workers=0 must be at least 1",
        ),
        "duel(batch_size=0)": (
            lambda: duel.duel(duel.DuelSetup("best", "best"), 2, batch_size=0),
            ValueError,
            "batch_size=0",
        ),
        "duel(scheduler=5)": (
            lambda: duel.duel(duel.DuelSetup("best", "best"), 2, scheduler=budget_5),
            TypeError,
            "scheduler must be an address",
        ),
        "Setup('best')": (lambda: simulate.Setup("best"), TypeError, "a sequence of names"),  # type: ignore[arg-type]
        "Setup(players=2.0)": (
            lambda: simulate.Setup(("best",), 2.0),  # type: ignore[arg-type]
            TypeError,
            "players must be a whole number",
        ),
        "simulate(setup, 10**7)": (
            lambda: simulate.simulate(setup, 10**7),
            ValueError,
            "at most 1,000,000 games",
        ),
        "simulate(setup, '2')": (
            lambda: simulate.simulate(setup, "2"),  # type: ignore[arg-type]
            TypeError,
            "games must be a whole number",
        ),
        "summarize(setup, None)": (
            lambda: simulate.summarize(setup, nothing),
            TypeError,
            "games must be the summaries",
        ),
        "lineup_of(setup, 'x')": (
            lambda: simulate.lineup_of(setup, "x"),  # type: ignore[arg-type]
            TypeError,
            "index must be a whole number",
        ),
        "play_game(rules, 'best', 1)": (
            lambda: simulate.play_game(STANDARD, "best", 1),  # type: ignore[arg-type]
            TypeError,
            "players must be a sequence of strategies",
        ),
        "equity(position, None)": (
            lambda: equity.equity(position, nothing),
            TypeError,
            "view must be a View",
        ),
        "evaluation(state, 9)": (
            lambda: equity.evaluation(state, 9),
            ValueError,
            "seat=9: the seats of this game are 0-1",
        ),
        "evaluation(None, 0)": (
            lambda: equity.evaluation(nothing, 0),
            TypeError,
            "state must be a GameState",
        ),
        "evaluate(position, view, 5)": (
            lambda: equity.evaluate(position, view_of(state, 0)[1], budget_5),
            TypeError,
            "budget must be a Budget",
        ),
        "candidates(position, 0)": (
            lambda: equity.candidates(position, 0),
            ValueError,
            "top=0 must be at least 1",
        ),
        "view_of(state, 9)": (lambda: view_of(state, 9), ValueError, "seat=9"),
        "review_record(record, 5)": (
            lambda: review.review_record(record, 5),  # type: ignore[arg-type]
            TypeError,
            "path must be a str",
        ),
        "equity_review(record, 'p', 5)": (
            lambda: review.equity_review(record, "p", budget_5),
            TypeError,
            "budget must be a Budget",
        ),
        "draw_equities(position, None)": (
            lambda: review.draw_equities(position, nothing),
            TypeError,
            "view must be a View",
        ),
        "dumps(record, 'xml')": (
            lambda: dumps(record, xml),
            ValueError,
            "unknown format 'xml'",
        ),
        "CardSetup('rummy', ('best',))": (
            lambda: card_simulate.CardSetup("rummy", ("best",)),  # type: ignore[arg-type]
            TypeError,
            "rules must be a CardRules",
        ),
        "CardSetup(rummy, ())": (
            lambda: card_simulate.CardSetup(rummy, ()),
            ValueError,
            "no strategy given",
        ),
        "card simulate(setup, 10**7)": (
            lambda: card_simulate.simulate(card_setup, 10**7),
            ValueError,
            "at most 1,000,000 games",
        ),
        "card to_text(None)": (
            lambda: card_simulate.to_text(nothing),
            TypeError,
            "report must be a CardReport",
        ),
        "CardDuelSetup('rummy', 'best', 'best')": (
            lambda: card_duel.CardDuelSetup("rummy", "best", "best"),  # type: ignore[arg-type]
            TypeError,
            "rules must be a CardRules",
        ),
        "card view_of(state, 9)": (
            lambda: card_view.view_of(card_state, 9),
            ValueError,
            "seat=9: the seats of this game are 0-1",
        ),
        "card determinize(None, rng)": (
            lambda: card_view.determinize(nothing, random.Random(1)),
            TypeError,
            "view must be a CardView",
        ),
        "card record dumps(None)": (
            lambda: card_record.dumps(nothing),
            TypeError,
            "record must be a CardRecord",
        ),
        "card record dumps(record, 'xml')": (
            lambda: card_record.dumps(card_game, xml),
            ValueError,
            "unknown format 'xml'",
        ),
        "card record loads(None)": (
            lambda: card_record.loads(nothing),
            TypeError,
            "text must be str or bytes",
        ),
        "card deal_hand(rummy, 9, 1)": (
            lambda: card_engine.deal_hand(rummy, 9, 1),
            ValueError,
            "players=9 must be at most 6",
        ),
        "card deal_hand(rummy, 2, 1, -1)": (
            lambda: card_engine.deal_hand(rummy, 2, 1, -1),
            ValueError,
            "hand=-1 must be at least 0",
        ),
        "card pack(None)": (lambda: card_engine.pack(nothing), TypeError, "rules must be"),
        "card hand_seed('x', 1)": (
            lambda: card_engine.hand_seed(word, 1),
            TypeError,
            "seed must be a whole number",
        ),
        "card advance(None, turn)": (
            lambda: card_engine.advance(nothing, card_record.Turn()),
            TypeError,
            "state must be a CardGameState",
        ),
        "card enter_scores(state, None)": (
            lambda: card_engine.enter_scores(card_state, nothing),
            TypeError,
            "scores must be a list",
        ),
        "card scores_of(None)": (
            lambda: card_engine.scores_of(nothing),
            TypeError,
            "state must be a CardGameState",
        ),
        "card describe(None)": (
            lambda: card_engine.describe(nothing),
            TypeError,
            "turn must be a Turn",
        ),
        "card evaluation(state, 9)": (
            lambda: card_equity.evaluation(card_state, 9),
            ValueError,
            "seat=9",
        ),
        "card evaluate(None)": (
            lambda: card_equity.evaluate(nothing),
            TypeError,
            "view must be a CardView",
        ),
        "card evaluate(view, 5)": (
            lambda: card_equity.evaluate(card_view.view_of(card_state, 0), budget_5),
            TypeError,
            "budget must be a Budget",
        ),
        "card equity_review(record, 'p', 5)": (
            lambda: card_review.equity_review(card_game, "p", budget_5),
            TypeError,
            "budget must be a Budget",
        ),
        "card state_text(None)": (
            lambda: card_words.state_text(nothing),
            TypeError,
            "state must be a CardGameState",
        ),
        "card replay_lines(None)": (
            lambda: card_words.replay_lines(nothing),
            TypeError,
            "played must be a Replay",
        ),
        "card lay_cards(state, '7S', None)": (
            lambda: card_turns.lay_cards(card_state, word, nothing),
            TypeError,
            "rest must be a Turn",
        ),
        "Budget(samples=1.5)": (
            lambda: Budget(samples=1.5),  # type: ignore[arg-type]
            TypeError,
            "samples must be a whole number",
        ),
    }


MISUSES = _misuses()


@pytest.mark.parametrize("name", list(MISUSES))
def test_a_misused_public_function_says_so_at_once(name: str) -> None:
    call, error, words = MISUSES[name]
    with pytest.raises(error) as raised:
        call()
    message = str(raised.value)
    assert words in message and "\n" not in message, message


# -- the command line on card games and records ----------------------------------------------


def test_a_card_simulation_refuses_the_tile_rack_size() -> None:
    for command in (["simulate"], ["duel", "best", "keep"]):
        code, output = run(*command, "--game", "rummy", "--rack-size", "5", "--games", "2")
        assert code == 2, output
        assert "--rack-size is the tile game's deal" in output


def _finished_card_game(tmp_path: Path) -> tuple[Path, str]:
    """A card game played to its end (rummy to 30), its record's path and text."""
    from rummikub.cards import preset, with_options
    from rummikub.cards.game import record as card_record
    from rummikub.cards.game.simulate import play_game
    from rummikub.cards.game.strategies import strategy

    rules = with_options(preset("rummy"), {"target": 30})
    record, state = play_game(rules, [strategy("best"), strategy("best")], 5)
    assert state.over
    path = tmp_path / "rummy.toml"
    path.write_text(card_record.dumps(record), encoding="utf-8")
    return path, card_record.dumps(record)


def test_a_hand_dealt_after_the_game_s_end_is_named(tmp_path: Path) -> None:
    from dataclasses import replace

    from rummikub.cards.game import engine as card_engine
    from rummikub.cards.game import record as card_record

    path, _ = _finished_card_game(tmp_path)
    record = card_record.load(path)
    extra = card_record.Hand(card_engine.deal_hand(record.rules, 2, 5, len(record.hands)))
    path.write_text(card_record.dumps(replace(record, hands=(*record.hands, extra))))
    hand = len(record.hands) + 1
    for command in ("show", "replay"):
        code, output = run("game", command, str(path))
        assert code == 1, output
        # The replay names the record, as show and hint do, and the hand.
        assert f"{path}: hand {hand}: dealt after the game's end" in output


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ('card = "4H"', 'card = "ZZ"', 2),  # not a card: bad input
        ('card = "4H"', 'card = "5H"', 1),  # a card, but not the one drawn: illegal
    ],
)
def test_a_record_s_turn_that_is_no_card_is_bad_input_everywhere(
    tmp_path: Path, old: str, new: str, code: int
) -> None:
    path, text = _finished_card_game(tmp_path)
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    for command in ("show", "replay"):
        found, output = run("game", command, str(path))
        assert found == code, (command, output)
        assert f"{path}: hand 1, turn 1" in output
    found, output = run("game", "hint", str(path))
    assert found == 2 and f"{path}: hand 1, turn 1" in output


def test_a_tile_record_s_turn_that_is_no_tile_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "tiles.toml"
    record = deal(["Ann", "Bob"], STANDARD, 2)
    path.write_text(dumps(record) + '\n[[turns]]\nplayer = 0\ndraw = "hello"\n')
    for command in ("show", "replay", "hint"):
        code, output = run("game", command, str(path))
        assert code == 2, (command, output)
        assert "invalid tile 'hello'" in output


# -- a batch of solves raises the first bad position's error ------------------------------


def _too_many(tile: str) -> Any:
    """A position holding three ``tile`` in a box of two: refused by every solve."""
    from dataclasses import replace

    from rummikub import Position

    position = Position.parse(rack=tile, table=["K1 K2 K3"])
    return replace(position, rack=(position.rack[0],) * 3)


def test_a_batch_raises_the_first_bad_position_s_error_whatever_the_workers() -> None:
    from rummikub import Position
    from rummikub.core.errors import PositionError
    from rummikub.tiles.solver import solve
    from rummikub.tiles.solver.batch import CHUNK, BatchSolver

    # The first worker takes the first two chunks: slow positions, the first bad one last;
    # the second worker's chunk starts with another bad one, reported long before.
    slow = [
        Position.parse(
            rack=f"R{n} R{n + 1} B{n} B{n + 1} O{n} K{n} J {extra}",
            table=["O1 O2 O3", "K11 K12 K13"],
        )
        for n in range(1, 12)
        for extra in ("K9 K10", "R12 O12")
    ][: 2 * CHUNK - 1]
    assert len(set(slow)) == len(slow)  # none solved once for two
    first, later = _too_many("R9"), _too_many("B9")
    items = [*slow, first, later, *slow[:3]]
    with pytest.raises(PositionError) as alone:
        for position in items:
            solve(position)
    assert "R9" in str(alone.value)
    for jobs in (1, 2, 3):
        with BatchSolver(jobs) as solver, pytest.raises(PositionError) as batch:
            solver.solve(items)
        assert str(batch.value) == str(alone.value), jobs


def test_a_batch_names_a_position_that_is_not_one() -> None:
    from rummikub.tiles.solver.batch import solve_many

    with pytest.raises(TypeError, match=r"^positions\[1\] must be a Position, got list"):
        solve_many([_too_many("R9"), [1]])  # type: ignore[list-item]


def test_a_review_of_a_record_with_no_tile_in_a_turn_is_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "tiles.toml"
    record = deal(["Ann", "Bob"], STANDARD, 2)
    path.write_text(dumps(record) + '\n[[turns]]\nplayer = 0\ndraw = "hello"\n')
    for extra in ([], ["--equity"]):
        code, output = run("analyse", str(path), *extra)
        assert code == 2, (extra, output)
        assert "The replay stopped: turn 1: column 1 ('hello')" in output
    # A turn that is tiles but breaks the rules stays exit 1.
    path.write_text(dumps(record) + '\n[[turns]]\nplayer = 0\ndraw = "R1"\n')
    code, output = run("analyse", str(path))
    assert code == 1 and "The replay stopped" in output
