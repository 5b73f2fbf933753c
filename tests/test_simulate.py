"""Self-play: the summary's statistics, seeding, and the same games through Dask."""

from __future__ import annotations

import pytest

from rummikub import Rules
from rummikub.tiles.game.simulate import (
    GameFailure,
    GameSummary,
    Setup,
    game_seed,
    lineup_of,
    mean_ci,
    simulate,
    summarize,
    to_text,
    wilson,
)
from rummikub.tiles.game.strategies import STRATEGIES
from tests import broken_strategies
from tests.tools import needs_dask

SMALL = Rules(numbers=8, colors="KRB", jokers=1, initial_meld=10)
#: Games in this box take a few solves each, so the suite stays fast.
FAST = Rules(numbers=6, colors="KRB", jokers=1, initial_meld=6)
SETUP = Setup(("best", "casual"), players=2, rules=FAST, rack_size=5, seed=4)


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch) -> Setup:
    """Strategies broken on purpose, known by name for one test; a run where ``cheats``
    makes a move the engine refuses in game 0 and not in game 1."""
    monkeypatch.setitem(STRATEGIES, "raises", broken_strategies.raises)
    monkeypatch.setitem(STRATEGIES, "cheats", broken_strategies.cheats)
    return Setup(("best", "cheats"), players=2, rules=FAST, rack_size=5, seed=4)


def test_every_strategy_plays_every_seat() -> None:
    setup = Setup(("best", "hold", "casual"), players=3, rules=SMALL, rack_size=7)
    lineups = [lineup_of(setup, i) for i in range(3)]
    for seat in range(3):
        assert sorted(lineup[seat] for lineup in lineups) == ["best", "casual", "hold"]
    assert game_seed(1, 0) != game_seed(1, 1) != game_seed(2, 0)


def test_the_intervals() -> None:
    assert wilson(0, 10)[0] == 0.0 and 0.2 < wilson(0, 10)[1] < 0.35
    low, high = wilson(50, 100)
    assert low < 0.5 < high and high - low == pytest.approx(0.19, abs=0.01)
    mean, (lo, hi) = mean_ci([10.0, -10.0, 10.0, -10.0])
    # The sample standard deviation (n - 1): sqrt(400 / 3); the standard error halves it.
    assert mean == 0.0 and lo == pytest.approx(-hi)
    assert hi == pytest.approx(1.96 * (400 / 3) ** 0.5 / 2, rel=0.001)


def test_the_summary_counts_ties_as_shared_wins() -> None:
    games = [
        GameSummary(0, 1, ("best", "casual"), "went_out", (0,), (10.0, -10.0), 20, False),
        GameSummary(1, 2, ("casual", "best"), "pool_empty", (0, 1), (0.0, 0.0), 40, True),
    ]
    report = summarize(SETUP, games)
    best, casual = report.strategies
    assert (best.wins, best.win_rate, best.mean_score) == (1.5, 0.75, 5.0)
    assert (casual.wins, casual.mean_score) == (0.5, -5.0)
    assert [s.wins for s in report.seats] == [1.5, 0.5]
    assert report.pool_exhausted == 0.5 and report.mean_turns == 30.0
    assert report.endings == {"went_out": 1, "pool_empty": 1}


def test_the_same_seed_gives_the_same_games() -> None:
    one = simulate(SETUP, 2)
    assert simulate(SETUP, 2) == one
    other = Setup(SETUP.strategies, players=2, rules=FAST, rack_size=5, seed=5)
    assert simulate(other, 2) != one


def test_a_failing_strategy_costs_its_game_only(broken: Setup) -> None:
    first, second = simulate(broken, 2)
    assert second.error is None and second.ending in ("went_out", "pool_empty")
    error = first.error
    assert error is not None and first.ending == "failed" and first.scores == ()
    assert (error.game, error.seed, error.seat, error.strategy) == (0, game_seed(4, 0), 1, "cheats")
    assert error.turn == first.turns + 1 == 40
    assert (
        error.message.startswith("table tile ") and "is missing from the new table" in error.message
    )
    report = summarize(broken, [first, second])
    assert report.games == 1 and report.failures == (error,)
    assert sum(line.games for line in report.strategies) == 2  # one game, two seats
    assert to_text(report).endswith(f"1 game failed (left out of the figures above):\n  {error}")
    assert report.to_data()["failures"] == [error.to_data()]
    assert error.to_data()["seat"] == 2  # counted from 1, as in the text


def test_a_strategy_that_raises_is_named(broken: Setup) -> None:
    setup = Setup(("casual", "raises"), players=2, rules=FAST, rack_size=5, seed=1)
    errors = [g.error for g in simulate(setup, 3) if g.error is not None]
    assert errors and all(e.message == "ValueError: this strategy gave up" for e in errors)
    assert all(e.strategy == "raises" for e in errors)


def test_a_summary_of_failed_games_only() -> None:
    failure = GameFailure(0, 1, 3, 0, "best", "no")
    failed = GameSummary(0, 1, ("best", "casual"), "failed", (), (), 2, False, failure)
    report = summarize(SETUP, [failed])
    assert report.games == 0 and report.failures == (failure,)
    assert [line.games for line in report.strategies] == [0, 0]


@needs_dask
def test_a_local_cluster_plays_the_same_games(broken: Setup) -> None:
    done: list[int] = []
    # The strategy that fails is looked up here and sent to the workers with the games.
    found = simulate(broken, 2, workers=2, batch_size=1, progress=done.append)
    assert found == simulate(broken, 2)
    assert found[0].error is not None and found[1].error is None
    assert sum(done) == 2


def test_the_benchmark_section_is_replaced_in_place() -> None:
    from benchmarks.simulate import END, START, estimate, markdown, replace_section

    found = {"games": 4, "repeats": 1, "players": 2, "in_process": 2.0, "dask_1": 2.5}
    found |= {"dask_2": 1.5, "task_overhead": 0.002}
    section = markdown(found, "python -m benchmarks simulate")
    assert "| in process (no Dask) | 2.00 | 2.00 | 1.00x |" in section
    assert "| Dask LocalCluster, 2 worker(s) | 1.50 | 2.67 | 1.33x |" in section
    text = replace_section("# Benchmarks\n\nother\n", section)
    assert text.startswith("# Benchmarks\n\nother\n\n" + START)
    again = replace_section(text + "after\n", section.replace("2.67", "9.99"))
    assert again.count(START) == 1 and "9.99" in again and again.endswith(END + "\nafter\n")
    # Twice the workers, twice the games, while the scheduler keeps up.
    assert estimate(0.5, 0.002, 16, 10) == pytest.approx(2 * estimate(0.5, 0.002, 8, 10))
    assert estimate(0.001, 0.002, 10_000, 1) < 10_000 / 0.003


def test_the_command_names_a_failed_game_and_exits_1(broken: Setup) -> None:
    from click.testing import CliRunner

    from rummikub.cli import main

    args = ["simulate", "--games", "2", "--players", "2", "--strategy", "best,cheats"]
    args += ["--seed", "4", "--rack-size", "5", "--workers", "1"]
    args += ["--rule", "numbers=6", "--rule", "colors=KRB", "--rule", "jokers=1"]
    result = CliRunner().invoke(main, [*args, "--rule", "initial_meld=6"])
    assert result.exit_code == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "1 games, 2 players, seed 4"
    assert lines[-2] == "1 game failed (left out of the figures above):"
    assert lines[-1].startswith(f"  game 0 (seed {game_seed(4, 0)}): turn 40, seat 2 (cheats): ")
    assert "Traceback" not in result.stdout + result.stderr
