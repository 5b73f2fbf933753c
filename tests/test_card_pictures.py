"""Card pictures (``rummikub.render.card_svg``) and cards in their colors on a terminal: valid
SVG, the same bytes for the same input, every card drawn where the turn puts it and marked
with how it got there, in the two-color or the four-color deck."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings

from rummikub.cards.cards import Card, parse_cards
from rummikub.cards.checker import check
from rummikub.cards.puzzles import load
from rummikub.cards.solver import solve
from rummikub.cli import main
from rummikub.render.card_svg import (
    card_position_svg,
    card_proposal_svg,
    card_result_svg,
    card_verdict_svg,
)
from rummikub.render.colors import CARD_HEX, CARD_JOKER_HEX, FOUR_COLOR_HEX
from rummikub.render.text import paint_cards
from tests.card_strategies import card_positions

REPO = Path(__file__).resolve().parent.parent
CARDS = REPO / "puzzles" / "cards"
FILES = sorted(CARDS.glob("*.toml"))
SVG = "{http://www.w3.org/2000/svg}"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def drawn(svg: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(card, mark) of every card before the arrow and after it, in drawing order."""
    root = ElementTree.fromstring(svg)
    before: list[tuple[str, str]] = []
    after: list[tuple[str, str]] = []
    side = before
    for element in root:
        if element.tag == f"{SVG}path":  # the arrow from before to after
            side = after
        elif element.tag == f"{SVG}g" and "card" in element.attrib.get("class", ""):
            side.append((element.attrib["data-card"], element.attrib["class"].split()[1]))
    return before, after


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ElementTree.fromstring(svg).iter(f"{SVG}text")]


def marked(cards: list[tuple[str, str]], mark: str) -> Counter[str]:
    return Counter(card for card, found in cards if found == mark)


def test_the_take_five_turn_is_drawn_card_by_card() -> None:
    puzzle = load(str(CARDS / "500-rum-take-five.toml"))
    result = solve(puzzle.position)
    svg = card_result_svg(result, title=puzzle.title)
    before, after = drawn(svg)
    # Before: the pile bottom to top (five taken, blue), then the hand by suit and rank,
    # each card marked with where it goes.
    assert before == [
        ("5C", "kept"),
        ("8H", "taken"),
        ("KS", "taken"),
        ("KD", "taken"),
        ("3D", "taken"),
        ("4S", "taken"),
        ("6H", "laid"),
        ("7H", "laid"),
        ("2C", "discard"),
        ("KC", "laid"),
    ]
    # After: the two new melds, all laid, then the discard and the hand left.
    assert after == [
        ("6H", "laid"),
        ("7H", "laid"),
        ("8H", "laid"),
        ("KS", "laid"),
        ("KD", "laid"),
        ("KC", "laid"),
        ("2C", "discard"),
        ("4S", "kept"),
        ("3D", "kept"),
    ]
    words = texts(svg)
    assert "500 Rum \u2014 Take five from the pile" in words
    assert "Laid: KS 6H 7H 8H KD KC (51 points)." in words
    assert "Penalty left: 7." in words
    assert any(w.startswith("Draw: 5 cards from the discard pile") for w in words)


def test_a_wild_card_says_what_it_stands_for_and_a_swap_is_a_lay_off() -> None:
    puzzle = load(str(CARDS / "romme-wild-swap.toml"))
    svg = card_result_svg(solve(puzzle.position))
    before, after = drawn(svg)
    # The table run 5S * 7S: 6S takes the joker's place (laid off, amber); the joker is
    # laid again in the new meld 9H 10H *, standing for JH.
    assert after[:3] == [("5S", "kept"), ("6S", "off"), ("7S", "kept")]
    assert after[3:6] == [("9H", "laid"), ("10H", "laid"), ("*", "laid")]
    assert ("6S", "off") in before
    words = texts(svg)
    assert "=6S" in words and "=JH" in words
    assert "6S takes the wild card * back from meld 0." in words
    assert "Amber: laid off on a table meld." in " ".join(words)


