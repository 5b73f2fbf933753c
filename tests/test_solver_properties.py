"""The solver against the specification: the checker says its moves are legal, and the
exhaustive search says they are the best.

(a) Every answer, on random positions of every preset and random rule sets, passes the
    checker and is internally consistent (played, rack, value, tiles, status).
(b) On positions small enough to search exhaustively, the solver's score equals the
    exhaustive search's for every rule option and both objectives, "no move" exactly when
    the search finds none, and it leaves as many old melds unchanged (tie-break 3).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummikub.tiles.checker import check
from rummikub.tiles.exhaustive import NO_MOVE, BestMove, best_move, count_unchanged
from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver import SolveResult, solve
from rummikub.tiles.solver.result import Objective
from tests.strategies import (
    box,
    examples,
    four_joker_positions,
    just_laid_joker_positions,
    option_rule_sets,
    positions,
    presets,
    release_cycle_positions,
    rule_sets,
    small_positions,
    small_rule_sets,
)

_OBJECTIVE_VALUES: list[Objective] = ["value", "tiles"]
OBJECTIVES = st.sampled_from(_OBJECTIVE_VALUES)

# A solve of a random position takes a few ms to ~0.2 s; the exhaustive search a few ms
# to ~1 s on the small positions. These counts keep the file under a minute on two cores;
# RUMMIKUB_TEST_SCALE=10 runs ten times as many examples.
LEGALITY = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
OPTIMALITY = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def assert_consistent(position: Position, result: SolveResult) -> None:
    """What every answer must satisfy, whatever the checker says about legality."""
    rules = position.rules
    assert result.proven, f"not proven without a time limit: {result.status}"
    assert result.position == position
    assert result.tiles == len(result.played)
    assert result.value == sum(rules.tile_value(t) for t in result.played)
    # The rack left is the old rack less the played tiles, and played tiles come from it.
    assert not Counter(result.played) - Counter(position.rack)
    assert Counter(result.rack) == Counter(position.rack) - Counter(result.played)
    # Conservation: the new table holds the old table's tiles and the played ones.
    new_tiles = Counter(t for m in result.table for t in m.tiles)
    assert new_tiles == position.table_tiles() + Counter(result.played)
    for meld in result.table:
        assert Meld.of(meld.tiles, kind=meld.kind, rules=rules) == meld, meld
    if result.status == "no_move":
        assert result.played == ()
        assert (result.value, result.tiles) == (0, 0)
        assert result.table == position.table
    else:
        assert result.played, "an answer other than no_move plays at least one tile"


def assert_legal(position: Position, result: SolveResult) -> None:
    assert_consistent(position, result)
    if result.status == "no_move":
        return
    verdict = check(position, result.table)
    assert verdict.legal, (str(result.table), verdict.errors)
    assert Counter(verdict.played) == Counter(result.played)
    assert verdict.value == result.value


# -- (a) every answer passes the checker ----------------------------------------------------


@LEGALITY
@given(positions(presets()), OBJECTIVES)
def test_answers_are_legal_under_presets(position: Position, objective: Objective) -> None:
    assert_legal(position, solve(position, objective=objective))


@LEGALITY
@given(positions(rule_sets(), jokers=True), OBJECTIVES)
def test_answers_are_legal_with_jokers_in_the_rack(
    position: Position, objective: Objective
) -> None:
    assert_legal(position, solve(position, objective=objective))


@LEGALITY
@given(positions(rule_sets(), opened=False, max_rack=14), OBJECTIVES)
def test_answers_are_legal_before_the_initial_meld(
    position: Position, objective: Objective
) -> None:
    assert_legal(position, solve(position, objective=objective))


# -- (b) optimality against the exhaustive search ---------------------------------------------


def assert_optimal(position: Position, objective: Objective) -> None:
    expected = best_move(position, objective)
    result = solve(position, objective=objective)
    assert_legal(position, result)
    if expected == NO_MOVE:
        assert result.status == "no_move", (result.value, result.tiles, result.table)
        return
    assert isinstance(expected, BestMove)
    assert result.status == "optimal", (
        f"solver says {result.status}, exhaustive finds {(expected.value, expected.tiles)} "
        f"by {[str(m) for m in expected.move.table]}"
    )
    found = (result.value, result.tiles)
    assert found == (expected.value, expected.tiles), (
        f"solver {found}, exhaustive {(expected.value, expected.tiles)} "
        f"by {[str(m) for m in expected.move.table]}"
    )
    unchanged = count_unchanged(position.table, result.table)
    assert unchanged == expected.unchanged, (
        f"solver leaves {unchanged} old melds as they were, exhaustive "
        f"{expected.unchanged} by {[str(m) for m in expected.move.table]}"
    )


# Positions where the solver once disagreed with the exhaustive search (found by the
# properties below and shrunk by hand), plus the hand-checked cases of test_exhaustive.py.
KNOWN_CASES: list[tuple[str, list[str], dict[str, Any]]] = [
    # A rack tile that fits no meld was counted as played.
    ("K1", [], {}),
    ("J", [], {}),
    ("K1 K9", ["R5 R6 R7"], {}),
    # Partly releasing a run with two jokers: the substitute takes one joker's place and
    # the freed joker goes to the same meld or another.
    ("K3", ["K1 K2 J J"], {}),
    ("K2", ["K1 J K3 J"], {}),
    ("K2", ["K1 J J"], {}),
    ("K2 R10", ["K1 J J", "R7 R8 R9"], {}),
    ("B5", ["K5 R5 J J"], {}),
    # Hand-checked in test_exhaustive.py.
    ("R4 K7 O7", ["R1 R2 R3", "K7 R7 B7", "B9 B10 J"], {}),
    ("K1 K2 K4 R4 R5", ["K3 R3 B3 O3"], {}),
    ("R7", ["R1 R2 R3", "R4 R5 R6"], {}),
    ("R1", ["R2 R3 R4", "R5 R6 R7"], {}),
    ("R3 R4 K8", ["K9 K10 K11 J"], {}),
    ("R3 R4 K8", ["K9 K10 K11 J"], {"joker_lock": "free"}),
    ("K12 R3 R4", ["K9 K10 K11 J"], {}),
    ("R3 R4", ["K9 K10 K11 J", "K12 R12 B12 O12"], {"joker_swap_from": "rack_or_table"}),
    ("B5 R1 R2", ["K5 R5 J"], {"group_joker_release": "both"}),
    ("B5 O5 R1 R2", ["K5 R5 J"], {"group_joker_release": "both"}),
    ("K10 K11 K12 R1", ["R2 R3 R4"], {"opened": False}),
    ("K10 K11 K12 R1", ["R2 R3 R4"], {"opened": False, "open_then_play": False}),
    ("K9 K10 J", [], {"opened": False}),
    ("R1 R5 K1 K2 K3", ["R2 R3 R4"], {"opened": False, "initial_meld": 0}),
]


@pytest.mark.parametrize("objective", ["value", "tiles"])
@pytest.mark.parametrize(
    ("rack", "table", "options"),
    KNOWN_CASES,
    ids=[f"{rack} | {' / '.join(table)} {opts or ''}".strip() for rack, table, opts in KNOWN_CASES],
)
def test_solver_is_optimal_on_known_cases(
    rack: str, table: list[str], options: dict[str, Any], objective: Objective
) -> None:
    rule_options = {k: v for k, v in options.items() if k != "opened"}
    position = Position.parse(
        rack=rack,
        table=table,
        opened=options.get("opened", True),
        rules=Rules().replace(**rule_options),
    )
    assert_optimal(position, objective)


# Positions whose root LP keeps more old melds as they were (tie-break 3) than any move
# can, so that the branch and bound must branch (5-17 nodes) to prove the third level: the
# search's choice of branching variable and order is exercised where it decides the proof.
# Found by a random search over small dense boxes (numbers x colors x 2 copies).
BRANCHING_CASES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("R2 J R2 O1", ["K3 K4 K5 K6", "B5 K5 O5 R5", "B4 K4 O4"], {"numbers": 8, "copies": 2}),
    (
        "O3 R7 R8 R1 R1 R4 K5",
        ["K6 O6 R6", "K6 K7 K8", "B6 B7 B8", "K2 K3 K4"],
        {"numbers": 8, "copies": 2},
    ),
    (
        "K4 R7 O4 K7",
        ["K2 O2 R2", "O5 O6 O7 O8", "O1 O2 O3", "B4 O4 R4"],
        {"numbers": 8, "copies": 2},
    ),
    (
        "B4 B2 R6 R4 B6 B3 B5",
        ["B5 K5 R5", "B1 K1 R1", "K2 K3 K4 K5 K6 K7", "B2 B3 B4 J B6"],
        {"numbers": 7, "colors": "KRB", "copies": 2, "jokers": 1},
    ),
    (
        "K3 B2 B7 B8 O7",
        ["K5 K6 K7", "K8 O8 R8", "K4 K5 K6 K7 K8", "B4 K4 O4 R4"],
        {"numbers": 9, "copies": 2, "jokers": 0},
    ),
    (
        "O6 B1 R9 R8 O4",
        ["K5 O5 R5", "B6 K6 O6 R6", "B5 O5 R5", "B4 K4 O4 R4", "B7 K7 O7 R7"],
        {"numbers": 9, "copies": 2, "jokers": 0},
    ),
    (
        "B9 O5 O6 O2 K8",
        ["B4 O4 R4", "B5 B6 B7 B8 B9", "K4 K5 K6", "O6 O7 O8"],
        {"numbers": 9, "copies": 2, "jokers": 0},
    ),
]


@pytest.mark.parametrize("objective", ["value", "tiles"])
@pytest.mark.parametrize(
    ("rack", "table", "options"),
    BRANCHING_CASES,
    ids=[f"{rack} | {' / '.join(table)}" for rack, table, _ in BRANCHING_CASES],
)
def test_solver_proves_the_kept_melds_where_it_branches(
    rack: str, table: list[str], options: dict[str, Any], objective: Objective
) -> None:
    position = Position.parse(rack=rack, table=table, rules=Rules().replace(**options))
    assert_optimal(position, objective)


# Positions whose search branches on the number of groups laid of a number (see
# solver/search.py, Aggregate) to close a gap on the value, against the exhaustive search:
# shrunk from `mid` positions while the search still did (the second takes 26 nodes).
AGGREGATE_CASES: list[tuple[str, list[str]]] = [
    ("B6 K12", ["B6 K6 O6 R6", "B12 O12 R12"]),
    ("R4 K8 R8 O10 O11 R5 O5 K13 K6 B11 R6", ["B13 R13 J", "O6 O7 O8 O9"]),
]


@pytest.mark.parametrize("objective", ["value", "tiles"])
@pytest.mark.parametrize(
    ("rack", "table"),
    AGGREGATE_CASES,
    ids=[f"{rack} | {' / '.join(t)}" for rack, t in AGGREGATE_CASES],
)
def test_solver_is_optimal_where_it_branches_on_groups_laid(
    rack: str, table: list[str], objective: Objective
) -> None:
    assert_optimal(Position.parse(rack=rack, table=table), objective)


@OPTIMALITY
@given(small_positions(), OBJECTIVES)
def test_solver_is_optimal_on_random_small_positions(
    position: Position, objective: Objective
) -> None:
    assert_optimal(position, objective)


@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    positions(
        small_rule_sets(), max_melds=5, max_table_tiles=15, max_run=5, max_rack=7, min_rack=1
    ),
    OBJECTIVES,
)
def test_solver_is_optimal_on_larger_positions(position: Position, objective: Objective) -> None:
    # Up to 15 table tiles and 7 in the rack: more room for rearrangements (the exhaustive
    # search takes ~15 ms on average here, up to a few seconds).
    assert_optimal(position, objective)


# Every value of every rule option, the rest drawn at random: each gets examples of its own
# rather than relying on the random mix to reach it.
OPTION_VALUES: list[tuple[str, Any]] = [
    ("joker_lock", "strict"),
    ("joker_lock", "free"),
    ("joker_swap_from", "rack"),
    ("joker_swap_from", "rack_or_table"),
    ("group_joker_release", "either"),
    ("group_joker_release", "both"),
    ("open_then_play", True),
    ("open_then_play", False),
    ("initial_meld", 0),
    ("initial_meld", 10),
    ("initial_meld", 21),
]


@pytest.mark.parametrize(("option", "value"), OPTION_VALUES)
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_solver_is_optimal_for_every_rule_option(
    option: str, value: Any, data: st.DataObject
) -> None:
    rules: Rules = data.draw(
        small_rule_sets(jokers=st.integers(1, 2)).map(lambda r: r.replace(**{option: value}))
    )
    # The initial meld options only matter before opening; joker options in both states.
    opened = False if option in ("open_then_play", "initial_meld") else None
    position = data.draw(small_positions(st.just(rules), opened=opened))
    objective = data.draw(OBJECTIVES)
    assert_optimal(position, objective)


# -- relaxing a rule never lowers the best score ------------------------------------------------

#: (option, stricter value, looser value): every move legal under the first is legal under
#: the second, so the best score (a lexicographic maximum) cannot drop.
RELAXATIONS: list[tuple[str, Any, Any]] = [
    ("joker_lock", "strict", "free"),
    ("joker_swap_from", "rack", "rack_or_table"),
    ("group_joker_release", "both", "either"),
    ("open_then_play", False, True),
    ("initial_meld", 30, 10),
    ("initial_meld", 10, 0),
]


def score(result: SolveResult) -> tuple[int, int, int]:
    """The solver's answer ranked as RULES.md "The best move" ranks moves."""
    unchanged = count_unchanged(result.position.table, result.table)
    if result.objective == "tiles":
        return (result.tiles, result.value, unchanged)
    return (result.value, result.tiles, unchanged)


