"""A real table's scores judged against the game's scoring rule (CARDS.md section 7,
"Scoring a hand"): who scores, a known hand's exact penalty, an unseen hand's least and
most; refused by ``engine.enter_scores`` (``game score``) and by the record's reader
(``game show`` and ``game replay``: exit 2, the file and the hand named)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rummikub.cards import parse_cards, preset, with_options
from rummikub.cards.cards import Card
from rummikub.cards.game import engine, record
from rummikub.cards.game.engine import CardGameState, ScoreError
from rummikub.cards.game.record import CardRecord, Turn
from rummikub.cards.melds import RawCardMeld
from rummikub.cli import main

NAMES = ("Ann", "Bob", "Cy")


def card(text: str) -> Card:
    return parse_cards(text)[0]


def ann_goes_out(game: str, laid: Sequence[str], discard: str | None) -> CardRecord:
    """Three players at a real table, Cy's (seat 2's) cards known: Ann, who leads, draws
    from the stock and goes out at once; Bob's hand is never seen."""
    rules = with_options(preset(game), {"hand_size": sum(len(m.split()) for m in laid)})
    if discard is None:
        rules = with_options(rules, {"hand_size": rules.hand_size - 1})
    mine = parse_cards("5H 2C 3C 4D 9S 8H"[: 3 * rules.hand_size - 1])
    game_record = engine.real_table(list(NAMES), rules, 2, mine, card("KS"))
    out = Turn(
        "stock",
        melds=tuple(RawCardMeld.parse(m) for m in laid),
        discard=None if discard is None else card(discard),
    )
    return game_record.with_hands((replace(game_record.hands[0], turns=(out,)),))


def ended(game_record: CardRecord) -> CardGameState:
    state = engine.replay(game_record).state
    assert state.hand_over and state.results[-1].out == 0
    assert state.results[-1].scores is None  # Bob's hand left is unseen
    return state


def refused(state: CardGameState, scores: tuple[int, ...]) -> str:
    with pytest.raises(ScoreError) as error:
        engine.enter_scores(state, scores)
    assert error.value.hand == 1
    return str(error.value)


def test_in_rummy_only_the_player_who_went_out_scores() -> None:
    state = ended(ann_goes_out("rummy", ["7S 8S 9S"], "KH"))
    # Cy holds 5H 2C 3C (10); Bob 3 unseen cards, 2 to 10 each.
    assert state.penalty(2) == 10
    # Every rule broken is said: Cy scored, and Ann did not score the others' hands.
    assert refused(state, (0, 0, 40)) == (
        "hand 1: scores [0, 0, 40]: in Rummy only the player who went out scores: "
        "Cy did not go out; in Rummy the player who went out scores the penalties of the "
        "other hands: Bob holds 3 unseen cards (penalty 6 to 30), Cy holds 5H 2C 3C "
        "(penalty 10), so Ann scores 16 to 40, not 0"
    )
    assert refused(state, (50, 0, 0)).endswith(
        "in Rummy the player who went out scores the penalties of the other hands: "
        "Bob holds 3 unseen cards (penalty 6 to 30), Cy holds 5H 2C 3C (penalty 10), "
        "so Ann scores 16 to 40, not 50"
    )
    assert refused(state, (15, 0, 0)).endswith("so Ann scores 16 to 40, not 15")
    assert engine.enter_scores(state, (30, 0, 0)).totals == (30, 0, 0)


