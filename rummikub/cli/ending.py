"""How a run of the command line ends, whatever happens: every way out has its exit code
and at most a one-line message, never a traceback.

- Ctrl-C (SIGINT): exit 130, as shells report an interrupted program.
- SIGTERM, SIGHUP: exit 128 + the signal's number (143, 129), after the worker processes
  are stopped; a line of output is never cut in half (signals wait while a line is written).
- A closed pipe (``rummikub solve --json DIR | head -1``): no message, exit 141, as a shell
  reports a program stopped by SIGPIPE; the output was cut short, so not 0 ("done").
- Output that cannot be written (a full disk): one line on stderr, exit 2.
- Text the terminal's encoding cannot show (a lone surrogate in a title) is escaped
  (``\\ud800``) instead of failing.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import NoReturn

import click

EXIT_INTERRUPTED = 128 + signal.SIGINT  # 130
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE
EXIT_CANNOT_WRITE = 2

#: The signals that end a run quietly (SIGHUP does not exist on Windows).
ENDING_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Terminated(BaseException):
    """Raised in the main process by SIGTERM or SIGHUP, so that ``with`` blocks (the
    worker pool above all) clean up; a BaseException, so no ``except Exception`` eats it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class OutputFailed(BaseException):
    """An OSError while the command ran (writing its output), carried past click, which
    would turn a closed pipe into exit 1."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error)
        self.error = error


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextmanager
def _ending_signals() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Terminated` inside the block."""
    previous: dict[signal.Signals, object] = {}
    try:
        for signum in ENDING_SIGNALS:
            previous[signum] = signal.signal(signum, _raise_terminated)
    except ValueError:  # not the main thread (a test runner's thread): leave them be
        pass
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)  # type: ignore[arg-type]


def worker_signals() -> None:
    """In a worker process: Ctrl-C is the main process's to handle (it stops the workers),
    and SIGTERM/SIGHUP end the worker at once and quietly (the default action)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in ENDING_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)


@contextmanager
def whole_output() -> Iterator[None]:
    """Ending signals (and Ctrl-C) wait until the block, one piece of output, is written."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:  # Windows
        yield
        return
    blocked = {*ENDING_SIGNALS, signal.SIGINT}
    mask(signal.SIG_BLOCK, blocked)
    try:
        yield
    finally:
        mask(signal.SIG_UNBLOCK, blocked)


def _escape_unencodable() -> None:
    """Show what the streams' encoding cannot hold as escapes rather than failing."""
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]


def _silence_output() -> None:
    """Point stdout and stderr at the null device, so that what is still buffered does
    not fail again (with Python's "Exception ignored" message) when the process exits."""
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, ValueError, OSError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, stream.fileno())
            os.close(null)


def _say(text: str) -> None:
    with suppress(OSError, ValueError):
        click.echo(text, err=True)


def run(invoke: Callable[[], int | None]) -> int:
    """Run a command (click in non-standalone mode) and turn every ending into its code."""
    _escape_unencodable()
    try:
        with _ending_signals():
            try:
                code = invoke()
                sys.stdout.flush()
                sys.stderr.flush()
            except click.ClickException as error:
                error.show()
                code = error.exit_code
            except click.Abort as error:
                if isinstance(error.__context__, KeyboardInterrupt):
                    code = EXIT_INTERRUPTED
                else:
                    _say("Aborted!")
                    code = 1
    except KeyboardInterrupt:
        _say("")
        code = EXIT_INTERRUPTED
    except Terminated as ended:
        code = 128 + ended.signum
    except (OSError, OutputFailed) as caught:
        return _output_failed(caught.error if isinstance(caught, OutputFailed) else caught)
    return code or 0


def leave(code: int) -> NoReturn:
    """End this process with ``code`` (the command line's own, run by :func:`run`, which
    flushed or silenced its output).

    The interpreter's shutdown after a ``rummikub solve`` (tearing down every module and
    object, the last garbage collection, OR-Tools' destructors) is time every process pays
    for no output and no effect on the exit code (benchmarks/RESULTS.md, "Speed choices",
    *Process end*), so the process ends at once after flushing stdout and stderr again.
    Not where there is more to wait for: worker processes (multiprocessing's exit handlers
    stop them) or other threads; nor when the last flush fails, which the usual exit
    reports.
    """
    if "multiprocessing" not in sys.modules and threading.active_count() == 1:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        else:
            os._exit(code)
    sys.exit(code)


def _output_failed(error: OSError) -> int:
    if error.errno == errno.EPIPE:
        _silence_output()
        return EXIT_CLOSED_PIPE
    # stdout first, so that what it still holds does not fail again; then one line.
    with suppress(AttributeError, ValueError, OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    reason = (error.strerror or str(error)).lower()
    if error.errno in _WRITE_ERRORS:
        _say(f"Error: cannot write the output: {reason}")
    else:  # the system refused something else (e.g. a file): say what, no traceback
        where = f"{error.filename}: " if error.filename else ""
        _say(f"Error: {where}{reason}")
    _silence_output()
    return EXIT_CANNOT_WRITE


#: What writing to a full or broken device fails with.
_WRITE_ERRORS = {
    code
    for code in (
        getattr(errno, name, None) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO", "EBADF")
    )
    if code is not None
}
