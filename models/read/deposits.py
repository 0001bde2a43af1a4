"""The deposit and fee ledger, read: an applicant's statement, a permit's
entries, the permits whose deposit the Town still holds, the winter patches
past due (Canton 16-12 §4-6, §11.3(c)).  Its writes are
:mod:`models.store.deposit_ledger`.
"""

from dataclasses import dataclass
from datetime import date

from sqlalchemy import case, func, select
from sqlalchemy.engine import Connection, Engine

from models.errors import UnknownApplicant
from models.schema.tables import FilingClock, FilingRow, LedgerEntry, Party
from workflows.deposit_events import REVERSED
from workflows.deposits import Line, Statement, statement

__all__ = [
    "UnknownApplicant",
    "OpenDeposit",
    "applicant_statement",
    "winter_defaults",
    "open_deposits",
    "open_deposits_query",
    "filing_entries",
    "party_row",
    "account_lines",
    "stored_line",
]

PARTY, LEDGER, FILING, CLOCK = Party.__table__, LedgerEntry.__table__, FilingRow.__table__, FilingClock.__table__


def stored_line(r) -> Line:
    """A stored entry as the core reads it (a reversing line by its source)."""
    reverses = (r.source or "").startswith(REVERSED)
    return Line(r.entry, r.amount_cents, r.date, r.filing_id, r.item, r.quantity, r.rule, r.note or "", reverses)


def account_lines(conn: Connection, party_id: int) -> list[Line]:
    rows = conn.execute(select(LEDGER).where(LEDGER.c.party_id == party_id).order_by(LEDGER.c.seq)).all()
    return [stored_line(r) for r in rows]


def party_row(conn: Connection, name: str, *, lock: bool = False):
    """The applicant's row (locked for a write when ``lock``); UnknownApplicant."""
    query = select(PARTY).where(PARTY.c.name == name)
    row = conn.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise UnknownApplicant(name)
    return row


def applicant_statement(engine: Engine, name: str) -> Statement:
    """The applicant's account: every entry, what each permit holds."""
    with engine.connect() as conn:
        party = party_row(conn, name)
        return statement(name, account_lines(conn, party.id))


def winter_defaults(engine: Engine, name: str, day: date) -> list[tuple[str, date]]:
    """The applicant's permits whose winter patch was due before ``day``
    and is not on record (stored ``due``): each a Default (16-12 §11.3(c))."""
    with engine.connect() as conn:
        party = party_row(conn, name)
        rows = conn.execute(
            select(CLOCK.c.filing_id, CLOCK.c.date)
            .join(FILING, FILING.c.id == CLOCK.c.filing_id)
            .where(
                FILING.c.applicant_id == party.id,
                CLOCK.c.clock_id == "winter-patch",
                CLOCK.c.status == "due",
                CLOCK.c.date < day,
            )
            .order_by(CLOCK.c.filing_id)
        ).all()
    return [(f, d if isinstance(d, date) else date.fromisoformat(str(d))) for f, d in rows]


@dataclass(frozen=True)
class OpenDeposit:
    """A permit's deposit the Town still holds, in cents: ``charged`` (the
    deposits), ``held`` (charged less deductions and refunds), ``refunded``."""

    filing: str
    town: str
    state: str
    address: str | None
    applicant: str
    charged: int
    held: int
    refunded: int
    deducted: int


def _sum(entry: str):
    return func.sum(case((LEDGER.c.entry == entry, LEDGER.c.amount_cents), else_=0))


def open_deposits_query(*, towns):
    """The SELECT of :func:`open_deposits` without its page: each permit's
    sums by (filing, party) from the ledger alone, in filing order, read
    along ``ix_ledger_entry_filing_party`` (migration 0090: the filing, the
    party, the entry and its amount, so the sums are made as the index is
    read, with no sort, and a page stops at its last permit)."""
    held = _sum("deposit") - _sum("deduction") - _sum("refund")
    query = select(
        LEDGER.c.filing_id,
        LEDGER.c.party_id,
        _sum("deposit").label("charged"),
        held.label("held"),
        _sum("refund").label("refunded"),
        _sum("deduction").label("deducted"),
    ).where(LEDGER.c.filing_id.is_not(None))
    if towns is not None:
        query = query.where(LEDGER.c.filing_id.in_(select(FILING.c.id).where(FILING.c.town.in_(list(towns)))))
    return query.group_by(LEDGER.c.filing_id, LEDGER.c.party_id).having(held > 0).order_by(LEDGER.c.filing_id, LEDGER.c.party_id)


def open_deposits(engine: Engine, *, towns, limit: int = 200, offset: int = 0) -> tuple[list[OpenDeposit], int]:
    """The permits of ``towns`` (None: all) whose deposit is not yet all
    refunded or spent, by filing id, a page of them, and how many in all:
    the ledger's sums (:func:`open_deposits_query`), then the page's
    permits and applicants by key."""
    sums = open_deposits_query(towns=towns)
    page = sums.limit(limit).offset(offset).subquery()
    rows = (
        select(
            page.c.filing_id,
            FILING.c.town,
            FILING.c.state,
            FILING.c.address,
            PARTY.c.name,
            page.c.charged,
            page.c.held,
            page.c.refunded,
            page.c.deducted,
        )
        .select_from(page.join(FILING, FILING.c.id == page.c.filing_id).join(PARTY, PARTY.c.id == page.c.party_id))
        .order_by(page.c.filing_id, page.c.party_id)
    )
    with engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(sums.order_by(None).subquery())).scalar_one()
        found = conn.execute(rows).all()
    return [OpenDeposit(*r) for r in found], total


def filing_entries(engine: Engine, filing_id: str) -> list[Line]:
    """The ledger's entries for one permit, in the order they were recorded."""
    with engine.connect() as conn:
        rows = conn.execute(select(LEDGER).where(LEDGER.c.filing_id == filing_id).order_by(LEDGER.c.party_id, LEDGER.c.seq)).all()
    return [stored_line(r) for r in rows]
