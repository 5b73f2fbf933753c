"""The analysis board's reach and entry in a real headless Chromium, at 360 and 1280 px: the
actions in reach wherever the editor is scrolled, a position set up in few taps or keys,
the chances to win of a game's real players and racks, every registered player to play
against at a chosen strength, card positions kept in the URL, the picture downloaded; axe
clean in each state (the helpers are tests/test_web_board_browser.py's).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import pytest

from tests import test_web_board_browser as base
from tests.test_web_board_browser import (
    KEEP,
    Board,
    check_axe,
    expect,
    in_view,
    new_board,
    no_horizontal_scroll,
    touch_targets,
)

# The fixtures of the board's browser tests: one server and one browser for this module too.
server, browser, boards = base.server, base.browser, base.boards

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PHONE, DESK = (360, 740), (1280, 800)
#: Six melds and a fourteen-tile rack: the measure of "how many taps to set a position up".
TABLE = ["R1 R2 R3", "K7 R7 B7", "B9 B10 J", "O4 O5 O6", "K11 R11 O11", "B1 B2 B3 B4"]
RACK = ["R4", "K7", "O7", "K1", "K2", "B12", "R13", "O9", "O10", "K5", "B6", "R8", "J", "O2"]
NOTATION = " | ".join(TABLE) + " / " + " ".join(RACK)
COLORS = {"K": "Black", "R": "Red", "B": "Blue", "O": "Orange"}


def keep(page: Page, name: str) -> None:
    if KEEP:
        Path(KEEP).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(KEEP) / name))


# -- the taps and keys a position takes --------------------------------------------------------


@dataclass
class Plan:
    """The presses that set up TABLE and RACK from an empty board: ``(kind, name)`` with kind
    "tap" (a button's name) or "key"."""

    presses: list[tuple[str, str]] = field(default_factory=list)
    color: str = "K"
    last: str | None = None

    def tile(self, tile: str, *, again: bool) -> None:
        if tile == "J":
            self.presses.append(("tap", "add J (joker)"))
        elif (
            again
            and self.last not in (None, "J")
            and self.last[1:] == tile[1:]
            and self.last[0] != tile[0]
        ):
            self.presses.append(("tap", f"add {tile} too"))  # the same number, another colour
        else:
            if tile[0] != self.color:
                self.presses.append(("tap", f"{COLORS[tile[0]]} {tile[0]}"))
                self.color = tile[0]
            self.presses.append(("tap", f"add {tile}"))
        self.last = tile


def run_ends(meld: list[str]) -> list[str]:
    """The tiles to tap of a meld that opens with a run of one colour: its two ends (the
    board fills the numbers between), then the rest."""
    end = 1
    while (
        end < len(meld)
        and "J" not in (meld[end], meld[end - 1])
        and meld[end][0] == meld[0][0]
        and int(meld[end][1:]) == int(meld[end - 1][1:]) + 1
    ):
        end += 1
    return [meld[0], meld[end - 1], *meld[end:]] if end > 2 else meld


def taps(*, now: bool) -> Plan:
    """The taps on the picker: the old board's (colour, number, New meld, Rack), or now's
    (a run from its ends, the same number in another colour in one tap)."""
    plan = Plan()
    for meld in TABLE:
        plan.presses.append(("tap", "New meld"))
        for tile in run_ends(meld.split()) if now else meld.split():
            plan.tile(tile, again=now)
    plan.presses.append(("tap", "Rack"))
    for tile in RACK:
        plan.tile(tile, again=now)
    return plan


def keys() -> list[str]:
    """The keys of the board's type-ahead: a colour letter when it changes, the number (a
    space after a lone 1), J, N a new meld, / the rack, Enter the best move."""
    pressed: list[str] = []
    color = "K"

    def tile(name: str) -> None:
        nonlocal color
        if name == "J":
            pressed.append("j")
            return
        if name[0] != color:
            pressed.append(name[0].lower())
            color = name[0]
        pressed.extend(name[1:])
        if name[1:] == "1":
            pressed.append(" ")

    for meld in TABLE:
        pressed.append("n")
        for name in run_ends(meld.split()):
            tile(name)
    pressed.append("/")
    for name in RACK:
        tile(name)
    return [*pressed, "Enter"]


def test_a_position_in_few_taps_and_keys(
    boards: list[Board], browser: Browser, server: str
) -> None:
    before, now = taps(now=False), taps(now=True)
    assert len(before.presses) == 60  # the old board's count for this position
    assert len(now.presses) == 50
    board = new_board(boards, browser, server, PHONE)
    page = board.open()
    notation = page.get_by_label("Position in quick notation")
    for _, name in now.presses:
        page.get_by_role("button", name=name, exact=True).click()
        # The place being filled stays in sight under the picker.
    expect(notation).to_have_value(NOTATION)
    in_view(page, "#rack-place")
    in_view(page, "#solve")
    no_horizontal_scroll(page)
    touch_targets(page)
    check_axe(page)
    keep(page, "layout-taps-360.png")

    # From the keyboard alone, on a desk: the type-ahead, then Enter solves.
    board = new_board(boards, browser, server, DESK)
    page = board.open()
    pressed = keys()
    assert len(pressed) == 67  # the old board: 28 Tabs to the notation, 90 keys, Enter
    for key in pressed:
        page.keyboard.press("Space" if key == " " else key)
    expect(page.get_by_label("Position in quick notation")).to_have_value(NOTATION)
    expect(page.locator("#summary")).to_contain_text("Best move")
    # Backspace takes the rack's last tile back; the rest of the rack is typed.
    page.keyboard.press("Backspace")
    page.get_by_label("The rest of the rack").fill("o2 r5-6")
    page.get_by_label("The rest of the rack").press("Enter")
    expect(page.get_by_label("Position in quick notation")).to_have_value(NOTATION + " R5 R6")
    board.close()


# -- reach: the primary action in view, the answer beside ----------------------------------------


@pytest.mark.parametrize("size", [PHONE, DESK], ids=lambda s: f"{s[0]}x{s[1]}")
def test_best_move_in_reach_and_the_answer_beside(
    boards: list[Board], browser: Browser, server: str, size: tuple[int, int]
) -> None:
    board = new_board(boards, browser, server, size)
    page = board.open("/?p=" + quote(NOTATION))
    in_view(page, "#solve")  # was 2.2 screens down at 360 px, 1.5 at 1280x800
    # Filling the last meld far down: the picker, the meld and the actions all in sight.
    page.locator("#table .meld-row").last.click()
    page.get_by_role("button", name="Blue B").click()
    page.get_by_role("button", name="add B5", exact=True).click()
    in_view(page, "#picker")
    in_view(page, "#table .meld-row.selected")
    in_view(page, "#solve")
    expect(page.locator("#answer-empty")).to_be_visible()
    page.get_by_role("button", name="Best move").click()
    expect(page.locator("#summary")).to_contain_text("Best move")
    expect(page.locator("#answer-empty")).to_be_hidden()
    in_view(page, "#answer")
    if size == DESK:  # beside the editor, in view however far the editor is scrolled
        page.locator("#table .meld-row").last.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, 300)")
        box = page.locator("#answer").bounding_box()
        assert box is not None and box["x"] > 600
        assert box["y"] < size[1] - 200 and box["y"] + box["height"] > 200, box
    no_horizontal_scroll(page)
    check_axe(page)
    keep(page, f"layout-answer-{size[0]}.png")
    # A table of many melds in a few rows: the preview of a move, three melds to a row.
    page.get_by_role("button", name="Best 3 moves").click()
    page.locator("#moves button.move").first.click()
    melds = page.locator("#preview-table li")
    expect(melds.first).to_be_visible()
    count = melds.count()
    tops = {round(melds.nth(i).bounding_box()["y"]) for i in range(count)}  # type: ignore[index]
    assert count >= 6 and len(tops) <= (count + 1) // 2
    board.close()


