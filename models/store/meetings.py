"""The record of a commission's meetings: each meeting (its town and
board, day, starting time and place, and when its Open Meeting Law posting
went up) and its agenda (the hearings heard at it, first sessions and
continued ones, and other business), in the tables ``meeting`` and
``meeting_item`` (migration 0040).

Times are the town's wall times, naive, as the record keeps an event's
``at`` (America/New_York for every Massachusetts town: config/clock.py);
``created_at`` is the store's clock, UTC.  The actions are
services/meetings.py; this module reads and writes rows only, each write
on the connection of the caller's transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import Column, Date, DateTime, UniqueConstraint, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlmodel import Field, SQLModel

from models.errors import StoreError

__all__ = [
    "Meeting",
    "MeetingItem",
    "MeetingRow",
    "AgendaItem",
    "UnknownMeeting",
    "ITEM_KINDS",
    "MEETING",
    "ITEM",
    "add_meeting",
    "add_item",
    "mark_posted",
    "meeting",
    "meetings_of",
    "agenda_of",
    "meeting_of_filing",
    "hearing_meeting",
    "agenda_filings",
]

#: what an agenda item is: a hearing's first session, a continued session, other business
ITEM_KINDS = ("hearing", "continued", "business")


class MeetingRow(SQLModel, table=True):
    """One meeting of a board (the town's conservation commission)."""

    __tablename__ = "meeting"
    __table_args__ = (UniqueConstraint("town", "board", "starts_at", name="uq_meeting_board_start"),)
    id: int | None = Field(default=None, primary_key=True)
    town: str = Field(index=True)
    board: str
    day: date = Field(sa_column=Column(Date(), nullable=False, index=True))
    starts_at: datetime = Field(sa_column=Column(DateTime(), nullable=False))
    place: str
    posted_at: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))
    created_at: datetime = Field(sa_column=Column(DateTime(), nullable=False))
    created_by: str


class MeetingItem(SQLModel, table=True):
    """One item of a meeting's agenda, in ``position`` order."""

    __tablename__ = "meeting_item"
    id: int | None = Field(default=None, primary_key=True)
    meeting_id: int = Field(foreign_key="meeting.id", index=True)
    position: int
    kind: str
    filing_id: str | None = Field(default=None, foreign_key="filing.id", index=True)
    title: str = ""
    at: datetime | None = Field(default=None, sa_column=Column(DateTime(), nullable=True))


MEETING, ITEM = MeetingRow.__table__, MeetingItem.__table__


class UnknownMeeting(StoreError):
    """No meeting with that id (or not one the user's towns cover: a 404)."""

    def __init__(self, meeting_id):
        self.meeting = meeting_id
        super().__init__(f"no meeting {meeting_id}")


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


def _meeting(row) -> Meeting:
    return Meeting(row.id, row.town, row.board, row.day, row.starts_at, row.place, row.posted_at)


def _item(row) -> AgendaItem:
    return AgendaItem(row.id, row.meeting_id, row.position, row.kind, row.filing_id, row.title, row.at)


def add_meeting(conn: Connection, *, town: str, board: str, starts_at: datetime, place: str, by: str, now: datetime) -> int:
    """Insert a meeting; its id.  ``now``: the store's clock (UTC)."""
    values = dict(town=town, board=board, day=starts_at.date(), starts_at=starts_at, place=place, created_by=by)
    values["created_at"] = now.replace(tzinfo=None)
    return conn.execute(insert(MEETING).values(**values).returning(MEETING.c.id)).scalar_one()


def add_item(conn: Connection, meeting_id: int, kind: str, *, filing_id=None, title="", at=None) -> int:
    """Append an item to the meeting's agenda; its id."""
    last = conn.execute(select(func.max(ITEM.c.position)).where(ITEM.c.meeting_id == meeting_id)).scalar()
    values = dict(meeting_id=meeting_id, position=(last or 0) + 1, kind=kind, filing_id=filing_id, title=title, at=at)
    return conn.execute(insert(ITEM).values(**values).returning(ITEM.c.id)).scalar_one()


def mark_posted(conn: Connection, meeting_id: int, at: datetime) -> None:
    """Record the moment (town wall time) the meeting's posting went up,
    the first time only."""
    conn.execute(update(MEETING).where(MEETING.c.id == meeting_id, MEETING.c.posted_at.is_(None)).values(posted_at=at))


def meeting(conn: Connection, meeting_id: int, *, lock: bool = False) -> Meeting:
    query = select(MEETING).where(MEETING.c.id == meeting_id)
    row = conn.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise UnknownMeeting(meeting_id)
    return _meeting(row)


def meetings_of(conn: Connection, town: str, *, since: date | None = None, limit: int = 200) -> list[Meeting]:
    """The town's meetings from ``since`` on, soonest first."""
    query = select(MEETING).where(MEETING.c.town == town)
    if since is not None:
        query = query.where(MEETING.c.day >= since)
    return [_meeting(r) for r in conn.execute(query.order_by(MEETING.c.starts_at).limit(limit))]


def agenda_of(conn: Connection, meeting_ids) -> dict[int, list[AgendaItem]]:
    """Each meeting's agenda, in order (one query for them all)."""
    ids = list(meeting_ids)
    out: dict[int, list[AgendaItem]] = {i: [] for i in ids}
    if ids:
        query = select(ITEM).where(ITEM.c.meeting_id.in_(ids)).order_by(ITEM.c.meeting_id, ITEM.c.position)
        for r in conn.execute(query):
            out[r.meeting_id].append(_item(r))
    return out


def meeting_of_filing(conn: Connection, meeting_id: int, filing_id: str) -> AgendaItem | None:
    """The filing's item on that meeting's agenda, if any."""
    row = conn.execute(select(ITEM).where(ITEM.c.meeting_id == meeting_id, ITEM.c.filing_id == filing_id)).first()
    return _item(row) if row is not None else None


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
    return _meeting(row) if row is not None else None


def agenda_filings(conn: Connection, filing_ids) -> dict[str, tuple[str, str, dict]]:
    """(town, kind, the filing's fields) of each filing on agendas, in one
    query: what an agenda prints of them (applicant, site, project)."""
    ids = sorted(set(filing_ids))
    if not ids:
        return {}
    filing = SQLModel.metadata.tables["filing"]  # models/schema/tables.py's (which imports this module's tables)
    rows = conn.execute(select(filing.c.id, filing.c.town, filing.c.kind, filing.c.extra).where(filing.c.id.in_(ids)))
    return {r.id: (r.town, r.kind, r.extra or {}) for r in rows}
