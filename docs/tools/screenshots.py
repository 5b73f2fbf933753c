"""Take the screenshots of the analysis board that docs/players.md shows.

    python docs/tools/screenshots.py docs    # writes docs/board-360x740.png, ...

Starts the web app on a free local port, opens the board in the system's headless Chromium
(Playwright for Python; ``CHROMIUM`` names another browser than ``/usr/bin/chromium``) at
360x740, 390x844, 768x1024 and 1280x900 with an example position, asks for its best move
(the smallest phone) or its chances to win (the others: :data:`SHOTS`), and writes one PNG
per size, ``board-WIDTHxHEIGHT.png``, exactly that many pixels (the window, not the whole
page). One browser for all four; each analysis is computed once and given to the other
sizes from a cache, so the run takes seconds.
"""

from __future__ import annotations

import os
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
        finally:
            browser.close()
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python docs/tools/screenshots.py OUTDIR", file=sys.stderr)
        return 2
    for path in take(Path(argv[0])):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
