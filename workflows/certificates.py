"""The end of a permit's life: the Certificate of Compliance of a Notice of
Intent and the certificate of completion of a Land Disturbance Permit.

- Notice of Intent (310 CMR 10.05, WPA Forms 8A and 8B; every Order,
  whatever the by-law adds): the holder asks in writing
  (``certificate-requested``, who asked and whether for all the work or a
  part), which starts the 21-day ``certificate-decision`` clock; the
  commission issues the Certificate (``certificate-issued``, complete or
  partial, with the conditions that continue past it, such as
  maintenance) or denies it in writing with reasons
  (``certificate-denied``); the holder records it at the Registry of Deeds
  (``certificate-recorded``).  A complete Certificate leaves the Order
  ``certified``; its recording ends the filing (``completed``).  A partial
  one, and a denial, leave the Order in force for the rest.
- Land Disturbance (Mansfield Ch. 25 Part B §15): the Commission issues "a
  letter certifying completion" once it has received and approved the final
  report and as-built plan (§13), "and/or" found all the work done; the
  surety is released in full only after both (§12; a phase's share before,
  ``surety-released`` with ``phase``).  The letter ends the filing.

``completion-certified``, the one event of before, still closes a filing
and meets the certificate-decision clock.  Pure: no I/O.
"""

from __future__ import annotations

from .machine import Guard
from .machine import Transition as T

__all__ = ["certificate_rows", "completion_rows", "complete_certificate", "CERTIFICATE_GUARDS", "CERTIFICATES", "COMPLETION"]

CERTIFICATES = "310 CMR 10.05 (Certificates of Compliance; WPA Forms 8A, 8B)"
COMPLETION = "Mansfield Stormwater By-Law Ch. 25 Part B §15"


def complete_certificate(ctx, e) -> bool:
    return e.get("scope") == "complete"


def certificate_rows(S) -> tuple[T, ...]:
    """A Notice of Intent's Certificate of Compliance, for a state enum
    with ISSUED, RENEWED, CERTIFIED and COMPLETED."""
    live = (S.ISSUED.value, S.RENEWED.value)
    return (
        T("certificate-requested", live, None),
        T("certificate-issued", live, S.CERTIFIED.value, cond="complete_certificate"),
        T("certificate-issued", live, None),  # a partial Certificate: the rest of the Order stays in force
        T("certificate-denied", live, None),
        T("certificate-recorded", (S.CERTIFIED.value,), S.COMPLETED.value),
        T("certificate-recorded", live, None, guards=("a_certificate_to_record",)),
    )


def completion_rows(S) -> tuple[T, ...]:
    """A Land Disturbance Permit's certificate of completion (§15)."""
    live = (S.ISSUED.value, S.RENEWED.value)
    return (T("certificate-issued", live, S.COMPLETED.value, guards=("completion_certifies_all_the_work",)),)


def a_certificate_to_record(ctx, e):
    if not any(x.type == "certificate-issued" for x in ctx.events):
        return f"no Certificate of Compliance is on record to record at the Registry of Deeds ({CERTIFICATES})"
    return None


def completion_certifies_all_the_work(ctx, e):
    if e.get("scope") != "complete":
        return (
            f"the Commission's letter certifies that all the work of the permit is completed ({COMPLETION}); "
            f"a completed phase releases its part of the surety instead: surety-released with phase (§12)"
        )
    return None


CERTIFICATE_GUARDS = {
    g.name: g
    for g in (
        Guard("a_certificate_to_record", a_certificate_to_record, CERTIFICATES),
        Guard("completion_certifies_all_the_work", completion_certifies_all_the_work, f"{COMPLETION}; §12"),
    )
}
