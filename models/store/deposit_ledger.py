"""The deposit and fee ledger: one account per applicant (Canton 16-12 §5).

Entries are appended, never changed (a trigger refuses it); each is checked
with the whole account by :func:`workflows.deposits.statement` inside the
transaction that writes it, with the applicant's row locked.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import case, func, insert, select
from sqlalchemy.engine import Connection, Engine

from models.errors import StoreError, UnknownFiling
from models.schema.tables import FilingRow, LedgerEntry, Party
from workflows.deposit_events import REVERSED
from workflows.deposits import LedgerRefused, Line, Statement, charge, parse_dollars, refund_allowed, statement

__all__ = ["DepositLedger", "UnknownApplicant", "OpenDeposit", "open_deposits", "open_deposits_query", "filing_entries"]

PARTY, LEDGER, FILING = Party.__table__, LedgerEntry.__table__, FilingRow.__table__


class UnknownApplicant(StoreError):
    def __init__(self, name: str):
        super().__init__(f"unknown applicant {name!r}: no filing names that applicant (the filing's 'applicant' field)")


def _line(r) -> Line:
    """A stored entry as the core reads it (a reversing line by its source)."""
    reverses = (r.source or "").startswith(REVERSED)
    return Line(r.entry, r.amount_cents, r.date, r.filing_id, r.item, r.quantity, r.rule, r.note or "", reverses)


def _lines(conn: Connection, party_id: int) -> list[Line]:
    rows = conn.execute(select(LEDGER).where(LEDGER.c.party_id == party_id).order_by(LEDGER.c.seq)).all()
    return [_line(r) for r in rows]


class DepositLedger:
    """Each applicant's account of deposits, fees and refunds."""

    def __init__(self, engine: Engine, now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.engine, self.now = engine, now

    def _party(self, conn: Connection, name: str, lock: bool = False):
        query = select(PARTY).where(PARTY.c.name == name)
        row = conn.execute(query.with_for_update() if lock else query).first()
        if row is None:
            raise UnknownApplicant(name)
        return row

    def _filing(self, conn: Connection, party, filing_id: str):
        row = conn.execute(select(FILING.c.id, FILING.c.state, FILING.c.applicant_id).where(FILING.c.id == filing_id)).first()
        if row is None:
            raise UnknownFiling(filing_id)
        if row.applicant_id != party.id:
            raise LedgerRefused(
                f"{filing_id} is not a permit of this applicant: each applicant's deposits are held in its own account",
                applicant=party.name,
                rule="Canton 16-12 §5",
            )
        return row

    def statement(self, name: str) -> Statement:
        with self.engine.connect() as conn:
            party = self._party(conn, name)
            return statement(name, _lines(conn, party.id))

    def _append(self, name: str, filing_id: str, make, *, day: date, by: str) -> Statement:
        with self.engine.begin() as conn:
            party = self._party(conn, name, lock=True)
            filing = self._filing(conn, party, filing_id)
            lines = _lines(conn, party.id)
            line = make(party, filing, statement(name, lines))
            after = statement(name, lines + [line])  # refuses what the account cannot bear
            seq = (conn.execute(select(func.max(LEDGER.c.seq)).where(LEDGER.c.party_id == party.id)).scalar() or 0) + 1
            conn.execute(
                insert(LEDGER).values(
                    party_id=party.id,
                    seq=seq,
                    filing_id=filing_id,
                    entry=line.entry,
                    item=line.item,
                    quantity=line.quantity,
                    amount_cents=line.cents,
                    date=line.date,
                    rule=line.rule,
                    note=line.note,
                    recorded_at=self.now(),
                    recorded_by=by,
                )
            )
            return after

    def fill(
        self, conn: Connection, filing_id: str, lines_for: Callable, *, by: str, reversals_for: Callable | None = None
    ) -> int:
        """Append to the account of the filing's applicant, in the caller's
        transaction, first each of ``reversals_for(held)`` (``held``: the
        filing's lines by source), then each of ``lines_for(category)``
        (the applicant's category) whose source it does not hold yet
        (:class:`workflows.deposit_events.SourcedLine` values), each checked
        with the whole account (LedgerRefused, nothing written, for one it
        cannot bear); how many were appended.  A filing naming no applicant
        has no account."""
        filing = conn.execute(select(FILING.c.applicant_id).where(FILING.c.id == filing_id)).first()
        if filing is None:
            raise UnknownFiling(filing_id)
        if filing.applicant_id is None:
            return 0
        party = conn.execute(select(PARTY).where(PARTY.c.id == filing.applicant_id).with_for_update()).first()
        lines = lines_for(party.category)
        sourced = conn.execute(
            select(LEDGER).where(LEDGER.c.filing_id == filing_id, LEDGER.c.source.is_not(None)).order_by(LEDGER.c.seq)
        ).all()
        held = {r.source: _line(r) for r in sourced}
        new = [s for s in lines if s.source not in held]
        if reversals_for is not None:
            new = [*reversals_for(held), *new]
        if not new:
            return 0
        account = _lines(conn, party.id)
        seq = conn.execute(select(func.max(LEDGER.c.seq)).where(LEDGER.c.party_id == party.id)).scalar() or 0
        rows = []
        for sourced in new:
            account.append(sourced.line)
            statement(party.name, account)  # refuses what the account cannot bear
            seq += 1
            ln = sourced.line
            rows.append(
                dict(
                    party_id=party.id,
                    seq=seq,
                    filing_id=filing_id,
                    entry=ln.entry,
                    item=ln.item,
                    quantity=ln.quantity,
                    amount_cents=ln.cents,
                    date=ln.date,
                    rule=ln.rule,
                    note=ln.note,
                    recorded_at=self.now(),
                    recorded_by=by,
                    source=sourced.source,
                )
            )
        conn.execute(insert(LEDGER), rows)
        return len(rows)

    def charge(self, name: str, filing_id: str, item: str, quantity: int, *, day: date, by: str) -> Statement:
        """A deposit or fee from the schedule, priced for the applicant's category."""

        def make(party, filing, _):
            c = charge(item, quantity, party.category)
            return Line(c.entry, c.cents, day, filing_id, c.item, c.quantity, c.rule, c.note)

        return self._append(name, filing_id, make, day=day, by=by)

    def deduct(self, name: str, filing_id: str, dollars: str, *, reason: str | None, day: date, by: str) -> Statement:
        """The cost of a proper repair after a Default (§5, §13)."""
        cents = parse_dollars(dollars)
        return self._append(
            name,
            filing_id,
            lambda p, f, s: Line(
                "deduction", cents, day, filing_id, None, None, "Canton 16-12 §5; §13", reason or "repair after a Default"
            ),
            day=day,
            by=by,
        )

    def winter_defaults(self, name: str, day: date) -> list[tuple[str, date]]:
        """The applicant's permits whose winter patch was due before ``day``
        and is not on record (stored ``due``): each a Default (16-12 §11.3(c))."""
        from models.schema.tables import FilingClock

        clock = FilingClock.__table__
        with self.engine.connect() as conn:
            party = self._party(conn, name)
            rows = conn.execute(
                select(clock.c.filing_id, clock.c.date)
                .join(FILING, FILING.c.id == clock.c.filing_id)
                .where(
                    FILING.c.applicant_id == party.id,
                    clock.c.clock_id == "winter-patch",
                    clock.c.status == "due",
                    clock.c.date < day,
                )
                .order_by(clock.c.filing_id)
            ).all()
        return [(f, d if isinstance(d, date) else date.fromisoformat(str(d))) for f, d in rows]

    def refund(self, name: str, filing_id: str, *, day: date, by: str) -> Statement:
        """Release the permit's unexpended balance after its final inspection (§5)."""

        defaults = self.winter_defaults(name, day)

        def make(party, filing, st):
            refund_allowed(filing_id, filing.state, name, defaults)
            return Line(
                "refund",
                st.held.get(filing_id, 0),
                day,
                filing_id,
                None,
                None,
                "Canton 16-12 §5",
                "unexpended balance released after the final inspection",
            )

        return self._append(name, filing_id, make, day=day, by=by)


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
    return [_line(r) for r in rows]
