"""The fast playout move's benchmark (benchmarks/fastplay.py): what a solver's move does
where the fast move lays less, and its quality table, on a handful of positions."""

from __future__ import annotations

from collections import Counter

from benchmarks import fastplay
from rummikub.tiles.position import Position
from rummikub.tiles.solver import solve


def kinds(rack: str, table: list[str], *, opened: bool = True) -> list[str]:
    position = Position.parse(rack=rack, table=table, opened=opened)
    return fastplay.miss_kinds(position, solve(position).move)


def test_what_the_solvers_move_does() -> None:
    # K13 frees the joker of R13 B13 J, laid again with O11 O12 (the table's joker).
    assert kinds("K13 O11 O12", ["R13 B13 J"]) == ["frees a table joker"]
    # K6 and K7 leave their groups for the locked run; the groups' other tiles make runs.
    assert kinds("O8 B8", ["K6 B6 O6", "K8 K9 J K11", "K7 B7 O7"]) == [
        "extends a locked meld with table tiles",
        "breaks a joker-free group",
    ]
    # A rack joker, and an opening.
    assert kinds("R9 R10 J", [], opened=False) == ["opens", "lays a rack joker"]
    # Laying off only: nothing of these.
    assert kinds("R4", ["R1 R2 R3"]) == []


def test_the_misses_are_counted() -> None:
    """Every position the solver plays is a miss of a fast move that always draws."""
    from unittest import mock

    from rummikub.tiles.position import Move

    positions = [
        Position.parse(rack="R4", table=["R1 R2 R3"]),
        Position.parse(rack="K13 O11 O12", table=["R13 B13 J"]),
        Position.parse(rack="K1 B5", table=["R1 R2 R3"]),
    ]
    misses: Counter[str] = Counter()
    with mock.patch("rummikub.tiles.fastplay.fast_move", lambda p: Move(p.table, ())):
        row = fastplay.quality(positions, misses)
    assert row["same"] == 1 and row["draws"] == 1 and row["illegal"] == 0
    assert misses == Counter({"missed": 2, "frees a table joker": 1})


def test_a_seed_draws_other_positions_and_the_default_is_the_one_reported() -> None:
    reported = fastplay.corpus("game", 4)
    assert reported == fastplay.corpus("game", 4, fastplay.CORPUS_SEED)
    other = fastplay.corpus("game", 4, 7)
    assert other == fastplay.corpus("game", 4, 7)
    assert other != reported
