"""Games kept in a file (``duel --save``, ``ladder --save``): each game summary's JSON round
trip, a duel or a ladder stopped part way that resumes to the same bytes playing only the
games missing, settings kept apart, two writers, and the files refused."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rummikub import games as registry
from rummikub.cards import preset, with_options
from rummikub.cards.game.duel import CardDuelSetup
from rummikub.cards.game.simulate import CardGameSummary
from rummikub.cli import main
from rummikub.cli import simulate as cli_simulate
from rummikub.core import files
from rummikub.core.errors import RummikubError
from rummikub.play import duel as duels
from rummikub.play import kept, selfplay
from rummikub.play.selfplay import GameFailure, Summary
from rummikub.tiles.game.duel import DuelSetup
from rummikub.tiles.game.simulate import GameSummary
from rummikub.tiles.game.strategies import STRATEGIES
from rummikub.tiles.rules import Rules
from tests import broken_strategies
from tests.tools import needs_dask, run

#: Games in this box take a few solves each, so the suite stays fast.
FAST = Rules(numbers=6, colors="KRB", jokers=1, initial_meld=6)
SETUP = DuelSetup("best", "casual", players=2, rules=FAST, rack_size=5, seed=1)
FAST_OPTIONS = [
    *("--rule", "numbers=6", "--rule", "colors=KRB", "--rule", "jokers=1"),
    *("--rule", "initial_meld=6", "--rack-size", "5"),
]
DUEL = ["duel", "best", "casual", "--seed", "1", *FAST_OPTIONS, "--workers", "1"]
#: A short card rummy.
CARDS = ["--game", "rummy", "--rule", "hand_size=6", "--rule", "target=30"]


class Counted:
    """``selfplay.play_seated`` counted, and stopped (as by Ctrl-C or a machine lost) once
    ``stop_after`` games have finished."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, stop_after: int | None = None) -> None:
        self.calls = 0
        self.stop_after = stop_after
        self.play = selfplay.play_seated
        monkeypatch.setattr(selfplay, "play_seated", self)

    def __call__(self, table: selfplay.Table, seating: selfplay.Seating) -> Summary:
        if self.stop_after is not None and self.calls >= self.stop_after:
            raise RuntimeError("stopped")
        self.calls += 1
        return self.play(table, seating)


def games_in(path: Path) -> list[int]:
    """The count of games kept of each duel of the file at ``path``."""
    return [len(duel["games"]) for duel in json.loads(path.read_text("utf-8"))["duels"]]


# -- a game's summary, and back ----------------------------------------------------------------


def round_trip(setup: duels.Pairing, games: list[Any]) -> list[Any]:
    return [setup.game.read_summary(json.loads(json.dumps(g.to_data()))) for g in games]


@pytest.mark.parametrize("players", [2, 3])
def test_a_tile_game_reads_back_as_it_was(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(STRATEGIES, "raises", broken_strategies.raises)
    setup = DuelSetup("casual", "raises", players=players, rules=FAST, rack_size=5, seed=1)
    games = duels.duel(setup, 2 * len(setup.seatings))
    assert any(g.error is not None for g in games)  # a failure is kept too
    back = round_trip(setup, games)
    assert back == games
    assert all(isinstance(g, GameSummary) for g in back)
    report, again = duels.summarize(setup, games), duels.summarize(setup, back)
    assert duels.to_text(again) == duels.to_text(report)
    assert json.dumps(again.to_data()) == json.dumps(report.to_data())
    assert duels.to_csv(again) == duels.to_csv(report)


def test_a_card_game_reads_back_as_it_was() -> None:
    rules = with_options(preset("rummy"), {"hand_size": 6, "target": 30})
    setup = CardDuelSetup(rules, "best", "keep", 2, seed=3)
    games = duels.duel(setup, 4)
    failure = GameFailure(4, 77, 3, 1, "keep", "ValueError: no", hand=2)
    failed = CardGameSummary(4, 77, ("best", "keep"), (), (), 0, 0, 0, error=failure)
    back = round_trip(setup, [*games, failed])
    assert back == [*games, failed] and back[-1].error.hand == 2
    report = duels.summarize(setup, back[:4])
    assert duels.to_text(report) == duels.to_text(duels.summarize(setup, games))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"turns": "many"}, "'turns': expected an integer, got string \"many\""),
        ({"pool_exhausted": 0}, "'pool_exhausted': expected a boolean, got integer 0"),
        ({"scores": [1.0, "x"]}, "'scores', item 2: expected a number"),
        ({"index": True}, "'index': expected an integer, got boolean true"),
        ({"error": {"game": 0}}, "no 'seed'"),
    ],
)
def test_a_malformed_summary_names_its_field(change: dict[str, Any], message: str) -> None:
    data = {**duels.duel(SETUP, 2)[0].to_data(), **change}
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        SETUP.game.read_summary(data)
    with pytest.raises(ValueError, match="expected a table"):
        SETUP.game.read_summary([1])


