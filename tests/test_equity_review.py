"""The equity review (game/review.py): marks at their thresholds, accuracy, luck that sums to
zero over every tile that could be drawn, the played move on evaluate's deals, the CLI
(``analyse RECORD --equity``, ``game annotate``, ``game show``) and a seeded game between
``best`` and ``equity``."""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rummikub.cli import main
from rummikub.tiles.game.engine import real_table, replay
from rummikub.tiles.game.equity import Budget, evaluate, move_wins
from rummikub.tiles.game.record import Draw, Record, load, save
from rummikub.tiles.game.review import (
    ACCURACY_SCALE,
    BLUNDER,
    INACCURACY,
    MISTAKE,
    THRESHOLDS,
    accuracy_of,
    draw_equities,
    draw_luck,
    equity_review,
    mark_of,
)
from rummikub.tiles.game.simulate import play_game
from rummikub.tiles.game.strategies import STRATEGIES
from rummikub.tiles.game.view import unseen, view_of
from rummikub.tiles.rules import Rules
from rummikub.tiles.tiles import parse_tiles

#: A box of 21 tiles (the README's endgame box): a whole game in a few seconds.
TINY = Rules(numbers=7, colors="KRB", copies=1, jokers=0, initial_meld=0)
#: Two copies of each tile, so that the luck's weights are not all one.
PAIRS = Rules(numbers=4, colors="KRB", copies=2, jokers=0, initial_meld=0)
SMALL = Budget(samples=3, rounds=1)


# -- marks and accuracy ---------------------------------------------------------------------


def test_the_thresholds_are_documented_values() -> None:
    assert (INACCURACY, MISTAKE, BLUNDER) == (0.05, 0.10, 0.20)
    assert THRESHOLDS == (("??", 0.20), ("?", 0.10), ("?!", 0.05))


@pytest.mark.parametrize(
    ("mark", "threshold", "below"),
    [("?!", 0.05, None), ("?", 0.10, "?!"), ("??", 0.20, "?")],
)
def test_each_mark_starts_at_its_threshold(mark: str, threshold: float, below: str | None) -> None:
    assert mark_of(threshold) == mark
    assert mark_of(math.nextafter(threshold, 0.0)) == below
    assert mark_of(math.nextafter(threshold, 1.0)) == mark


def test_no_mark_for_a_best_move_and_a_blunder_beyond() -> None:
    assert mark_of(0.0) is None
    assert mark_of(1.0) == "??"


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0))
def test_marks_and_accuracy_are_monotonic(a: float, b: float) -> None:
    low, high = sorted((a, b))
    order = [None, "?!", "?", "??"]
    assert order.index(mark_of(low)) <= order.index(mark_of(high))
    assert accuracy_of(low) >= accuracy_of(high)
    assert 0.0 < accuracy_of(high) <= 100.0


def test_accuracy_is_the_documented_function() -> None:
    assert accuracy_of(0.0) == 100.0
    assert accuracy_of(ACCURACY_SCALE) == pytest.approx(100 / math.e)
    assert round(accuracy_of(INACCURACY), 1) == 81.9
    assert round(accuracy_of(BLUNDER), 1) == 44.9


# -- luck -----------------------------------------------------------------------------------


def _before_my_draw() -> Record:
    """A real table of two on the PAIRS box, my rack known: after Bob's draw, my turn."""
    rack = parse_tiles("K1 K4 R2 B3")
    return real_table(["Me", "Bob"], PAIRS, 0, rack, rack_size=4).with_turns(
        [Draw(parse_tiles("K2")[0]), Draw(None)]
    )


def test_the_luck_of_a_draw_is_zero_on_average_over_every_tile_that_could_be_drawn() -> None:
    record = _before_my_draw()
    state = replay(record).state
    position, view = view_of(state)
    counts = Counter(unseen(position, view))
    assert set(counts.values()) == {1, 2}  # the weights matter
    lucks = {}
    for tile in counts:
        # The whole review of the record with this tile drawn: the luck of its last turn.
        found = equity_review(record.with_turns([*record.turns, Draw(tile)]), "r", SMALL)
        lucks[tile] = found.turns[-1].luck
        assert lucks[tile] == draw_luck(position, view, tile, SMALL)
    total = sum(counts.values())
    expected = math.fsum(counts[t] * luck for t, luck in lucks.items() if luck is not None) / total
    assert expected == pytest.approx(0.0, abs=1e-12)
    assert max(lucks.values()) > min(lucks.values())  # some tiles are luckier than others


