"""``rummikub serve`` against misuse: every bad body a JSON 400/413/415/421/422, never a 500;
a whole-request deadline; a real server (a subprocess) for what only a real one shows:
signals, a port in use, the Host check, slow and vanishing clients."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.testclient import TestClient

from rummikub.core import deadline
from rummikub.web import Limits, create_app
from rummikub.web.app import LOCAL_HOSTS

REPO = Path(__file__).resolve().parent.parent
JSON_BODY = {"content-type": "application/json"}
#: Longer than any answer here takes; only a hang reaches it.
PATIENCE = 60.0


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = create_app(Limits(time_limit=5.0), hosts=(*LOCAL_HOSTS, "testserver"))
    return TestClient(app, raise_server_exceptions=False)


def post(client: TestClient, path: str, body: bytes) -> Any:
    return client.post(path, content=body, headers=JSON_BODY)


def assert_error(response: Any, status: int, text: str) -> None:
    assert response.status_code == status, response.text
    data = response.json()
    assert set(data) == {"error", "errors"}
    assert data["error"] == "\n".join(data["errors"])
    assert text in data["error"]


DIGITS = b"9" * 4400  # more than Python reads as an integer
BIG = b"9" * 4000  # an integer Python reads, but no float holds

#: Bodies that are no JSON request at all, whatever the endpoint: each a 400 with its reason.
BAD_BODIES = {
    "nested-lists": (b'{"position": ' + b"[" * 1200 + b"]" * 1200 + b"}", "nested more than"),
    "nested-objects": (b'{"a":' * 1100 + b"1" + b"}" * 1100, "nested more than"),
    "long-time-limit": (b'{"time_limit": ' + DIGITS + b"}", "a number with too many digits"),
    "long-copies": (b'{"rules": {"copies": ' + DIGITS + b"}}", "a number with too many digits"),
    "long-top": (b'{"top": ' + DIGITS + b"}", "a number with too many digits"),
    "nan": (b'{"position": "R1-3 / R4", "time_limit": NaN}', "NaN, Infinity"),
    "infinity": (b'{"position": "R1-3 / R4", "time_limit": -Infinity}', "NaN, Infinity"),
    "beyond-float": (b'{"position": "R1-3 / R4", "time_limit": 1e999}', "such as 1e999"),
    "surrogate": (b'{"position": "R1-3 / R4 \\ud800"}', "a lone surrogate \\ud800 is not text"),
    "surrogate-key": (b'{"\\udfff": 1}', "a lone surrogate \\udfff is not text"),
    "surrogate-rules": (b'{"rules": {"preset": "\\ud800"}}', "a lone surrogate"),
    "surrogate-after": (b'{"after": ["R1 \\ud800"]}', "a lone surrogate"),
    "not-json": (b"{nope", "invalid JSON: Expecting property name"),
}


@pytest.mark.parametrize("path", ["/api/analyse", "/api/solve", "/api/check", "/api/position"])
@pytest.mark.parametrize("name", list(BAD_BODIES))
def test_bad_bodies_are_json_errors_never_500(client: TestClient, path: str, name: str) -> None:
    body, text = BAD_BODIES[name]
    assert_error(post(client, path, body), 400, text)


@pytest.mark.parametrize(
    ("body", "status", "text"),
    [
        (b'{"position": "R1-3 / R4", "rules": {"copies": ' + BIG + b"}}", 422, "range 1-4"),
        (b'{"position": "R1-3 / R4", "top": ' + BIG + b"}", 400, "top: expected a whole"),
        (b'{"position": "R1-3 / R4", "top": 1.5}', 400, "top: expected a whole"),
        (b'{"position": "R1-3 / R4", "time_limit": -1}', 400, "got integer -1"),
        (b'{"position": "R1-3 / R4", "time_limit": "5"}', 400, 'got string "5"'),
        (b'{"position": "R1-3 / R4 \\u0000"}', 422, "position"),
    ],
    ids=["big-copies", "big-top", "fraction-top", "negative", "string", "nul"],
)
def test_values_out_of_range_are_refused(
    client: TestClient, body: bytes, status: int, text: str
) -> None:
    assert_error(post(client, "/api/analyse", body), status, text)


def test_a_huge_whole_time_limit_is_the_servers(client: TestClient) -> None:
    body = b'{"position": "R1-3 / R4", "explain": false, "time_limit": ' + BIG + b"}"
    response = post(client, "/api/solve", body)
    assert response.status_code == 200
    assert response.json()["status"] == "optimal"
    zero = post(client, "/api/solve", b'{"position": "R1-3 / R4", "time_limit": 0}')
    assert_error(zero, 400, "time_limit: expected a finite number of seconds above 0")


@pytest.mark.parametrize(
    "kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_only_json_bodies_are_read(client: TestClient, kind: str | None) -> None:
    headers = {} if kind is None else {"content-type": kind}
    response = client.post("/api/solve", content=b'{"position": "R1-3 / R4"}', headers=headers)
    shown = f'"{kind}"' if kind else "none"
    assert_error(response, 415, f"Content-Type must be application/json, got {shown}")
    ok = client.post(
        "/api/solve",
        content=b'{"position": "R1-3 / R4", "explain": false}',
        headers={"content-type": "Application/JSON; charset=utf-8"},
    )
    assert ok.status_code == 200


def test_a_foreign_host_is_refused(client: TestClient) -> None:
    body = b'{"position": "R1-3 / R4", "explain": false}'
    for host in ("evil.example", "localhost.evil.example", "127.0.0.2"):
        response = client.post("/api/solve", content=body, headers={**JSON_BODY, "host": host})
        assert_error(response, 421, f'Host "{host}" is not this server')
        assert_error(client.get("/api", headers={"host": host}), 421, "not this server")
    for host in ("localhost:8000", "LOCALHOST", "127.0.0.1:1", "[::1]:8000", "localhost."):
        response = client.post("/api/solve", content=body, headers={**JSON_BODY, "host": host})
        assert response.status_code == 200, host


def test_any_host_without_a_list() -> None:
    open_app = TestClient(create_app(Limits(time_limit=5.0)))
    assert open_app.get("/api", headers={"host": "evil.example"}).status_code == 200


def test_a_library_refusal_is_422_and_a_bug_is_a_json_500(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rummikub.web import api

    def refuses(data: Any, limits: Limits) -> dict[str, Any]:
        raise ValueError("time_limit=nan must be a finite number")

    monkeypatch.setattr(api, "solve", refuses)
    app = TestClient(create_app(Limits(time_limit=5.0)), raise_server_exceptions=False)
    assert_error(post(app, "/api/solve", b"{}"), 422, "time_limit=nan must be")

    def breaks(data: Any, limits: Limits) -> dict[str, Any]:
        raise KeyError("a bug")

    monkeypatch.setattr(api, "solve", breaks)
    app = TestClient(create_app(Limits(time_limit=5.0)), raise_server_exceptions=False)
    assert_error(post(app, "/api/solve", b"{}"), 500, "internal error")


def full_box_analysis() -> bytes:
    """The heaviest request there is: a full box (836 tiles), outs, hold, the 10 best."""
    from benchmarks.corpora import make_full_box, stream

    position = make_full_box(stream(1, "full-box"), 1)[0].position
    body = {
        "position": position.to_notation(),
        "rules": position.rules.options(),
        "outs": True,
        "hold": True,
        "top": 10,
    }
    return json.dumps(body).encode()


def standard_analysis() -> bytes:
    """A long request in the standard box (seconds of work: every out, the hold, the 10 best
    moves), each step short: a full box's LPs in C can hold the interpreter for long, and a
    signal is acted on between steps."""
    from benchmarks.corpora import make_hard, stream

    position = make_hard(stream(1, "hard"), 1)[0].position
    body = {
        "position": position.to_notation(),
        "rules": position.rules.options(),
        "outs": True,
        "hold": True,
        "top": 10,
    }
    return json.dumps(body).encode()


def test_the_time_limit_covers_the_whole_request() -> None:
    """Every solve of an analysis (each out, the hold, ten moves) shares the server's limit:
    without it this one takes minutes."""
    app = TestClient(create_app(Limits(time_limit=1.0)))
    started = time.monotonic()
    response = post(app, "/api/analyse", full_box_analysis())
    assert response.status_code == 200
    assert time.monotonic() - started < 20  # each of its solves alone may take 1 s
    assert "feasible" in response.text  # some of it was cut short, as it says


def test_the_work_runs_under_the_servers_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummikub.web import api

    def left(data: Any, limits: Limits) -> dict[str, Any]:
        with deadline.limit(1000.0):  # a solve's own limit cannot outlast the request's
            return {"left": deadline.remaining()}

    monkeypatch.setattr(api, "solve", left)
    app = TestClient(create_app(Limits(time_limit=5.0)))
    seconds = post(app, "/api/solve", b"{}").json()["left"]
    assert 0 < seconds <= 5.0


def test_deadlines_nest_and_stop() -> None:
    with deadline.limit(0.0):
        with deadline.limit(100.0):
            assert deadline.remaining() == 0.0  # the outer deadline holds
            with pytest.raises(deadline.OutOfTime):
                deadline.check()
        with deadline.limit(None):
            assert deadline.remaining() == 0.0
    with deadline.limit(100.0), deadline.limit(None):
        left = deadline.remaining()
        assert left is not None and 99 < left <= 100
    stop = threading.Event()
    with deadline.stop_when(stop):
        deadline.check()
        assert deadline.remaining() is None
        stop.set()
        assert deadline.remaining() == 0.0
        with pytest.raises(deadline.OutOfTime):
            deadline.check()
    deadline.check()  # outside: no limit


# -- a real server ----------------------------------------------------------------------


class Server:
    """``rummikub serve --port 0`` in a subprocess; its port read from its log."""

    def __init__(self, *args: str, blocked: bool = False) -> None:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        command = [sys.executable, "-m", "rummikub", "serve", "--port", "0", *args]

        def block() -> None:  # in the child: start with the stop signals blocked
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})

        self.process = subprocess.Popen(
            command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, preexec_fn=block if blocked else None,
        )  # fmt: skip
        self.lines: list[str] = []
        self.port = 0
        found = threading.Event()

        def read() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                self.lines.append(line)
                match = re.search(r"Serving on http://127\.0\.0\.1:(\d+)/", line)
                if match:
                    self.port = int(match.group(1))
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(PATIENCE) or not self.port:
            self.stop()
            raise RuntimeError("rummikub serve did not start:\n" + self.log)

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=PATIENCE)

    def request(self, path: str, body: bytes, headers: dict[str, str] | None = None) -> str:
        """One request on its own connection; the whole answer, status line first."""
        given = {"Host": "localhost", "Content-Type": "application/json", **(headers or {})}
        head = f"POST {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in given.items())
        head += f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        with self.connect() as sock:
            sock.sendall(head.encode() + body)
            return receive_all(sock)

    def stop(self, signum: int = signal.SIGTERM) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signum)
        if signum == signal.SIGINT:
            # CBC takes a Ctrl-C while it solves (it ends that solve): pressed again, as a
            # person would, the next one is the server's.
            for _ in range(10):
                try:
                    return self.process.wait(2.0)
                except subprocess.TimeoutExpired:
                    self.process.send_signal(signum)
        try:
            return self.process.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


def receive_all(sock: socket.socket) -> str:
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks).decode()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server("--workers", "1", "--time-limit", "120", "--read-timeout", "0.5")
    yield running
    running.stop()
    assert "Traceback" not in running.log, running.log


def test_real_server_answers_and_checks_host_and_content_type(server: Server) -> None:
    answer = server.request("/api/solve", b'{"position": "R1-3 / R4", "explain": false}')
    assert answer.startswith("HTTP/1.1 200 ")
    assert '"status":"optimal"' in answer
    foreign = server.request("/api/solve", b"{}", {"Host": "rebound.example:8000"})
    assert foreign.startswith("HTTP/1.1 421 ")
    assert 'Host \\"rebound.example:8000\\" is not this server' in foreign
    plain = server.request("/api/solve", b"{}", {"Content-Type": "text/plain"})
    assert plain.startswith("HTTP/1.1 415 ")


def test_a_slow_client_is_timed_out(server: Server) -> None:
    with server.connect() as sock:  # headers that never end
        sock.sendall(b"POST /api/solve HTTP/1.1\r\nHost: local")
        answer = receive_all(sock)
    assert answer.startswith("HTTP/1.1 408 ")
    assert "did not come within 0.5 s" in answer
    with server.connect() as sock:  # a body that never ends
        sock.sendall(
            b"POST /api/solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"position"'
        )
        answer = receive_all(sock)
    assert answer.startswith("HTTP/1.1 408 ")
    assert "the body did not come within 0.5 s" in answer


def test_a_dropped_body_leaves_no_traceback(server: Server) -> None:
    for _ in range(3):
        with server.connect() as sock:
            sock.sendall(
                b"POST /api/solve HTTP/1.1\r\nHost: localhost\r\n"
                b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"pos'
            )
    answer = server.request("/api/position", b'{"position": "R1-3 / R4"}')
    assert answer.startswith("HTTP/1.1 200 ")
    assert "Traceback" not in server.log and "ClientDisconnect" not in server.log


def test_a_client_that_goes_away_frees_its_worker(server: Server) -> None:
    """One worker, a time limit of 120 s: the next request is answered only because the
    analysis stopped when its client left."""
    body = full_box_analysis()
    with server.connect() as sock:
        sock.sendall(
            b"POST /api/analyse HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        time.sleep(1.0)  # the analysis is at work
    started = time.monotonic()
    answer = server.request("/api/solve", b'{"position": "R1-3 / R4", "explain": false}')
    assert answer.startswith("HTTP/1.1 200 ")
    assert time.monotonic() - started < 30  # not the analysis's 120 s


def test_a_port_in_use_has_its_own_exit(server: Server) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    second = subprocess.run(
        [sys.executable, "-m", "rummikub", "serve", "--port", str(server.port)],
        env=env, capture_output=True, text=True, timeout=PATIENCE,
    )  # fmt: skip
    assert second.returncode == 4
    assert second.stderr.strip() == (
        f"Error: cannot listen on 127.0.0.1:{server.port}: the address is in use "
        "(another server? choose another with --port)"
    )
    assert second.stdout == ""


@pytest.mark.parametrize(
    ("signum", "code"),
    [(signal.SIGTERM, 143), (signal.SIGINT, 130), (signal.SIGHUP, 129)],
    ids=["SIGTERM", "SIGINT", "SIGHUP"],
)
def test_a_signal_during_a_long_request_ends_the_server_at_once(signum: int, code: int) -> None:
    running = Server("--time-limit", "120")
    answers: list[str] = []
    body = standard_analysis()
    asking = threading.Thread(
        target=lambda: answers.append(running.request("/api/analyse", body)), daemon=True
    )
    asking.start()
    time.sleep(1.0)  # the analysis is at work
    started = time.monotonic()
    assert running.stop(signum) == code
    assert time.monotonic() - started < 20  # a hang guard: the answer is within a second
    asking.join(PATIENCE)
    # The analysis stopped at its next step: what it found, cut short, or (still inside a
    # solver's C code when the grace ran out) that the server stops.
    assert answers, "no answer"
    cut = answers[0].startswith("HTTP/1.1 200 ") and '"status":' in answers[0]
    stopping = answers[0].startswith("HTTP/1.1 503 ") and "the server is stopping" in answers[0]
    assert cut or stopping, answers[0][:300]
    assert "Traceback" not in running.log, running.log


def test_a_server_started_with_its_signals_blocked_still_hears_them() -> None:
    """A signal mask is inherited (a test runner left SIGINT blocked once): the server
    unblocks the signals that stop it."""
    running = Server(blocked=True)
    assert running.stop(signal.SIGINT) == 130


def test_a_bad_host_to_listen_on_is_bad_input() -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [sys.executable, "-m", "rummikub", "serve", "--host", "no-such-host.invalid"],
        env=env, capture_output=True, text=True, timeout=PATIENCE,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith("Error: cannot listen on no-such-host.invalid:8000: ")
    assert len(result.stderr.splitlines()) == 1
