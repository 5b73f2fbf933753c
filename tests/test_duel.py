"""Duels: mirror pairs on the same deal, the report's arithmetic, failures that cost one game,
the command line, and the same bytes on a Dask LocalCluster."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummikub import Rules
from rummikub.core.errors import RummikubError
from rummikub.tiles.game.duel import (
    DuelSetup,
    deal_seed,
    duel,
    seatings,
    summarize,
    to_csv,
    to_text,
)
from rummikub.tiles.game.simulate import GameFailure, GameSummary, play_game
from rummikub.tiles.game.strategies import STRATEGIES
from tests import broken_strategies
from tests.tools import needs_dask, run

#: Games in this box take a few solves each, so the suite stays fast.
FAST = Rules(numbers=6, colors="KRB", jokers=1, initial_meld=6)
SETUP = DuelSetup("best", "casual", players=2, rules=FAST, rack_size=5, seed=1)
FAST_OPTIONS = [
    *("--rule", "numbers=6", "--rule", "colors=KRB", "--rule", "jokers=1"),
    *("--rule", "initial_meld=6", "--rack-size", "5"),
]


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two strategies broken on purpose, known by name for the length of one test."""
    monkeypatch.setitem(STRATEGIES, "raises", broken_strategies.raises)
    monkeypatch.setitem(STRATEGIES, "cheats", broken_strategies.cheats)


# -- deals and seatings ----------------------------------------------------------------------


def test_a_mirror_pair_swaps_the_seats_on_the_same_deal() -> None:
    games = seatings(SETUP, 3)
    assert [g.index for g in games] == list(range(6))
    for deal in range(3):
        first, second = games[2 * deal], games[2 * deal + 1]
        assert first.seed == second.seed == deal_seed(SETUP.seed, deal)
        assert (first.seats, second.seats) == (("best", "casual"), ("casual", "best"))
    assert len({g.seed for g in games}) == 3  # every deal its own
    # The games played are these: the same deal (racks and pool), the strategies swapped.
    played = duel(SETUP, 2)
    records = []
    for game, seating in zip(played, games[:2], strict=True):
        players = [STRATEGIES[name] for name in seating.seats]
        record, state = play_game(FAST, players, seating.seed, rack_size=5)
        assert (game.seats, game.turns, game.scores) == (
            seating.seats,
            state.turns,
            state.result.scores,
        )  # type: ignore[union-attr]
        records.append(record)
    assert records[0].deal == records[1].deal
    assert records[0].turns != records[1].turns  # other players, so another game


def test_three_and_four_players_rotate_the_seats() -> None:
    three = DuelSetup("best", "casual", players=3, rules=FAST, rack_size=5)
    assert three.seatings == (("A", "B", "A"), ("B", "A", "A"), ("A", "A", "B"))
    assert three.even_rate == pytest.approx(2 / 3)
    # B plays every seat once over a deal's seatings; A the other two.
    assert sorted(lineup.index("B") for lineup in three.seatings) == [0, 1, 2]
    four = DuelSetup("best", "casual", players=4, rules=FAST, rack_size=4)
    # The other two rotations of A B A B repeat these two, and are not played again.
    assert four.seatings == (("A", "B", "A", "B"), ("B", "A", "B", "A"))
    assert [g.seats for g in seatings(three, 1)] == [
        ("best", "casual", "best"),
        ("casual", "best", "best"),
        ("best", "best", "casual"),
    ]
    assert three.check_games(9) == 3 and four.check_games(4) == 2
    for setup, games in ((three, 10), (SETUP, 3), (SETUP, 0)):
        with pytest.raises(RummikubError, match="must be a positive multiple of"):
            setup.check_games(games)
    with pytest.raises(RummikubError, match="at most 1,000,000 games"):
        SETUP.check_games(2_000_002)


def test_the_same_strategy_twice_and_unknown_names() -> None:
    assert DuelSetup("best", "best").seatings == (("A", "B"), ("B", "A"))
    with pytest.raises(RummikubError, match="unknown strategy 'wild'"):
        DuelSetup("best", "wild")


# -- the report's arithmetic -----------------------------------------------------------------


def _game(
    index: int, winners: tuple[int, ...], scores: tuple[float, ...], turns: int
) -> GameSummary:
    seats = ("best", "casual") if index % 2 == 0 else ("casual", "best")
    ending = "pool_empty" if len(winners) > 1 else "went_out"
    return GameSummary(index, 7, seats, ending, winners, scores, turns, ending == "pool_empty")


