"""The applications waiting on someone before any clock runs, split as the
office works them: those to check (submitted online, or submitted again)
and those sent back to the applicant as incomplete (the next move is
theirs).  Both are read from the stage the store keeps in the filing's
``state`` (:mod:`workflows.stage`): ``submitted``, and ``incomplete``, the
stage of an application found incomplete online or on paper, so Today
counts what the Filings list's "Incomplete, sent back to the applicant"
finds."""

from __future__ import annotations

from sqlalchemy import select

from models.handle import Store
from models.schema.tables import FilingRow

__all__ = ["submitted_filings", "submitted_query", "SUBMITTED", "SENT_BACK"]

FILING = FilingRow.__table__
#: the stages: waiting on the office, and sent back to the applicant
SUBMITTED, SENT_BACK = "submitted", "incomplete"


def submitted_query():
    """The SELECT of :func:`submitted_filings`: the filings ``submitted`` or
    ``incomplete``, by id, through ``ix_filing_state_id`` (migration 0090),
    whatever the town."""
    return (
        select(FILING.c.id, FILING.c.town, FILING.c.kind, FILING.c.address, FILING.c.state)
        .where(FILING.c.state.in_((SUBMITTED, SENT_BACK)))
        .order_by(FILING.c.id)
    )


def submitted_filings(store: Store) -> tuple[list, list]:
    """(to check, sent back): rows of (id, town, kind, address, state), by id."""
    to_check, sent_back = [], []
    with store.reader.connect() as conn:
        for row in conn.execute(submitted_query()):
            (sent_back if row.state == SENT_BACK else to_check).append(row)
    return to_check, sent_back
