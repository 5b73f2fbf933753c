"""``rummikub game`` for the card rummies (``cli/card_game.py``): a record started with
``--game``, turns applied as melds and a discard or as cards for the solver to lay, "May I?",
undo, replay catching an illegal turn, hints, a game at a real table (its deals and scores
entered), and the hands dealt one after another to the game's end."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rummikub.cards.game import engine
from rummikub.cards.game.record import FORMAT, Turn, load, save
from rummikub.cards.game.strategies import strategy
from rummikub.cards.game.view import view_of
from rummikub.cli import main
from rummikub.cli.card_options import CARD_RECORD_FORMAT


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def new_500(path: Path) -> Result:
    return run("game", "new", str(path), "--game", "500-rum", "--players", "Ann,Bob", "--seed", "3")


def test_the_card_record_format_is_the_librarys() -> None:
    assert CARD_RECORD_FORMAT == FORMAT


def test_new_show_and_a_turn_of_melds(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    started = new_500(path)
    assert started.exit_code == 0, started.output
    assert started.output.splitlines() == [
        f"New game of 500 Rum, 2 players: Ann, Bob. Saved to {path}.",
        "Hand 1 of 500 Rum (to 500): Ann to move (turn 1); stock 27 cards.",
        "Table: (empty)",
        "Discard pile: 5D",
        "  Ann: 13 cards, 0 points laid: 6S JS QS KS 6H 4D 6D JD AC 4C 6C 10C KC (penalty 107)",
        "  Bob: 13 cards, 0 points laid: 2S 8S 8H 9H 10H QH KH 3D 7D 9D QD JC QC (penalty 106)",
    ]
    assert load(path).seed == 3
    turn = run("game", "apply", str(path), "--meld", "JS QS KS", "--discard", "4D")
    assert turn.exit_code == 0, turn.output
    lines = turn.output.splitlines()
    assert lines[0] == "Hand 1, turn 1: Ann drew from the stock, laid JS QS KS, discarded 4D."
    assert "  0. JS QS KS" in lines
    assert "Discard pile: 5D 4D" in lines
    assert "  Ann: 10 cards, 30 points laid: 6S 6H 6D 10D JD AC 4C 6C 10C KC (penalty 83)" in lines
    # Bob takes two cards from the pile: the deepest, 5D, must be laid.
    pick = run("game", "apply", str(path), "--draw", "1", "--meld", "3D 4D 5D", "--discard", "KH")
    assert pick.exit_code == 0, pick.output
    assert pick.output.startswith(
        "Hand 1, turn 2: Bob took 2 cards from the discard pile (5D 4D), laid 3D 4D 5D, "
        "discarded KH."
    )
    shown = json.loads(run("game", "show", str(path), "--json").output)
    assert shown["turn"] == 3 and shown["to_move"] == 0
    assert shown["table"] == [
        {"kind": "run", "cards": ["JS", "QS", "KS"]},
        {"kind": "run", "cards": ["3D", "4D", "5D"]},
    ]
    assert shown["pile"] == ["KH"] and shown["laid"] == [30, 12]


def test_an_illegal_turn_is_refused_and_the_record_kept(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_500(path)
    before = path.read_bytes()
    # 5D taken from the pile's top is fine, but 8S is not Ann's, and no discard.
    result = run("game", "apply", str(path), "--draw", "0", "--meld", "6S 7S 8S")
    assert result.exit_code == 1
    assert result.output.startswith("Hand 1, turn 1 (Ann) is illegal: ")
    assert "8S" in result.output
    assert path.read_bytes() == before
    bad = run("game", "apply", str(path), "--meld", "JS QS KX", "--discard", "4D")
    assert bad.exit_code == 2
    assert "--meld \"JS QS KX\": invalid card 'KX'" in bad.output
    draw = run("game", "apply", str(path), "--draw", "top card")
    assert draw.exit_code == 2
    assert 'expected "stock" or a pile depth' in draw.output
    assert path.read_bytes() == before


def test_cards_for_the_solver_to_lay(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_500(path)
    # After taking 5D, the solver arranges 4D 5D 6D and 6S 6H 6C: no meld given.
    laid = run(
        "game", "apply", str(path), "--draw", "0", "--lay", "4D 5D 6D 6S 6H 6C", "--discard", "AC"
    )
    assert laid.exit_code == 0, laid.output
    first = laid.output.splitlines()[0]
    assert first.startswith("Hand 1, turn 1: Ann took 5D from the discard pile, laid ")
    assert "4D 5D 6D" in first and first.endswith("discarded AC.")
    record = load(path)
    assert len(record.hands[0].turns[0].melds) == 2
    # Bob cannot lay cards that make no meld; nor cards he does not hold.
    cannot = run("game", "apply", str(path), "--lay", "2S 8S", "--discard", "KH")
    assert cannot.exit_code == 2
    assert "these cards cannot all be laid" in cannot.output
    missing = run("game", "apply", str(path), "--lay", "AS 2S 3S", "--discard", "KH")
    assert missing.exit_code == 2
    assert "not in Bob's hand: AS 3S" in missing.output


def test_a_lay_off_and_undo(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_500(path)
    run("game", "apply", str(path), "--meld", "JS QS KS", "--discard", "4D")
    before = path.read_bytes()
    off = run("game", "apply", str(path), "--layoff", "0: JS QS KS AS", "--discard", "2S")
    assert off.exit_code == 1  # Bob holds no AS
    assert "AS" in off.output
    wrong = run("game", "apply", str(path), "--layoff", "JS QS KS AS")
    assert wrong.exit_code == 2
    assert "expected the table meld's number and the meld as it is after, e.g. \"0:" in wrong.output
    assert path.read_bytes() == before
    undone = run("game", "undo", str(path))
    assert undone.exit_code == 0, undone.output
    assert undone.output.startswith("Removed hand 1, turn 1.\nHand 1 of 500 Rum")
    assert load(path).hands[0].turns == ()
    assert run("game", "undo", str(path)).exit_code == 2


def best_turn(state: engine.CardGameState) -> list[str]:
    """The options of ``game apply`` for the turn the ``best`` strategy plays."""
    best = strategy("best")
    draw = best.draw(view_of(state))
    args = ["--draw", str(draw)]
    # "May I?" before the draw from the stock (CARDS.md section 7).
    for seat in engine.claimants(state) if draw == "stock" else ():
        if best.claim(view_of(state, seat)):
            state = engine.claim(state, seat)
            args += ["--may-i", state.players[seat]]
            break
    after = engine.draw(state, draw)
    if after.hand_over:
        return args
    lay = best.lay(view_of(after, after.to_move))
    args += [a for m in lay.melds for a in ("--meld", str(m))]
    args += [a for i, m in lay.layoffs for a in ("--layoff", f"{i}: {m}")]
    return args + (["--discard", str(lay.discard)] if lay.discard else [])


def test_a_whole_game_hand_after_hand(tmp_path: Path) -> None:
    """Applied turn by turn to the end: the next hand is dealt from the seed when one ends,
    the scores and totals are the engine's, replay finds every turn legal."""
    path = tmp_path / "g.json"
    args = ["--game", "500-rum", "--players", "Ann,Bob", "--seed", "3", "--rule", "target=200"]
    assert run("game", "new", str(path), *args).exit_code == 0
    outputs = []
    for _ in range(200):
        state = engine.replay(load(path)).state
        if state.over:
            break
        result = run("game", "apply", str(path), *best_turn(state))
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    played = engine.replay(load(path))
    assert played.problem is None and played.state.over
    assert len(played.record.hands) >= 2  # the target is reached in a later hand
    text = "\n".join(outputs)
    assert "Hand 2 of 500 Rum (to 200): Bob to move (turn 1)" in text
    assert "Scores:\n  hand 1: Ann " in text
    replayed = run("game", "replay", str(path))
    assert replayed.exit_code == 0
    lines = replayed.output.splitlines()
    assert lines[0] == "Hand 1:" and "Hand 2:" in lines
    turns = sum(len(hand.turns) for hand in played.record.hands)
    assert lines[-2] == f"All {turns} turns are legal."
    assert lines[-1].startswith("The game is over: ")
    totals = played.state.totals
    assert totals is not None
    shown = run("game", "show", str(path))
    assert shown.output.splitlines()[0] == lines[-1]
    assert f"  totals: Ann {totals[0]}, Bob {totals[1]}" in shown.output
    assert run("game", "apply", str(path)).exit_code == 2  # the game is over
    data = json.loads(run("game", "replay", str(path), "--json").output)
    assert data["legal"] is True and data["turns"] == turns
    assert data["result"]["totals"] == list(totals)


