"""The notice log of the filings in the store (:class:`notices.log.NoticeLog`):
which notice went to whom, and when, recorded in a unit of work of its own
(:mod:`models.store.notices`); ``permits notices ID`` and the workbench's
notice downloads record through it, and the filing pages read it.  The
notices the daily sweep makes land in the same table
(:mod:`models.store.outputs`), so a notice the sweep sent is not sent again
by hand without ``--again``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from models.handle import Store
from notices.log import Delivery, SentNotice, wanted_copies

from .unit_of_work import UnitOfWork

__all__ = ["StoreNoticeLog"]


class StoreNoticeLog:
    """The :class:`notices.log.NoticeLog` of the filings in ``store``."""

    def __init__(self, store: Store):
        self.store = store

    def deliver(
        self,
        filing_id: str,
        outputs: Sequence,
        at: datetime,
        files: Sequence[str],
        *,
        occasion: str = "",
        again=False,
        how: str | None = None,
        by: str | None = None,
    ) -> Delivery:
        """Record in one unit of work the copies not yet recorded for
        ``occasion`` (every copy with ``again``, a sending of its own), the
        filing's row locked meanwhile, with ``how`` they went and who
        recorded them (``by``); the others are rendered again and not
        recorded again."""
        from models.store.notices import record_copies

        now = self.store.now()
        if again:
            occasion = f"again:{now.isoformat(timespec='microseconds')}"
        with UnitOfWork(self.store) as uow:
            new, already = record_copies(
                uow.conn, filing_id, wanted_copies(outputs), at=at, occasion=occasion, files=files, now=now, how=how, by=by
            )
        return Delivery(tuple(str(f) for f in files), tuple(r for _, r in new), tuple(SentNotice(*a) for a in already))

    def record(self, entry: SentNotice) -> None:
        """Record a notice sent by other means (an entry of an older log)."""
        from models.store.notices import record_entry

        with UnitOfWork(self.store) as uow:
            record_entry(
                uow.conn,
                entry.filing_id,
                entry.kind,
                entry.recipient,
                occasion=entry.occasion,
                dated=datetime.fromisoformat(entry.at) if entry.at else None,
                files=entry.files,
                now=self.store.now(),
            )

    def sendings(self, filing_id: str) -> list[dict]:
        """Every notice recorded on the filing, oldest first, with how it
        went and who recorded it, for the filing's page: one line per
        sending, its recipients together."""
        from models.read.notices import sendings

        return sendings(self.store, filing_id)

    def entries(self, filing_id: str) -> list[SentNotice]:
        """Every notice recorded on the filing, oldest first (the store's
        query, which ``permits show`` reads too)."""
        return [SentNotice(*fields) for fields in self.store.notice_entries(filing_id)]
