"""Filing ids: one rule, checked at every entry, and the one way to make a
file name of one.

A filing id names files (notices under ``--out``, the sweep's
``notices/<id>/`` folder) and rows, so it is held to one rule
(:data:`ID_RULE`): letters, digits, ``-``, ``_`` and ``.``, 1 to 64
characters, not starting with ``.``.  No separator, no ``..`` at the front,
no newline: an id can neither leave a folder nor split an error line.
File names built from ids go through :func:`safe_child`, which also checks
the resolved path stays inside the folder.

Pure apart from :func:`safe_child`, which resolves a path (no write).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .errors import PermitsError

__all__ = ["ID_RULE", "BadFilingId", "UnsafePath", "check_filing_id", "safe_child"]

_ID = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}")
ID_RULE = "a filing id is 1-64 letters, digits, '-', '_' or '.', not starting with '.'"


class BadFilingId(PermitsError):
    def __init__(self, value):
        self.value = value
        shown = repr(value) if isinstance(value, str) else f"{type(value).__name__} {value!r:.60}"
        super().__init__(f"invalid filing id {shown[:90]}: {ID_RULE}")


class UnsafePath(PermitsError):
    pass


def check_filing_id(text) -> str:
    """``text`` if it is a valid filing id (:data:`ID_RULE`), else BadFilingId."""
    if not isinstance(text, str) or not _ID.fullmatch(text):
        raise BadFilingId(text)
    return text


def safe_child(folder, *parts: str) -> Path:
    """``folder/part/...``, each part a plain name (no separator, not ``.``
    or ``..``), and the resolved result inside the resolved ``folder``;
    UnsafePath otherwise."""
    base = Path(folder)
    for part in parts:
        if not part or part in (".", "..") or "/" in part or (os.sep in part) or "\x00" in part:
            raise UnsafePath(f"unsafe file name {part!r} under {str(base)!r}: a plain name is required")
    path = base.joinpath(*parts)
    root = base.resolve()
    if not path.resolve().is_relative_to(root):
        raise UnsafePath(f"{str(path)!r} lies outside the output folder {str(root)!r}")
    return path
