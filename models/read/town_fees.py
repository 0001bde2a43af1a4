"""The fees a town's office has set (:mod:`models.schema.town_fee_tables`):
each change for the rule book's history, and the amounts in force by the
day they took effect, for the fee a filing owes
(:func:`workflows.fees.fee_for`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import select

from models.schema.town_fee_tables import TOWN_FEE

from .queries import as_date, as_datetime

__all__ = ["FeeChange", "fee_changes", "fees_in_force"]


@dataclass(frozen=True)
class FeeChange:
    town: str
    kind: str
    cents: int
    effective: date
    reason: str
    by: str
    at: datetime


def fee_changes(store, towns=None) -> list[FeeChange]:
    """Every fee set, latest first, for ``towns`` (None: every town)."""
    query = select(TOWN_FEE).order_by(TOWN_FEE.c.id.desc())
    if towns is not None:
        query = query.where(TOWN_FEE.c.town.in_(list(towns)))
    with store.reader.connect() as conn:
        rows = conn.execute(query).all()
    return [
        FeeChange(r.town, r.kind, r.cents, as_date(r.effective), r.reason, r.recorded_by, as_datetime(r.recorded_at))
        for r in rows
    ]


def fees_in_force(conn, town: str, kind: str) -> tuple[tuple[date, int], ...]:
    """(effective day, cents) of each fee set for ``kind`` filings of
    ``town``, by day; on one day the later entry wins (read on ``conn``: a
    unit of work's, or a reader's)."""
    rows = conn.execute(
        select(TOWN_FEE.c.effective, TOWN_FEE.c.cents)
        .where(TOWN_FEE.c.town == town, TOWN_FEE.c.kind == kind)
        .order_by(TOWN_FEE.c.effective, TOWN_FEE.c.id)
    ).all()
    return tuple((as_date(day), cents) for day, cents in rows)
