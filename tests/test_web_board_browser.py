"""The analysis board in a real headless Chromium (Playwright for Python, the system's
Chromium: nothing is downloaded), against the app on a local uvicorn server, driven as a
player would: at 360x740, 390x844, 768x1024 and 1280x900, with the console free of errors,
no horizontal scroll and no serious or critical axe-core violation.

One server and one browser for the module; each test opens a page or two. The axe check
reads ``axe.min.js`` from an installed package (``axe-playwright-python`` ships it; or an
npm install's ``node_modules/axe-core``; ``AXE_JS`` names another file) and skips with the
reason where none is there. ``RUMMIKUB_SCREENSHOTS=DIR`` keeps each viewport's screenshot
in DIR (the docs' own are taken by ``docs/tools/screenshots.py``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
)

from rummikub.play import equity  # noqa: E402
from rummikub.tiles.rules import Rules  # noqa: E402
from rummikub.web import Limits  # noqa: E402
from rummikub.web.server import in_thread  # noqa: E402
from tests.tools import CHROMIUM, RunsOutAfter  # noqa: E402
from tests.tools import CHROMIUM_ARGS as ARGS  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

expect = sync_api.expect

KEEP = os.environ.get("RUMMIKUB_SCREENSHOTS")
PHONE, PHONE_L, TABLET, DESK = (360, 740), (390, 844), (768, 1024), (1280, 900)
VIEWPORTS = [PHONE, PHONE_L, TABLET, DESK]
POSITION = "R1-3 | KRB7 | B9 B10 J / R4 K7 O7"

if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
    pytest.skip(
        f"no Chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)",
        allow_module_level=True,
    )


def axe_script() -> Path | None:
    """axe-core's ``axe.min.js`` from an installed package, if any."""
    named = os.environ.get("AXE_JS")
    if named:
        return Path(named) if Path(named).exists() else None
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is not None and spec.origin is not None:
        found = Path(spec.origin).parent / "axe.min.js"
        if found.exists():
            return found
    for root in (Path.cwd(), Path(__file__).resolve().parent.parent):
        found = root / "node_modules" / "axe-core" / "axe.min.js"
        if found.exists():
            return found
    return None


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app on uvicorn, on a free local port, in a thread."""
    with in_thread(Limits(time_limit=10.0)) as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


class Board:
    """A page at one viewport, its console watched (every error fails the test)."""

    def __init__(self, browser: Browser, server: str, size: tuple[int, int], **context: Any):
        self.server = server
        self.context = browser.new_context(
            viewport={"width": size[0], "height": size[1]}, **context
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(30_000)
        self.errors: list[str] = []
        self.page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def open(self, path: str = "/") -> Page:
        self.page.goto(self.server + path)
        expect(self.page.locator("#notation-state")).not_to_be_empty()
        return self.page

    def close(self, *, failed_requests: int = 0) -> None:
        # A request failed on purpose (aborted, or answered 422) logs one console error.
        unexpected = [e for e in self.errors if not e.startswith("Failed to load resource")]
        assert unexpected == [], unexpected
        assert len(self.errors) - len(unexpected) == failed_requests
        self.context.close()


@pytest.fixture
def boards(browser: Browser, server: str) -> Iterator[list[Board]]:
    opened: list[Board] = []
    yield opened
    for board in opened:
        if board.context.pages:
            board.context.close()


def new_board(
    boards: list[Board], browser: Browser, server: str, size: tuple[int, int], **context: Any
) -> Board:
    board = Board(browser, server, size, **context)
    boards.append(board)
    return board


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"the page is {width} px wide in a {inner} px window"


def check_axe(page: Page) -> None:
    script = axe_script()
    if script is None:
        pytest.skip(
            "axe-core is not installed (pip install axe-playwright-python, which ships "
            "axe.min.js, or npm install axe-core; AXE_JS names the file)"
        )
    page.add_script_tag(content=script.read_text(encoding="utf-8"))
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))}))"
    )
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    assert bad == [], json.dumps(bad, indent=1)


def touch_targets(page: Page) -> None:
    """Every visible button, field and select is at least 40 px high and wide (a checkbox
    counts with its label)."""
    small = page.evaluate(
        """() => [...document.querySelectorAll(
                'button, select, input:not([type=checkbox]), label.check')]
            .filter(e => e.offsetParent !== null && getComputedStyle(e).opacity !== '0')
            .map(e => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 40 || r.height < 40)
            .map(([name, r]) => name + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
    )
    assert small == []


