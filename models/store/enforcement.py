"""The enforcement record in the store: cases opened, events appended, the
tickets priced in the transaction that records them, the docket of what
is due.  Each public method is one transaction, as the store's are.

Recording an event locks the case's row (``BEGIN IMMEDIATE`` on SQLite,
``SELECT ... FOR UPDATE`` on PostgreSQL), replays its history with the new
event through the core (:func:`workflows.enforcement_replay.replay_case`)
and only then appends it and rewrites the case's derived state and clocks.
A ticket's number and fine are worked out inside that transaction from
every earlier offense of the same violator under the same by-law in the
town (every case of theirs, voided tickets left out), with the violator's
other cases locked too, so two tickets written at once cannot take the same
number.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import Connection

from models.errors import DuplicateCase, EventFromTheFuture, StaleFiling, StoreError, UnknownCase
from models.schema.enforcement_tables import EnforcementCaseRow, EnforcementClockRow, EnforcementEventRow, violator_key
from workflows.enforcement import Case, parse_case, same_violator, ticket_events
from workflows.enforcement_replay import CaseReplay, replay_case
from workflows.fines import fine_for, offense_number
from workflows.replay import live_events
from workflows.towns import town

__all__ = ["EnforcementRecord", "CaseRow", "DUE"]

CASE, EVENT, CLOCK = EnforcementCaseRow.__table__, EnforcementEventRow.__table__, EnforcementClockRow.__table__
#: the replay statuses of a deadline still to act on, stored as ``due``
DUE = ("open", "overdue")
VIOLATIONS = ("premature", "violated")

CaseRow = Any  # a row of ``enforcement_case``


def _derived(replay: CaseReplay) -> tuple[dict, list[dict]]:
    """The case row's derived columns and its clock rows."""
    rows, next_due = [], None
    for n, c in enumerate(replay.clocks, start=1):
        status = "due" if c.type == "deadline" and c.status in DUE else c.status
        rows.append(
            {
                "n": n,
                "clock_id": c.id,
                "type": c.type,
                "date": c.date,
                "status": status,
                "rule": c.rule,
                "explanation": c.explanation,
            }
        )
        if status == "due" and (next_due is None or c.date < next_due[0]):
            next_due = (c.date, c.id)
    values = {
        "state": replay.state,
        "next_deadline_date": next_due[0] if next_due else None,
        "next_deadline_clock": next_due[1] if next_due else None,
        "fines": replay.fines,
    }
    return values, rows


def _site(case: Case, name: str) -> str | None:
    site = case.extra.get("site")
    value = site.get(name) if isinstance(site, Mapping) else None
    return value if isinstance(value, str) else None


