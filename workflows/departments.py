"""Facts about the town's departments that no town's by-law changes: which
department runs each permit kind, and when the DPW owes an inspection of a
temporary patch.  Pure: the callers pass the events.

The section that has the DPW inspect a temporary patch is the town's
(Canton 16-12 §10.2: :attr:`workflows.rulebook.PermitRules.patch_inspection`);
a town that sets none owes no such inspection on the schedule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

__all__ = ["DEPARTMENTS", "department_of", "PATCH_INSPECTION", "PATCH_EVENTS", "pending_patch_inspection"]

#: Which town office runs each permit kind: the Conservation Commission hears
#: wetlands filings and (Mansfield Ch. 25 Part B §7) Land Disturbance Permits;
#: the Department of Public Works runs street openings (Canton 16-12 §9).  It
#: keeps the enforcement cases of its by-laws too (``enforcement``).
DEPARTMENTS: Mapping[str, str] = MappingProxyType(
    {
        "noi": "conservation",
        "rda": "conservation",
        "land-disturbance": "conservation",
        "street-opening": "dpw",
        "enforcement": "conservation",
    }
)


def department_of(kind: str) -> str:
    """``conservation`` or ``dpw``: who keeps the docket of permit ``kind``."""
    return DEPARTMENTS[kind]


#: The DPW schedule's name for the inspection after a temporary patch.
PATCH_INSPECTION = "temporary patch inspection"
#: the event types :func:`pending_patch_inspection` reads
PATCH_EVENTS = ("temporary-patch-placed", "inspected", "permanent-patch-placed", "permit-revoked")


def pending_patch_inspection(events: Iterable):
    """The ``temporary-patch-placed`` event still waiting for its
    inspection (none passed since, no permanent patch, not revoked), or
    None.  ``events`` in record order, each with ``type``, ``date`` and
    ``get(field)``."""
    patched = None
    for e in events:
        if e.type == "temporary-patch-placed":
            patched = e
        elif e.type == "inspected" and e.get("stage") == "temporary-patch" and e.get("result") == "pass":
            patched = None
        elif e.type in ("permanent-patch-placed", "permit-revoked"):
            patched = None
    return patched
