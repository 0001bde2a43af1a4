"""Enforcement, one home for each step: open a case on a violation (on a
filing, or on a parcel with no filing), send the notice of violation,
issue an Enforcement Order, issue tickets (M.G.L. c.40 §21D: one per
provision and day, numbered and priced by the town's schedule in the
transaction that records them), record the rest of the case's steps (a
ticket paid or contested, the town's abatement and its costs, compliance,
closing) and void a mistaken one.  ``permits enforcement ...`` and the
workbench's enforcement pages call these.

Each action takes the store, plain inputs and the day (``today``), and
writes in one unit of work (:mod:`models.store.enforcement`); an event dated
after ``today`` is refused, as a filing's is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from models.errors import DuplicateCase
from models.read.enforcement import EnforcementRecord, load_case
from models.store import enforcement as cases
from workflows.errors import MalformedEvent, PermitsError
from workflows.event_fields import VOID
from workflows.towns import town

from .unit_of_work import UnitOfWork

__all__ = [
    "Opened",
    "Recorded",
    "NotTheFilingsTown",
    "open_case",
    "open_recorded_case",
    "notice_violation",
    "issue_order",
    "issue_tickets",
    "record_step",
    "void_step",
    "STEPS",
    "mailing_address",
]

#: The steps :func:`record_step` takes as they are (the others have their own action).
STEPS = (
    "violation-observed",
    "ticket-paid",
    "ticket-contested",
    "town-abated",
    "costs-noticed",
    "costs-protested",
    "costs-decided",
    "costs-paid",
    "lien-recorded",
    "complied",
    "closed",
    "order-extended",
)


class NotTheFilingsTown(PermitsError):
    """A case opened on a filing of another town."""

    def __init__(self, filing_id: str, filing_town: str, town_id: str):
        self.filing, self.town = filing_id, town_id
        super().__init__(f"{filing_id} is a {filing_town} filing: a case on it is {filing_town}'s, not {town_id}'s")


@dataclass(frozen=True)
class Opened:
    case: str
    state: str


@dataclass(frozen=True)
class Recorded:
    """The last event's sequence number and the case's state after it;
    ``tickets`` the tickets just issued, each (provision, offense day,
    offense number, fine in dollars, label)."""

    seq: int
    state: str
    tickets: tuple[tuple[str, date, int, int, str], ...] = ()


def _text(value: str | None, what: str) -> str:
    text = (value or "").strip()
    if not text:
        raise MalformedEvent(f"{what} is required")
    return text[:2000]


def open_case(
    store,
    *,
    town_id: str,
    bylaw: str,
    violator: str,
    provision: str,
    description: str,
    day: date,
    by: str,
    today: date,
    filing: str | None = None,
    address: str | None = None,
    parcel: str | None = None,
    violator_address: Mapping[str, str] | None = None,
) -> Opened:
    """A new case on a violation observed on ``day``: on ``filing`` (its
    site and, unless given, its applicant as the violator come from it) or on
    the parcel at ``address``.  The case id is the town's next
    (``SAU-ENF-2026-0001``)."""
    profile = town(town_id)
    profile.fine_schedule(bylaw)  # UnknownChoice naming the town's by-laws with a schedule
    site: dict[str, str] = {}
    if filing:
        found, row = store.load(filing)
        if found.town != town_id:
            raise NotTheFilingsTown(filing, found.town, town_id)
        address = address or row.address
        parcel = parcel or row.parcel
        if not violator:
            applicant = found.extra.get("applicant")
            violator = applicant.get("name", "") if isinstance(applicant, Mapping) else ""
    if address:
        site["address"] = address.strip()[:300]
    if parcel:
        site["parcel"] = parcel.strip()[:100]
    if not site:
        raise MalformedEvent("a violation is on a filing or at a site: give the filing, or the address or parcel")
    obj: dict[str, Any] = {
        "town": town_id,
        "bylaw": bylaw,
        "site": site,
        "violator": {"name": _text(violator, "the violator's name")},
        "events": [
            {
                "type": "violation-observed",
                "date": day.isoformat(),
                "provision": _text(provision, "the provision violated"),
                "description": _text(description, "what was seen"),
            }
        ],
    }
    if violator_address:
        obj["violator"]["address"] = mailing_address(violator_address)
    if filing:
        obj["filing"] = filing
    record = EnforcementRecord(store)
    for _ in range(3):  # another case opened at the same moment took the number: take the next
        obj["id"] = f"{profile.code}-ENF-{day.year}-{record.next_number(town_id, day.year):04d}"
        try:
            with UnitOfWork(store) as uow:
                return Opened(cases.open_case(uow.conn, store, obj, by=by, today=today), "open")
        except DuplicateCase:
            continue
    raise DuplicateCase(obj["id"])


def _record(store, case_id: str, raw: Mapping[str, Any], *, by: str, today: date, expect_seq: int | None) -> Recorded:
    """Append one event to the case, its row locked, in a unit of work."""
    with UnitOfWork(store) as uow:
        case, row = load_case(uow.conn, case_id, lock=True)
        return Recorded(*cases.append_events(uow.conn, store, case, row, [raw], by=by, today=today, expect_seq=expect_seq))


def open_recorded_case(store, obj: Mapping[str, Any], *, by: str, today: date | None = None) -> str:
    """A case as the filing format writes it (its id and events given: the
    demonstration's cases, an import), checked and written in one unit of
    work; its id."""
    with UnitOfWork(store) as uow:
        return cases.open_case(uow.conn, store, obj, by=by, today=today)


def notice_violation(
    store, case_id: str, *, day: date, by: str, today: date, delivered: str | None = None, expect_seq: int | None = None
) -> Recorded:
    """The notice of violation sent to the violator on ``day``."""
    raw: dict[str, Any] = {"type": "violation-noticed", "date": day.isoformat()}
    if delivered:
        raw["delivered"] = delivered
    return _record(store, case_id, raw, by=by, today=today, expect_seq=expect_seq)


def issue_order(
    store,
    case_id: str,
    *,
    day: date,
    comply_by: date,
    requires: Sequence[str],
    by: str,
    today: date,
    expect_seq: int | None = None,
) -> Recorded:
    """An Enforcement Order issued on ``day``: what it ``requires`` (one
    line each), to be complied with by ``comply_by``."""
    lines = [line.strip() for line in requires if line and line.strip()]
    if not lines:
        raise MalformedEvent("an Enforcement Order says what it requires: give at least one requirement")
    raw = {"type": "order-issued", "date": day.isoformat(), "comply_by": comply_by.isoformat(), "requires": lines}
    return _record(store, case_id, raw, by=by, today=today, expect_seq=expect_seq)


def issue_tickets(
    store,
    case_id: str,
    *,
    day: date,
    provisions: Sequence[str],
    days: Iterable[date],
    by: str,
    today: date,
    delivered: str | None = None,
    mailed_to: Mapping[str, str] | None = None,
    expect_seq: int | None = None,
    dollars: int | None = None,
) -> Recorded:
    """One ticket for each provision on each of ``days`` (each day and
    each provision a separate offense), issued on ``day``: numbered among
    the violator's earlier offenses and priced by the schedule in the
    transaction that records them (or at ``dollars`` each, where the by-law
    sets only a maximum: the board's choice up to it, refused above), each with the violator's mailing
    address ``mailed_to`` (street, city, state, zip) when given.  Refused
    whole (nothing written) when one of them is: a day already ticketed, an
    amount the by-law's copy lost, a by-law not enforced by tickets, a
    ticket mailed with no mailing address given or on the case."""
    names = [_text(p, "the provision violated") for p in provisions if p and p.strip()]
    offense_days = sorted(set(days))
    if not names or not offense_days:
        raise MalformedEvent("a ticket is for a provision on a day: give at least one of each")
    offenses = [(p, d) for d in offense_days for p in names]
    address = mailing_address(mailed_to) if mailed_to else None
    with UnitOfWork(store) as uow:
        case, row = load_case(uow.conn, case_id, lock=True)
        violator = case.extra.get("violator")
        known = violator.get("address") if isinstance(violator, Mapping) else None
        if delivered == "mailed" and address is None and not isinstance(known, Mapping):
            raise MalformedEvent(
                "a ticket that is mailed goes to the violator's last known address (M.G.L. c.40 §21D): give the mailing address"
            )
        made = cases.price_tickets(uow.conn, case, offenses, day=day, delivered=delivered, dollars=dollars)
        if address is not None:
            for raw in made:
                raw.update({f"mail_{k}": v for k, v in address.items()})
        seq, state = cases.append_events(uow.conn, store, case, row, made, by=by, today=today, expect_seq=expect_seq)
    schedule = town(case.town).fine_schedule(case.bylaw)
    shown = tuple(
        (r["provision"], date.fromisoformat(r["offense_day"]), r["offense"], r["fine"], schedule.label(r["offense"]))
        for r in made
    )
    return Recorded(seq, state, shown)


_ZIP = re.compile(r"\d{5}(-\d{4})?")


def mailing_address(given: Mapping[str, str]) -> dict[str, str]:
    """A mailing address (street, city, state, zip) checked: every part
    given, a two-letter state, a ZIP code; MalformedEvent naming the part
    at fault."""
    out = {k: str(given.get(k) or "").strip()[:200] for k in ("street", "city", "state", "zip")}
    missing = [k for k, v in out.items() if not v]
    if missing:
        raise MalformedEvent(f"the mailing address needs its {', '.join(missing)}")
    if not re.fullmatch(r"[A-Za-z]{2}", out["state"]):
        raise MalformedEvent(f"the mailing address's state is two letters, e.g. MA, not {out['state']!r}")
    if not _ZIP.fullmatch(out["zip"]):
        raise MalformedEvent(f"the mailing address's ZIP code is five digits (or ZIP+4), not {out['zip']!r}")
    out["state"] = out["state"].upper()
    return out


def record_step(store, case_id: str, raw: Mapping[str, Any], *, by: str, today: date, expect_seq: int | None = None) -> Recorded:
    """One of :data:`STEPS`, as its event (the filing format's
    "Enforcement cases" table)."""
    if raw.get("type") not in STEPS:
        raise MalformedEvent(
            f"{raw.get('type')!r} is not a step recorded this way; use one of: {', '.join(STEPS)} "
            "(a notice, an order and tickets have their own commands)"
        )
    return _record(store, case_id, raw, by=by, today=today, expect_seq=expect_seq)


def void_step(
    store, case_id: str, seq: int, *, reason: str, day: date, by: str, today: date, expect_seq: int | None = None
) -> Recorded:
    """Void event ``seq`` of the case, for ``reason`` (kept on the record)."""
    text = (reason or "").strip()
    if not text:
        raise MalformedEvent(f"{case_id}: to void an event, say why (the reason is kept on the record)")
    raw = {"type": VOID, "date": day.isoformat(), "voids": seq, "reason": text[:500]}
    return _record(store, case_id, raw, by=by, today=today, expect_seq=expect_seq)
