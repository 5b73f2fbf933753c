"""A section of RESULTS.md between two marker comments, which one benchmark rewrites while
the rest of the file is left as it is (or kept while the rest is rewritten)."""

from __future__ import annotations

from pathlib import Path


def replace_section(text: str, section: str, start: str, end: str) -> str:
    """``text`` with its ``start``...``end`` section replaced by ``section`` (appended if
    absent)."""
    if start in text and end in text:
        head, _, rest = text.partition(start)
        _, _, tail = rest.partition(end)
        return head + section.rstrip("\n") + tail
    return text.rstrip("\n") + "\n\n" + section


def kept_section(path: Path, start: str, end: str) -> str | None:
    """The ``start``...``end`` section of ``path``, to be kept when the rest is rewritten."""
    if not path.exists():
        return None
    text = path.read_text()
    if start not in text or end not in text:
        return None
    return start + text.partition(start)[2].partition(end)[0] + end + "\n"