# -- the chances to win of a game's real players; every player, the strongest too -------------


def test_a_games_chances_to_win_and_every_player_at_a_strength(
    boards: list[Board], browser: Browser, server: str
) -> None:
    from rummikub.tiles.game.strategies import STRATEGIES

    board = new_board(boards, browser, server, PHONE)
    page = board.open("/?mode=game")
    kinds = page.locator("#opponent-kind option")
    expect(kinds).to_have_count(len(STRATEGIES))
    assert [kinds.nth(i).get_attribute("value") for i in range(len(STRATEGIES))] == list(STRATEGIES)
    page.get_by_label("Strength").select_option(label="strongest (plays to win; slower)")
    expect(page.locator("#opponent-kind")).to_have_value("equity")
    page.get_by_label("Strength").select_option(label="good")
    page.get_by_label("Opponents").select_option("2")
    page.get_by_label("Seed").fill("11")
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#game-status")).to_contain_text("Turn 1: your move")
    touch_targets(page)
    check_axe(page)
    page.get_by_role("button", name="Draw").click()
    expect(page.locator("#game-status")).to_contain_text("Turn 4: your move")
    counts = page.evaluate("games.game.rack_counts")
    page.get_by_role("button", name="Analyse on the board").first.click()
    expect(page.get_by_label("Players")).to_have_value("3")
    expect(page.get_by_label("Other racks")).to_have_value(f"{counts[1]} {counts[2]}")
    # The request carries them: a small budget keeps the test fast.
    page.route(
        "**/api/analyse",
        lambda route: route.continue_(
            post_data=route.request.post_data.replace(  # type: ignore[union-attr]
                '"equity":{', '"equity":{"playouts":4,"rounds":1,'
            )
        ),
    )
    page.get_by_role("button", name="Chances to win").click()
    title = page.locator("#equity-answer h3")
    expect(title).to_contain_text(
        f"3 players; the other racks hold {counts[1]}, {counts[2]} tiles", timeout=90_000
    )
    # The interval column is shown on a phone too.
    expect(page.locator("table.equity th.interval")).to_be_visible()
    expect(page.locator("#equity-advice")).to_contain_text("Laying the most")
    no_horizontal_scroll(page)
    check_axe(page)
    keep(page, "layout-equity-360.png")
    page.get_by_label("Language").select_option("pt")
    expect(page.get_by_role("button", name="Melhor jogada")).to_be_visible()
    no_horizontal_scroll(page)
    check_axe(page)
    page.get_by_role("button", name="Jogar", exact=True).click()
    expect(page.get_by_label("Força")).to_be_visible()
    no_horizontal_scroll(page)
    board.close()


