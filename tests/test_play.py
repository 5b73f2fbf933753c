"""``rummikub play``: the play loop with scripted lines, and a game in a pseudo-terminal."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummikub import Rules
from rummikub.tiles.game import Play, load_record, replay
from rummikub.tiles.game.play import HELP, Table, play
from rummikub.tiles.game.strategies import best

SMALL = Rules(numbers=8, colors="KRB", jokers=1, initial_meld=10)
RULE_ARGS = ["--rule", "numbers=8", "--rule", "colors=KRB", "--rule", "jokers=1"]
# Seed 5 deals the person K5 K6 R2 R6 R7 B3 B6 (rack size 7) and the solver R8 B8 J first.


class Script:
    """Answers the prompts from a list of lines, then keeps drawing; records what is said."""

    def __init__(self, lines: list[str]) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.said: list[str] = []

    def ask(self, prompt: str) -> str:
        return next(self.lines, "draw")

    def say(self, text: str) -> None:
        self.said.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.said)


def test_a_scripted_game_is_played_to_its_end(tmp_path: Path) -> None:
    script = Script(["help", "R8", "R9", "K1 K2 K4 | B1 B2 B3", "hint", "K6 R6 B6"])
    path = tmp_path / "game.toml"
    table = Table("You", (("Ada", best),))
    record = play(SMALL, table, seed=5, ask=script.ask, say=script.say, path=path, rack_size=7)
    text = script.text
    assert HELP in text
    assert "Not a move: not in your rack: R8" in text
    assert "Not a move: column 1 ('R9'): invalid tile 'R9': number 9 out of range 1-8" in text
    assert "Illegal move: 7 rules broken." in text
    assert '  - meld 1 "K1 K2 K4": not a run (no 3) and not a group' in text
    assert "Hint: lay K6 R6 B6 (value 18): K6 R6 B6" in text
    assert "You played K6 R6 B6." in text
    assert isinstance(record.turns[0], Play)
    # After its one play the script only draws (a draw is a pass once the pool is empty).
    assert not any(isinstance(t, Play) for t in record.turns[2::2])
    # The game went to its end, every turn legal, and the file holds exactly that record.
    assert record.result is not None and replay(record).error is None
    assert text.splitlines()[-1].startswith("Game over: ")
    assert load_record(path) == record


def test_quitting_keeps_the_record(tmp_path: Path) -> None:
    script = Script(["draw", "quit"])
    path = tmp_path / "game.toml"
    table = Table("Me", (("Ada", best), ("Bert", best)))
    record = play(SMALL, table, seed=5, ask=script.ask, say=script.say, path=path, rack_size=7)
    assert record.result is None and len(record.turns) == 3
    assert record.players == ("Me", "Ada", "Bert")
    assert script.said[-1] == (
        f"Game stopped; {path} keeps every whole turn so far. "
        f"Go on with: rummikub play --resume {path}"
    )
    assert load_record(path) == record


def test_undo_takes_back_the_persons_turn_and_the_others_since(tmp_path: Path) -> None:
    script = Script(["undo", "K6 R6 B6", "undo", "O5", "quit"])
    path = tmp_path / "game.toml"
    table = Table("Me", (("Ada", best),))
    record = play(SMALL, table, seed=5, ask=script.ask, say=script.say, path=path, rack_size=7)
    text = script.text
    assert "Nothing to undo: you have not played a turn yet." in text
    assert "You played K6 R6 B6." in text and "Ada played R8 B8 J." in text
    assert "Took back 2 turns: your move again." in text
    # The rack is as dealt again (K6 R6 B6 back in it), and the file says so.
    assert text.splitlines()[-3].startswith("Your rack (initial meld: 10): K5 K6 R2 R6 R7 B3 B6")
    assert record.turns == () and load_record(path) == record
    # A colour the box does not have is no tile, not one missing from the rack.
    assert "Not a move: column 1 ('O5'): invalid tile 'O5': unknown color 'O'" in text


def test_a_game_in_a_pseudo_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect", reason="the terminal test needs pexpect ([test])")
    path = tmp_path / "game.toml"
    args = ["-m", "rummikub", "play", "--opponents", "1", "--seed", "5", "--rack-size", "7"]
    args += [*RULE_ARGS, "--rule", "initial_meld=10", "--save", str(path)]
    env = {**os.environ, "NO_COLOR": "", "PYTHONPATH": os.getcwd()}
    child = pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=60)
    try:
        child.expect(r"Your rack \(initial meld: 10\): .*K5.*K6.*R2")
        assert "\x1b[31mR2" in child.after  # tiles in their colors: R2 in red
        child.expect_exact("Your move (help for help): ")
        child.sendline("K1 K2 K4 | B1 B2 B3")
        child.expect_exact("Illegal move: 7 rules broken.")
        child.expect_exact("Your move (help for help): ")
        child.sendline("K6 R6 B6")
        child.expect(r"You played .*K6.* .*R6.* .*B6")
        child.expect_exact("Your move (help for help): ")
        child.sendline("quit")
        child.expect_exact("Game stopped")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    record = load_record(path)
    assert isinstance(record.turns[0], Play) and len(record.turns) == 2
