"""Whole games: records, the engine, strategies and self-play.

>>> from rummikub.tiles.game import deal, replay, load_record, positions  # doctest: +SKIP

* :mod:`rummikub.tiles.game.record`: the record file format (TOML/JSON), written whole under a
  lock (:mod:`rummikub.core.files`).
* :mod:`rummikub.tiles.game.engine`: the deal, turns judged by the checker, the ending, scores.
* :mod:`rummikub.tiles.game.strategies`: strategies as plain functions.
* :mod:`rummikub.tiles.game.simulate`: self-play at scale (Dask distributed when installed).
* :mod:`rummikub.tiles.game.duel`: two strategies on the same deals, the seats swapped.

Both run their games through :mod:`rummikub.core.cluster`, in this process or on Dask.

Nothing below this package imports it; it uses the solver, the checker and the domain.
"""

from __future__ import annotations

from rummikub.tiles.game.engine import (
    GameState,
    Replay,
    TurnError,
    advance,
    deal,
    positions,
    real_table,
    replay,
    start,
)
from rummikub.tiles.game.record import (
    Deal,
    Draw,
    Pass,
    Play,
    Record,
    RecordError,
    Result,
    Turn,
    dumps,
    loads,
    save,
)
from rummikub.tiles.game.record import load as load_record

__all__ = [
    "Deal",
    "Draw",
    "GameState",
    "Pass",
    "Play",
    "Record",
    "RecordError",
    "Replay",
    "Result",
    "Turn",
    "TurnError",
    "advance",
    "deal",
    "dumps",
    "load_record",
    "loads",
    "positions",
    "real_table",
    "replay",
    "save",
    "start",
]
