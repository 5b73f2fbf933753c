"""``rummikub play --game``: the card play loop with scripted lines (a game to its end, a
quit and a resume, "May I?" asked), and a card game in a pseudo-terminal (cards in their
colors, Ctrl-C)."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from rummikub.cards.game import engine
from rummikub.cards.game.record import dumps, load
from rummikub.cards.game.strategies import CardStrategy, strategy
from rummikub.cards.rules import preset, with_options
from rummikub.cli import main
from rummikub.cli.card_play import HELP, CardTable, play_cards, table_of

REPO = Path(__file__).resolve().parent.parent


class Person:
    """Answers the prompts: scripted lines first, then draws from the stock and discards,
    trying the cards of the hand shown one by one until one is taken; never says "May I?"
    unless scripted. Records what is said and asked."""

    def __init__(self, lines: list[str] | None = None) -> None:
        self.lines = list(lines or [])
        self.said: list[str] = []
        self.asked: list[str] = []
        self.hand: list[str] = []
        self.tries = 0

    def ask(self, prompt: str) -> str:
        self.asked.append(prompt)
        if self.lines:
            return self.lines.pop(0)
        if prompt.startswith("Draw"):
            self.tries = 0
            return "stock"
        if prompt.startswith("Lay"):
            self.tries += 1
            return self.hand[self.tries - 1]
        return "n"

    def say(self, text: str) -> None:
        self.said.append(text)
        for line in text.splitlines():
            if "Your hand: " in line:
                self.hand = line.split("Your hand: ")[1].split()

    @property
    def text(self) -> str:
        return "\n".join(self.said)


def new_record(game: str, table: CardTable, seed: int, **options: object) -> object:
    rules = with_options(preset(game), options) if options else preset(game)
    return replace(engine.new_game(table.players(), rules, seed), seats=table.seats())


def test_a_scripted_card_game_is_played_to_its_end(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    table = CardTable("You", (("Ada", strategy("best")),))
    record = new_record("rummy", table, 5, target=30)
    person = Person(["help", "pile 2", "stock", "9X", "hint"])
    played = play_cards(record, table, ask=person.ask, say=person.say, path=path)  # type: ignore[arg-type]
    text = person.text
    assert HELP in text
    assert "Not a draw: the discard pile holds 1 card(s) to take, no depth 1" in text
    assert "Not a turn: invalid card '9X'" in text
    assert "Hint: " in text
    assert re.search(r"^You drew \S+ from the stock, discarded \S+\.$", text, re.MULTILINE)
    assert re.search(r"^Ada (drew from the stock|took \S+ from the discard pile)", text, re.M)
    assert "Hand 1 of Rummy (to 30) is over." in text
    assert text.splitlines()[-1].startswith("Game over: ")
    # The game went to its end, every turn legal, and the file holds exactly that record.
    again = engine.replay(played)
    assert again.problem is None and again.state.over
    assert load(path) == played
    assert played.seats == ("person", "best")


def test_quit_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    table = CardTable("Me", (("Ada", strategy("casual")), ("Bert", strategy("keep"))))
    record = new_record("500-rum", table, 2)
    first = Person(["stock", "quit"])
    kept = play_cards(record, table, ask=first.ask, say=first.say, path=path)  # type: ignore[arg-type]
    assert first.said[-1] == (
        f"Game stopped; {path} keeps every whole turn so far. "
        f"Go on with: rummikub play --resume {path}"
    )
    assert kept.hands[0].turns == () and load(path) == kept  # quit before the turn was whole
    # Resumed from the file, the seats as it says.
    loaded = load(path)
    resumed_table = table_of(loaded, str(path))
    assert resumed_table.players() == ["Me", "Ada", "Bert"]
    person = Person()
    answers = iter(["stock", "quit"])

    def ask(prompt: str) -> str:
        if prompt.startswith("Lay"):
            return person.ask(prompt)
        return next(answers, "quit")

    done = play_cards(loaded, resumed_table, ask=ask, say=person.say, path=path, resuming=True)
    turns = done.hands[0].turns
    assert len(turns) == 3  # mine, then Ada's and Bert's
    assert engine.replay(done).problem is None and load(path) == done


def test_may_i_is_asked_when_another_draws_from_the_stock(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    table = CardTable("You", (("Ada", strategy("casual")), ("Bert", strategy("casual"))), seat=2)
    record = new_record("continental", table, 7)
    person = Person()
    answers = iter(["y"])

    def ask(prompt: str) -> str:
        person.asked.append(prompt)
        if "May I?" in prompt:
            return next(answers, "n")
        if prompt.startswith("Draw") and len(person.asked) > 6:
            return "quit"
        return person.ask(prompt)

    done = play_cards(record, table, ask=ask, say=person.say, path=path)  # type: ignore[arg-type]
    asked = [p for p in person.asked if "May I?" in p]
    assert asked and re.fullmatch(
        r'(Ada|Bert) draws from the stock\. "May I\?" for \S+ \(and a penalty card\)\? \[y/N\] ',
        asked[0],
    )
    claims = [t for t in done.hands[0].turns if t.claim is not None]
    assert 2 in [t.claim for t in claims]  # the person's seat said yes
    assert re.search(
        r'drew from the stock, You said "May I\?" for \S+ \(and a penalty', person.text
    )
    assert engine.replay(done).problem is None


def _always(view: object) -> bool:
    return True


def test_the_others_say_may_i_before_the_person_draws(tmp_path: Path) -> None:
    """CARDS.md section 7: when the person goes to the stock, a solver seat may claim the
    top discard first, taking the stock's top card; the person then draws the next one."""
    casual = strategy("casual")
    greedy = CardStrategy("greedy", casual.draw, casual.lay, _always)
    table = CardTable("You", (("Ada", greedy), ("Bert", casual)), seat=0)
    record = new_record("continental", table, 7)
    person = Person()
    draws = 0

    def ask(prompt: str) -> str:
        nonlocal draws
        draws += prompt.startswith("Draw")
        return "quit" if draws > 1 else person.ask(prompt)

    done = play_cards(record, table, ask=ask, say=person.say)  # type: ignore[arg-type]
    first = done.hands[0]
    assert first.deal.stock is not None
    top, penalty, mine = first.deal.up, first.deal.stock[0], first.deal.stock[1]
    turn = first.turns[0]
    assert turn.claim == 1 and turn.claim_first
    assert f'Ada says "May I?" and takes {top} and a penalty card.' in person.text
    assert f"You drew {mine}. Your hand: " in person.text
    assert f"You drew {mine} from the stock, Ada said" in person.text
    ada = engine.replay(done).states[1].hands[1] or ()
    assert top in ada and penalty in ada
    assert engine.replay(done).problem is None


