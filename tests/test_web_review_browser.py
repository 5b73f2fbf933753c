"""The review in win probability and its variations in a real headless Chromium, at 360 and
1280 px: the review fills in turn by turn (and stops), the graph, the move list, the arrow
keys, the key moments, the positions before and after a turn; a variation played two moves
deep, walked back and saved into the record. axe-core in every state; no horizontal scroll.

The game is the README's review game (docs/players.md, "The game review": 15 turns on a
small box, turn 5 marked ``?!``), its first seat named ``you``, loaded as a record file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from rummikub.tiles.game.record import dumps
from rummikub.tiles.game.simulate import play_game
from rummikub.tiles.game.strategies import best, equity_v1
from rummikub.tiles.rules import Rules
from tests.test_web_board_browser import (
    DESK,
    KEEP,
    PHONE,
    Board,
    boards,  # noqa: F401 (a fixture)
    browser,  # noqa: F401 (a fixture)
    check_axe,
    expect,
    new_board,
    no_horizontal_scroll,
    server,  # noqa: F401 (a fixture)
    touch_targets,
)

if TYPE_CHECKING:
    from playwright.sync_api import Route

RULES = Rules(numbers=7, colors="KRB", copies=1, jokers=0, initial_meld=0)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    record, _ = play_game(RULES, [best, equity_v1], 1, rack_size=6, names=["you", "equity"])
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(dumps(record, "json"))
    return path


def shot(board: Board, name: str, size: tuple[int, int], top: str) -> None:
    """The window's screenshot with ``top`` scrolled to its top, to look at
    (``RUMMIKUB_SCREENSHOTS=DIR`` keeps it as ``NAME-WxH.png``: docs/players.md's)."""
    board.page.locator(top).scroll_into_view_if_needed()
    board.page.evaluate(f"document.querySelector('{top}').scrollIntoView({{block: 'start'}})")
    picture = board.page.screenshot()
    assert len(picture) > 10_000
    if KEEP:
        Path(KEEP).mkdir(parents=True, exist_ok=True)
        (Path(KEEP) / f"{name}-{size[0]}x{size[1]}.png").write_bytes(picture)


def open_review(board: Board, record_file: Path) -> None:
    page = board.open("/?mode=game")
    page.locator("#game-file").set_input_files(str(record_file))
    expect(page.locator("#game-turns li")).to_have_count(15)
    page.get_by_role("button", name="Review").click()
    expect(page.locator("#review-progress")).to_have_text("All 15 turns reviewed.")


@pytest.mark.parametrize("size", [PHONE, DESK], ids=lambda s: f"{s[0]}px")
def test_review_graph_move_list_keys_and_key_moments(
    boards: list[Board],  # noqa: F811
    browser: object,  # noqa: F811
    server: str,  # noqa: F811
    record_file: Path,
    size: tuple[int, int],
) -> None:
    board = new_board(boards, browser, server, size)  # type: ignore[arg-type]
    page = board.page
    open_review(board, record_file)
    expect(page.locator("#review-summary")).to_contain_text("15 turns, 5 graded")
    # The players' lines: the command line's (docs/players.md).
    rows = page.locator(".review-lines tbody tr")
    expect(rows.nth(0)).to_contain_text("88.2")
    expect(rows.nth(1)).to_contain_text("+0.57")
    # One point a turn with a chance to win; turn 5 marked, as analyse --equity marks it.
    expect(page.locator("#review-graph circle")).to_have_count(15)
    expect(page.locator("#review-graph circle.mark-inaccuracy")).to_have_count(1)
    moves = page.locator("#review-moves button")
    expect(moves).to_have_count(15)
    expect(moves.nth(4)).to_contain_text("5. you: played K6 R6 B6 ?!")
    expect(moves.nth(1)).to_have_text("2. equity: drew R1")
    # The key moments, then a click in the list, then the arrow keys.
    page.get_by_role("button", name="Next key moment").click()
    expect(page.locator("#review-turn")).to_contain_text("Turn 2 of 15")
    page.get_by_role("button", name="Next key moment").click()
    page.get_by_role("button", name="Next key moment").click()
    expect(page.locator("#review-turn")).to_contain_text("Turn 5 of 15")
    grade = page.locator("#review-grade")
    expect(grade).to_contain_text("?! inaccuracy")
    expect(grade).to_contain_text("best: draw")
    # The position before the turn holds the sixes in the rack; after it, on the table.
    expect(page.locator("#review-before-rack .tile[data-tile=K6]")).to_have_count(1)
    expect(page.locator("#review-after-table .tile.new")).to_have_count(3)
    shot(board, "review", size, "#review-summary" if size == PHONE else "#review")
    check_axe(page)
    touch_targets(page)
    no_horizontal_scroll(page)
    moves.nth(11).click()
    expect(page.locator("#review-turn")).to_contain_text("Turn 12 of 15")
    page.locator("#review-title").click()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#review-turn")).to_contain_text("Turn 11 of 15")
    page.keyboard.press("End")
    expect(page.locator("#review-turn")).to_contain_text("Turn 15 of 15")
    page.keyboard.press("[")
    expect(page.locator("#review-turn")).to_contain_text("Turn 5 of 15")
    # The graph is a slider: focused, its arrows walk the game too; a click picks a turn.
    graph = page.locator("#review-graph svg")
    graph.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#review-turn")).to_contain_text("Turn 6 of 15")
    expect(graph).to_have_attribute("aria-valuenow", "6")
    box = graph.bounding_box()
    assert box is not None
    graph.click(position={"x": box["width"] - 2, "y": box["height"] / 2})
    expect(page.locator("#review-turn")).to_contain_text("Turn 15 of 15")
    # Portuguese words for the new controls.
    page.get_by_label("Language").select_option("pt")
    expect(page.get_by_role("button", name="Momento-chave anterior")).to_be_visible()
    expect(page.locator("#review-turn")).to_contain_text("Vez 15 de 15")
    board.close()


def test_the_review_can_be_stopped_and_continued(
    boards: list[Board],  # noqa: F811
    browser: object,  # noqa: F811
    server: str,  # noqa: F811
    record_file: Path,
) -> None:
    board = new_board(boards, browser, server, PHONE)  # type: ignore[arg-type]
    page = board.page

    # Each request answers after a pause, and judges five turns at most (as a long game's
    # requests do, stopped by the time limit), so Stop lands while the review runs.
    def five_turns(route: Route) -> None:
        page.wait_for_timeout(300)
        body = json.loads(route.request.post_data or "{}")
        body["last"] = min(15, body["first"] + 4)
        route.continue_(post_data=json.dumps(body))

    page.route("**/api/game/review", five_turns)
    page = board.open("/?mode=game")
    page.locator("#game-file").set_input_files(str(record_file))
    expect(page.locator("#game-turns li")).to_have_count(15)
    page.get_by_role("button", name="Review").click()
    expect(page.locator("#review-progress")).to_contain_text("Turn 5 of 15 reviewed")
    expect(page.locator("#review-moves button.mark-inaccuracy")).to_have_count(1)
    page.get_by_role("button", name="Stop the review").click()
    expect(page.locator("#review-progress")).to_contain_text("Stopped:")
    check_axe(page)
    with page.expect_request("**/api/game/review") as asked:
        page.get_by_role("button", name="Continue the review").click()
    expect(page.locator("#review-progress")).to_have_text("All 15 turns reviewed.")
    # The turns reviewed before go back with only what the players' lines need.
    body = json.loads(asked.value.post_data or "{}")
    assert body["first"] == len(body["reviewed"]) + 1 > 1
    assert {key for turn in body["reviewed"] for key in turn} == {"seat", "graded", "lost", "luck"}
    board.close(failed_requests=0)


@pytest.mark.parametrize("size", [PHONE, DESK], ids=lambda s: f"{s[0]}px")
def test_a_variation_two_moves_deep_walked_back_and_saved(
    boards: list[Board],  # noqa: F811
    browser: object,  # noqa: F811
    server: str,  # noqa: F811
    record_file: Path,
    size: tuple[int, int],
    tmp_path: Path,
) -> None:
    board = new_board(boards, browser, server, size, accept_downloads=True)  # type: ignore[arg-type]
    page = board.page
    open_review(board, record_file)
    page.locator("#review-moves button").nth(4).click()
    page.get_by_role("button", name="Try other moves here").click()
    status = page.locator("#variation-status")
    expect(status).to_contain_text("Turn 5: you to move")
    candidates = page.locator("#variation-candidates button")
    expect(candidates).to_have_count(2)
    expect(candidates.nth(0)).to_contain_text("draw")
    candidates.nth(0).click()  # keep the sixes: draw
    expect(status).to_contain_text("Turn 6: equity to move")
    page.locator("#variation-candidates button").nth(0).click()
    expect(status).to_contain_text("Turn 7: you to move")
    tree = page.locator("#variation-tree button")
    expect(tree).to_have_count(3)
    expect(tree.nth(1)).to_contain_text("5. you: drew ")
    shot(board, "variation", size, "#variation")
    check_axe(page)
    touch_targets(page)
    no_horizontal_scroll(page)
    # Walk back, then try the move played instead: a second branch of the tree.
    tree.nth(0).click()
    expect(status).to_contain_text("Turn 5: you to move")
    page.locator("#variation-candidates button").nth(1).click()
    expect(status).to_contain_text("Turn 6: equity to move")
    expect(page.locator("#variation-tree ul ul")).to_have_count(1)
    page.get_by_role("button", name="Back one move").click()
    expect(status).to_contain_text("Turn 5")
    page.locator("#variation-tree button").nth(2).click()  # the deeper draw line's end
    expect(status).to_contain_text("Turn 7: you to move")
    page.get_by_label("Comment (optional)").fill("keep the sixes")
    page.get_by_role("button", name="Save this line in the record").click()
    expect(page.locator("#review-saved")).to_contain_text("keep the sixes: draw, draw")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download record").click()
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    fifth = json.loads(saved.read_text())["turns"][4]
    assert fifth["variations"] == [
        {"comment": "keep the sixes", "moves": [{"draw": "?"}, {"draw": "?"}]}
    ]
    # A saved line opens in the tree again.
    page.get_by_role("button", name="Close").click()
    page.locator("#review-saved button").click()
    expect(page.locator("#variation-status")).to_contain_text("Turn 7: you to move")
    check_axe(page)
    board.close()
