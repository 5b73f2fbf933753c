"""The exact endgame (rummikub/tiles/game/endgame.py) against a brute-force game tree.

The brute force below shares no code with the search: its moves are every legal *table*
(every sub-multiset of the rack, every partition of the table's tiles and those into melds,
kept when the checker says legal, :mod:`rummikub.tiles.exhaustive`'s enumerator), not the
solver's one table per multiset; it is plain minimax without bounds, memoized on the exact
arrangement of the table. On tiny boxes it is the game's value by definition. Under the
joker lock the search is exact only over its own moves, so there the same minimax runs over
the solver's tables too (:func:`solver_plays`).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummikub.cli import main as cli
from rummikub.core.errors import RummikubError
from rummikub.tiles.checker import check
from rummikub.tiles.exhaustive import melds_through, partitions, rack_subsets
from rummikub.tiles.game import engine
from rummikub.tiles.game.endgame import Verdict, decide, is_endgame
from rummikub.tiles.game.engine import GameState, box
from rummikub.tiles.game.record import save
from rummikub.tiles.game.strategies import casual
from rummikub.tiles.game.view import view_of
from rummikub.tiles.melds import Identity, Meld
from rummikub.tiles.notation import parse_rack
from rummikub.tiles.position import Move, Position
from rummikub.tiles.rules import Rules
from rummikub.tiles.solver import solve
from rummikub.tiles.tiles import JOKER, Tile
from tests.strategies import examples

VALUES = {"win": 1, "draw": 0, "loss": -1}

#: Tiny boxes: 4 numbers in 3 colors, one copy; with a joker the lock strict or free.
TINY = Rules(numbers=4, colors="KRB", copies=1, jokers=0, initial_meld=6)
TINY_JOKER_FREE = replace(TINY, jokers=1, joker_value=5, joker_lock="free")
TINY_JOKER = replace(TINY, jokers=1, joker_value=5)
FIVE = Rules(numbers=5, colors="KRB", copies=1, jokers=0, initial_meld=6)


# -- the brute force -------------------------------------------------------------------


def _legal_tables(
    table: tuple[Meld, ...], rack: tuple[Tile, ...], opened: bool, rules: Rules
) -> Iterator[tuple[tuple[Meld, ...], tuple[Tile, ...]]]:
    """Every distinct legal new table (as laid) and the tiles it plays."""
    position = Position(table, rack, opened, rules)
    old = [t for meld in table for t in meld.tiles]
    seen: set[tuple[Identity, ...]] = set()
    # The most tiles first only so that going out ends the loop early.
    for played in sorted(rack_subsets(rack), key=len, reverse=True):
        for new in partitions([*old, *played], rules):
            key = tuple(sorted(m.identity() for m in new))
            if key not in seen and check(position, new).legal:
                seen.add(key)
                yield new, played


Plays = Callable[
    [tuple[Meld, ...], tuple[Tile, ...], bool, Rules],
    Iterator[tuple[tuple[Meld, ...], tuple[Tile, ...]]],
]


def brute_force(state: GameState, moves: Plays = _legal_tables) -> int:
    """The value of ``state`` for the player to move: 1 win, 0 draw, -1 loss, over ``moves``
    (every legal table unless told)."""
    rules = state.rules
    tables: dict[tuple[Identity, ...], tuple[Meld, ...]] = {}

    def key_of(table: tuple[Meld, ...]) -> tuple[Identity, ...]:
        key = tuple(sorted(m.identity() for m in table))
        tables[key] = table
        return key

    def total(rack: tuple[Tile, ...]) -> int:
        return sum(rules.tile_value(t) for t in rack)

    @cache
    def value(
        table_key: tuple[Identity, ...],
        racks: tuple[tuple[Tile, ...], ...],
        opened: tuple[bool, ...],
        mover: int,
        passes: int,
    ) -> int:
        mine, theirs = total(racks[mover]), total(racks[1 - mover])
        if passes >= 1:  # a pass ends the hand: the lower total wins
            best = (mine < theirs) - (mine > theirs)
        else:
            best = -value(table_key, racks, opened, 1 - mover, 1)
        rack = racks[mover]
        for new, played in moves(tables[table_key], rack, opened[mover], rules):
            if len(played) == len(rack):
                return 1
            left = Counter(rack) - Counter(played)
            after = list(racks)
            after[mover] = tuple(sorted(left.elements(), key=rules.sort_key))
            now_open = list(opened)
            now_open[mover] = True
            best = max(best, -value(key_of(new), tuple(after), tuple(now_open), 1 - mover, 0))
        return best

    racks = tuple(rack or () for rack in state.racks)
    return value(key_of(state.table), racks, state.opened, state.to_move, state.passes)


# -- positions ---------------------------------------------------------------------------


def random_endgame(seed: int, rules: Rules) -> GameState:
    """A seeded endgame of the whole box: one to three random melds on the table, the rest
    split at random between the racks; each player opened with chance 0.8."""
    rng = random.Random(seed)
    counts = Counter(box(rules))
    table: list[Meld] = []
    for _ in range(rng.randint(1, 3)):
        numbered = sorted((t for t in counts.elements() if not t.is_joker), key=rules.sort_key)
        tile = rng.choice(numbered)
        counts[tile] -= 1
        others = +Counter({t: n for t, n in counts.items() if not t.is_joker})
        melds = melds_through(tile, others, counts[JOKER], rules)
        if not melds:
            counts[tile] += 1
            continue
        meld = rng.choice(melds)
        counts -= Counter(meld.tiles) - Counter([tile])
        table.append(Meld.of(meld.tiles, kind=meld.kind, rules=rules))
    left = sorted(counts.elements(), key=rules.sort_key)
    rng.shuffle(left)
    # Both racks need a tile: a box the table took almost whole deals no endgame.
    assume(len(left) >= 2)
    cut = rng.randint(1, len(left) - 1)
    racks = (
        tuple(sorted(left[:cut], key=rules.sort_key)),
        tuple(sorted(left[cut:], key=rules.sort_key)),
    )
    return GameState(
        rules=rules,
        players=("P1", "P2"),
        table=tuple(table),
        racks=racks,
        rack_counts=(len(racks[0]), len(racks[1])),
        opened=(rng.random() < 0.8, rng.random() < 0.8),
        pool=(),
        pool_count=0,
        turns=rng.randint(0, 1),
        passes=rng.randint(0, 1),
    )


def endgame(
    table: list[str],
    first: str,
    second: str,
    *,
    rules: Rules | None = None,
    opened: tuple[bool, bool] = (True, True),
    passes: int = 0,
) -> GameState:
    """A hand-built endgame, P1 to move."""
    rules = rules or Rules()
    position = Position.parse(rack=first, table=table, rules=rules)
    racks = (position.rack_sorted(), tuple(sorted(parse_rack(second, rules), key=rules.sort_key)))
    return GameState(
        rules=rules,
        players=("P1", "P2"),
        table=position.table,
        racks=racks,
        rack_counts=(len(racks[0]), len(racks[1])),
        opened=opened,
        pool=(),
        pool_count=0,
        passes=passes,
    )


def assert_move_is_legal(state: GameState, verdict: Verdict) -> None:
    """The verdict's move passes the checker and the engine (None: a pass)."""
    if verdict.move is None:
        engine.advance(state, engine.turn_of_move(state, Move(state.table, ())))
        return
    assert check(state.position(), verdict.move.table).legal
    assert Counter(check(state.position(), verdict.move.table).played) == Counter(
        verdict.move.played
    )
    engine.advance(state, engine.turn_of_move(state, verdict.move))


