"""A filing's numbers: the town's running number, which names the filing
in the record (``CAN-NOI-2026-000097``: the town's code, the permit's,
the year it was filed, the running number of that kind and year in six
digits), and the file number MassDEP assigns a state filing
(``SE 073-1234``).  Pure: what the next number is, the service that files a
new filing finds under a lock (:mod:`services.numbering`).
"""

from __future__ import annotations

import re

from .filing import VOID
from .towns import town

__all__ = ["KIND_CODES", "DIGITS", "running_prefix", "running_id", "running_number", "massdep_file"]

#: each permit kind's code in a filing's number
KIND_CODES = {"noi": "NOI", "rda": "RDA", "land-disturbance": "LDP", "street-opening": "SOP"}
#: the running number's width: ``000097``
DIGITS = 6


def running_prefix(town_id: str, kind: str, year: int) -> str:
    """The start every number of a town's kind and year shares:
    ``CAN-NOI-2026-`` (the town's code, :attr:`workflows.rulebook.TownProfile.code`)."""
    return f"{town(town_id).code}-{KIND_CODES[kind]}-{year}-"


def running_id(prefix: str, number: int) -> str:
    """The filing number ``number`` of the sequence ``prefix``."""
    return f"{prefix}{number:0{DIGITS}d}"


def running_number(filing_id: str, prefix: str) -> int | None:
    """The running number of ``filing_id`` in the sequence ``prefix`` (the
    six digits after it), or None for an id outside it (a number given by
    hand, an older form such as ``CAN-NOI-2026-WC57FC0``)."""
    rest = filing_id[len(prefix) :] if filing_id.startswith(prefix) else ""
    return int(rest) if re.fullmatch(rf"[0-9]{{{DIGITS}}}", rest) else None


def massdep_file(filing) -> str | None:
    """The file number MassDEP assigned the filing: the latest
    ``file-number-assigned`` not voided, else the filing's ``massdep_file``
    field, else None (not assigned, or not a state filing)."""
    voided = {e.fields.get("voids") for e in filing.events if e.type == VOID}
    for e in reversed(filing.events):
        if e.type == "file-number-assigned" and e.position not in voided:
            return str(e.fields.get("number"))
    given = filing.extra.get("massdep_file")
    return str(given) if given else None
