"""Which events a filing may hold and the fields each carries: the
vocabulary of docs/reference/filing-format.md, as data.  :mod:`workflows.filing`
reads a filing's JSON against it.  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["EVENT_FIELDS", "OPTIONAL_FIELDS", "DATE_OR_AT", "VOID", "MAX_LINES", "optional_fields", "ENFORCEMENT"]

#: the most items a "lines" field (a permit's conditions) may hold
MAX_LINES = 200

#: The event that voids an earlier, mistaken one; both stay in the history.
VOID = "event-voided"

# field kinds: "date", "moment" (YYYY-MM-DDTHH:MM), "bool", "int", "str",
# "clock" (a clock id), "position" (an earlier event's 1-based position),
# "lines" (a list of non-empty strings, at most MAX_LINES), or a tuple of
# allowed strings.
_COMMON = {
    "clock-extended": {"date": "date", "clock": "clock", "to": "date"},
    "withdrawn": {"date": "date"},
    "submitted": {"date": "date"},  # filed online; no clock runs (workflows.submission)
    "found-incomplete": {"date": "date", "reasons": "str"},
    VOID: {"date": "date", "voids": "position", "reason": "str"},
    # a payment the town received (workflows/fees.py): dollars and cents ("50.00"), how it was paid
    "payment-received": {"date": "date", "amount": "str", "method": ("cash", "check", "money-order", "bank-transfer")},
}

_WETLANDS = {
    "filed": {"date": "date"},
    "deemed-complete": {"date": "date"},
    "file-number-assigned": {
        "date": "date",
        "number": "str",
    },  # the file number MassDEP assigns a state filing (WPA Form 5, Section A)
    "abutters-notified": {"date": "date"},
    "boards-notified": {"date": "date"},
    "board-reported": {"date": "date", "board": "str"},
    "hearing-scheduled": {"date": "date", "hearing": "day-or-moment"},  # the hearing's time: at, or hearing=...THH:MM
    "notice-published": {"date": "date"},
    "notice-posted": {"date": "date"},  # or `at`
    "hearing-opened": {"date": "date"},
    "hearing-continued": {"date": "date", "to": "date"},
    "hearing-closed": {"date": "date"},
    "permit-issued": {"date": "date"},
    "permit-denied": {"date": "date"},
    "determination-issued": {"date": "date", "positive": "bool"},
    "permit-recorded": {"date": "date"},
    "renewal-requested": {"date": "date"},
    "permit-renewed": {"date": "date"},
    "permit-revoked": {"date": "date"},
    "construction-noticed": {"date": "date", "start": "date"},
    "completion-certified": {"date": "date"},
    # Canton wetlands emergency projects (canton.txt lines 6-17): work first, notice within 24 hours
    "emergency-work-started": {"at": "moment"},
    "emergency-noticed": {"at": "moment"},
    "continuance-objected": {"date": "date"},  # Canton 15-5: the applicant objects, the hearing closes
    "recording-certified": {"date": "date"},  # Saugus 508.08 §7.9: the holder certifies the recording in writing
    "work-started": {"date": "date"},  # work under a wetlands permit begins (land disturbance starts)
    # Mansfield 25 §7.G, §12, §13: receipts, surety, final report and as-built plan
    "mail-receipts-submitted": {"date": "date"},
    "surety-required": {"date": "date"},
    "surety-posted": {"date": "date"},
    "final-report-filed": {"date": "date"},
    "surety-released": {"date": "date"},
    # Mansfield 25 §7.I (a change noticed, then made), §11.B (the monthly report), §10.A (the O&M plan recorded)
    "project-change-noticed": {"date": "date"},
    "project-changed": {"date": "date"},
    "monthly-report-filed": {"date": "date"},
    "om-plan-recorded": {"date": "date"},
    # a Permit Extension Act does not apply (holder's election, court ruling): workflows/extension_acts.py
    "act-not-applied": {"date": "date", "act": ("pea-2010", "covid-tolling", "pea-2024"), "reason": "str"},
    # the Certificate of Compliance (310 CMR 10.05; WPA Forms 8A, 8B) and Mansfield's certificate
    # of completion (Ch. 25 Part B §15): workflows/certificates.py
    "certificate-requested": {"date": "date", "requested_by": "str", "scope": ("complete", "partial")},
    "certificate-issued": {"date": "date", "scope": ("complete", "partial")},
    "certificate-denied": {"date": "date", "reasons": "lines"},
    "certificate-recorded": {"date": "date"},
    # an emergency certification (310 CMR 10.06): the work it allows and for how many days
    "emergency-certified": {"date": "date", "days": "int", "work": "str"},
    # work seen under way on the site (an inspection): judged against the permit's life (workflows/before_work.py)
    "work-observed": {"date": "date"},
    # an appeal of the Order (a request for a superseding order, 310 CMR 10.05(7)(c)) and its end
    "appeal-requested": {"date": "date"},
    "appeal-decided": {"date": "date"},
    # the year's notice of the time and location of maintenance work (Canton 15-7; Saugus 508.08 §7.6)
    "maintenance-noticed": {"date": "date"},
    # a request for a superseding order (310 CMR 10.05(7)): who asked, and on what ground (the board's
    # silence, or an appeal of its decision); MassDEP's decision with its file number (workflows/superseding.py)
    "superseding-requested": {
        "date": "date",
        "by": ("applicant", "owner", "abutter", "aggrieved-person", "ten-residents"),
        "ground": ("no-decision", "decision-appealed"),
    },
    "superseding-issued": {"date": "date", "number": "str"},
}

_STREET = {
    "filed": {"date": "date"},
    "emergency-work-started": {"at": "moment"},
    "dig-safe-obtained": {"date": "date", "ticket": "str"},
    "permit-issued": {"date": "date"},
    "permit-denied": {"date": "date"},
    "renewal-requested": {"date": "date"},
    "permit-renewed": {"date": "date"},
    "work-noticed": {"at": "moment"},
    "excavation-started": {"date": "date"},
    "inspected": {
        "date": "date",
        "stage": ("pre-backfill", "temporary-patch", "settlement", "permanent-patch"),
        "result": ("pass", "fail"),
    },
    "backfilled": {"date": "date", "material": ("gravel", "excavated", "cdf")},
    "temporary-patch-placed": {"date": "date"},
    "winter-patch-placed": {"date": "date"},
    "settlement-answered": {"date": "date"},
    "certification-requested": {"date": "date"},
    "certification-answered": {"date": "date", "granted": "bool"},
    "permanent-patch-placed": {"date": "date"},
    "patch-noticed": {"at": "moment"},  # Canton 16-12 §11.4: a utility's own permanent patch, 72 hours ahead
    "suspended": {"date": "date", "days": "int"},
    "revocation-hearing-scheduled": {"date": "date", "hearing": "date"},
    "permit-revoked": {"date": "date"},
    "deposit-refunded": {"date": "date"},
    "after-hours-billed": {"date": "date", "hours": "int"},
    "after-hours-paid": {"date": "date"},
    # Canton 16-12 §10.2: the applicant or its contractor asks for the inspection of a stage, on a business day
    "inspection-requested": {
        "date": "date",
        "stage": ("pre-backfill", "temporary-patch", "settlement", "permanent-patch"),
        "preferred": "date",
    },
    # Mansfield Ch. 5 §V: the street restored on completion, repairs within the year after, the year's end
    "street-restored": {"date": "date"},
    "repair-required": {"date": "date", "what": "str"},
    "liability-ended": {"date": "date"},
    # Canton 16-12 §10.9: the Awarding Authority permits a longer open trench, up to ``feet``
    "open-trench-permitted": {"date": "date", "feet": "int"},
}

#: An enforcement case's record (workflows/enforcement.py): not a permit
#: kind, but read by the same parser under this key of EVENT_FIELDS.
ENFORCEMENT = "enforcement"

_CASE = {
    "violation-observed": {"date": "date", "provision": "str", "description": "str"},
    "violation-noticed": {"date": "date"},
    # the Enforcement Order (WPA Form 9; Mansfield 25 §14.B): what it requires, and by when
    "order-issued": {"date": "date", "comply_by": "date", "requires": "lines"},
    # the board extends the Order's date to comply by (a vote of its own: no Permit Extension Act moves it)
    "order-extended": {"date": "date", "to": "date", "reason": "str"},
    # M.G.L. c.40 §21D: one offense (a provision, a day), its number and its fine in dollars
    "ticket-issued": {"date": "date", "provision": "str", "offense_day": "date", "offense": "int", "fine": "int"},
    "ticket-paid": {"date": "date", "ticket": "position"},
    "ticket-contested": {"date": "date", "ticket": "position"},
    # Mansfield 25 §14.B.2-3: the town abated the violation itself; its costs, the protest, the lien
    "town-abated": {"date": "date"},
    "costs-noticed": {"date": "date", "amount": "int"},
    "costs-protested": {"date": "date"},
    "costs-decided": {"date": "date", "amount": "int"},
    "costs-paid": {"date": "date"},
    "lien-recorded": {"date": "date"},
    "complied": {"date": "date"},
    "closed": {"date": "date", "reason": "str"},
    VOID: {"date": "date", "voids": "position", "reason": "str"},
}

#: Optional fields with their kinds, checked when present.
OPTIONAL_FIELDS = {
    ("street-opening", "filed"): {
        "applicant": ("private", "utility", "municipal"),
        "length_ft": "int",
        "emergency": "bool",
        "surface": ("bituminous", "cement-concrete"),  # Canton 16-12 §11.5
    },
    ("*", "filed"): {"complete": "bool"},
    # a resubmission's corrections, one line per field changed (workflows/corrections.py)
    ("*", "submitted"): {"corrected": "lines"},
    ("*", "notice-posted"): {"at": "moment"},
    ("*", "hearing-scheduled"): {"at": "moment"},
    # the continued session's time: the meeting it is continued to (workflows/meetings.py)
    ("*", "hearing-continued"): {"at": "moment"},
    # the day of the vote, when it is not the day the decision issued (filed with the clerk or mailed)
    ("*", "permit-issued"): {"voted": "date"},
    ("*", "permit-denied"): {"voted": "date"},
    # the Order of Conditions' (or Land Disturbance Permit's) conditions, one string each; the permit notice prints them
    # term_years: a permit for recurring maintenance, longer than the by-law's three years (workflows/maintenance.py)
    ("noi", "permit-issued"): {"conditions": "lines", "term_years": "int"},
    ("land-disturbance", "permit-issued"): {"conditions": "lines"},
    ("*", "determination-issued"): {"voted": "date"},
    ("street-opening", "dig-safe-obtained"): {"at": "moment"},  # M.G.L. c.82 §40A counts hours from the notice
    ("street-opening", "backfilled"): {"at": "moment"},  # Canton 16-12 §11.2: the cure runs from placement
    ("street-opening", "excavation-started"): {"at": "moment"},  # judged against hour clocks
    ("street-opening", "permanent-patch-placed"): {"at": "moment"},
    # the Certificate's part of the work (a partial one), the conditions that continue past it, its recording
    ("*", "certificate-requested"): {"portion": "str"},
    ("*", "certificate-issued"): {"portion": "str", "continuing": "lines"},
    # where the Registry of Deeds recorded it: its book and page, or its instrument number
    ("*", "certificate-recorded"): {"instrument": "str", "book": "str", "page": "str"},
    # 310 CMR 10.06(3): more than 30 days with the Commissioner's written approval
    ("*", "emergency-certified"): {"commissioner_approved": "bool"},
    ("*", "work-observed"): {"what": "str"},
    ("*", "appeal-requested"): {"by": "str"},
    # a superseding denial (an Order refused), or a superseding Determination that requires a Notice of Intent
    ("noi", "superseding-issued"): {"denied": "bool"},
    ("rda", "superseding-issued"): {"positive": "bool"},
    # Mansfield 25 §12: part of a phased project's surety released as a phase is completed
    ("land-disturbance", "surety-released"): {"phase": "str"},
    # how a notice or a ticket reached the violator (M.G.L. c.40 §21D: in hand, or mailed within 15 days)
    (ENFORCEMENT, "violation-noticed"): {"delivered": ("in-hand", "mailed")},
    # ... and the violator's mailing address the ticket went to (§21D: "the name and address, if known, of the offender")
    (ENFORCEMENT, "ticket-issued"): {
        "delivered": ("in-hand", "mailed"),
        "mail_street": "str",
        "mail_city": "str",
        "mail_state": "str",
        "mail_zip": "str",
    },
    (ENFORCEMENT, "costs-noticed"): {"received": "date"},
    # Canton 16-12 §10.2: the inspection's time, the inspector's notes, the
    # photos taken (upload tokens, models/store/uploads.py), and on a fail the
    # defect and the day of the re-inspection (the re-inspection clock)
    ("street-opening", "inspected"): {
        "at": "moment",
        "notes": "str",
        "photos": "lines",
        "defect": "str",
        "reinspect": "date",
        # Canton 16-12 §10.13, §10.9: a trench found open and un-plated overnight; the open trench's length
        "unplated_overnight": "bool",
        "open_trench_ft": "int",
    },
    # Canton 16-12 §5: the amount refunded, and what was held back and why
    # (dollars and cents, "1250.00"; workflows/deposits.py reads them)
    ("street-opening", "deposit-refunded"): {"amount": "str", "held_back": "str", "reason": "str"},
    # a check's number, a money order's or a transfer's confirmation, and what the payment is
    # for: the fee, or a street opening's refundable deposit (workflows/fees.py, deposit_events.py)
    ("*", "payment-received"): {"reference": "str", "toward": ("fee", "deposit")},
    # who asked for the inspection (an applicant's account email), and a note for the inspector
    ("street-opening", "inspection-requested"): {"by": "str", "notes": "str"},
}


def optional_fields(kind: str, etype: str) -> dict[str, Any]:
    """The optional fields of event ``etype`` of permit ``kind`` (those of
    every kind, then the kind's own), name -> kind of value."""
    return {**OPTIONAL_FIELDS.get(("*", etype), {}), **OPTIONAL_FIELDS.get((kind, etype), {})}


#: Events dated by ``date`` or, when the time is known, by ``at`` instead.
DATE_OR_AT = frozenset({"notice-posted", "dig-safe-obtained", "backfilled", "excavation-started", "permanent-patch-placed"})

#: kind -> event type -> required fields
EVENT_FIELDS: Mapping[str, Mapping[str, Mapping[str, Any]]] = MappingProxyType(
    {
        "noi": {**_WETLANDS, **_COMMON},
        "rda": {**_WETLANDS, **_COMMON},
        "land-disturbance": {**_WETLANDS, **_COMMON},
        "street-opening": {**_STREET, **_COMMON},
        ENFORCEMENT: _CASE,
    }
)