def in_view(page: Page, selector: str) -> None:
    top = page.evaluate(f"document.querySelector('{selector}').getBoundingClientRect().top")
    height = page.evaluate("window.innerHeight")
    assert 0 <= top < height, f"{selector} starts at y={top}, outside the {height} px window"


def pick(page: Page, *tiles: str) -> None:
    """Tiles clicked from the picker: the colour first, then the number."""
    for tile in tiles:
        if tile == "J":
            page.get_by_role("button", name="add J (joker)").click()
            continue
        colors = {"K": "Black", "R": "Red", "B": "Blue", "O": "Orange"}
        page.get_by_role("button", name=f"{colors[tile[0]]} {tile[0]}").click()
        page.get_by_role("button", name=f"add {tile}", exact=True).click()


def keep_screenshot(page: Page, size: tuple[int, int], tmp_path: Path) -> None:
    shot = tmp_path / f"board-{size[0]}x{size[1]}.png"
    page.screenshot(path=str(shot), full_page=size[0] >= 768)
    assert shot.stat().st_size > 10_000
    if KEEP:
        Path(KEEP).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(KEEP) / shot.name)


# -- every viewport: click a position in, solve, the answer in view ---------------------------


@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_click_a_position_in_and_solve(
    boards: list[Board], browser: Browser, server: str, size: tuple[int, int], tmp_path: Path
) -> None:
    board = new_board(boards, browser, server, size)
    page = board.open()
    for meld in (("R1", "R2", "R3"), ("K7", "R7", "B7"), ("B9", "B10", "J")):
        page.get_by_role("button", name="New meld").click()
        pick(page, *meld)
    page.get_by_role("button", name="Rack", exact=True).click()
    pick(page, "R4", "K7", "O7", "O13")
    notation = page.get_by_label("Position in quick notation")
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 | B9 B10 J / R4 K7 O7 O13")
    # A tile clicked by mistake is selected and removed.
    page.get_by_role("button", name="O13 in Rack").click()
    page.get_by_role("button", name="Remove tile").click()
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 | B9 B10 J / R4 K7 O7")
    no_horizontal_scroll(page)
    touch_targets(page)
    if size == PHONE_L:  # this phone's screenshot shows the editor, the others the answer
        page.evaluate("window.scrollTo(0, 0)")
        keep_screenshot(page, size, tmp_path)

    page.get_by_role("button", name="Best move").click()
    summary = page.locator("#summary")
    expect(summary).to_have_text("Best move (proven optimal): play R4 O7 (value 11)")
    expect(page.locator("#picture svg")).to_be_visible()
    assert page.locator("#picture svg g.tile.new").count() == 4
    expect(page.locator("#steps li")).to_have_count(2)
    in_view(page, "#answer")
    no_horizontal_scroll(page)
    check_axe(page)
    if size != PHONE_L:
        keep_screenshot(page, size, tmp_path)
    board.close()


# -- typing and clicking, one source of truth; links, reload, back and forward ---------------