@pytest.mark.parametrize(("option", "strict", "loose"), RELAXATIONS)
@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_relaxing_a_rule_never_lowers_the_best_score(
    option: str, strict: Any, loose: Any, data: st.DataObject
) -> None:
    rules = data.draw(rule_sets()).replace(**{option: strict})
    opened = False if option in ("open_then_play", "initial_meld") else None
    position = data.draw(positions(st.just(rules), opened=opened, max_rack=10))
    objective = data.draw(OBJECTIVES)
    looser = Position(
        position.table, position.rack, position.opened, rules.replace(**{option: loose})
    )
    assert score(solve(looser, objective=objective)) >= score(solve(position, objective=objective))


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(max_rack=10), OBJECTIVES, st.data())
def test_opening_or_a_new_rack_tile_never_lowers_the_best_score(
    position: Position, objective: Objective, data: st.DataObject
) -> None:
    base = score(solve(position, objective=objective))
    if not position.opened:
        opened = Position(position.table, position.rack, True, position.rules)
        assert score(solve(opened, objective=objective)) >= base
    spare = sorted(
        (box(position.rules) - position.table_tiles() - position.rack_tiles()).elements(),
        key=position.rules.sort_key,
    )
    if spare:
        tile = data.draw(st.sampled_from(spare))
        richer = Position(position.table, (*position.rack, tile), position.opened, position.rules)
        assert score(solve(richer, objective=objective)) >= base


