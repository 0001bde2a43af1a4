"""docs/engineering/how-to.md, the next engineer's recipes, names real
files.  Every repository path it gives in backticks, in its sentences and
in its commands, is there: a file, or a folder when the path ends with
``/``; a path with a ``<placeholder>`` (``workflows/towns/<town>.py``) is a
file to create, and the folder before the placeholder is there.  A name
given right after a file (``workflows/vocabulary.py`` ``CLOCK_NAMES``) is in
that file.  Each recipe has its heading and says when, the steps, the test
and how to see it worked.  The architecture page is held to the same
paths and names, and links the recipes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOW_TO = ROOT / "docs" / "engineering" / "how-to.md"
ARCHITECTURE = ROOT / "docs" / "engineering" / "architecture.md"

#: the recipes the next engineer needs, by heading
RECIPES = (
    "Add a town",
    "Add a clock",
    "Add a page",
    "Add a notice",
    "Change a notice's words",
    "Add a migration",
    "Add a write through a unit of work",
    "Add an effect of an event",
)
#: what each recipe says, in this order
PARTS = ("**When.**", "**Steps.**", "**The test.**", "**See it work.**")
#: where a path may lead that is not the repository's: the virtual
#: environment and the outputs of the demo and the commands
ELSEWHERE = (".venv", "out")

#: a path of files and folders: at least one ``/``, no space, no scheme
PATH = re.compile(r"[\w.<>-]+/[\w./<>-]*")
#: a file at the root of the repository, named alone
ROOT_FILE = re.compile(r"Makefile|[\w-]+\.(?:md|toml|yaml|lock)")
#: a Python name, dotted or not
NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
FENCE = re.compile(r"^ *```[^\n]*\n(.*?)^ *```$", re.S | re.M)
SPAN = re.compile(r"`([^`\n]+)`")
#: a file in backticks, then (after spaces, a line break, an opening
#: parenthesis) a name in backticks
FILE_THEN_NAME = re.compile(r"`([\w./<>-]+\.\w+)`\s+\(?`([^`\n]+)`")


def top_level(root: Path) -> set[str]:
    """The names a repository path starts with: the repository's own files
    and folders at its root (``.ci`` among them), not what a run leaves."""
    return {
        p.name
        for p in root.iterdir()
        if (not p.name.startswith(".") or p.name == ".ci")
        and p.name not in (*ELSEWHERE, "build", "__pycache__")
        and not p.name.endswith(".egg-info")
    }


def _tokens(text: str) -> list[str]:
    """Every word of the page's code: the inline spans and the fenced
    blocks (their commands), split at spaces."""
    blocks = FENCE.findall(text)
    prose = FENCE.sub("", text)
    words = [w for span in SPAN.findall(prose) for w in span.split()]
    return words + [w for block in blocks for w in block.split()]


def _looks_like_a_path(word: str) -> bool:
    """A word of code that names a file (``a/b.py``) or a folder (``a/b/``);
    ``text/csv`` and ``sqlite:///x.db`` do not."""
    if not PATH.fullmatch(word):
        return False
    last = word.rstrip("/").rsplit("/", 1)[-1]
    return word.endswith("/") or bool(re.search(r"\.\w+$", last))


def missing_paths(text: str, root: Path) -> list[str]:
    """Each repository path of ``text`` that is not in ``root``, and why."""
    top = top_level(root)
    out = []
    for word in _tokens(text):
        if ROOT_FILE.fullmatch(word):
            if not (root / word).is_file():
                out.append(f"{word}: no such file at the root")
            continue
        if not _looks_like_a_path(word):
            continue
        first = word.split("/", 1)[0]
        if first in ELSEWHERE:
            continue
        if first not in top:
            out.append(f"{word}: the repository has no {first}/")
            continue
        if "<" in word:
            folder = word[: word.index("<")].rsplit("/", 1)[0]
            if not (root / folder).is_dir():
                out.append(f"{word}: no folder {folder}/ to create it in")
        elif word.endswith("/"):
            if not (root / word).is_dir():
                out.append(f"{word}: no such folder")
        elif not (root / word).exists():
            out.append(f"{word}: no such file")
    return sorted(set(out))


