"""The notice log on the store: which notice went to whom, and when, as
rows of the ``notice`` table on the filing (one per recipient).

:class:`StoreNoticeLog` implements :class:`notices.log.NoticeLog` for
``permits notices ID`` (and ``permits show`` reads it); the notices the
daily sweep makes land in the same table (:mod:`models.outputs`), so a
notice the sweep sent is not sent again by hand without ``--again``.

:meth:`StoreNoticeLog.deliver` is one transaction from "not yet sent" to
"recorded": it locks the filing's row (``BEGIN IMMEDIATE`` on SQLite,
``SELECT ... FOR UPDATE`` on PostgreSQL), checks the record, writes the
files and inserts the rows before it commits; the unique index on a
notice's identity (filing, kind, occasion, recipient) is the second guard.
Two ``permits notices`` at once for the same notice: one sends it, the
other is told it was already sent.
"""

from collections.abc import Callable, Sequence
from datetime import datetime

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from models.errors import UnknownFiling
from models.service import Store
from models.tables import FilingRow, Notice
from notices.errors import AlreadySent
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

    def deliver(
        self, filing_id: str, outputs: Sequence, at: datetime, write: Callable[[], list[str]], *, occasion: str = "", again=False
    ) -> list[str]:
        """Check, write and record in one transaction (see the module's
        docstring); AlreadySent, with no file written, if a recipient had
        the notice.  ``again`` records a copy on purpose (its own occasion)."""
        now = self.store.now()
        if again:
            occasion = f"again:{now.isoformat(timespec='microseconds')}"
        wanted = list(dict.fromkeys((o.kind, r) for o in outputs for r in o.recipients))
        with self.store.engine.begin() as conn:
            if conn.execute(select(FILING.c.id).where(FILING.c.id == filing_id).with_for_update()).first() is None:
                raise UnknownFiling(filing_id)
            if not again:
                for kind, r in wanted:
                    sent = select(NOTICE.c.id).where(
                        NOTICE.c.filing_id == filing_id, NOTICE.c.kind == kind, NOTICE.c.recipient == r
                    )
                    if conn.execute(sent.limit(1)).first() is not None:
                        raise _already(filing_id, kind, r)
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
                for kind, r in wanted
            ]
            try:
                if rows:
                    conn.execute(insert(NOTICE), rows)
            except IntegrityError:  # the unique identity: recorded meanwhile
                raise _already(filing_id, wanted[0][0], wanted[0][1]) from None
        return files

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
        """Every notice recorded on the filing, oldest first (the store's
        query, which ``permits show`` reads too)."""
        return [SentNotice(*fields) for fields in self.store.notice_entries(filing_id)]


def _already(filing_id: str, kind: str, recipient: str) -> AlreadySent:
    who = recipient.split("|")[0].title() if "|" in recipient else recipient
    return AlreadySent(f"{filing_id}: {kind} was already sent to {who}; use --again to send it a second time on purpose")
