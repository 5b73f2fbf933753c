"""The game layer's self-play, duels and strategy registry (:mod:`rummikub.play`), written
once: the same functions drive the tile game and every card rummy."""

from __future__ import annotations

import pickle
import random
from collections.abc import Sequence
from typing import Any

import pytest

from rummikub import games
from rummikub.cards import preset as card_preset
from rummikub.cards import with_options
from rummikub.cards.game.engine import replay as card_replay
from rummikub.cards.game.plugin import CardGame
from rummikub.cards.game.record import CardRecord
from rummikub.core.errors import RummikubError
from rummikub.play import selfplay
from rummikub.play.duel import Pairing
from rummikub.play.registry import Registry
from rummikub.tiles.game.engine import replay as tile_replay
from rummikub.tiles.game.plugin import TileGame
from rummikub.tiles.game.record import Record
from rummikub.tiles.rules import Rules

SMALL_TILES = TileGame(Rules(numbers=6, colors="KRB", jokers=1, initial_meld=6), 5)
SHORT_RUMMY = CardGame(with_options(card_preset("rummy"), {"hand_size": 6, "target": 30}))


@pytest.mark.parametrize("game", [SMALL_TILES, SHORT_RUMMY], ids=["tiles", "rummy"])
def test_one_loop_plays_either_game_to_its_end(game: Any) -> None:
    players = [game.strategies("casual"), game.strategies("best")]
    record, state = selfplay.play_out(game, players, 5, names=["Ann", "Bob"])
    assert game.over(state) and game.winners(state)
    assert record == selfplay.play_out(game, players, 5, names=["Ann", "Bob"])[0]
    # The record holds every hand and turn played: replayed, it ends where play did.
    if isinstance(record, Record):
        assert tile_replay(record).state == state
    else:
        assert isinstance(record, CardRecord) and len(record.hands) == len(state.results)
        assert card_replay(record).state == state


@pytest.mark.parametrize("game", [SMALL_TILES, SHORT_RUMMY], ids=["tiles", "rummy"])
def test_a_recorded_turn_applied_through_the_protocol_is_the_engine_s(game: Any) -> None:
    players = [game.strategies("casual"), game.strategies("best")]
    record, _ = selfplay.play_out(game, players, 3)
    turns = record.turns if isinstance(record, Record) else record.hands[0].turns
    state = game.start(record)
    for turn in turns:
        state = game.apply(state, turn)
        # A seat's view, dealt again at random, holds what the seat sees as it is.
        seat = game.to_move(state) if not game.over(state) else 0
        seen = game.view(state, seat)
        dealt = game.determinize(seen, random.Random(len(turns)))
        assert game.view(dealt, seat) == seen
    replayed = game.replay(record)
    assert replayed.problem is None


@pytest.mark.parametrize("game", [SMALL_TILES, SHORT_RUMMY], ids=["tiles", "rummy"])
def test_a_run_is_seeded_rotated_and_summarized_for_either_game(game: Any) -> None:
    class Run(selfplay.Lineup):
        strategies = ("casual", "best")
        players = 2
        seed = 7

        @property
        def game(self) -> Any:
            return game

    found = selfplay.play(Run(), 4)
    assert [g.index for g in found] == [0, 1, 2, 3]
    assert [g.seats for g in found] == [("casual", "best"), ("best", "casual")] * 2
    assert [g.seed for g in found] == [selfplay.game_seed(7, i, game.seed_salt) for i in range(4)]
    tally = selfplay.tally(("casual", "best"), 2, found)
    assert sum(line.wins for line in tally.strategies) == pytest.approx(4)
    assert [line.games for line in tally.seats] == [4, 4] and not tally.failures


def test_the_games_of_a_run_differ_between_the_domains() -> None:
    # Each game salts its seeds: the same run seed deals other games in each domain.
    assert SMALL_TILES.seed_salt != SHORT_RUMMY.seed_salt
    assert selfplay.game_seed(1, 0, SMALL_TILES.seed_salt) != selfplay.game_seed(
        1, 0, SHORT_RUMMY.seed_salt
    )


def _gives_up(*args: Any) -> Any:
    raise ValueError("gave up")


def test_a_failure_names_the_hand_only_in_a_game_of_hands() -> None:
    tiles = selfplay.play_seated(
        selfplay.Table(
            SMALL_TILES, (("casual", SMALL_TILES.strategies("casual")), ("x", _gives_up))
        ),
        selfplay.Seating(3, 11, ("x", "casual")),
    )
    assert tiles.error is not None
    assert str(tiles.error) == "game 3 (seed 11): turn 1, seat 1 (x): ValueError: gave up"
    assert "hand" not in tiles.error.to_data()
    keep = SHORT_RUMMY.strategies("keep")
    broken = type(keep)("x", keep.draw, _gives_up, keep.claim)
    cards = selfplay.play_seated(
        selfplay.Table(SHORT_RUMMY, (("keep", keep), ("x", broken))),
        selfplay.Seating(0, 11, ("x", "keep")),
    )
    assert cards.error is not None
    assert str(cards.error) == "game 0 (seed 11): hand 1, turn 1, seat 1 (x): ValueError: gave up"
    assert list(cards.error.to_data())[:4] == ["game", "seed", "hand", "turn"]


def test_a_failure_comes_back_whole_from_a_worker() -> None:
    failed = selfplay.GameFailed(4, 1, "no", hand=2)
    back = pickle.loads(pickle.dumps(failed))
    assert (back.hand, back.turn, back.seat, back.message) == (2, 4, 1, "no")
    table = selfplay.Table.of(SHORT_RUMMY, ["keep", "casual"])
    assert pickle.loads(pickle.dumps(table)) == table


def test_the_registry_names_what_it_knows() -> None:
    known: Registry[int] = Registry("widget", {"one": 1})
    known.register("two", 2)
    assert known(" TWO ") == 2 and "one" in known and known.names == ("one", "two")
    with pytest.raises(RummikubError, match=r"^unknown widget 'x' \(expected one of one, two\)$"):
        known("x")
    with pytest.raises(RummikubError, match="unknown strategy 'x' "):
        SMALL_TILES.strategies("x")
    with pytest.raises(RummikubError, match="unknown card strategy 'x' "):
        SHORT_RUMMY.strategies("x")


def test_the_games_are_found_by_name() -> None:
    assert games.game_of().name == "tiles"
    for name in games.CARD_GAMES:
        assert games.game_of(name).name == name
    with pytest.raises(RummikubError, match="unknown game 'chess'"):
        games.game_of("chess")
    with pytest.raises(RummikubError, match="--rules is a tile rule set"):
        games.game_of("rummy", rules_preset="boxed")
    assert games.strategy_names("rummy")[:3] == ("best", "keep", "casual")


class _Coins(Pairing):
    """A duel setup of no game: the seatings are the layer's alone."""

    __slots__ = ("a", "b", "players", "seed")

    def __init__(self, players: int) -> None:
        self.a, self.b, self.players, self.seed = "x", "y", players, 0

    @property
    def game(self) -> Any:  # never played: the test reads the seatings only
        raise AssertionError("a duel of no game is not played")


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (2, (("A", "B"), ("B", "A"))),
        (3, (("A", "B", "A"), ("B", "A", "A"), ("A", "A", "B"))),
        (4, (("A", "B", "A", "B"), ("B", "A", "B", "A"))),
    ],
)
def test_a_duel_seats_every_distinct_rotation(
    players: int, expected: Sequence[tuple[str, ...]]
) -> None:
    assert _Coins(players).seatings == expected