def achieved(state: GameState, verdict: Verdict) -> int:
    """The brute-force value for the mover of the verdict's move: what it achieves."""
    move = verdict.move or Move(state.table, ())
    after = engine.advance(state, engine.turn_of_move(state, move))
    if after.result is not None:
        winners = after.result.winners
        me = state.to_move
        return 0 if len(winners) == 2 else (1 if me in winners else -1)
    return -brute_force(after)


# -- agreement with the brute force ------------------------------------------------------


@pytest.mark.parametrize("rules", [TINY, TINY_JOKER_FREE, FIVE], ids=["tiny", "joker", "five"])
@settings(max_examples=examples(20))
@given(seed=st.integers(0, 10**9))
def test_agrees_with_brute_force(rules: Rules, seed: int) -> None:
    state = random_endgame(seed, rules)
    verdict = decide(state, nodes=10**6)
    expected = brute_force(state)
    assert verdict.outcome != "unknown"
    assert VALUES[verdict.outcome] == expected, (state, verdict)
    assert_move_is_legal(state, verdict)
    # The move shown achieves the outcome (a lost position: any move loses).
    assert achieved(state, verdict) == expected


def solver_plays(
    state_table: tuple[Meld, ...], rack: tuple[Tile, ...], opened: bool, rules: Rules
) -> Iterator[tuple[tuple[Meld, ...], tuple[Tile, ...]]]:
    """The search's own moves, as its docstring promises them: every distinct multiset the
    player can lay, each once, laid as the solver lays it (one no-good per multiset found)."""
    position = Position(state_table, rack, opened, rules)
    found: list[Counter[Tile]] = []
    while True:
        result = solve(position, objective="tiles", exclude=found)
        if not result.played:
            return
        found.append(Counter(result.played))
        yield result.table, result.played


