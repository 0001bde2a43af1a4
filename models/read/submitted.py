"""The applications submitted online, split as the office works them: those
to check (submitted or submitted again) and those sent back to the
applicant (found incomplete: the next move is theirs).  A ``found-incomplete``
keeps the filing ``submitted`` (workflows/submission.py); its last event
tells the two apart, a primary-key look-up per filing."""

from __future__ import annotations

from sqlalchemy import and_, select

from models.handle import Store
from models.schema.tables import EventRow, FilingRow

__all__ = ["submitted_filings", "submitted_query"]

FILING, EVENT = FilingRow.__table__, EventRow.__table__


def submitted_query():
    """The SELECT of :func:`submitted_filings`: the filings ``submitted``
    with their last event's type, by id, through ``ix_filing_state_id``
    (migration 0090), whatever the town."""
    return (
        select(FILING.c.id, FILING.c.town, FILING.c.kind, FILING.c.address, EVENT.c.type)
        .join(EVENT, and_(EVENT.c.filing_id == FILING.c.id, EVENT.c.seq == FILING.c.last_seq))
        .where(FILING.c.state == "submitted")
        .order_by(FILING.c.id)
    )


def submitted_filings(store: Store) -> tuple[list, list]:
    """(to check, sent back): rows of (id, town, kind, address), by id."""
    query = submitted_query()
    to_check, sent_back = [], []
    with store.reader.connect() as conn:
        for row in conn.execute(query):
            (sent_back if row.type == "found-incomplete" else to_check).append(row)
    return to_check, sent_back