# -- a duel that resumes ---------------------------------------------------------------------


def test_an_interrupted_duel_resumes_to_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved, csv, fresh_csv = tmp_path / "duel.json", tmp_path / "d.csv", tmp_path / "f.csv"
    fresh = run(*DUEL, "--games", "6", "--csv", str(fresh_csv))
    fresh_json = run(*DUEL, "--games", "6", "--json")
    stopped = Counted(monkeypatch, stop_after=3)
    result = CliRunner().invoke(main, [*DUEL, "--games", "6", "--save", str(saved)])
    assert isinstance(result.exception, RuntimeError)
    assert games_in(saved) == [3]  # every game finished was written as it finished
    monkeypatch.undo()
    counted = Counted(monkeypatch)
    resumed = run(*DUEL, "--games", "6", "--save", str(saved), "--csv", str(csv))
    assert counted.calls == 3 and stopped.calls == 3  # only the games missing
    assert resumed[:2] == fresh[:2]
    assert resumed[2].startswith("3 games in ")
    assert csv.read_bytes() == fresh_csv.read_bytes()
    again = run(*DUEL, "--games", "6", "--save", str(saved), "--json")
    assert counted.calls == 3 and again[:2] == fresh_json[:2]
    assert again[2].startswith("0 games in ")


def test_more_games_reuse_the_games_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved = tmp_path / "duel.json"
    fresh, fresh_two = run(*DUEL, "--games", "6", "--json"), run(*DUEL, "--games", "2", "--json")
    assert run(*DUEL, "--games", "2", "--save", str(saved))[0] == 0
    totals: list[int] = []
    shown = cli_simulate.progress_bar

    @contextlib.contextmanager
    def bar(games: int, show: bool) -> Iterator[Any]:
        totals.append(games)
        with shown(games, show) as progress:
            yield progress

    monkeypatch.setattr(cli_simulate, "progress_bar", bar)
    counted = Counted(monkeypatch)
    more = run(*DUEL, "--games", "6", "--save", str(saved), "--json")
    assert more[:2] == fresh[:2] and counted.calls == 4
    assert totals == [4]  # the progress bar counts the games still to play
    assert games_in(saved) == [6]
    # Fewer games take the first ones kept, and play nothing.
    fewer = run(*DUEL, "--games", "2", "--save", str(saved), "--json")
    assert fewer[:2] == fresh_two[:2] and counted.calls == 4


def test_settings_are_kept_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved = tmp_path / "duel.json"
    counted = Counted(monkeypatch)
    others = [
        ["duel", "casual", "best", *DUEL[3:]],  # B and A turned round
        [*DUEL[:4], "2", *DUEL[5:]],  # another seed
        [*DUEL, "--rule", "initial_meld=5"],  # other rules
        [*DUEL, "--rack-size", "6"],  # another rack size (the last one given)
        [*DUEL, "--players", "4"],
    ]
    for args in [DUEL, *others]:
        before = counted.calls
        assert run(*args, "--games", "4", "--save", str(saved))[0] == 0, args
        assert counted.calls - before == 4, args  # nothing taken from another's games
    assert games_in(saved) == [4] * 6
    before = counted.calls
    for args in [DUEL, *others]:
        fresh = run(*args, "--games", "4", "--json")
        assert run(*args, "--games", "4", "--save", str(saved), "--json")[:2] == fresh[:2]
    assert counted.calls - before == 6 * 4  # the fresh runs only


def test_a_card_duel_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved = tmp_path / "cards.json"
    args = ["duel", "best", "keep", *CARDS, "--seed", "3", "--workers", "1"]
    fresh = run(*args, "--games", "4")
    assert run(*args, "--games", "2", "--save", str(saved))[0] == 0
    counted = Counted(monkeypatch)
    assert run(*args, "--games", "4", "--save", str(saved))[:2] == fresh[:2]
    assert counted.calls == 2
    key = json.loads(saved.read_text("utf-8"))["duels"][0]["key"]
    assert (key["game"], key["a"], key["b"], key["seed"]) == ("rummy", "best", "keep", 3)
    assert "rules" in key


def test_a_failed_game_is_kept_and_fails_again_the_same_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(STRATEGIES, "raises", broken_strategies.raises)
    saved = tmp_path / "duel.json"
    args = ["duel", "casual", "raises", *DUEL[3:], "--games", "4"]
    fresh = run(*args)
    assert fresh[0] == 1 and "1 game failed" in fresh[1]
    first = run(*args, "--save", str(saved))
    counted = Counted(monkeypatch)
    again = run(*args, "--save", str(saved))
    assert first[:2] == again[:2] == fresh[:2] and counted.calls == 0
    assert "error" in json.loads(saved.read_text("utf-8"))["duels"][0]["games"][0]


