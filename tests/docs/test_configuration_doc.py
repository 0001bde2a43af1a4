"""docs/operations/configuration.md is kept true: its table of settings is
config.SETTINGS, row for row; every PERMITS_ name in the project's code is
in that table or among the variables other programs read; and no module
outside config/ reads the environment for a PERMITS_ name."""

import ast
import re
from pathlib import Path

import pytest

from config import SETTINGS

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "operations" / "configuration.md"
TEXT = DOC.read_text(encoding="utf-8")
PACKAGES = ("cli", "web", "services", "sweep", "demo", "config", "notices", "models", "workflows", "calendars")
NAME = re.compile(r"PERMITS_[A-Z_]+")
ROW = re.compile(r"^\| `(PERMITS_[A-Z_]+)` \| (.*) \| (.*) \|$", re.M)


def _section(title: str) -> str:
    start = TEXT.index(f"\n## {title}\n")
    end = TEXT.find("\n## ", start + 1)
    return TEXT[start : end if end != -1 else len(TEXT)]


def _code_files() -> list[Path]:
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    files += [ROOT / "prefect.yaml", ROOT / "Makefile"]
    files += [p for p in (ROOT / ".ci").iterdir() if p.is_file()]
    return files


def _names_in_code() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in _code_files():
        for name in set(NAME.findall(path.read_text(encoding="utf-8"))):
            found.setdefault(name, []).append(str(path.relative_to(ROOT)))
    return found


def test_the_settings_table_is_config_settings_row_for_row():
    rows = ROW.findall(_section("Settings"))
    assert rows == [(s.name, s.default, s.meaning) for s in SETTINGS]


def test_every_permits_name_in_the_code_is_on_the_page():
    settings = {name for name, _, _ in ROW.findall(_section("Settings"))}
    others = {name for name, _, _ in ROW.findall(_section("Variables that are not settings"))}
    missing = {name: where for name, where in _names_in_code().items() if name not in settings | others}
    assert missing == {}, f"docs/operations/configuration.md lacks: {missing}"


def test_the_variables_that_are_not_settings_are_not_settings_and_are_still_used():
    others = {name for name, _, _ in ROW.findall(_section("Variables that are not settings"))}
    assert others, "the page lists the PERMITS_ names other programs read"
    assert not others & {s.name for s in SETTINGS}
    assert others <= set(_names_in_code())


def test_every_declared_setting_is_read_by_config_load():
    source = (ROOT / "config" / "settings.py").read_text(encoding="utf-8")
    body = source[source.index("\nclass Settings(") :]  # what follows the declarations: load and its helpers
    unread = [s.name for s in SETTINGS if f'"{s.name}"' not in body]
    assert unread == []


def _environment_reads(source: str) -> list[str]:
    """The PERMITS_ names a module reads from os.environ or os.getenv: by a
    string, or by a module-level name bound to one."""
    tree = ast.parse(source)
    constants = {
        t.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        for t in node.targets
        if isinstance(t, ast.Name)
    }

    def value(node) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return constants.get(node.id)
        return None

    def is_environ(node) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr == "environ") or (
            isinstance(node, ast.Name) and node.id == "environ"
        )

    reads = []
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Call) and node.args:
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in ("get", "pop", "setdefault") and is_environ(f.value):
                key = value(node.args[0])
            elif (isinstance(f, ast.Attribute) and f.attr == "getenv") or (isinstance(f, ast.Name) and f.id == "getenv"):
                key = value(node.args[0])
        elif isinstance(node, ast.Subscript) and is_environ(node.value):
            key = value(node.slice)
        elif isinstance(node, ast.Compare) and any(is_environ(c) for c in node.comparators):
            key = value(node.left)
        if key and key.startswith("PERMITS_"):
            reads.append(key)
    return reads


@pytest.mark.parametrize(
    "source",
    [
        'import os\nos.environ.get("PERMITS_X")',
        'import os\nos.environ["PERMITS_X"]',
        'import os\nos.getenv("PERMITS_X", "")',
        'from os import environ\nNAME = "PERMITS_X"\nenviron.get(NAME)',
        'import os\nif "PERMITS_X" in os.environ: pass',
    ],
)
def test_the_check_below_sees_each_way_of_reading_the_environment(source):
    assert _environment_reads(source) == ["PERMITS_X"]


def test_no_module_outside_config_reads_the_environment_for_a_permits_name():
    readers = {}
    for pkg in PACKAGES:
        if pkg == "config":
            continue
        for path in (ROOT / pkg).rglob("*.py"):
            source = path.read_text(encoding="utf-8")
            names = _environment_reads(source)
            names += [
                m.group(0) for line in source.splitlines() if re.search(r"environ|getenv", line) for m in NAME.finditer(line)
            ]
            if names:
                readers[str(path.relative_to(ROOT))] = sorted(set(names))
    assert readers == {}, f"read the setting through config.load instead: {readers}"