@pytest.mark.parametrize(
    ("game", "laid", "discard"),
    [
        ("romme", ["QS QH QD QC"], None),  # Rommé's 40 to open, and out without a discard
        ("continental", ["7S 7H 7D", "9S 9H 9C"], "KH"),  # deal 1: two sets
        ("california", ["7S 7H 7D", "9S 9H 9C"], "KH"),
    ],
)
def test_the_one_out_scores_0_the_others_their_hand(
    game: str, laid: list[str], discard: str | None
) -> None:
    state = ended(ann_goes_out(game, laid, discard))
    name = {"romme": "Rommé", "continental": "Continental", "california": "California"}[game]
    mine = state.penalty(2)
    assert mine is not None
    cheapest, dearest = (2, 20) if game == "romme" else (5, 50)
    count = state.counts[1]
    low, high = count * cheapest, count * dearest
    assert refused(state, (7, low, mine)).endswith(
        f"in {name} the player who went out scores 0: Ann went out"
    )
    wrong = refused(state, (0, low, mine + 1))
    assert f"in {name} a player who did not go out scores the penalty of the hand left: " in wrong
    assert wrong.endswith(f"(penalty {mine}), so Cy scores {mine}, not {mine + 1}")
    assert refused(state, (0, high + 1, mine)).endswith(
        f"Bob holds {count} unseen cards (penalty {low} to {high}), "
        f"so Bob scores {low} to {high}, not {high + 1}"
    )
    # Scores have no sign here: a negative one is below every hand's penalty.
    assert "not -5" in refused(state, (0, -5, mine))
    assert engine.enter_scores(state, (0, high, mine)).totals == (0, high, mine)


def test_in_500_rum_laid_less_held_and_the_one_out_fixed() -> None:
    state = ended(ann_goes_out("500-rum", ["7S 8S 9S"], "KH"))
    # Ann laid 24 in one turn, her first: a rummy, doubled. Cy laid nothing: minus her hand.
    mine = state.penalty(2)
    assert mine is not None
    rule = "in 500 Rum a player scores the points laid less the penalty of the hand left"
    assert refused(state, (24, -6, -mine)).endswith(
        f"{rule}: Ann laid 24 and went out in one turn (a rummy: doubled), so Ann scores 48, not 24"
    )
    assert refused(state, (48, 5, -mine)).endswith(
        f"{rule}: Bob laid 0 and holds 3 unseen cards (penalty 6 to 45), so Bob scores "
        "-45 to -6, not 5"
    )
    assert refused(state, (48, -6, mine)).endswith(f"so Cy scores {-mine}, not {mine}")
    assert engine.enter_scores(state, (48, -45, -mine)).totals == (48, -45, -mine)


def test_a_record_with_impossible_scores_is_refused_on_reading(tmp_path: Path) -> None:
    game_record = ann_goes_out("rummy", ["7S 8S 9S"], "KH")
    bad = game_record.with_hands((replace(game_record.hands[0], scores=(0, 40, 0)),))
    with pytest.raises(ScoreError, match="only the player who went out scores: Bob did not"):
        engine.replay(bad)
    path = tmp_path / "table.toml"
    path.write_text(record.dumps(bad), encoding="utf-8")
    for command in ("show", "replay"):
        result = CliRunner().invoke(main, ["game", command, str(path)])
        assert result.exit_code == 2, result.output
        assert (
            f"{path}: hand 1: scores [0, 40, 0]: in Rummy only the player who went out "
            "scores: Bob did not go out"
        ) in result.output
        assert "Traceback" not in result.output
    seated = tmp_path / "seated.toml"
    seated.write_text(record.dumps(replace(bad, seats=("best", "best", "person"))), "utf-8")
    resumed = CliRunner().invoke(main, ["play", "--resume", str(seated)], input="quit\n")
    assert resumed.exit_code == 2, resumed.output
    assert f"{seated}: hand 1: scores [0, 40, 0]: in Rummy only" in resumed.output
    # undo takes the scores back (it reads the record without replaying it first).
    undone = CliRunner().invoke(main, ["game", "undo", str(path)])
    assert undone.exit_code == 0, undone.output
    assert undone.output.startswith("Removed the scores of hand 1.")


def test_game_score_refuses_with_the_rule(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(record.dumps(ann_goes_out("rummy", ["7S 8S 9S"], "KH")), encoding="utf-8")

    def score(text: str) -> Result:
        return CliRunner().invoke(main, ["game", "score", str(path), "--scores", text])

    bad = score("20,0,40")
    assert bad.exit_code == 2
    assert bad.output == (
        'Error: --scores "20,0,40": in Rummy only the player who went out scores: '
        "Cy did not go out\n"
    )
    assert record.load(path).hands[0].scores is None  # the record as it was
    good = score("20,0,0")
    assert good.exit_code == 0, good.output
    assert record.load(path).hands[0].scores == (20, 0, 0)
