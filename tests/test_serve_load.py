"""The serve load test's own parts (the burst itself runs in ``python -m benchmarks serve``)."""

from __future__ import annotations

from benchmarks.serve_load import END, START, Run, markdown, replace_section


def test_quantiles_and_rate() -> None:
    run = Run(2.0, tuple(i / 100 for i in range(1, 201)), ())
    assert run.rate == 100.0
    assert run.quantile(0.5) == 1.0
    assert run.quantile(0.99) == 1.98
    assert run.quantile(1.0) == 2.0


def test_the_section_replaces_only_itself() -> None:
    runs = [Run(10.0, (0.5,) * 200, ()), Run(8.0, (0.4,) * 199 + (1.5,), ("x",))]
    section = markdown(runs, 200, 2, "python -m benchmarks serve")
    assert section.startswith(START) and section.rstrip().endswith(END)
    assert "**22.5 requests/s**" in section
    assert "1 of 400 requests lost or failed" in section
    text = "# Benchmarks\n\nbefore\n"
    once = replace_section(text, section)
    assert once.startswith(text.rstrip("\n")) and section in once
    again = replace_section(once + "\nafter\n", section.replace("22.5", "99.9"))
    assert again.count(START) == 1 and "99.9" in again and again.endswith("after\n")
