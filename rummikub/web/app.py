"""The local web app: a page for people and JSON endpoints mirroring the command line.

``GET /`` is the page (plain HTML, CSS and JavaScript shipped in ``static/``, no build step).
``POST /api/solve``, ``/api/check``, ``/api/analyse`` and ``/api/position`` take and return
JSON (see :mod:`rummikub.web.api` and the README). Solves run in worker threads, a few at a time, so
that the event loop keeps serving; each has a time limit, and each request body a size
limit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rummikub import __version__
from rummikub.core.documents import parse_document
from rummikub.core.errors import PuzzleError
from rummikub.tiles.rules import PRESETS
from rummikub.web import api, cards, games
from rummikub.web.api import Limits, RequestError

__all__ = ["create_app"]

STATIC = Path(__file__).resolve().parent / "static"


def create_app(limits: Limits | None = None, *, workers: int = 2) -> Starlette:
    """The app, with its limits and the number of solves that may run at once."""
    limits = limits or Limits()
    slots = _Slots(workers)

    async def run(request: Request, work: Callable[[Any], dict[str, Any]]) -> Response:
        try:
            data = await _body(request, limits)
            answer = await anyio.to_thread.run_sync(work, data, limiter=slots.limiter())
        except RequestError as error:
            return JSONResponse(error.data(), status_code=error.status)
        return JSONResponse(answer)

    async def solve(request: Request) -> Response:
        return await run(request, partial(_solve, limits=limits))

    async def analyse(request: Request) -> Response:
        return await run(request, partial(api.analyse, limits=limits))

    async def check(request: Request) -> Response:
        return await run(request, api.check)

    async def position(request: Request) -> Response:
        return await run(request, api.parse)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    def route(path: str, work: Callable[[Any], dict[str, Any]]) -> Route:
        """A JSON route whose work runs as the solves do (a worker thread, one of the slots,
        the same error JSON); the work of the board's games and card rummies."""

        async def endpoint(request: Request) -> Response:
            return await run(request, work)

        return Route(path, endpoint, methods=["POST"])

    async def about(request: Request) -> Response:
        return JSONResponse(
            {
                "version": __version__,
                "presets": list(PRESETS),
                "time_limit": limits.time_limit,
                "body_bytes": limits.body_bytes,
            }
        )

    routes = [
        Route("/", page),
        Route("/api", about),
        Route("/api/solve", solve, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/analyse", analyse, methods=["POST"]),
        Route("/api/position", position, methods=["POST"]),
        Route("/favicon.ico", favicon),
        route("/api/game/new", games.new),
        route("/api/game/move", games.move),
        route("/api/game/draw", games.draw),
        route("/api/game/undo", games.undo),
        route("/api/game/hint", partial(games.hint, limits=limits)),
        route("/api/game/review", partial(games.review, limits=limits)),
        route("/api/game/load", games.load),
        route("/api/cards/solve", partial(cards.solve, limits=limits)),
        route("/api/cards/check", cards.check),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)


class _Slots:
    """How many solves run at once; more wait their turn (in order) instead of starving each
    other. A limiter belongs to one event loop: uvicorn runs one, a test client one per
    request, so it is made for the loop at hand."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.loop: asyncio.AbstractEventLoop | None = None
        self.current: anyio.CapacityLimiter | None = None

    def limiter(self) -> anyio.CapacityLimiter:
        loop = asyncio.get_running_loop()
        if self.current is None or self.loop is not loop:
            self.loop, self.current = loop, anyio.CapacityLimiter(self.size)
        return self.current


def _solve(data: Any, limits: Limits) -> dict[str, Any]:
    return api.solve(data, limits)


async def _body(request: Request, limits: Limits) -> Any:
    """The request's JSON, read no further than the size limit."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limits.body_bytes:
        raise RequestError(413, [f"request too large: at most {limits.body_bytes} bytes"])
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limits.body_bytes:
            raise RequestError(413, [f"request too large: at most {limits.body_bytes} bytes"])
    try:
        # The one document reader: UTF-8 and a byte order mark, numbers too long, nesting
        # too deep are bad requests (400), never a crash.
        return parse_document(body, "request", fmt="json")
    except PuzzleError as error:
        raise RequestError(400, list(error.problems)) from None
