"""A board's year in figures: the arithmetic of the Reports page and of the
annual report a board gives the town (Manchester-by-the-Sea General By-Laws
Art. IX: every board reports its doings in writing "in such a manner as to
give the citizens a fair and full understanding"; Mansfield Ch. 4: every
board that handles town money presents its receipts and expenditures for
the year).

The record is handed in as plain values (:class:`FilingFacts`,
:class:`LedgerFact`, :class:`CaseFacts`), read by
:mod:`models.read.reports`; :func:`year_report` counts them.  Pure: no
I/O, no clock ("as of" is passed in).

What counts (docs/reference/readings.md, "The board's year"):

- an event voided by a later ``event-voided`` counts for nothing, and the
  void itself is no doing of the board;
- a filing is received the day of its first ``filed`` event;
- a decision is a filing's first permit issued or denied, or its
  determination; it was made on time when each of its decision clocks
  (``decision``: the by-law's; ``wpa:decision`` or a state filing's:
  the state's) was met by its day, and late when one was met after it;
- an Order (permit) expired in the year when its expiry clock fell in the
  year, before the day the report is made, and the record holds it expired;
- money is money received: fees paid (a ``payment-received``; for a
  permit with a deposit ledger, the ledger's fee payments, since its
  payment holds the deposit too), deposits received, kept for a repair and
  refunded by the ledger's dates (a voided event's lines reversed), and the
  deposits held at the end of the year (or on the day the report is made).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from statistics import median

__all__ = [
    "DECISIONS",
    "DECISION_CLOCKS",
    "ORDER_KINDS",
    "CERTIFIED",
    "STAGES",
    "Happening",
    "ClockFact",
    "FilingFacts",
    "LedgerFact",
    "CaseFacts",
    "DecisionLine",
    "Timeliness",
    "YearReport",
    "live",
    "authority_of",
    "cents_of",
    "year_report",
]

#: the events that decide a filing: the permit or Order issued or denied, an RDA's determination
DECISIONS = ("permit-issued", "permit-denied", "determination-issued")
#: the clock that times a decision, without a jurisdiction's prefix
DECISION_CLOCKS = ("decision",)
#: the kinds whose permit is an Order (of Conditions) or a permit the board issues and that expires
ORDER_KINDS = ("noi", "land-disturbance")
#: the events that certify the work done under an Order (310 CMR 10.05(9); Mansfield Ch. 25 Part B §15)
CERTIFIED = ("completion-certified", "certificate-issued")
#: a street opening's inspections, in the order the work goes (Canton 16-12 §10.2)
STAGES = ("pre-backfill", "temporary-patch", "settlement", "permanent-patch")
from workflows.event_fields import VOID  # noqa: E402

#: the prefix of a clock that is the state's, counted beside a town's own (workflows/jurisdictions.py)
STATE_PREFIX = "wpa:"
STATE_TOWN = "wpa"


@dataclass(frozen=True)
class Happening:
    """One event of a record: its place in the history (from 1), type, day and fields."""

    seq: int
    type: str
    date: date
    raw: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class ClockFact:
    """A clock as the store derived it: its id, type, day, status and rule."""

    clock_id: str
    type: str
    date: date
    status: str
    rule: str


@dataclass(frozen=True)
class FilingFacts:
    id: str
    town: str
    kind: str
    events: tuple[Happening, ...]
    clocks: tuple[ClockFact, ...] = ()


@dataclass(frozen=True)
class LedgerFact:
    """A line of the deposit ledger: the filing's kind, the entry, cents, day."""

    filing_id: str
    kind: str
    entry: str
    cents: int
    date: date


@dataclass(frozen=True)
class CaseFacts:
    """An enforcement case: its id and its events."""

    id: str
    events: tuple[Happening, ...]


@dataclass(frozen=True)
class DecisionLine:
    """One decision of the year: the filing, its kind, what was decided and
    when, days from filing, and its decision clocks (authority, clock id,
    deadline, met on time, rule)."""

    filing: str
    kind: str
    event: str
    date: date
    filed: date | None
    days: int | None
    clocks: tuple[tuple[str, str, date, bool, str], ...]

    @property
    def late(self) -> bool:
        return any(not on_time for _, _, _, on_time, _ in self.clocks)


