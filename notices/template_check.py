"""A town's templates checked when they are installed
(``permits towns check-templates notices/templates/<town>``), and only
checked ones used from the installed folder: the web, the sweep and
``permits notices`` without ``--templates`` never render a town template
that has changed since it was checked.

The check reads each file of the folder as the renderer will: a name that
overrides a default notice, at most :data:`MAX_TEMPLATE_BYTES`, UTF-8
text, Jinja that compiles in the bounded sandbox (:mod:`notices.bounded`);
then writes the folder's :data:`MANIFEST`, each file's SHA-256.  A
folder given with ``--templates DIR`` on the command line is read afresh
each time and renders under the same bounds.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import jinja2

from .errors import TemplateProblem

__all__ = ["MANIFEST", "MAX_TEMPLATE_BYTES", "check_folder", "mark_checked", "unchecked", "require_checked"]

#: the file in a town's template folder naming each checked file's SHA-256
MANIFEST = ".checked"
#: the largest town template read (a notice's template is a few kilobytes)
MAX_TEMPLATE_BYTES = 256 * 1024


def _files(folder: Path) -> list[Path]:
    return [p for p in sorted(folder.iterdir()) if not p.name.startswith(".") and not p.is_dir()]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check_folder(folder: Path) -> list[str]:
    """Each problem of the town template folder, one line each (none: it may be installed)."""
    from .render import environment, template_names

    folder = Path(folder)
    if not folder.is_dir():
        return [f"{folder}: no such folder of town templates"]
    from workflows.towns import registry

    known = template_names()
    problems = []
    if folder.name not in registry():
        problems.append(f"{folder}: named for no town (a town's folder is named by its id: {', '.join(sorted(registry()))})")
    files = _files(folder)
    if not files:
        problems.append(f"{folder}: holds no template")
    for p in files:
        where = f"{folder.name}/{p.name}"
        if p.name not in known:
            problems.append(f"{where}: overrides no notice; known: {', '.join(sorted(known))}")
            continue
        if p.stat().st_size > MAX_TEMPLATE_BYTES:
            problems.append(f"{where}: over {MAX_TEMPLATE_BYTES // 1024} KB, the most a town template may be")
            continue
        try:
            p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            problems.append(f"{where}: not UTF-8 text")
            continue
    if problems:
        return problems
    try:
        env = environment(folder.name, folder.parent, checked_only=False)
    except TemplateProblem as exc:
        return [str(exc)]
    for p in files:
        try:
            env.get_template(p.name)
        except jinja2.TemplateSyntaxError as exc:
            problems.append(f"{folder.name}/{p.name}, line {exc.lineno}: {exc.message}")
        except jinja2.TemplateError as exc:
            problems.append(f"{folder.name}/{p.name}: {str(exc).strip()[:200]}")
    return problems


def mark_checked(folder: Path) -> None:
    """Write the folder's manifest: each file's SHA-256 as checked now."""
    folder = Path(folder)
    digests = {p.name: _digest(p) for p in _files(folder)}
    (folder / MANIFEST).write_text(json.dumps(digests, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def unchecked(folder: Path) -> list[str]:
    """The folder's files not checked as they are now (none in the manifest, or another digest)."""
    folder = Path(folder)
    try:
        digests = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        digests = {}
    if not isinstance(digests, dict):
        digests = {}
    return [p.name for p in _files(folder) if digests.get(p.name) != _digest(p)]


def require_checked(folder: Path) -> None:
    """TemplateProblem naming the first file of the installed folder that
    has changed since it was checked (or never was)."""
    left = unchecked(folder)
    if left:
        raise TemplateProblem(
            f"town template {folder.name}/{left[0]} has not been checked as it is now"
            + (f" (nor {len(left) - 1} other(s))" if len(left) > 1 else "")
            + f", so it is not used: an administrator checks it first (see 'permits towns check-templates {_shown(folder)}')"
        )


def _shown(folder: Path) -> str:
    """The installed folder as its path from the project (notices/templates/canton)."""
    parts = Path(folder).parts
    return "/".join(parts[-3:]) if len(parts) >= 3 and parts[-3:-1] == ("notices", "templates") else str(folder)
