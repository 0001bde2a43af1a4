"""The benchmarks name the house as it is: every name a benchmark imports
from the project's packages resolves (a move of a module, as issue 30's
house made, must move the benchmark's import with it; `make bench` found
``from models import workbench`` and ``services.deposits.open_deposits``
gone only after twenty minutes of other benchmarks)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"calendars", "cli", "config", "demo", "models", "notices", "parcels", "services", "sweep", "web", "workflows"}


def _project_imports(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] in PACKAGES:
                yield node.lineno, node.module, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    yield node.lineno, alias.name, []


def _missing(module: str, names: list[str]) -> list[str]:
    try:
        found = importlib.import_module(module)
    except ImportError as exc:
        return [f"{module} ({exc})"]
    gone = []
    for name in names:
        if hasattr(found, name):
            continue
        try:
            importlib.import_module(f"{module}.{name}")
        except ImportError:
            gone.append(f"{module}.{name}")
    return gone


def test_every_project_name_a_benchmark_imports_exists():
    problems = [
        f"{path.name}:{line}: {gone}"
        for path in sorted((ROOT / "benchmarks").glob("*.py"))
        for line, module, names in _project_imports(path)
        for gone in _missing(module, names)
    ]
    assert problems == []


def test_a_stale_import_is_found(tmp_path):
    """The check itself: a module that names what the house no longer has."""
    stale = tmp_path / "bench_stale.py"
    stale.write_text("from models import no_such_room\nfrom services.deposits import open_deposits\n")
    found = [gone for _, module, names in _project_imports(stale) for gone in _missing(module, names)]
    assert found == ["models.no_such_room", "services.deposits.open_deposits"]
