"""The email outbox, read: what waits, what was sent, what the server
refused, and one message whole (``permits outbox``, the applicant's status
page).  Queuing and delivery are writes: :mod:`models.store.outbox` and
:mod:`services.mail`.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from models.handle import Store
from models.schema.tables import EmailMessage, Notice

__all__ = ["EMAIL", "MAX_ATTEMPTS", "OutboxEntry", "Outbox"]

EMAIL = "email"
#: deliveries tried before a message is given up as failed
MAX_ATTEMPTS = 5
NOTICE, MESSAGE = Notice.__table__, EmailMessage.__table__


@dataclass(frozen=True)
class OutboxEntry:
    id: int
    filing_id: str | None  # None: an account's own email
    kind: str
    address: str
    produced_at: datetime
    sent_at: datetime | None
    attempts: int
    last_error: str | None

    @property
    def status(self) -> str:
        if self.sent_at is not None:
            return "sent"
        if self.attempts >= MAX_ATTEMPTS:
            return "failed"
        return "queued" if not self.attempts else "retrying"


_COLUMNS = (
    NOTICE.c.id,
    NOTICE.c.filing_id,
    NOTICE.c.kind,
    NOTICE.c.address,
    NOTICE.c.produced_at,
    NOTICE.c.sent_at,
    NOTICE.c.attempts,
    NOTICE.c.last_error,
)


class Outbox:
    """The outbox of ``store``, read."""

    def __init__(self, store: Store):
        self.store = store

    def entries(self, *, pending_only: bool = False, filing_id: str | None = None) -> list[OutboxEntry]:
        query = select(*_COLUMNS).where(NOTICE.c.channel == EMAIL)
        if pending_only:
            query = query.where(NOTICE.c.sent_at.is_(None))
        if filing_id is not None:
            query = query.where(NOTICE.c.filing_id == filing_id)
        with self.store.reader.connect() as conn:
            return [OutboxEntry(*r) for r in conn.execute(query.order_by(NOTICE.c.id))]

    def message(self, notice_id: int) -> bytes | None:
        with self.store.reader.connect() as conn:
            return conn.execute(select(MESSAGE.c.message).where(MESSAGE.c.notice_id == notice_id)).scalar()

    def pending(self, *, limit: int | None = None, ids=None) -> list[int]:
        """The ids of the messages waiting to be delivered (not sent, tried
        fewer than :data:`MAX_ATTEMPTS` times), oldest first; ``ids``: only
        these."""
        query = select(NOTICE.c.id).where(NOTICE.c.channel == EMAIL, NOTICE.c.sent_at.is_(None), NOTICE.c.attempts < MAX_ATTEMPTS)
        if ids is not None:
            query = query.where(NOTICE.c.id.in_(list(ids)))
        with self.store.reader.connect() as conn:
            return list(conn.execute(query.order_by(NOTICE.c.id).limit(limit)).scalars())
