"""One table of human names: every event type, clock, state, event field and
status of every permit kind, in the by-laws' and the Wetlands Protection
Act's words ("Order of Conditions issued", not ``permit-issued``).  The web,
the notices and the command line's human output read their labels here;
the JSON output and the store keep the ids.

A name may depend on the permit kind (an NOI's permit is an Order of
Conditions, a street opening's a Street Opening Permit): the kind's own
name wins over the common one.  A clock of the state's rules on a filing
heard under both (``wpa:decision``) is named as the by-law's clock with
"(Wetlands Protection Act)" after it.  tests/workflows/test_vocabulary.py
fails when an event, clock, state or field of any machine has no name
here: whoever adds one names it.  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "EVENT_NAMES",
    "CLOCK_NAMES",
    "STATE_NAMES",
    "FIELD_NAMES",
    "STATUS_NAMES",
    "VALUE_NAMES",
    "KIND_NAMES",
    "JURISDICTION_NAMES",
    "event_name",
    "clock_name",
    "state_name",
    "field_name",
    "status_name",
    "value_name",
    "kind_name",
    "in_words",
]

ANY = "*"

KIND_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "noi": "Notice of Intent",
        "rda": "Request for Determination of Applicability",
        "land-disturbance": "Land Disturbance Permit",
        "street-opening": "Street Opening Permit",
    }
)

#: (kind or "*", event type) -> name; the kind's own wins
EVENT_NAMES: Mapping[tuple[str, str], str] = MappingProxyType(
    {
        (ANY, "submitted"): "Application submitted online",
        (ANY, "found-incomplete"): "Application found incomplete",
        (ANY, "filed"): "Application filed, complete",
        (ANY, "withdrawn"): "Application withdrawn",
        (ANY, "clock-extended"): "Time extended by agreement",
        (ANY, "event-voided"): "Entry voided",
        (ANY, "deemed-complete"): "Application deemed complete",
        (ANY, "abutters-notified"): "Abutters notified",
        (ANY, "boards-notified"): "Copies sent to the town boards",
        (ANY, "board-reported"): "A board's report received",
        (ANY, "hearing-scheduled"): "Public hearing scheduled",
        (ANY, "notice-published"): "Hearing notice published in the newspaper",
        (ANY, "notice-posted"): "Hearing notice posted at Town Hall",
        (ANY, "hearing-opened"): "Public hearing opened",
        (ANY, "hearing-continued"): "Public hearing continued",
        (ANY, "hearing-closed"): "Public hearing closed",
        (ANY, "permit-issued"): "Permit issued",
        ("noi", "permit-issued"): "Order of Conditions issued",
        ("land-disturbance", "permit-issued"): "Land Disturbance Permit issued",
        ("street-opening", "permit-issued"): "Street Opening Permit issued",
        (ANY, "permit-denied"): "Permit denied",
        ("noi", "permit-denied"): "Order of Conditions denied",
        ("street-opening", "permit-denied"): "Street Opening Permit refused",
        (ANY, "determination-issued"): "Determination of Applicability issued",
        (ANY, "permit-recorded"): "Order recorded at the Registry of Deeds",
        ("land-disturbance", "permit-recorded"): "Permit recorded at the Registry of Deeds",
        (ANY, "renewal-requested"): "Renewal requested in writing",
        (ANY, "permit-renewed"): "Permit renewed",
        ("noi", "permit-renewed"): "Order of Conditions extended",
        (ANY, "permit-revoked"): "Permit revoked",
        (ANY, "construction-noticed"): "Notice of construction start received",
        (ANY, "completion-certified"): "Certificate of Compliance issued",
        (ANY, "emergency-work-started"): "Emergency work started",
        (ANY, "emergency-noticed"): "Emergency work reported to the office",
        (ANY, "continuance-objected"): "Applicant objected to a continuance",
        (ANY, "recording-certified"): "Recording certified in writing by the holder",
        (ANY, "work-started"): "Work started",
        (ANY, "mail-receipts-submitted"): "Certified-mail receipts submitted",
        (ANY, "surety-required"): "Surety required",
        (ANY, "surety-posted"): "Surety posted",
        (ANY, "final-report-filed"): "Final report and as-built plan filed",
        (ANY, "surety-released"): "Surety released",
        (ANY, "act-not-applied"): "Permit Extension Act not applied",
        (ANY, "dig-safe-obtained"): "Dig Safe ticket obtained",
        (ANY, "work-noticed"): "Notice of work given to the DPW",
        (ANY, "excavation-started"): "Excavation started",
        (ANY, "inspected"): "Inspection",
        (ANY, "backfilled"): "Trench backfilled",
        (ANY, "temporary-patch-placed"): "Temporary patch placed",
        (ANY, "winter-patch-placed"): "Winter Preparation Patch placed",
        (ANY, "settlement-answered"): "Settlement inspection answered",
        (ANY, "certification-requested"): "Certification of the temporary patch requested",
        (ANY, "certification-answered"): "Certification request answered",
        (ANY, "permanent-patch-placed"): "Permanent patch placed",
        (ANY, "patch-noticed"): "Notice of the permanent patch given",
        (ANY, "suspended"): "Permit suspended",
        (ANY, "revocation-hearing-scheduled"): "Revocation hearing scheduled",
        (ANY, "deposit-refunded"): "Deposit refunded",
        (ANY, "after-hours-billed"): "After-hours inspection billed",
        (ANY, "after-hours-paid"): "After-hours inspection paid",
        (ANY, "payment-received"): "Payment received",
        (ANY, "inspection-requested"): "Inspection asked for",
        # the rest of a permit's life (issue 20)
        (ANY, "file-number-assigned"): "MassDEP file number assigned",
        (ANY, "certificate-requested"): "Certificate of Compliance requested in writing (WPA Form 8A)",
        (ANY, "certificate-issued"): "Certificate of Compliance issued (WPA Form 8B)",
        (ANY, "certificate-denied"): "Certificate of Compliance denied, with reasons",
        (ANY, "certificate-recorded"): "Certificate of Compliance recorded at the Registry of Deeds",
        (ANY, "emergency-certified"): "Emergency Certification issued",
        (ANY, "work-observed"): "Work observed on the site",
        (ANY, "appeal-requested"): "Superseding order requested (appeal)",
        (ANY, "appeal-decided"): "Appeal decided",
        (ANY, "open-trench-permitted"): "Longer open trench permitted by the Authority",
        (ANY, "project-change-noticed"): "Project change noticed in writing",
        (ANY, "project-changed"): "Project changed",
        (ANY, "monthly-report-filed"): "Monthly inspection report filed",
        (ANY, "om-plan-recorded"): "Operation and Maintenance Plan recorded",
        (ANY, "maintenance-noticed"): "Notice of the year's maintenance work (time and place)",
        (ANY, "superseding-requested"): "Superseding order requested from MassDEP",
        ("rda", "superseding-requested"): "Superseding determination requested from MassDEP",
        (ANY, "superseding-issued"): "MassDEP's superseding order issued",
        ("rda", "superseding-issued"): "MassDEP's superseding determination issued",
        (ANY, "street-restored"): "Street restored",
        (ANY, "repair-required"): "Repair required within the year",
        (ANY, "liability-ended"): "The year's repair liability ended",
    }
)

#: clock id -> name (the act the clock times, or the period it counts)
CLOCK_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "hearing-open": "Public hearing to open",
        "appeal-before-work": "Appeal period to pass before work",
        "trench-inspection": "Trench inspection before backfill",
        "patch-inspection": "Inspection of the temporary patch",
        "final-inspection": "Final inspection of the permanent patch",
        "re-inspection": "Re-inspection of failed work",
        "certificate-decision": "Certificate of Compliance to issue or deny",
        "emergency-certification": "Emergency Certification's period",
        "emergency-continuation": "Filing to continue emergency work",
        "repair-liability": "Year of liability for repairs",
        "newspaper-notice": "Newspaper notice of the hearing",
        "hearing-posting": "Town Hall posting of the hearing",
        "hearing-notice": "Notice of the hearing",
        "board-comment": "Boards' time to comment",
        "board-reports": "Boards' reports",
        "decision": "Decision to issue",
        "appeal-period": "Appeal period",
        "permit-expiry": "Permit expires",
        "renewal-request": "Renewal to be requested",
        "construction-notice": "Notice of construction start",
        "work-notice": "Notice before work",
        "emergency-filing": "Application after emergency work",
        "temporary-patch-maintenance": "Temporary patch kept up",
        "permanent-patch-window-opens": "Permanent patch window opens",
        "permanent-patch-window-closes": "Permanent patch due",
        "cdf-cure": "Flowable fill to cure",
        "winter-patch": "Winter Preparation Patch due",
        "settlement-answer": "Answer after the settlement inspection",
        "certification-answer": "Answer to the certification request",
        "suspension-ends": "Suspension ends",
        "revocation-notice": "Notice of the revocation hearing",
        "after-hours-payment": "After-hours bill to be paid",
        "dig-safe-wait": "Dig Safe waiting period",
        "dig-safe-expiry": "Dig Safe ticket expires",
        "emergency-notice": "Report of emergency work",
        "patch-notice": "Notice before the permanent patch",
        "recording-before-work": "Recording before work starts",
        "mail-receipts": "Certified-mail receipts",
        "surety": "Surety before work",
        "work-without-permit": "Work with no permit in force",
        "annual-notice": "Annual notice of maintenance work",
        "trench-overnight": "Trench plated overnight",
        "trench-length": "Open trench within 300 feet",
        "project-change": "Notice before a change to the project",
        "om-plan": "O&M Plan recorded before the certificate",
        "monthly-report": "Monthly inspection report",
    }
)

#: a clock-id prefix (another jurisdiction's rules on the same filing) -> its name
JURISDICTION_NAMES: Mapping[str, str] = MappingProxyType({"wpa": "Wetlands Protection Act"})

#: (kind or "*", state) -> name
STATE_NAMES: Mapping[tuple[str, str], str] = MappingProxyType(
    {
        (ANY, "submitted"): "Submitted online, to check",
        (ANY, "incomplete"): "Incomplete, sent back to the applicant",
        (ANY, "filed"): "Filed",
        (ANY, "hearing-scheduled"): "Hearing scheduled",
        (ANY, "hearing-open"): "Hearing open",
        (ANY, "hearing-closed"): "Hearing closed, decision pending",
        (ANY, "issued"): "Permit issued",
        ("noi", "issued"): "Order of Conditions issued",
        (ANY, "renewed"): "Permit renewed",
        ("noi", "renewed"): "Order of Conditions extended",
        (ANY, "denied"): "Denied",
        (ANY, "revoked"): "Revoked",
        # a complete Certificate leaves the Order "certified" until it is recorded, which closes it (workflows/certificates.py)
        (ANY, "completed"): "Completed, closed",
        ("noi", "completed"): "Closed under its Certificate of Compliance",
        ("land-disturbance", "completed"): "Certificate of completion issued, closed",
        (ANY, "certified"): "Certificate of Compliance issued, to be recorded",
        (ANY, "restored"): "Street restored, a year of repairs to answer for",
        (ANY, "withdrawn"): "Withdrawn",
        (ANY, "emergency-work"): "Emergency work under way",
        (ANY, "negative-determination"): "Negative Determination issued",
        (ANY, "positive-determination"): "Positive Determination issued",
        (ANY, "applied"): "Applied, awaiting the permit",
        (ANY, "excavating"): "Excavation under way",
        (ANY, "backfilled"): "Trench backfilled",
        (ANY, "temporary-patch"): "Temporary patch in place",
        (ANY, "permanent-patch"): "Permanent patch in place",
        (ANY, "final-inspected"): "Final inspection passed",
        (ANY, "closed"): "Closed",
        ("street-opening", "denied"): "Refused",
    }
)

#: event field -> label on a form or in the timeline
FIELD_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "date": "Date",
        "at": "Date and time",
        "amount": "Amount",
        "by": "By",
        "commissioner_approved": "Approved by the Commissioner",
        "comply_by": "Comply by",
        "continuing": "Conditions that continue (one per line)",
        "delivered": "Delivered",
        "mail_street": "Mailing address: street",
        "mail_city": "Mailing address: city or town",
        "mail_state": "Mailing address: state",
        "mail_zip": "Mailing address: ZIP code",
        "description": "Description",
        "denied": "MassDEP denied the work",
        "ground": "Ground",
        "feet": "Feet permitted",
        "unplated_overnight": "Trench left open and un-plated overnight",
        "open_trench_ft": "Open trench found (feet)",
        "term_years": "Term in years (a permit for recurring maintenance)",
        "fine": "Fine",
        "instrument": "Registry instrument number",
        "number": "Number",
        "defect": "Defect found",
        "held_back": "Held back",
        "notes": "Inspector's notes",
        "photos": "Photos",
        "reinspect": "Re-inspection on",
        "offense": "Offense number",
        "offense_day": "Day of the offense",
        "phase": "Phase",
        "page": "Page of the book",
        "portion": "Portion of the work",
        "provision": "Provision violated",
        "received": "Received",
        "requested_by": "Requested by",
        "requires": "Requirements (one per line)",
        "scope": "Scope",
        "what": "What",
        "work": "Work",
        "act": "Permit Extension Act",
        "applicant": "Applicant type",
        "board": "Board",
        "book": "Registry of Deeds book",
        "clock": "Deadline extended",
        "complete": "Application complete",
        "conditions": "Conditions (one per line)",
        "corrected": "Corrected by the applicant",
        "days": "Days suspended",
        "emergency": "Emergency opening",
        "granted": "Certification granted",
        "hearing": "Hearing date",
        "hours": "Hours billed",
        "length_ft": "Length of the opening (feet)",
        "material": "Backfill material",
        "method": "Paid by",
        "preferred": "Preferred day",
        "reference": "Reference (check or receipt number)",
        "positive": "Positive determination",
        "reason": "Reason",
        "reasons": "Reasons, for the applicant",
        "result": "Result",
        "stage": "Stage",
        "start": "Work to start on",
        "surface": "Road surface",
        "ticket": "Dig Safe ticket number",
        "to": "New date",
        "toward": "Paid toward",
        "voids": "Entry voided",
        "voted": "Day of the vote, if not the day of issue",
    }
)

#: a clock's or a docket row's status -> name
STATUS_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "open": "due",
        "overdue": "overdue",
        "met": "done in time",
        "late": "done late",
        "missed": "missed",
        "unknown": "cannot be judged",
        "waiting": "not yet allowed",
        "passed": "allowed",
        "premature": "done too early (violation)",
        "violated": "violation",
        "violation": "violation",
        "active": "in force",
        "expired": "expired",
        "closed": "closed by the Certificate",
        "superseded": "no longer due: MassDEP's superseding decision controls",
    }
)

#: a choice field's value (or a yes/no) -> words
VALUE_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "pre-backfill": "before backfill",
        "complete": "complete",
        "partial": "partial",
        "in-hand": "by hand",
        "mailed": "by mail",
        "temporary-patch": "temporary patch",
        "settlement": "settlement",
        "permanent-patch": "permanent patch",
        "pass": "passed",
        "fail": "failed",
        "gravel": "gravel",
        "excavated": "excavated material",
        "cdf": "controlled-density fill (flowable fill)",
        "private": "private",
        "utility": "utility",
        "municipal": "municipal",
        "bituminous": "bituminous (asphalt)",
        "cement-concrete": "cement concrete",
        "pea-2010": "Permit Extension Act of 2010",
        "covid-tolling": "COVID-19 tolling (St. 2020, c.53 §17)",
        "pea-2024": "Permit Extension Act of 2024",
        "cash": "cash",
        "check": "check",
        "money-order": "money order",
        "bank-transfer": "bank transfer",
        "fee": "the fee",
        "deposit": "the refundable deposit",
        "applicant": "the applicant",
        "owner": "the owner",
        "abutter": "an abutter",
        "aggrieved-person": "a person aggrieved",
        "ten-residents": "ten residents of the town",
        "no-decision": "no decision within the time the law gives",
        "decision-appealed": "an appeal of the board's decision",
        "True": "yes",
        "False": "no",
    }
)


def _by_kind(table: Mapping[tuple[str, str], str], kind: str, key: str) -> str | None:
    return table.get((kind, key)) or table.get((ANY, key))


def _fallback(key: str) -> str:
    return key.replace("-", " ").replace("_", " ").capitalize()


def event_name(kind: str, etype: str) -> str:
    """The event's name for a permit of ``kind``."""
    return _by_kind(EVENT_NAMES, kind, etype) or _fallback(etype)


