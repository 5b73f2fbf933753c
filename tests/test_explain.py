"""Explanations: origins of every tile, aftermaths of old melds, steps that replay the move.

(a) Replaying the steps of every explanation (of solver answers on random positions, and of
    moves built from their definition) gives exactly the new table, taking exactly the
    played tiles from the rack; origins conserve every tile; unchanged melds are reported
    unchanged and never touched; one step per source and destination.
(b) Golden texts for a few positions, from the library and through the command line.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import rummikub.tiles.solver
from rummikub.cli import main
from rummikub.tiles.explain import (
    NEW,
    RACK,
    ExplainError,
    Explanation,
    ReplayError,
    Step,
    aftermath_words,
    explain,
    plain,
    replay,
)
from rummikub.tiles.melds import Meld
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver import SolveResult, solve
from rummikub.tiles.tiles import Tile, parse_tiles
from tests.strategies import examples, positions, presets, rule_sets, tables

TWO_TILES = "puzzles/basics/two-tiles-fit.toml"


def melds(*texts: str) -> list[Meld]:
    return [Meld.parse(text) for text in texts]


def multisets(groups: Sequence[Sequence[Tile]]) -> Counter[tuple[str, ...]]:
    """Melds as multisets of tiles (empty ones left out)."""
    return Counter(tuple(sorted(str(t) for t in tiles)) for tiles in groups if tiles)


def assert_explains(position: Position, new: Sequence[Meld], explanation: Explanation) -> None:
    """Everything an explanation of the move from ``position`` to ``new`` must satisfy."""
    old = position.table
    played = Counter(t for m in new for t in m.tiles) - position.table_tiles()
    steps = explanation.steps

    # Replaying the steps gives the new table, and takes exactly the played tiles.
    after = replay(old, steps, rack=position.rack)
    assert multisets(after) == multisets([m.tiles for m in new])
    assert Counter(t for s in steps if s.source == RACK for t in s.tiles) == played
    assert Counter(explanation.played) == played

    # Numbering: "new" starts the next number; no step goes from a meld to itself, and
    # tiles from one source to one meld move in one step.
    count = len(old)
    seen: set[tuple[object, int]] = set()
    for number, step in enumerate(steps, start=1):
        assert step.tiles and step.text
        for tile in step.tiles:
            assert str(tile) in step.text
        target = count if step.target == NEW else step.target
        assert isinstance(target, int) and target <= count
        count += step.target == NEW
        assert (step.source, target) not in seen, f"two steps from {step.source} to {target}"
        seen.add((step.source, target))
        for later in re.findall(r"until step (\d+)|used up in step (\d+)", step.text):
            assert number < int("".join(later)) <= len(steps)

    # Origins conserve every tile: each new meld is the sum of its origins; each old meld
    # gave all its tiles; the rack gave the played ones.
    given: Counter[object] = Counter()
    by_source: dict[object, Counter[Tile]] = {}
    for change, meld in zip(explanation.changes, new, strict=True):
        assert change.meld == meld
        assert len(change.sources()) == len(meld.tiles)
        assert Counter(t for o in change.origins for t in o.tiles) == Counter(meld.tiles)
        for origin in change.origins:
            by_source.setdefault(origin.source, Counter()).update(origin.tiles)
            given[origin.source] += len(origin.tiles)
        if change.old is not None:
            assert change.number == change.old
        else:
            assert change.number >= len(old) and change.kind == "new"
    for number, meld in enumerate(old):
        assert by_source.get(number, Counter()) == Counter(meld.tiles)
    assert by_source.get(RACK, Counter()) == played
    assert sorted(c.number for c in explanation.changes if c.old is None) == list(
        range(len(old), count)
    )

    # Aftermaths agree with the changes: kept plus given away is the old meld.
    for fate in explanation.aftermaths:
        gave = Counter(t for transfer in fate.gave for t in transfer.tiles)
        if fate.into is None:
            assert fate.kind in ("broken_up", "joker_released")
            assert gave == Counter(fate.meld.tiles)
            continue
        change = explanation.changes[fate.into]
        assert change.old == fate.number
        kept = Counter(change.origins[0].tiles)
        assert kept + gave == Counter(fate.meld.tiles)
        added = Counter(t for origin in fate.added for t in origin.tiles)
        assert kept + added == Counter(change.meld.tiles)
        assert (fate.kind == "extended") == (not gave and bool(added) and not fate.released)

    # Unchanged melds: as many as can be paired with an identical new meld, never touched.
    identical = Counter(map(Meld.identity, old)) & Counter(map(Meld.identity, new))
    unchanged = [f for f in explanation.aftermaths if f.kind == "unchanged"]
    assert len(unchanged) == sum(identical.values())
    touched = {s.source for s in steps} | {s.target for s in steps}
    for fate in unchanged:
        assert fate.number not in touched
        assert fate.meld.same_as(new[fate.into or 0])

    # An extended meld receives exactly its new tiles, and gives nothing.
    for change in explanation.changes:
        if change.kind == "extended":
            into = [s for s in steps if s.target == change.number]
            assert Counter(t for s in into for t in s.tiles) == Counter(
                change.meld.tiles
            ) - Counter(position.table[change.number].tiles)
            assert all(s.source != change.number for s in steps)

    # The JSON form replays just as well.
    data = json.loads(json.dumps(explanation.to_data()))
    again = replay(old, [Step.from_data(s) for s in data["steps"]], rack=position.rack)
    assert multisets(again) == multisets(after)


# -- (a) properties -----------------------------------------------------------------------

# A solve of a random preset position takes a few ms to ~0.2 s.
SOLVED = settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@SOLVED
@given(positions(presets(), opened=True, max_melds=5, max_rack=10, min_rack=3))
def test_every_solver_answer_replays(position: Position) -> None:
    result = solve(position, time_limit=10)
    assert_explains(position, result.table, explain(position, result.move))


@SOLVED
@given(positions(presets(), opened=True, max_melds=4, max_rack=8, min_rack=3, jokers=True))
def test_every_solver_answer_replays_with_jokers_in_play(position: Position) -> None:
    result = solve(position, time_limit=10)
    assert_explains(position, result.table, explain(position, result.move))


def _pieces(draw: st.DrawFn, length: int, *, keep_all: bool) -> list[range]:
    """Disjoint windows of 3+ positions of a meld of ``length`` tiles: all of it, or split in
    two where the meld is long enough; unless ``keep_all``, also one window or none."""
    options = ["whole"]
    if length >= 6:
        options.append("split")
    if not keep_all:
        options += ["window", "none"]
    choice = draw(st.sampled_from(options))
    if choice == "whole":
        return [range(length)]
    if choice == "split":
        cut = draw(st.integers(3, length - 3))
        return [range(cut), range(cut, length)]
    if choice == "none":
        return []
    size = draw(st.integers(3, length))
    start = draw(st.integers(0, length - size))
    return [range(start, start + size)]


def _piece(meld: Meld, positions: range) -> Meld | None:
    tiles = tuple(meld.tiles[i] for i in positions)
    if all(t.is_joker for t in tiles):
        return None
    return Meld(meld.kind, tiles)


@st.composite
def built_moves(draw: st.DrawFn) -> tuple[Position, list[Meld], int]:
    """A move from its definition: every meld of a base table appears on the new table whole
    or split in two; the old table holds windows of them (or splits, or nothing), and the
    rack the rest. Also returns the steps a plain plan needs (an upper bound)."""
    rules: Rules = draw(rule_sets())
    base = draw(tables(rules, max_melds=5))
    old: list[Meld] = []
    new: list[Meld] = []
    rack: list[Tile] = []
    bound = 0
    # The base meld each old and new meld comes from.
    old_base: list[int] = []
    new_base: list[int] = []
    for number, meld in enumerate(base):
        # Groups keep their tiles in any order, so only runs are split.
        new_pieces = _pieces(draw, len(meld.tiles), keep_all=True) if meld.kind == "run" else []
        new_pieces = new_pieces or [range(len(meld.tiles))]
        old_pieces = _pieces(draw, len(meld.tiles), keep_all=False)
        made = [_piece(meld, p) for p in new_pieces]
        was = [_piece(meld, p) for p in old_pieces]
        if None in made or None in was:
            made, was = [meld], []
            new_pieces, old_pieces = [range(len(meld.tiles))], []
        new += [m for m in made if m]
        old += [m for m in was if m]
        new_base += [number for m in made if m]
        old_base += [number for m in was if m]
        covered = {i for p in old_pieces for i in p}
        rack += [meld.tiles[i] for i in range(len(meld.tiles)) if i not in covered]
        bound += _plain_steps(old_pieces, new_pieces, len(meld.tiles))
    # The explainer never touches a meld the new table holds unchanged, so an old meld
    # identical to a new meld from another base meld stays in place, and the plain plan,
    # which moves it, is then no bound.
    assume(
        not any(
            o.same_as(n) and ob != nb
            for o, ob in zip(old, old_base, strict=True)
            for n, nb in zip(new, new_base, strict=True)
        )
    )
    old = draw(st.permutations(old))
    new = draw(st.permutations(new))
    return Position(tuple(old), tuple(rack), True, rules), new, bound


def _plain_steps(old: list[range], new: list[range], length: int) -> int:
    """Steps of the plain plan: one per (source, destination) pair, less the pairs whose old
    piece stays in place (the best one-to-one choice)."""
    pairs: set[tuple[int, int]] = set()
    for i in range(length):
        source = next((k for k, p in enumerate(old) if i in p), -1)  # -1: the rack
        pairs.add((source, next(k for k, p in enumerate(new) if i in p)))
    best = 0
    for chosen in itertools.permutations(range(len(new)), min(len(old), len(new))):
        best = max(best, sum((k, j) in pairs for k, j in enumerate(chosen)))
    return len(pairs) - best


@settings(max_examples=examples(300), deadline=None)
@given(built_moves())
def test_every_built_move_replays_in_at_most_the_plain_plans_steps(
    built: tuple[Position, list[Meld], int],
) -> None:
    position, new, bound = built
    explanation = explain(position, Move(tuple(new), position.rack))
    assert_explains(position, new, explanation)
    assert len(explanation.steps) <= bound


# -- (b) golden texts ---------------------------------------------------------------------


def test_an_extension_is_one_step_per_meld_and_unchanged_melds_are_untouched() -> None:
    position = Position.parse(rack="R4 K7 O7", table=["R1 R2 R3", "K7 R7 B7", "B9 B10 J"])
    # The new table lists the melds in another order; the pairing does not care.
    new = melds("B9 B10 J", "K7 R7 B7 O7", "R1 R2 R3 R4")
    explanation = explain(position, new)
    assert explanation.text() == (
        '1. Add R4 from your rack to "R1 R2 R3" (now "R1 R2 R3 R4").\n'
        '2. Add O7 from your rack to "K7 R7 B7" (now "K7 R7 B7 O7").'
    )
    assert [(c.number, c.kind) for c in explanation.changes] == [
        (2, "unchanged"),
        (1, "extended"),
        (0, "extended"),
    ]
    assert [(f.kind, f.into) for f in explanation.aftermaths] == [
        ("extended", 2),
        ("extended", 1),
        ("unchanged", 0),
    ]
    assert explanation.to_data()["changes"][2] == {
        "meld": 0,
        "change": "extended",
        "tiles": ["R1", "R2", "R3", "R4"],
        "from": [0, 0, 0, "rack"],
    }
    assert_explains(position, new, explanation)


def test_a_tile_taken_from_a_group_starts_a_new_meld() -> None:
    position = Position.parse(rack="K5 K6", table=["K7 R7 B7 O7"])
    new = melds("K5 K6 K7", "R7 B7 O7")
    explanation = explain(position, new)
    assert explanation.text() == (
        '1. Take K7 from "K7 R7 B7 O7" (leaves "R7 B7 O7") to start a new meld.\n'
        '2. Lay "K5 K6 K7" from your rack (K5 K6) and the K7.'
    )
    assert [s.to_data() for s in explanation.steps] == [
        {"tiles": ["K7"], "from": 0, "to": "new", "text": explanation.steps[0].text},
        {"tiles": ["K5", "K6"], "from": "rack", "to": 1, "text": explanation.steps[1].text},
    ]
    [fate] = explanation.aftermaths
    assert (fate.kind, fate.into, [(t.to, t.tiles) for t in fate.gave]) == (
        "rearranged",
        1,
        [(0, (Tile.parse("K7"),))],
    )
    assert_explains(position, new, explanation)


def test_joker_release() -> None:
    position = Position.parse(rack="R6 K5 K6", table=["R5 J R7"])
    new = melds("R5 R6 R7", "K5 K6 J")
    explanation = explain(position, new)
    # The joker is replaced before it is taken, and lies beside its meld in between.
    assert explanation.text() == (
        '1. Put R6 from your rack in place of the J in "R5 J R7" (now "R5 R6 R7" + J).\n'
        '2. Take J from "R5 R6 R7" + J (leaves "R5 R6 R7") to start a new meld.\n'
        '3. Lay "K5 K6 J" from your rack (K5 K6) and the J.'
    )
    [fate] = explanation.aftermaths
    assert fate.kind == "joker_released"
    [release] = fate.released
    assert (release.stood_for, release.by, release.source) == (
        Tile.parse("R6"),
        Tile.parse("R6"),
        RACK,
    )
    assert [str(t) for t in explanation.changes[1].meld.tiles] == ["K5", "K6", "J"]
    assert explanation.changes[1].sources() == (RACK, RACK, 0)
    [remark] = aftermath_words(explanation, fate)
    assert plain(remark) == 'The J of "R5 J R7" is freed by R6 from your rack.'
    # Tiles stay apart from the prose, so that a renderer can color them.
    assert [w for w in remark if isinstance(w, Tile)] == [*parse_tiles("R5 J R7"), Tile.parse("R6")]
    assert_explains(position, new, explanation)


def test_a_replaced_joker_is_picked_up_at_once() -> None:
    # Adding B3 harms no meld, taking the J starts an incomplete one: B3 would come first,
    # but a swap reads as one move.
    position = Position.parse(rack="R6 K5 K6 B3", table=["R5 J R7", "K7 R7 B7 O7", "B4 B5 B6"])
    new = melds("R5 R6 R7", "K7 R7 B7 O7", "B3 B4 B5 B6", "K5 K6 J")
    explanation = explain(position, new)
    assert explanation.text() == (
        '1. Put R6 from your rack in place of the J in "R5 J R7" (now "R5 R6 R7" + J).\n'
        '2. Take J from "R5 R6 R7" + J (leaves "R5 R6 R7") to start a new meld.\n'
        '3. Lay "K5 K6 J" from your rack (K5 K6) and the J.\n'
        '4. Add B3 from your rack to "B4 B5 B6" (now "B3 B4 B5 B6").'
    )
    assert_explains(position, new, explanation)


def test_a_joker_that_stays_but_stands_for_another_tile_is_released() -> None:
    position = Position.parse(rack="R6", table=["R5 J R7"])
    explanation = explain(position, melds("J R5 R6 R7"))
    assert explanation.text() == (
        '1. Put R6 from your rack in place of the J in "R5 J R7" (now "J R5 R6 R7").'
    )
    assert explanation.aftermaths[0].kind == "joker_released"
    # A joker that keeps its place and meaning stays locked: not released.
    extended = explain(Position.parse(rack="R8", table=["R5 J R7"]), melds("R5 J R7 R8"))
    assert [f.kind for f in extended.aftermaths] == ["extended"]


def test_group_joker_release_and_a_meld_broken_up() -> None:
    position = Position.parse(rack="B7 O7 K5 K6", table=["K7 R7 J"])
    new = melds("K7 R7 B7 O7", "K5 K6 J")
    explanation = explain(position, new)
    assert explanation.text() == (
        '1. Put B7 from your rack in place of the J in "K7 R7 J", and add O7 '
        '(now "K7 R7 B7 O7" + J).\n'
        '2. Take J from "K7 R7 B7 O7" + J (leaves "K7 R7 B7 O7") to start a new meld.\n'
        '3. Lay "K5 K6 J" from your rack (K5 K6) and the J.'
    )
    assert explanation.aftermaths[0].released[0].by == Tile.parse("B7")
    merged = Position.parse(rack="R8", table=["R1 R2 R3 R4", "R5 R6 R7"])
    joined = explain(merged, melds("R1 R2 R3 R4 R5 R6 R7 R8"))
    assert joined.text() == (
        '1. Move R5 R6 R7 from "R5 R6 R7" (all of it) to "R1 R2 R3 R4" '
        '(now "R1 R2 R3 R4 R5 R6 R7").\n'
        '2. Add R8 from your rack to "R1 R2 R3 R4 R5 R6 R7" (now "R1 R2 R3 R4 R5 R6 R7 R8").'
    )
    assert [f.kind for f in joined.aftermaths] == ["extended", "broken_up"]
    [remark] = aftermath_words(joined, joined.aftermaths[1])
    assert plain(remark) == ('"R5 R6 R7" is broken up: R5 R6 R7 to "R1 R2 R3 R4 R5 R6 R7 R8".')


def test_melds_left_invalid_for_a_while_say_until_when() -> None:
    # Three groups become three runs: every order leaves melds invalid for a while.
    position = Position.parse(rack="K8", table=["K5 R5 B5", "K6 R6 B6", "K7 R7 B7"])
    new = melds("K5 K6 K7 K8", "R5 R6 R7", "B5 B6 B7")
    explanation = explain(position, new)
    assert len(explanation.steps) == 7  # each run keeps one tile in place, gets two moved
    assert explanation.steps[0].text == (
        'Add K8 from your rack to "K7 R7 B7" (now "K7 K8 R7 B7", not a meld until step 7).'
    )
    assert explanation.steps[-1].text == (
        'Move K6 from "K6 R5 R6 R7" (leaves "R5 R6 R7") to "K5 K7 K8" (now "K5 K6 K7 K8").'
    )
    assert_explains(position, new, explanation)


def test_pairing_by_shared_tiles_gives_way_to_fewer_steps() -> None:
    # The old run shares the most tiles with K1 K2 K3 K4, but paired with it, its K5 K6
    # start K4 K5 K6, which needs a K4 from the rack too: four steps. Left in place as
    # K1 K2 K3 (or K4 K5 K6), it gives the rest away whole: three.
    position = Position.parse(rack="K5 K6 K7 K1 K2 K3 K4", table=["K1 K2 K3 K4 K5 K6"])
    new = melds("K5 K6 K7", "K1 K2 K3 K4", "K1 K2 K3", "K4 K5 K6")
    explanation = explain(position, new)
    assert len(explanation.steps) == 3
    assert [(f.kind, f.into) for f in explanation.aftermaths] == [("rearranged", 2)]
    assert explanation.text() == (
        '1. Take "K4 K5 K6" from "K1 K2 K3 K4 K5 K6" (leaves "K1 K2 K3") as a new meld.\n'
        '2. Lay "K5 K6 K7" from your rack.\n'
        '3. Lay "K1 K2 K3 K4" from your rack.'
    )
    assert_explains(position, new, explanation)


def test_no_move_has_no_steps() -> None:
    position = Position.parse(rack="K1", table=["B5 B6 B7"])
    explanation = explain(position, position.table)
    assert explanation.steps == ()
    assert explanation.to_data() == {
        "changes": [
            {"meld": 0, "change": "unchanged", "tiles": ["B5", "B6", "B7"], "from": [0, 0, 0]}
        ],
        "steps": [],
    }


def test_explain_rejects_a_move_that_no_steps_reach() -> None:
    position = Position.parse(rack="R4 K7", table=["R1 R2 R3", "B9 B10 J"])
    with pytest.raises(ExplainError, match=r"lacks the table tiles B9 B10 J"):
        explain(position, melds("R1 R2 R3 R4"))
    with pytest.raises(ExplainError, match=r"adds B7 O7, which the rack does not hold"):
        explain(position, melds("R1 R2 R3", "B9 B10 J", "K7 B7 O7"))
    with pytest.raises(ExplainError, match=r"says it plays K7, but the new table adds R4"):
        explain(position, Move(tuple(melds("R1 R2 R3 R4", "B9 B10 J")), parse_tiles("K7")))


# -- replay -------------------------------------------------------------------------------


def test_replay_applies_steps_and_numbers_new_melds_in_order() -> None:
    steps = [
        Step(parse_tiles("K7"), 0, NEW),
        Step(parse_tiles("K5 K6"), RACK, 1),
        Step(parse_tiles("O1 O2 O3"), RACK, NEW),
    ]
    after = replay(melds("K7 R7 B7 O7"), steps, rack=parse_tiles("K5 K6 O1 O2 O3"))
    assert [" ".join(map(str, m)) for m in after] == ["R7 B7 O7", "K7 K5 K6", "O1 O2 O3"]


def test_replay_names_the_step_that_takes_a_tile_not_there() -> None:
    table = melds("R1 R2 R3")
    with pytest.raises(ReplayError, match=r"^step 2 takes R1 from meld 0, which holds R2 R3$"):
        replay(table, [Step(parse_tiles("R1"), 0, NEW), Step(parse_tiles("R1"), 0, 1)])
    with pytest.raises(ReplayError, match=r"^step 1 takes R4 R4 from the rack, which holds R4$"):
        replay(table, [Step(parse_tiles("R4 R4"), RACK, 0)], rack=parse_tiles("R4"))
    with pytest.raises(ReplayError, match=r"^step 1 puts tiles on meld 3, which is not there$"):
        replay(table, [Step(parse_tiles("R4"), RACK, 3)])
    with pytest.raises(ReplayError, match=r"^step 1 takes tiles from meld 1, which is not there$"):
        replay(table, [Step(parse_tiles("R4"), 1, 0)])


def test_step_data_round_trip_and_bad_data() -> None:
    step = Step(parse_tiles("R4 J"), 2, NEW, ("Take R4 J",))
    data = step.to_data()
    assert data == {"tiles": ["R4", "J"], "from": 2, "to": "new", "text": "Take R4 J"}
    again = Step.from_data(data)
    assert (again.tiles, again.source, again.target) == (step.tiles, 2, NEW)
    for bad in ({"tiles": ["R4"], "from": "hand", "to": 0}, {"tiles": "R4", "from": 0, "to": 1}):
        with pytest.raises(ExplainError):
            Step.from_data(bad)
    with pytest.raises(ExplainError, match="to must be 'new' or a meld number"):
        Step.from_data({"tiles": ["R4"], "from": 0, "to": True})


# -- the command line ---------------------------------------------------------------------

JOKER_ARGS = ["solve", "--rack", "R6 K5 K6", "--table", "R5 J R7", "--explain"]
JOKER_TEXT = """\
New table (* = new or changed):
  * R5 R6 R7   R5 R7 kept from "R5 J R7" + R6 from your rack
  * K5 K6 J    J from "R5 J R7" + K5 K6 from your rack
