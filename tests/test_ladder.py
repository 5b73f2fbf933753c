"""Ladders: the maths (Bradley-Terry, the Nash view), the pairs' seeds, the same bytes in
one process and on Dask, the kept pairs of --save, the command line and its bad input."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest

from rummikub import Rules, games
from rummikub.core.errors import RummikubError
from rummikub.play.ladder import (
    PairResult,
    bradley_terry,
    ladder_of,
    nash,
    pair_seed,
    play,
    summarize,
    to_csv,
)
from tests.tools import needs_dask, run

#: Games in this box take a few solves each (as tests/test_duel.py's).
FAST = Rules(numbers=6, colors="KRB", jokers=1, initial_meld=6)
FAST_OPTIONS = [
    *("--rule", "numbers=6", "--rule", "colors=KRB", "--rule", "jokers=1"),
    *("--rule", "initial_meld=6", "--rack-size", "5"),
]
GAME = games.game_of(
    rule_options={"numbers": "6", "colors": "KRB", "jokers": "1", "initial_meld": "6"}, rack_size=5
)


def make(players: int = 2):  # type: ignore[no-untyped-def]
    return lambda a, b, seed: games.pairing(GAME, a, b, players, seed)


# -- the maths -------------------------------------------------------------------------------


def test_bradley_terry_finds_the_strengths_behind_a_matrix() -> None:
    """Wins in the proportions of known strengths give those strengths back (mean-zero logs),
    and more games give narrower errors."""
    strengths = [1.0, 2.0, 4.0, 0.5]
    n = len(strengths)
    played = [[0.0 if i == j else 100.0 for j in range(n)] for i in range(n)]
    wins = [
        [0.0 if i == j else 100 * strengths[i] / (strengths[i] + strengths[j]) for j in range(n)]
        for i in range(n)
    ]
    theta, errors = bradley_terry(wins, played, prior=0)
    logs = [math.log(s) for s in strengths]
    mean = sum(logs) / n
    assert [round(t, 6) for t in theta] == [round(x - mean, 6) for x in logs]
    _, fewer = bradley_terry(wins, [[g / 4 for g in row] for row in played], prior=0)
    assert all(0 < e < f for e, f in zip(errors, fewer, strict=True))
    assert all(math.isclose(f, 2 * e, rel_tol=1e-6) for e, f in zip(errors, fewer, strict=True))


def test_a_clean_sweep_has_a_finite_rating_with_the_prior() -> None:
    theta, errors = bradley_terry([[0, 10], [0, 0]], [[0, 10], [10, 0]])
    assert theta[0] > 0 > theta[1] and all(math.isfinite(e) for e in errors)


RPS = [[0.0, 0.5, -0.5], [-0.5, 0.0, 0.5], [0.5, -0.5, 0.0]]


def test_nash_of_rock_paper_scissors_is_a_third_each() -> None:
    assert [round(p, 9) for p in nash(RPS)] == [round(1 / 3, 9)] * 3


def test_a_dominated_strategy_gets_no_weight() -> None:
    """A fourth strategy that loses to all three: out of the mixture, the three even."""
    payoff = [[*row, 0.2] for row in RPS] + [[-0.2, -0.2, -0.2, 0.0]]
    mixture = nash(payoff)
    assert mixture[3] == 0.0
    assert [round(p, 9) for p in mixture[:3]] == [round(1 / 3, 9)] * 3


def test_nash_weights_a_transitive_ladder_on_its_top() -> None:
    payoff = [[0.0, -0.1, -0.2], [0.1, 0.0, -0.1], [0.2, 0.1, 0.0]]
    assert nash(payoff) == [0.0, 0.0, 1.0]


def test_copies_of_a_strategy_share_its_weight() -> None:
    """Rock twice: the equilibria form a segment, and the answer splits rock's third evenly
    (as the maximum-entropy equilibrium does)."""
    rows = [RPS[0], RPS[0], RPS[1], RPS[2]]
    payoff = [[row[k] for k in (0, 0, 1, 2)] for row in rows]
    assert [round(p, 9) for p in nash(payoff)] == [
        round(x, 9) for x in (1 / 6, 1 / 6, 1 / 3, 1 / 3)
    ]


def test_ties_that_leave_a_support_undetermined_still_give_an_equilibrium() -> None:
    """Exact ties (common with rates of few games): no support's own indifference fixes a
    mixture here, and that of one strategy outside it does."""
    upper = {(0, 1): 0.1, (0, 2): -0.2, (0, 3): 0.1, (0, 4): -0.1, (1, 4): 0.1, (2, 3): 0.1}
    upper |= {(2, 4): -0.1, (4, 3): 0.0, (1, 2): 0.0, (1, 3): 0.0}
    payoff = [[0.0] * 5 for _ in range(5)]
    for (i, j), value in upper.items():
        payoff[i][j], payoff[j][i] = value, -value
    mixture = nash(payoff)
    assert sum(mixture) == pytest.approx(1) and min(mixture) >= 0
    gains = [sum(payoff[j][i] * p for i, p in enumerate(mixture)) for j in range(5)]
    assert max(gains) <= 1e-9


def test_an_intransitive_ladder_is_summarized_with_its_nash_view() -> None:
    """Rock-paper-scissors as played games: equal ratings, a third each, all even against it."""
    ladder = ladder_of(("rock", "paper", "scissors"), 2, 1, 10, _named_pairs)
    beats = {("paper", "rock"), ("rock", "scissors"), ("scissors", "paper")}
    pairs = [
        PairResult(m.a, m.b, 10, 8.0 if (m.a, m.b) in beats else 2.0, 0, ())
        for m in ladder.matchups
    ]
    report = summarize(ladder, pairs)
    assert [round(x, 6) for x in report.mixture] == [round(1 / 3, 6)] * 3
    assert [round(x, 6) for x in report.against_nash] == [0.5] * 3
    assert len({round(r.rating, 6) for r in report.ratings}) == 1
    assert report.rate(1, 0) == 0.8 and report.rate(0, 1) == pytest.approx(0.2)
    rows = list(csv.reader(io.StringIO(to_csv(report))))
    assert rows[0] == ["strategy", "opponent", "games", "wins", "win_rate", "low", "high"]
    assert len(rows) == 1 + 3 * 2
    assert rows[3][:5] == ["paper", "rock", "10", "8.0", "0.8"]


def _named_pairs(a: str, b: str, seed: int) -> object:
    """A pairing of any names (for the arithmetic alone: nothing is played)."""
    return games.pairing(GAME, "best", "casual", 2, seed)


# -- the pairs and their seeds ---------------------------------------------------------------


def test_a_pairs_seed_is_the_same_whatever_the_order_and_the_others() -> None:
    assert pair_seed(7, "best", "hoard") == pair_seed(7, "hoard", "best")
    assert pair_seed(7, "best", "hoard") != pair_seed(8, "best", "hoard")
    small = ladder_of(("hoard", "best"), 2, 7, 4, make())
    big = ladder_of(("tiles", "best", "casual", "hoard"), 2, 7, 4, make())
    (only,) = small.matchups
    same = next(m for m in big.matchups if (m.a, m.b) == ("best", "hoard"))
    assert only.duels[0].seed == same.duels[0].seed == pair_seed(7, "best", "hoard")
    assert only.schedule() == same.schedule()
    assert len(big.matchups) == 6


def test_three_players_play_each_pair_both_ways() -> None:
    ladder = ladder_of(("best", "casual"), 3, 1, 6, make(3))
    (matchup,) = ladder.matchups
    assert [(d.a, d.b) for d in matchup.duels] == [("best", "casual"), ("casual", "best")]
    assert matchup.games == 3 and ladder.total == 6
    with pytest.raises(RummikubError, match="multiple of 6"):
        ladder_of(("best", "casual"), 3, 1, 3, make(3))


def test_a_three_player_pair_counts_equal_seats() -> None:
    ladder = ladder_of(("best", "casual"), 3, 1, 6, make(3))
    (pair,) = play(ladder)
    assert pair.games == 6
    first, second = pair.duels
    assert first["a"] == "best" and second["a"] == "casual"
    assert pair.a_wins == pytest.approx(first["a_wins"] + second["games"] - second["a_wins"])


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (("best",), "at least two strategies"),
        (("best", "best"), "named twice"),
        (("best", "nobody"), "nobody"),
    ],
)
def test_a_ladder_refuses(names: tuple[str, ...], message: str) -> None:
    with pytest.raises(RummikubError, match=message):
        ladder_of(names, 2, 1, 4, make())


# -- the command line ------------------------------------------------------------------------


def test_the_command_gives_json_and_csv(tmp_path: Path) -> None:
    path = tmp_path / "ladder.csv"
    code, out, err = run(
        "ladder",
        "best",
        "casual",
        "hoard",
        "--games",
        "2",
        "--seed",
        "3",
        *FAST_OPTIONS,
        "--workers",
        "1",
        "--json",
        "--csv",
        str(path),
    )
    assert code == 0, out + err
    data = json.loads(out)
    assert data["ladder"]["strategies"] == ["best", "casual", "hoard"]
    assert data["ladder"]["games_per_pair"] == 2
    assert [(p["a"], p["b"]) for p in data["pairs"]] == [
        ("best", "casual"),
        ("best", "hoard"),
        ("casual", "hoard"),
    ]
    matrix = data["matrix"]["win_rate"]
    assert matrix[0][0] is None
    assert all(
        matrix[i][j] + matrix[j][i] == pytest.approx(1)
        for i in range(3)
        for j in range(3)
        if i != j
    )
    assert sum(data["nash"]["mixture"].values()) == pytest.approx(1)
    assert [r["name"] for r in data["ratings"]] == ["best", "casual", "hoard"]
    rows = path.read_text(encoding="utf-8").splitlines()
    assert rows[0] == "strategy,opponent,games,wins,win_rate,low,high" and len(rows) == 7
    assert err.startswith("6 games in ")


def test_save_keeps_finished_pairs_and_a_rerun_gives_the_same_bytes(tmp_path: Path) -> None:
    saved = tmp_path / "pairs.json"
    args = ["--games", "2", "--seed", "3", *FAST_OPTIONS, "--workers", "1", "--json"]
    fresh = run("ladder", "best", "casual", *args)
    first = run("ladder", "best", "casual", *args, "--save", str(saved))
    assert first[1] == fresh[1]
    kept = json.loads(saved.read_text(encoding="utf-8"))
    assert (kept["format"], kept["version"]) == ("rummikub-ladder-pairs", 2)
    assert [len(duel["games"]) for duel in kept["duels"]] == [2] and "pairs" not in kept
    # A rerun plays nothing (the pair is taken from the file) and says the same.
    again = run("ladder", "casual", "best", *args, "--save", str(saved))
    assert json.loads(again[1])["pairs"] == json.loads(first[1])["pairs"]
    assert again[2].startswith("0 games in ")
    # A strategy added plays its own pairs only; the kept one is unchanged.
    more = run("ladder", "best", "casual", "hoard", *args, "--save", str(saved))
    assert json.loads(more[1])["pairs"][0] == json.loads(first[1])["pairs"][0]
    assert more[2].startswith("4 games in ")  # best-hoard and casual-hoard
    assert len(json.loads(saved.read_text(encoding="utf-8"))["duels"]) == 3


def test_a_save_file_of_something_else_is_refused(tmp_path: Path) -> None:
    saved = tmp_path / "pairs.json"
    saved.write_text('{"format": "rummikub-game"}', encoding="utf-8")
    code, out, err = run("ladder", "best", "casual", "--games", "2", "--save", str(saved))
    assert code == 2 and "not a file of ladder pairs" in out + err
    assert len((out + err).strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["best"], "at least two strategies"),
        (["best", "nobody"], "nobody"),
        (["best", "casual", "--games", "0"], "--games 0"),
        (["best", "casual", "--games", "3"], "multiple of 2"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = run("ladder", *args)
    assert code == 2
    assert message in out + err
    assert len((out + err).strip().splitlines()) == 1


def test_a_card_ladder() -> None:
    code, out, err = run(
        "ladder",
        "best",
        "casual",
        "--game",
        "rummy",
        "--games",
        "2",
        "--seed",
        "1",
        "--rule",
        "target=50",
        "--workers",
        "1",
    )
    assert code == 0, out + err
    assert out.startswith("Ladder of 2 strategies at rummy: 2 players, 2 games a pair")


@needs_dask
def test_a_local_cluster_ladder_gives_the_same_bytes() -> None:
    args = ["ladder", "best", "casual", "hoard", "--games", "2", "--seed", "1", *FAST_OPTIONS]
    here = run(*args, "--workers", "1")
    there = run(*args, "--workers", "2", "--batch-size", "1")
    assert here[0] == there[0] == 0
    assert there[1] == here[1]


def test_the_chart_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "ladder.png"
    code, _, _ = run(
        "ladder",
        "best",
        "casual",
        "--games",
        "2",
        *FAST_OPTIONS,
        "--workers",
        "1",
        "--chart",
        str(path),
    )
    assert code == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