def clock_name(clock_id: str) -> str:
    """The clock's name; ``wpa:decision`` is the decision under the Act."""
    prefix, _, own = clock_id.rpartition(":")
    name = CLOCK_NAMES.get(own) or _fallback(own)
    if prefix:
        return f"{name} ({JURISDICTION_NAMES.get(prefix, prefix.upper())})"
    return name


def state_name(kind: str, state: str) -> str:
    return _by_kind(STATE_NAMES, kind, state) or _fallback(state)


def field_name(name: str) -> str:
    return FIELD_NAMES.get(name) or _fallback(name)


def status_name(status: str) -> str:
    return STATUS_NAMES.get(status) or _fallback(status)


def value_name(value) -> str:
    """A field's value in words: yes/no for a boolean, a choice's name."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = str(value)
    return VALUE_NAMES.get(text, text)


def kind_name(kind: str) -> str:
    return KIND_NAMES.get(kind) or _fallback(kind)


_ID_PATTERN = None
#: ids that are English words too ("the day of the re-inspection"): left as they are
_ENGLISH = frozenset({"re-inspection"})


def in_words(text: str, kind: str = ANY) -> str:
    """``text`` (an engine explanation, a rule book's "met by") with every
    event and clock id written as its name, and "(event 8)" as "(entry 8)":
    ``abutters-notified on 2025-08-18 (event 8)`` reads "Abutters notified
    on 2025-08-18 (entry 8)".  Only hyphenated ids and ``wpa:...`` are
    replaced: a one-word id ("filed") is already a word."""
    import re

    global _ID_PATTERN
    if _ID_PATTERN is None:
        ids = ({e for _, e in EVENT_NAMES if "-" in e} | {c for c in CLOCK_NAMES if "-" in c}) - _ENGLISH
        alternatives = "|".join(sorted(map(re.escape, ids), key=len, reverse=True))
        _ID_PATTERN = re.compile(rf"(?<![\w/-])(?:([a-z]+):)?({alternatives}|[a-z]+)(?![\w-])|\(event (\d+)\)")

    def name(m) -> str:
        if m.group(3):
            return f"(entry {m.group(3)})"
        prefix, key = m.group(1), m.group(2)
        if prefix and prefix in JURISDICTION_NAMES and key in CLOCK_NAMES:
            return clock_name(f"{prefix}:{key}")
        if prefix:
            return m.group(0)
        if "-" not in key:
            return key
        if key in CLOCK_NAMES and not _by_kind(EVENT_NAMES, kind, key):
            return CLOCK_NAMES[key]
        return _by_kind(EVENT_NAMES, kind, key) or CLOCK_NAMES.get(key, key)

    return _ID_PATTERN.sub(name, text) if isinstance(text, str) else text
