"""Representative filings for the notice tests and the golden files: one
record per permit kind, cut at the stage each notice needs."""

from __future__ import annotations

import copy
from datetime import date, datetime

from workflows.filing import parse_filing

DATED = datetime(2026, 12, 3, 9, 30)

ABUTTERS_CSV = '''\
Map/Lot,Owner Name,Mailing Address,Ring
12-034,"O'Brien & Søn <Trust>","12 Elm St, Canton, MA 02021",abutter
12-035,Amélie Côté,"14 Elm St, Canton, MA 02021",abutter
12-036,Amélie Côté,"14 Elm St., Canton, MA 02021",abutter to abutter
12-040,"Chen, Wei ""Bill""","9 Oak Rd, Stoughton, MA 02072",abutter to abutter
'''

EXTRA = {
    "site": {"address": "40 Washington St", "parcel": "12-033"},
    "applicant": {
        "name": "Neponset Builders LLC",
        "address": {"street": "200 Turnpike St", "city": "Canton", "state": "MA", "zip": "02021"},
    },
    "owner": {
        "name": "Margaret Ó Súilleabháin",
        "address": {"street": "40 Washington St", "city": "Canton", "state": "MA", "zip": "02021"},
    },
    "project": {"description": "a single-family house and driveway within the 100-foot buffer zone"},
    "plans": {"where": "the Conservation Office, Town Hall, during office hours"},
    "hearing": {"place": "Town Hall, Room 201"},
    "authority": {"name": "Conservation Commission", "address": "801 Washington St", "signer": "Pat Rivera, Conservation Agent"},
    "newspaper": "The Town Crier",
    "conditions": [
        "Erosion controls installed and inspected before any work.",
        "No work within 25 feet of the bordering vegetated wetland.",
    ],
    "reasons": ["The application does not show that the work will not alter the wetland (by-law §1)."],
}

STREET_EXTRA = {
    **{k: EXTRA[k] for k in ("site", "applicant", "authority", "conditions", "reasons", "hearing")},
    "project": {"description": "a 40-foot water service trench"},
    "authority": {"name": "Department of Public Works", "address": "50 Pequit St", "signer": "Sam Ortiz, Superintendent"},
    "settlement": {"allowed": True, "remarks": "No settlement was found along the trench."},
    "deposit": {"amount": 1000, "deductions": [{"what": "Repair of the sidewalk edge", "amount": 120}]},
}

#: What a town's profile (its office) gives a notice when the filing does not.
TOWN_SUPPLIES = ("authority", "hearing", "newspaper", "plans")

FILED = "2026-12-01"
WETLANDS = [
    {"type": "filed", "date": FILED},
    {"type": "boards-notified", "date": FILED},
    {"type": "hearing-scheduled", "date": "2026-12-02", "hearing": "2026-12-15", "at": "2026-12-15T19:00"},
]
NOTIFIED = [{"type": "abutters-notified", "date": "2026-12-03"}]
HEARD = [
    {"type": "notice-published", "date": "2026-12-07"},
    {"type": "notice-posted", "at": "2026-12-10T09:00"},
    {"type": "hearing-opened", "date": "2026-12-15"},
    {"type": "hearing-closed", "date": "2026-12-15"},
]
# Mansfield's land disturbance: no hearing until the boards had 40 days (Ch. 25 §7.E)
LD = [
    {"type": "filed", "date": "2026-10-01"},
    {"type": "boards-notified", "date": "2026-10-01"},
    {"type": "hearing-scheduled", "date": "2026-10-02", "hearing": "2026-11-17", "at": "2026-11-17T19:00"},
]
LD_NOTIFIED = [{"type": "abutters-notified", "date": "2026-10-20"}]
LD_HEARD = [
    {"type": "notice-published", "date": "2026-10-27"},
    {"type": "notice-posted", "at": "2026-10-27T09:00"},
    {"type": "hearing-opened", "date": "2026-11-17"},
    {"type": "hearing-closed", "date": "2026-11-17"},
]

