"""The email outbox on the store: every email is a ``notice`` row with
channel ``email`` (to whom, which notice, on which filing) and its whole
message in ``email_message``.

Queuing is transactional with what caused it: the sweep queues a notice's
emails in the transaction that records the notice as made
(:class:`services.sweep_log.StoreOutputLog`), so a rerun of the sweep, which
finds the notice made, queues nothing again.

Delivery (:func:`services.mail.deliver`, a unit of work per message, through
:func:`take` and :func:`mark_tried` here) is **at least once**: each message is
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

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from models.read.outbox import EMAIL, MAX_ATTEMPTS, MESSAGE, NOTICE

__all__ = ["EMAIL", "MAX_ATTEMPTS", "queue_emails", "told_of", "take", "mark_tried"]


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


def take(conn: Connection, notice_id: int):
    """The message ``notice_id`` (address, attempts, message), its row
    locked until the unit of work ends (``FOR UPDATE SKIP LOCKED``); None
    when it was sent meanwhile or another deliverer holds it."""
    return conn.execute(
        select(NOTICE.c.address, NOTICE.c.attempts, MESSAGE.c.message)
        .join(MESSAGE, MESSAGE.c.notice_id == NOTICE.c.id)
        .where(NOTICE.c.id == notice_id, NOTICE.c.sent_at.is_(None))
        .with_for_update(of=NOTICE, skip_locked=True)
    ).first()


def mark_tried(conn: Connection, notice_id: int, *, attempts: int, sent_at: datetime | None, error: str | None) -> None:
    """One more delivery tried: sent at ``sent_at`` (naive UTC), or refused
    for ``error``."""
    done: dict = {"attempts": attempts, "last_error": error}
    if sent_at is not None:
        done["sent_at"] = sent_at
    conn.execute(update(NOTICE).where(NOTICE.c.id == notice_id).values(**done))
