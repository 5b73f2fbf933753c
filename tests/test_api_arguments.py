"""The tile, analysis and explanation APIs check what they are given (issue 27): a wrong type
raises TypeError, a bad value ValueError, each with one line naming the argument; a finite
time limit however large is a time limit, never an OverflowError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rummikub import (
    STANDARD,
    Meld,
    Position,
    RawMeld,
    Step,
    Tile,
    check,
    explain,
    replay,
    solve,
)
from rummikub.core import deadline
from rummikub.tiles.analysis import analyse
from rummikub.tiles.analysis.moves import top_moves

POSITION = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7"])
R = Tile.parse


def strings_position() -> Position:
    return Position((), ("R1", "R2", "R3"), True, STANDARD)  # type: ignore[arg-type]


CASES: list[tuple[Callable[[], Any], type[Exception], str]] = [
    (
        lambda: explain(POSITION, "garbage"),  # type: ignore[arg-type]
        TypeError,
        r"^explain\(\) takes a Move or the new table as a list of melds .*got str 'garbage'$",
    ),
    (lambda: explain("R1", []), TypeError, r"^explain\(\) takes a Position"),  # type: ignore[arg-type]
    (
        lambda: explain(POSITION, [Meld("run", ("R1", "R2", "R3"))]),  # type: ignore[arg-type]
        TypeError,
        r"^new table\[0\] holds str 'R1', which is not a Tile",
    ),
    (
        lambda: explain(POSITION, [RawMeld.parse("R1 R2 R3 R4")]),  # type: ignore[list-item]
        TypeError,
        r"^new table\[0\] must be a Meld \(e\.g\. Meld\.parse\('R1 R2 R3'\)\), got RawMeld",
    ),
    (
        lambda: Meld.parse("R1 R2 R3", rules="x"),  # type: ignore[arg-type]
        TypeError,
        r"^rules must be a Rules \(e\.g\. preset\('standard'\)\), got str 'x'$",
    ),
    (
        lambda: Meld.of((R("R1"), R("R2"), R("R3")), rules=None),  # type: ignore[arg-type]
        TypeError,
        r"^rules must be a Rules",
    ),
    (
        lambda: Position.parse(rack="R1", rules="standard"),  # type: ignore[arg-type]
        TypeError,
        r"^rules must be a Rules \(e\.g\. preset\('standard'\)\), got str 'standard'$",
    ),
    (
        lambda: check(POSITION, [RawMeld(("R1", "R2", "R3"))]),  # type: ignore[arg-type]
        TypeError,
        r"^new table\[0\] holds str 'R1', which is not a Tile",
    ),
    (
        lambda: check(POSITION, [Meld("run", ("R1", "R2", "R3"))]),  # type: ignore[arg-type]
        TypeError,
        r"^new table\[0\] holds str 'R1', which is not a Tile",
    ),
    (
        lambda: check(strings_position(), [RawMeld.parse("R1 R2 R3")]),
        TypeError,
        r"^Position\.rack holds str 'R1', which is not a Tile",
    ),
    (
        lambda: check(POSITION, ["R1 R2 R3"]),  # type: ignore[list-item]
        TypeError,
        r"^new table\[0\] must be a Meld",
    ),
    (
        lambda: analyse(POSITION, top=1.5),  # type: ignore[arg-type]
        TypeError,
        r"^top must be a whole number, got float 1\.5$",
    ),
    (lambda: analyse(POSITION, top=True), TypeError, r"^top must be a whole number"),
    (lambda: analyse(POSITION, top=0), ValueError, r"^top=0 must be at least 1$"),
    (lambda: analyse(POSITION, outs="yes"), TypeError, r"^outs must be True or False"),  # type: ignore[arg-type]
    (lambda: analyse(POSITION, hold=1), TypeError, r"^hold must be True or False"),  # type: ignore[arg-type]
    (lambda: analyse(POSITION, time_limit=-1), ValueError, r"^time_limit=-1 must be a finite"),
    (lambda: top_moves(POSITION, "3"), TypeError, r"^k must be a whole number"),  # type: ignore[arg-type]
    (
        lambda: replay(None, []),  # type: ignore[arg-type]
        TypeError,
        r"^replay\(\) takes the old table as a list of melds, got NoneType$",
    ),
    (
        lambda: replay([], None),  # type: ignore[arg-type]
        TypeError,
        r"^replay\(\) takes the steps as a list of Step, got NoneType$",
    ),
    (lambda: replay([], ["x"]), TypeError, r"^step 1 must be a Step, got str$"),  # type: ignore[list-item]
]


@pytest.mark.parametrize(("call", "error", "message"), CASES)
def test_the_api_checks_its_arguments(
    call: Callable[[], Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as caught:
        call()
    assert "\n" not in str(caught.value)


def test_a_huge_finite_time_limit_is_a_time_limit() -> None:
    for limit in (1e300, 1e18, 2**70):
        result = solve(POSITION, time_limit=limit)
        assert result.status == "optimal" and result.value == 11
    assert analyse(POSITION, time_limit=1e300).moves[0].value == 11
    assert deadline.capped(1e300) == deadline.MAX_SECONDS and deadline.capped(0.5) == 0.5


def test_a_huge_time_limit_in_the_card_solver() -> None:
    from rummikub.cards import CardPosition, parse_cards, preset, read_meld
    from rummikub.cards import solve as solve_cards

    rummy = preset("rummy")
    position = CardPosition(rummy, parse_cards("7S 8S 9S KH 2C"), (read_meld("7H 7D 7C", rummy),))
    assert solve_cards(position, time_limit=1e300).best.points == 24


def test_good_arguments_still_work() -> None:
    moves = analyse(POSITION, top=2, outs=False, hold=True)
    assert [m.value for m in moves.moves] == [11, 7]
    after = [Meld.parse("R1 R2 R3 R4"), Meld.parse("K7 R7 B7 O7")]
    assert explain(POSITION, after).steps
    assert check(POSITION, [RawMeld.parse("R1 R2 R3 R4"), RawMeld.parse("K7 R7 B7 O7")]).legal
    step = Step((R("R4"),), "rack", 0)
    assert [str(t) for t in replay([Meld.parse("R1 R2 R3")], iter([step]))[0]][-1] == "R4"