@settings(max_examples=examples(12))
@given(seed=st.integers(0, 10**9))
def test_agrees_with_minimax_over_its_moves_under_the_joker_lock(seed: int) -> None:
    """With a locked joker on the table the search is exact over its own moves (the solver's
    table for each multiset), not over every table: a plain minimax over the same moves,
    memoized on the exact arrangement, agrees with its bounds and its merged table keys."""
    state = random_endgame(seed, TINY_JOKER)
    verdict = decide(state, nodes=10**6)
    assert VALUES[verdict.outcome] == brute_force(state, moves=solver_plays), (state, verdict)
    assert_move_is_legal(state, verdict)


#: Deals where the search and the brute force over every legal table disagree (found by CI
#: runs): the search says a draw, the brute force a win for the player to move. The search
#: lays each multiset of tiles as the solver's one table, so a win through another table of
#: the same tiles (a locked joker standing for another tile) is out of its sight. Known, not
#: yet fixed; the module's docstring and docs/researchers.md say so.
KNOWN_LOCK_GAPS = (3593, 7964)


@pytest.mark.parametrize("seed", KNOWN_LOCK_GAPS)
@pytest.mark.xfail(
    strict=True, reason="the lock search tries one table per multiset laid (see KNOWN_LOCK_GAPS)"
)
def test_a_locked_joker_endgame_another_table_of_the_same_tiles_wins(seed: int) -> None:
    state = random_endgame(seed, TINY_JOKER)
    verdict = decide(state, nodes=10**6)
    assert VALUES[verdict.outcome] == brute_force(state), (state, verdict)


def test_the_positions_are_not_all_trivial() -> None:
    """The random endgames reach every outcome, and some need a real search."""
    seen: Counter[str] = Counter()
    deep = 0
    for rules in (TINY_JOKER, FIVE):
        for seed in range(30):
            verdict = decide(random_endgame(seed, rules), nodes=10**6)
            seen[verdict.outcome] += 1
            deep += verdict.nodes > 3
    assert set(seen) == {"win", "loss", "draw"}, seen
    assert deep >= 10


# -- known positions ---------------------------------------------------------------------


def test_goes_out_now() -> None:
    state = endgame(["R1 R2 R3"], "R4 R5 K9 R9 B9", "O13 K13 B13 R13")
    verdict = decide(state)
    assert (verdict.outcome, verdict.reason, verdict.nodes) == ("win", "goes out now", 1)
    assert verdict.move is not None and len(verdict.move.played) == 5
    assert_move_is_legal(state, verdict)


def test_a_forced_win_by_the_lower_total() -> None:
    # P1 cannot go out (O13 lies alone); P2 can never go out either (two 13s need a third).
    # P1 lays R1-3 and is left with 13 against P2's 26 at least: P2 can only pass or lay
    # B10-12, and the hand ends on passes with P1 lower.
    state = endgame([], "R1 R2 R3 O13", "B10 B11 B12 K13 R13")
    verdict = decide(state)
    assert verdict.outcome == "win"
    assert verdict.reason.startswith("wins whatever P2 does")
    assert brute_force(state) == 1
    assert_move_is_legal(state, verdict)


