"""Filing ids: what a filing may be called, checked wherever an id comes in
(the command line, the web workbench, an import).  Pure.

An id is 1 to 64 characters of letters, digits, ``-``, ``_`` and ``.``, not
starting with ``.``: safe in a URL path, a file name and a log line.
"""

from __future__ import annotations

import re

from .errors import PermitsError

__all__ = ["BadFilingId", "check_filing_id"]

_ID = re.compile(r"[A-Za-z0-9_\-][A-Za-z0-9_.\-]{0,63}")


class BadFilingId(PermitsError):
    def __init__(self, text: str):
        self.text = text
        shown = text if len(text) <= 70 else text[:67] + "..."
        super().__init__(
            f"invalid filing id {shown!r}: 1-64 letters, digits, '-', '_' or '.', not starting with '.' (FILING-FORMAT.md)"
        )


def check_filing_id(text: str) -> str:
    """``text`` if it is a valid filing id, else raise :class:`BadFilingId`."""
    if not isinstance(text, str) or not _ID.fullmatch(text):
        raise BadFilingId(str(text))
    return text
