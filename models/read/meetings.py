"""The record of a commission's meetings, read: a meeting, a town's
meetings, their agendas, the meeting a filing's hearing is on, the filings
an agenda names.  Times are the town's wall times, naive, as the record
keeps an event's ``at`` (America/New_York for every Massachusetts town:
config/clock.py).  The writes are :mod:`models.store.meetings`; the tables
:mod:`models.schema.meeting_tables`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

from models.errors import UnknownMeeting
from models.schema.meeting_tables import ITEM, MEETING

__all__ = [
    "Meeting",
    "AgendaItem",
    "meeting_of_row",
    "meeting",
    "meetings_of",
    "agenda_of",
    "meeting_of_filing",
    "hearing_meeting",
    "agenda_filings",
]


@dataclass(frozen=True)
class Meeting:
    id: int
    town: str
    board: str
    day: date
    starts_at: datetime
    place: str
    posted_at: datetime | None


@dataclass(frozen=True)
class AgendaItem:
    id: int
    meeting_id: int
    position: int
    kind: str
    filing_id: str | None
    title: str
    at: datetime | None


def meeting_of_row(row) -> Meeting:
    return Meeting(row.id, row.town, row.board, row.day, row.starts_at, row.place, row.posted_at)


def item_of_row(row) -> AgendaItem:
    return AgendaItem(row.id, row.meeting_id, row.position, row.kind, row.filing_id, row.title, row.at)


def meeting(conn: Connection, meeting_id: int, *, lock: bool = False) -> Meeting:
    query = select(MEETING).where(MEETING.c.id == meeting_id)
    row = conn.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise UnknownMeeting(meeting_id)
    return meeting_of_row(row)


def meetings_of(conn: Connection, town: str, *, since: date | None = None, limit: int = 200) -> list[Meeting]:
    """The town's meetings from ``since`` on, soonest first."""
    query = select(MEETING).where(MEETING.c.town == town)
    if since is not None:
        query = query.where(MEETING.c.day >= since)
    return [meeting_of_row(r) for r in conn.execute(query.order_by(MEETING.c.starts_at).limit(limit))]


def agenda_of(conn: Connection, meeting_ids) -> dict[int, list[AgendaItem]]:
    """Each meeting's agenda, in order (one query for them all)."""
    ids = list(meeting_ids)
    out: dict[int, list[AgendaItem]] = {i: [] for i in ids}
    if ids:
        query = select(ITEM).where(ITEM.c.meeting_id.in_(ids)).order_by(ITEM.c.meeting_id, ITEM.c.position)
        for r in conn.execute(query):
            out[r.meeting_id].append(item_of_row(r))
    return out


def meeting_of_filing(conn: Connection, meeting_id: int, filing_id: str) -> AgendaItem | None:
    """The filing's item on that meeting's agenda, if any."""
    row = conn.execute(select(ITEM).where(ITEM.c.meeting_id == meeting_id, ITEM.c.filing_id == filing_id)).first()
    return item_of_row(row) if row is not None else None


def hearing_meeting(conn: Connection, filing_id: str, day: date) -> Meeting | None:
    """The meeting of ``day`` at which the filing's hearing (a first or a
    continued session) is on the agenda, if there is one: its place."""
    query = (
        select(MEETING)
        .join(ITEM, ITEM.c.meeting_id == MEETING.c.id)
        .where(ITEM.c.filing_id == filing_id, ITEM.c.kind.in_(("hearing", "continued")), MEETING.c.day == day)
        .order_by(MEETING.c.starts_at)
    )
    row = conn.execute(query.limit(1)).first()
    return meeting_of_row(row) if row is not None else None


def agenda_filings(conn: Connection, filing_ids) -> dict[str, tuple[str, str, dict, tuple]]:
    """(town, kind, the filing's fields, the jurisdictions it is also heard
    under) of each filing on agendas, in one query: what an agenda prints of
    them (applicant, site, project, the laws it is heard under)."""
    from models.read.queries import as_json

    ids = sorted(set(filing_ids))
    if not ids:
        return {}
    filing = SQLModel.metadata.tables["filing"]  # models/schema/tables.py's (which imports this module's tables)
    query = select(filing.c.id, filing.c.town, filing.c.kind, filing.c.extra, filing.c.also).where(filing.c.id.in_(ids))
    return {r.id: (r.town, r.kind, as_json(r.extra) or {}, tuple(as_json(r.also) or ())) for r in conn.execute(query)}
