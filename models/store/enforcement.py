"""The enforcement record's writes: cases opened, events appended, the
tickets priced in the unit of work that records them, each on the
connection the service layer's unit of work hands in.  What it reads is
:mod:`models.read.enforcement`.

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

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection

from models.errors import DuplicateCase, EventFromTheFuture, StaleFiling
from models.read.enforcement import CASE, CLOCK, EVENT, CaseRow, load_case
from models.schema.enforcement_tables import violator_key
from workflows.enforcement import Case, parse_case, same_violator, ticket_events
from workflows.enforcement_replay import CaseReplay, replay_case
from workflows.fines import chosen_fine, fine_for, offense_number
from workflows.replay import live_events
from workflows.towns import town

__all__ = ["open_case", "append_events", "price_tickets", "offense_days", "DUE"]

#: the replay statuses of a deadline still to act on, stored as ``due``
DUE = ("open", "overdue")


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


def open_case(conn: Connection, store, obj: Mapping[str, Any], *, by: str, today: date | None = None) -> str:
    """Check a new case (its JSON, its first events replayed) and write
    it on ``conn``; DuplicateCase if the id is taken.  Returns its id."""
    case = parse_case(obj)
    _not_ahead(case, case.events, today)
    replay = replay_case(case, max((e.date for e in case.events), default=today))
    values, clocks = _derived(replay)
    now = store.now()
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
    _write_events(conn, case.id, case.events, now, by)
    if clocks:
        conn.execute(insert(CLOCK), [{"case_id": case.id, **c} for c in clocks])
    return case.id


def append_events(
    conn: Connection,
    store,
    case: Case,
    row: CaseRow,
    raws: Sequence[Mapping[str, Any]],
    *,
    by: str,
    today: date | None = None,
    expect_seq: int | None = None,
) -> tuple[int, str]:
    """Append ``raws`` to ``case`` (loaded with its ``row`` locked on
    ``conn``: :meth:`models.read.enforcement.EnforcementRecord.load`) if the
    history with them replays; returns (the last sequence number, the
    case's state)."""
    now = store.now()
    if expect_seq is not None and row.last_seq != expect_seq:
        raise StaleFiling(case.id, expect_seq, row.last_seq)
    longer = case
    for raw in raws:
        longer = longer.with_event(raw)
    added = longer.events[len(case.events) :]
    _not_ahead(case, added, today)
    replay = replay_case(longer, max(e.date for e in longer.events))
    values, clocks = _derived(replay)
    _write_events(conn, case.id, added, now, by)
    conn.execute(
        update(CASE)
        .where(and_(CASE.c.id == case.id, CASE.c.last_seq == row.last_seq))
        .values(last_seq=len(longer.events), updated_at=now, **values)
    )
    conn.execute(delete(CLOCK).where(CLOCK.c.case_id == case.id))
    if clocks:
        conn.execute(insert(CLOCK), [{"case_id": case.id, **c} for c in clocks])
    return len(longer.events), replay.state


def price_tickets(
    conn: Connection,
    case: Case,
    offenses: Iterable[tuple[str, date]],
    *,
    day: date,
    delivered: str | None,
    dollars: int | None = None,
) -> list[dict]:
    """The ``ticket-issued`` events for ``offenses`` ((provision, day)
    pairs), each numbered among the violator's earlier offenses under
    the same by-law in the town and priced by the schedule (FineAmountLost
    where the town's copy of the by-law lost the amount), or at ``dollars``
    where the by-law sets only a maximum (FineNotAllowed above it), in day
    order."""
    schedule = town(case.town).fine_schedule(case.bylaw)
    earlier = offense_days(conn, case)
    out = []
    for provision, offense_day in sorted(offenses, key=lambda p: (p[1], p[0])):
        number = offense_number(schedule, earlier, offense_day)
        fine = chosen_fine(schedule, fine_for(town(case.town).name, schedule, number), dollars)
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


def offense_days(conn: Connection, case: Case) -> list[date]:
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
        found, _ = load_case(conn, other)
        if same_violator(found.violator, case.violator):
            days += [t.get("offense_day") for t in ticket_events(live_events(found))]
    return days


def _write_events(conn: Connection, case_id: str, events, now: datetime, by: str) -> None:
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


def _not_ahead(case: Case, events, today: date | None) -> None:
    if today is None:
        return
    for e in events:
        if e.date > today:
            raise EventFromTheFuture(case.id, e.type, e.date, today)