STREET = [
    {"type": "filed", "date": "2026-05-04", "applicant": "private", "length_ft": 40},
    {"type": "dig-safe-obtained", "date": "2026-05-05", "ticket": "20261905123"},
    {"type": "permit-issued", "date": "2026-05-11"},
    {"type": "work-noticed", "at": "2026-05-12T09:00"},
    {"type": "excavation-started", "date": "2026-05-18"},
    {"type": "inspected", "date": "2026-05-19", "stage": "pre-backfill", "result": "pass"},
    {"type": "backfilled", "date": "2026-05-19", "material": "gravel"},
    {"type": "after-hours-billed", "date": "2026-05-20", "hours": 3},
    {"type": "temporary-patch-placed", "date": "2026-05-20"},
    {"type": "inspected", "date": "2026-05-21", "stage": "temporary-patch", "result": "pass"},
]
SETTLEMENT = [
    {"type": "inspected", "date": "2027-05-25", "stage": "settlement", "result": "pass"},
    {"type": "settlement-answered", "date": "2027-05-28"},
]
CERTIFIED = [
    {"type": "certification-requested", "date": "2027-06-01"},
    {"type": "certification-answered", "date": "2027-06-15", "granted": False},
]
FINISHED = [
    {"type": "permanent-patch-placed", "date": "2027-06-20"},
    {"type": "inspected", "date": "2027-06-22", "stage": "permanent-patch", "result": "pass"},
    {"type": "deposit-refunded", "date": "2027-06-30"},
]
SUSPENDED = [{"type": "suspended", "date": "2026-05-25", "days": 10}]
#: Mansfield's street excavation permit (Ch. 5 §IV-V): no work notice, patches or inspections of Canton's
MANSFIELD_STREET = STREET[:3]
#: the Certificate of Compliance (310 CMR 10.05): asked, decided, recorded
CERTIFICATE_ASKED = {
    "type": "certificate-requested",
    "date": "2027-06-01",
    "requested_by": "Neponset Builders LLC",
    "scope": "complete",
}
CERTIFICATE = [
    CERTIFICATE_ASKED,
    {
        "type": "certificate-issued",
        "date": "2027-06-15",
        "scope": "complete",
        "continuing": ["The stormwater swale is kept clear of sediment, for as long as the house stands."],
    },
    {"type": "certificate-recorded", "date": "2027-06-22", "instrument": "Book 41234, Page 12"},
]
CERTIFICATE_DENIED = [
    CERTIFICATE_ASKED,
    {"type": "certificate-denied", "date": "2027-06-25", "reasons": ["The replication area has not taken: under 75% cover."]},
]
REVOCATION = [{"type": "revocation-hearing-scheduled", "date": "2026-05-26", "hearing": "2026-06-05"}]


def _wetlands_events(kind, town, notice):
    ld = kind == "land-disturbance"
    base, notified, heard = (LD, LD_NOTIFIED, LD_HEARD) if ld else (WETLANDS, NOTIFIED, HEARD)
    if kind == "rda" and town == "saugus":  # no hearing for a Saugus RDA (508.08 §5.3)
        return [
            {"type": "filed", "date": FILED},
            {"type": "determination-issued", "date": "2026-12-14", "positive": notice == "determination+"},
        ]
    if notice in ("abutter-notice", "legal-notice", "hearing-posting", "board-memo"):
        return base
    if notice == "affidavit-of-service":
        return base + notified
    done = base + notified + heard
    decided = {"noi": "2026-12-29", "rda": "2026-12-29", "land-disturbance": "2026-12-15"}[kind]
    voted = {"noi": "2026-12-22", "rda": "2026-12-22", "land-disturbance": "2026-12-15"}[kind]
    numbered = done[:1] + [{"type": "file-number-assigned", "date": FILED, "number": "SE 073-1234"}] + done[1:]
    if notice == "permit":
        return (numbered if kind == "noi" else done) + [{"type": "permit-issued", "date": decided, "voted": voted}]
    if notice == "certificate-of-compliance":
        return done + [{"type": "permit-issued", "date": decided}] + CERTIFICATE
    if notice == "certificate-denial":
        return done + [{"type": "permit-issued", "date": decided}] + CERTIFICATE_DENIED
    if notice == "certificate-of-completion":
        return (
            done
            + [{"type": "permit-issued", "date": decided}, {"type": "final-report-filed", "date": "2027-05-20"}]
            + [{"type": "certificate-issued", "date": "2027-06-03", "scope": "complete"}]
        )
    if notice == "denial":
        return done + [{"type": "permit-denied", "date": decided}]
    if notice.startswith("determination"):
        return done + [{"type": "determination-issued", "date": decided, "voted": voted, "positive": notice == "determination+"}]
    raise KeyError(notice)


