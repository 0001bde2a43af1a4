"""The enforcement record's tables (SQLModel; :mod:`models.schema.tables` imports
them, so Alembic and the schema test see them).  No ``from __future__
import annotations`` here (SQLModel 0.0.50).

- ``enforcement_case``: one row per case, with its derived state, next
  deadline and the fines of its tickets, rewritten in the transaction that
  records each event; ``violator_key`` is the violator's name as the
  numbering of offenses compares it (:func:`workflows.enforcement.same_violator`).
- ``enforcement_event``: the case's history, append-only like a filing's
  (triggers refuse UPDATE and DELETE): (case, seq) is the key, ``raw`` the
  event's JSON as given.
- ``enforcement_clock``: the case's clocks as of its last event, ``due``
  for a deadline still to act on (open or overdue is the docket's question),
  else the replay's status; indexed on (status, date) like ``filing_clock``.
"""

from datetime import date, datetime

from sqlalchemy import JSON, Column, Index
from sqlmodel import Field, SQLModel

__all__ = ["EnforcementCaseRow", "EnforcementEventRow", "EnforcementClockRow", "violator_key"]


def violator_key(name: str) -> str:
    """The violator's name as offenses are numbered by it: upper case, no
    dots or commas, single spaces."""
    return " ".join(name.upper().replace(".", " ").replace(",", " ").split())


class EnforcementCaseRow(SQLModel, table=True):
    __tablename__ = "enforcement_case"
    __table_args__ = (
        Index("ix_enforcement_case_town_state", "town", "state"),
        Index("ix_enforcement_case_violator", "town", "bylaw", "violator_key"),
    )
    id: str = Field(primary_key=True)
    town: str
    bylaw: str
    filing_id: str | None = Field(default=None, foreign_key="filing.id", index=True)
    address: str | None = None
    parcel: str | None = None
    violator: str
    violator_key: str
    extra: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    last_seq: int = 0
    state: str
    next_deadline_date: date | None = Field(default=None, index=True)
    next_deadline_clock: str | None = None
    fines: int = 0
    updated_at: datetime


class EnforcementEventRow(SQLModel, table=True):
    __tablename__ = "enforcement_event"
    case_id: str = Field(foreign_key="enforcement_case.id", primary_key=True)
    seq: int = Field(primary_key=True)
    type: str
    date: date
    raw: dict = Field(sa_column=Column(JSON, nullable=False))
    recorded_at: datetime
    recorded_by: str


class EnforcementClockRow(SQLModel, table=True):
    __tablename__ = "enforcement_clock"
    __table_args__ = (Index("ix_enforcement_clock_status_date", "status", "date"),)
    case_id: str = Field(foreign_key="enforcement_case.id", primary_key=True)
    n: int = Field(primary_key=True)
    clock_id: str
    type: str
    date: date
    status: str
    rule: str
    explanation: str