@dataclass(frozen=True)
class Timeliness:
    """Decisions timed by one authority's clock: how many, how many on time, the late ones."""

    authority: str
    timed: int
    on_time: int
    late: tuple[DecisionLine, ...]

    @property
    def share(self) -> float | None:
        return None if not self.timed else self.on_time / self.timed


@dataclass(frozen=True)
class YearReport:
    year: int
    kinds: tuple[str, ...]
    received: Mapping[str, tuple[int, ...]]  # kind -> 12 months
    decisions: tuple[DecisionLine, ...]
    timeliness: tuple[Timeliness, ...]  # the by-law's, the state's
    median_days: float | None
    continued: int  # hearing-continued events in the year
    continued_filings: int  # filings whose hearing was continued in the year
    issued: Mapping[str, int]  # kind -> permits / Orders / determinations issued
    denied: Mapping[str, int]
    expired: int
    certified: int
    cases_opened: int
    cases_closed: int
    tickets: int
    fines_levied: int  # dollars
    fines_paid: int  # dollars
    fees: Mapping[str, int]  # kind -> cents received
    deposits_received: int
    deposits_kept: int
    deposits_refunded: int
    deposits_held: int
    inspections: Mapping[str, tuple[int, int]]  # stage -> (passed, failed)

    @property
    def received_total(self) -> int:
        return sum(sum(months) for months in self.received.values())

    @property
    def fees_total(self) -> int:
        return sum(self.fees.values())

    @property
    def inspections_total(self) -> tuple[int, int]:
        return sum(p for p, _ in self.inspections.values()), sum(f for _, f in self.inspections.values())


def live(events: Iterable[Happening]) -> list[Happening]:
    """The events no later ``event-voided`` voids, without the voids."""
    events = list(events)
    voided = {e.raw.get("voids") for e in events if e.type == VOID}
    return [e for e in events if e.type != VOID and e.seq not in voided]


def authority_of(town: str, clock_id: str) -> str:
    """``state`` for the state's clock (a joint filing's ``wpa:`` clock, or a
    filing under the Wetlands Protection Act alone), else ``by-law``."""
    return "state" if town == STATE_TOWN or clock_id.startswith(STATE_PREFIX) else "by-law"


def cents_of(amount) -> int:
    """A payment's ``amount`` ("50.00") in cents; 0 for what is not money."""
    try:
        return int((Decimal(str(amount)) * 100).to_integral_value())
    except (InvalidOperation, ValueError):
        return 0


def _in(day: date | None, year: int) -> bool:
    return day is not None and day.year == year


def _decision(f: FilingFacts, events: Sequence[Happening], year: int) -> DecisionLine | None:
    decided = next((e for e in events if e.type in DECISIONS), None)
    if decided is None or not _in(decided.date, year):
        return None
    filed = next((e.date for e in events if e.type == "filed"), None)
    clocks = tuple(
        (authority_of(f.town, c.clock_id), c.clock_id, c.date, c.status == "met", c.rule)
        for c in f.clocks
        if c.clock_id.removeprefix(STATE_PREFIX) in DECISION_CLOCKS and c.status in ("met", "late")
    )
    days = (decided.date - filed).days if filed is not None else None
    return DecisionLine(f.id, f.kind, decided.type, decided.date, filed, days, clocks)


