"""The analysis benchmark (``python -m benchmarks --corpus analysis``), in its quick form."""

from __future__ import annotations

from pathlib import Path

from benchmarks import analysis, run


def test_quick_analysis_run_writes_its_section(tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.md"
    lines: list[str] = []
    code = run.main(
        ["--quick", "--no-peer", "--corpus", "analysis", "--out", str(out)], say=lines.append
    )
    assert code == 0
    report = out.read_text()
    assert "## Analysis (`rummikub analyse`)" in report
    assert "| game | 3 |" in report
    assert "Target: `--outs` on a standard position" in report
    assert any(line.startswith("analysis game: --top 5 median") for line in lines)


def test_quick_analysis_finds_only_legal_moves() -> None:
    reports = analysis.run(1, quick=True, say=lambda _: None)
    assert reports and all(not r.illegal for r in reports)
    assert all(len(r.top) == len(r.outs) == analysis.QUICK_SIZE for r in reports)