def test_play_game_refuses_what_a_card_game_has_not(tmp_path: Path) -> None:
    run = CliRunner().invoke
    path = tmp_path / "g.toml"
    base = ["play", "--game", "rummy", "--save", str(path)]
    size = run(main, [*base, "--rack-size", "7"], input="quit\n")
    assert size.exit_code == 2 and "--rack-size deals tiles" in size.output
    tile = run(main, [*base, "--rules", "standard"], input="quit\n")
    assert tile.exit_code == 2 and "a tile rule set" in tile.output
    bad = run(main, [*base, "--strategy", "hold"], input="quit\n")
    assert bad.exit_code == 2 and "unknown card strategy 'hold'" in bad.output
    assert not path.exists()
    started = run(main, [*base, "--seed", "4"], input="quit\n")
    assert started.exit_code == 0, started.output
    assert started.output.startswith(f"Seed 4; the game is saved to {path} after every turn.")
    again = run(main, [*base, "--seed", "4"], input="quit\n")
    assert again.exit_code == 2 and f"go on with it (--resume {path})" in again.output
    resumed = run(main, ["play", "--resume", str(path)], input="quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming at hand 1, turn 1." in resumed.output
    mixed = run(main, ["play", "--resume", str(path), "--game", "rummy"], input="quit\n")
    assert mixed.exit_code == 2 and "drop --game" in mixed.output


def _spawn(path: Path, *extra: str, color: bool = True) -> object:
    pexpect = pytest.importorskip("pexpect", reason="the terminal test needs pexpect ([test])")
    args = ["-m", "rummikub", "play", "--game", "rummy", "--save", str(path), *extra]
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "" if color else "1"}
    return pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=60)


def test_a_card_game_in_a_pseudo_terminal(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect", reason="the terminal test needs pexpect ([test])")
    path = tmp_path / "g.toml"
    deal = engine.new_game(["You", "Ada"], preset("rummy"), 5).hands[0].deal
    hand = deal.hands[0]
    assert hand is not None and deal.stock is not None
    red = next(str(c) for c in hand if c.suit in "HD")
    child = _spawn(path, "--opponents", "1", "--seed", "5")
    assert isinstance(child, pexpect.spawn)
    try:
        child.expect(r"Your hand: .*\n")
        assert f"\x1b[31m{red}\x1b[0m" in child.after  # cards in their colors: red is red
        child.expect_exact("Draw (stock, pile; help for help): ")
        child.sendline("stock")
        child.expect_exact(f"You drew {deal.stock[0]}")
        child.expect_exact("Lay and discard (help for help): ")
        child.sendline("QQ")
        child.expect_exact("Not a turn: ")
        child.expect_exact("Lay and discard (help for help): ")
        child.sendline(str(deal.stock[0]))
        child.expect(r"You drew .* from the stock, discarded ")
        child.expect_exact("Draw (stock, pile; help for help): ")
        child.sendline("quit")
        child.expect_exact("Game stopped")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    record = load(path)
    assert len(record.hands[0].turns) == 2  # mine and Ada's
    assert engine.replay(record).problem is None


def test_ctrl_c_at_the_card_prompt_ends_at_once(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect", reason="the terminal test needs pexpect ([test])")
    path = tmp_path / "g.toml"
    child = _spawn(path, "--opponents", "2", "--seed", "5", color=False)
    assert isinstance(child, pexpect.spawn)
    try:
        child.expect_exact("Draw (stock, pile; help for help): ")
        child.sendline("hint")  # a solve first: Ctrl-C must still act at once after it
        child.expect_exact("Hint: ")
        child.expect_exact("Draw (stock, pile; help for help): ")
        child.sendintr()
        child.expect(pexpect.EOF, timeout=30)
    finally:
        child.close()
    assert child.exitstatus == 130
    record = load(path)
    assert record.hands[0].turns == ()
    assert dumps(record, totals=engine.totals_of(engine.replay(record).state)) == path.read_text()


def test_undo_takes_back_a_whole_card_turn(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    table = CardTable("You", (("Ada", strategy("best")),))
    record = new_record("rummy", table, 5, target=30)
    person = Person(["undo"])
    draws = iter(["stock", "undo", "quit"])  # at the draws of turns 1, 2 and 2 again

    def ask(prompt: str) -> str:
        return next(draws) if prompt.startswith("Draw") and not person.lines else person.ask(prompt)

    played = play_cards(record, table, ask=ask, say=person.say, path=path)  # type: ignore[arg-type]
    text = person.text
    assert "Nothing to undo: you have not played a turn yet." in text
    assert "Took back 2 turns: your move again." in text
    assert played.hands[0].turns == () and load(path) == played
