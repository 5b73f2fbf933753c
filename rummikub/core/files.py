"""Files the program rewrites in place, such as game records (of tiles and of cards alike):
one writer at a time, and every write whole.

:func:`locked` holds a file's lock across a read, a change and a write, so that two
programs writing the same file lose nothing of each other's; :func:`write_atomically`
writes the new text beside the file and renames it over, so that a crash leaves the old
file or the new one, never half of one. Both name the file as the user typed it in their
messages and raise the caller's error type (a record's ``RecordError``), one line each.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from contextvars import ContextVar

from rummikub.core.errors import RummikubError

__all__ = ["LOCK_WAIT", "WriteError", "locked", "target_of", "write_atomically"]

#: How long a writer waits for another's lock on the same file (a write takes
#: milliseconds; a writer stuck longer than this is refused, not waited for forever).
LOCK_WAIT = 30.0


class WriteError(RummikubError, ValueError):
    """A file that cannot be written (the default error of this module's functions)."""


ErrorType = type[RummikubError]

_held: ContextVar[frozenset[str]] = ContextVar("rummikub_files_locked", default=frozenset())


def target_of(path: str | os.PathLike[str]) -> str:
    """The file a write to ``path`` changes: a symlink's target (followed to the end), so
    the link stays a link; the path itself when it does not exist yet."""
    return os.path.realpath(os.fspath(path))


def _beside(target: str, suffix: str) -> str:
    folder, base = os.path.split(target)
    return os.path.join(folder, f".{base}{suffix}")


@contextlib.contextmanager
def locked(path: str | os.PathLike[str], *, error: ErrorType = WriteError) -> Iterator[None]:
    """Hold the file's lock (``.NAME.lock`` beside it): no other writer, process or thread,
    changes the file within the block.

    Waits up to :data:`LOCK_WAIT` seconds for another writer, then raises ``error``.
    Re-entrant: a write inside the block takes the lock again at no cost.
    """
    from filelock import FileLock, Timeout

    name = os.fspath(path)
    target = target_of(name)
    held = _held.get()
    if target in held:
        yield
        return
    if not os.path.isdir(os.path.dirname(target)):
        # Checked first: the lock would make the missing folders.
        raise error(f"{name}: cannot write: {os.strerror(errno.ENOENT)}")
    lock = FileLock(_beside(target, ".lock"), timeout=LOCK_WAIT, thread_local=False)
    try:
        lock.acquire()
    except Timeout:
        raise error(
            f"{name}: another process is writing this record (its lock "
            f"{_beside(target, '.lock')} is held); try again"
        ) from None
    except OSError as problem:
        raise error(f"{name}: cannot write: {problem.strerror or problem}") from None
    token = _held.set(held | {target})
    try:
        yield
    finally:
        _held.reset(token)
        lock.release()


def write_atomically(
    text: bytes, path: str | os.PathLike[str], *, error: ErrorType = WriteError
) -> None:
    """Write ``text`` to the file at ``path`` whole: a temporary file in the same folder,
    then one rename. Holds the file's lock; follows a symlink to its target; keeps an
    existing file's mode and refuses a read-only one (``error``, the file untouched)."""
    name = os.fspath(path)
    target = target_of(name)
    with locked(name, error=error):
        _write(text, name, target, error)


def _write(text: bytes, name: str, target: str, error: ErrorType) -> None:
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as problem:
        raise error(f"{name}: cannot write: {problem.strerror or problem}") from None
    if info is not None:
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{name}: cannot write: not a regular file")
        if not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(
            target, os.W_OK
        ):
            raise error(
                f"{name}: the record is read-only (make it writable, e.g. chmod u+w, to change it)"
            )
    temporary = _beside(target, ".tmp")
    # The same temporary name for every write of this file (under its lock): one left by
    # a writer killed mid-write is overwritten by the next, never left to pile up.
    try:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o666)
    except OSError as problem:
        raise error(f"{name}: cannot write: {problem.strerror or problem}") from None
    try:
        with os.fdopen(handle, "wb") as file:
            if info is not None:
                os.fchmod(file.fileno(), stat.S_IMODE(info.st_mode))
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException as problem:
        # Whatever stopped the write, the old file stays and no temporary file is left.
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(problem, OSError):
            raise error(f"{name}: cannot write: {problem.strerror or problem}") from None
        raise
