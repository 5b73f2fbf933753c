"""The quick pass of ``Position.check_built`` (melds checked once per rule set, then
remembered): it accepts what the full check accepts, and never what it refuses."""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchmarks.corpora import CORPORA
from rummikub.core.errors import PositionError
from rummikub.tiles import position as position_module
from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Position
from rummikub.tiles.rules import STANDARD
from rummikub.tiles.tiles import JOKER, Tile, parse_tiles

SOUND = Position.parse(rack="R4 K7 O7 J", table=["R1 R2 R3", "K7 R7 B7", "B5 B6 J"])


@pytest.fixture(autouse=True)
def forgotten() -> None:
    """Each test starts with nothing remembered."""
    position_module._SOUND.clear()
    position_module._SOUND_MELDS.clear()


def test_the_quick_pass_accepts_sound_positions() -> None:
    cases = [case.position for name in ("game", "presets") for case in CORPORA[name].cases(1)]
    for position in cases[:60]:
        position._check_built()  # sound, by the full check
        assert position._looks_sound(), position


def _twins() -> list[Position]:
    """Positions like SOUND, each with one thing wrong, whose melds the quick pass knows."""
    r1 = Tile("R", 1)
    return [
        # a tile used too often: a third R1 in the rack
        replace(SOUND, rack=(*SOUND.rack, r1, r1)),
        # a third joker, in a box of two
        replace(SOUND, rack=(*SOUND.rack, JOKER, JOKER)),
        # a rack tile outside the box
        replace(SOUND, rack=(*SOUND.rack, Tile("R", 14))),
        replace(SOUND, rack=(*SOUND.rack, Tile("X", 3))),
        # a tile number of the wrong type, equal to a sound tile
        replace(SOUND, rack=(Tile("R", 4.0), *SOUND.rack[1:])),  # type: ignore[arg-type]
        replace(SOUND, rack=(Tile("R", True), *SOUND.rack[1:])),
        # the same, inside a meld equal to a remembered one
        replace(
            SOUND,
            table=(Meld("run", (Tile("R", 1.0), Tile("R", 2), Tile("R", 3))), *SOUND.table[1:]),  # type: ignore[arg-type]
        ),
        # a meld that is not valid, a run out of order, a kind that is neither
        replace(SOUND, table=(Meld("run", parse_tiles("R1 R5 R9")), *SOUND.table[1:])),
        replace(SOUND, table=(Meld("run", parse_tiles("R3 R2 R1")), *SOUND.table[1:])),
        replace(SOUND, table=(Meld("pair", parse_tiles("R1 R2 R3")), *SOUND.table[1:])),  # type: ignore[arg-type]
        # fields of the wrong type
        replace(SOUND, table=list(SOUND.table)),  # type: ignore[arg-type]
        replace(SOUND, opened="yes"),  # type: ignore[arg-type]
        # two jokers in play, under rules with one
        replace(SOUND, rules=STANDARD.replace(jokers=1)),
    ]


@pytest.mark.parametrize("twin", _twins())
def test_the_quick_pass_refuses_what_the_full_check_refuses(twin: Position) -> None:
    SOUND.check_built()  # its melds are now remembered
    assert SOUND._looks_sound()
    with pytest.raises((PositionError, TypeError)):
        twin._check_built()
    assert not twin._looks_sound()
    # (A position equal to one found sound passes at once, by design: forget it first.)
    position_module._SOUND.clear()
    with pytest.raises((PositionError, TypeError)):
        twin.check_built()
