"""One notation reader for every place a tile or meld is typed (rummikub/tiles/notation.py),
and one for every place a card is (rummikub/cards/cards.py): the command line, files, game
records, ``game``, ``play``, the web API all read ``R1-5`` and ``KRB7`` alike."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from rummikub.cards.puzzles import loads as load_card_text
from rummikub.core.errors import PuzzleError
from rummikub.tiles.game import loads as load_record_text
from rummikub.tiles.game.engine import start
from rummikub.tiles.game.play import read_move
from rummikub.tiles.game.record import Play
from rummikub.tiles.notation import parse_rack
from rummikub.tiles.position import Position
from rummikub.tiles.puzzles import loads as load_puzzle_text
from rummikub.tiles.tiles import Tile
from rummikub.web.api import read_position
from tests.tools import run

PACKAGE = Path(__file__).resolve().parents[1] / "rummikub"

#: A real table's dealt rack in the quick notation: 14 tiles.
RACK = "R1-5 KRB7 O1-6"
RACK_TILES = [str(t) for t in parse_rack(RACK)]


def real_table(tmp_path: Path) -> str:
    path = str(tmp_path / "real.toml")
    code, _, err = run(
        "game", "new", path, "--players", "Me,Ann", "--rack", RACK, "--rule", "initial_meld=0"
    )
    assert code == 0, err
    return path


def shown(path: str) -> dict[str, object]:
    code, out, err = run("game", "show", path, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


# -- rummikub game -------------------------------------------------------------------------


def test_game_new_reads_the_rack_in_the_quick_notation(tmp_path: Path) -> None:
    path = real_table(tmp_path)
    racks = shown(path)["racks"]
    assert isinstance(racks, list) and racks[1] is None
    assert sorted(racks[0]) == sorted(RACK_TILES)  # shown in rack order


def test_game_apply_reads_a_table_of_ranges_and_shorthands(tmp_path: Path) -> None:
    path = real_table(tmp_path)
    code, out, err = run("game", "apply", path, "--table", "R1-3 | KRB7", "--table", "O1-4")
    assert code == 0, err
    assert "Me played" in out
    table = shown(path)["table"]
    assert table == [
        {"kind": "run", "tiles": ["R1", "R2", "R3"]},
        {"kind": "group", "tiles": ["K7", "R7", "B7"]},
        {"kind": "run", "tiles": ["O1", "O2", "O3", "O4"]},
    ]


def test_game_apply_plays_a_group_shorthand(tmp_path: Path) -> None:
    path = real_table(tmp_path)
    code, out, err = run("game", "apply", path, "--play", "KRB7")
    assert code == 0, err
    assert "Me played K7 R7 B7" in out


def test_a_game_option_that_is_not_notation_names_the_option_and_column(tmp_path: Path) -> None:
    path = real_table(tmp_path)
    code, _, err = run("game", "apply", path, "--table", "R1-3 Q")
    assert code == 2
    assert err.splitlines() == [
        "Error: --table 'R1-3 Q': column 6 ('Q'): invalid tile 'Q': expected a color "
        "letter and a number (e.g. R7) or J"
    ]
    code, _, err = run("game", "new", str(tmp_path / "x.toml"), "--rack", "R1-0")
    assert code == 2
    assert err.startswith("Error: --rack 'R1-0': column 1 ('R1-0'): invalid range 'R1-0'")


def test_a_record_written_by_hand_reads_the_quick_notation() -> None:
    record = load_record_text(
        f'format = "rummikub-game/1"\nplayers = ["Me", "Ann"]\nme = 0\n'
        f'[rules]\ninitial_meld = 0\n[deal]\nracks = ["{RACK}", "?"]\n'
        '[[turns]]\nplay = ["R1-3", "KRB7"]\n',
        "g.toml",
    )
    assert record.problem is None
    assert [str(t) for t in record.deal.racks[0] or ()] == RACK_TILES
    turn = record.turns[0]
    assert isinstance(turn, Play)
    assert [str(m) for m in turn.table] == ["R1 R2 R3", "K7 R7 B7"]


# -- the same text, the same tiles, wherever it is typed ---------------------------------


@pytest.mark.parametrize("text", ["R1-3 KRB7", "Y7, B9-11 J", "R1-R3,KO2"])
def test_a_rack_reads_alike_everywhere(text: str) -> None:
    expected = list(parse_rack(text, box=False))
    assert list(load_puzzle_text(f'rack = "{text}"', "p.toml").position.rack) == expected
    assert list(Position.parse(rack=text).rack) == expected
    assert list(read_position({"rack": text}).rack) == expected
    record = load_record_text(
        f'format = "rummikub-game/1"\nplayers = ["Me", "Ann"]\nme = 0\n'
        f'[deal]\nracks = ["{text}", "?"]\n',
        "g.toml",
    )
    assert list(record.deal.racks[0] or ()) == expected


def test_play_reads_a_table_as_game_apply_does() -> None:
    record = load_record_text(
        f'format = "rummikub-game/1"\nplayers = ["Me", "Ann"]\nme = 0\n'
        f'[rules]\ninitial_meld = 0\n[deal]\nracks = ["{RACK}", "?"]\n',
        "g.toml",
    )
    move = read_move(start(record), "R1-3 | KRB7")
    assert isinstance(move, Play)
    assert [str(m) for m in move.table] == ["R1 R2 R3", "K7 R7 B7"]


# -- no second reader ------------------------------------------------------------------


def _called(path: Path) -> set[str]:
    """The names ``path`` calls: ``parse_tiles``, ``Tile.parse``, ``Card.parse``..."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name):
            found.add(func.id)
        elif isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else "?"
            found.add(f"{owner}.{func.attr}")
    return found