def test_typed_then_clicked_is_one_position_kept_in_the_url(
    boards: list[Board], browser: Browser, server: str
) -> None:
    board = new_board(boards, browser, server, PHONE_L)
    page = board.open()
    notation = page.get_by_label("Position in quick notation")
    notation.fill("R1-3 | KRB7 / R4")
    pick(page, "O7")  # the click applies to the typed position, never throws it away
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 / R4 O7")
    expect(page.locator("#table .meld-row")).to_have_count(2)
    assert "p=R1+R2+R3+%7C+K7+R7+B7+%2F+R4+O7" in page.url

    # Back and forward, reload.
    pick(page, "O8")
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 / R4 O7 O8")
    page.go_back()
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 / R4 O7")
    page.go_forward()
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 / R4 O7 O8")
    page.reload()
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 / R4 O7 O8")
    # Enter solves what was typed.
    notation.fill(POSITION)
    notation.press("Enter")
    expect(page.locator("#summary")).to_have_text(
        "Best move (proven optimal): play R4 O7 (value 11)"
    )
    # Drag a tile from the rack onto a meld, and one from the picker into the rack.
    page.locator("#rack .tile", has_text="4").drag_to(page.locator("#table .tiles").first)
    expect(notation).to_have_value("R1 R2 R3 R4 | K7 R7 B7 | B9 B10 J / K7 O7")
    page.get_by_role("button", name="Red R").click()
    page.get_by_role("button", name="add R4", exact=True).drag_to(page.locator("#rack"))
    expect(notation).to_have_value("R1 R2 R3 R4 | K7 R7 B7 | B9 B10 J / K7 O7 R4")
    # From the keyboard: a tile selected with Enter, removed with Delete.
    page.get_by_role("button", name="R4 in Meld 1").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Delete")
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 | B9 B10 J / K7 O7 R4")
    notation.fill(POSITION)
    # Delete a meld, sort the rack.
    page.get_by_role("button", name="delete meld 3").click()
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 / R4 K7 O7")
    page.get_by_role("button", name="Sort by number").click()
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 / R4 K7 O7")
    page.get_by_role("button", name="Sort by colour").click()
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 / K7 R4 O7")
    # A bad position: the server's message. The text is read quietly while typed; once
    # that read has refused it, Best move says why again rather than answer the position
    # the board last held (as it did when the machine was slow enough for the quiet read
    # to finish first).
    notation.fill("R1-3 | Q5 Q6 Q7 / R4")
    expect(page.locator("#notation-state")).to_contain_text("cannot be read yet")
    page.get_by_role("button", name="Best move").click()
    message = page.locator("#message")
    expect(message).to_contain_text("invalid tile 'Q5': unknown color 'Q'")
    no_horizontal_scroll(page)
    board.close(failed_requests=2)  # each 422 answer (quiet, then shown) is logged


def test_open_a_shared_link_copy_it_and_switch_to_portuguese(
    boards: list[Board], browser: Browser, server: str
) -> None:
    board = new_board(boards, browser, server, TABLET, locale="en-GB")
    link = "/?p=" + quote(POSITION)
    page = board.open(link)
    assert page.evaluate("document.documentElement.lang") == "en"
    # Every word of the page is in both languages' tables.
    missing = page.evaluate(
        """() => {
          const keys = [...document.querySelectorAll('[data-i18n]')].map(e => e.dataset.i18n)
            .concat([...document.querySelectorAll('[data-i18n-label]')]
              .map(e => e.dataset.i18nLabel));
          const all = new Set([...keys, ...Object.keys(WORDS.en), ...Object.keys(WORDS.pt)]);
          return [...all].filter(k => !(k in WORDS.en) || !(k in WORDS.pt));
        }"""
    )
    assert missing == []
    expect(page.locator("#table .meld-row")).to_have_count(3)
    notation = page.get_by_label("Position in quick notation")
    expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 | B9 B10 J / R4 K7 O7")
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("#summary")).to_contain_text("p=R1+R2+R3")
    copied = page.locator("#summary").inner_text().split(": ", 1)[1]
    # The switch: Portuguese, the lang attribute with it, kept across a reload.
    page.get_by_label("Language").select_option("pt")
    assert page.evaluate("document.documentElement.lang") == "pt"
    expect(page.get_by_role("heading", level=1)).to_have_text("Tabuleiro de análise de Rummikub")
    page.get_by_role("button", name="Melhor jogada").click()
    expect(page.locator("#summary")).to_have_text(
        "Melhor jogada (ótimo provado): jogue R4 O7 (valor 11)"
    )
    check_axe(page)
    page.reload()
    assert page.evaluate("document.documentElement.lang") == "pt"
    expect(page.get_by_role("button", name="Melhor jogada")).to_be_visible()
    no_horizontal_scroll(page)
    board.close()

    # The copied link opened elsewhere, in a browser that asks for Portuguese first.
    other = new_board(boards, browser, server, PHONE, locale="pt-BR")
    page = other.open(copied.removeprefix(server))
    assert page.evaluate("document.documentElement.lang") == "pt"
    expect(page.get_by_label("Posição em notação rápida")).to_have_value(
        "R1 R2 R3 | K7 R7 B7 | B9 B10 J / R4 K7 O7"
    )
    page.get_by_label("Idioma").select_option("en")
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.get_by_role("button", name="Best move")).to_be_visible()
    other.close()


