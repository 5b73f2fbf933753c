"""The one runner of self-play (``rummikub.core.cluster``): answers in order, and every bad
scheduler a one-line message and exit 2, never a hang or a traceback."""

from __future__ import annotations

import http.server
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from rummikub.cli import main
from rummikub.core.cluster import SchedulerError, batches, check_address, run
from rummikub.core.errors import RummikubError
from tests.tools import needs_dask

FAST = [
    *("--rule", "numbers=6", "--rule", "colors=KRB", "--rule", "jokers=1"),
    *("--rule", "initial_meld=6", "--rack-size", "5"),
]
#: One quick run of each command, to be given a scheduler.
COMMANDS = {
    "simulate": ["simulate", "--games", "2", "--players", "2", *FAST],
    "duel": ["duel", "best", "casual", "--games", "2", *FAST],
}


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def square(x: int) -> int:
    return x * x


def fails(x: int) -> int:
    raise ValueError(f"no\nanswer for {x}")


# -- addresses -------------------------------------------------------------------------------


def test_good_addresses_are_read_in_full() -> None:
    assert check_address("tcp://127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert check_address(" localhost:8786 ") == "tcp://localhost:8786"
    assert check_address("TLS://[::1]:8786") == "tls://[::1]:8786"


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("", "expected an address such as tcp://host:8786"),
        ("nonsense", "no port (expected host:port, e.g. nonsense:8786)"),
        ("tcp://[::1", "the '[' of an IPv6 address is not closed"),
        ("tcp://[::1]", "expected a port after the ']', as in [::1]:8786"),
        ("::1:8786", "an IPv6 address goes in brackets, as in [::1]:8786"),
        (
            "http://127.0.0.1:1",
            "unknown scheme 'http://' (expected tcp://host:port or tls://host:port)",
        ),
        (
            "inproc://x:1",
            "unknown scheme 'inproc://' (expected tcp://host:port or tls://host:port)",
        ),
        ("tcp://:8786", "expected a host name or address before the port"),
        ("tcp://a/b:8786", "expected a host name or address before the port"),
        ("tcp://host:http", "the port 'http' is not a number 1-65535"),
        ("tcp://host:0", "the port '0' is not a number 1-65535"),
        ("tcp://host:70000", "the port '70000' is not a number 1-65535"),
        ("tcp://host:٣", "the port '٣' is not a number 1-65535"),
    ],
)
def test_bad_addresses_are_named(address: str, why: str) -> None:
    with pytest.raises(SchedulerError) as error:
        check_address(address)
    assert str(error.value) == f"scheduler {address!r}: {why}"


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("address", ["nonsense", "", "tcp://[::1", "http://127.0.0.1:1"])
def test_a_malformed_scheduler_is_exit_2(command: str, address: str) -> None:
    code, out, err = invoke(*COMMANDS[command], "--scheduler", address)
    assert code == 2 and out == ""
    assert err.startswith(f"Error: --scheduler {address!r}: ") and err.count("\n") == 1, err


# -- servers that are not a usable scheduler -------------------------------------------------


@pytest.fixture
def http_server() -> Iterator[str]:
    """A web server: it takes the connection and never answers Dask's handshake."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


class _Quiet(http.server.BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def chatty_server() -> Iterator[str]:
    """A service that greets every connection with a line of text (as SSH or SMTP do)."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                continue
            with connection:
                connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\nnot a Dask frame at all\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    listener.close()


@needs_dask
def test_a_web_server_is_no_scheduler(http_server: str) -> None:
    with pytest.raises(SchedulerError) as error:
        run(square, [1], scheduler=http_server, connect_timeout=0.5)
    assert str(error.value) == (
        f"scheduler {http_server!r}: no answer as a Dask scheduler within 1 s "
        "(is it the address of another kind of server, such as a web server?)"
    )


@needs_dask
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_another_service_is_exit_2(command: str, chatty_server: str) -> None:
    code, out, err = invoke(*COMMANDS[command], "--scheduler", chatty_server)
    assert (code, out) == (2, "")
    assert err == (
        f"Error: --scheduler {chatty_server!r}: not a Dask scheduler (its answer is not "
        "Dask's protocol: MemoryError)\n"
    )


@needs_dask
def test_nothing_listening_is_named() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(SchedulerError, match=r"^scheduler 'tcp://127\.0\.0\.1:\d+': cannot"):
        run(square, [1], scheduler=f"tcp://127.0.0.1:{port}", connect_timeout=0.5)


# -- a real scheduler, in this process -------------------------------------------------------


def _scheduler(workers: int) -> Iterator[str]:
    distributed: Any = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A scheduler with one worker thread in this process."""
    yield from _scheduler(1)


@pytest.fixture
def idle_scheduler() -> Iterator[str]:
    """A scheduler without workers."""
    yield from _scheduler(0)


def test_in_process_answers_in_order() -> None:
    done: list[int] = []
    assert run(square, range(5), progress=done.append) == [0, 1, 4, 9, 16]
    assert done == [1] * 5
    back: list[tuple[int, int]] = []
    assert run(square, [3, 1], done=lambda place, answer: back.append((place, answer))) == [9, 1]
    assert back == [(0, 9), (1, 1)]  # each as soon as it is back
    with pytest.raises(ValueError, match="answer for 0"):
        run(fails, [0])
    assert batches(5, 2) == [range(0, 2), range(2, 4), range(4, 5)]


@needs_dask
def test_a_scheduler_answers_in_order(scheduler: str) -> None:
    done: list[int] = []
    back: list[tuple[int, int]] = []
    found = run(
        square,
        list(range(7)),
        scheduler=scheduler,
        batch_size=2,
        progress=done.append,
        done=lambda place, answer: back.append((place, answer)),
    )
    assert found == [x * x for x in range(7)]
    assert sorted(done) == [1, 2, 2, 2]
    # Every item's place and answer, a batch at a time, in whatever order they finished.
    assert sorted(back) == [(x, x * x) for x in range(7)]


@needs_dask
def test_a_failing_task_is_one_line(scheduler: str) -> None:
    with pytest.raises(RummikubError) as error:
        run(fails, [3], scheduler=scheduler)
    assert str(error.value) == "a Dask task failed: ValueError: no answer for 3"


@needs_dask
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_scheduler_gives_the_same_report(command: str, scheduler: str) -> None:
    here = invoke(*COMMANDS[command], "--workers", "1", "--json")
    there = invoke(*COMMANDS[command], "--scheduler", scheduler, "--json")
    assert here[0] == there[0] == 0, there[2]
    assert there[1] == here[1]
    assert there[2].rstrip().endswith(f", scheduler {scheduler})")


@needs_dask
def test_a_scheduler_without_workers_is_waited_for_a_bounded_time(idle_scheduler: str) -> None:
    with pytest.raises(SchedulerError) as error:
        run(square, [1], scheduler=idle_scheduler, worker_timeout=0.5)
    assert str(error.value) == (
        f"scheduler {idle_scheduler!r}: the scheduler has no workers (waited 0.5 s); "
        f"start one with: dask worker {idle_scheduler}"
    )
