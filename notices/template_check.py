"""A town's templates checked when they are installed
(``permits towns check-templates notices/templates/<town>``), and only
checked ones used from the installed folder: the web, the sweep and
``permits notices`` without ``--templates`` never render a town template
that has changed since it was checked.

The check reads each file of the folder as the renderer will: a name that
overrides a default notice, at most :data:`MAX_TEMPLATE_BYTES`, UTF-8
text, Jinja that compiles in the bounded sandbox (:mod:`notices.bounded`);
then the command marks the folder checked (:mod:`notices.checked`).  A
folder given with ``--templates DIR`` on the command line is read afresh
each time and renders under the same bounds.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from .checked import files_of
from .errors import TemplateProblem

__all__ = ["MAX_TEMPLATE_BYTES", "check_folder"]

#: the largest town template read (a notice's template is a few kilobytes)
MAX_TEMPLATE_BYTES = 256 * 1024


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
    files = files_of(folder)
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
