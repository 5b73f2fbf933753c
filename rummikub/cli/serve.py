"""``rummikub serve``: the local web app (needs the ``web`` extra)."""

from __future__ import annotations

import click

from rummikub.cli.common import BadInput, check_time_limit


@click.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0 opens it to the network: there is no login).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on.",
)
@click.option(
    "--time-limit",
    type=float,
    callback=check_time_limit,
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="The longest a solve may take; a request may ask for less.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="How many solves run at once; more requests wait their turn.",
)
def serve(host: str, port: int, time_limit: float, workers: int) -> None:
    """Start the web page: click tiles into the rack and the table (or paste the quick
    notation), get the best move drawn with its steps, check a proposed table.

    Open http://127.0.0.1:8000/ (the address printed) in a browser; Ctrl-C stops it.
    """
    try:
        from rummikub.web import Limits
        from rummikub.web import serve as run_server
    except ImportError as error:
        raise BadInput(
            f"rummikub serve needs the web extra ({error.name} is missing): "
            "pip install 'rummikub[web]'"
        ) from None
    run_server(host, port, limits=Limits(time_limit=time_limit), workers=workers)
