"""The notice log on the store: which notice went to whom, and when, as
rows of the ``notice`` table on the filing (one per recipient).

:class:`StoreNoticeLog` implements :class:`notices.log.NoticeLog` for
``permits notices ID`` (and ``permits show`` reads it); the notices the
daily sweep makes land in the same table (:mod:`models.outputs`), so a
notice the sweep sent is not sent again by hand without ``--again``.
"""

from datetime import datetime

from sqlalchemy import insert, select

from models.errors import UnknownFiling
from models.service import Store
from models.tables import FilingRow, Notice
from notices.log import SentNotice

__all__ = ["StoreNoticeLog"]

NOTICE, FILING = Notice.__table__, FilingRow.__table__


class StoreNoticeLog:
    def __init__(self, store: Store):
        self.store = store

    def already_sent(self, filing_id: str, kind: str, recipient: str) -> bool:
        query = select(NOTICE.c.id).where(NOTICE.c.filing_id == filing_id, NOTICE.c.kind == kind, NOTICE.c.recipient == recipient)
        with self.store.reader.connect() as conn:
            return conn.execute(query.limit(1)).first() is not None

    def record(self, entry: SentNotice) -> None:
        files = [str(f) for f in entry.files]
        row = {
            "filing_id": entry.filing_id,
            "kind": entry.kind,
            "recipient": entry.recipient,
            "dated": datetime.fromisoformat(entry.at) if entry.at else None,
            "produced_at": self.store.now(),
            "path": files[0] if files else None,
            "files": files,
        }
        with self.store.engine.begin() as conn:
            if conn.execute(select(FILING.c.id).where(FILING.c.id == entry.filing_id)).first() is None:
                raise UnknownFiling(entry.filing_id)
            conn.execute(insert(NOTICE), [row])

    def entries(self, filing_id: str) -> list[SentNotice]:
        """Every notice recorded on the filing, oldest first."""
        query = select(NOTICE).where(NOTICE.c.filing_id == filing_id).order_by(NOTICE.c.id)
        with self.store.reader.connect() as conn:
            rows = conn.execute(query).all()
        return [SentNotice(r.filing_id, r.kind, r.recipient or "", _when(r), tuple(r.files or ())) for r in rows]


def _when(row) -> str:
    """The notice's own date and time, else when it was recorded (UTC)."""
    if row.dated is not None:
        return row.dated.isoformat(timespec="minutes")
    return row.produced_at.isoformat(timespec="minutes")
