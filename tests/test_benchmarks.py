"""The benchmark harness, in its ``--quick`` form, so that it cannot rot unnoticed."""

from __future__ import annotations

import doctest
import gc
from collections import Counter
from pathlib import Path

import pytest

import benchmarks.peer
from benchmarks import choices, run, startup, tails
from benchmarks.corpora import CORPORA, GENERALISED, NOT_OPENED_BOXES, Case, box
from benchmarks.record import Record, path_for
from rummikub.tiles.checker import check
from rummikub.tiles.explain import arrangement, narration
from rummikub.tiles.position import Position
from rummikub.tiles.solver import locks, model, solve
from rummikub.tiles.tiles import JOKER


def test_quick_run_writes_a_report(tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.md"
    lines: list[str] = []
    assert run.main(["--quick", "--no-peer", "--out", str(out)], say=lines.append) == 0
    report = out.read_text()
    for name in CORPORA:
        assert f"| {name} |" in report, name
        assert any(line.startswith(name) for line in lines), name
    assert "## One whole process" in report
    assert "## Throughput" in report
    # The process is judged against the floors measured beside it, and the folder call is
    # broken down; two jobs and one give the same answers.
    assert "| floor: `python -c pass` |" in report
    assert "Our cost above the interpreter and OR-Tools" in report
    assert "Where the imports of `python -m rummikub solve" in report
    assert "| rummikub |" in report and "| standard library |" in report
    assert "Where one position's time goes" in report
    assert "byte for byte the same answers" in report
    assert "## Where the time goes" in report and "| building the model |" in report
    # Each corpus's slowest positions profiled (without the peer, no typical ones).
    assert "## Where the time goes, corpus by corpus" in report
    assert "| small | slowest, value |" in report and "typical, peer's setting" not in report
    assert "python -m benchmarks --quick --no-peer --out" in report
    # Every quick position is proven well inside the default time limit.
    assert "| 100% |" in report


def test_import_times_are_summed_by_package() -> None:
    stderr = "\n".join(
        [
            "import time: self [us] | cumulative | imported package",
            "import time:       100 |        100 |   _io",
            "import time:      2000 |       2500 |     click.core",
            "import time:       500 |        500 |   click",
            "import time:      1500 |       9000 | rummikub.tiles.solver",
            "some other line a module printed",
        ]
    )
    parsed = startup.parse(stderr)
    assert parsed == {
        "standard library": (0.0001, 1),
        "click": (0.0025, 2),
        "rummikub": (0.0015, 1),
    }
    shares = sorted(
        (startup.ImportShare(p, s, n) for p, (s, n) in parsed.items()), key=lambda s: -s.seconds
    )
    text = "\n".join(startup.markdown("x", shares, shown=2))
    assert "| click | 2 | 2.5 ms |" in text and "| 1 other packages | 1 | 0.1 ms |" in text


def test_tail_profiles_choose_and_count_the_work() -> None:
    cases = CORPORA["small"].cases(1, size=5)
    timed = [
        tails.Timed(c.name, c.position, seconds)
        for c, seconds in zip(cases, (0.004, 0.001, 0.003, 0.002, 0.002), strict=True)
    ]
    assert [t.name for t in tails.slowest(timed, 2)] == [cases[0].name, cases[2].name]
    # Nearest the median (2 ms): the two at 2 ms, ties by name.
    assert {t.name for t in tails.typical(timed, 2)} == {cases[3].name, cases[4].name}
    profile = tails.profile("small", "slowest", timed, objective="value", time_limit=30)
    # A small opened position is settled by the branch and bound alone: at least its root
    # LP, never CBC; the parts nest inside the whole solve.
    assert profile.lp_solves >= 1 and profile.mip_calls == 0
    assert profile.ms["whole"] > 0
    for part in ("build", "search", "read"):
        assert 0 < profile.ms[part] < profile.ms["whole"], part
    assert profile.ms["clp"] <= profile.ms["search"]
    text = tails.markdown([profile])
    assert "| small | slowest, value |" in text and f"`{cases[0].name}`" in text


def test_quick_choices_run_every_part_and_put_the_caches_back() -> None:
    lines: list[str] = []
    assert choices.main(["--quick"], say=lines.append) == 0
    # Each line begins with its part's name; every part ran, in order.
    assert list(dict.fromkeys(line.split()[0] for line in lines)) == list(choices.PARTS)
    # The A/B parts swapped the cached functions for their plain forms while timing.
    assert model.fates is locks.fates
    assert arrangement.arranged is narration.arranged
    assert hasattr(arrangement.arranged, "cache_clear")


def test_choices_names_an_unknown_part(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        choices.main(["records", "speed"])
    assert exited.value.code == 2
    assert "unknown part 'speed'" in capsys.readouterr().err


def test_quick_without_out_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    default = tmp_path / "RESULTS.md"
    monkeypatch.setattr(run, "DEFAULT_OUT", default)
    lines: list[str] = []
    run.main(["--quick", "--no-peer", "--corpus", "small"], say=lines.append)
    assert not default.exists(), "a quick run must not overwrite benchmarks/RESULTS.md"
    assert len(lines) == 1 and lines[0].startswith("small")


@pytest.mark.parametrize("name", [n for n in CORPORA if n not in run.SIMULATED])
def test_corpora_are_reproducible_and_valid(name: str) -> None:
    first = CORPORA[name].cases(7, quick=True)
    again = CORPORA[name].cases(7, quick=True)
    other = CORPORA[name].cases(8, quick=True)
    assert first == again
    assert first != other
    for case in first:
        position = case.position
        position.validate()
        in_box = box(position.rules)
        assert (
            not Counter(t for m in position.table for t in m.tiles)
            + Counter(position.rack)
            - in_box
        )


def test_quick_corpus_is_the_start_of_the_full_one() -> None:
    quick = CORPORA["mid"].cases(3, quick=True)
    assert CORPORA["mid"].cases(3, size=len(quick) + 2)[: len(quick)] == quick


def test_corpora_have_the_promised_shape() -> None:
    hard = CORPORA["hard"].cases(1, size=12)
    for case in hard:
        position = case.position
        in_play = sum(t.is_joker for m in position.table for t in m.tiles)
        assert in_play + sum(t.is_joker for t in position.rack) == 2, case.name
    assert all(not c.position.opened for c in CORPORA["initial"].cases(1, quick=True))
    assert all(len(c.position.rack) == 14 for c in CORPORA["initial"].cases(1, quick=True))
    presets = {c.position.rules.preset_name() for c in CORPORA["presets"].cases(1, quick=True)}
    assert presets == {"standard", "boxed", "book-1978", "free-jokers"}
    generalised = CORPORA["generalised"].cases(1, quick=True)
    assert all(c.position.rules == GENERALISED for c in generalised)


def test_new_corpora_have_the_promised_shape() -> None:
    for case in CORPORA["rack-jokers"].cases(1, size=10):
        assert 1 <= case.position.rack.count(JOKER) <= 2, case.name
        assert case.position.opened
    for case in CORPORA["full-box"].cases(1, quick=True):
        position = case.position
        assert position.rules == GENERALISED
        assert 140 <= sum(len(m.tiles) for m in position.table) <= 160 + 7
        assert 25 <= len(position.rack) <= 35
    not_opened = CORPORA["not-opened-jokers"].cases(1, size=8)
    assert {c.position.rules for c in not_opened} == set(NOT_OPENED_BOXES)
    assert {c.position.rack.count(JOKER) for c in not_opened} == {1, 2, 3, 4}
    for case in not_opened:
        assert not case.position.opened
        assert 30 <= len(case.position.rack) <= 50


def test_speed_three_corpora_have_the_promised_shape() -> None:
    # Simulated games with jokers locked on the table (issue 28), as recorded.
    locked = Record.load(path_for(1)).locked
    assert len(locked) == CORPORA["locked-jokers"].size
    for case in locked:
        position = case.position
        position.validate()
        assert position.rules.joker_lock == "strict"
        assert 30 <= sum(len(m.tiles) for m in position.table) <= 89, case.name
        assert 10 <= len(position.rack) <= 19, case.name
        assert 1 <= sum(m.tiles.count(JOKER) for m in position.table) <= 2, case.name
    for case in CORPORA["rack-jokers-60"].cases(1, size=10):
        assert not any(JOKER in m.tiles for m in case.position.table), case.name
        assert 1 <= case.position.rack.count(JOKER) <= 2, case.name
        assert 18 <= len(case.position.rack) <= 22, case.name
    largest = CORPORA["largest-box"].cases(1)
    assert [c.position.opened for c in largest].count(False) == 1
    for case in largest:
        position = case.position
        assert position.rules == GENERALISED
        assert 176 <= sum(len(m.tiles) for m in position.table) <= 192 + 7, case.name
        assert 35 <= len(position.rack) <= 46, case.name


def test_late_positions_are_recorded_from_play_that_holds_tiles_back() -> None:
    late = Record.load(path_for(1)).late
    assert len(late) == CORPORA["late"].size
    for case in late:
        position = case.position
        position.validate()
        assert 50 <= sum(len(m.tiles) for m in position.table) <= 100, case.name
        assert 12 <= len(position.rack) <= 25, case.name


def test_stats_percentiles_are_times_that_occurred() -> None:
    stats = run.Stats.of([float(i) for i in range(1, 201)])
    assert (stats.median, stats.p90, stats.p99, stats.max) == (100.5, 180.0, 198.0, 200.0)


def test_full_collections_are_counted_inside_timed_solves_only() -> None:
    with run.FullCollections() as collections:
        gc.collect()  # between solves: the benchmark's own, not a solve's
        collections.timing = True
        gc.collect(1)
        gc.collect()
        collections.timing = False
        gc.collect()
    assert collections.count == 1


def test_game_positions_come_from_play() -> None:
    cases = CORPORA["game"].cases(1, quick=True)
    assert len(cases) == 3
    for case in cases:
        size = sum(len(m.tiles) for m in case.position.table)
        assert 30 <= size <= 100, case.name
        # A position from play: tiles the box holds, and a table of valid melds that the
        # checker accepts as it lies (laying nothing is the only rule it breaks).
        case.position.validate()
        verdict = check(case.position, case.position.table)
        assert [v.rule for v in verdict.violations] == ["nothing-played"], case.name


def test_peer_colour_names() -> None:
    assert doctest.testmod(benchmarks.peer).failed == 0
    names = benchmarks.peer.colour_names(
        GENERALISED, ["BLACK", "BLUE", "ORANGE", "RED", "GREEN", "MAGENTA", "WHITE", "CYAN"]
    )
    assert len(set(names.values())) == len(GENERALISED.colors)


def test_a_joker_at_the_end_of_a_four_tile_run_is_played() -> None:
    """Our side of the gap the report's peer probes show (the peer plays 3 of these tiles):
    we lay the whole run R5 R6 R7 J, and the checker agrees it is legal."""
    position = Position.parse(rack="R5 R6 R7 J")
    result = solve(position)
    assert (result.status, result.tiles) == ("optimal", 4)
    assert check(position, result.table).legal


def test_record_round_trips(tmp_path: Path) -> None:
    game = CORPORA["game"].cases(1, quick=True)
    # Melds whose notation needs care: a two-joker group, a run with a leading joker.
    group = Position.parse(rack="K1", table=["group: K4 J J", "B5 O5 R5"])
    run_and_group = Position.parse(rack="K1", table=["J R2 R3", "B5 O5 J"], opened=False)
    cases = [*game, Case("group", group), Case("run-and-group", run_and_group)]
    record = Record(cases, {"mid-000": (112, 12), "small-003": (0, 0)})
    path = tmp_path / "seed-1.json"
    record.save(path, 1)
    again = Record.load(path)
    assert again.game == cases
    assert again.answers == record.answers
    assert Record.load(tmp_path / "missing.json") == Record()


def test_a_run_reads_the_recorded_games_and_compares_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run, "path_for", lambda seed: tmp_path / f"seed-{seed}.json")
    monkeypatch.setattr(run, "REPO", tmp_path)
    game = CORPORA["game"].cases(1, quick=True)
    renamed = [Case(f"frozen-{i}", case.position) for i, case in enumerate(game)]
    Record(renamed, {"frozen-0": (999, 1)}).save(tmp_path / "seed-1.json", 1)
    out = tmp_path / "R.md"
    lines: list[str] = []
    run.main(["--quick", "--no-peer", "--corpus", "game", "--out", str(out)], say=lines.append)
    report = out.read_text()
    assert "read from seed-1.json" in report
    assert "**0 of 1 equal**" in report
    assert "frozen-0: value" in report
    assert "UNLIKE RECORDED 1" in lines[0]


def test_the_equity_section_states_decision_times_and_duels() -> None:
    from benchmarks import equity

    duel = {
        "b": "best",
        "games": 4,
        "a_win_rate": 0.75,
        "a_win_rate_ci": [0.3, 0.95],
        "score_difference": {"mean": 12.5, "ci": [-3.0, 28.0]},
        "seconds": 8.0,
        "workers": 2,
    }
    text = equity.markdown([0.1, 0.3, 0.2], [duel], "python -m benchmarks equity")
    assert text.startswith(equity.START) and text.rstrip().endswith(equity.END)
    assert "median 0.200 s, p99 0.300 s, max 0.300 s" in text
    assert "| equity-v1 vs best | 4 | 75.0% | 30.0%-95.0% | +12.5 | -3.0 to +28.0 | 0.500" in text
    # The section measures the first equity, and says so: the new one has its own.
    assert "## Play to win (`equity-v1`, the first `equity`)" in text
    assert equity.quantile([5.0, 1.0, 3.0], 0.5) == 3.0


def test_work_counts_lp_solves_and_mip_hand_overs() -> None:
    from benchmarks import work
    from rummikub.core.lp.rows import Rows
    from rummikub.tiles.solver.model import MoveModel

    solve_before, mip_before = Rows.solve, MoveModel._solve_mip
    lines: list[str] = []
    # One node a search: what the root leaves open goes to CBC, the answers stay the same.
    assert work.main(["small", "--ab", "NODE_LIMIT=200,1"], say=lines.append) == 0
    assert Rows.solve is solve_before and MoveModel._solve_mip is mip_before
    wide, narrow = lines[0], lines[1]
    assert wide.startswith("small (value) NODE_LIMIT=200: 100 positions"), wide
    assert "MIP hand-overs 0" in wide
    assert "MIP hand-overs 0" not in narrow, narrow
    assert lines[-1] == "  answers differ on 0 positions"


def test_work_compares_two_exact_back_ends_by_name() -> None:
    from benchmarks import work
    from rummikub.tiles.solver import model

    lines: list[str] = []
    # --ab takes names as well as numbers, and puts the model's own value back afterwards.
    code = work.main(["generalised", "--ab", "COUNTED_EXACT_BACKEND=CBC,SAT"], say=lines.append)
    assert code == 0, lines
    assert model.COUNTED_EXACT_BACKEND == "SAT"
    assert lines[0].startswith("generalised (value) COUNTED_EXACT_BACKEND=CBC: 6 positions")
    assert lines[1].startswith("generalised (value) COUNTED_EXACT_BACKEND=SAT: 6 positions")
    assert lines[-1] == "  answers differ on 0 positions"


def test_work_changes_several_constants_together_and_puts_them_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks import work
    from rummikub.core.lp import zero_half
    from rummikub.tiles.solver import model

    lines: list[str] = []
    # Setting B: no search and no cuts, so every open model goes to the exact back end.
    argv = [
        "generalised",
        "--ab",
        "COUNTED_NODE_LIMIT=50,0",
        "--ab",
        "COUNTED_CUT_NODE_LIMIT=150,0",
    ]
    argv += ["--ab", "rummikub.core.lp.zero_half.CUT_ROUNDS=4,0"]
    assert work.main(argv, say=lines.append) == 0, lines
    assert (model.COUNTED_NODE_LIMIT, model.COUNTED_CUT_NODE_LIMIT) == (50, 150)
    assert zero_half.CUT_ROUNDS == 4
    label = "COUNTED_NODE_LIMIT=0, COUNTED_CUT_NODE_LIMIT=0, CUT_ROUNDS=0"
    assert lines[1].startswith(f"generalised (value) {label}: 6 positions"), lines[1]
    assert "MIP hand-overs 0" in lines[0] and "MIP hand-overs 0" not in lines[1]
    assert lines[-1] == "  answers differ on 0 positions"
    for wrong in ("rummikub.no_such_module.X=1,2", "NO_SUCH=1,2", "NODE_LIMIT=1,2,3"):
        with pytest.raises(SystemExit) as stopped:
            work.main(["generalised", "--ab", wrong], say=lines.append)
        assert stopped.value.code == 2
        assert f"--ab {wrong!r}" in capsys.readouterr().err


def test_processes_are_timed_through_the_interpreters_own_console_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A version manager's shim first on PATH (pyenv's costs ~50 ms a call) is not timed:
    the script pip wrote beside the interpreter is, and PATH only where there is none."""
    scripts = tmp_path / "bin"
    scripts.mkdir()
    monkeypatch.setattr(run.sysconfig, "get_path", lambda name: str(scripts))
    monkeypatch.setattr(run.shutil, "which", lambda name: "/shims/rummikub")
    assert run.rummikub_command() == ["/shims/rummikub"]
    own = scripts / ("rummikub.exe" if run.os.name == "nt" else "rummikub")
    own.write_text("#!/bin/sh\n")
    assert run.rummikub_command() == [str(own)]
    own.unlink()
    monkeypatch.setattr(run.shutil, "which", lambda name: None)
    assert run.rummikub_command()[1:] == ["-m", "rummikub"]
