"""Card self-play: every turn of self-played games re-checked by the card checker, the same
seed the same games (with and without Dask), a strategy that fails costs its game only,
and ``rummikub simulate --game``."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import rummikub.cards as cards_api
from benchmarks import cardgames
from benchmarks.cardgames import recheck
from rummikub.cards import preset, with_options
from rummikub.cards.game import engine
from rummikub.cards.game.simulate import (
    CardSetup,
    GameFailed,
    play_game,
    play_turn,
    simulate,
    summarize,
    to_text,
)
from rummikub.cards.game.strategies import STRATEGIES, CardStrategy, Lay, playable, strategy
from rummikub.cards.game.view import CardView, view_of
from rummikub.cards.rules import GAMES, CardRules
from rummikub.cli import main
from rummikub.core.errors import RummikubError
from tests.tools import needs_dask

#: Short games: small hands, low targets (contract games play their seven deals).
SHORT: dict[str, dict[str, object]] = {
    "rummy": {"hand_size": 6, "target": 30},
    "500-rum": {"hand_size": 6, "target": 100},
    "romme": {"hand_size": 7, "target": 60},
    "continental": {},
    "california": {},
}


def short(game: str) -> CardRules:
    return with_options(preset(game), SHORT[game])


@pytest.mark.parametrize("game", GAMES)
def test_every_turn_of_self_played_games_passes_the_checker(game: str) -> None:
    # Two short games per preset here, the casual player against the one that keeps its
    # cards; benchmarks/cardgames.py re-checks 50 games per preset (RESULTS.md).
    rules = short(game)
    for seed, seats in ((1, ("casual", "keep")), (2, ("keep", "casual", "casual"))):
        played, state = play_game(rules, [strategy(s) for s in seats], seed)
        assert state.over and state.result is not None
        assert recheck(played) == sum(len(h.turns) for h in played.hands) - sum(
            1 for r in state.results if r.out is None
        )


def test_the_best_player_plays_legal_turns_with_the_solver() -> None:
    rules = with_options(preset("500-rum"), {"hand_size": 6, "target": 60})
    played, state = play_game(rules, [strategy("best"), strategy("casual")], 3)
    assert state.over
    assert recheck(played) > 0


def test_the_same_seed_gives_the_same_game() -> None:
    rules = short("rummy")
    one = play_game(rules, [strategy("casual"), strategy("keep")], 9)
    assert one == play_game(rules, [strategy("casual"), strategy("keep")], 9)
    assert one[0] != play_game(rules, [strategy("casual"), strategy("keep")], 10)[0]


def _raises(view: CardView) -> Lay:
    raise ValueError("this strategy gave up")


def test_a_strategy_that_fails_costs_its_game_only() -> None:
    broken = CardStrategy("raises", STRATEGIES["casual"].draw, _raises, STRATEGIES["casual"].claim)
    with pytest.raises(GameFailed, match="this strategy gave up"):
        play_game(short("rummy"), [broken, strategy("casual")], 1)

    def cheats(view: CardView) -> Lay:
        return Lay(discard=cards_api.parse_cards("*")[0])

    bad = CardStrategy("cheats", STRATEGIES["casual"].draw, cheats, STRATEGIES["casual"].claim)
    with pytest.raises(GameFailed) as error:
        play_game(short("500-rum"), [bad, strategy("casual")], 1)
    assert error.value.hand == 1 and error.value.turn == 1 and error.value.seat == 0


def test_the_report_counts_wins_and_totals() -> None:
    setup = CardSetup(short("romme"), ("casual", "keep"), 2, seed=3)
    found = simulate(setup, 3)
    assert [g.index for g in found] == [0, 1, 2]
    assert [g.seats for g in found] == [("casual", "keep"), ("keep", "casual"), ("casual", "keep")]
    report = summarize(setup, found)
    assert report.games == 3 and not report.failures
    assert sum(line.wins for line in report.strategies) == pytest.approx(3)
    for line, name in zip(report.strategies, ("casual", "keep"), strict=True):
        totals = [g.totals[g.seats.index(name)] for g in found]
        assert line.mean_total == pytest.approx(sum(totals) / 3)
    text = to_text(report)
    assert text.startswith("romme: 3 games, 2 players, seed 3 (lowest total wins)")
    failed = replace(found[0], error=None, winners=(0, 1))
    shared = summarize(setup, [failed])
    assert [line.wins for line in shared.strategies] == [0.5, 0.5]


def test_bad_setups_are_named() -> None:
    with pytest.raises(RummikubError, match="unknown card strategy 'nobody'"):
        CardSetup(short("rummy"), ("nobody",), 2)
    with pytest.raises(RummikubError, match="rummy seats 2-6"):
        CardSetup(short("rummy"), ("casual",), 7)


ARGS = [
    "simulate",
    "--game",
    "rummy",
    "--games",
    "2",
    "--players",
    "2",
    "--strategy",
    "casual,keep",
    "--seed",
    "4",
    "--rule",
    "hand_size=6",
    "--rule",
    "target=30",
    "--no-progress",
]


def test_simulate_game_prints_the_report() -> None:
    result = CliRunner().invoke(main, [*ARGS, "--workers", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "rummy: 2 games, 2 players, seed 4 (highest total wins)"
    assert lines[2].startswith("casual ")
    data = json.loads(CliRunner().invoke(main, [*ARGS, "--workers", "1", "--json"]).stdout)
    assert data["game"] == "rummy" and data["games"] == 2
    assert data["rules"] == {"target": 30, "hand_size": 6}


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--rules", "standard"], "--rules is a tile rule set"),
        (["--rule", "target=0"], "target=0"),
        (["--strategy", "hold"], "unknown card strategy 'hold'"),
        (["--players", "7"], "rummy seats 2-6"),
    ],
)
def test_simulate_game_refuses_bad_options(extra: list[str], message: str) -> None:
    result = CliRunner().invoke(main, [*ARGS, "--workers", "1", *extra])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


@needs_dask
def test_simulate_game_is_the_same_with_dask() -> None:
    here = CliRunner().invoke(main, [*ARGS, "--workers", "1", "--json"])
    there = CliRunner().invoke(main, [*ARGS, "--workers", "2", "--batch-size", "1", "--json"])
    assert here.exit_code == there.exit_code == 0, there.output
    assert here.stdout == there.stdout


def test_the_benchmark_writes_its_section(tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.md"
    out.write_text("# Benchmarks\n\n<!-- cardgames:start -->\nold\n<!-- cardgames:end -->\n")
    said: list[str] = []
    assert (
        cardgames.main(["--games", "1", "--solver-games", "0", "--out", str(out)], said.append) == 0
    )
    text = out.read_text()
    assert "old" not in text and text.count("<!-- cardgames:start -->") == 1
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert [row.split("|")[1].strip() for row in rows] == [f"`{g}`" for g in GAMES]


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(["rummy", "500-rum"]), st.integers(0, 2**32), st.integers(2, 4))
def test_every_state_of_a_game_holds_the_whole_pack(game: str, seed: int, players: int) -> None:
    rules = with_options(preset(game), {"hand_size": 5, "target": 40})
    played, state = play_game(rules, [strategy("casual")] * players, seed)
    pack = Counter(engine.pack(state.rules))
    for each in engine.replay(played).states:
        held = Counter(c for hand in each.hands for c in hand or ())
        assert [len(h or ()) for h in each.hands] == list(each.counts)
        held += Counter(c for meld in each.table for c in meld.cards)
        held += Counter([*each.pile, *(each.stock or ())])
        assert held == pack
        assert len(each.stock or ()) == each.stock_count
        assert len(each.owners) == len(each.table)


@pytest.mark.parametrize("game", ["romme", "continental", "california"])
def test_the_solver_players_make_legal_turns_in_the_middle_of_a_game(game: str) -> None:
    # Positions from a casual game (tables with melds, opened players, claims), each played
    # on by best and by keep: every turn they make is judged by the engine.
    played, _ = play_game(short(game), [strategy("casual")] * 2, 4)
    states = [s for s in engine.replay(played).states if not s.hand_over and not s.over]
    for name in ("best", "keep"):
        for state in states[:: max(1, len(states) // 4)][:4]:
            after, turn = play_turn(state, [strategy(name)] * 2)
            again = engine.advance(state, turn)
            assert again.table == after.table and again.hands == after.hands


def test_no_strategy_takes_a_pile_card_after_which_no_turn_is_legal() -> None:
    # A Continental duel (equity against keep, seed 4712, game 38) stopped on "the turn
    # ends with a discard": in one of equity's playouts keep, down and holding only the
    # wild aces AH AD, took the top discard AC (it "makes a set of aces"), after which no
    # turn is legal (AC may not go back on the pile, nor a wild card while AC is held, and
    # no meld takes all three), and read the solver's "infeasible" as going out.
    state = engine.start(engine.new_game(["P1", "P2"], preset("continental"), 1))
    state = replace(
        state,
        hands=(tuple(cards_api.parse_cards("AH AD")), tuple(cards_api.parse_cards("5D 8C"))),
        counts=(2, 2),
        table=(cards_api.read_meld("4S 4H 4C", state.rules),),
        owners=((1, 1, 1),),
        pile=tuple(cards_api.parse_cards("7C AC")),
        opened=(True, True),
    )
    view = view_of(state, 0)
    assert not playable(view.position(), 0) and playable(view.position(), "stock")
    for name in ("keep", "casual", "best", "equity"):
        after, turn = play_turn(state, [strategy(name)] * 2)
        assert turn.draw == "stock", name
        assert engine.advance(state, turn).hands == after.hands
    # A lay-down asked for after such a pick names the draw, not a missing discard.
    with pytest.raises(RummikubError, match="no legal turn follows the draw 0"):
        strategy("keep").lay(replace(view, drawn=0))