def test_named_wild_cards_and_contracts() -> None:
    puzzle = load(str(CARDS / "continental-deal-7-wild-aces.toml"))
    svg = card_result_svg(solve(puzzle.position), title=puzzle.title)
    words = texts(svg)
    assert words[0] == "Continental, deal 7 (3 runs) \u2014 Deal 7 with wild aces"
    # AH stands for 8H, AD for 10C, the joker for 7H: each written under its card.
    assert {"=8H", "=10C", "=7H"} <= set(words)
    assert "Hand (not opened yet)" in words
    assert "No discard (out)" not in words  # Continental goes out with a discard


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_card_puzzle_draws_its_best_turn(path: Path) -> None:
    """Valid SVG, the same bytes twice; the table after the turn is the solver's, card for
    card; the cards marked laid are the new melds', those marked off the lay-offs'."""
    puzzle = load(str(path))
    result = solve(puzzle.position)
    svg = card_result_svg(result, title=puzzle.title)
    assert svg == card_result_svg(result, title=puzzle.title)
    before, after = drawn(svg)
    turn, position = result.best, result.position
    table = [str(c) for meld in turn.table for c in meld.cards]
    left = [str(c) for c in turn.hand]
    discard = [] if turn.discard is None else [str(turn.discard)]
    assert [card for card, _ in after] == table + discard + left
    old = len(position.table)
    new = Counter(str(c) for meld in turn.table[old:] for c in meld.cards)
    assert marked(after, "laid") == new
    assert marked(after, "off") == Counter(str(c) for cs in turn.layoffs.values() for c in cs)
    # Before: the old table, the pile (the cards taken marked), the hand (the discard marked).
    assert Counter(card for card, _ in before) == Counter(
        str(c) for c in (*(c for m in position.table for c in m.cards), *position.discard)
    ) + Counter(str(c) for c in position.hand)
    assert marked(before, "taken") == Counter(str(c) for c in position.taken(turn.draw))
    assert marked(before, "discard") == Counter(discard)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(card_positions())
def test_any_position_and_its_best_turn_draw_as_valid_svg(position: object) -> None:
    from rummikub.cards.position import CardPosition

    assert isinstance(position, CardPosition)
    picture = card_position_svg(position)
    cards = [card for side in drawn(picture) for card, _ in side]
    assert Counter(cards) == Counter(
        str(c)
        for c in (*position.hand, *position.discard, *(c for m in position.table for c in m.cards))
    )
    result = solve(position)
    after = drawn(card_result_svg(result))[1]
    laid = marked(after, "laid") + marked(after, "off")
    assert laid == Counter(str(c) for c in result.best.played)


def test_four_colors_and_two() -> None:
    puzzle = load(str(CARDS / "continental-deal-7-wild-aces.toml"))
    result = solve(puzzle.position)
    two = card_result_svg(result)
    four = card_result_svg(result, four_color=True)
    assert two != four

    def inks(svg: str, card: str) -> set[str]:
        root = ElementTree.fromstring(svg)
        return {
            t.attrib["fill"]
            for g in root.iter(f"{SVG}g")
            if g.attrib.get("data-card") == card
            for t in g.iter(f"{SVG}text")
            if not (t.text or "").startswith("=")
        }

    assert inks(two, "JC") == {CARD_HEX["C"]} and inks(four, "JC") == {FOUR_COLOR_HEX["C"]}
    assert inks(two, "2D") == {CARD_HEX["D"]} and inks(four, "2D") == {FOUR_COLOR_HEX["D"]}
    assert inks(two, "9H") == inks(four, "9H") == {CARD_HEX["H"]}
    assert inks(two, "*") == {CARD_JOKER_HEX}


