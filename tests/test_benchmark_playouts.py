"""The playouts benchmark (benchmarks/playouts.py) on a handful of positions, so that it
cannot rot unnoticed: every way runs and the answers are compared."""

from __future__ import annotations

from typing import Any

from benchmarks import playouts
from rummikub.tiles.position import Position


def test_every_way_runs_and_answers_alike() -> None:
    calls: list[tuple[Any, dict[str, Any]]] = [
        (Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"]), {}),
        (Position.parse(rack="K1 R5 B9", table=["R1 R2 R3"]), {}),
        (Position.parse(rack="R10 R11 R12 K2", table=[], opened=False), {}),
        (Position.parse(rack="R4 K7 O7", table=["R1 R2 R3"]), {"objective": "tiles"}),
    ]
    found = playouts.measure(calls, rounds=1, jobs=[2])
    assert found["same"]
    text = playouts.markdown(calls, found, "python -m benchmarks playouts")
    assert text.startswith(playouts.START) and text.rstrip().endswith(playouts.END)
    assert "| in sequence, 1 process |" in text and "| batch, 2 job(s) |" in text
    assert "1 of 4 positions proven from tile counts" in text