def test_the_report_computed_by_hand() -> None:
    games = [
        # Deal 0: A (best) wins in both seats: differences 20 and 12, the deal's mean 16.
        _game(0, (0,), (10.0, -10.0), 20),
        _game(1, (1,), (-6.0, 6.0), 30),
        # Deal 1: B wins the first seating (difference -16), the second is a tie (0, half a
        # win each): the deal's mean -8, and the deal is split.
        _game(2, (1,), (-8.0, 8.0), 40),
        _game(3, (0, 1), (0.0, 0.0), 50),
    ]
    report = summarize(SETUP, games)
    assert (report.deals, report.games, report.a_wins) == (2, 4, 2.5)
    assert report.a_win_rate == 0.625
    # Wilson, z = 1.959964, n = 4, p = 0.625: centre (0.625 + 0.480182) / 1.960365 =
    # 0.563764, half-width 1.959964 * sqrt(0.058594 + 0.060023) / 1.960365 = 0.344337.
    assert report.a_win_ci == pytest.approx((0.219427, 0.908101), abs=2e-6)
    # Paired by deal: the values 16 and -8, mean 4, standard deviation sqrt(288), standard
    # error 12, so 4 ± 1.959964 * 12. Per game it would be 4 ± 15.35: another interval.
    assert report.score_difference == 4.0
    assert report.score_difference_ci == pytest.approx((4 - 23.519568, 4 + 23.519568))
    assert (report.decisive_a, report.decisive_b, report.split) == (1, 0, 1)
    # Turns 20, 30, 40, 50: mean 35, standard deviation sqrt(500 / 3), error / 2.
    assert report.mean_turns == 35.0
    half = 1.959964 * math.sqrt(500 / 3) / 2
    assert report.turns_ci == pytest.approx((35 - half, 35 + half))
    assert (report.min_turns, report.max_turns) == (20, 50)
    assert report.endings == {"went_out": 3, "pool_empty": 1}
    data = report.to_data()
    assert data["deals_won"] == {"a": 1, "b": 0, "split": 1}
    assert data["score_difference"] == {"mean": 4.0, "ci": [-19.519568, 27.519568]}
    assert to_csv(report).splitlines()[:3] == [
        "measure,value,low,high",
        "a_win_rate,0.625,0.219427,0.908101",
        "score_difference,4.0,-19.519568,27.519568",
    ]
    assert "A wins 62.5% of the games (95% CI 21.9%-90.8%; even: 50.0%)" in to_text(report)


def test_b_decisive_and_three_player_differences() -> None:
    b_wins = [_game(0, (1,), (-5.0, 5.0), 10), _game(1, (0,), (5.0, -5.0), 10)]
    report = summarize(SETUP, b_wins)
    assert (report.decisive_a, report.decisive_b, report.split, report.a_wins) == (0, 1, 0, 0)
    assert report.score_difference == -10.0
    # At 3 players A holds two seats: the difference is A's mean less B's.
    three = DuelSetup("best", "casual", players=3, rules=FAST, rack_size=5)
    seats = [tuple(three.name(r) for r in roles) for roles in three.seatings]
    games = [
        GameSummary(0, 1, seats[0], "went_out", (1,), (-2.0, 5.0, -3.0), 9, False),  # B wins
        GameSummary(1, 1, seats[1], "went_out", (1,), (-4.0, 6.0, -2.0), 9, False),  # A wins
        GameSummary(2, 1, seats[2], "went_out", (0,), (9.0, -3.0, -6.0), 9, False),  # A wins
    ]
    report = summarize(three, games)
    assert report.a_wins == 2.0 and report.split == 1
    # (-2.5 - 5) + (2 - -4) + (3 - -6), over the deal's three seatings.
    assert report.score_difference == pytest.approx((-7.5 + 6 + 9) / 3)


def test_a_failed_game_leaves_its_deal_out() -> None:
    failure = GameFailure(2, 7, 5, 1, "casual", "ValueError: no")
    games = [
        _game(0, (0,), (10.0, -10.0), 20),
        _game(1, (1,), (-6.0, 6.0), 30),
        GameSummary(2, 7, ("best", "casual"), "failed", (), (), 4, False, failure),
        _game(3, (1,), (0.0, 0.0), 50),
    ]
    report = summarize(SETUP, games)
    assert (report.deals, report.games, report.a_wins, report.max_turns) == (1, 2, 2.0, 30)
    assert report.failures == (failure,)
    text = to_text(report)
    assert text.endswith(
        "1 game failed (their deals are left out of the figures above):\n"
        "  game 2 (seed 7): turn 5, seat 2 (casual): ValueError: no"
    )
    assert report.to_data()["failures"] == [
        {
            "game": 2,
            "seed": 7,
            "turn": 5,
            "seat": 2,
            "strategy": "casual",
            "error": "ValueError: no",
        }
    ]


@pytest.mark.usefixtures("broken")
def test_a_strategy_that_raises_costs_its_game_only() -> None:
    setup = DuelSetup("casual", "raises", players=2, rules=FAST, rack_size=5, seed=1)
    games = duel(setup, 4)
    failed = [g for g in games if g.error is not None]
    assert [g.index for g in failed] == [0]
    error = failed[0].error
    assert error is not None
    assert (error.game, error.seed, error.strategy) == (0, deal_seed(1, 0), "raises")
    assert (
        error.message == "ValueError: this strategy gave up" and error.turn == failed[0].turns + 1
    )
    assert setup.seatings[0][error.seat] == "B"
    report = summarize(setup, games)
    assert report.deals == 1 and report.games == 2


# -- the command line ------------------------------------------------------------------------