def test_a_win_that_needs_the_right_move() -> None:
    # Laying R1-4 lets P2 add R5 and lay K1-3, left with O9 against P1's B9: at best a
    # draw. Laying R1-3 keeps R4 back: P2 lays K1-3 (14 left: R5 O9), P1 passes on 13, and
    # P2, unable to lay R5, passes too and loses.
    state = endgame([], "R1 R2 R3 R4 B9", "R5 K1 K2 K3 O9")
    verdict = decide(state)
    assert verdict.outcome == "win"
    assert verdict.move is not None
    assert sorted(map(str, verdict.move.played)) == ["R1", "R2", "R3"]
    assert_move_is_legal(state, verdict)
    assert brute_force(state) == 1
    run = Meld.parse("R1 R2 R3 R4")
    after = engine.advance(state, engine.turn_of_move(state, Move((run,), run.tiles)))
    assert brute_force(after) >= 0  # P2 does not lose after R1-4


def test_a_lost_position_and_its_defence() -> None:
    # P1 cannot play (two 13s), P2 goes out next turn with B1-3 whatever P1 does.
    state = endgame([], "K13 O13", "B1 B2 B3")
    verdict = decide(state)
    assert verdict.outcome == "loss"
    assert verdict.move is None
    assert "P2 wins whatever P1 does" in verdict.reason
    assert brute_force(state) == -1


def test_a_lost_position_defends_with_the_most_value() -> None:
    # P2 goes out next turn (B1-3) whatever P1 does; P1's best defence lays its 13s.
    state = endgame(["K13 R13 B13"], "O13 K2", "B1 B2 B3")
    verdict = decide(state)
    assert verdict.outcome == "loss"
    assert verdict.move is not None and verdict.move.played == (Tile("O", 13),)
    assert_move_is_legal(state, verdict)


def test_a_draw() -> None:
    # Neither K5 nor R5 goes anywhere: both pass, equal totals share the win.
    state = endgame(["B1 B2 B3"], "K5", "R5")
    verdict = decide(state)
    assert verdict.outcome == "draw"
    assert verdict.move is None
    assert brute_force(state) == 0


def test_a_pass_that_ends_the_hand_wins() -> None:
    # P2 passed; P1, lower, passes too and the hand ends.
    state = endgame(["B1 B2 B3"], "K2", "R9 R11", passes=1)
    verdict = decide(state)
    assert (verdict.outcome, verdict.move) == ("win", None)
    assert verdict.reason == "passes: the hand ends, rack total 2 against 20"


def test_the_initial_meld_counts() -> None:
    # P1 has not opened: R1-3 is worth 6 < 30, so P1 cannot lay it, and P2 goes out.
    state = endgame([], "R1 R2 R3 O13", "B11 B12 B13", opened=(False, True))
    assert decide(state).outcome == "loss"
    opened = replace(state, opened=(True, True))
    assert decide(opened).outcome == "loss"  # P2 still goes out next turn


# -- the budget -------------------------------------------------------------------------


def test_gives_up_at_the_limit() -> None:
    state = random_endgame(3, FIVE)
    full = decide(state, nodes=10**6)
    assert full.nodes > 2
    verdict = decide(state, nodes=2)
    assert verdict.outcome == "unknown"
    assert verdict.nodes == 2
    assert verdict.reason.startswith("gave up after 2 nodes")
    assert_move_is_legal(state, verdict)


def test_deterministic() -> None:
    state = random_endgame(11, FIVE)
    assert decide(state) == decide(state)
    assert decide(state, nodes=3) == decide(state, nodes=3)


# -- what it refuses ----------------------------------------------------------------------


