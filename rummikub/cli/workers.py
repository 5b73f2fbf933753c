"""Worker processes that map a function over items in chunks and hand the results back
in the items' order, as ``multiprocessing.Pool.imap`` does, without its helper threads.

A pool's main process keeps three threads, one of which waits on the pipe the results
come back through but leaves reading them to another: until that one has read a result,
the first wakes up again at once, many times per result, and each wake-up is CPU taken
from the workers when there are as many workers as cores (benchmarks/RESULTS.md, "Speed
choices", *Workers without a pool*). Here the main process alone sends each worker its
next chunk and reads its results, sleeping in between.

Chunks shrink as the items run out (:func:`chunk_bounds`): large while much is left, so
that the main process wakes up less often (each wake-up is CPU taken from a worker when
there are as many workers as cores), then down to one item, so that the workers finish
together instead of one waiting for the other's last chunk. The results come back in
batches (:func:`ordered_batches`): every result next in order once a chunk is back, for
the caller to write at once.
"""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

#: The most items per chunk: a chunk of puzzles takes long enough to solve that a worker's
#: next chunk (see AHEAD) is always there, and a wake-up of the main process per chunk is
#: little (benchmarks/RESULTS.md, "Speed choices", *Chunks*).
CHUNK = 16
#: While many items are left, a chunk is at most this share of what is left per worker:
#: the last chunks are small, down to one item.
SHARES = 4
#: Chunks a worker holds at a time: the next is there when it finishes one.
AHEAD = 2


def chunk_bounds(count: int, workers: int) -> list[tuple[int, int]]:
    """The ``(start, stop)`` of each chunk of ``count`` items for ``workers`` workers: at
    most :data:`CHUNK` items, and at most a :data:`SHARES`-th of each worker's share of
    what is left, but at least one."""
    bounds: list[tuple[int, int]] = []
    start = 0
    while start < count:
        size = max(1, min(CHUNK, (count - start) // (workers * SHARES)))
        bounds.append((start, start + size))
        start += size
    return bounds


def ordered_map(
    function: Callable[[Any], Any],
    items: Sequence[Any],
    workers: int,
    initializer: Callable[..., None],
    initargs: tuple[Any, ...] = (),
) -> Iterator[Any]:
    """``function(item)`` for each item, in order (:func:`ordered_batches`, one by one)."""
    for batch in ordered_batches(function, items, workers, initializer, initargs):
        yield from batch


def ordered_batches(
    function: Callable[[Any], Any],
    items: Sequence[Any],
    workers: int,
    initializer: Callable[..., None],
    initargs: tuple[Any, ...] = (),
) -> Iterator[list[Any]]:
    """``function(item)`` for each item, in order and in batches (each one the results
    that are next in order once a chunk has come back), computed in ``workers`` processes
    that each run ``initializer(*initargs)`` first (the platform's start method: fork on
    Linux, spawn on macOS and Windows, where the arguments pickle).

    Leaving early (an error, a closed pipe, Ctrl-C, SIGTERM, or the caller stopping)
    terminates the workers; an exception raised by ``function`` is raised here.
    """
    chunks = [items[start:stop] for start, stop in chunk_bounds(len(items), workers)]
    context = multiprocessing.get_context()
    processes: list[Any] = []
    connections: list[Connection] = []
    try:
        for _ in range(min(workers, len(chunks))):
            ours, theirs = context.Pipe()
            process = context.Process(
                target=_work, args=(theirs, function, initializer, initargs), daemon=True
            )
            process.start()
            theirs.close()  # so that ours reads EOF if the worker dies
            processes.append(process)
            connections.append(ours)
        sent = 0

        def send_next(connection: Connection) -> None:
            nonlocal sent
            if sent < len(chunks):
                connection.send((sent, chunks[sent]))
                sent += 1

        for _ in range(AHEAD):
            for connection in connections:
                send_next(connection)
        finished: dict[int, list[Any]] = {}
        first = 0  # the next chunk to hand back
        while first < len(chunks):
            for ready in wait(connections):
                assert isinstance(ready, Connection)
                try:
                    index, results, error = ready.recv()
                    send_next(ready)
                except (EOFError, OSError):  # a closed or broken pipe: the worker died
                    raise RuntimeError("a worker process ended unexpectedly") from None
                if error is not None:
                    raise error
                finished[index] = results
            batch: list[Any] = []
            while first in finished:
                batch += finished.pop(first)
                first += 1
            if batch:
                yield batch
        for connection in connections:
            connection.send(None)
        for process in processes:
            process.join()
    finally:
        for process in processes:
            if process.exitcode is None:
                process.terminate()
        for process in processes:
            process.join()
        for connection in connections:
            connection.close()


def _work(
    connection: Connection,
    function: Callable[[Any], Any],
    initializer: Callable[..., None],
    initargs: tuple[Any, ...],
) -> None:
    """A worker: the results of each chunk it receives, until it receives None."""
    initializer(*initargs)
    while True:
        try:
            job = connection.recv()
        except EOFError:  # the main process is gone
            return
        if job is None:
            return
        index, chunk = job
        try:
            connection.send((index, [function(item) for item in chunk], None))
        except Exception as error:  # raised in the main process, with where it happened
            error.add_note(f"In a worker process:\n{traceback.format_exc()}")
            connection.send((index, None, error))
