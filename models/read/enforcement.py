"""The enforcement record, read: a case and its history, the cases of a
town, the docket of what is due, the next case number.  Its writes are
:mod:`models.store.enforcement`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.engine import Connection

from models.errors import StoreError, UnknownCase
from models.schema.enforcement_tables import EnforcementCaseRow, EnforcementClockRow, EnforcementEventRow
from workflows.enforcement import Case, parse_case
from workflows.enforcement_replay import CaseReplay, replay_case
from workflows.towns import town

__all__ = ["EnforcementRecord", "load_case", "CaseRow", "CASE", "EVENT", "CLOCK", "VIOLATIONS"]

CASE, EVENT, CLOCK = EnforcementCaseRow.__table__, EnforcementEventRow.__table__, EnforcementClockRow.__table__
VIOLATIONS = ("premature", "violated")

CaseRow = Any  # a row of ``enforcement_case``


def load_case(conn: Connection, case_id: str, *, lock: bool = False) -> tuple[Case, CaseRow]:
    """The case as the core's :class:`Case`, and its row, on ``conn``
    (locked for a write when ``lock``); UnknownCase."""
    query = select(CASE).where(CASE.c.id == case_id)
    row = conn.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise UnknownCase(case_id)
    raws = [r[0] for r in conn.execute(select(EVENT.c.raw).where(EVENT.c.case_id == case_id).order_by(EVENT.c.seq))]
    from models.read.queries import as_json

    obj = {"town": row.town, "id": row.id, "bylaw": row.bylaw}
    if row.filing_id:
        obj["filing"] = row.filing_id
    obj.update(as_json(row.extra) or {})
    obj["events"] = [as_json(r) for r in raws]
    if len(raws) != row.last_seq:
        raise StoreError(f"{case_id}: history has {len(raws)} events but the case row says {row.last_seq}")
    return parse_case(obj), row


class EnforcementRecord:
    """The enforcement cases of one store (:class:`models.handle.Store`), read."""

    def __init__(self, store):
        self.store = store

    def load(self, case_id: str, conn: Connection | None = None, *, lock: bool = False) -> tuple[Case, CaseRow]:
        """The case as the core's :class:`Case`, and its row (:func:`load_case`)."""
        if conn is None:
            with self.store.reader.connect() as c:
                return load_case(c, case_id)
        return load_case(conn, case_id, lock=lock)

    def replay(self, case_id: str, as_of: date) -> CaseReplay:
        case, _ = self.load(case_id)
        return replay_case(case, as_of)

    def history(self, case_id: str) -> list[dict]:
        """Every event with who recorded it and when, and what voided it."""
        with self.store.reader.connect() as conn:
            if conn.execute(select(CASE.c.id).where(CASE.c.id == case_id)).first() is None:
                raise UnknownCase(case_id)
            rows = conn.execute(
                select(EVENT.c.seq, EVENT.c.type, EVENT.c.date, EVENT.c.raw, EVENT.c.recorded_at, EVENT.c.recorded_by)
                .where(EVENT.c.case_id == case_id)
                .order_by(EVENT.c.seq)
            ).all()
        from models.read.queries import history_of

        return history_of(rows)

    def cases(self, *, towns: Sequence[str] | None = None, filing: str | None = None, state: str | None = None) -> list:
        """The cases (of these towns, on this filing, in this state), newest first."""
        query = select(CASE)
        if towns is not None:
            query = query.where(CASE.c.town.in_(list(towns)))
        if filing is not None:
            query = query.where(CASE.c.filing_id == filing)
        if state is not None:
            query = query.where(CASE.c.state == state)
        with self.store.reader.connect() as conn:
            return conn.execute(query.order_by(CASE.c.updated_at.desc(), CASE.c.id)).all()

    def docket(self, *, as_of: date, within: int = 7, towns: Sequence[str] | None = None) -> list[dict]:
        """Every deadline of a case still to act on due by ``as_of +
        within`` (overdue ones included) and every violation on record,
        soonest first, with the case's town, violator and site."""
        until = as_of + timedelta(days=within)
        wanted = or_(and_(CLOCK.c.status == "due", CLOCK.c.date <= until), CLOCK.c.status.in_(VIOLATIONS))
        query = (
            select(
                CLOCK.c.date,
                CLOCK.c.case_id,
                CLOCK.c.clock_id,
                CLOCK.c.status,
                CLOCK.c.rule,
                CLOCK.c.explanation,
                CASE.c.town,
                CASE.c.state,
                CASE.c.violator,
                CASE.c.address,
                CASE.c.filing_id,
            )
            .join(CASE, CASE.c.id == CLOCK.c.case_id)
            .where(wanted)
        )
        if towns is not None:
            query = query.where(CASE.c.town.in_(list(towns)))
        with self.store.reader.connect() as conn:
            rows = conn.execute(query.order_by(CLOCK.c.date, CLOCK.c.case_id, CLOCK.c.clock_id)).all()
        out = []
        for r in rows:
            day = r.date if isinstance(r.date, date) else date.fromisoformat(str(r.date))
            status = "violation" if r.status in VIOLATIONS else ("overdue" if day < as_of else "open")
            out.append(
                {
                    "date": day,
                    "status": status,
                    "case": r.case_id,
                    "town": r.town,
                    "state": r.state,
                    "clock": r.clock_id,
                    "rule": r.rule,
                    "explanation": r.explanation,
                    "violator": r.violator,
                    "address": r.address,
                    "filing": r.filing_id,
                }
            )
        return out

    def next_number(self, town_id: str, year: int) -> int:
        """One more than the highest case number of the town's year."""
        prefix = f"{town(town_id).code}-ENF-{year}-"
        with self.store.reader.connect() as conn:
            ids = [r[0] for r in conn.execute(select(CASE.c.id).where(CASE.c.id.like(prefix + "%")))]
        numbers = [int(i[len(prefix) :]) for i in ids if i[len(prefix) :].isdigit()]
        return max(numbers, default=0) + 1
