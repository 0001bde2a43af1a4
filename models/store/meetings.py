"""The record of a commission's meetings: each meeting (its town and
board, day, starting time and place, and when its Open Meeting Law posting
went up) and its agenda (the hearings heard at it, first sessions and
continued ones, and other business), in the tables ``meeting`` and
``meeting_item`` (migration 0040).

Times are the town's wall times, naive, as the record keeps an event's
``at`` (America/New_York for every Massachusetts town: config/clock.py);
``created_at`` is the store's clock, UTC.  The actions are
services/meetings.py; this module writes rows only, on the connection of
the service layer's unit of work (the reads: :mod:`models.read.meetings`).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from models.schema.meeting_tables import ITEM, MEETING

__all__ = ["add_meeting", "add_item", "mark_posted"]


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