def test_the_equities_after_a_draw_do_not_depend_on_the_tile_drawn() -> None:
    state = replay(_before_my_draw()).state
    position, view = view_of(state)
    first = draw_equities(position, view, SMALL)
    assert first == draw_equities(position, view, SMALL)
    assert set(first) == set(unseen(position, view))
    assert all(0.0 <= e <= 1.0 for e in first.values())


# -- the move played, on evaluate's deals ---------------------------------------------------


def test_a_move_scored_apart_gets_the_win_evaluate_gives_it() -> None:
    record, _ = _game(1)
    state = replay(record).states[4]  # a position with a choice
    position, view = view_of(state)
    found = evaluate(position, view, SMALL)
    assert len(found.candidates) > 1
    for candidate in found.candidates:
        wins = move_wins(position, view, candidate.move, SMALL)
        assert math.fsum(wins) / len(wins) == pytest.approx(candidate.win, abs=1e-12)


@functools.cache
def _game(seed: int, rack_size: int = 6) -> tuple[Record, float]:
    record, _ = play_game(
        TINY,
        [STRATEGIES["best"], STRATEGIES["equity-v1"]],
        seed,
        rack_size=rack_size,
        names=["best", "eq"],
    )
    return record, 0.0


def test_the_review_is_deterministic_and_its_figures_add_up() -> None:
    record, _ = _game(1)
    first = equity_review(record, "g.toml", SMALL)
    assert first == equity_review(record, "g.toml", SMALL)
    assert len(first.turns) == len(record.turns)
    for turn in first.turns:
        assert turn.win is not None and turn.played_win is not None and turn.lost is not None
        assert turn.lost == pytest.approx(max(0.0, turn.win - turn.played_win))
        assert (turn.luck is not None) == (turn.kind == "draw")
    for line in first.players:
        graded = [t for t in first.turns if t.seat == line.seat and t.graded]
        assert line.graded == len(graded)
        assert line.lost == pytest.approx(sum(t.lost or 0.0 for t in graded))


def test_the_review_of_a_seeded_game_shows_equity_losing_less_than_best() -> None:
    # Judged with twice the deals the equity strategy decides with (benchmarks/RESULTS.md,
    # "The game review", has the standard game).
    record, _ = _game(1)
    found = equity_review(record, "g.toml", Budget(samples=12, rounds=1))
    by = {line.player: line for line in found.players}
    assert by["eq"].lost < by["best"].lost
    assert by["best"].accuracy is not None and by["eq"].accuracy is not None
    assert by["eq"].accuracy > by["best"].accuracy
    assert any(t.mark is not None for t in found.turns if t.player == "best")


def test_a_turn_whose_rack_is_unknown_is_not_judged() -> None:
    record = _before_my_draw()
    found = equity_review(record, "r", SMALL)
    me, bob = found.turns
    assert me.win is not None and me.luck is not None
    assert bob.win is None and bob.luck is None and bob.lost is None
    assert found.players[1].graded == 0 and found.players[1].accuracy is None


# -- the command line -----------------------------------------------------------------------


def _saved(tmp_path: Path, seed: int = 1, rack_size: int = 6) -> Path:
    path = tmp_path / "g.toml"
    save(_game(seed, rack_size)[0], path)
    return path


def test_analyse_equity_json_and_text(tmp_path: Path) -> None:
    path = _saved(tmp_path, rack_size=3)
    turns = len(load(path).turns)
    runner = CliRunner()
    first = runner.invoke(main, ["analyse", str(path), "--equity", "--json"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert data["thresholds"] == {"??": 0.2, "?": 0.1, "?!": 0.05}
    assert data["budget"] == {"samples": 6, "rounds": 1}
    assert len(data["turns"]) == turns
    assert {p["player"] for p in data["players"]} == {"best", "eq"}
    text = runner.invoke(main, ["analyse", str(path), "--equity"])
    assert text.exit_code == 0
    assert f"equity review: {turns} turns" in text.output
    assert "accuracy" in text.output and "luck" in text.output


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--chart", "x.png"], "use it with --equity"),
        # A record with a puzzle: a position's equity is analyse --equity on puzzles alone.
        (
            ["--equity", str(Path(__file__).parent.parent / "puzzles/basics/two-tiles-fit.toml")],
            "give RECORD files only",
        ),
        (["--equity", "--playouts", "5"], "--playouts is an option of a position's --equity"),
    ],
)
def test_analyse_equity_usage(tmp_path: Path, options: list[str], words: str) -> None:
    path = _saved(tmp_path)
    found = CliRunner().invoke(
        main, ["analyse", *([] if "--rack" in options else [str(path)]), *options]
    )
    assert found.exit_code == 2
    assert words in found.output


