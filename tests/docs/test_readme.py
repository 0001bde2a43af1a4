"""The README stays a newcomer's two screens: at most 250 lines, and a quick
start of exactly two commands, `make demo` and `make test`, in one block."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
TEXT = README.read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = TEXT.index(f"\n## {title}\n")
    end = TEXT.find("\n## ", start + 1)
    return TEXT[start : end if end != -1 else len(TEXT)]


def test_the_readme_is_at_most_250_lines():
    assert len(TEXT.splitlines()) <= 250


def test_the_quick_start_is_two_commands_in_one_block():
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```$", _section("Quick start"), re.S | re.M)
    assert len(blocks) == 1
    assert [line.strip() for line in blocks[0].splitlines() if line.strip()] == ["make demo", "make test"]


def test_the_readme_has_the_glossary_a_newcomer_needs():
    glossary = _section("Glossary")
    for term in ("NOI", "RDA", "Order of Conditions", "WPA", "DPW", "Docket", "Clock", "`wpa:`"):
        assert f"**{term}" in glossary or f"**The {term}" in glossary, term
