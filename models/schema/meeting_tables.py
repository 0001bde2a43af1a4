"""The meetings' tables (migration 0040): each meeting of a commission and
its agenda's items.  Registered on the metadata by :mod:`models.schema.tables`.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Column, Date, DateTime, UniqueConstraint
from sqlmodel import Field, SQLModel

__all__ = ["MeetingRow", "MeetingItem", "ITEM_KINDS", "MEETING", "ITEM"]

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


MEETING, ITEM = MeetingRow.__table__, MeetingItem.__table__
