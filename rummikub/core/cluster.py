"""The one way self-play runs many games: in this process, or on Dask distributed.

:func:`run` applies a picklable task to every item and hands the answers back in the
items' order: in this process when there is one worker and no scheduler, else in batches on
a ``LocalCluster`` of worker processes or on the cluster of a scheduler's address. Dask is
an optional extra (``[cluster]``), imported only here, through :mod:`importlib`, and only
when asked for.

A scheduler that cannot be used is a :class:`SchedulerError` with one line that says why,
never a hang: the address is read first (``tcp://host:port`` or ``tls://host:port``), the
handshake with it is bounded (:data:`CONNECT_TIMEOUT`; an HTTP server or any other service
does not answer it as a Dask scheduler does), and a scheduler with no workers is waited for
a bounded time (:data:`WORKER_TIMEOUT`). The log of a ``LocalCluster``'s workers (and of
the Dask client in this process) is kept off the terminal while a run lasts.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import logging
import math
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from rummikub.core.arguments import described, whole
from rummikub.core.errors import RummikubError

__all__ = [
    "CONNECT_TIMEOUT",
    "WORKER_TIMEOUT",
    "Done",
    "Progress",
    "SchedulerError",
    "batches",
    "check_address",
    "dask_available",
    "default_workers",
    "run",
]

T = TypeVar("T")
R = TypeVar("R")

#: Seconds to connect to a scheduler and hear it answer as one.
CONNECT_TIMEOUT = 10.0
#: Seconds to wait for a scheduler without workers to get one.
WORKER_TIMEOUT = 30.0
#: The address schemes a scheduler is reached by.
SCHEMES = ("tcp", "tls")

#: Called with the number of items just finished.
Progress = Callable[[int], None]
#: Called with an item's place in the items and its answer, as soon as it is back.
Done = Callable[[int, Any], None]


class SchedulerError(RummikubError):
    """A scheduler address that cannot be used: malformed, unreachable, not a Dask
    scheduler, or without workers. The message starts ``scheduler 'ADDRESS':``."""


def dask_available() -> bool:
    """Whether Dask distributed (the ``[cluster]`` extra) is installed."""
    return importlib.util.find_spec("distributed") is not None


def default_workers(items: int) -> int:
    """Local workers when none are asked for: one per core, if Dask is installed, there is
    more than one core and enough games to share (a cluster costs seconds to start)."""
    cores = os.cpu_count() or 1
    if cores < 2 or items < 4 * cores or not dask_available():
        return 1
    return cores


def batches(items: int, size: int) -> list[range]:
    """The indices ``0..items-1`` cut into runs of ``size`` (the last one shorter)."""
    return [range(start, min(start + size, items)) for start in range(0, items, size)]


def check_address(address: str) -> str:
    """The scheduler address in full (``tcp://`` added when no scheme is given), or a
    :class:`SchedulerError` naming what is wrong with it.

    >>> check_address("127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    """
    where = f"scheduler {address!r}"
    text = address.strip()
    if not text:
        raise SchedulerError(f"{where}: expected an address such as tcp://host:8786")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme.lower() not in SCHEMES:
        raise SchedulerError(
            f"{where}: unknown scheme {scheme + '://'!r} (expected tcp://host:port or "
            "tls://host:port)"
        )
    if rest.startswith("["):
        host, bracket, after = rest[1:].partition("]")
        if not bracket:
            raise SchedulerError(f"{where}: the '[' of an IPv6 address is not closed")
        if not after.startswith(":"):
            raise SchedulerError(f"{where}: expected a port after the ']', as in [::1]:8786")
        port = after[1:]
    else:
        host, colon, port = rest.rpartition(":")
        if not colon:
            raise SchedulerError(f"{where}: no port (expected host:port, e.g. {rest}:8786)")
        if ":" in host:
            raise SchedulerError(f"{where}: an IPv6 address goes in brackets, as in [::1]:8786")
    if not host or any(c in host for c in "/ @?#"):
        raise SchedulerError(f"{where}: expected a host name or address before the port")
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise SchedulerError(f"{where}: the port {port!r} is not a number 1-65535")
    return f"{scheme.lower()}://{rest}"


def run(
    task: Callable[[T], R],
    items: Sequence[T],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    batch_size: int | None = None,
    progress: Progress | None = None,
    done: Done | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    worker_timeout: float = WORKER_TIMEOUT,
) -> list[R]:
    """``[task(item) for item in items]``, in this process when ``workers`` is 1 and no
    ``scheduler`` is given, else through Dask: a ``LocalCluster`` of ``workers`` processes
    or the cluster at ``scheduler``. ``task`` and the items must pickle for Dask (a
    module's function, or a :func:`functools.partial` of one). The answers come back in the
    items' order either way; ``progress`` is called with the number just finished, and
    ``done`` with each item's place and its answer as soon as it is back (after each item in
    this process, after each batch on Dask: in the order they finish, so that a caller keeping
    them keeps what finished whatever stops the run later).

    An exception raised by ``task`` in this process goes up as it is; on Dask it becomes a
    :class:`~rummikub.core.errors.RummikubError` of one line (a task should catch what it
    can answer itself, as self-play does with a failing strategy).
    """
    whole(workers, "workers", 1)
    if batch_size is not None:
        whole(batch_size, "batch_size", 1)
    if scheduler is not None and not isinstance(scheduler, str):
        raise TypeError(
            f"scheduler must be an address such as 'tcp://host:8786' or None, "
            f"got {described(scheduler)}"
        )
    if scheduler is None and workers <= 1:
        found = []
        for place, item in enumerate(items):
            answer = task(item)
            found.append(answer)
            if done is not None:
                done(place, answer)
            if progress is not None:
                progress(1)
        return found
    address = None if scheduler is None else check_address(scheduler)
    distributed = _distributed()
    session = _client(distributed, workers, address, connect_timeout, worker_timeout)
    with _quiet_logs(), session as client:
        return _run_on(distributed, client, task, items, batch_size, progress, done)


def _distributed() -> Any:
    try:
        # Through importlib: Dask is optional and untyped, so it stays out of mypy's sight.
        return importlib.import_module("distributed")
    except ImportError:
        raise RummikubError(
            "parallel games need Dask distributed: pip install 'rummikub[cluster]' "
            "(or run with --workers 1)"
        ) from None


@contextmanager
def _quiet_logs() -> Iterator[None]:
    """Dask's log in this process off the terminal while a run lasts (a worker lost or
    restarted, a connection closed at the end): the run's outcome is in its answers."""
    logger = logging.getLogger("distributed")
    handlers = [(h, h.level) for h in logger.handlers if isinstance(h, logging.StreamHandler)]
    for handler, _ in handlers:
        handler.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for handler, level in handlers:
            handler.setLevel(level)


@contextmanager
def _client(
    distributed: Any,
    workers: int,
    address: str | None,
    connect_timeout: float,
    worker_timeout: float,
) -> Iterator[Any]:
    cluster: Any = None
    if address is None:
        # Processes, one thread each: a solve holds the GIL, so threads would not help.
        # The workers log nothing below CRITICAL: a failing game is reported by the game.
        cluster = distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            # Without a dashboard the scheduler still serves HTTP, by default on port 8787
            # (with a warning when that port is taken): a free port of this host instead.
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.CRITICAL,
        )
        client = distributed.Client(cluster)
    else:
        client = _connect(distributed, address, connect_timeout, worker_timeout)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _connect(distributed: Any, address: str, connect_timeout: float, worker_timeout: float) -> Any:
    """A client of the scheduler at ``address`` with at least one worker, or a
    :class:`SchedulerError`."""
    where = f"scheduler {address!r}"
    identity = _identity(address, connect_timeout)
    kind = identity.get("type") if isinstance(identity, dict) else None
    if kind != "Scheduler":
        raise SchedulerError(f"{where}: answers as a Dask {kind or 'service'}, not a scheduler")
    try:
        client = distributed.Client(address, timeout=connect_timeout)
    except (OSError, TimeoutError) as error:
        raise SchedulerError(f"{where}: cannot connect: {_one_line(error)}") from None
    try:
        client.wait_for_workers(1, timeout=worker_timeout)
    except (OSError, TimeoutError):
        client.close()
        raise SchedulerError(
            f"{where}: the scheduler has no workers (waited {worker_timeout:g} s); "
            f"start one with: dask worker {address}"
        ) from None
    return client


def _identity(address: str, timeout: float) -> object:
    """The scheduler's answer to Dask's ``identity`` request, the whole exchange (connect,
    handshake, answer) bounded by ``timeout`` seconds."""
    comm_module: Any = importlib.import_module("distributed.comm")
    where = f"scheduler {address!r}"

    async def ask() -> object:
        # Dask's own timeout bounds reaching the address, not the handshake after it (a
        # server that never answers would hold it for ever): the whole connect is bounded
        # too, a little later, and the question and its answer once more.
        comm = await asyncio.wait_for(comm_module.connect(address, timeout=timeout), 2 * timeout)
        try:
            await asyncio.wait_for(comm.write({"op": "identity"}), timeout)
            return await asyncio.wait_for(comm.read(), timeout)
        finally:
            comm.abort()

    try:
        return asyncio.run(ask())
    except TimeoutError:
        raise SchedulerError(
            f"{where}: no answer as a Dask scheduler within {2 * timeout:g} s "
            "(is it the address of another kind of server, such as a web server?)"
        ) from None
    except OSError as error:
        raise SchedulerError(f"{where}: cannot connect: {_one_line(error)}") from None
    except Exception as error:  # a service that answers, but not in Dask's protocol
        raise SchedulerError(
            f"{where}: not a Dask scheduler (its answer is not Dask's protocol: "
            f"{type(error).__name__})"
        ) from None


def _run_on(
    distributed: Any,
    client: Any,
    task: Callable[[T], R],
    items: Sequence[T],
    batch_size: int | None,
    progress: Progress | None,
    done: Done | None,
) -> list[R]:
    cores = sum(client.nthreads().values()) or 1
    # About four batches per worker: few enough that scheduling costs little, enough that a
    # slow batch does not keep the others waiting at the end.
    size = batch_size or max(1, math.ceil(len(items) / (4 * cores)))
    chunks = batches(len(items), size)
    futures = [
        client.submit(run_batch, task, [items[i] for i in chunk], pure=False) for chunk in chunks
    ]
    place = {future.key: number for number, future in enumerate(futures)}
    found: list[list[R] | None] = [None] * len(chunks)
    try:
        for future in distributed.as_completed(futures):
            try:
                answers = future.result()
            except Exception as error:
                raise RummikubError(
                    f"a Dask task failed: {type(error).__name__}: {_one_line(error)}" + _hint(error)
                ) from None
            number = place[future.key]
            found[number] = answers
            if done is not None:
                for item, answer in zip(chunks[number], answers, strict=True):
                    done(item, answer)
            if progress is not None:
                progress(len(answers))
    finally:
        client.cancel(futures)
    return [answer for answers in found if answers is not None for answer in answers]


def run_batch(task: Callable[[T], R], items: Sequence[T]) -> list[R]:
    """One Dask task: ``task`` on a batch of items."""
    return [task(item) for item in items]


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__


def _hint(error: BaseException) -> str:
    if isinstance(error, ModuleNotFoundError):
        return " (the Dask workers need this package installed)"
    return ""
