"""The parts of an explanation on their own: pairing, routing, the local search, arranging."""

from __future__ import annotations

from collections import Counter

from rummikub.tiles.explain.arrangement import arranged, valid
from rummikub.tiles.explain.planner import plan
from rummikub.tiles.explain.planner.local_search import improved
from rummikub.tiles.explain.planner.plan import Task, unchanged_pairs
from rummikub.tiles.explain.planner.routes_first import routes_first
from rummikub.tiles.explain.planner.routing import assign
from rummikub.tiles.explain.planner.shared_first import shared_first
from rummikub.tiles.explain.results import RACK, Source
from rummikub.tiles.melds import Meld
from rummikub.tiles.rules import STANDARD, Rules
from rummikub.tiles.tiles import Tile, parse_tiles


def task(old: list[str], new: list[str]) -> Task:
    before = tuple(Meld.parse(m) for m in old)
    after = tuple(Meld.parse(m) for m in new)
    played = Counter(t for m in after for t in m.tiles) - Counter(
        t for m in before for t in m.tiles
    )
    return Task(before, after, played, STANDARD)


def tiles(text: str) -> Counter[Tile]:
    return Counter(parse_tiles(text))


def test_identical_melds_are_paired_first_whatever_the_order_of_a_group() -> None:
    t = task(["R1 R2 R3", "K7 R7 B7"], ["K7 B7 R7", "R1 R2 R3 R4"])
    assert unchanged_pairs(t.old, t.new) == {1: 0}


def test_the_local_search_repairs_a_pairing_that_costs_a_step() -> None:
    # The old run shares most tiles with K1 K2 K3 K4, but left in place as K1 K2 K3 it
    # saves a step (the module docstring's example).
    t = task(["K1 K2 K3 K4 K5 K6"], ["K1 K2 K3 K4", "K1 K2 K3", "K4 K5 K6", "K5 K6 K7"])
    first = shared_first(t, {})
    assert (first.pairs, len(first.flows)) == ({0: 0}, 4)
    assert routes_first(t, {}).cost() == first.cost()
    better = improved(first, {})
    assert (better.pairs, len(better.flows)) == ({0: 1}, 3)
    assert better.cost() < first.cost()
    assert plan(t.old, t.new, t.played, t.rules).cost() == better.cost()


def test_a_plan_keeps_paired_tiles_in_place_and_moves_every_other_tile_once() -> None:
    t = task(["R1 R2 R3 R4", "K7 R7 B7"], ["R1 R2 R3", "R4 B4 K4", "K7 R7 B7 O7"])
    made = plan(t.old, t.new, t.played, t.rules)
    assert made.pairs == {0: 0, 1: 2}
    assert made.kept == {0: tiles("R1 R2 R3"), 1: tiles("K7 R7 B7")}
    into = {j: sum((f.tiles for f in made.incoming(j)), Counter()) for j in range(3)}
    assert into == {0: Counter(), 1: tiles("R4 B4 K4"), 2: tiles("O7")}
    assert sorted((str(f.source), f.to) for f in made.flows) == [("0", 1), ("rack", 1), ("rack", 2)]


def test_routing_moves_each_tile_from_a_source_that_holds_it() -> None:
    supply: dict[Source, Counter[Tile]] = {0: tiles("R5 R6 K9"), RACK: tiles("R7 K9")}
    demand = {0: tiles("R5 R6 R7"), 1: tiles("K9 K9")}
    flows = assign(supply, demand, STANDARD)
    # The biggest batch first, then the rest; one batch per (source, destination).
    assert [(f.source, f.to, f.tiles) for f in flows] == [
        (0, 0, tiles("R5 R6")),
        (0, 1, tiles("K9")),
        (RACK, 0, tiles("R7")),
        (RACK, 1, tiles("K9")),
    ]


def test_loose_tiles_are_arranged_as_a_player_lays_them() -> None:
    run = arranged(parse_tiles("J K6 K5"), STANDARD)
    assert run == Meld.parse("K5 K6 J")  # a spare joker goes on top while there is room
    assert arranged(parse_tiles("J K13 K12"), STANDARD) == Meld.parse("J K12 K13")
    group = arranged(parse_tiles("B7 J K7"), STANDARD)
    assert group is not None and group.tiles == parse_tiles("K7 B7 J")  # box color order
    assert arranged(parse_tiles("R7 B7 R7"), STANDARD) is None
    assert valid(tiles("R7 B7 O7 K7"), STANDARD)
    assert not valid(tiles("R7 B7 O7 K7"), Rules(colors="RBO"))
