"""Records written once (:mod:`rummikub.play.records`): both formats share the reader's
checks, the TOML writer and the locked, atomic save; each keeps its own error type."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummikub.cards.game import engine as card_engine
from rummikub.cards.game import record as card_record
from rummikub.cards.rules import preset as card_preset
from rummikub.core.documents import Format
from rummikub.play import records
from rummikub.tiles.game import engine as tile_engine
from rummikub.tiles.game import record as tile_record
from rummikub.tiles.rules import STANDARD


def test_each_format_keeps_its_own_error_type_under_the_shared_one() -> None:
    assert issubclass(tile_record.RecordError, records.RecordError)
    assert issubclass(card_record.RecordError, records.RecordError)
    assert not issubclass(tile_record.RecordError, card_record.RecordError)
    with pytest.raises(card_record.RecordError, match="<record>: players: 1 given, rummy seats"):
        card_record.loads('format = "rummikub-cards-game/1"\ngame = "rummy"\nplayers = ["A"]\n')
    with pytest.raises(tile_record.RecordError, match="players: 5 given, a game has 2-4"):
        tile_record.loads('players = ["A", "B", "C", "D", "E"]\n')


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_a_name_beyond_the_bmp_reads_back_in_both_formats(fmt: Format) -> None:
    # TOML refuses JSON's surrogate pairs: the writer escapes such a character as \U0001F600.
    names = ["Ann \U0001f600", "Bob"]
    tiles = tile_engine.deal(names, STANDARD, 1)
    assert tile_record.loads(tile_record.dumps(tiles, fmt), fmt=fmt) == tiles
    cards = card_engine.new_game(names, card_preset("rummy"), 1)
    assert card_record.loads(card_record.dumps(cards, fmt), fmt=fmt) == cards


def test_inline_tables_keep_each_formats_spacing() -> None:
    assert records.toml_value({"meld": 0, "to": "7S"}) == '{meld = 0, to = "7S"}'
    assert records.toml_value({"moves": [{"play": ["R1"]}]}, spaced=True) == (
        '{ moves = [{ play = ["R1"] }] }'
    )
    assert records.toml_value({"a b": 1}) == '{"a b" = 1}'


def test_save_refuses_a_file_changed_since_it_was_read_for_both_formats(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    first = card_engine.new_game(["Ann", "Bob"], card_preset("rummy"), 1)
    card_record.save(first, path)
    card_record.save(card_engine.new_game(["Ann", "Bob"], card_preset("rummy"), 2), path)
    with pytest.raises(card_record.RecordError, match="changed by another program"):
        card_record.save(first, path, expect=first)
    tile_path = tmp_path / "t.json"
    tiles = tile_engine.deal(["Ann", "Bob"], STANDARD, 1)
    tile_record.save(tiles, tile_path)
    assert tile_record.load(tile_path) == tiles
    tile_record.save(tile_engine.deal(["Ann", "Bob"], STANDARD, 2), tile_path)
    with pytest.raises(tile_record.RecordError, match="changed by another program"):
        tile_record.save(tiles, tile_path, expect=tiles)


def test_one_replay_plays_both_games_through_the_protocol(tmp_path: Path) -> None:
    from rummikub.cards.game.plugin import CardGame
    from rummikub.tiles.game.plugin import TileGame
    from rummikub.tiles.game.record import Draw

    tiles = TileGame(STANDARD)
    record = tiles.deal(["Ann", "Bob"], 3)
    record = record.with_turns([Draw(record.deal.pool[0] if record.deal.pool else None)])
    played = tiles.replay(record)
    assert len(played.states) == 2 and played.problem is None
    path = tmp_path / "g.toml"
    tile_record.save(record.with_turns([Draw(None), Draw(None), Draw(None)]), path)
    # Read back from its file, the record replays to its last turn.
    assert tile_engine.replay_file(path).state.turns == 3
    cards = CardGame(card_preset("rummy"))
    game = cards.deal(["Ann", "Bob"], 3)
    assert cards.replay(game).state == cards.start(game)


def test_a_step_that_does_not_hold_stops_the_replay_with_its_words() -> None:
    from rummikub.core.errors import RummikubError
    from rummikub.play.replay import Step, Trouble, replay

    class Read:
        problem = None

    def bad(state: int) -> int:
        raise Trouble("hand 2: dealt before hand 1 ended")

    steps = [Step(lambda s: s + 1), Step(lambda s: s * 10, "replace"), Step(lambda s: s, "check")]
    done = replay(Read(), 1, steps, RummikubError)
    assert done.states == (1, 20) and done.problem is None
    stopped = replay(Read(), 1, [Step(lambda s: s + 1), Step(bad)], RummikubError)
    assert stopped.states == (1, 2)
    assert stopped.problem == "hand 2: dealt before hand 1 ended"
