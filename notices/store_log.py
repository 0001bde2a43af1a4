"""The notice log on the store: which notice went to whom, and when, as
rows of the ``notice`` table on the filing (one per recipient).

:class:`StoreNoticeLog` implements :class:`notices.log.NoticeLog` for
``permits notices ID`` (and ``permits show`` reads it); the notices the
daily sweep makes land in the same table (:mod:`models.store.outputs`), so a
notice the sweep sent is not sent again by hand without ``--again``.

:meth:`StoreNoticeLog.deliver` is one transaction from "not yet sent" to
"recorded": it locks the filing's row (``BEGIN IMMEDIATE`` on SQLite,
``SELECT ... FOR UPDATE`` on PostgreSQL), reads which copies are recorded
for the occasion, writes the files and inserts the rows of the others
before it commits; the unique index on a
notice's identity (filing, kind, occasion, recipient) is the second guard.
Two ``permits notices`` at once for the same notice: one records it as
sent, the other renders it again and records nothing (rendering is not
sending).
"""

from collections.abc import Callable, Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from models.errors import UnknownFiling
from models.read.queries import notice_entry
from models.schema.tables import FilingRow, Notice
from models.store.filings import Store
from models.store.outputs import NOTICE_IDENTITY
from notices.log import Delivery, SentNotice, wanted_copies

__all__ = ["StoreNoticeLog"]

NOTICE, FILING = Notice.__table__, FilingRow.__table__


class StoreNoticeLog:
    """The :class:`notices.log.NoticeLog` of the filings in ``store``."""

    def __init__(self, store: Store):
        self.store = store

    def deliver(
        self, filing_id: str, outputs: Sequence, at: datetime, write: Callable[[], list[str]], *, occasion: str = "", again=False
    ) -> Delivery:
        """Check, write and record in one transaction (see the module's
        docstring): the copies already recorded for ``occasion`` are
        rendered again and not recorded again; ``again`` records every copy
        as a sending of its own (its own occasion)."""
        now = self.store.now()
        if again:
            occasion = f"again:{now.isoformat(timespec='microseconds')}"
        wanted = wanted_copies(outputs)
        with self.store.engine.begin() as conn:
            if conn.execute(select(FILING.c.id).where(FILING.c.id == filing_id).with_for_update()).first() is None:
                raise UnknownFiling(filing_id)
            recorded = conn.execute(
                select(
                    NOTICE.c.kind, NOTICE.c.recipient, NOTICE.c.dated, NOTICE.c.produced_at, NOTICE.c.files, NOTICE.c.occasion
                ).where(
                    NOTICE.c.filing_id == filing_id,
                    NOTICE.c.occasion == occasion,
                    NOTICE.c.kind.in_({k for k, _ in wanted}),
                    NOTICE.c.recipient.in_({r for _, r in wanted}),
                )
            ).all()
            seen = {(row[0], row[1]): row for row in recorded}
            already = tuple(SentNotice(*notice_entry((filing_id, *seen[key]))) for key in wanted if key in seen)
            new = [(k, r) for k, r in wanted if (k, r) not in seen]
            files = [str(f) for f in write()]
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
                }
                for kind, r in new
            ]
            if rows:  # a copy recorded meanwhile (the unique identity) is not recorded twice
                module = postgresql if conn.dialect.name == "postgresql" else sqlite
                conn.execute(module.insert(NOTICE).on_conflict_do_nothing(index_elements=list(NOTICE_IDENTITY)), rows)
        return Delivery(tuple(files), tuple(r for _, r in new), already)

    def record(self, entry: SentNotice) -> None:
        """Record a notice sent by other means (an entry of an older log):
        one row, as it is."""
        files = [str(f) for f in entry.files]
        row = {
            "filing_id": entry.filing_id,
            "kind": entry.kind,
            "recipient": entry.recipient,
            "occasion": entry.occasion,
            "dated": datetime.fromisoformat(entry.at) if entry.at else None,
            "produced_at": self.store.now(),
            "path": files[0] if files else None,
            "files": files,
        }
        with self.store.engine.begin() as conn:
            if conn.execute(select(FILING.c.id).where(FILING.c.id == entry.filing_id)).first() is None:
                raise UnknownFiling(entry.filing_id)
            conn.execute(NOTICE.insert(), [row])

    def entries(self, filing_id: str) -> list[SentNotice]:
        """Every notice recorded on the filing, oldest first (the store's
        query, which ``permits show`` reads too)."""
        return [SentNotice(*fields) for fields in self.store.notice_entries(filing_id)]
