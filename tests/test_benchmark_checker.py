"""The checker benchmark (``python -m benchmarks --corpus checker``), in its quick form."""

from __future__ import annotations

from pathlib import Path

from benchmarks import checker, run


def test_quick_checker_run_writes_its_section(tmp_path: Path) -> None:
    out = tmp_path / "RESULTS.md"
    lines: list[str] = []
    code = run.main(
        ["--quick", "--no-peer", "--corpus", "checker", "--out", str(out)], say=lines.append
    )
    assert code == 0
    report = out.read_text()
    assert "## The checker (`rummikub check`)" in report
    assert "| a tile changed | 3 |" in report
    assert any(line.startswith("checker answer: median") for line in lines)


def test_quick_checker_run_judges_answers_legal_and_variants_illegal() -> None:
    reports = checker.run(1, quick=True, say=lambda _: None)
    assert [r.kind for r in reports] == list(checker.KINDS)
    assert all(len(r.times) == checker.QUICK_SIZE and not r.wrong for r in reports)
