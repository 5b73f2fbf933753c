"""The ``cards`` benchmark corpus, in its quick form, so that it cannot rot unnoticed."""

from __future__ import annotations

from benchmarks import cards
from rummikub.cards.rules import GAMES


def test_cards_corpus_is_reproducible_and_in_range() -> None:
    first = cards.corpus(3, quick=True)
    assert first == cards.corpus(3, quick=True)
    assert first != cards.corpus(4, quick=True)
    assert {c.position.rules.game for c in first} == set(GAMES)
    for case in first:
        assert 7 <= len(case.position.hand) <= 15
        assert len(case.position.table) <= 12


def test_quick_cards_run_proves_and_checks_every_answer() -> None:
    lines: list[str] = []
    timings = cards.run(1, quick=True, say=lines.append)
    assert len(lines) == len(GAMES)
    assert all(t.proven == t.legal == len(t.seconds) for t in timings)
    report = cards.markdown(timings, 1)
    assert "## Card rummies (`cards` corpus)" in report
    assert f"| all | {len(GAMES) * cards.QUICK_SIZE} |" in report
