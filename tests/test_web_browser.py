"""The web page in a real headless Chromium (Playwright for Python, the system's Chromium:
nothing is downloaded), against the app on a local uvicorn server: click tiles in, solve,
see the picture and the steps, check a move, submit a bad position and see the message."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
)

from rummikub.web import Limits, create_app  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

#: The Debian package's Chromium; CHROMIUM overrides it.
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: A folder to keep the screenshot in (the README's docs/serve.png is made this way).
KEEP = os.environ.get("RUMMIKUB_SCREENSHOTS")

if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
    pytest.skip(
        f"no Chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app on uvicorn, on a free local port, in a thread."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        create_app(Limits(time_limit=10.0)), host="127.0.0.1", port=port, log_level="warning"
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(30_000)
    opened.goto(server + "/")
    yield opened
    context.close()


def click_tiles(page: Page, *tiles: str) -> None:
    for tile in tiles:
        name = "add joker J" if tile == "J" else f"add {tile}"
        page.get_by_role("button", name=name, exact=True).click()


def test_click_tiles_in_solve_and_see_the_move(page: Page, tmp_path: Path) -> None:
    for meld in (("R1", "R2", "R3"), ("K7", "R7", "B7"), ("B9", "B10", "J")):
        page.get_by_role("button", name="New meld").click()
        click_tiles(page, *meld)
    page.get_by_role("radio", name="Rack").check()
    click_tiles(page, "R4", "K7", "O7")
    notation = page.get_by_label("Position in quick notation")
    assert notation.input_value() == "R1 R2 R3 | K7 R7 B7 | B9 B10 J / R4 K7 O7"
    # A tile clicked by mistake is clicked away.
    click_tiles(page, "O13")
    page.locator("#rack").get_by_role("button", name="remove O13 from the rack").click()
    assert notation.input_value().endswith("/ R4 K7 O7")

    page.get_by_role("button", name="Best move").click()
    summary = page.locator("#summary")
    sync_api.expect(summary).to_have_text("Best move (proven optimal): play R4 O7 (value 11)")
    picture = page.locator("#picture svg")
    sync_api.expect(picture).to_be_visible()
    assert picture.locator("g.tile.new").count() == 4  # R4 O7 in the rack and on the table
    steps = page.locator("#steps li")
    assert steps.count() == 2
    assert "R4" in steps.nth(0).inner_text()
    assert page.locator("#message").is_hidden()
    shot = tmp_path / "serve.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    if KEEP:
        Path(KEEP).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(KEEP) / "serve.png")


def test_check_a_move_and_a_bad_position(page: Page) -> None:
    notation = page.get_by_label("Position in quick notation")
    notation.fill("R1-3 | KRB7 | B9 B10 J / R4 K7 O7")
    page.get_by_label("Proposed new table").fill("R1-4 | KRBO7")
    page.get_by_role("button", name="Check this move").click()
    sync_api.expect(page.locator("#summary")).to_have_text("Illegal move: 4 rules broken")
    broken = page.locator("#broken li")
    assert broken.count() == 4
    assert "table tile B9 is missing from the new table" in broken.all_inner_texts()
    sync_api.expect(page.locator("#picture svg")).to_be_visible()

    page.get_by_label("Proposed new table").fill("R1-4 | KRBO7 | B9 B10 J")
    page.get_by_role("button", name="Check this move").click()
    sync_api.expect(page.locator("#summary")).to_have_text("Legal move: plays R4 O7 (value 11)")

    notation.fill("R1-3 | Q5 Q6 Q7 / R4")
    page.get_by_role("button", name="Best move").click()
    message = page.locator("#message")
    sync_api.expect(message).to_be_visible()
    sync_api.expect(message).to_contain_text(
        "column 8 ('Q5'): invalid tile 'Q5': unknown color 'Q' (expected one of K, R, B, O)"
    )
    assert page.locator("#picture svg").count() == 0

    # Read pasted notation back into tiles to click on.
    notation.fill("r1-3 | krb7 / y7")
    page.get_by_role("button", name="Read notation").click()
    sync_api.expect(notation).to_have_value("R1 R2 R3 | K7 R7 B7 / O7")
    sync_api.expect(page.locator("#table li")).to_have_count(2)
    sync_api.expect(page.locator("#message")).to_be_hidden()
