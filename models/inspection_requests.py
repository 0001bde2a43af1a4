"""Which street openings hold an inspection asked for online (an
``inspection-requested`` event, workflows/inspection_requests.py): the DPW
schedule's requests are read from these filings' histories."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

from .tables import EventRow, FilingRow

__all__ = ["requested_filings", "LIMIT"]

EVENT, FILING = EventRow.__table__, FilingRow.__table__
#: the most filings one schedule page reads requests from
LIMIT = 200


def requested_filings(engine, *, towns: Sequence[str] | None, limit: int = LIMIT) -> list[str]:
    """The ids of the street openings of ``towns`` (None: all) whose
    history holds an inspection request, most recently asked first."""
    q = (
        select(FILING.c.id)
        .join(EVENT, EVENT.c.filing_id == FILING.c.id)
        .where(EVENT.c.type == "inspection-requested", FILING.c.kind == "street-opening")
        .group_by(FILING.c.id)
        .order_by(FILING.c.id.desc())
        .limit(limit)
    )
    if towns is not None:
        q = q.where(FILING.c.town.in_(list(towns)))
    with engine.connect() as conn:
        return list(conn.execute(q).scalars())
