"""The deposit and fee ledger: one account per applicant (Canton 16-12 §5).

Entries are appended, never changed (a trigger refuses it); each is checked
with the whole account by :func:`workflows.deposits.statement` on the
connection of the service layer's unit of work, with the applicant's row
locked.  What it reads is :mod:`models.read.deposits`.
"""

from collections.abc import Callable
from datetime import UTC, date, datetime

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from models.errors import UnknownFiling
from models.read.deposits import FILING, LEDGER, PARTY, UnknownApplicant, account_lines, party_row, stored_line
from models.store.bulk import select_in
from workflows.deposit_events import category_of, permit_lines, reversing_lines
from workflows.deposits import LedgerRefused, Line, Statement, charge, parse_dollars, refund_allowed, statement
from workflows.filing import Filing
from workflows.replay import live_events

__all__ = ["DepositLedger", "UnknownApplicant"]


class DepositLedger:
    """Each applicant's account of deposits, fees and refunds."""

    def __init__(self, now: Callable[[], datetime] = lambda: datetime.now(UTC)):
        self.now = now

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

    def _append(self, conn: Connection, name: str, filing_id: str, make, *, day: date, by: str) -> Statement:
        party = party_row(conn, name, lock=True)
        filing = self._filing(conn, party, filing_id)
        lines = account_lines(conn, party.id)
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

    def fill(self, conn: Connection, filing: Filing, *, by: str) -> int:
        """Append to the account of the filing's applicant, on the unit of
        work's ``conn``, first the reversing line of each line whose event
        has been voided since (:func:`workflows.deposit_events.reversing_lines`),
        then each line its live events call for at the permit's category
        (:func:`workflows.deposit_events.permit_lines`) whose source it does
        not hold yet, each checked with the whole account (LedgerRefused,
        nothing written, for one it cannot bear); how many were appended.
        A filing naming no applicant has no account."""
        return self.fill_many(conn, [filing], by=by)

    def fill_many(self, conn: Connection, filings: list[Filing], *, by: str) -> int:
        """:meth:`fill` for several filings at once (an import's street
        openings): each account read and checked once with all its new
        lines, in the order of ``filings``; one insert."""
        if not filings:
            return 0
        ids = [f.id for f in filings]
        owner = dict(select_in(conn, (FILING.c.id, FILING.c.applicant_id), FILING.c.id, ids))
        missing = [i for i in ids if i not in owner]
        if missing:
            raise UnknownFiling(missing[0])
        sourced: dict[str, dict] = {i: {} for i in ids}
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            query = select(LEDGER).where(LEDGER.c.filing_id.in_(chunk), LEDGER.c.source.is_not(None)).order_by(LEDGER.c.seq)
            for r in conn.execute(query):
                sourced[r.filing_id][r.source] = stored_line(r)
        by_party: dict[int, list] = {}
        for filing in filings:
            if owner[filing.id] is not None:
                by_party.setdefault(owner[filing.id], []).append(filing)
        rows = []
        for party_id in sorted(by_party):  # one lock order for every writer
            # FOR NO KEY UPDATE (key_share): an account's writers wait for each other, while the
            # filing rows an import inserts hold FOR KEY SHARE on their applicant (the foreign
            # key); FOR UPDATE would wait for those and two imports naming one applicant deadlock
            party = conn.execute(select(PARTY).where(PARTY.c.id == party_id).with_for_update(key_share=True)).first()
            new = []
            for filing in by_party[party_id]:
                live = live_events(filing)
                held = sourced[filing.id]
                lines = permit_lines(filing.id, live, category_of(live, party.category))
                new += [*reversing_lines(filing.id, filing.events, held), *(x for x in lines if x.source not in held)]
            if not new:
                continue
            account = account_lines(conn, party.id)
            statement(party.name, account + [x.line for x in new])  # refuses what the account cannot bear
            seq = conn.execute(select(func.max(LEDGER.c.seq)).where(LEDGER.c.party_id == party.id)).scalar() or 0
            now = self.now()
            for x in new:
                seq += 1
                ln = x.line
                rows.append(
                    dict(
                        party_id=party.id,
                        seq=seq,
                        filing_id=ln.filing,
                        entry=ln.entry,
                        item=ln.item,
                        quantity=ln.quantity,
                        amount_cents=ln.cents,
                        date=ln.date,
                        rule=ln.rule,
                        note=ln.note,
                        recorded_at=now,
                        recorded_by=by,
                        source=x.source,
                    )
                )
        if rows:
            conn.execute(insert(LEDGER), rows)
        return len(rows)

    def charge(self, conn: Connection, name: str, filing_id: str, item: str, quantity: int, *, day: date, by: str) -> Statement:
        """A deposit or fee from the schedule, priced for the applicant's category."""

        def make(party, filing, _):
            c = charge(item, quantity, party.category)
            return Line(c.entry, c.cents, day, filing_id, c.item, c.quantity, c.rule, c.note)

        return self._append(conn, name, filing_id, make, day=day, by=by)

    def deduct(
        self, conn: Connection, name: str, filing_id: str, dollars: str, *, reason: str | None, day: date, by: str
    ) -> Statement:
        """The cost of a proper repair after a Default (§5, §13)."""
        cents = parse_dollars(dollars)
        return self._append(
            conn,
            name,
            filing_id,
            lambda p, f, s: Line(
                "deduction", cents, day, filing_id, None, None, "Canton 16-12 §5; §13", reason or "repair after a Default"
            ),
            day=day,
            by=by,
        )

    def refund(self, conn: Connection, name: str, filing_id: str, *, day: date, by: str, defaults) -> Statement:
        """Release the permit's unexpended balance after its final inspection
        (§5), unless a permit of the applicant is in Default (``defaults``:
        :func:`models.read.deposits.winter_defaults`)."""

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

        return self._append(conn, name, filing_id, make, day=day, by=by)