def missing_names(text: str, root: Path) -> list[str]:
    """Each name given right after a file in ``text`` (``path`` ``NAME``)
    that the file does not hold."""
    out = []
    for path, name in FILE_THEN_NAME.findall(FENCE.sub("", text)):
        if "<" in path or not NAME.fullmatch(name) or not (root / path).is_file():
            continue
        first = name.split(".")[0]
        if not re.search(rf"(?<![\w]){re.escape(first)}(?![\w])", (root / path).read_text(encoding="utf-8")):
            out.append(f"{path} has no {name}")
    return sorted(set(out))


def _sections(text: str) -> dict[str, str]:
    """Each ``## `` heading of the page and its text (commands included),
    up to the next one."""
    parts = re.split(r"^## ([^\n]+)\n", text, flags=re.M)
    return {heading.strip(): body for heading, body in zip(parts[1::2], parts[2::2])}


@pytest.mark.parametrize("page", [HOW_TO, ARCHITECTURE], ids=lambda p: p.name)
def test_every_repository_path_the_page_names_is_there(page):
    assert missing_paths(page.read_text(encoding="utf-8"), ROOT) == []


@pytest.mark.parametrize("page", [HOW_TO, ARCHITECTURE], ids=lambda p: p.name)
def test_every_name_the_page_gives_after_a_file_is_in_that_file(page):
    assert missing_names(page.read_text(encoding="utf-8"), ROOT) == []


def test_the_path_check_fails_on_a_path_planted_in_a_copy_of_the_page():
    text = HOW_TO.read_text(encoding="utf-8")
    planted = (
        text
        + "\n\n## Planted\n\nEdit `workflows/towns/nowhere.py`, then `models/stores/`, create"
        + " `workflows/nowhere/<town>.py`, read `nowhere/at/all.py` and `NOWHERE.md`.\n\n"
        + "```\n.venv/bin/python -m pytest tests/nowhere/test_x.py\n```\n"
    )
    assert missing_paths(planted, ROOT) == [
        "NOWHERE.md: no such file at the root",
        "models/stores/: no such folder",
        "nowhere/at/all.py: the repository has no nowhere/",
        "tests/nowhere/test_x.py: no such file",
        "workflows/nowhere/<town>.py: no folder workflows/nowhere/ to create it in",
        "workflows/towns/nowhere.py: no such file",
    ]


def test_the_name_check_fails_on_a_name_planted_in_a_copy_of_the_page():
    text = HOW_TO.read_text(encoding="utf-8")
    planted = text + "\n\nAdd a row to `workflows/vocabulary.py` `NO_SUCH_TABLE` and to\n`sweep/agenda.py` (`NO_SUCH_LIST`).\n"
    assert missing_names(planted, ROOT) == ["sweep/agenda.py has no NO_SUCH_LIST", "workflows/vocabulary.py has no NO_SUCH_TABLE"]


def test_paths_outside_the_repository_and_words_that_are_no_paths_are_left_alone():
    text = "Run `.venv/bin/permits demo`, read `out/demo-DATE/`, answer `text/csv`, open `sqlite:///out/try.db`."
    assert missing_paths(text, ROOT) == []


@pytest.mark.parametrize("recipe", RECIPES)
def test_each_recipe_has_its_heading_and_says_when_the_steps_the_test_and_how_to_see_it(recipe):
    sections = _sections(HOW_TO.read_text(encoding="utf-8"))
    assert recipe in sections, f"docs/engineering/how-to.md has no '## {recipe}'"
    body = sections[recipe]
    places = [body.find(part) for part in PARTS]
    assert -1 not in places and places == sorted(places), f"{recipe}: say {', '.join(PARTS)}, in that order"
    assert re.search(r"`tests/[\w./<>-]+`", body[places[2] : places[3]]), f"{recipe}: name the test to add (a path under tests/)"
    assert FENCE.search(body[places[3] :]), f"{recipe}: see it work with a command (a fenced block)"


def test_the_architecture_page_and_the_index_link_the_recipes():
    assert "(how-to.md" in ARCHITECTURE.read_text(encoding="utf-8")
    assert "(engineering/how-to.md" in (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
