"""Card duels (``rummikub duel A B --game NAME``): the duel of :mod:`rummikub.play.duel` on a
card rummy, mirror-paired and seeded as the tile duel, the totals' difference turned so
that a positive one favours A."""

from __future__ import annotations

import json

import pytest

from rummikub.cards import preset, with_options
from rummikub.cards.game.duel import CardDuelSetup
from rummikub.cards.game.simulate import CardGameSummary
from rummikub.core.errors import RummikubError
from rummikub.play.duel import duel, seatings, summarize, to_text
from tests.tools import needs_dask, run

#: Short games: small hands, a low target.
SHORT = ("--rule", "hand_size=6", "--rule", "target=30")
FAST = ["--game", "rummy", *SHORT, "--no-progress"]


def short_rummy() -> CardDuelSetup:
    rules = with_options(preset("rummy"), {"hand_size": 6, "target": 30})
    return CardDuelSetup(rules, "best", "keep", 2, seed=3)


def test_every_deal_is_played_in_mirror_seatings() -> None:
    setup = short_rummy()
    games = seatings(setup, 3)
    assert [g.seats for g in games] == [("best", "keep"), ("keep", "best")] * 3
    assert [g.seed for g in games[::2]] == [g.seed for g in games[1::2]]
    assert len({g.seed for g in games}) == 3
    three = CardDuelSetup(setup.rules, "best", "keep", 3)
    assert three.seatings == (("A", "B", "A"), ("B", "A", "A"), ("A", "A", "B"))


def test_the_same_seed_plays_the_same_duel() -> None:
    setup = short_rummy()
    once = duel(setup, 4)
    assert once == duel(setup, 4)
    other = duel(CardDuelSetup(setup.rules, "best", "keep", 2, seed=4), 4)
    assert [g.totals for g in other] != [g.totals for g in once]
    report = summarize(setup, once)
    assert report.deals == 2 and report.games == 4 and not report.failures
    assert sum(report.endings.values()) == sum(g.hands for g in once)


def _game(index: int, seats: tuple[str, ...], totals: tuple[int, ...]) -> CardGameSummary:
    low = min(range(len(totals)), key=lambda s: totals[s])
    return CardGameSummary(index, 1, seats, (low,), totals, 2, 20, 0)


def test_a_positive_difference_favours_a_where_the_lowest_total_wins() -> None:
    rules = preset("romme")  # the lowest total wins
    setup = CardDuelSetup(rules, "keep", "casual", 2)
    assert setup.lowest_wins
    games = [_game(0, ("keep", "casual"), (10, 50)), _game(1, ("casual", "keep"), (40, 20))]
    report = summarize(setup, games)
    assert report.a_win_rate == 1.0
    assert report.score_difference == pytest.approx(30.0)  # B's totals less A's
    text = to_text(report)
    assert text.startswith("romme: A keep against B casual: 2 players, seed 0 (lowest total wins)")
    assert "Total B-A: mean +30.0 a game" in text and "positive favours A" in text
    high = CardDuelSetup(preset("rummy"), "keep", "casual", 2)
    assert not high.lowest_wins
    assert summarize(high, games).score_difference == pytest.approx(-30.0)  # A's less B's


def test_the_command_reports_json_with_the_tile_keys_and_the_game() -> None:
    code, out, err = run("duel", "best", "keep", "--games", "4", "--seed", "1", *FAST, "--json")
    assert code == 0, err
    data = json.loads(out)
    tile_code, tile_out, _ = run(
        "duel", "best", "casual", "--games", "2", "--workers", "1", "--no-progress", "--json",
        *("--rule", "numbers=6", "--rule", "colors=KRB", "--rule", "jokers=1"),
        *("--rule", "initial_meld=6", "--rack-size", "5"),
    )  # fmt: skip
    assert tile_code == 0
    tile_keys = set(json.loads(tile_out)) - {"rack_size"}
    assert tile_keys <= set(data)
    assert list(data)[:6] == ["game", "a", "b", "players", "seed", "rules"]
    assert data["game"] == "rummy" and data["lowest_total_wins"] is False
    assert set(data["endings"]) == {"went_out", "stock_out"}
    assert set(data) - tile_keys == {"game", "lowest_total_wins", "hands", "rummies", "claims"}
    assert data["games"] == 4 and data["deals"] == 2
    again = run("duel", "best", "keep", "--games", "4", "--seed", "1", *FAST, "--json")
    assert again[1] == out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rack-size", "5"], "--rack-size is the tile game's deal"),
        (["--rules", "boxed"], "--rules is a tile rule set"),
        (["--rule", "initial_meld=0"], "initial_meld"),
        (["--games", "3"], "--games must be a positive multiple of 2"),
        (["--players", "7"], "rummy seats 2-6"),
    ],
)
def test_options_a_card_duel_cannot_take_are_refused(args: list[str], message: str) -> None:
    code, out, err = run("duel", "best", "keep", "--game", "rummy", "--no-progress", *args)
    assert code == 2
    assert message in err and "Traceback" not in err
    assert out == ""


def test_an_unknown_card_strategy_is_named() -> None:
    code, _, err = run("duel", "best", "tiles", "--games", "2", *FAST)
    assert code == 2
    assert "unknown card strategy 'tiles' (expected one of best, keep, casual" in err


def test_a_card_duel_of_lowest_totals_says_how_the_difference_reads() -> None:
    code, out, err = run(
        "duel", "keep", "casual", "--game", "romme", "--games", "2", "--seed", "1",
        "--rule", "hand_size=7", "--rule", "target=60", "--workers", "1", "--no-progress",
    )  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[0].endswith("(lowest total wins)")
    assert "Total B-A: mean " in out and "positive favours A" in out


@needs_dask
def test_a_local_cluster_card_duel_gives_the_same_bytes() -> None:
    args = ["duel", "casual", "keep", "--games", "4", "--seed", "2", *FAST, "--json"]
    here = run(*args, "--workers", "1")
    there = run(*args, "--workers", "2", "--batch-size", "1")
    assert here[0] == there[0] == 0
    assert there[1] == here[1]
    assert there[2].rstrip().endswith(", 2 worker(s))")


def test_a_card_duel_setup_checks_its_strategies_and_seats() -> None:
    rules = preset("rummy")
    with pytest.raises(RummikubError, match="unknown card strategy 'nobody'"):
        CardDuelSetup(rules, "nobody", "keep")
    with pytest.raises(RummikubError, match="rummy seats 2-6"):
        CardDuelSetup(rules, "best", "keep", 7)


def test_a_tile_duel_keeps_its_two_to_four_players() -> None:
    code, out, err = run("duel", "best", "tiles", "--games", "4", "--players", "5")
    assert code == 2 and out == ""
    assert "Invalid value for '--players': 5 is not in the range 2<=x<=4." in err
