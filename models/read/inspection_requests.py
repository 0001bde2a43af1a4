"""Which street openings hold an inspection asked for online (an
``inspection-requested`` event, workflows/inspection_requests.py): the DPW
schedule's requests are read from these filings' histories."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select, text

from models.schema.tables import INSPECTION_REQUESTS_WHERE, EventRow, FilingRow

__all__ = ["requested_filings", "requested_query", "LIMIT"]

EVENT, FILING = EventRow.__table__, FilingRow.__table__
#: the most filings one schedule page reads requests from
LIMIT = 200


def requested_filings(engine, *, towns: Sequence[str] | None, limit: int = LIMIT) -> list[str]:
    """The ids of the street openings of ``towns`` (None: all) whose
    history holds an inspection request, the latest filing first
    (:func:`requested_query`)."""
    with engine.connect() as conn:
        return list(conn.execute(requested_query(towns=towns, limit=limit)).scalars())


def requested_query(*, towns: Sequence[str] | None, limit: int = LIMIT):
    """The SELECT of :func:`requested_filings`: the requests through
    ``ix_event_inspection_requested`` (its predicate,
    :data:`models.schema.tables.INSPECTION_REQUESTS_WHERE`, word for word), not
    every event of the store."""
    q = (
        select(FILING.c.id)
        .join(EVENT, EVENT.c.filing_id == FILING.c.id)
        .where(text(INSPECTION_REQUESTS_WHERE), FILING.c.kind == "street-opening")
        .group_by(FILING.c.id)
        .order_by(FILING.c.id.desc())
        .limit(limit)
    )
    if towns is not None:
        q = q.where(FILING.c.town.in_(list(towns)))
    return q
