"""``rummikub serve``: a local web app, the analysis board: enter a position by clicking or
dragging tiles (or typing the quick notation), get the best move drawn with its steps, the
best moves, outs, hold or play, check a proposed table; play against the solver players and
review the game; solve and check the card rummies.

Needs the ``web`` extra (``pip install 'rummikub[web]'``: starlette and uvicorn); nothing
else in the package imports this one.
"""

from __future__ import annotations

import signal

from rummikub.web.api import Limits, RequestError
from rummikub.web.app import create_app

__all__ = ["Limits", "RequestError", "create_app", "serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    limits: Limits | None = None,
    workers: int = 2,
    log_level: str = "info",
) -> signal.Signals | None:
    """Run the app on uvicorn until a signal (Ctrl-C, SIGTERM, SIGHUP) stops it; returns
    that signal. Raises :class:`rummikub.web.server.CannotListen` (or its kind
    ``AddressInUse``) if the address cannot be listened on (see :mod:`rummikub.web.server`)."""
    from rummikub.web import server

    return server.serve(host, port, limits=limits, workers=workers, log_level=log_level)
