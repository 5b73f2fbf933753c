"""The local web app: a page for people and JSON endpoints mirroring the command line.

``GET /`` is the page (plain HTML, CSS and JavaScript shipped in ``static/``, no build step).
``POST /api/solve``, ``/api/check``, ``/api/analyse`` and ``/api/position`` take and return
JSON (see :mod:`rummikub.web.api` and the README).

The request plumbing is here, in front of every route, so that a new route inherits it:

- :class:`Guard`, the middleware, refuses what no route should see: a ``Host`` that is not
  this server (DNS rebinding: another site's page must not read the answers; 421), a body
  that is not ``Content-Type: application/json`` (a cross-origin "simple" POST; 415), a body
  over the size limit (413) or sent too slowly (408), a body that is not JSON as the
  document reader reads it, or that holds ``NaN``/``Infinity`` or a lone surrogate (400). It
  reads the body once; a route finds the data with :func:`request_data`. A client that goes
  away while sending is let go quietly, and whatever a route lets escape is a JSON 500 with
  one line in the log, never a page of traceback.
- :func:`answer` runs a route's work in a worker thread, a few at a time, under one deadline
  for the whole request (the server's time limit, over every solve the request makes), and
  stops it early when the client goes away or the server is stopped
  (:func:`rummikub.core.deadline.stop_when`). Every problem is JSON with its status.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
from collections.abc import Callable, Collection, Iterable
from functools import partial
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummikub import __version__
from rummikub.core import deadline
from rummikub.core.documents import parse_document, quote
from rummikub.core.errors import PuzzleError, RummikubError
from rummikub.play.equity import Stopped
from rummikub.tiles.game.strategies import STRATEGIES
from rummikub.tiles.rules import PRESETS
from rummikub.web import api, cards, games
from rummikub.web.api import Limits, RequestError

__all__ = ["LOCAL_HOSTS", "Guard", "answer", "create_app", "request_data"]

STATIC = Path(__file__).resolve().parent / "static"
#: The names of this machine a browser may use for the server (``Host``, port aside).
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: Where :class:`Guard` leaves a request's JSON for the route.
BODY = "rummikub.json"
#: The media type of every answer.
JSON_TYPE = "application/json"
#: The methods whose body is read (and must be JSON).
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})

log = logging.getLogger("rummikub.web")


def create_app(
    limits: Limits | None = None, *, workers: int = 2, hosts: Iterable[str] | None = None
) -> Starlette:
    """The app, with its limits and the number of solves that may run at once.

    ``hosts``: the names a request's ``Host`` may give (port aside), e.g. :data:`LOCAL_HOSTS`;
    None (for tests and embedding) accepts any. ``rummikub serve`` always gives them.
    """
    limits = limits or Limits()
    shared = _Work(limits, _Slots(workers))

    async def run(request: Request, work: Callable[[Any], dict[str, Any]]) -> Response:
        return await answer(request, work)

    async def solve(request: Request) -> Response:
        return await run(request, partial(api.solve, limits=limits))

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
                # The players a game may seat (/api/game/new "opponents"): the registry's.
                "strategies": list(STRATEGIES),
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
        route("/api/game/variation", games.variation),
        route("/api/game/load", games.load),
        route("/api/cards/solve", partial(cards.solve, limits=limits)),
        route("/api/cards/check", cards.check),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    allowed = None if hosts is None else frozenset(_host_name(h) for h in hosts)
    app = Starlette(routes=routes, middleware=[Middleware(Guard, limits=limits, hosts=allowed)])
    app.state.work = shared
    return app


def stop_all(app: Starlette) -> None:
    """Stop the work of every request, running or waiting, and of any still to come (the
    server is stopping)."""
    work: _Work = app.state.work
    work.stop_all()


# -- running a route's work -------------------------------------------------------------


class _Work:
    """What the routes' work shares: the limits, the slots, the requests at work."""

    def __init__(self, limits: Limits, slots: _Slots) -> None:
        self.limits = limits
        self.slots = slots
        self.active: set[threading.Event] = set()
        self.stopping = False

    def stop_all(self) -> None:
        self.stopping = True
        for stop in list(self.active):
            stop.set()


