"""The notice record on the store: which notice went to whom, and when, as
rows of the ``notice`` table on the filing (one per recipient), written on
the connection of the service layer's unit of work
(:class:`services.notice_log.StoreNoticeLog`).

Recording locks the filing's row (``SELECT ... FOR UPDATE``; on SQLite the
write lock), reads which copies are recorded for the occasion and inserts
the rows of the others; the unique index on a notice's identity (filing,
kind, occasion, recipient) is the second guard.  Two ``permits notices`` at
once for the same notice: one records it as sent, the other renders it again
and records nothing (rendering is not sending).
"""

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from models.errors import UnknownFiling
from models.read.queries import notice_entry
from models.schema.tables import FilingRow, Notice
from models.store.outputs import NOTICE_IDENTITY

__all__ = ["record_copies", "record_entry"]

NOTICE, FILING = Notice.__table__, FilingRow.__table__


def _lock_filing(conn: Connection, filing_id: str) -> None:
    if conn.execute(select(FILING.c.id).where(FILING.c.id == filing_id).with_for_update()).first() is None:
        raise UnknownFiling(filing_id)


def record_copies(
    conn: Connection,
    filing_id: str,
    wanted: Sequence[tuple[str, str]],
    *,
    at: datetime,
    occasion: str,
    files: Sequence[str],
    now: datetime,
    how: str | None = None,
    by: str | None = None,
) -> tuple[list[tuple[str, str]], list[tuple]]:
    """Record as sent the copies of ``wanted`` ((kind, recipient) each) not
    yet recorded for ``occasion``, naming ``files``, ``how`` each went and
    who recorded it (``by``); (the copies recorded now, the earlier
    recordings of the others as :func:`models.read.queries.notice_entry`
    fields)."""
    _lock_filing(conn, filing_id)
    recorded = conn.execute(
        select(NOTICE.c.kind, NOTICE.c.recipient, NOTICE.c.dated, NOTICE.c.produced_at, NOTICE.c.files, NOTICE.c.occasion).where(
            NOTICE.c.filing_id == filing_id,
            NOTICE.c.occasion == occasion,
            NOTICE.c.kind.in_({k for k, _ in wanted}),
            NOTICE.c.recipient.in_({r for _, r in wanted}),
        )
    ).all()
    seen = {(row[0], row[1]): row for row in recorded}
    already = [notice_entry((filing_id, *seen[key])) for key in wanted if key in seen]
    new = [(k, r) for k, r in wanted if (k, r) not in seen]
    files = [str(f) for f in files]
    rows = [
        {
            "filing_id": filing_id,
            "kind": kind,
            "recipient": r,
            "occasion": occasion,
            "dated": at.replace(second=0, microsecond=0),
            "produced_at": now,
            "path": files[0] if files else None,
            "files": files,
            "how": how,
            "recorded_by": by,
        }
        for kind, r in new
    ]
    if rows:  # a copy recorded meanwhile (the unique identity) is not recorded twice
        module = postgresql if conn.dialect.name == "postgresql" else sqlite
        conn.execute(module.insert(NOTICE).on_conflict_do_nothing(index_elements=list(NOTICE_IDENTITY)), rows)
    return new, already


def record_entry(
    conn: Connection, filing_id: str, kind: str, recipient: str, *, occasion: str, dated, files: Sequence[str], now: datetime
) -> None:
    """Record a notice sent by other means (an entry of an older log): one
    row, as it is."""
    files = [str(f) for f in files]
    _lock_filing(conn, filing_id)
    conn.execute(
        NOTICE.insert(),
        [
            {
                "filing_id": filing_id,
                "kind": kind,
                "recipient": recipient,
                "occasion": occasion,
                "dated": dated,
                "produced_at": now,
                "path": files[0] if files else None,
                "files": files,
            }
        ],
    )