class EnforcementRecord:
    """The enforcement cases of one store (:class:`models.store.filings.Store`)."""

    def __init__(self, store):
        self.store, self.engine = store, store.engine

    # -- writing -----------------------------------------------------------------

    def open(self, obj: Mapping[str, Any], *, by: str, today: date | None = None) -> str:
        """Check a new case (its JSON, its first events replayed) and write
        it; DuplicateCase if the id is taken.  Returns its id."""
        case = parse_case(obj)
        self._not_ahead(case, case.events, today)
        replay = replay_case(case, max((e.date for e in case.events), default=today))
        values, clocks = _derived(replay)
        now = self.store.now()
        with self.engine.begin() as conn:
            if case.filing is not None:
                from models.schema.tables import FilingRow

                if conn.execute(select(FilingRow.__table__.c.id).where(FilingRow.__table__.c.id == case.filing)).first() is None:
                    from models.errors import UnknownFiling

                    raise UnknownFiling(case.filing)
            if conn.execute(select(CASE.c.id).where(CASE.c.id == case.id)).first() is not None:
                raise DuplicateCase(case.id)
            conn.execute(
                insert(CASE),
                [
                    {
                        "id": case.id,
                        "town": case.town,
                        "bylaw": case.bylaw,
                        "filing_id": case.filing,
                        "address": _site(case, "address"),
                        "parcel": _site(case, "parcel"),
                        "violator": case.violator,
                        "violator_key": violator_key(case.violator),
                        "extra": dict(case.extra),
                        "last_seq": len(case.events),
                        "updated_at": now,
                        **values,
                    }
                ],
            )
            self._write_events(conn, case.id, case.events, now, by)
            if clocks:
                conn.execute(insert(CLOCK), [{"case_id": case.id, **c} for c in clocks])
        return case.id

    def record(
        self,
        case_id: str,
        raws: Mapping[str, Any] | Callable[[Connection, Case], Sequence[Mapping[str, Any]]],
        *,
        by: str,
        today: date | None = None,
        expect_seq: int | None = None,
    ) -> tuple[int, str]:
        """Append one event (``raws`` a mapping), or the events a function
        of the locked connection and the case makes (tickets priced in the
        transaction), if the history with them replays; returns (the last
        sequence number, the case's state)."""
        now = self.store.now()
        with self.engine.begin() as conn:
            case, row = self.load(case_id, conn, lock=True)
            if expect_seq is not None and row.last_seq != expect_seq:
                raise StaleFiling(case_id, expect_seq, row.last_seq)
            made = raws(conn, case) if callable(raws) else [raws]
            longer = case
            for raw in made:
                longer = longer.with_event(raw)
            added = longer.events[len(case.events) :]
            self._not_ahead(case, added, today)
            replay = replay_case(longer, max(e.date for e in longer.events))
            values, clocks = _derived(replay)
            self._write_events(conn, case_id, added, now, by)
            conn.execute(
                update(CASE)
                .where(and_(CASE.c.id == case_id, CASE.c.last_seq == row.last_seq))
                .values(last_seq=len(longer.events), updated_at=now, **values)
            )
            conn.execute(delete(CLOCK).where(CLOCK.c.case_id == case_id))
            if clocks:
                conn.execute(insert(CLOCK), [{"case_id": case_id, **c} for c in clocks])
            return len(longer.events), replay.state

    def price_tickets(
        self, conn: Connection, case: Case, offenses: Iterable[tuple[str, date]], *, day: date, delivered: str | None
    ) -> list[dict]:
        """The ``ticket-issued`` events for ``offenses`` ((provision, day)
        pairs), each numbered among the violator's earlier offenses under
        the same by-law in the town and priced by the schedule (FineAmountLost
        where the town's copy of the by-law lost the amount), in day order."""
        schedule = town(case.town).fine_schedule(case.bylaw)
        earlier = self.offense_days(conn, case)
        out = []
        for provision, offense_day in sorted(offenses, key=lambda p: (p[1], p[0])):
            number = offense_number(schedule, earlier, offense_day)
            fine = fine_for(town(case.town).name, schedule, number)
            raw = {
                "type": "ticket-issued",
                "date": day.isoformat(),
                "provision": provision,
                "offense_day": offense_day.isoformat(),
                "offense": number,
                "fine": fine.dollars,
            }
            if delivered:
                raw["delivered"] = delivered
            out.append(raw)
            earlier.append(offense_day)
        return out

    def offense_days(self, conn: Connection, case: Case) -> list[date]:
        """The days of every live ticket of the case's violator under its
        by-law in its town, this case's included; the violator's other cases
        are locked (PostgreSQL) for the transaction."""
        key = violator_key(case.violator)
        query = select(CASE.c.id).where(and_(CASE.c.town == case.town, CASE.c.bylaw == case.bylaw, CASE.c.violator_key == key))
        if conn.dialect.name != "sqlite":
            query = query.with_for_update()
        ids = [r[0] for r in conn.execute(query)]
        days = [t.get("offense_day") for t in ticket_events(live_events(case))]
        for other in ids:
            if other == case.id:
                continue
            found, _ = self.load(other, conn)
            if same_violator(found.violator, case.violator):
                days += [t.get("offense_day") for t in ticket_events(live_events(found))]
        return days

    def _write_events(self, conn: Connection, case_id: str, events, now: datetime, by: str) -> None:
        if events:
            conn.execute(
                insert(EVENT),
                [
                    {
                        "case_id": case_id,
                        "seq": e.position,
                        "type": e.type,
                        "date": e.date,
                        "raw": dict(e.raw),
                        "recorded_at": now,
                        "recorded_by": by,
                    }
                    for e in events
                ],
            )

    @staticmethod
    def _not_ahead(case: Case, events, today: date | None) -> None:
        if today is None:
            return
        for e in events:
            if e.date > today:
                raise EventFromTheFuture(case.id, e.type, e.date, today)

    # -- reading -----------------------------------------------------------------

    def load(self, case_id: str, conn: Connection | None = None, *, lock: bool = False) -> tuple[Case, CaseRow]:
        """The case as the core's :class:`Case`, and its row."""
        if conn is None:
            with self.store.reader.connect() as c:
                return self.load(case_id, c)
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