class _Gone(Exception):
    """The client went away (or the server is stopping): nobody waits for an answer."""


def request_data(request: Request) -> Any:
    """The request's JSON, as :class:`Guard` read and checked it."""
    if BODY not in request.scope:
        raise RequestError(400, ["expected a JSON body"])
    return request.scope[BODY]


async def answer(request: Request, work: Callable[[Any], dict[str, Any]]) -> Response:
    """``work`` of the request's JSON in a worker thread, as JSON: its answer, or its problem
    with the status (:class:`RequestError`; a library's refusal is 422). The whole request
    has the server's time limit (every solve in it stops by then), and stops at the next
    step once the client is gone or the server stops."""
    shared: _Work = request.app.state.work
    try:
        data = request_data(request)
    except RequestError as error:
        return _error_response(error)
    stop = threading.Event()
    shared.active.add(stop)
    if shared.stopping:
        stop.set()

    def run() -> dict[str, Any]:
        if stop.is_set():
            raise _Gone  # gone while waiting for a slot: the work never starts
        with deadline.limit(shared.limits.time_limit), deadline.stop_when(stop):
            return work(data)

    found: dict[str, Any] | None = None
    failure: Exception | None = None
    # A plain asyncio task, not an anyio task group: it costs less per request
    # (benchmarks/RESULTS.md, "Web server under load").
    watcher = asyncio.ensure_future(_watch(request.receive, stop))
    try:
        found = await anyio.to_thread.run_sync(
            run, limiter=shared.slots.limiter(), abandon_on_cancel=True
        )
    except asyncio.CancelledError:
        # The server stops and its grace ran out: the thread ends at its next step (or with
        # the process); the client, if still there, hears why.
        stop.set()
        refused = _request_error(None)
        return _error_response(refused)
    except Exception as error:  # answered below
        failure = error
    finally:
        watcher.cancel()
        shared.active.discard(stop)
    if failure is None and found is not None:
        return JSONResponse(found)
    refused = _request_error(failure)
    return _error_response(refused)


def _request_error(failure: Exception | None) -> RequestError:
    if isinstance(failure, RequestError):
        return failure
    if isinstance(failure, Stopped):
        # An estimate the request's time limit cut short before every candidate had one
        # playout: nothing honest to answer (one cut later answers "status": "stopped").
        details = {
            "stopped_by": "stop" if failure.stopped else "time limit",
            "playouts_done": failure.done,
            "playouts": failure.asked,
        }
        return RequestError(503, [f"equity: {failure}"], details)
    if isinstance(failure, RummikubError | ValueError | TypeError | OverflowError):
        # A check of the library that the API's own did not make first (or a number no
        # float holds, float() of a huge integer): still the request's.
        return RequestError(422, [str(failure)])
    if isinstance(failure, _Gone) or failure is None:
        return RequestError(503, ["the server is stopping, or the client went away"])
    raise failure  # a bug: the Guard logs it and answers 500


async def _watch(receive: Receive, stop: threading.Event) -> None:
    """Set ``stop`` when the client disconnects (the body is read: the next message the
    server has for the app is the disconnect), or when the connection cannot be read (a
    failure here would be a task's exception nobody retrieves: a traceback in the log)."""
    while True:
        try:
            message = await receive()
        except (OSError, RuntimeError):
            message = {"type": "http.disconnect"}
        if message["type"] == "http.disconnect":
            stop.set()
            return


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


# -- the middleware -----------------------------------------------------------------------


