"""Every link from the README and between the documents in docs/ reaches
a file of the repository and, when it names one, a heading of that file."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    """The text without fenced code blocks and inline code, where a bracket
    is not a link."""
    text = re.sub(r"^```.*?^```$", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file: lower case,
    punctuation dropped, spaces to hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    anchors = set()
    text = re.sub(r"^```.*?^```$", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


def _links():
    for page in PAGES:
        for target in LINK.findall(_prose(page.read_text(encoding="utf-8"))):
            if not re.match(r"[a-z]+:", target):
                yield page, target


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_of_the_page_resolves(page):
    broken = []
    for source, target in _links():
        if source != page:
            continue
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.exists() or ROOT not in (dest, *dest.parents):
            broken.append(target)
        elif anchor and (dest.suffix != ".md" or anchor not in _anchors(dest)):
            broken.append(target)
    assert broken == []


def test_the_anchors_are_read_as_github_makes_them():
    anchors = _anchors(ROOT / "docs" / "reference" / "machines.md")
    assert {"clock-statuses", "clock-statuses-1", "street-opening", "dig-safe"} <= anchors


def test_every_document_in_docs_is_linked_from_the_index():
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    targets = {(ROOT / "docs" / t.partition("#")[0]).resolve() for t in LINK.findall(index)}
    unlinked = [str(p.relative_to(ROOT)) for p in PAGES[1:] if p.name != "README.md" and p.resolve() not in targets]
    assert unlinked == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_of_the_repository_a_page_names_is_there(page):
    """A test, module or folder named in a page (``tests/...py``,
    ``services/record.py``) exists: moving one moves the page's words too."""
    text = page.read_text(encoding="utf-8")
    named = set(
        re.findall(
            r"(?<![\w/.])((?:tests|services|models|notices|sweep|workflows|calendars|cli|web|config|demo|benchmarks)/[\w/.-]+\.(?:py|json|j2|html|md))",
            text,
        )
    )
    missing = sorted(n for n in named if not (ROOT / n).exists())
    assert missing == [], f"{page.relative_to(ROOT)} names files that are not there: {missing}"
