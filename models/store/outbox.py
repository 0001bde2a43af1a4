"""The email outbox on the store: every email is a ``notice`` row with
channel ``email`` (to whom, which notice, on which filing) and its whole
message in ``email_message``.

Queuing is transactional with what caused it: the sweep queues a notice's
emails in the transaction that records the notice as made
(:class:`models.store.outputs.StoreOutputLog`), so a rerun of the sweep, which
finds the notice made, queues nothing again.

Delivery (:meth:`Outbox.deliver`) is **at least once**: each message is
handed to the SMTP server and then marked sent in the same transaction, the
row locked meanwhile (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, the write
lock on SQLite) so two deliverers never send the same row at once.  A crash
after the server took the message and before the mark commits leaves the
row unsent, and the next delivery sends it again, with the same
``Message-ID`` (fixed when the message was queued), by which a mail client
can tell the copy.  The other choice, marking first, would lose a decision
notice without a trace on such a crash; a second copy of a notice is the
smaller harm, and it is how the sweep treats its files today (made again,
recorded once).

A message the server refuses is tried again on the next delivery, up to
:data:`MAX_ATTEMPTS` times; ``last_error`` says why, for staff.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from models.schema.tables import EmailMessage, Notice
from models.store.filings import Store

__all__ = ["EMAIL", "MAX_ATTEMPTS", "OutboxEntry", "DeliveryReport", "Outbox", "queue_emails", "told_of"]

EMAIL = "email"
MAX_ATTEMPTS = 5
NOTICE, MESSAGE = Notice.__table__, EmailMessage.__table__


def queue_emails(
    conn: Connection,
    filing_id: str | None,
    emails: Iterable[Mapping[str, Any]],
    now: datetime,
    output_key: str | None = None,
    occasion: str = "",
) -> list[int]:
    """Queue ``emails`` on the filing in the caller's transaction: each a
    mapping with ``kind``, ``recipient`` (the notice log's key), ``address``,
    ``message`` (bytes) and optionally ``dated`` and ``files``.  Returns the
    notice ids.  ``filing_id`` None: an account's own email (a registration
    link, a password reset: models/accounts/account_links.py)."""
    ids = []
    for e in emails:
        row = {
            "filing_id": filing_id,
            "kind": e["kind"],
            "produced_at": now,
            "recipient": e["recipient"],
            "dated": e.get("dated"),
            "files": list(e.get("files") or ()),
            "path": None,
            "output_key": output_key,
            "occasion": occasion,
            "channel": EMAIL,
            "address": e["address"],
            "attempts": 0,
        }
        notice_id = conn.execute(insert(NOTICE).values(**row).returning(NOTICE.c.id)).scalar_one()
        conn.execute(insert(MESSAGE).values(notice_id=notice_id, message=bytes(e["message"])))
        ids.append(notice_id)
    return ids


def told_of(conn: Connection, filing_id: str, occasion: str) -> set[str]:
    """The addresses already emailed on the filing for ``occasion``
    (``event-N``: the event's own email; a date: a clock's notice)."""
    if not occasion:
        return set()
    query = select(NOTICE.c.address).where(
        NOTICE.c.filing_id == filing_id, NOTICE.c.occasion == occasion, NOTICE.c.channel == EMAIL
    )
    return {a for a in conn.execute(query).scalars() if a}


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


@dataclass
class DeliveryReport:
    sent: int = 0
    failed: int = 0
    errors: list[str] | None = None


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
    def __init__(self, store: Store):
        self.store = store

    def queue(self, filing_id: str | None, emails: Iterable[Mapping[str, Any]], output_key: str | None = None) -> list[int]:
        """Queue emails in a transaction of their own (an invitation).  Each
        such email is its own occasion (its time), so a second invitation is
        not taken for a copy of the first."""
        now = self.store.now()
        with self.store.engine.begin() as conn:
            return queue_emails(conn, filing_id, emails, now, output_key, occasion=now.isoformat())

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

    def deliver(
        self, send: Callable[[str, bytes], None], *, limit: int | None = None, ids: Iterable[int] | None = None
    ) -> DeliveryReport:
        """Hand every queued message to ``send(address, message)``, marking
        each sent in the transaction that holds its row (at least once: see
        the module's docstring).  ``send`` raising is a failed try, recorded.
        ``ids``: only these notices (an account's email, sent as it is asked)."""
        report = DeliveryReport(errors=[])
        pending = select(NOTICE.c.id).where(
            NOTICE.c.channel == EMAIL, NOTICE.c.sent_at.is_(None), NOTICE.c.attempts < MAX_ATTEMPTS
        )
        if ids is not None:
            pending = pending.where(NOTICE.c.id.in_(list(ids)))
        with self.store.reader.connect() as conn:
            ids = list(conn.execute(pending.order_by(NOTICE.c.id).limit(limit)).scalars())
        for notice_id in ids:
            with self.store.engine.begin() as conn:
                row = conn.execute(
                    select(NOTICE.c.address, NOTICE.c.attempts, MESSAGE.c.message)
                    .join(MESSAGE, MESSAGE.c.notice_id == NOTICE.c.id)
                    .where(NOTICE.c.id == notice_id, NOTICE.c.sent_at.is_(None))
                    .with_for_update(of=NOTICE, skip_locked=True)
                ).first()
                if row is None:  # sent meanwhile, or another deliverer holds it
                    continue
                done = {"attempts": row.attempts + 1}
                try:
                    send(row.address, bytes(row.message))
                except Exception as exc:  # the server refused or could not be reached: tried again later
                    done["last_error"] = f"{type(exc).__name__}: {exc}"[:500]
                    report.failed += 1
                    report.errors.append(f"notice {notice_id} to {row.address}: {done['last_error']}")
                else:
                    done["sent_at"] = self.store.now().replace(tzinfo=None)
                    done["last_error"] = None
                    report.sent += 1
                conn.execute(update(NOTICE).where(NOTICE.c.id == notice_id).values(**done))
        return report
