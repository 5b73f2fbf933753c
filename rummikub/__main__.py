"""``python -m rummikub``: the same as the ``rummikub`` command."""

from __future__ import annotations

from rummikub.cli import main

if __name__ == "__main__":  # pytest --doctest-modules imports this module too
    main(prog_name="rummikub")