def year_report(
    year: int,
    filings: Iterable[FilingFacts],
    ledger: Iterable[LedgerFact] = (),
    cases: Iterable[CaseFacts] = (),
    *,
    kinds: Sequence[str],
    as_of: date,
) -> YearReport:
    """The figures of ``year`` for ``filings`` of ``kinds`` (the others are
    left out), their ledger lines and the board's enforcement ``cases``, as
    the record stands on ``as_of``."""
    kinds = tuple(kinds)
    received = {k: [0] * 12 for k in kinds}
    decisions: list[DecisionLine] = []
    continued, continued_filings, expired, certified = 0, 0, 0, 0
    issued, denied, fees = Counter(), Counter(), Counter()
    inspections = {s: [0, 0] for s in STAGES}
    ledger = [ln for ln in ledger if ln.kind in received]
    ledgered = {ln.filing_id for ln in ledger}
    for f in filings:
        if f.kind not in received:
            continue
        events = live(f.events)
        filed = next((e for e in events if e.type == "filed"), None)
        if filed is not None and _in(filed.date, year):
            received[f.kind][filed.date.month - 1] += 1
        line = _decision(f, events, year)
        if line is not None:
            decisions.append(line)
        this_year = [e for e in events if _in(e.date, year)]
        n_continued = sum(e.type == "hearing-continued" for e in this_year)
        continued += n_continued
        continued_filings += n_continued > 0
        for e in this_year:
            if e.type in ("permit-issued", "determination-issued"):
                issued[f.kind] += 1
            elif e.type == "permit-denied":
                denied[f.kind] += 1
            elif e.type in CERTIFIED and f.kind in ORDER_KINDS:
                certified += 1
            elif e.type == "payment-received" and f.id not in ledgered:
                fees[f.kind] += cents_of(e.raw.get("amount"))
            elif e.type == "inspected" and e.raw.get("stage") in inspections:
                inspections[e.raw["stage"]][0 if e.raw.get("result") == "pass" else 1] += 1
        if f.kind in ORDER_KINDS:
            expired += sum(
                1
                for c in f.clocks
                if c.clock_id.removeprefix(STATE_PREFIX) == "permit-expiry"
                and not c.clock_id.startswith(STATE_PREFIX)  # one Order: its town's expiry, not the state's twin
                and c.status in ("active", "expired")  # not "closed": a Certificate ended the Order first
                and _in(c.date, year)
                and c.date < as_of
            )
    cases_opened = cases_closed = tickets = fines_levied = fines_paid = 0
    for case in cases:
        events = live(case.events)
        if events and _in(events[0].date, year):
            cases_opened += 1
        tickets_by_seq = {e.seq: e for e in events if e.type == "ticket-issued"}
        for e in events:
            if not _in(e.date, year):
                continue
            if e.type == "closed":
                cases_closed += 1
            elif e.type == "ticket-issued":
                tickets += 1
                fines_levied += int(e.raw.get("fine") or 0)
            elif e.type == "ticket-paid" and e.raw.get("ticket") in tickets_by_seq:
                fines_paid += int(tickets_by_seq[e.raw["ticket"]].raw.get("fine") or 0)
    end = min(date(year, 12, 31), as_of)
    sums, held = Counter(), 0
    for ln in ledger:
        if _in(ln.date, year):
            sums[ln.entry] += ln.cents
            if ln.entry == "payment":
                fees[ln.kind] += ln.cents
        if ln.date <= end:
            held += {"received": ln.cents, "deduction": -ln.cents, "refund": -ln.cents}.get(ln.entry, 0)
    return YearReport(
        year=year,
        kinds=kinds,
        received={k: tuple(v) for k, v in received.items()},
        decisions=tuple(sorted(decisions, key=lambda d: (d.date, d.filing))),
        timeliness=tuple(_timeliness(a, decisions) for a in ("by-law", "state")),
        median_days=median(d.days for d in decisions if d.days is not None)
        if any(d.days is not None for d in decisions)
        else None,
        continued=continued,
        continued_filings=continued_filings,
        issued={k: issued[k] for k in kinds},
        denied={k: denied[k] for k in kinds},
        expired=expired,
        certified=certified,
        cases_opened=cases_opened,
        cases_closed=cases_closed,
        tickets=tickets,
        fines_levied=fines_levied,
        fines_paid=fines_paid,
        fees={k: fees[k] for k in kinds},
        deposits_received=sums["received"],
        deposits_kept=sums["deduction"],
        deposits_refunded=sums["refund"],
        deposits_held=held,
        inspections={s: (p, f) for s, (p, f) in inspections.items()},
    )


def _timeliness(authority: str, decisions: Sequence[DecisionLine]) -> Timeliness:
    timed = [d for d in decisions if any(a == authority for a, *_ in d.clocks)]
    late = [d for d in timed if any(a == authority and not ok for a, _, _, ok, _ in d.clocks)]
    return Timeliness(authority, len(timed), len(timed) - len(late), tuple(sorted(late, key=lambda d: (d.date, d.filing))))