def test_a_proposed_turn_legal_and_not() -> None:
    puzzle = load(str(CARDS / "continental-wild-trio.toml"))
    assert puzzle.after is not None
    position, proposed = puzzle.position, list(puzzle.after)
    verdict = check(position, proposed, discard=puzzle.after_discard)
    assert verdict.legal
    legal = card_verdict_svg(position, proposed, verdict, discard=puzzle.after_discard)
    assert marked(drawn(legal)[1], "laid") == Counter(str(c) for c in verdict.played)
    from rummikub.cards.melds import RawCardMeld

    wrong = [RawCardMeld.parse("7S 7H 7D"), RawCardMeld.parse("AH * *")]
    verdict = check(position, wrong)
    assert not verdict.legal
    svg = card_verdict_svg(position, wrong, verdict)
    assert svg == card_proposal_svg(position, wrong, verdict.errors)
    words = texts(svg)
    assert "Proposed (not a legal turn)" in words
    assert all(f"- {error}" in words for error in verdict.errors)
    # As given: AH written plainly is the ace of hearts itself.
    assert [c for c, _ in drawn(svg)[1]] == ["7S", "7H", "7D", "AH", "*", "*"]


# -- the command line -----------------------------------------------------------------------


def test_solve_svg_writes_the_card_picture(tmp_path: Path) -> None:
    """It wrote nothing before: a card puzzle's turn, the same bytes as the library's."""
    target = tmp_path / "turn.svg"
    path = str(CARDS / "500-rum-take-five.toml")
    result = CliRunner().invoke(main, ["solve", path, "--svg", str(target)])
    assert result.exit_code == 0, result.output
    puzzle = load(path)
    assert target.read_text(encoding="utf-8") == card_result_svg(
        solve(puzzle.position), title=puzzle.title
    )
    inline = tmp_path / "inline.svg"
    args = ["solve", "--game", "rummy", "--hand", "7S 8S 9S KH 2C", "--table", "7H 7D 7C"]
    result = CliRunner().invoke(main, [*args, "--svg", str(inline), "--four-color"])
    assert result.exit_code == 0, result.output
    assert drawn(inline.read_text(encoding="utf-8"))[1] == [
        ("7H", "kept"),
        ("7D", "kept"),
        ("7C", "kept"),
        ("7S", "laid"),
        ("8S", "laid"),
        ("9S", "laid"),
        ("KH", "discard"),
        ("2C", "kept"),
    ]


def test_check_svg_draws_the_card_turn(tmp_path: Path) -> None:
    target = tmp_path / "check.svg"
    path = str(CARDS / "continental-wild-trio.toml")
    result = CliRunner().invoke(
        main, ["check", path, "--after", "7S 7H 7D", "--after", "AH * *", "--svg", str(target)]
    )
    assert result.exit_code == 1
    assert "Proposed (not a legal turn)" in texts(target.read_text(encoding="utf-8"))
    result = CliRunner().invoke(main, ["check", path, "--svg", str(target)])
    assert result.exit_code == 0
    assert marked(drawn(target.read_text(encoding="utf-8"))[1], "laid")


# -- cards on a terminal --------------------------------------------------------------------


def test_cards_are_painted_in_their_suits_colors() -> None:
    text = "New table (* = new or changed):\n  * * AH=8H 9H\n    7S 7C 7D\nDiscard: 10D"
    painted = paint_cards(text)
    assert ANSI.sub("", painted) == text
    lines = painted.split("\n")
    assert lines[0] == "New table (* = new or changed):"  # the marker's * is no joker
    assert lines[1].startswith("  * \x1b[1;95m*\x1b[0m ")  # a changed meld: bold
    assert "\x1b[1;31mAH\x1b[0m=\x1b[1;31m8H\x1b[0m" in lines[1]
    assert "\x1b[34m10D\x1b[0m" in paint_cards(text, four_color=True)
    assert "\x1b[31m10D\x1b[0m" in painted
    assert "\x1b[32m7C\x1b[0m" in paint_cards(text, four_color=True)
    assert "7C" in lines[2] and "\x1b[" not in lines[2].split("7C")[0][-6:]


def test_solve_paints_cards_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["solve", "--game", "rummy", "--hand", "7S 8S 9S KH 2C", "--table", "7H 7D 7C"]
    plain = CliRunner().invoke(main, args).output
    assert "\x1b[" not in plain
    monkeypatch.setenv("FORCE_COLOR", "1")
    colored = CliRunner().invoke(main, args).output
    assert "\x1b[31mKH\x1b[0m" in colored
    assert ANSI.sub("", colored).split("Time:")[0] == plain.split("Time:")[0]
    assert parse_cards("KH") == (Card(13, "H"),)
