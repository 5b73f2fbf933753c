"""Game records that never lose a turn, and the misuses of ``game``, ``simulate`` and the game
API: a race of two ``apply`` processes, symlinks, file modes, read-only records, temporary
files left by a killed writer, bad record text, limits on players and games."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rummikub import STANDARD, RummikubError
from rummikub.core import files as files_module
from rummikub.tiles.game import RecordError, deal, load_record, replay, save, start
from rummikub.tiles.game import record as record_module
from rummikub.tiles.game.engine import real_table
from tests.tools import run

REPO = Path(__file__).resolve().parent.parent
WRITABLE = "make it writable, e.g. chmod u+w, to change it"


def new_game(path: Path, seed: int = 3) -> None:
    code, _, err = run("game", "new", str(path), "--players", "2", "--seed", str(seed), "--force")
    assert code == 0, err


def turns_in(path: Path) -> int:
    return len(load_record(path).turns)


# -- a race of two writers ----------------------------------------------------------------


def test_two_applies_at_once_never_lose_a_turn(tmp_path: Path) -> None:
    path = tmp_path / "race.toml"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "rummikub", "game", "apply", str(path), "--draw"]
    for trial in range(3):
        new_game(path, seed=trial)
        racers = [
            subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(2)
        ]
        outputs = [racer.communicate(timeout=120) for racer in racers]
        assert [racer.returncode for racer in racers] == [0, 0], outputs
        # Both turns are in the record, one after the other: turn 1 and turn 2.
        assert turns_in(path) == 2, f"trial {trial}: a turn was lost"
        firsts = sorted(out.decode().splitlines()[0].split(":")[0] for out, _ in outputs)
        assert firsts == ["Turn 1", "Turn 2"]
        assert replay(load_record(path)).problem is None
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))


def test_a_writer_waits_for_the_lock_and_gives_up_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.toml"
    record = deal(["A", "B"], STANDARD, 1)
    save(record, path)
    before = path.read_bytes()
    monkeypatch.setattr(files_module, "LOCK_WAIT", 0.2)
    errors: list[BaseException] = []

    def other_writer() -> None:  # another thread: it does not hold this thread's lock
        try:
            save(record.with_turns(()), path)
        except RecordError as error:
            errors.append(error)

    with record_module.locked(path):
        save(record, path)  # the holder itself writes at once (the lock is re-entrant)
        writer = threading.Thread(target=other_writer)
        writer.start()
        writer.join()
    assert len(errors) == 1 and "another process is writing this record" in str(errors[0])
    assert path.read_bytes() == before


# -- how a record file is written ---------------------------------------------------------


def test_a_write_follows_a_symlink_and_the_link_stays(tmp_path: Path) -> None:
    target = tmp_path / "games" / "real.toml"
    target.parent.mkdir()
    new_game(target)
    link = tmp_path / "link.toml"
    link.symlink_to(target)
    code, _, err = run("game", "apply", str(link), "--draw")
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert turns_in(target) == 1  # the target was written, not a new file at the link
    assert not list(tmp_path.glob(".*.tmp")) and not list(target.parent.glob(".*.tmp"))


def test_a_write_keeps_the_mode_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_game(path)
    for mode in (0o640, 0o604, 0o666):
        path.chmod(mode)
        code, _, err = run("game", "apply", str(path), "--draw")
        assert code == 0, err
        assert stat.S_IMODE(path.stat().st_mode) == mode


def test_a_read_only_record_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_game(path)
    path.chmod(0o444)
    before = path.read_bytes()
    for args in (["apply", str(path), "--draw"], ["undo", str(path)]):
        code, out, err = run("game", *args)
        if args[0] == "undo":
            assert "no turn to undo" in err
            continue
        assert code == 2 and out == ""
        assert err == f"Error: {path}: the record is read-only ({WRITABLE})\n"
    assert path.read_bytes() == before and stat.S_IMODE(path.stat().st_mode) == 0o444
    code, _, err = run("game", "new", str(path), "--seed", "1", "--force")
    assert code == 2 and "read-only" in err and path.read_bytes() == before


def test_a_temporary_file_left_by_a_killed_writer_is_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_game(path)
    # What a writer killed (kill -9) between writing its temporary file and the rename
    # leaves: half a record under the record's temporary name.
    stale = tmp_path / ".g.toml.tmp"
    stale.write_text('format = "rummikub-game/1"\nplayers = [')
    code, _, err = run("game", "apply", str(path), "--draw")
    assert code == 0, err
    assert not stale.exists() and turns_in(path) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [".g.toml.lock", "g.toml"]


def test_a_writer_killed_mid_write_leaves_the_old_record_and_the_next_write_cleans_up(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.toml"
    new_game(path)
    before = path.read_bytes()
    # A writer that dies (SIGKILL) after its temporary file is written, before the rename.
    code = (
        "import os, signal, sys\n"
        "from rummikub.tiles.game import record, load_record\n"
        "os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)\n"
        f"r = load_record({str(path)!r})\n"
        f"record.save(r.with_turns(()), {str(path)!r})\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", code], env=env, check=False, timeout=60)
    assert done.returncode == -9
    assert path.read_bytes() == before and (tmp_path / ".g.toml.tmp").exists()
    code_, _, err = run("game", "apply", str(path), "--draw")
    assert code_ == 0, err
    assert not (tmp_path / ".g.toml.tmp").exists() and turns_in(path) == 1


def test_a_new_record_in_a_missing_folder_makes_no_folder(tmp_path: Path) -> None:
    code, _, err = run("game", "new", str(tmp_path / "no" / "g.toml"), "--seed", "1")
    assert code == 2 and "cannot write: No such file or directory" in err
    assert not (tmp_path / "no").exists()


# -- what a record file may hold ----------------------------------------------------------


def test_a_name_with_a_lone_surrogate_is_a_clean_error(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    new_game(path)
    text = path.read_text().replace('"P1"', '"A\\ud800"', 1)
    assert "\\ud800" in text
    path.write_text(text)
    for args in (["apply", str(path), "--draw"], ["show", str(path)]):
        code, out, err = run("game", *args)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "players[0]" in err and "\\ud800" in err
        assert "Traceback" not in err


def test_unknown_keys_inside_deal_and_result_are_refused_with_their_place(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.toml"
    new_game(path)
    text = path.read_text()
    path.write_text(text.replace("[deal]\n", "[deal]\nshuffle = 3\n"))
    code, _, err = run("game", "apply", str(path), "--draw")
    assert code == 2
    assert err == f"Error: {path}: deal: unknown key 'shuffle' (expected one of racks, pool)\n"
    path.write_text(text + '\n[result]\nending = "went_out"\nwinner = 0\n')
    game = replay(load_record(path))
    assert game.problem == "result: unknown key 'winner' (expected one of ending, winners, scores)"


# -- limits -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("99999999999999999999", 'Error: --players "99999999999999999999": a game has 2-4 players'),
        ("5", 'Error: --players "5": a game has 2-4 players'),
        ("1", 'Error: --players "1": a game has 2-4 players'),
        ("0" * 30, f'Error: --players "{"0" * 30}": a game has 2-4 players'),
        ("A,B,C,D,E", 'Error: --players "A,B,C,D,E": 5 names, a game has 2-4 players'),
    ],
)
def test_a_count_of_players_out_of_range_is_refused_before_names_are_built(
    tmp_path: Path, players: str, message: str
) -> None:
    path = tmp_path / "g.toml"
    code, out, err = run("game", "new", str(path), "--players", players, "--seed", "1")
    assert (code, out, err) == (2, "", message + "\n")
    assert not path.exists()


def test_simulate_refuses_more_games_than_its_limit() -> None:
    for games in ("100000000000", "1000001", "0", "-3"):
        code, out, err = run("simulate", "--games", games, "--workers", "1")
        assert (code, out) == (2, "")
        assert err == f"Error: --games {games}: give 1-1,000,000 games\n"


# -- the game API -------------------------------------------------------------------------


def test_the_game_api_checks_its_arguments(tmp_path: Path) -> None:
    names = ["Ann", "Bob"]
    with pytest.raises(TypeError, match=r"^rules must be a Rules .*got str 'standard'$"):
        deal(names, "standard", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^seed must be a whole number, got str 'x'$"):
        deal(names, STANDARD, "x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^seed must be a whole number"):
        deal(names, STANDARD, 1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^rack_size must be a whole number"):
        deal(names, STANDARD, 1, True)
    with pytest.raises(TypeError, match=r"^players must be a list of names"):
        deal("Ann,Bob", STANDARD, 1)
    with pytest.raises(TypeError, match=r"^players must be names"):
        deal(["Ann", 5], STANDARD, 1)  # type: ignore[list-item]
    with pytest.raises(RummikubError, match=r"a name must not be blank$"):
        deal(["Ann", " "], STANDARD, 1)
    with pytest.raises(RummikubError, match=r"^5 players: a game has 2-4$"):
        deal(["P"] * 5, STANDARD, 1)
    with pytest.raises(TypeError, match=r"^replay\(\) takes a Record .*got NoneType None$"):
        replay(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^start\(\) takes a Record"):
        start("g.toml")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^save\(\) takes a Record, got NoneType None$"):
        save(None, tmp_path / "g.toml")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^save\(\) takes the path of the record file"):
        save(deal(names, STANDARD, 1), None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^rack must be a sequence of Tile"):
        real_table(names, STANDARD, 0, "R1 R2")  # type: ignore[arg-type]
    with pytest.raises(RummikubError, match=r"^me=2: expected a seat 0-1$"):
        real_table(names, STANDARD, 2, ())
    assert list(tmp_path.iterdir()) == []


def test_save_refuses_a_name_that_cannot_be_written(tmp_path: Path) -> None:
    from dataclasses import replace

    # deal() refuses such a name; a record built by hand is refused when written.
    record = replace(deal(["A", "B"], STANDARD, 1), players=("A\ud800", "B"))
    path = tmp_path / "g.json"
    with pytest.raises(RecordError, match=r"cannot write .*not valid text"):
        save(record, path)
    assert not path.exists()


def test_seats_round_trip_and_are_checked() -> None:
    from rummikub.tiles.game import dumps, loads

    record = deal(["Me", "Ada"], STANDARD, 1)
    from dataclasses import replace

    seated = replace(record, seats=("person", "best"))
    assert loads(dumps(seated)).seats == ("person", "best")
    assert json.loads(dumps(seated, "json"))["seats"] == ["person", "best"]
    assert "seats" not in dumps(record)
    with pytest.raises(RecordError, match=r"seats: expected one name per player \(2\)"):
        loads(dumps(seated).replace('seats = ["person", "best"]', 'seats = ["person"]'))