def test_replay_catches_an_illegal_card_turn(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_500(path)
    run("game", "apply", str(path), "--meld", "JS QS KS", "--discard", "4D")
    run("game", "apply", str(path), "--discard", "KH")
    record = load(path)
    # Ann's second turn, written by hand: she discards a card Bob holds.
    hands = list(record.hands)
    from dataclasses import replace

    hands[0] = replace(hands[0], turns=(*hands[0].turns, Turn("stock", None, (), (), None)))
    broken = record.with_hands(hands)
    save(broken, path)
    result = run("game", "replay", str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[:3] == [
        "Hand 1:",
        "    1. Ann drew from the stock, laid JS QS KS, discarded 4D",
        "    2. Bob drew from the stock, discarded KH",
    ]
    assert lines[3] == "Hand 1, turn 3 (Ann) is illegal: 1 rule broken."
    assert "discard" in lines[4]
    data = json.loads(run("game", "replay", str(path), "--json").output)
    assert data["legal"] is False
    assert data["error"]["hand"] == 1 and data["error"]["turn"] == 3
    shown = run("game", "show", str(path))
    assert shown.exit_code == 1  # shown up to the bad turn, with the error
    refused = run("game", "apply", str(path), "--discard", "AC")
    assert refused.exit_code == 2
    assert "remove it with 'rummikub game undo'" in refused.output


def test_may_i_in_continental(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    args = ["--game", "continental", "--players", "Ann,Bob,Cy", "--seed", "7"]
    assert run("game", "new", str(path), *args).exit_code == 0
    state = engine.replay(load(path)).state
    top = state.pile[-1]
    claimed = run("game", "apply", str(path), "--may-i", "Cy", "--discard", str(state.hands[0][0]))
    assert claimed.exit_code == 0, claimed.output
    assert f'Cy said "May I?" for {top} (and a penalty card)' in claimed.output.splitlines()[0]
    after = engine.replay(load(path)).state
    assert after.counts == (12, 12, 14)  # Cy took the discard and a penalty card
    assert "Hand 1 of 7 of Continental (deal 1: 2 sets)" in claimed.output
    no_one = run("game", "apply", str(path), "--may-i", "Zed", "--discard", "AS")
    assert no_one.exit_code == 2
    assert "expected a player (Ann, Bob, Cy) or a seat number" in no_one.output


def test_a_game_at_a_real_table(tmp_path: Path) -> None:
    """Only my hand known: the others' turns entered as seen, my stock draws with --card,
    the scores of a hand entered where the engine cannot count them, the next deal."""
    path = tmp_path / "r.toml"
    hand = "7S 8S 9S KH 2C 3C 4C 5D 5H 9D"
    args = ["--game", "rummy", "--players", "Me,Ann", "--me", "0", "--hand", hand, "--up", "QS"]
    started = run("game", "new", str(path), *args)
    assert started.exit_code == 0, started.output
    assert "  Ann: 10 cards: ?" in started.output
    mine = run("game", "apply", str(path), "--card", "6D", "--lay", "7S 8S 9S", "--discard", "KH")
    assert mine.exit_code == 0, mine.output
    assert mine.output.startswith("Hand 1, turn 1: Me drew from the stock (6D), laid 7S 8S 9S")
    hint = run("game", "hint", str(path))
    assert hint.exit_code == 2 and "their hand is not known" in hint.output
    ann = run("game", "apply", str(path), "--meld", "QH QD QC", "--discard", "2S")
    assert ann.exit_code == 0, ann.output
    run("game", "apply", str(path), "--card", "6C", "--meld", "2C 3C 4C", "--discard", "9D")
    assert run("game", "apply", str(path), "--meld", "AH 2H 3H", "--discard", "KD").exit_code == 0
    run("game", "apply", str(path), "--card", "7D", "--discard", "7D")
    # Ann's last five cards: a set of four and her discard.
    out = run("game", "apply", str(path), "--meld", "10S 10H 10D 10C", "--discard", "JD")
    assert out.exit_code == 0, out.output
    assert "Ann went out" in out.output
    # Rummy: Ann scores my cards left (5H 5D 6D 6C: 22), the engine counts it.
    assert "  hand 1: Me 0, Ann 22 (Ann went out)" in out.output
    assert "Deal the next hand with 'rummikub game deal" in out.output
    dealt = run("game", "deal", str(path), "--hand", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "--up", "KC")
    assert dealt.exit_code == 0, dealt.output
    assert "Hand 2 of Rummy (to 100): Ann to move (turn 1)" in dealt.output
    assert run("game", "score", str(path), "--scores", "1,2").exit_code == 2
    undone = run("game", "undo", str(path))
    assert undone.output.startswith("Removed the deal of hand 2.")


def test_scores_entered_where_the_engine_cannot_count_them(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    hand = "7S 8S 9S 10S JS QS KS AH 2H 3H 4H 5H 6H"
    args = ["--game", "500-rum", "--players", "Me,Ann", "--hand", hand, "--up", "2C"]
    run("game", "new", str(path), *args)
    run(
        "game",
        "apply",
        str(path),
        "--card",
        "7H",
        "--lay",
        "7S 8S 9S 10S JS QS KS AH 2H 3H 4H 5H 6H 7H",
    )
    state = engine.replay(load(path)).state
    assert state.hand_over
    shown = run("game", "show", str(path)).output
    assert "Its scores are not known" in shown  # Ann's hand left is not known
    bad = run("game", "score", str(path), "--scores", "a,b")
    assert bad.exit_code == 2 and "expected whole numbers" in bad.output
    assert run("game", "score", str(path), "--scores", "1,2,3").exit_code == 2
    scored = run("game", "score", str(path), "--scores", "184,-40")
    assert scored.exit_code == 0, scored.output
    assert "  totals: Me 184, Ann -40" in scored.output
    assert load(path).hands[0].scores == (184, -40)


def test_hints(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_500(path)
    hint = run("game", "hint", str(path))
    assert hint.exit_code == 0, hint.output
    lines = hint.output.splitlines()
    assert lines[0] == "Hand 1 of 500 Rum (to 500): Ann to move."
    assert "Draw: the top card of the discard pile, 5D" in lines
    assert any(line.startswith("Laid: ") and "(63 points)" in line for line in lines)
    data = json.loads(run("game", "hint", str(path), "--json").output)
    assert data["points"] == 63 and data["draw"] == 0
    keep = run("game", "hint", str(path), "--strategy", "keep")
    assert keep.output.splitlines()[1].startswith("Strategy keep: ")
    unknown = run("game", "hint", str(path), "--strategy", "nope")
    assert unknown.exit_code == 2 and "unknown card strategy" in unknown.output


def test_show_draws_the_position(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_500(path)
    picture = tmp_path / "g.svg"
    result = run("game", "show", str(path), "--svg", str(picture))
    assert result.exit_code == 0, result.output
    root = ElementTree.fromstring(picture.read_text(encoding="utf-8"))
    cards = [g.attrib["data-card"] for g in root.iter("{http://www.w3.org/2000/svg}g")]
    assert cards[0] == "5D" and len(cards) == 14  # the pile, then Ann's hand


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--game", "rummy"], "give --seed N to deal a game, or --hand CARDS and --up CARD"),
        (["--game", "rummy", "--seed", "1", "--players", "7"], "a rummy game has 2-6 players"),
        (["--game", "rummy", "--seed", "1", "--players", "Ann,Ann"], "a name of their own"),
        (["--game", "rummy", "--hand", "7S"], "needs both --hand CARDS and --up CARD"),
        (["--game", "rummy", "--seed", "1", "--rules", "standard"], "a tile rule set"),
        (["--game", "rummy", "--seed", "1", "--rule", "target=x"], "target"),
    ],
)
def test_new_refuses_clearly(tmp_path: Path, args: list[str], words: str) -> None:
    result = run("game", "new", str(tmp_path / "n.toml"), *args)
    assert result.exit_code == 2
    assert words in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "n.toml").exists()


def test_the_tile_game_is_untouched(tmp_path: Path) -> None:
    """Without --game, and with a tile record, ``game`` is the tile game's."""
    path = tmp_path / "t.toml"
    result = run("game", "new", str(path), "--seed", "1")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("New game of 2 players: P1, P2.")
    assert run("game", "show", str(path)).exit_code == 0
    assert "deal" in run("game", "--help").output
    assert run("game", "deal", str(path), "--hand", "7S", "--up", "KC").exit_code == 2


def test_a_card_record_is_no_puzzle(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_500(path)
    for command in ("solve", "check", "analyse"):
        result = run(command, str(path))
        assert result.exit_code == 2, command
        assert result.output == (
            f"Error: {path}: a card game record, not a puzzle: 'rummikub game show {path}' "
            f"shows it, 'rummikub game hint {path}' gives the best turn to play\n"
        )


def test_continental_deals_its_next_contract(tmp_path: Path) -> None:
    """Hand 1 (two sets) played to its end through the command line: hand 2 is dealt at
    once, led by the next player, with its contract (a set and a run)."""
    path = tmp_path / "c.toml"
    args = ["--game", "continental", "--players", "Ann,Bob,Cy", "--seed", "7"]
    assert run("game", "new", str(path), *args).exit_code == 0
    for _ in range(100):
        state = engine.replay(load(path)).state
        if state.hand > 0:
            break
        result = run("game", "apply", str(path), *best_turn(state))
        assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert re.fullmatch(
        r"Hand 1 of 7 of Continental \(deal 1: 2 sets\) is over: (Ann|Bob|Cy) went out; "
        r"hand 2 is dealt\.",
        lines[1],
    )
    assert lines[2].startswith(
        "Hand 2 of 7 of Continental (deal 2: 1 set and 1 run): Bob to move (turn 1)"
    )
    assert "Scores:" in result.output and "  hand 1: Ann " in result.output
    played = engine.replay(load(path))
    assert played.problem is None and len(played.record.hands) == 2
    first = played.state.results[0]
    assert first.scores is not None and first.out is not None and first.scores[first.out] == 0


def test_hint_draws_the_best_turn(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_500(path)
    picture = tmp_path / "hint.svg"
    result = run("game", "hint", str(path), "--svg", str(picture))
    assert result.exit_code == 0, result.output
    root = ElementTree.fromstring(picture.read_text(encoding="utf-8"))
    svg = "{http://www.w3.org/2000/svg}"
    marks = [g.attrib["class"] for g in root.iter(f"{svg}g")]
    assert marks.count("card laid") == 8 + 9  # in the hand (5D is the pile's), on the table
    assert marks.count("card taken") == 1  # 5D from the pile
    texts = [t.text for t in root.iter(f"{svg}text")]
    assert texts[0] == "500 Rum \u2014 Hand 1: Ann to move"
    both = run("game", "hint", str(path), "--svg", str(picture), "--strategy", "keep")
    assert both.exit_code == 2


def test_a_turn_given_as_the_whole_new_table(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    new_500(path)
    run("game", "apply", str(path), "--meld", "JS QS KS", "--discard", "4D")
    # The first meld given stands where JS QS KS stands: it would change it.
    changed = run("game", "apply", str(path), "--table", "8H 9H 10H", "--discard", "KH")
    assert changed.exit_code == 1
    assert 'changes "JS QS KS"' in changed.output
    whole = run("game", "apply", str(path), "--table", "JS QS KS | 8H 9H 10H", "--discard", "KH")
    assert whole.exit_code == 0, whole.output
    assert whole.output.startswith("Hand 1, turn 2: Bob drew from the stock, laid 8H 9H 10H,")
    # Ann lays 10S off on JS QS KS by giving the table as it is after.
    off = run("game", "apply", str(path), "--table", "10S JS QS KS | 8H 9H 10H", "--discard", "AC")
    assert off.exit_code == 1  # 10S is not Ann's
    assert "10S" in off.output
    short = run("game", "apply", str(path), "--table", "JS QS KS", "--discard", "AC")
    assert short.exit_code == 2
    assert "--table: the new table has 1 melds, the table 2: give every old meld" in short.output
    both = run("game", "apply", str(path), "--table", "JS QS KS", "--meld", "6S 6H 6D")
    assert both.exit_code == 2 and "one of them" in both.output


@pytest.mark.parametrize("extra", [(), ("--json",), ("--samples", "0")])
def test_a_tile_only_command_on_a_card_record_is_bad_input(
    tmp_path: Path, extra: tuple[str, ...]
) -> None:
    record = tmp_path / "rum.toml"
    new_500(record)
    before = record.read_bytes()
    done = run("game", "annotate", str(record), *extra)
    assert done.exit_code == 2 and isinstance(done.exception, SystemExit)
    assert "'game annotate' is for tile records" in done.output
    assert "rummikub analyse RECORD --equity" in done.output
    assert record.read_bytes() == before
