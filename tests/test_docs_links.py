"""Every relative link of the documentation leads somewhere: README.md, the pages of docs/
and puzzles/README.md. A link ``[text](path#anchor)`` names a file of the checkout and, with
an anchor into a Markdown file, one of its headings, by GitHub's rule for heading anchors;
``[text](#anchor)`` a heading of its own page. Links out of the checkout (``https:``) are not
followed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGES = sorted([REPO / "README.md", REPO / "puzzles" / "README.md", *(REPO / "docs").glob("*.md")])
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`[^`]*`")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped (letters, digits,
    ``_`` and ``-`` kept), each space a hyphen."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())  # a link: its text
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def outside_code(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, with their numbers."""
    lines, fenced = [], False
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def anchors(page: Path) -> set[str]:
    """Every heading's anchor, a repeated one numbered as GitHub does (``-1``, ``-2``)."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in outside_code(page.read_text(encoding="utf-8")):
        match = re.match(r"^#{1,6} (.+?)#*$", line)
        if match is None:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[tuple[int, str]]:
    found = []
    for number, line in outside_code(page.read_text(encoding="utf-8")):
        # Code spans hold no links, but a link's text may be code: `[`x`](y)`.
        plain = CODE.sub("", line)
        found += [(number, target) for target in LINK.findall(plain)]
    return found


def broken(page: Path) -> list[str]:
    problems = []
    for number, target in links(page):
        if re.match(r"^[a-z][a-z+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        name = f"{page.relative_to(REPO)}:{number}: ({target})"
        if not where.exists():
            problems.append(f"{name}: no file {path}")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            problems.append(f"{name}: no heading #{anchor} in {where.relative_to(REPO)}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_every_link_of_the_page_leads_somewhere(page: Path) -> None:
    assert broken(page) == []


def test_the_links_are_read() -> None:
    """The reading finds links of every kind: to a page, to a heading of another page, to
    a heading of the same page, to a picture."""
    readme = [target for _, target in links(REPO / "README.md")]
    assert "docs/cli.md" in readme and "ARCHITECTURE.md" in readme
    assert any(t.startswith("docs/") and "#" in t for t in readme)
    every = [target for page in PAGES for _, target in links(page)]
    assert any(t.startswith("#") for t in every)
    assert any(t.endswith(".png") for t in every)


def test_every_page_of_docs_is_linked_from_the_readme_and_the_contents() -> None:
    readme = {target for _, target in links(REPO / "README.md")}
    contents = {target for _, target in links(REPO / "docs" / "README.md")}
    for page in (REPO / "docs").glob("*.md"):
        if page.name != "README.md":
            assert f"docs/{page.name}" in readme, f"README.md does not link docs/{page.name}"
            assert page.name in contents, f"docs/README.md does not link {page.name}"


def test_the_slug_is_githubs() -> None:
    assert slug("The equity of a position: `analyse --equity`") == (
        "the-equity-of-a-position-analyse---equity"
    )
    assert slug("Limits and exit codes of `game`, `play` and `simulate`") == (
        "limits-and-exit-codes-of-game-play-and-simulate"
    )
    assert slug("Card games: `game` and `play`") == "card-games-game-and-play"


def test_the_contents_page_lists_every_section() -> None:
    """docs/README.md links every page's ``##`` sections (cli.md's are its commands)."""
    contents = {target for _, target in links(REPO / "docs" / "README.md")}
    missing = []
    for page in sorted((REPO / "docs").glob("*.md")):
        if page.name in ("README.md", "cli.md"):
            continue
        for _, line in outside_code(page.read_text(encoding="utf-8")):
            if line.startswith("## ") and f"{page.name}#{slug(line[3:])}" not in contents:
                missing.append(f"{page.name}#{slug(line[3:])}")
    assert missing == [], f"docs/README.md does not list: {', '.join(missing)}"
