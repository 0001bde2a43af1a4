"""What a board's year is counted from (:mod:`workflows.reports`): the
filings of a town's kinds with the events the figures read and their
decision and expiry clocks, the ledger's deposit lines, and the town's
enforcement cases with their events.  Read only, at one instant (one
read-only connection), a handful of queries whatever the number of filings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from sqlalchemy import select

from models.handle import Store
from models.read.queries import as_date
from models.schema.enforcement_tables import EnforcementCaseRow, EnforcementEventRow
from models.schema.tables import EventRow, FilingClock, FilingRow, LedgerEntry
from workflows.event_fields import VOID
from workflows.reports import CERTIFIED, DECISIONS, CaseFacts, ClockFact, FilingFacts, Happening, LedgerFact

__all__ = ["EVENT_TYPES", "CLOCK_IDS", "YearRecord", "year_record"]

FILING, EVENT, CLOCK, LEDGER = FilingRow.__table__, EventRow.__table__, FilingClock.__table__, LedgerEntry.__table__
CASE, CASE_EVENT = EnforcementCaseRow.__table__, EnforcementEventRow.__table__

#: the events the figures read (a void too: what it voids counts for nothing)
EVENT_TYPES = ("filed", "hearing-continued", "payment-received", "inspected", VOID, *DECISIONS, *CERTIFIED)
#: the clocks the figures read: a decision's period, an Order's expiry (the town's and the state's)
CLOCK_IDS = ("decision", "wpa:decision", "permit-expiry", "wpa:permit-expiry")
#: the ledger's lines of a fee paid, a deposit received, kept for a repair, refunded
LEDGER_ENTRIES = ("payment", "received", "deduction", "refund")


class YearRecord:
    """The record a year's report is counted from: ``filings``, ``ledger``, ``cases``."""

    def __init__(self, filings: list[FilingFacts], ledger: list[LedgerFact], cases: list[CaseFacts]):
        self.filings, self.ledger, self.cases = filings, ledger, cases


def year_record(store: Store, *, town: str, kinds: Sequence[str], enforcement: bool) -> YearRecord:
    """The filings of ``town`` of ``kinds`` with what the figures read, their
    deposit lines, and (``enforcement``: the board keeps the town's
    enforcement cases) the town's cases."""
    kinds = list(kinds)
    scope = select(FILING.c.id).where(FILING.c.town == town, FILING.c.kind.in_(kinds))
    with store.reader.connect() as conn:
        heads = conn.execute(
            select(FILING.c.id, FILING.c.town, FILING.c.kind).where(FILING.c.town == town, FILING.c.kind.in_(kinds))
        )
        heads = list(heads)
        events: dict[str, list[Happening]] = defaultdict(list)
        query = (
            select(EVENT.c.filing_id, EVENT.c.seq, EVENT.c.type, EVENT.c.date, EVENT.c.raw)
            .where(EVENT.c.filing_id.in_(scope), EVENT.c.type.in_(EVENT_TYPES))
            .order_by(EVENT.c.filing_id, EVENT.c.seq)
        )
        for fid, seq, etype, day, raw in conn.execute(query):
            events[fid].append(Happening(seq, etype, as_date(day), raw or {}))
        clocks: dict[str, list[ClockFact]] = defaultdict(list)
        query = (
            select(CLOCK.c.filing_id, CLOCK.c.clock_id, CLOCK.c.type, CLOCK.c.date, CLOCK.c.status, CLOCK.c.rule)
            .where(CLOCK.c.filing_town == town, CLOCK.c.filing_kind.in_(kinds), CLOCK.c.clock_id.in_(CLOCK_IDS))
            .order_by(CLOCK.c.filing_id, CLOCK.c.n)
        )
        for fid, cid, ctype, day, status, rule in conn.execute(query):
            clocks[fid].append(ClockFact(cid, ctype, as_date(day), status, rule))
        query = (
            select(LEDGER.c.filing_id, FILING.c.kind, LEDGER.c.entry, LEDGER.c.amount_cents, LEDGER.c.date)
            .select_from(LEDGER.join(FILING, FILING.c.id == LEDGER.c.filing_id))
            .where(FILING.c.town == town, FILING.c.kind.in_(kinds), LEDGER.c.entry.in_(LEDGER_ENTRIES))
        )
        ledger = [LedgerFact(fid, kind, entry, int(cents), as_date(day)) for fid, kind, entry, cents, day in conn.execute(query)]
        cases: list[CaseFacts] = []
        if enforcement:
            case_events: dict[str, list[Happening]] = defaultdict(list)
            query = (
                select(CASE_EVENT.c.case_id, CASE_EVENT.c.seq, CASE_EVENT.c.type, CASE_EVENT.c.date, CASE_EVENT.c.raw)
                .where(CASE_EVENT.c.case_id.in_(select(CASE.c.id).where(CASE.c.town == town)))
                .order_by(CASE_EVENT.c.case_id, CASE_EVENT.c.seq)
            )
            for cid, seq, etype, day, raw in conn.execute(query):
                case_events[cid].append(Happening(seq, etype, as_date(day), raw or {}))
            cases = [CaseFacts(cid, tuple(evs)) for cid, evs in case_events.items()]
    filings = [FilingFacts(fid, t, k, tuple(events.get(fid, ())), tuple(clocks.get(fid, ()))) for fid, t, k in heads]
    return YearRecord(filings, ledger, cases)
