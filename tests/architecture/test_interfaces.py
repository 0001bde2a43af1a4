"""Honest interfaces: every package says what it is and what it may import;
every ``__all__`` is true (each name it lists can be imported); no module
reaches for another module's private (``_``) names; and the error tree drawn
in workflows/errors.py is complete: every exception class of the project is
in the drawing, under its real parent, with the module it lives in."""

import ast
import importlib
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("calendars", "workflows", "parcels", "models", "notices", "config", "sweep", "demo", "services", "cli", "web")
#: what may import a private name, with why: none
ALLOWED_PRIVATE: dict[tuple[str, str], str] = {}


def _modules():
    """(dotted name, path) of every module of the project's packages (the
    Alembic scripts, which Alembic loads by path, left out)."""
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            if "migrations" in path.parts and (path.name == "env.py" or "versions" in path.parts):
                continue  # Alembic's own: it loads them by path
            rel = path.relative_to(ROOT).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            yield ".".join(parts), path


def _sources():
    """Every Python file a private import could hide in: the packages, the
    benchmarks and the tests."""
    for _, path in _modules():
        yield path
    for folder in ("benchmarks", "tests"):
        yield from sorted((ROOT / folder).rglob("*.py"))


def _is_project(module: str) -> bool:
    return module.split(".")[0] in PACKAGES


def _resolve(node: ast.ImportFrom, path: Path) -> str:
    """The absolute module an ``ImportFrom`` names (relative ones resolved)."""
    if not node.level:
        return node.module or ""
    rel = path.relative_to(ROOT).with_suffix("").parts
    base = list(rel[:-1]) if rel[-1] != "__init__" else list(rel[:-1])
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_uses(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found, modules = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_project(alias.name):
                    modules.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(node, path)
            if not _is_project(source):
                continue
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {source} import {alias.name}")
                elif importlib.util.find_spec(source) and _is_submodule(source, alias.name):
                    modules.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name):
            if node.value.id in modules:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr}")
    return [f for f in found if (str(path.relative_to(ROOT)), f.split(": ", 1)[1]) not in ALLOWED_PRIVATE]


def _is_submodule(package: str, name: str) -> bool:
    try:
        return importlib.util.find_spec(f"{package}.{name}") is not None
    except (ModuleNotFoundError, ValueError):
        return False


def test_no_module_imports_another_modules_private_names():
    found = [use for path in _sources() for use in _private_uses(path)]
    assert found == [], "private names used across modules (make them public, or move them):\n" + "\n".join(found)


def test_the_private_import_check_finds_a_planted_one(tmp_path):
    planted = ROOT / "tests" / "architecture" / "_planted_private_import.py"
    planted.write_text("from workflows.clocks import event_order\nfrom workflows import clocks\nclocks._plans\n")
    try:
        assert _private_uses(planted) == [f"{planted.relative_to(ROOT)}:3: clocks._plans"]
        planted.write_text("from notices.render import _environment\n")
        assert _private_uses(planted) == [f"{planted.relative_to(ROOT)}:1: from notices.render import _environment"]
    finally:
        planted.unlink()


@pytest.mark.parametrize("module", [m for m, _ in _modules()])
def test_every_name_in_all_can_be_imported(module):
    mod = importlib.import_module(module)
    names = getattr(mod, "__all__", None)
    if names is None:
        assert not (ROOT / module.replace(".", "/") / "__init__.py").exists(), f"package {module} states no __all__"
        return
    assert len(names) == len(set(names)), f"{module}.__all__ names one twice"
    missing = []
    for name in names:
        if hasattr(mod, name):
            continue
        if _is_submodule(module, name):
            importlib.import_module(f"{module}.{name}")
            continue
        missing.append(name)
    assert missing == [], f"{module}.__all__ lists names it does not have: {missing}"
    path = ROOT / module.replace(".", "/")
    if (path / "__init__.py").exists() and all(_is_submodule(module, n) for n in names):  # a package listing its modules
        public = {f.stem for f in path.glob("*.py") if not f.name.startswith("_")}
        public |= {d.name for d in path.iterdir() if (d / "__init__.py").exists()}
        assert set(names) == public, f"{module}.__all__ leaves out modules: {sorted(public - set(names))}"


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_says_what_it_is_and_what_it_may_import(package):
    doc = importlib.import_module(package).__doc__ or ""
    assert len(doc.split()) >= 20, f"{package}/__init__.py: say what the layer is"
    assert "May import" in doc, f"{package}/__init__.py: say what it may import"


# -- the error tree ------------------------------------------------------------------


def _drawing() -> dict[str, tuple[str | None, str | None]]:
    """Each class drawn in workflows/errors.py's docstring: (its parent in
    the drawing, the module it names)."""
    from workflows import errors

    out: dict[str, tuple[str | None, str | None]] = {}
    stack: list[tuple[int, str]] = []
    for line in (errors.__doc__ or "").splitlines():
        if not line.startswith("    ") or not re.search(r"[A-Z]", line):
            stack = [] if not line.strip() else stack
            continue
        m = re.match(r"^(?P<lead>\s*(?:[│ ]\s*)*)(?:[├└]── )?(?P<name>_?[A-Z][A-Za-z]+)\b(?:\s+\((?P<module>[a-z_.]+)\))?", line)
        if not m:
            continue
        depth = len(m.group("lead")) + (4 if "── " in line else 0)
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent = stack[-1][1] if stack else None
        out[m.group("name")] = (parent, m.group("module"))
        stack.append((depth, m.group("name")))
    return out


def _exception_classes() -> dict[str, tuple[str, str]]:
    """Every class of the project's code deriving from an exception: name ->
    (its base's name, its module)."""
    classes: list[tuple[str, list[str], str]] = []
    for module, path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                classes.append((node.name, [ast.unparse(b).split(".")[-1] for b in node.bases], module))
    roots = {"Exception", "BaseException", "ValueError", "KeyError", "RuntimeError", "LookupError"}
    found: dict[str, tuple[str, str]] = {}
    grew = True
    while grew:
        grew = False
        for name, bases, module in classes:
            if (name, module) in {(n, m) for n, (_, m) in found.items()}:
                continue
            base = next((b for b in bases if b in roots or b in found), None)
            if base is not None:
                assert name not in found, f"two exception classes named {name}: {found[name][1]} and {module}"
                found[name] = (base, module)
                grew = True
    return found


def test_the_error_tree_draws_every_exception_class_under_its_parent_and_module():
    drawn = _drawing()
    real = _exception_classes()
    assert "PermitsError" in real and "UsageError" in real  # the scan sees the whole project
    missing = sorted(set(real) - set(drawn))
    assert missing == [], f"exception classes missing from the drawing in workflows/errors.py: {missing}"
    gone = sorted(set(drawn) - set(real) - {"Exception"})
    assert gone == [], f"the drawing names classes the code does not have: {gone}"
    wrong = []
    for name, (base, module) in real.items():
        parent, named_module = drawn[name]
        if (parent or "Exception") != base:
            wrong.append(f"{name}: drawn under {parent}, derives from {base}")
        if (named_module or "workflows.errors") != module:
            wrong.append(f"{name}: drawn in {named_module or 'workflows.errors'}, defined in {module}")
    assert wrong == []


def test_the_error_tree_check_notices_a_class_left_out(monkeypatch):
    from workflows import errors

    monkeypatch.setattr(errors, "__doc__", errors.__doc__.replace("     │    └── UnservableYear   (calendars.errors)", ""))
    assert "UnservableYear" not in _drawing()
    assert "UnservableYear" in _exception_classes()