def test_a_chart_without_matplotlib_is_a_clean_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    real = importlib.import_module

    def no_matplotlib(name: str, *args: object) -> object:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args)  # type: ignore[arg-type]

    path = _saved(tmp_path, rack_size=3)
    monkeypatch.setattr(importlib, "import_module", no_matplotlib)
    found = CliRunner().invoke(main, ["analyse", str(path), "--equity", "--chart", "x.png"])
    assert found.exit_code == 2
    assert "pip install 'rummikub[chart]'" in found.output
    assert "Traceback" not in found.output


def test_a_chart(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="the chart needs the [chart] extra (matplotlib)")
    path, chart = _saved(tmp_path, rack_size=3), tmp_path / "g.png"
    found = CliRunner().invoke(main, ["analyse", str(path), "--equity", "--chart", str(chart)])
    assert found.exit_code == 0, found.output
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_annotate_writes_the_review_and_show_prints_it(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    runner = CliRunner()
    found = runner.invoke(main, ["game", "annotate", str(path), "--samples", "12"])
    assert found.exit_code == 0, found.output
    assert "Annotated 15 turns" in found.output
    record = load(path)
    assert record.annotator == "rummikub game annotate (12 deals x 1 round a turn)"
    assert record.with_notes(()) == _game(1)[0]  # the same game
    notes = [record.note(n) for n in range(1, len(record.turns) + 1)]
    marked = []
    for note in notes:
        assert note is not None and note.win is not None
        assert note.mark == (None if note.lost is None else mark_of(note.lost))
        assert bool(note.variations) == (note.mark is not None)
        if note.mark is not None:
            marked.append(note)
    assert marked  # best's turn 5 (README, "The game review")
    shown = runner.invoke(main, ["game", "show", str(path)])
    assert shown.exit_code == 0
    assert "Annotations, by rummikub game annotate" in shown.output
    assert f"{marked[0].mark} (win" in shown.output
    assert "( 5. best: drew )" in shown.output
    data = json.loads(runner.invoke(main, ["game", "show", str(path), "--json"]).output)
    assert len(data["annotations"]) == len(notes)


def test_annotate_keeps_a_comment_and_refuses_a_record_changed_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rummikub.cli import review as cli_review
    from rummikub.tiles.game.record import Note

    path = _saved(tmp_path, rack_size=3)
    record = load(path)
    save(record.with_notes([Note(comment="a slow start")]), path)
    annotated = CliRunner().invoke(main, ["game", "annotate", str(path), "--samples", "2"])
    assert annotated.exit_code == 0
    note = load(path).note(1)
    assert note is not None and note.comment == "a slow start" and note.win is not None

    real = cli_review.equity

    def meanwhile(*args: object, **kwargs: object) -> object:
        found = real(*args, **kwargs)  # type: ignore[arg-type]
        save(load(path).with_turns(load(path).turns[:-1]), path)  # another program's undo
        return found

    monkeypatch.setattr(cli_review, "equity", meanwhile)
    found = CliRunner().invoke(main, ["game", "annotate", str(path), "--samples", "2"])
    assert found.exit_code == 2
    assert "changed by another program" in found.output
    assert len(load(path).turns) == len(record.turns) - 1  # the other program's write stands


def test_the_luck_playout_is_the_equity_playout() -> None:
    from rummikub.tiles.game import review
    from rummikub.tiles.game.engine import advance
    from rummikub.tiles.game.equity import deals_of, playout

    state = replay(_before_my_draw()).state
    position, view = view_of(state)
    moves: dict[object, object] = {}
    for deal in deals_of(position, view, SMALL):
        for tile in sorted(set(unseen(position, view)), key=PAIRS.sort_key):
            after = advance(review._drawing(deal, tile), Draw(tile), judge=False)
            assert after.racks[0] is not None and tile in after.racks[0]
            found = review._playout(after, 0, 1, moves)  # type: ignore[arg-type]
            assert found == playout(after, 0, 1)
    assert moves  # the solves were kept


@pytest.mark.parametrize(
    ("lost", "mark"), [(0.09996, "?"), (0.0999, "?!"), (0.04996, "?!"), (0.0499, None)]
)
def test_a_turn_is_marked_by_its_loss_as_written(lost: float, mark: str | None) -> None:
    from rummikub.tiles.game.review import EquityTurn

    turn = EquityTurn(1, 0, "Ann", "play", (), None, win=0.5, played_win=0.5 - lost)
    assert replace(turn, lost=lost, choices=2).mark == mark
    assert replace(turn, lost=lost, choices=1).mark is None  # no choice, no mark
    assert mark_of(round(lost, 4)) == mark
