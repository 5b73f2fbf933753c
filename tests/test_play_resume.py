"""``rummikub play``: records never overwritten without --force, saved games resumed, the
others' draws kept hidden, and Ctrl-C acted on at once (in a pseudo-terminal)."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from rummikub import Rules
from rummikub.cli import main
from rummikub.tiles.game import Draw, Play, RecordError, dumps, load_record, replay, save
from rummikub.tiles.game.play import Table, play, resume, table_of
from rummikub.tiles.game.strategies import best, hold

SMALL = Rules(numbers=8, colors="KRB", jokers=1, initial_meld=10)
RULE_ARGS = ["--rule", "numbers=8", "--rule", "colors=KRB", "--rule", "jokers=1"]
SMALL_ARGS = [*RULE_ARGS, "--rule", "initial_meld=10", "--rack-size", "7"]
REPO = Path(__file__).resolve().parent.parent


class Script:
    """Answers the prompts from a list of lines, then raises EOFError (the person leaves)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.said: list[str] = []

    def ask(self, prompt: str) -> str:
        try:
            return next(self.lines)
        except StopIteration:
            raise EOFError from None

    def say(self, text: str) -> None:
        self.said.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.said)


def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_the_record_says_who_plays_each_seat(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    table = Table("Me", (("Ada", best), ("Bert", hold)), seat=1)
    script = Script(["draw"])
    record = play(SMALL, table, seed=5, ask=script.ask, say=script.say, path=path, rack_size=7)
    assert record.players == ("Ada", "Me", "Bert")
    assert record.seats == ("best", "person", "hold")
    assert load_record(path).seats == record.seats
    again = table_of(record)
    assert (again.name, again.seat, again.players()) == ("Me", 1, ["Ada", "Me", "Bert"])
    assert [f for _, f in again.opponents] == [best, hold]


def test_a_saved_game_is_resumed_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    table = Table("You", (("Ada", best),))
    first = Script(["K6 R6 B6", "quit"])
    stopped = play(SMALL, table, seed=5, ask=first.ask, say=first.say, path=path, rack_size=7)
    assert len(stopped.turns) == 2 and isinstance(stopped.turns[0], Play)
    second = Script(["draw", "quit"])
    resumed = resume(load_record(path), ask=second.ask, say=second.say, path=path)
    assert second.said[0] == "Resuming at turn 3."
    # The two turns of before, then the person's draw and Ada's turn: nothing replayed twice.
    assert resumed.turns[:2] == stopped.turns and len(resumed.turns) == 4
    assert isinstance(resumed.turns[2], Draw)
    assert load_record(path) == resumed and replay(resumed).problem is None
    # The same game played in one go gives the same turns: the resumed one is that game.
    whole = Script(["K6 R6 B6", "draw", "quit"])
    straight = play(SMALL, table, seed=5, ask=whole.ask, say=whole.say, rack_size=7)
    assert straight.turns == resumed.turns


def test_a_record_that_cannot_go_on_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    table = Table("You", (("Ada", best),))
    script = Script(["quit"])
    record = play(SMALL, table, seed=5, ask=script.ask, say=script.say, path=path, rack_size=7)
    quiet = Script([])
    with pytest.raises(RecordError, match=r"does not say who plays each seat"):
        resume(replace(record, seats=None), ask=quiet.ask, say=quiet.say)
    with pytest.raises(RecordError, match=r"seats: expected exactly one 'person', got 0"):
        resume(replace(record, seats=("best", "best")), ask=quiet.ask, say=quiet.say)
    with pytest.raises(RecordError, match=r"seats\[1\]: .*nope"):
        resume(replace(record, seats=("person", "nope")), ask=quiet.ask, say=quiet.say)
    over = Script([])
    ended = play(SMALL, table, seed=5, ask=lambda _: "draw", say=over.say, rack_size=7)
    assert ended.result is not None
    with pytest.raises(RecordError, match=r"the game is over; nothing to resume"):
        resume(ended, ask=quiet.ask, say=quiet.say)
    assert quiet.said == []


def test_the_others_draws_are_not_shown(tmp_path: Path) -> None:
    table = Table("You", (("Ada", best),))
    script = Script(["draw"] * 12)
    record = play(SMALL, table, seed=5, ask=script.ask, say=script.say, rack_size=7)
    ada_draws = [t for t in record.turns[1::2] if isinstance(t, Draw)]
    assert ada_draws and all(t.tile is not None for t in ada_draws)  # the record knows them
    lines = script.text.splitlines()
    assert lines.count("Ada drew a tile.") == len(ada_draws)
    assert not any(line.startswith("Ada drew ") and line != "Ada drew a tile." for line in lines)
    mine = [t for t in record.turns[0::2] if isinstance(t, Draw)]
    assert f"You drew {mine[0].tile}." in lines  # your own draw you see


def test_play_never_overwrites_a_record_without_force(tmp_path: Path) -> None:
    path = tmp_path / "game-5.toml"
    path.write_text("my notes\n")
    args = ["play", "--opponents", "1", "--seed", "5", *SMALL_ARGS, "--save", str(path)]
    code, out, err = run(*args, stdin="quit\n")
    assert (code, out) == (2, "")
    assert err == (
        f"Error: {path} exists: go on with it (--resume {path}), choose another --save FILE, "
        "or use --force to overwrite it\n"
    )
    assert path.read_text() == "my notes\n"
    code, out, err = run(*args, "--force", stdin="quit\n")
    assert code == 0, err
    assert load_record(path).seats == ("person", "best")


def test_the_default_record_name_is_not_overwritten_either(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["play", "--opponents", "1", "--seed", "5", *SMALL_ARGS]
    assert run(*args, stdin="draw\nquit\n")[0] == 0
    before = (tmp_path / "game-5.toml").read_bytes()
    code, _, err = run(*args, stdin="quit\n")
    assert code == 2 and "game-5.toml exists" in err
    assert (tmp_path / "game-5.toml").read_bytes() == before


def test_play_resume_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    args = ["play", "--opponents", "1", "--seed", "5", *SMALL_ARGS, "--save", str(path)]
    assert run(*args, stdin="K6 R6 B6\nquit\n")[0] == 0
    assert len(load_record(path).turns) == 2
    code, out, err = run("play", "--resume", str(path), "--no-color", stdin="draw\nquit\n")
    assert code == 0, err
    assert out.startswith(f"The game is saved to {path} after every turn.\nResuming at turn 3.\n")
    assert "You drew " in out and len(load_record(path).turns) == 4
    code, _, err = run("play", "--resume", str(path), "--seed", "3", "--opponents", "2")
    assert code == 2
    assert err == "Error: --resume takes the game as its record has it: drop --opponents, --seed\n"
    code, _, err = run("play", "--resume", str(tmp_path / "none.toml"))
    assert code == 2 and "none.toml" in err and "Traceback" not in err
    dealt = tmp_path / "dealt.toml"
    assert run("game", "new", str(dealt), "--seed", "1")[0] == 0
    code, _, err = run("play", "--resume", str(dealt))
    assert code == 2 and "does not say who plays each seat" in err


# -- Ctrl-C in a pseudo-terminal -----------------------------------------------------------


def _spawn(path: Path, *extra: str) -> object:
    pexpect = pytest.importorskip("pexpect", reason="the terminal test needs pexpect ([test])")
    args = ["-m", "rummikub", "play", "--save", str(path), "--no-color", *extra]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=60)


@pytest.mark.parametrize(
    ("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
)
def test_ctrl_c_after_a_hint_ends_at_once(tmp_path: Path, signum: int, code: int) -> None:
    pexpect = pytest.importorskip("pexpect", reason="the terminal test needs pexpect ([test])")
    path = tmp_path / "g.toml"
    child = _spawn(path, "--opponents", "1", "--seed", "5", *SMALL_ARGS)
    assert isinstance(child, pexpect.spawn)
    try:
        child.expect_exact("Your move (help for help): ")
        child.sendline("K6 R6 B6")
        child.expect_exact("Your move (help for help): ")
        child.sendline("hint")  # a solve: it used to leave Ctrl-C waiting for Enter
        child.expect_exact("Hint: ")
        child.expect_exact("Your move (help for help): ")
        if signum == signal.SIGINT:
            child.sendintr()  # Ctrl-C typed at the terminal
        else:
            child.kill(signum)
        child.expect(pexpect.EOF, timeout=30)  # no Enter needed
    finally:
        child.close()
    assert child.exitstatus == code
    record = load_record(path)
    assert len(record.turns) == 2 and replay(record).problem is None


def test_ctrl_c_while_the_solver_players_move_ends_at_once(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect", reason="the terminal test needs pexpect ([test])")
    path = tmp_path / "g.toml"
    # Three solver players in a full box: their moves take a while after yours.
    child = _spawn(path, "--opponents", "3", "--seed", "2")
    assert isinstance(child, pexpect.spawn)
    try:
        child.expect_exact("Your move (help for help): ")
        child.sendline("draw")
        child.expect(r"You drew \S+\.")
        child.kill(signal.SIGINT)  # while Ada, Bert and Cleo think
        index = child.expect([pexpect.EOF, "Your move"], timeout=60)
    finally:
        child.close()
    assert index == 0, "Ctrl-C waited for the next prompt"
    assert child.exitstatus == 130
    record = load_record(path)  # saved up to the last whole turn
    assert 1 <= len(record.turns) <= 4 and replay(record).problem is None
    assert isinstance(record.turns[0], Draw)
    assert dumps(record) == path.read_text()
    save(record, path)  # and it can be written again (no lock left held)


def test_a_record_changed_by_another_program_during_the_game_is_not_overwritten(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.toml"
    table = Table("You", (("Ada", best),))
    script = Script(["draw", "draw"])

    def ask(prompt: str) -> str:
        # Another program (a `game undo`, an editor) changes the record between two turns.
        if len(load_record(path).turns) == 2:
            run("game", "undo", str(path))
        return script.ask(prompt)

    with pytest.raises(RecordError, match=r"changed by another program since it was read"):
        play(SMALL, table, seed=5, ask=ask, say=script.say, path=path, rack_size=7)
    assert len(load_record(path).turns) == 1  # the other program's change stands
    with pytest.raises(RecordError, match=r"changed by another program"):
        stale = load_record(path)
        run("game", "apply", str(path), "--draw")
        resume(stale, ask=Script(["draw"]).ask, say=script.say, path=path)
    assert len(load_record(path).turns) == 2


def test_save_with_expect_refuses_a_changed_file(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    table = Table("You", (("Ada", best),))
    record = play(
        SMALL, table, seed=5, ask=Script([]).ask, say=Script([]).say, path=path, rack_size=7
    )
    save(record, path, expect=record)  # unchanged: written
    path.write_text(dumps(record).replace('"You"', '"Me"'))
    before = path.read_bytes()
    with pytest.raises(RecordError, match=r"changed by another program"):
        save(record, path, expect=record)
    assert path.read_bytes() == before
    path.unlink()
    with pytest.raises(RecordError, match=r"changed by another program"):
        save(record, path, expect=record)
    assert not path.exists()