def test_the_command_reports_text_json_csv_and_is_seeded(tmp_path: Path) -> None:
    args = ["duel", "best", "casual", "--games", "4", "--seed", "1", *FAST_OPTIONS]
    code, out, err = run(*args, "--workers", "1")
    assert code == 0, err
    assert out.splitlines()[:2] == [
        "A best against B casual: 2 players, seed 1",
        "4 games: 2 deals, each in 2 seatings (A B | B A)",
    ]
    assert err.startswith("4 games in ") and err.rstrip().endswith(", 1 worker(s))")
    csv = tmp_path / "d.csv"
    code, out, err = run(*args, "--workers", "1", "--json", "--csv", str(csv))
    assert code == 0, err
    data = json.loads(out)
    assert (data["a"], data["b"], data["games"], data["deals"], data["players"]) == (
        "best",
        "casual",
        4,
        2,
        2,
    )
    assert data["seatings"] == [["A", "B"], ["B", "A"]] and data["failures"] == []
    low, high = data["a_win_rate_ci"]
    assert low <= data["a_win_rate"] <= high
    won = data["deals_won"]
    assert won["a"] + won["b"] + won["split"] == 2
    assert csv.read_text().startswith("measure,value,low,high\na_win_rate,")
    assert run(*args, "--workers", "1", "--json")[1] == out
    other = run("duel", "best", "casual", "--games", "4", "--seed", "2", *FAST_OPTIONS, "--json")
    assert other[1] != out


def test_the_command_refuses_bad_input() -> None:
    code, _, err = run("duel", "best", "wild", "--games", "2")
    assert code == 2 and "unknown strategy 'wild'" in err
    code, _, err = run("duel", "best", "casual", "--games", "3")
    assert code == 2 and err.strip().endswith("must be a positive multiple of 2")
    code, _, err = run("duel", "best", "casual", "--players", "3", "--games", "4")
    assert code == 2 and "plays every deal 3 times" in err
    code, _, err = run("duel", "best")
    assert code == 2 and "Missing argument 'B'" in err
    code, out, _ = run("duel", "--help")
    assert code == 0 and "Strategies: best, tiles, hold, casual" in out


@pytest.mark.usefixtures("broken")
def test_a_failing_game_is_named_and_exits_1() -> None:
    code, out, err = run("duel", "casual", "raises", "--games", "4", "--seed", "1", *FAST_OPTIONS)
    assert code == 1, err
    assert "2 games: 1 deals, each in 2 seatings (A B | B A)" in out
    assert out.rstrip().endswith(
        "1 game failed (their deals are left out of the figures above):\n"
        f"  game 0 (seed {deal_seed(1, 0)}): turn 16, seat 2 (raises): "
        "ValueError: this strategy gave up"
    )
    assert "Traceback" not in out + err


def test_a_chart(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the chart needs the [chart] extra (matplotlib)")
    chart = tmp_path / "d.png"
    code, _, err = run(
        "duel", "best", "casual", "--games", "2", *FAST_OPTIONS, "--chart", str(chart)
    )
    assert code == 0, err
    assert chart.read_bytes().startswith(b"\x89PNG")


@needs_dask
@pytest.mark.usefixtures("broken")
def test_a_local_cluster_duel_gives_the_same_bytes(capfd: pytest.CaptureFixture[str]) -> None:
    args = ["duel", "casual", "raises", "--games", "4", "--seed", "1", *FAST_OPTIONS, "--json"]
    here = run(*args, "--workers", "1")
    there = run(*args, "--workers", "2", "--batch-size", "1")
    assert here[0] == there[0] == 1  # one game failed, in both
    assert there[1] == here[1]
    assert json.loads(there[1])["failures"][0]["strategy"] == "raises"
    assert there[2].startswith("4 games in ") and there[2].rstrip().endswith(", 2 worker(s))")
    # Nothing of the workers' log reached the terminal.
    printed = capfd.readouterr()
    assert "Traceback" not in printed.err + printed.out
    assert "distributed" not in printed.err + printed.out


@settings(max_examples=30)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), deals=st.integers(1, 4))
def test_every_deal_is_played_in_every_distinct_rotation(
    players: int, seed: int, deals: int
) -> None:
    setup = DuelSetup("best", "casual", players=players, rules=FAST, rack_size=4, seed=seed)
    base = ("A", "B", "A", "B")[:players]
    rotations = {tuple(base[(s + r) % players] for s in range(players)) for r in range(players)}
    assert set(setup.seatings) == rotations and len(setup.seatings) == len(rotations)
    games = seatings(setup, deals)
    per = len(setup.seatings)
    assert len(games) == deals * per
    for game in games:
        deal, rotation = divmod(game.index, per)
        assert game.seed == deal_seed(seed, deal)
        assert game.seats == tuple(setup.name(role) for role in setup.seatings[rotation])
    # Over a deal's seatings every seat is held by A and by B, in A's share of the seats.
    for seat in range(players):
        held = [roles[seat] for roles in setup.seatings]
        assert held.count("A") / per == pytest.approx(setup.even_rate)