# -- cards kept; the picture downloaded ---------------------------------------------------------


def test_cards_kept_in_the_url_and_the_picture_downloaded(
    boards: list[Board], browser: Browser, server: str, tmp_path: Path
) -> None:
    board = new_board(boards, browser, server, DESK, accept_downloads=True)
    page = board.open("/?mode=cards")
    page.locator("#card-game").select_option("500-rum")
    page.locator("#card-hand").fill("6H 7H 8H KC")
    page.locator("#card-table").fill("QS QC QH")
    page.locator("#card-discard").fill("5C 9H")
    page.locator("#card-discard").press("Tab")
    assert "hand=6H+7H+8H+KC" in page.url and "game=500-rum" in page.url
    link = page.url
    page.reload()
    expect(page.locator("#card-hand")).to_have_value("6H 7H 8H KC")
    expect(page.locator("#card-discard")).to_have_value("5C 9H")
    # A fresh window from the link alone.
    board.context.clear_cookies()
    page.evaluate("localStorage.clear()")
    page.goto(link)
    expect(page.locator("#card-table")).to_have_value("QS QC QH")
    expect(page.locator("#card-game")).to_have_value("500-rum")
    check_axe(page)

    page.goto(server + "/?p=" + quote("R1-3 | KRB7 / R4 O7"))
    page.get_by_role("button", name="Best move").click()
    expect(page.locator("#picture svg")).to_be_visible()
    for kind, head in (("SVG", b"<svg"), ("PNG", b"\x89PNG")):
        with page.expect_download() as download:
            page.get_by_role("button", name=f"Download picture ({kind})").click()
        saved = tmp_path / f"picture.{kind.lower()}"
        download.value.save_as(saved)
        assert saved.read_bytes().lstrip()[: len(head)] == head
    if KEEP:
        shutil.copy(tmp_path / "picture.png", Path(KEEP) / "layout-picture.png")
    board.close()
