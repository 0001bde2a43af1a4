"""The fees a town's office sets (migration 0184): one row per change, never
updated or deleted, so the rule book's history shows who set what, when,
from which day and why.  A filing pays the amount in force on the day it
was filed (:func:`models.read.town_fees.fees_in_force`).  Registered on the
metadata by :mod:`models.schema.tables`."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Column, Date, DateTime, Index
from sqlmodel import Field, SQLModel

__all__ = ["TownFeeRow", "TOWN_FEE"]


class TownFeeRow(SQLModel, table=True):
    """A fee set by the town's office: ``cents`` for its ``kind`` of filing,
    in force for filings filed on or after ``effective``, with why and who
    set it."""

    __tablename__ = "town_fee"
    __table_args__ = (Index("ix_town_fee_town_kind_effective", "town", "kind", "effective"),)
    id: int | None = Field(default=None, primary_key=True)
    town: str
    kind: str
    cents: int
    effective: date = Field(sa_column=Column(Date(), nullable=False))
    reason: str
    recorded_by: str
    recorded_at: datetime = Field(sa_column=Column(DateTime(), nullable=False))


TOWN_FEE = TownFeeRow.__table__
