"""``python -m benchmarks``: see :mod:`benchmarks.run`; ``python -m benchmarks simulate``:
see :mod:`benchmarks.simulate`; ``python -m benchmarks equity``: see
:mod:`benchmarks.equity`; ``python -m benchmarks serve``: see
:mod:`benchmarks.serve_load`; ``python -m benchmarks cardgames``: see
:mod:`benchmarks.cardgames`; ``python -m benchmarks playouts``: see
:mod:`benchmarks.playouts`; ``python -m benchmarks fastplay``: see
:mod:`benchmarks.fastplay`; ``python -m benchmarks game-throughput``: see
:mod:`benchmarks.game_throughput`."""

from __future__ import annotations

import sys

from benchmarks.run import DEFAULT_OUT, main

if __name__ == "__main__":
    if sys.argv[1:2] == ["simulate"]:
        from benchmarks import simulate

        sys.exit(simulate.main(sys.argv[2:]))
    if sys.argv[1:2] == ["equity"]:
        from benchmarks import equity

        sys.exit(equity.main(sys.argv[2:]))
    if sys.argv[1:2] == ["cardgames"]:
        from benchmarks import cardgames

        sys.exit(cardgames.main(sys.argv[2:]))
    if sys.argv[1:2] == ["playouts"]:
        from benchmarks import playouts

        sys.exit(playouts.main(sys.argv[2:]))
    if sys.argv[1:2] == ["fastplay"]:
        from benchmarks import fastplay

        sys.exit(fastplay.main(sys.argv[2:]))
    if sys.argv[1:2] == ["game-throughput"]:
        from benchmarks import game_throughput

        sys.exit(game_throughput.main(sys.argv[2:]))
    if sys.argv[1:2] == ["serve"]:
        from benchmarks import serve_load

        sys.exit(serve_load.main(sys.argv[2:]))
    from benchmarks import sections, serve_load
    from benchmarks.simulate import kept_section, replace_section

    # The self-play and server sections are measured on their own, and the solver's choices
    # and the speed choices (why each speed trick is there, with the figures that justify it)
    # are written from focused measurements, as are the endgame's and the equity tables
    # (``python -m benchmarks.endgame``, ``python -m benchmarks equity``) and the game
    # review's (``python -m benchmarks.review``), the card games' (``python -m benchmarks
    # cardgames``), the playouts' throughput (``python -m benchmarks playouts``), the fast
    # playout move's (``python -m benchmarks fastplay``) and the web's
    # equity at its maximum (``python -m benchmarks.equity_web``): a full run keeps them all.
    by_hand = [
        (f"<!-- {name}:start -->", f"<!-- {name}:end -->")
        for name in (
            "solver-choices",
            "speed-choices",
            "endgame",
            "equity",
            "cardgames",
            "review",
            "playouts",
            "equity-analyse",
            "equity-web",
            "fastplay",
        )
    ]
    kept = kept_section(DEFAULT_OUT)
    kept_serve = serve_load.kept_section(DEFAULT_OUT)
    kept_by_hand = [(marks, sections.kept_section(DEFAULT_OUT, *marks)) for marks in by_hand]
    code = main()
    if kept is not None and DEFAULT_OUT.exists():
        DEFAULT_OUT.write_text(replace_section(DEFAULT_OUT.read_text(), kept))
    if kept_serve is not None and DEFAULT_OUT.exists():
        DEFAULT_OUT.write_text(serve_load.replace_section(DEFAULT_OUT.read_text(), kept_serve))
    for marks, section in kept_by_hand:
        if section is not None and DEFAULT_OUT.exists():
            DEFAULT_OUT.write_text(
                sections.replace_section(DEFAULT_OUT.read_text(), section, *marks)
            )
    sys.exit(code)