def _street_events(notice, town="canton"):
    if town == "mansfield":
        if notice == "street-refusal":
            return STREET[:2] + [{"type": "permit-denied", "date": "2026-05-11"}]
        return MANSFIELD_STREET
    if notice == "street-refusal":
        return STREET[:2] + [{"type": "permit-denied", "date": "2026-05-11"}]
    if notice in ("street-permit", "inspection-result", "after-hours-invoice"):
        return STREET
    if notice == "settlement-answer":
        return STREET + SETTLEMENT
    if notice == "certification-answer":
        return STREET + CERTIFIED
    if notice == "deposit-refund":
        return STREET + FINISHED
    if notice == "suspension":
        return STREET[:7] + SUSPENDED
    if notice == "revocation-hearing":
        return STREET[:7] + REVOCATION
    raise KeyError(notice)


def filing_for(town: str, kind: str, notice: str, **overrides):
    """A filing of ``town``'s ``kind`` at the stage ``notice`` needs
    (``determination+`` for a positive determination)."""
    if kind == "street-opening":
        events, extra = _street_events(notice, town), STREET_EXTRA
    else:
        events, extra = _wetlands_events(kind, town, notice), EXTRA
    if town != "wpa":  # a town's office supplies these; the state defaults have no office
        extra = {k: v for k, v in extra.items() if k not in TOWN_SUPPLIES}
    obj = {
        "town": town,
        "kind": kind,
        "id": f"{town[:3].upper()}-{kind.upper()[:3]}-2026-014",
        **copy.deepcopy(extra),
        "events": copy.deepcopy(events),
    }
    obj.update(overrides)
    return parse_filing(obj)


def as_of_for(kind: str, notice: str) -> date:
    if kind == "street-opening":
        return (
            date(2026, 5, 26)
            if notice
            in ("street-permit", "suspension", "revocation-hearing", "inspection-result", "after-hours-invoice", "street-refusal")
            else date(2027, 7, 1)
        )
    if notice.startswith("certificate-"):
        return date(2027, 7, 1)
    return (
        date(2026, 12, 3)
        if notice in ("abutter-notice", "legal-notice", "hearing-posting", "board-memo", "affidavit-of-service")
        else date(2027, 1, 4)
    )


# -- enforcement cases (workflows/enforcement.py), one per town's schedule ----------------------

VIOLATOR = {
    "name": "Rumford Devco LLC",
    "address": {"street": "1 Main Street", "city": "Mansfield", "state": "MA", "zip": "02048"},
}
CASE_SITE = {"address": "200 Rumford Avenue", "parcel": "22-14"}


def case_for(town: str = "mansfield", **overrides):
    """A case at every step its town's by-law has: observed, noticed, an
    order, two tickets mailed, and (where the by-law recovers them) the
    town's abatement and its costs."""
    from workflows.enforcement import parse_case

    bylaw = {"mansfield": "stormwater"}.get(town, "wetlands")
    fines = {"mansfield": (300, 300), "saugus": (25, 50), "canton": (300, 300), "manchester-by-the-sea": (0, None)}[town]
    events = [
        {
            "type": "violation-observed",
            "date": "2026-04-01",
            "provision": "§14.B.1 (erosion control)",
            "description": "the silt fence down along the brook",
        },
        {"type": "violation-noticed", "date": "2026-04-01", "delivered": "in-hand"},
        {
            "type": "order-issued",
            "date": "2026-04-02",
            "comply_by": "2026-04-17",
            "requires": ["Repair the silt fence.", "Remove the sediment from the brook."],
        },
        {
            "type": "ticket-issued",
            "date": "2026-04-21",
            "provision": "the Enforcement Order",
            "offense_day": "2026-04-18",
            "offense": 1,
            "fine": fines[0],
            "delivered": "mailed",
        },
    ]
    if fines[1] is not None:
        events.append(
            {
                "type": "ticket-issued",
                "date": "2026-04-21",
                "provision": "the Enforcement Order",
                "offense_day": "2026-04-19",
                "offense": 2,
                "fine": fines[1],
                "delivered": "mailed",
            }
        )
    if town == "mansfield":
        events += [{"type": "town-abated", "date": "2026-05-08"}, {"type": "costs-noticed", "date": "2026-06-05", "amount": 4200}]
    from workflows.towns import town as profile

    obj = {
        "town": town,
        "id": f"{profile(town).code}-ENF-2026-0001",
        "bylaw": bylaw,
        "site": CASE_SITE,
        "violator": VIOLATOR,
        "events": events,
    }
    obj.update(overrides)
    return parse_case(copy.deepcopy(obj))


CASE_AS_OF = date(2026, 6, 10)