def test_two_writers_lose_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved = tmp_path / "duel.json"
    # Each game of one waits for the same game of the other: their writes interleave.
    together = threading.Barrier(2, timeout=60)
    play = selfplay.play_seated

    def in_step(table: selfplay.Table, seating: selfplay.Seating) -> Summary:
        together.wait()
        return play(table, seating)

    monkeypatch.setattr(selfplay, "play_seated", in_step)
    setups = [SETUP, DuelSetup("casual", "best", players=2, rules=FAST, rack_size=5, seed=1)]
    found: dict[int, list[Summary]] = {}

    def duel_of(number: int) -> None:
        setup = setups[number]
        found[number] = kept.play([(setup, 4)], setup.table(), save=saved)[0]

    threads = [threading.Thread(target=duel_of, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert games_in(saved) == [4, 4]
    monkeypatch.undo()
    for number, setup in enumerate(setups):
        assert kept.play([(setup, 4)], setup.table(), save=saved)[0] == found[number]
        assert kept.to_play([(setup, 4)], saved) == 0


def test_a_big_file_is_written_in_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved = tmp_path / "duel.json"
    writes: list[int] = []
    write = files.write_atomically

    def counted(text: bytes, path: Any, **kwargs: Any) -> None:
        writes.append(len(json.loads(text)["duels"][0]["games"]) if b'"index"' in text else 0)
        write(text, path, **kwargs)

    monkeypatch.setattr(files, "write_atomically", counted)
    monkeypatch.setattr(kept, "WRITE_SHARE", 2)
    kept.play([(SETUP, 6)], SETUP.table(), save=saved)
    # The file as it was (none), then each write once the games pending are half of those
    # kept, and what is left at the end.
    assert writes == [0, 1, 2, 4, 6]
    assert games_in(saved) == [6]


@needs_dask
def test_a_duel_resumed_on_dask_gives_the_same_bytes(tmp_path: Path) -> None:
    saved = tmp_path / "duel.json"
    fresh = run(*DUEL, "--games", "6", "--json")
    assert run(*DUEL, "--games", "2", "--save", str(saved))[0] == 0
    on_two = [*DUEL[:-1], "2", "--batch-size", "1"]
    there = run(*on_two, "--games", "6", "--save", str(saved), "--json")
    assert there[:2] == fresh[:2]
    assert there[2].startswith("4 games in ") and ", 2 worker(s))" in there[2]
    assert games_in(saved) == [6]


@pytest.mark.parametrize(
    ("save", "asked", "used"), [(True, None, 1), (True, 3, 3), (False, None, None)]
)
def test_a_kept_game_is_a_task_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, save: bool, asked: int | None, used: int | None
) -> None:
    """On Dask the games of a batch come back together: with a file, a task is one game
    unless a batch size is asked for, so a stop loses no finished game."""
    sizes: list[int | None] = []
    real = kept.cluster.run

    def recorded(*args: Any, batch_size: int | None = None, **kwargs: Any) -> Any:
        sizes.append(batch_size)
        return real(*args, batch_size=batch_size, **kwargs)

    monkeypatch.setattr(kept.cluster, "run", recorded)
    path = tmp_path / "duel.json" if save else None
    kept.play([(SETUP, 2)], SETUP.table(), save=path, batch_size=asked)
    assert sizes == [used]


# -- files refused -----------------------------------------------------------------------------


def kept_file(tmp_path: Path) -> Path:
    saved = tmp_path / "duel.json"
    assert run(*DUEL, "--games", "2", "--save", str(saved))[0] == 0
    return saved


def edited(game: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["duels"][0]["games"][0].update(game)

    return change


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "invalid JSON"),
        ('{"format": "rummikub-game"}', "not a file of duel games (expected format"),
        ('{"format": "rummikub-ladder-pairs", "version": 2, "duels": []}', "not a file of duel"),
        ('{"format": "rummikub-duel-games", "version": 7, "duels": []}', "version 7 of a file"),
        ('{"format": "rummikub-duel-games", "version": 1}', "'duels' is not a list"),
        ('{"format": "rummikub-duel-games", "version": 1, "duels": [[]]}', "duel 1 is not a key"),
        (
            '{"format": "rummikub-duel-games", "version": 1, "duels": '
            '[{"key": {}, "games": [{"index": -1}]}]}',
            "duel 1, game 1: not a game's data with an index of its own",
        ),
        (
            '{"format": "rummikub-duel-games", "version": 1, "duels": '
            '[{"key": {}, "games": []}, {"key": {}, "games": []}]}',
            "duel 2 has the key of an earlier one",
        ),
        (edited({"turns": "many"}), "game 0 of best against casual is malformed: 'turns'"),
        (edited({"seed": 5}), "game 0 of best against casual is not the game of its seating"),
        (edited({"winners": [0, 0]}), "winners [0, 0] of 2 seats"),
        (edited({"scores": [1.0]}), "1 scores for 2 seats"),
    ],
)
def test_a_bad_file_is_one_line_and_left_as_it_is(
    tmp_path: Path, text: str | Callable[[dict[str, Any]], None], message: str
) -> None:
    saved = kept_file(tmp_path)
    if callable(text):
        data = json.loads(saved.read_text("utf-8"))
        text(data)
        text = json.dumps(data)
    saved.write_text(text, encoding="utf-8")
    before = saved.read_bytes()
    code, out, err = run(*DUEL, "--games", "4", "--save", str(saved))
    assert code == 2, out + err
    assert message in err and str(saved) in err
    assert len((out + err).strip().splitlines()) == 1 and "Traceback" not in out + err
    assert saved.read_bytes() == before