# -- answers: k best moves previewed, outs, hold, a proposed table checked --------------------


def test_preview_the_second_best_move_outs_hold_and_check_a_proposal(
    boards: list[Board], browser: Browser, server: str
) -> None:
    board = new_board(boards, browser, server, PHONE)
    page = board.open("/?p=" + quote(POSITION + " J"))
    page.get_by_role("button", name="Best 3 moves").click()
    moves = page.locator("#moves button.move")
    expect(moves).to_have_count(3)
    in_view(page, "#answer")
    moves.nth(1).click()
    preview = page.locator("#preview")
    expect(preview).to_be_visible()
    expect(page.locator("#preview-title")).to_have_text("Move 2 on the board")
    new_tiles = page.locator("#preview-table .tile.new")
    assert new_tiles.count() >= 1
    page.get_by_role("button", name="Back to the position").click()
    expect(preview).to_be_hidden()

    page.get_by_role("button", name="Outs").click()
    expect(page.locator("#outs-summary")).to_contain_text("tiles unseen")
    assert page.locator("table.outs tbody tr").count() >= 1
    assert page.locator(".chart .bar-row").count() >= 1
    page.get_by_role("button", name="Hold or play").click()
    expect(page.locator("#hold-answer")).to_contain_text("Keeping the jokers")

    # A proposed table clicked in on a copy of the table: R4 onto meld 1, O7 onto meld 2.
    page.get_by_role("button", name="Propose a move").click()
    proposal = page.locator("#proposal")
    proposal.get_by_role("button", name="Meld 1", exact=True).click()
    proposal.get_by_role("button", name="R4 in Rack (tiles left)").click()
    proposal.get_by_role("button", name="Meld 2", exact=True).click()
    proposal.get_by_role("button", name="O7 in Rack (tiles left)").click()
    expect(page.locator("#after")).to_have_value("R1 R2 R3 R4 | K7 R7 B7 O7 | B9 B10 J")
    page.get_by_role("button", name="Check this move").click()
    expect(page.locator("#summary")).to_have_text("Legal move: plays R4 O7 (value 11)")
    # A tile moved back to the rack, another into the wrong meld: broken rules listed.
    proposal.get_by_role("button", name="O7 in Meld 2").click()
    proposal.get_by_role("button", name="Meld 1", exact=True).click()
    page.get_by_role("button", name="Check this move").click()
    expect(page.locator("#summary")).to_contain_text("Illegal move")
    assert page.locator("#broken li").count() >= 1
    # Deleting meld 1 gives R4 and O7 back to the rack and keeps R1 R2 R3 on the table.
    proposal.get_by_role("button", name="delete meld 1").click()
    expect(page.locator("#after")).to_have_value("K7 R7 B7 | B9 B10 J | R1 R2 R3")
    expect(proposal.get_by_role("button", name="O7 in Rack (tiles left)")).to_be_visible()
    expect(proposal.get_by_role("button", name="R4 in Rack (tiles left)")).to_be_visible()
    no_horizontal_scroll(page)
    check_axe(page)
    board.close()


#: A position whose playouts at the default budget take seconds (the report's).
LONG = (
    "R1-4 | K7 R7 B7 | B9 B10 B11 | O5 O6 O7 | K10-13 | R12 B12 O12 / "
    "K1 K3 K5 K8 R5 R6 R9 B3 B4 B13 O1 O9 O10 J"
)


