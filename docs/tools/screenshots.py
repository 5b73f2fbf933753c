"""Take the screenshots of the analysis board that docs/players.md shows.

    python docs/tools/screenshots.py docs    # writes docs/board-360x740.png, ...

Starts the web app on a free local port, opens the board in the system's headless Chromium
(Playwright for Python; ``CHROMIUM`` names another browser than ``/usr/bin/chromium``) at
360x740, 390x844, 768x1024 and 1280x900 with an example position, asks for its best move
(the smallest phone) or its chances to win (the others: :data:`SHOTS`), and writes one PNG
per size, ``board-WIDTHxHEIGHT.png``, exactly that many pixels (the window, not the whole
page); then ``board-entry-360x740.png``, a position of six melds being set up on the phone
(the picker at the window's top, the meld being filled, the actions at its foot). One
browser for all; each analysis is computed once and given to the other sizes from a cache,
so the run takes seconds.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

#: The Debian package's Chromium; CHROMIUM overrides it.
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
#: Its flags, the browser tests' too (tests/tools.py hands them on).
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Each size and the answer it shows: on the smallest phone the best move drawn with its
#: steps, elsewhere the chances to win; the desk's window shows the whole page's top, the
#: editor beside the answer, the others are scrolled to the answer as the page scrolls it.
SHOTS = (
    ((360, 740), "Best move"),
    ((390, 844), "Chances to win"),
    ((768, 1024), "Chances to win"),
    ((1280, 900), "Chances to win"),
)
SIZES = tuple(size for size, _ in SHOTS)
#: The position of the docs' examples: R4 extends a run, O7 completes a group.
POSITION = "R1-3 | KRB7 | B9 B10 J / R4 K7 O7"
#: The entry picture's position: six melds and a rack (tests/test_web_layout_browser.py's).
ENTRY = "R1-3 | KRB7 | B9 B10 J | O4-6 | KRO11 | B1-4 / R4 K7 O7 K1 K2 B12 R13 O9 O10 K5 B6 R8 J O2"
ENTRY_SIZE = (360, 740)
TIMEOUT_MS = 120_000


def name(size: tuple[int, int]) -> str:
    return f"board-{size[0]}x{size[1]}.png"


def server() -> Any:
    """The app on uvicorn, on a free local port, in a thread (a generous time limit: the
    pictures wait for whole analyses)."""
    from rummikub.web import Limits
    from rummikub.web.server import in_thread

    return in_thread(Limits(time_limit=60.0))


def take(folder: Path) -> list[Path]:
    """Write the four screenshots into ``folder``; their paths."""
    from playwright.sync_api import Route, expect, sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    answers: dict[tuple[str, str | None], dict[str, Any]] = {}

    def cached(route: Route) -> None:
        """Each API answer once: the same request from another size gets the same answer."""
        request = route.request
        key = (request.url.split("/api/", 1)[1], request.post_data)
        if key not in answers:
            response = route.fetch(timeout=TIMEOUT_MS)
            answers[key] = {
                "status": response.status,
                "headers": response.headers,
                "body": response.body(),
            }
        route.fulfill(**answers[key])

    written = []
    with server() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for size, button in SHOTS:
                context = browser.new_context(
                    viewport={"width": size[0], "height": size[1]},
                    device_scale_factor=1,
                    locale="en-GB",
                )
                page = context.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                page.route("**/api/**", cached)
                page.goto(f"{url}/?p={quote(POSITION)}")
                expect(page.locator("#notation-state")).not_to_be_empty()
                page.get_by_role("button", name=button, exact=True).click()
                if button == "Best move":
                    expect(page.locator("#summary")).to_contain_text("Best move")
                    expect(page.locator("#picture svg")).to_be_visible()
                else:
                    expect(page.locator("#equity-evaluation")).to_contain_text("to win")
                if size[0] >= 1024:  # the editor beside the answer: the page's top
                    page.evaluate("window.scrollTo(0, 0)")
                path = folder / name(size)
                page.screenshot(path=str(path))
                written.append(path)
                context.close()
            written.append(entry(browser, url, folder))
        finally:
            browser.close()
    return written


def entry(browser: Any, url: str, folder: Path) -> Path:
    """The phone while a position is set up: the last meld tapped to fill it, B5 added."""
    from playwright.sync_api import expect

    context = browser.new_context(
        viewport={"width": ENTRY_SIZE[0], "height": ENTRY_SIZE[1]},
        device_scale_factor=1,
        locale="en-GB",
    )
    page = context.new_page()
    page.goto(f"{url}/?p={quote(ENTRY)}")
    expect(page.locator("#notation-state")).not_to_be_empty()
    page.locator("#table .meld-row").last.click()
    page.get_by_role("button", name="Blue B").click()
    page.get_by_role("button", name="add B5", exact=True).click()
    expect(page.locator("#notation")).to_have_value(re.compile("B1 B2 B3 B4 B5 /"))
    path = folder / f"board-entry-{ENTRY_SIZE[0]}x{ENTRY_SIZE[1]}.png"
    page.screenshot(path=str(path))
    context.close()
    return path


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python docs/tools/screenshots.py OUTDIR", file=sys.stderr)
        return 2
    for path in take(Path(argv[0])):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