def test_a_folder_or_a_path_that_cannot_be_written(tmp_path: Path) -> None:
    code, _, err = run(*DUEL, "--games", "2", "--save", str(tmp_path))
    assert code == 2 and err.strip().endswith(f"{tmp_path}: a folder, not a file of duel games")
    assert len(err.strip().splitlines()) == 1
    with pytest.raises(RummikubError, match="a folder, not a file of duel games"):
        kept.to_play([(SETUP, 2)], tmp_path)
    missing = tmp_path / "nowhere" / "duel.json"
    code, _, err = run(*DUEL, "--games", "2", "--save", str(missing))
    assert code == 2 and f"{missing}: cannot write" in err and not missing.parent.exists()
    assert len(err.strip().splitlines()) == 1
    # A read-only file: refused before any game when there are games to play, read when
    # there are none.
    saved = kept_file(tmp_path)
    saved.chmod(0o444)
    before = saved.read_bytes()
    code, _, err = run(*DUEL, "--games", "4", "--save", str(saved))
    assert code == 2 and "read-only" in err and saved.read_bytes() == before
    assert run(*DUEL, "--games", "2", "--save", str(saved))[:2] == run(*DUEL, "--games", "2")[:2]


# -- a ladder that resumes -------------------------------------------------------------------

LADDER = ["ladder", "best", "casual", "--seed", "3", *FAST_OPTIONS, "--workers", "1", "--json"]


@pytest.mark.parametrize(("players", "games", "stop"), [("2", "4", 3), ("3", "6", 4)])
def test_an_interrupted_ladder_resumes_in_the_middle_of_a_pair(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: str, games: str, stop: int
) -> None:
    saved = tmp_path / "ladder.json"
    args = [*LADDER, "--players", players, "--games", games]
    fresh = run(*args)
    Counted(monkeypatch, stop_after=stop)
    result = CliRunner().invoke(main, [*args, "--save", str(saved)])
    assert isinstance(result.exception, RuntimeError)
    assert sum(games_in(saved)) == stop
    monkeypatch.undo()
    counted = Counted(monkeypatch)
    resumed = run(*args, "--save", str(saved))
    assert resumed[:2] == fresh[:2] and counted.calls == int(games) - stop
    assert resumed[2].startswith(f"{int(games) - stop} games in ")


def test_a_ladder_file_of_version_1_is_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "ladder.json"
    args = [*LADDER, "--games", "2"]
    fresh = run(*args)
    game = registry.game_of(
        rule_options={"numbers": "6", "colors": "KRB", "jokers": "1", "initial_meld": "6"},
        rack_size=5,
    )
    ladder = registry.ladder(game, ("best", "casual"), 2, 3, 2).setup
    reports = json.loads(fresh[1])["pairs"][0]["duels"]
    pair = {"key": ladder.key(ladder.matchups[0]), "duels": reports}
    old = {"format": "rummikub-ladder-pairs", "version": 1, "pairs": [pair]}
    saved.write_text(json.dumps(old, indent=1), encoding="utf-8")
    counted = Counted(monkeypatch)
    assert run(*args, "--save", str(saved))[:2] == fresh[:2] and counted.calls == 0
    # A strategy added: its pairs' games go in the file, now of version 2, the old pair kept.
    more = run(*LADDER[:3], "hoard", *LADDER[3:], "--games", "2", "--save", str(saved))
    assert more[0] == 0 and counted.calls == 4
    data = json.loads(saved.read_text("utf-8"))
    assert data["version"] == 2 and data["pairs"] == [pair] and games_in(saved) == [2, 2]
    code, _, err = run(*DUEL, "--games", "2", "--save", str(saved))
    assert code == 2 and "not a file of duel games" in err
    code, _, err = run(*args, "--save", str(kept_file(tmp_path)))
    assert code == 2 and "not a file of ladder pairs" in err
