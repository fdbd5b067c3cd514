"""The README is short and the docs it sends a reader to are there (issue 34, point 6)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#([\w-]+))?\)")


def anchors(doc: Path) -> set[str]:
    """GitHub's anchors for a Markdown file's headings (lower case, punctuation dropped, spaces as '-')."""
    headings = re.findall(r"^#+ (.+)$", doc.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}


def test_the_readme_is_at_most_250_lines_and_names_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    assert "make run" in readme and "make test" in readme


def test_every_link_of_the_docs_leads_to_a_file_and_heading_that_exist() -> None:
    links = [(doc, target, anchor) for doc in DOCS
             for target, anchor in LINK.findall(doc.read_text(encoding="utf-8")) if "://" not in target]
    assert len(links) >= 10  # the reader finds the links (a reader that finds none would pass anything)
    for doc, target, anchor in links:
        path = (doc.parent / target).resolve()
        assert path.exists(), f"{doc.relative_to(ROOT)} links to {target}, which is not there"
        if anchor:
            assert anchor in anchors(path), f"{doc.relative_to(ROOT)} links to {target}#{anchor}: no such heading"


def test_no_code_cites_a_document_that_is_not_in_the_repository() -> None:
    code = [p for folder in ("engine", "bot", "tests", "bench", "tools") for p in (ROOT / folder).rglob("*.py")]
    # The project's design notes and its Japanese review live outside the repository (spelt apart: not a citation);
    # what the code needs of them is in docs/.
    outside = ("DESIGN" + ".md", "ja-style" + ".md", "../" + "shared")
    cited = [str(p.relative_to(ROOT)) for p in code if any(o in p.read_text(encoding="utf-8") for o in outside)]
    assert cited == []