# -- four jokers and release cycles (issue 16) ------------------------------------------------


@pytest.mark.parametrize(("option", "value"), [*OPTION_VALUES, ("jokers", 4)])
@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_answers_pass_the_checker_under_every_rule_option(
    option: str, value: Any, data: st.DataObject
) -> None:
    # Boxes of up to four jokers, racks of up to three: every answer is a legal move.
    rules: Rules = data.draw(
        option_rule_sets(numbers=st.integers(5, 13), colors=st.integers(3, 6)).map(
            lambda r: r.replace(**{option: value})
        )
    )
    opened = False if option in ("open_then_play", "initial_meld") else None
    position = data.draw(positions(st.just(rules), opened=opened, max_rack=8, max_rack_jokers=3))
    assert_legal(position, solve(position, objective=data.draw(OBJECTIVES)))


def test_an_opening_that_frees_a_table_joker_is_laid_as_the_lock_allows() -> None:
    """Found by a CI run of the test above. Not opened, ``open_then_play``: the opening is
    ``B6 B7 B8`` and ``B9 B10 J`` (51); C1 frees a joker of ``A1 J J``, which joins the
    free B6 B7 B8; B3 extends the old run. The layout used to join the opening's locked
    ``B9 B10 J`` to the old locked run as if it were a free run, one meld for two locked
    units, which the checker refused (40 of the 50 counted)."""
    rules = Rules(numbers=11, colors="ABC", copies=2, jokers=4, initial_meld=50, joker_value=0)
    position = Position.parse(
        rack="J B6 B7 B8 B9 B10 C1 B3",
        table=["group: A1 J J", "J B5 B6 B7 B8"],
        opened=False,
        rules=rules,
    )
    result = solve(position)
    assert (result.value, result.tiles) == (44, 8)
    assert_legal(position, result)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(four_joker_positions(), OBJECTIVES)
def test_solver_is_optimal_with_four_jokers(position: Position, objective: Objective) -> None:
    assert_optimal(position, objective)


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(release_cycle_positions(), OBJECTIVES)
def test_solver_is_optimal_on_release_cycles(position: Position, objective: Objective) -> None:
    assert_optimal(position, objective)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(just_laid_joker_positions(), OBJECTIVES)
def test_solver_is_optimal_releasing_a_just_laid_joker(
    position: Position, objective: Objective
) -> None:
    # A free table tile may release a joker the player has just laid in the initial meld.
    assert_optimal(position, objective)
