""" "No move" proven from tile counts (:mod:`rummikub.tiles.solver.quick`) against the full
solver and the exhaustive search: a proof is never wrong, and a solve that takes it answers
exactly what the model would."""

from __future__ import annotations

import dataclasses
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings

from rummikub.tiles.exhaustive import NO_MOVE, best_move
from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver import SolveResult, quick, solve
from tests.strategies import examples, positions, rule_sets, small_positions

SETTINGS = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def full_solve(position: Position, **options: object) -> SolveResult:
    """The solver's answer with the shortcut off: the model decides."""
    with mock.patch.object(quick, "no_move", return_value=False):
        return solve(position, **options)  # type: ignore[arg-type]


def same_answer(a: SolveResult, b: SolveResult) -> bool:
    return dataclasses.replace(a, seconds=0.0) == dataclasses.replace(b, seconds=0.0)


@SETTINGS
@given(positions(rule_sets(), max_rack=10))
def test_a_proof_is_the_solvers_answer(position: Position) -> None:
    full = full_solve(position)
    if quick.no_move(position):
        assert full.status == "no_move", position.to_notation()
        assert same_answer(solve(position), full)
    else:
        assert same_answer(solve(position), full)


@SETTINGS
@given(small_positions())
def test_a_proof_agrees_with_the_exhaustive_search(position: Position) -> None:
    if quick.no_move(position):
        assert best_move(position) == NO_MOVE, position.to_notation()


# Positions the counts prove, and the ones next to them that they must not: each needs a
# different part of the proof.
PROVEN = [
    # opened, no rack tile in any three-tile meld of table and rack
    ("K1 R5 B9 O13", [], True, Rules()),
    ("K1 K5", ["R1 R2 R3", "B7 O7 K7"], True, Rules()),
    # not opened: melds of the rack alone worth less than 30
    ("R1 R2 R3 K4 K5 K6 B13", ["K7 K8 K9"], False, Rules()),
    # not opened: no meld of the rack alone at all, whatever the table offers
    ("R4 B9", ["R5 R6 R7"], False, Rules()),
    # not opened, with a joker that could only be worth 13 more
    ("K1 K2 J O9", [], False, Rules()),
]
NOT_PROVEN = [
    ("R4", ["R5 R6 R7"], True, Rules()),  # extends a run
    ("K7", ["R7 B7 O7"], True, Rules()),  # completes a group
    ("J", ["R5 R6 R7"], True, Rules()),  # a joker extends it
    ("K4", ["K5 R5 B5 O5", "K6 K7 K8"], True, Rules()),  # a rearrangement
    ("K10 K11 K12", [], False, Rules()),  # 33 from the rack
    ("K10 K11 J", [], False, Rules()),  # the joker may be K12 or K9: 33 or 30
    ("K1 K2 J", [], False, Rules(initial_meld=0)),  # any meld opens
]


@pytest.mark.parametrize(("rack", "table", "opened", "rules"), PROVEN)
def test_proven_positions(rack: str, table: list[str], opened: bool, rules: Rules) -> None:
    position = Position.parse(rack=rack, table=table, opened=opened, rules=rules)
    assert quick.no_move(position)
    assert full_solve(position).status == "no_move"
    result = solve(position)
    assert result.status == "no_move" and result.table == position.table


@pytest.mark.parametrize(("rack", "table", "opened", "rules"), NOT_PROVEN)
def test_positions_left_to_the_model(
    rack: str, table: list[str], opened: bool, rules: Rules
) -> None:
    position = Position.parse(rack=rack, table=table, opened=opened, rules=rules)
    assert not quick.no_move(position)
    assert solve(position).status == "optimal"


def test_a_proof_holds_under_every_option() -> None:
    """A restricted solve allows fewer moves: no move stays no move, with the same table."""
    position = Position.parse(rack="K1 R5 B9", table=["R1 R2 R3"])
    for options in ({"objective": "tiles"}, {"exclude": [[]]}, {"better_than": (0, 0)}):
        assert same_answer(solve(position, **options), full_solve(position, **options))  # type: ignore[arg-type]


def test_bad_arguments_are_still_refused_first() -> None:
    position = Position.parse(rack="K1 R5 B9", table=[])
    assert quick.no_move(position)
    with pytest.raises(ValueError, match="fewest_tiles"):
        solve(position, objective="tiles", fewest_tiles=True)


def test_a_proven_puzzle_never_loads_or_tools() -> None:
    """A process whose position the counts prove answers without importing OR-Tools."""
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent
    script = (
        "import sys\n"
        "from rummikub.cli import main\n"
        "try:\n"
        "    main(['solve', 'puzzles/no-move/gap-of-one.toml'], standalone_mode=False)\n"
        "finally:\n"
        "    print('ortools' in sys.modules, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=repo, check=False
    )
    assert "no move" in done.stdout.lower(), done.stdout + done.stderr
    assert done.stderr.strip().splitlines()[-1] == "False", done.stderr