def test_refuses_what_is_not_an_exact_endgame() -> None:
    record = engine.deal(["A", "B"], Rules(), seed=1)
    start = engine.start(record)
    assert not is_endgame(start)
    with pytest.raises(RummikubError, match="not an exact endgame: the pool still holds 78"):
        decide(start)
    three = engine.start(engine.deal(["A", "B", "C"], Rules(), seed=1))
    with pytest.raises(RummikubError, match="3 players"):
        decide(replace(three, pool_count=0, pool=()))
    state = endgame([], "K1", "K2")
    unknown = replace(state, racks=(state.racks[0], None))
    with pytest.raises(RummikubError, match="the rack of P2 is not known"):
        decide(unknown)
    with pytest.raises(RummikubError, match="nodes=0"):
        decide(state, nodes=0)
    too_many = endgame([], "K1 K1", "K1")
    with pytest.raises(RummikubError, match="not an exact endgame"):
        decide(too_many)


# -- game hint ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def endgame_record(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GameState]:
    """The README's record: casual against casual on a small box until the pool is empty."""
    rules = Rules(numbers=7, colors="KRB", copies=1, jokers=0, initial_meld=0)
    record = engine.deal(["Ann", "Bob"], rules, seed=6, rack_size=6)
    state, turns = engine.start(record), []
    while state.pool_count > 0 and not state.over:
        turn = engine.turn_of_move(state, casual(*view_of(state)))
        state = engine.advance(state, turn)
        turns.append(turn)
    path = tmp_path_factory.mktemp("endgame") / "endgame.toml"
    save(record.with_turns(turns, None), str(path))
    return path, state


def test_hint_searches_the_endgame(endgame_record: tuple[Path, GameState]) -> None:
    path, state = endgame_record
    verdict = decide(state)
    result = CliRunner().invoke(cli, ["game", "hint", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == "Endgame (2 players, the pool empty): Ann wins by force."
    assert lines[2] == f"Why: {verdict.reason}."
    assert verdict.move is not None
    played = " ".join(map(str, verdict.move.played))
    assert f"Played: {played} (" in result.output
    data = json.loads(CliRunner().invoke(cli, ["game", "hint", str(path), "--json"]).output)
    assert data["endgame"] == verdict.to_data()
    assert data["status"] == "optimal"  # the keys of solve --json stay the best move by value


def test_hint_gives_up_at_its_budget(endgame_record: tuple[Path, GameState]) -> None:
    path, _ = endgame_record
    result = CliRunner().invoke(cli, ["game", "hint", str(path), "--nodes", "2", "--json"])
    assert result.exit_code == 0, result.output
    endgame_data = json.loads(result.output)["endgame"]
    assert endgame_data["outcome"] == "unknown"
    assert endgame_data["reason"] == "gave up after 2 nodes"
    bad = CliRunner().invoke(cli, ["game", "hint", str(path), "--nodes", "0"])
    assert bad.exit_code == 2


def test_hint_outside_an_endgame_is_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    save(engine.deal(["A", "B"], Rules(), seed=7), str(path))
    data = json.loads(CliRunner().invoke(cli, ["game", "hint", str(path), "--json"]).output)
    assert data["endgame"] is None
    text = CliRunner().invoke(cli, ["game", "hint", str(path)]).output
    assert "Endgame" not in text and "(proven)" in text


def test_hint_with_a_strategy(endgame_record: tuple[Path, GameState]) -> None:
    path, state = endgame_record
    move = casual(*view_of(state))
    result = CliRunner().invoke(cli, ["game", "hint", str(path), "--strategy", "casual"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1] == "Strategy casual plays:"
    data = json.loads(
        CliRunner()
        .invoke(cli, ["game", "hint", str(path), "--strategy", "Casual", "--json"])
        .output
    )
    assert data["strategy"] == "casual"
    assert data["played"] == [str(t) for t in move.played]
    assert check(state.position(), [Meld.parse(" ".join(m["tiles"])) for m in data["table"]]).legal
    unknown = CliRunner().invoke(cli, ["game", "hint", str(path), "--strategy", "nope"])
    assert unknown.exit_code == 2
    assert "--strategy 'nope': unknown strategy 'nope'" in unknown.output


def test_hint_deduces_the_rack_at_a_real_table(
    endgame_record: tuple[Path, GameState],
) -> None:
    """At a real table of two the opponent holds exactly the unseen tiles."""
    from rummikub.cli.game import _endgame

    _, state = endgame_record
    hidden = replace(state, racks=(state.racks[0], None))
    assert _endgame(hidden, None) == decide(state)