#: The readers of canonical tiles and melds only (``R7``, ``R5 J R7``): what typed text
#: must not go through, since they know no range or shorthand.
CANONICAL_TILES = {"parse_tiles", "Tile.parse", "RawMeld.parse", "Meld.parse"}
#: Who may call them: their own modules, the notation built on them, and readers of the
#: program's own output (the colors of printed tiles, a move's melds, explanation steps).
MAY_READ_CANONICAL = {
    "tiles/tiles.py",
    "tiles/melds.py",
    "tiles/notation.py",
    "render/text.py",
    "tiles/game/engine.py",
    "tiles/game/play.py",
    "tiles/explain/results.py",
}


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_typed_tiles_are_read_by_the_notation_only(path: Path) -> None:
    name = str(path.relative_to(PACKAGE))
    if name in MAY_READ_CANONICAL:
        return
    assert not _called(path) & CANONICAL_TILES, name


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_words_of_tiles_and_cards_are_split_in_one_place(path: Path) -> None:
    # tile_words (tiles.py) and card_words (cards.py) split at spaces and commas.
    if path.relative_to(PACKAGE).as_posix() == "cards/cards.py":
        return
    assert 'replace(",", " ")' not in path.read_text(), path


def test_a_card_word_reads_alike_in_a_hand_a_meld_and_the_wild_option() -> None:
    text = 'game = "500-rum"\nhand = "7S,8S  9S"\ntable = ["5H,6H 7H"]\n[rules]\nwild = "AH,  AD"\n'
    position = load_card_text(text, "p.toml").position
    assert [str(c) for c in position.hand] == ["7S", "8S", "9S"]
    assert [str(c) for c in position.table[0].cards] == ["5H", "6H", "7H"]
    assert [str(c) for c in position.rules.wild] == ["AH", "AD"]


def test_one_card_expected_where_one_card_is_written() -> None:
    text = 'game = "rummy"\nhand = "7S 8S"\nafter = []\nafter_discard = "7S 8S"\n'
    with pytest.raises(PuzzleError) as caught:
        load_card_text(text, "p.toml")
    assert caught.value.problems == ("after_discard \"7S 8S\": expected one card, such as 'KH'",)


def test_yellow_reads_as_orange_in_a_record_unless_the_rules_have_yellow() -> None:
    def rack(rules: str) -> tuple[Tile, ...] | None:
        record = load_record_text(
            'format = "rummikub-game/1"\nplayers = ["Me", "Ann"]\nme = 0\n'
            f'{rules}[deal]\nracks = ["Y7 KY8", "?"]\n',
            "g.toml",
        )
        return record.deal.racks[0]

    assert rack("") == (Tile("O", 7), Tile("K", 8), Tile("O", 8))
    assert rack('[rules]\ncolors = "KRBY"\n') == (Tile("Y", 7), Tile("K", 8), Tile("Y", 8))
