"""Many positions solved at once: :func:`solve_many`, and :class:`BatchSolver`, whose worker
processes stay up between batches (playouts solve thousands of positions per decision).

Every answer is :func:`rummikub.tiles.solver.solve`'s for that position and those options,
so a batch answers the same whatever its order, its size, the number of workers or the
machine's load: the solver's budgets count work, never time, and a solve depends on its
position and options alone. A position met twice in one batch is solved once.

With ``jobs`` > 1 the positions are solved by that many worker processes, forked once the
solver's modules are imported (:func:`rummikub.tiles.solver.preload`), each sent chunks of
positions in turn (two at a time, so that the next is there when one is done) and sending
back the answers without their positions (the caller has them), in the chunks' order.
``jobs`` = 1 solves in this process. benchmarks/RESULTS.md, "Throughput for playouts",
measures both.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections.abc import Iterable, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

from rummikub.tiles.position import Position
from rummikub.tiles.solver import SolveResult, preload, solve
from rummikub.tiles.solver.result import Objective

__all__ = ["BatchSolver", "solve_many"]

#: Positions per chunk sent to a worker: a mid-game position takes a few ms, so a chunk is
#: tens of ms of work, long enough that the main process wakes up seldom.
CHUNK = 8
#: Chunks a worker holds at a time.
AHEAD = 2

#: An answer as a worker sends it back: the result's fields but its position.
_Answer = tuple[Any, ...]


def solve_many(
    positions: Iterable[Position],
    *,
    jobs: int = 1,
    objective: Objective = "value",
    time_limit: float | None = None,
) -> list[SolveResult]:
    """``solve(position, objective=..., time_limit=...)`` of every position, in order,
    in ``jobs`` processes (see the module's text).

    >>> from rummikub import Position
    >>> answers = solve_many([Position.parse(rack="R4", table=["R1 R2 R3"])] * 2)
    >>> [(a.status, a.value) for a in answers]
    [('optimal', 4), ('optimal', 4)]
    """
    with BatchSolver(jobs) as solver:
        return solver.solve(positions, objective=objective, time_limit=time_limit)


class BatchSolver:
    """Solves batches of positions in ``jobs`` worker processes kept between batches
    (none for ``jobs`` = 1). Close it (or use it as a context manager) to stop them."""

    def __init__(self, jobs: int = 1) -> None:
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
            raise ValueError(f"jobs must be a whole number of at least 1, not {jobs!r}")
        self.jobs = jobs
        self._workers: list[tuple[Any, Connection]] = []
        #: CPU seconds the solves took (this process's for ``jobs`` = 1, else the workers').
        self.cpu_seconds = 0.0

    def __enter__(self) -> BatchSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def solve(
        self,
        positions: Iterable[Position],
        *,
        objective: Objective = "value",
        time_limit: float | None = None,
    ) -> list[SolveResult]:
        """Every position's answer, in order. A position that cannot be solved raises its
        error, the first such position's whatever the number of workers (as one solve after
        another would)."""
        items = list(positions)
        unique: dict[Position, int] = {}
        for index, position in enumerate(items):
            if not isinstance(position, Position):
                shown = repr(position)
                raise TypeError(
                    f"positions[{index}] must be a Position, got {type(position).__name__} "
                    f"{shown if len(shown) <= 40 else shown[:37] + '...'}"
                )
            unique.setdefault(position, len(unique))
        distinct = list(unique)
        options = {"objective": objective, "time_limit": time_limit}
        # A daemon process (a pool's worker) may not start processes: it solves itself.
        alone = self.jobs == 1 or multiprocessing.current_process().daemon
        if alone or len(distinct) <= 1:
            before = time.process_time()
            answers = [solve(p, objective=objective, time_limit=time_limit) for p in distinct]
            self.cpu_seconds += time.process_time() - before
        else:
            answers = [
                _result(position, answer)
                for position, answer in zip(distinct, self._map(distinct, options), strict=True)
            ]
        return [answers[unique[position]] for position in items]

    def close(self) -> None:
        """Stop the workers: each is told to, and ends once its chunk is done."""
        for process, connection in self._workers:
            with contextlib.suppress(OSError):  # it ended already
                connection.send(None)
            connection.close()
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()
        self._workers = []

    def _start(self) -> None:
        if self._workers:
            return
        preload()  # imported once here, not in every worker (forked after this)
        context = multiprocessing.get_context()
        for _ in range(self.jobs):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs,), daemon=True)
            process.start()
            theirs.close()
            self._workers.append((process, mine))

    def _map(self, positions: Sequence[Position], options: dict[str, Any]) -> list[_Answer]:
        self._start()
        chunks = [positions[i : i + CHUNK] for i in range(0, len(positions), CHUNK)]
        found: list[list[_Answer] | None] = [None] * len(chunks)
        given: dict[Connection, list[int]] = {c: [] for _, c in self._workers}
        following = 0
        # The first chunk that failed, and its error: the batch raises it once every chunk
        # before it is answered (an earlier one may fail too, on a slower worker), so that
        # the error is the first bad position's whatever the workers, as one at a time.
        failed: tuple[int, Exception] | None = None

        def give(connection: Connection) -> None:
            nonlocal following
            limit = len(chunks) if failed is None else failed[0]
            while following < limit and len(given[connection]) < AHEAD:
                connection.send((chunks[following], options))
                given[connection].append(following)
                following += 1

        def waiting() -> bool:
            if failed is None:
                return any(chunk is None for chunk in found)
            return any(found[index] is None for index in range(failed[0]))

        for _, connection in self._workers:
            give(connection)
        while waiting():
            for ready in wait([c for c, held in given.items() if held]):
                assert isinstance(ready, Connection)
                try:
                    kind, value = ready.recv()
                except EOFError:
                    self.close()
                    raise RuntimeError("a solver worker process ended unexpectedly") from None
                index = given[ready].pop(0)
                if kind == "error":
                    if failed is None or index < failed[0]:
                        failed = (index, value)
                else:
                    answers, seconds = value
                    found[index] = answers
                    self.cpu_seconds += seconds
                give(ready)
        if failed is not None:
            # The workers may still hold later chunks: stopped, as on any error.
            self.close()
            raise failed[1]
        return [answer for chunk in found if chunk is not None for answer in chunk]


def _serve(connection: Connection) -> None:
    """A worker: solve each chunk received and send back its answers, until told to stop
    (``None``) or the pipe closes."""
    while True:
        try:
            received = connection.recv()
        except (EOFError, OSError):
            return
        if received is None:
            return
        chunk, options = received
        before = time.process_time()
        try:
            answers = [_answer(solve(position, **options)) for position in chunk]
        except Exception as error:  # handed to the caller, raised there
            connection.send(("error", _sendable(error)))
        else:
            connection.send(("answers", (answers, time.process_time() - before)))


def _answer(result: SolveResult) -> _Answer:
    return (
        result.status,
        result.table,
        result.played,
        result.rack,
        result.value,
        result.tiles,
        result.seconds,
        result.objective,
    )


def _result(position: Position, answer: _Answer) -> SolveResult:
    status, table, played, rack, value, tiles, seconds, objective = answer
    return SolveResult(status, position, table, played, rack, value, tiles, seconds, objective)


def _sendable(error: Exception) -> Exception:
    """``error`` if it pickles whole, else a RuntimeError with its words."""
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
    return error
