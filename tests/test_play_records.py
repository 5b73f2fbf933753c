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