The J of "R5 J R7" is freed by R6 from your rack.
Played: K5 K6 R6 (3 tiles, value 17)
Rack left: (empty)
Steps:
  1. Put R6 from your rack in place of the J in "R5 J R7" (now "R5 R6 R7" + J).
  2. Take J from "R5 R6 R7" + J (leaves "R5 R6 R7") to start a new meld.
  3. Lay "K5 K6 J" from your rack (K5 K6) and the J.
Proven optimal (value objective).
Time: 0.012 s
"""


@pytest.fixture
def fixed_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver's answer with a fixed table order and time, so output is exact."""

    def fixed(position: Position, **kwargs: Any) -> SolveResult:
        new = tuple(melds("R5 R6 R7", "K5 K6 J"))
        played = parse_tiles("K5 K6 R6")
        return SolveResult("optimal", position, new, played, (), 17, 3, 0.012)

    monkeypatch.setattr(rummikub.tiles.solver, "solve", fixed)


def run(*args: str, color: bool = False, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), color=color, env=env)


@pytest.mark.usefixtures("fixed_solver")
def test_solve_explain_human_output() -> None:
    result = run(*JOKER_ARGS)
    assert result.exit_code == 0, result.output
    assert result.stdout == JOKER_TEXT


@pytest.mark.usefixtures("fixed_solver")
def test_solve_explain_colors_tiles_unless_told_not_to() -> None:
    # Colors go to a terminal, or anywhere with FORCE_COLOR (CliRunner's output is no terminal).
    assert run(*JOKER_ARGS, env={"NO_COLOR": ""}).stdout == JOKER_TEXT
    colored = run(*JOKER_ARGS, env={"NO_COLOR": "", "FORCE_COLOR": "1"})
    assert "\x1b[31mR6\x1b[0m" in colored.stdout  # red, in the steps
    assert "\x1b[1;90mK5\x1b[0m" in colored.stdout  # black, bold in a changed meld
    assert re.sub(r"\x1b\[[0-9;]*m", "", colored.stdout) == JOKER_TEXT
    forced = {"FORCE_COLOR": "1"}
    assert run(*JOKER_ARGS, "--no-color", env=forced).stdout == JOKER_TEXT
    assert run(*JOKER_ARGS, env={**forced, "NO_COLOR": "1"}).stdout == JOKER_TEXT