@contextlib.contextmanager
def chances_cut_short(
    boards: list[Board],
    browser: Browser,
    monkeypatch: pytest.MonkeyPatch,
    calls: int,
    size: tuple[int, int],
) -> Iterator[tuple[Board, Page]]:
    """The board of a server whose time limit runs out at the ``calls``-th look between
    playouts (:class:`RunsOutAfter`), asked for the chances to win of :data:`LONG`."""
    monkeypatch.setattr(equity, "deadline", RunsOutAfter(calls=calls))
    with in_thread(Limits(time_limit=600.0)) as hurried:
        board = new_board(boards, browser, hurried, size)
        page = board.open("/?p=" + quote(LONG))
        page.get_by_role("button", name="Chances to win").click()
        yield board, page


def test_chances_to_win_stopped_by_the_time_limit_say_so(
    boards: list[Board], browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The time limit runs out a few deals in: the playouts stop early, and the board says so
    # plainly, with no chance for the position and no advice.
    with chances_cut_short(boards, browser, monkeypatch, 60, DESK) as (board, page):
        evaluation = page.locator("#equity-evaluation")
        expect(evaluation).to_contain_text("Stopped early after", timeout=60_000)
        expect(evaluation).to_contain_text("of 48 playouts per move")
        expect(evaluation).not_to_contain_text("to win (95% interval")
        expect(page.locator("#equity-advice")).to_have_count(0)
        expect(page.locator("table.equity tbody tr").first).to_be_visible()
        check_axe(page)
        board.close()


def test_chances_to_win_with_no_playout_in_time_say_what_to_do(
    boards: list[Board], browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The time limit runs out before the first deal's playouts are done: the server answers
    # 503, and the board says how to get the chances (the API's advice, fewer playouts, is
    # not something the board asks for).
    with chances_cut_short(boards, browser, monkeypatch, 1, PHONE) as (board, page):
        message = page.locator("#message")
        expect(message).to_contain_text(
            "time limit ran out before one of the 48 playouts of every move", timeout=60_000
        )
        expect(message).to_contain_text("longer --time-limit")
        expect(message).not_to_contain_text("fewer playouts")
        expect(page.locator("#equity-evaluation")).to_have_count(0)
        no_horizontal_scroll(page)
        check_axe(page)
        board.close(failed_requests=1)  # the 503 answer is logged


@pytest.mark.parametrize("size", [PHONE, DESK])
def test_the_chances_to_win_show_as_bars_best_first(
    boards: list[Board], browser: Browser, server: str, size: tuple[int, int], tmp_path: Path
) -> None:
    board = new_board(boards, browser, server, size)
    page = board.open("/?p=" + quote(POSITION))
    page.get_by_role("button", name="Chances to win").click()
    # The playouts take seconds (the default budget), more on a busy machine.
    expect(page.locator("#equity-evaluation")).to_contain_text(
        "to win (95% interval", timeout=90_000
    )
    rows = page.locator("table.equity tbody tr")
    expect(rows).to_have_count(4)  # the 3 best moves by value and drawing
    wins = [int(rows.nth(i).locator(".bar-text").inner_text().split()[0]) for i in range(4)]
    assert wins == sorted(wins, reverse=True)
    # Each bar is as wide as its chance: the first row's fill against the whole bar.
    first = rows.nth(0).locator(".equity-bar")
    fill = first.locator(".fill").bounding_box()
    whole = first.bounding_box()
    assert fill is not None and whole is not None
    assert abs(fill["width"] / whole["width"] - wins[0] / 100) < 0.02
    expect(page.locator("#equity-advice")).to_contain_text("Laying the most is")
    in_view(page, "#answer")
    no_horizontal_scroll(page)
    check_axe(page)
    if KEEP:
        page.locator("#equity-answer").screenshot(path=str(tmp_path / "equity.png"))
        Path(KEEP).mkdir(exist_ok=True)
        shutil.copy(tmp_path / "equity.png", Path(KEEP) / f"equity-{size[0]}x{size[1]}.png")
    board.close()


def test_busy_while_a_request_runs_and_a_message_when_the_server_is_gone(
    boards: list[Board], browser: Browser, server: str
) -> None:
    board = new_board(boards, browser, server, DESK)
    page = board.open("/?p=" + quote(POSITION))
    # Hold the answer back a little: the indicator shows and the controls wait.
    page.evaluate(
        "() => { const f = window.fetch; window.fetch = (...a) =>"
        " new Promise(r => setTimeout(r, 700)).then(() => f(...a)); }"
    )
    page.get_by_role("button", name="Best move").click()
    expect(page.locator("#busy")).to_be_visible()
    expect(page.get_by_role("button", name="Best 3 moves")).to_be_disabled()
    expect(page.locator("#summary")).to_contain_text("Best move")
    expect(page.locator("#busy")).to_be_hidden()
    expect(page.get_by_role("button", name="Best 3 moves")).to_be_enabled()
    page.route("**/api/solve", lambda route: route.abort())
    page.get_by_role("button", name="Best move").click()
    expect(page.locator("#message")).to_have_text(
        "The server cannot be reached (is rummikub serve still running?). Nothing was changed."
    )
    expect(page.get_by_role("button", name="Best move")).to_be_enabled()
    # The favicon is there.
    response = page.request.get(server + "/favicon.ico")
    assert response.status == 200
    board.close(failed_requests=1)


# -- a game against the solver, kept across a reload, reviewed --------------------------------


def test_play_three_turns_reload_and_review(
    boards: list[Board], browser: Browser, server: str, tmp_path: Path
) -> None:
    board = new_board(boards, browser, server, DESK, accept_downloads=True)
    page = board.open("/?mode=game")
    page.get_by_label("Seed").fill("11")
    page.get_by_role("button", name="New game").click()
    status = page.locator("#game-status")
    expect(status).to_contain_text("Turn 1: your move")
    for turn in (1, 3, 5):
        expect(status).to_contain_text(f"Turn {turn}: your move")
        page.get_by_role("button", name="Hint").click()
        expect(page.locator("#game-hint-text")).to_contain_text("Hint")
        if "no move" in page.locator("#game-hint-text").inner_text():
            page.get_by_role("button", name="Draw").click()
        else:
            page.get_by_role("button", name="Play the selected tiles").click()
        expect(status).to_contain_text(f"Turn {turn + 2}: your move")
    turns = page.locator("#game-turns li")
    expect(turns).to_have_count(6)
    touch_targets(page)
    check_axe(page)
    before = turns.all_inner_texts()

    page.reload()
    expect(page.locator("#game-turns li")).to_have_count(6)
    assert page.locator("#game-turns li").all_inner_texts() == before
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#game-turns li")).to_have_count(4)

    with page.expect_download() as download:
        page.get_by_role("button", name="Download record").click()
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    assert json.loads(saved.read_text())["format"] == "rummikub-game/1"
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#game-turns li")).to_have_count(0)
    page.locator("#game-file").set_input_files(str(saved))
    expect(page.locator("#game-turns li")).to_have_count(4)

    page.get_by_role("button", name="Review").click()
    # The review plays out every turn's candidates: seconds, more on a loaded machine (CI
    # runs three Pythons on two cores), as the other equity waits here allow.
    expect(page.locator("#review-progress")).to_have_text("All 4 turns reviewed.", timeout=90_000)
    expect(page.locator("#review-summary")).to_contain_text("4 turns, 1 graded")
    expect(page.locator("#review-turn")).to_contain_text("Turn 1 of 4")
    page.get_by_role("button", name="Next turn").click()
    expect(page.locator("#review-turn")).to_contain_text("Turn 2 of 4")
    assert page.locator("#review-grade").inner_text()
    page.get_by_role("button", name="Analyse on the board").last.click()
    expect(page.locator("#board")).to_be_visible()
    expect(page.get_by_label("Position in quick notation")).not_to_have_value("")
    no_horizontal_scroll(page)
    board.close()


def test_a_long_games_turn_list_scrolls_by_keyboard(
    boards: list[Board], browser: Browser, server: str
) -> None:
    """Once the turn list scrolls it can be focused (axe: scrollable-region-focusable)."""
    board = new_board(boards, browser, server, PHONE)
    page = board.open("/?mode=game")
    page.get_by_label("Seed").fill("11")
    page.get_by_role("button", name="New game").click()
    status = page.locator("#game-status")
    for turn in range(1, 31, 2):
        expect(status).to_contain_text(f"Turn {turn}: your move")
        page.get_by_role("button", name="Draw").click()
    expect(status).to_contain_text("Turn 31: your move")
    turns = page.locator("#game-turns")
    assert turns.evaluate("list => list.scrollHeight > list.clientHeight")
    turns.focus()
    assert page.evaluate("document.activeElement.id") == "game-turns"
    top = turns.evaluate("list => list.scrollTop")
    page.keyboard.press("Home" if top else "End")
    page.wait_for_function(
        f"document.getElementById('game-turns').scrollTop != {top}", timeout=5000
    )
    check_axe(page)
    board.close()


def test_a_record_opened_on_the_board_keeps_its_rules(
    boards: list[Board], browser: Browser, server: str, tmp_path: Path
) -> None:
    from rummikub.tiles.game.record import save
    from rummikub.tiles.game.simulate import play_game
    from rummikub.tiles.game.strategies import best

    small = Rules(numbers=7, colors="KRB", copies=1, jokers=0, initial_meld=0)
    record, _ = play_game(small, [best, best], 2, rack_size=6)
    path = tmp_path / "small.toml"
    save(record, path)
    board = new_board(boards, browser, server, DESK)
    page = board.open("/?mode=game")
    page.locator("#game-file").set_input_files(str(path))
    page.get_by_role("button", name="Review").click()
    page.get_by_role("button", name="Next turn").click()
    expect(page.locator("#review-turn")).to_contain_text("Turn 2 of")
    page.get_by_role("button", name="Analyse on the board").last.click()
    expect(page.locator("#board")).to_be_visible()
    more = page.get_by_label("More rules (KEY=VALUE)")
    expect(more).to_have_value("numbers=7 colors=KRB copies=1 jokers=0")
    expect(page.get_by_label("Initial meld", exact=True)).to_have_value("0")
    assert "rule=numbers%3D7" in page.url and "initial=0" in page.url
    # Analysed in the small box, B3 B4 B5 opens (under the standard 30 it could not).
    page.get_by_role("button", name="Best move").click()
    expect(page.locator("#summary")).to_contain_text("B3 B4 B5")
    # A link keeps the rules; a rule the server does not know is refused with its name.
    page.goto(page.url)
    expect(more).to_have_value("numbers=7 colors=KRB copies=1 jokers=0")
    more.fill("numbers=7 speed=3")
    page.get_by_role("button", name="Best move").click()
    expect(page.locator("#message")).to_contain_text("speed")
    board.close(failed_requests=1)


# -- the card rummies -------------------------------------------------------------------------


def test_solve_a_500_rum_hand(boards: list[Board], browser: Browser, server: str) -> None:
    board = new_board(boards, browser, server, PHONE)
    page = board.open("/?mode=cards")
    page.locator("#card-game").select_option("500-rum")
    page.get_by_label("Hand", exact=True).fill("6H 7H KC 2C")
    page.get_by_label("Table (melds separated by |)", exact=True).fill("QS QC QH")
    page.get_by_label("Discard pile, bottom to top").fill("5C 8H KS")
    page.get_by_label("Already drawn this turn").uncheck()
    # The hand is drawn as cards as it is typed: rank and suit, red and black.
    hand = page.locator("#card-hand-view .card")
    expect(hand).to_have_count(4)
    assert hand.nth(0).get_attribute("class") == "card red"
    assert hand.nth(2).get_attribute("class") == "card black"
    assert hand.nth(0).inner_text().replace("\n", "") == "6\u2665"
    page.get_by_label("Hand", exact=True).press("Enter")
    summary = page.locator("#card-summary")
    expect(summary).to_contain_text("Best turn (proven optimal)")
    expect(summary).to_contain_text("Take 2 cards from the discard pile")
    expect(summary).to_contain_text("(21 points)")
    in_view(page, "#card-answer")
    touch_targets(page)
    page.locator("#card-after").fill("QS QC QH KC")
    page.get_by_role("button", name="Check this turn").click()
    expect(summary).to_have_text("Illegal turn: 2 rules broken.")  # and no discard
    page.locator("#card-after-discard").fill("2C")
    page.get_by_role("button", name="Check this turn").click()
    expect(summary).to_have_text("Illegal turn: 1 rule broken.")
    no_horizontal_scroll(page)
    check_axe(page)
    board.close()
