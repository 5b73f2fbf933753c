"""The record commands' changes in the library (``tiles/game/entries.py``,
``cards/game/entries.py``) and the replay's words, without the command line."""

from __future__ import annotations

import pytest

from rummikub.cards.game import engine as cards
from rummikub.cards.game import entries as card_entries
from rummikub.cards.game import words as card_words
from rummikub.cards.game.strategies import strategy
from rummikub.cards.rules import preset
from rummikub.tiles.game import engine as tiles
from rummikub.tiles.game import entries as tile_entries
from rummikub.tiles.game import words as tile_words
from rummikub.tiles.rules import STANDARD


def test_a_tile_turn_played_on_and_undone_gives_the_record_back() -> None:
    record = tiles.deal(["Ann", "Bob"], STANDARD, 3)
    state = tiles.start(record)
    turn = tile_entries.drawn(state, None)
    assert turn.tile == state.pool[0]  # type: ignore[index]
    played, after = tile_entries.played_on(record, state, turn)
    assert played.turns == (turn,) and after.turns == 1
    back, game = tile_entries.undone(played)
    assert back == record and game.state == state
    with pytest.raises(tile_entries.EntryError, match="no turn to undo"):
        tile_entries.undone(record)
    assert tile_words.replay_data(tiles.replay(played))["legal_turns"] == 1
    assert tile_words.replay_lines(tiles.replay(played), "g.toml")[-1] == "All 1 turns are legal."


def test_a_strategys_card_turn_is_played_on_and_undone() -> None:
    record = cards.new_game(["Ann", "Bob"], preset("rummy"), 3)
    state = card_entries.playable(cards.start(record))
    _, _, turn = card_entries.strategy_turn(state, strategy("keep"))
    played, after = card_entries.played_on(record, state, turn)
    assert after.turns == 1
    back, what = card_entries.undone(played)
    assert back == record and what == "hand 1, turn 1"
    with pytest.raises(card_entries.EntryError, match="no turn to undo"):
        card_entries.undone(record)
    with pytest.raises(card_entries.EntryError, match="a game dealt from a seed deals"):
        card_entries.dealable(record, state)
    with pytest.raises(card_entries.EntryError, match="scores are entered only"):
        card_entries.scores_wanted(state)
    data = card_words.replay_data(cards.replay(played))
    assert (data["hands"], data["turns"], data["legal"]) == (1, 1, True)
