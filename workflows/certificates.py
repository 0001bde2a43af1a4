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
and meets the certificate-decision clock.

A Certificate ends what it certifies (docs/reference/readings.md, "A
Certificate ends its Order").  A complete one (``scope: complete``, or
``completion-certified``) closes every clock of the permit still to come
on the day it issues: the expiry and the renewal request are no longer
due, the work clocks stop, and each shows the status ``closed`` with the
Certificate and its day (:data:`CLOSABLE`, :func:`closed_text`), so the
filing leaves every list of what is due (the docket, Today, the digest, the
reminders).  What the record already shows (met, late, passed, a violation
on record) stays as it was.  A partial Certificate certifies the part it
names (``portion``) and leaves the rest of the Order in force: its clocks
run on, and their explanation names it (:func:`partial_text`).
Pure: no I/O.
"""

from __future__ import annotations

from .machine import Guard
from .machine import Transition as T
from .written import day_written

__all__ = [
    "certificate_rows",
    "completion_rows",
    "complete_certificate",
    "CERTIFICATE_GUARDS",
    "CERTIFICATES",
    "COMPLETION",
    "CLOSED",
    "CLOSABLE",
    "closes",
    "closed_text",
    "partial_text",
    "recorded_at",
    "certificate_lines",
]

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


#: the status of a clock a complete Certificate closed
CLOSED = "closed"
#: clock type -> the statuses a complete Certificate closes: what was still
#: to come under the permit (a deadline due, a day not yet allowed, the
#: permit's life); what the record already shows stays as it is
CLOSABLE = {
    "deadline": frozenset({"open", "overdue", "unknown"}),
    "earliest": frozenset({"waiting"}),
    "expiry": frozenset({"active", "expired"}),
}


def closes(certificate, clock_type: str, status: str) -> bool:
    """Whether ``certificate`` (the record's complete Certificate, or None)
    closes a clock of ``clock_type`` whose status would be ``status``."""
    return certificate is not None and status in CLOSABLE.get(clock_type, ())


def _what(kind: str) -> tuple[str, str, str]:
    """(the certificate's name, what it ends, the rule) for a permit of ``kind``."""
    if kind == "land-disturbance":
        return "the Commission's letter certifying completion", "the permit", COMPLETION
    return "the Certificate of Compliance", "the Order", CERTIFICATES


def closed_text(certificate, kind: str) -> str:
    """The explanation's closing words for a clock ``certificate`` closed."""
    name, ends, rule = _what(kind)
    return (
        f"; closed by {certificate.type} on {day_written(certificate.date)} (event {certificate.position}): "
        f"{name} certifies all the work, so {ends} no longer runs and nothing more is due under it ({rule})"
    )


def partial_text(partials, kind: str) -> str:
    """The explanation's words for the partial Certificates on record: each
    certifies its part; the rest stays in force."""
    _, ends, rule = _what(kind)
    out = ""
    for e in partials:
        part = (e.get("portion") or "").strip() or "the part it names"
        out += (
            f"; a partial certificate-issued on {day_written(e.date)} (event {e.position}) certifies {part}: "
            f"the rest of {ends} stays in force ({rule})"
        )
    return out


def recorded_at(e) -> str:
    """Where a ``certificate-recorded`` says the Certificate is recorded: the
    Registry of Deeds' book and page, or its instrument number, when given."""
    parts = []
    if e.get("book"):
        parts.append(f"Book {e.get('book')}")
    if e.get("page"):
        parts.append(f"Page {e.get('page')}")
    if e.get("instrument"):
        parts.append(f"instrument {e.get('instrument')}")
    return ", ".join(parts)


def certificate_lines(kind: str, events) -> list[str]:
    """The Certificates on record (``events``: the filing's live events), in
    words for the filing's page: each issued, for all the work or for its
    part, and where it was recorded (the Registry's book and page)."""
    name, ends, _ = _what(kind)
    name = name[0].upper() + name[1:]
    out = []
    for e in events:
        if e.type in ("certificate-issued", "completion-certified"):
            if e.type == "completion-certified" or e.get("scope") == "complete":
                out.append(f"{name}, for all the work, issued {day_written(e.date)}: {ends} is closed.")
            else:
                part = (e.get("portion") or "").strip() or "a part of the work"
                out.append(f"{name}, partial, for {part}, issued {day_written(e.date)}: the rest of {ends} stays in force.")
        elif e.type == "certificate-recorded":
            where = recorded_at(e)
            out.append(f"Recorded at the Registry of Deeds {day_written(e.date)}" + (f", {where}." if where else "."))
    return out
