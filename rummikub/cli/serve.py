"""``rummikub serve``: the local web app (needs the ``web`` extra).

How it ends: Ctrl-C (SIGINT) exit 130, SIGTERM 143, SIGHUP 129, within about a second even
while a solve runs (the work of every request stops at its next step; a step in a solver's C
code, which holds the interpreter, runs on to its end); an address in use exit 4
(:data:`EXIT_ADDRESS_IN_USE`); another address that cannot be listened on exit 2.
"""

from __future__ import annotations

import contextlib
import os
import sys

import click

from rummikub.cli.common import BadInput, check_time_limit

#: The exit code of ``rummikub serve`` when the address is in use (docs/analysts.md, "Exit codes").
EXIT_ADDRESS_IN_USE = 4


class AddressInUse(click.ClickException):
    """Another program listens on the address: ``Error: ...``, exit 4."""

    exit_code = EXIT_ADDRESS_IN_USE


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0 opens it to the network: there is no login). The "
    "server answers to this machine's names (localhost, 127.0.0.1, ::1) and to this one.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free port, printed).",
)
@click.option(
    "--time-limit",
    type=float,
    callback=check_time_limit,
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="The longest a request may work, all its solves together; a request may ask for less.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=64),
    default=2,
    show_default=True,
    help="How many solves run at once; more requests wait their turn.",
)
@click.option(
    "--read-timeout",
    type=float,
    callback=check_time_limit,
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="How long a client may take to send its request's headers, and then its body "
    "(a slower one gets HTTP 408).",
)
def serve(host: str, port: int, time_limit: float, workers: int, read_timeout: float) -> None:
    """Start the web page: click tiles into the rack and the table (or paste the quick
    notation), get the best move drawn with its steps, check a proposed table.

    Open http://127.0.0.1:8000/ (the address printed) in a browser; Ctrl-C stops it.
    Exit 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP, 4 the address is in use, 2 bad input.
    """
    try:
        from rummikub.web import Limits
        from rummikub.web.server import AddressInUse as InUse
        from rummikub.web.server import CannotListen
        from rummikub.web.server import serve as run_server
    except ImportError as error:
        raise BadInput(
            f"rummikub serve needs the web extra ({error.name} is missing): "
            "pip install 'rummikub[web]'"
        ) from None
    limits = Limits(time_limit=time_limit, read_seconds=read_timeout)
    try:
        stopped_by = run_server(host, port, limits=limits, workers=workers)
    except InUse as error:
        raise AddressInUse(str(error)) from None
    except CannotListen as error:
        raise BadInput(str(error)) from None
    if stopped_by is not None:
        # Ended by a signal: 128 + its number, at once. A worker thread may still be inside
        # a solver's C code (its time limit will end it, no signal can): nothing is left to
        # write, so the process does not wait for it.
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(128 + stopped_by)
