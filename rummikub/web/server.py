"""Running the app on uvicorn as ``rummikub serve`` does: the address listened on, the
names it answers to, how long a client may take, and how it stops.

- The socket is bound here, before uvicorn starts, so that an address in use is
  :class:`AddressInUse` (the command line's exit 4) and any other address that cannot be
  listened on is :class:`CannotListen` (exit 2), each with one line, not uvicorn's log.
- A client has ``Limits.read_seconds`` to send its request's headers (uvicorn waits for
  ever for the first request of a connection; :class:`_Protocol` closes it with a 408)
  and as long again for the body (:class:`rummikub.web.app.Guard`).
- SIGINT (Ctrl-C), SIGTERM and SIGHUP stop the work of every request at its next step
  (:func:`rummikub.web.app.stop_all`), close the connections and end the server within
  :data:`GRACE` seconds; :func:`serve` returns the signal, whose exit code is the caller's
  to give (128 + its number).
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import signal
import socket
import threading
from collections.abc import Callable, Generator
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from rummikub.web.api import Limits
from rummikub.web.app import LOCAL_HOSTS, create_app, stop_all

__all__ = ["GRACE", "AddressInUse", "CannotListen", "allowed_hosts", "in_thread", "listen", "serve"]

#: Seconds the server waits, once told to stop, for the requests at work to answer.
GRACE = 1.0
#: The signals that stop the server (SIGHUP does not exist on Windows).
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
#: ``--host`` values that listen on every address: then any ``Host`` is accepted.
EVERY_ADDRESS = ("0.0.0.0", "::", "")

log = logging.getLogger("rummikub.web")


class CannotListen(Exception):
    """The address cannot be listened on (a host name that does not resolve, a port that
    needs privileges)."""


class AddressInUse(CannotListen):
    """Another program listens on the address already."""


def allowed_hosts(host: str) -> tuple[str, ...] | None:
    """The ``Host`` names a server listening on ``host`` answers to: this machine's names
    and ``host`` itself; None (any) when it listens on every address, whose names only the
    network knows."""
    if host.strip() in EVERY_ADDRESS:
        return None
    return (*LOCAL_HOSTS, host)


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port``; raises :class:`AddressInUse` or
    :class:`CannotListen` with the reason in words."""
    where = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError) as error:
        reason = error.strerror if isinstance(error, socket.gaierror) else str(error)
        raise CannotListen(f"cannot listen on {where}: {str(reason).lower()}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        reason = (error.strerror or str(error)).lower()
        if error.errno == errno.EADDRINUSE:
            raise AddressInUse(
                f"cannot listen on {where}: the address is in use (another server? "
                "choose another with --port)"
            ) from None
        raise CannotListen(f"cannot listen on {where}: {reason}") from None
    sock.set_inheritable(True)
    return sock


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    limits: Limits | None = None,
    workers: int = 2,
    log_level: str = "info",
) -> signal.Signals | None:
    """Serve the app on ``host``:``port`` until a signal stops it; returns that signal
    (None if the server ended otherwise). Raises :class:`CannotListen` first if it cannot
    listen."""
    limits = limits or Limits()
    sock = listen(host, port)
    app = create_app(limits, workers=workers, hosts=allowed_hosts(host))
    protocol = _protocol(limits.read_seconds)
    config = uvicorn.Config(
        app,
        host=host,
        port=sock.getsockname()[1],
        log_level=log_level,
        http=protocol,
        lifespan="off",
        timeout_keep_alive=5,
        timeout_graceful_shutdown=max(1, round(GRACE)),
    )
    address = f"[{host}]" if ":" in host else host
    server = _Server(config, on_stop=lambda: stop_all(app))
    server.url = f"http://{address}:{config.port}/"
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return server.stopped_by


class _Server(uvicorn.Server):
    """uvicorn's server, stopped by SIGINT, SIGTERM and SIGHUP alike, which it does not
    raise again once stopped (the caller turns :attr:`stopped_by` into an exit code)."""

    def __init__(self, config: uvicorn.Config, on_stop: Callable[[], None]) -> None:
        super().__init__(config)
        self.on_stop = on_stop
        self.stopped_by: signal.Signals | None = None
        self.url = ""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        # uvicorn says where it listens only on sockets it bound itself.
        logging.getLogger("uvicorn.error").info("Serving on %s (Ctrl-C stops it)", self.url)

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in STOP_SIGNALS}
        # A signal mask is inherited: a parent that had them blocked when it started the
        # server (a test runner did) would leave it deaf to them.
        mask = getattr(signal, "pthread_sigmask", None)
        blocked = mask(signal.SIG_UNBLOCK, STOP_SIGNALS) if mask is not None else None
        try:
            yield
        finally:
            if mask is not None and blocked is not None:
                mask(signal.SIG_SETMASK, blocked)
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    async def on_tick(self, counter: int) -> bool:
        # CBC takes SIGINT over while it solves (a Ctrl-C then ends that solve, not the
        # server): the server's own handler is put back, so that the next Ctrl-C stops it.
        if counter % 5 == 0 and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, self.handle_exit)
        return await super().on_tick(counter)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.stopped_by is None:
            self.stopped_by = signal.Signals(sig)
        self.on_stop()
        if self.should_exit:
            self.force_exit = True  # a second signal: no more waiting
        self.should_exit = True


def _protocol(read_seconds: float) -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol, which closes a connection whose first request has not
    come whole within ``read_seconds`` (later ones have the keep-alive timeout)."""

    class Protocol(H11Protocol):
        headers_timer: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.headers_timer = self.loop.call_later(read_seconds, self.too_slow)

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and self.headers_timer is not None:
                self.headers_timer.cancel()
                self.headers_timer = None

        def connection_lost(self, exc: Exception | None) -> None:
            if self.headers_timer is not None:
                self.headers_timer.cancel()
                self.headers_timer = None
            super().connection_lost(exc)

        def too_slow(self) -> None:
            self.headers_timer = None
            if self.cycle is None and not self.transport.is_closing():
                self.transport.write(_timed_out(read_seconds))
                self.transport.close()

    return Protocol


def _timed_out(read_seconds: float) -> bytes:
    """The whole 408 answer to a request that did not come in time, the error JSON."""
    message = f"request: the request did not come within {read_seconds:g} s"
    body = json.dumps({"error": message, "errors": [message]}).encode()
    head = (
        "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


@contextlib.contextmanager
def in_thread(limits: Limits | None = None) -> Generator[str, None, None]:
    """The app served on a free local port by a thread of this process, for as long as the
    ``with`` lasts: its base address (``http://127.0.0.1:PORT``). For a browser driving the
    board (the tests, the script that takes the docs' screenshots), not for people: no
    signals, no host check beyond the local names."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        create_app(limits or Limits()), host="127.0.0.1", port=port, log_level="warning"
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    # A stopped clock cannot hang a test run: the start is bounded in polls, not seconds.
    for _ in range(600):
        if running.started or not thread.is_alive():
            break
        threading.Event().wait(0.05)
    if not running.started:
        running.should_exit = True
        raise RuntimeError("the web app did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(timeout=10)
