"""The layers are checked, not hoped: the import-linter contracts in
pyproject.toml hold, they fail when an upward import is planted, and no
module of the project imports itself in a circle."""

import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("cli", "web", "services", "sweep", "demo", "config", "notices", "models", "workflows", "calendars")
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _lint(where: Path) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    return subprocess.run(
        [str(LINT_IMPORTS), str(where / "pyproject.toml"), "--no-cache"], cwd=where, env=env, capture_output=True, text=True
    )


def _copy(tmp_path: Path) -> Path:
    dest = tmp_path / "tree"
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, dest / pkg, ignore=shutil.ignore_patterns("__pycache__", "templates"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


def test_the_layer_contracts_hold_on_the_tree_as_it_is(tmp_path):
    result = _lint(_copy(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 kept, 0 broken" in result.stdout


@pytest.mark.parametrize(
    "planted_in, line, contract",
    [
        ("workflows/filing.py", "import sweep.run", "Layers"),  # the core reaching up to the sweep (and through it, Prefect)
        ("models/schema/tables.py", "import notices.render", "Layers"),  # the record reaching up to notices
        ("calendars/rules.py", "import cli.args", "Layers"),  # date law reaching the interface
        ("workflows/replay.py", "import sqlalchemy", "Pure core"),  # the core reaching for a database
        ("calendars/business.py", "import jinja2", "Pure core"),
        (
            "web/staff/pages.py",
            "import web.applicant.my_filings",
            "Rooms of the web",
        ),  # one audience's pages reaching into another's
        ("web/staff/pages.py", "import models.store.filings", "Interfaces read the record"),  # a page writing past the services
        ("cli/store.py", "from models.accounts.users import Users", "Interfaces read the record"),
        ("web/app.py", "from models.schema.tables import FilingRow", "Interfaces read the record"),
    ],
)
def test_an_upward_or_impure_import_breaks_a_contract(tmp_path, planted_in, line, contract):
    tree = _copy(tmp_path)
    target = tree / planted_in
    target.write_text(target.read_text() + f"\n{line}  # planted by the test\n")
    result = _lint(tree)
    assert result.returncode != 0, "the contracts did not notice: " + result.stdout
    broken = [ln for ln in result.stdout.splitlines() if "BROKEN" in ln]  # "BROKEN (1 ignored import)"
    assert any(ln.startswith(contract) for ln in broken), result.stdout
    assert planted_in.replace("/", ".").removesuffix(".py") in result.stdout


def test_every_package_is_named_in_the_layers_contract():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")["layers"]
    named = {name.strip() for layer in layers for name in layer.split("|")}
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists() and p.name != "tests"}
    assert named == packages == set(config["root_packages"])


def _cycles(graph) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for m in sorted(graph.modules):
        if m not in index:
            visit(m)
    return found


def test_no_module_imports_itself_in_a_circle():
    graph = grimp.build_graph(*PACKAGES)
    assert len(graph.modules) > 50  # the whole project was read
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_planted_circle(tmp_path):
    pkg = tmp_path / "circle_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from circle_pkg import b\n")
    (pkg / "b.py").write_text("from circle_pkg import c\n")
    (pkg / "c.py").write_text("import circle_pkg.a\n")
    sys.path.insert(0, str(tmp_path))
    try:
        graph = grimp.build_graph("circle_pkg", cache_dir=None)
    finally:
        sys.path.remove(str(tmp_path))
    assert _cycles(graph) == [["circle_pkg.a", "circle_pkg.b", "circle_pkg.c"]]