class Guard:
    """The checks in front of every route (see the module's docstring), as ASGI middleware."""

    def __init__(self, app: ASGIApp, limits: Limits, hosts: Collection[str] | None) -> None:
        self.app = app
        self.limits = limits
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            self._check_headers(scope)
            if scope["method"] in BODY_METHODS:
                body = await self._read(scope, receive)
                scope[BODY] = _json(body)
                receive = _replay(body, receive)
            await self.app(scope, receive, tracked)
        except _Gone:
            return  # the client left while sending: nothing to answer, nothing to log
        except RequestError as error:
            if not started:
                await _send_error(send, error)
        except Exception as error:  # a bug: one line in the log, a JSON 500 to the client
            log.error("%s %s: %s: %s", scope["method"], scope["path"], type(error).__name__, error)
            if not started:
                await _send_error(send, RequestError(500, ["internal error: see the log"]))

    def _check_headers(self, scope: Scope) -> None:
        headers = {key.lower(): value for key, value in scope["headers"]}
        host = headers.get(b"host")
        if self.hosts is not None and host is not None:
            name = _host_name(host.decode("latin-1"))
            if name not in self.hosts:
                raise RequestError(
                    421,
                    [
                        f"request: Host {quote(host.decode('latin-1'))} is not this server "
                        f"(it answers to {', '.join(sorted(self.hosts))}; "
                        "rummikub serve --host NAME answers to NAME)"
                    ],
                )
        if scope["method"] in BODY_METHODS:
            kind = headers.get(b"content-type", b"").decode("latin-1")
            if kind.split(";", 1)[0].strip().lower() != "application/json":
                shown = quote(kind) if kind else "none"
                raise RequestError(
                    415, [f"request: Content-Type must be application/json, got {shown}"]
                )

    async def _read(self, scope: Scope, receive: Receive) -> bytes:
        """The body, no further than the size limit, within the read time limit."""
        limit = self.limits.body_bytes
        too_large = RequestError(413, [f"request too large: at most {limit} bytes"])
        for key, value in scope["headers"]:
            if key.lower() == b"content-length" and value.isdigit() and int(value) > limit:
                raise too_large
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.limits.read_seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        raise _Gone
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > limit:
                        raise too_large
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            raise RequestError(
                408, [f"request: the body did not come within {self.limits.read_seconds:g} s"]
            ) from None
        return b"".join(chunks)


def _host_name(host: str) -> str:
    """A ``Host`` (or ``--host``) without its port, brackets or final dot, in lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        host = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _json(body: bytes) -> Any:
    try:
        # The one document reader: UTF-8 and a byte order mark, numbers too long, nesting
        # too deep are bad requests (400), never a crash.
        data = parse_document(body, "request", fmt="json")
    except PuzzleError as error:
        raise RequestError(400, list(error.problems)) from None
    problem = _not_json(data)
    if problem is not None:
        raise RequestError(400, [f"invalid JSON: {problem}"])
    return data


def _not_json(data: Any) -> str | None:
    """What Python's reader takes that is no JSON value: ``NaN``, ``Infinity``, and lone
    surrogates (``"\\ud800"``, no Unicode text) in strings or keys. The nesting is bounded
    by the reader (:data:`~rummikub.core.documents.MAX_DEPTH`)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return "NaN, Infinity or a number beyond a float (such as 1e999) is no JSON number"
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as error:
                shown = value[error.start : error.end].encode("unicode_escape").decode("ascii")
                return f"a lone surrogate {shown} is not text"
        elif isinstance(value, dict):
            stack.extend(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app the body already read, then the client's messages
    (the disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _error_body(error: RequestError) -> bytes:
    """The error JSON as :class:`JSONResponse` writes it; in ASCII escapes when a message
    quotes text that is no Unicode (a lone surrogate), which UTF-8 cannot write."""
    data = error.data()
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data, separators=(",", ":")).encode("ascii")


def _error_response(error: RequestError, headers: dict[str, str] | None = None) -> Response:
    return Response(
        _error_body(error), status_code=error.status, headers=headers, media_type=JSON_TYPE
    )


async def _send_error(send: Send, error: RequestError) -> None:
    """The error JSON, sent by the Guard itself: nothing here may raise, or the exception
    would leave the app (a traceback in the server's log, "Exception in ASGI application")."""
    # A body refused unread (too large, too slow) leaves the connection in no state for
    # another request: it is closed after the answer.
    unread = {"connection": "close"} if error.status in (408, 413) else None
    response = _error_response(error, unread)
    try:
        await send(
            {"type": "http.response.start", "status": error.status, "headers": response.raw_headers}
        )
        await send({"type": "http.response.body", "body": response.body})
    except (OSError, RuntimeError):
        pass  # the connection is gone, or the server refused the message: nobody to tell
