"""What the docket says to do about each deadline, and whether it is open or
overdue on a given day.  Pure: the store supplies the rows."""

from __future__ import annotations

from datetime import date

from .violations import VIOLATIONS

__all__ = ["ACTIONS", "CLOCK_STATUSES", "VIOLATIONS", "action_for", "docket_status", "is_optional"]


#: Every status a replayed clock can have, by clock type, and what it means
#: (docs/reference/machines.md, "Clock statuses"; ``permits machines --format md`` prints it).
CLOCK_STATUSES = (
    ("deadline", "open", "the act is due on or before the date"),
    ("deadline", "overdue", "the date has passed and the act is not on record"),
    ("deadline", "met", "the act is on record on or before the date"),
    ("deadline", "late", "the act is on record after the date"),
    ("deadline", "missed", "a hearing notice or posting not on record when the hearing opened: no longer a task"),
    ("deadline", "unknown", "the record lacks a fact the clock needs (a street opening's length for the winter patch)"),
    (
        "deadline",
        "closed",
        "a complete Certificate of Compliance, or certificate of completion, ended the permit first: no longer due (310 CMR 10.05; Mansfield 25 §15)",
    ),
    (
        "deadline",
        "superseded",
        "MassDEP's superseding order or determination came first: the board's decision is no longer due, and one issued after it is late (310 CMR 10.05(7))",
    ),
    ("earliest", "waiting", "the act may not be done before the date"),
    ("earliest", "passed", "the date has come, or the act was done on or after it"),
    ("earliest", "closed", "a complete Certificate ended the permit before the date: its work clocks stop"),
    ("earliest", "premature", "violation: the act is on record before the date it was allowed"),
    (
        "earliest",
        "violated",
        "violation: the act is on record with no notice, recording, permit or decision that allows it (Canton 15-4, 16-12 §10.3; M.G.L. c.131 §40)",
    ),
    ("expiry", "active", "the permit, ticket or period runs until the date"),
    ("expiry", "expired", "the date has passed"),
    ("expiry", "closed", "a complete Certificate ended the permit: it no longer runs, and no renewal is due"),
    (
        "expiry",
        "violated",
        "violation: work is on record after the date (Canton 16-12 §10.1; M.G.L. c.82 §40A; 310 CMR 10.05(8)(a); an emergency certification's end, 310 CMR 10.06)",
    ),
)


def is_optional(town_id: str, kind: str, clock_id: str) -> bool:
    """A deadline the holder may let pass (the rule book's ``optional``: a
    permit not renewed simply expires), shown only while it is open."""
    from .towns import declared_clock

    clock = declared_clock(town_id, kind, clock_id)
    return clock is not None and clock.optional


#: clock id -> what the office does to meet it (docs/reference/filing-format.md clock ids).
ACTIONS = {
    "hearing-open": "open the public hearing",
    "newspaper-notice": "see that the newspaper notice is published",
    "hearing-posting": "post the hearing notice at Town Hall",
    "hearing-notice": "send every hearing notice (newspaper, posting, abutters)",
    "decision": "issue or deny the permit in writing",
    "appeal-period": "last day to appeal: check for a request before work starts",
    "renewal-request": "renewal must be asked in writing by this day",
    "construction-notice": "notice of construction start is due",
    "emergency-filing": "the emergency application is due",
    "permanent-patch-window-closes": "permanent patch must be in: inspect, or call a Default",
    "winter-patch": "Winter Preparation Patch due before December 1, or a Default",
    "settlement-answer": "answer the holder after the settlement inspection",
    "certification-answer": "answer the request to certify the temporary patch",
    "revocation-notice": "send written notice of the revocation hearing",
    "after-hours-payment": "after-hours inspection bill is due",
    "certificate-decision": "issue the Certificate of Compliance, or deny it in writing with reasons",
    "emergency-continuation": "work goes on past the emergency certification: a Notice of Intent is due",
    "repair-liability": "the permittee's year of repairs ends: inspect the street for repairs the digging made necessary",
    "trench-inspection": "inspect the trench before it is backfilled",
    "patch-inspection": "inspect the temporary patch",
    "final-inspection": "final inspection of the permanent patch",
    "re-inspection": "re-inspect the work that failed",
    "monthly-report": "the permittee's monthly inspection report is due",
    "annual-notice": "the year's notice of the time and place of maintenance work is due",
}


#: What the office does about an act the record shows was done too early
#: or without leave (:mod:`workflows.violations`).
VIOLATION_ACTION = "violation on record: review it and decide enforcement (see the rule)"


def action_for(clock_id: str, status: str | None = None) -> str:
    """The action for a clock id, prefix (``wpa:``) or not; a violation on
    record (``premature``, ``violated``) has its own action."""
    if status in VIOLATIONS:
        return VIOLATION_ACTION
    return ACTIONS.get(clock_id.split(":", 1)[-1], "act before the deadline")


def docket_status(deadline: date, as_of: date, status: str | None = None) -> str:
    """``open`` while the deadline is today or later, ``overdue`` once it has
    passed: a deadline is met by acting on or before its date.  A clock the
    replay found violated (``status`` in :data:`VIOLATIONS`) is a
    ``violation`` whatever the day; one it could not judge stays
    ``unknown``."""
    if status in VIOLATIONS:
        return "violation"
    if status == "unknown":
        return "unknown"
    return "overdue" if deadline < as_of else "open"