def test_solve_explain_json_replays_to_its_table() -> None:
    result = run(*JOKER_ARGS, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data)[-2:] == ["changes", "steps"]
    steps = [Step.from_data(s) for s in data["steps"]]
    after = replay(melds("R5 J R7"), steps, rack=parse_tiles("R6 K5 K6"))
    assert multisets(after) == multisets([parse_tiles(" ".join(m["tiles"])) for m in data["table"]])
    taken = sorted(t for s in data["steps"] if s["from"] == "rack" for t in s["tiles"])
    assert taken == sorted(data["played"])
    for change, meld in zip(data["changes"], data["table"], strict=True):
        assert change["tiles"] == meld["tiles"] and len(change["from"]) == len(meld["tiles"])
    # Without --explain the JSON object stays as it was.
    assert "steps" not in json.loads(run(*JOKER_ARGS[:-1], "--json").stdout)


def test_solve_explain_of_no_move() -> None:
    result = run("solve", "--rack", "K1 R13", "--table", "B5 B6 B7", "--explain", "--json")
    data = json.loads(result.stdout)
    assert data["steps"] == [] and data["changes"][0]["change"] == "unchanged"


def test_check_explain_shows_how_a_legal_table_is_reached() -> None:
    result = run("check", TWO_TILES, "--explain")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "Legal move.\n"
        "Played: R4 O7 (2 tiles, value 11)\n"
        "New table (* = new or changed):\n"
        '  * R1 R2 R3 R4   "R1 R2 R3" + R4 from your rack\n'
        '  * K7 R7 B7 O7   "K7 R7 B7" + O7 from your rack\n'
        "    B9 B10 J\n"
        "Steps:\n"
        '  1. Add R4 from your rack to "R1 R2 R3" (now "R1 R2 R3 R4").\n'
        '  2. Add O7 from your rack to "K7 R7 B7" (now "K7 R7 B7 O7").\n'
    )
    data = json.loads(run("check", TWO_TILES, "--explain", "--json").stdout)
    assert list(data) == ["legal", "errors", "value", "played", "violations", "changes", "steps"]
    assert [s["to"] for s in data["steps"]] == [0, 1]


def test_check_explain_of_an_illegal_move_has_no_steps() -> None:
    args = ["check", TWO_TILES, "--after", "R1 R2 R3 R4", "--after", "K7 R7 B7 O7", "--explain"]
    result = run(*args)
    assert result.exit_code == 1
    assert result.stdout.endswith("No steps: the move is not legal.\n")
    data = json.loads(run(*args, "--json").stdout)
    assert data["legal"] is False and "steps" not in data


def test_explain_from_the_top_level_is_callable_whatever_was_imported_first() -> None:
    # Importing the package by its old path, rummikub.explain, rebinds the attribute; all
    # stay callable.
    import rummikub.explain as old_path

    import rummikub
    import rummikub.tiles.explain as package

    position = Position.parse(rack="R4", table=["R1 R2 R3"])
    new = melds("R1 R2 R3 R4")
    from rummikub import explain as top_level

    for function in (top_level, rummikub.explain, old_path, package, package.explain):
        explanation = function(position, new)
        assert explanation.text() == '1. Add R4 from your rack to "R1 R2 R3" (now "R1 R2 R3 R4").'
        assert explanation.fates == explanation.aftermaths
