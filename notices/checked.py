"""Which files of a town's installed template folder were checked as they
are now: the folder's :data:`MANIFEST` (each checked file's SHA-256,
written by :func:`mark_checked` once :mod:`notices.template_check` finds no
problem), read by the renderer before it uses the folder
(:func:`require_checked`)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from .errors import TemplateProblem

__all__ = ["MANIFEST", "files_of", "mark_checked", "unchecked", "require_checked"]

#: the file in a town's template folder naming each checked file's SHA-256
MANIFEST = ".checked"


def files_of(folder: Path) -> list[Path]:
    """The template files of a folder (not its dot files)."""
    return [p for p in sorted(folder.iterdir()) if not p.name.startswith(".") and not p.is_dir()]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def mark_checked(folder: Path) -> None:
    """Write the folder's manifest: each file's SHA-256 as checked now."""
    folder = Path(folder)
    digests = {p.name: _digest(p) for p in files_of(folder)}
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
    return [p.name for p in files_of(folder) if digests.get(p.name) != _digest(p)]


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
