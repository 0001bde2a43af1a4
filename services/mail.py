"""Deliver the email outbox: each waiting message handed to the SMTP server
(``send(address, message)``) and marked sent in a unit of work of its own
that holds the message's row (at least once: see
:mod:`models.store.outbox`).  ``permits outbox --send``, the sweep (when
``PERMITS_SMTP_URL`` is set) and an account's own emails, sent as they are
asked after their unit of work commits, all call :func:`deliver`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .unit_of_work import UnitOfWork

__all__ = ["DeliveryReport", "deliver", "deliver_by_smtp"]


@dataclass
class DeliveryReport:
    sent: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)


def deliver(
    store, send: Callable[[str, bytes], None], *, limit: int | None = None, ids: Iterable[int] | None = None
) -> DeliveryReport:
    """Hand every waiting message (``ids``: only these; at most ``limit``)
    to ``send``, marking each in the unit of work that holds its row.
    ``send`` raising is a failed try, recorded; the message is tried again
    by the next delivery."""
    from models.read.outbox import Outbox
    from models.store.outbox import mark_tried, take

    report = DeliveryReport()
    for notice_id in Outbox(store).pending(limit=limit, ids=ids):
        with UnitOfWork(store) as uow:
            row = take(uow.conn, notice_id)
            if row is None:  # sent meanwhile, or another deliverer holds it
                continue
            try:
                send(row.address, bytes(row.message))
            except Exception as exc:  # the server refused or could not be reached: tried again later
                error = f"{type(exc).__name__}: {exc}"[:500]
                mark_tried(uow.conn, notice_id, attempts=row.attempts + 1, sent_at=None, error=error)
                report.failed += 1
                report.errors.append(f"notice {notice_id} to {row.address}: {error}")
            else:
                sent_at = store.now().replace(tzinfo=None)
                mark_tried(uow.conn, notice_id, attempts=row.attempts + 1, sent_at=sent_at, error=None)
                report.sent += 1
    return report


def deliver_by_smtp(store, smtp_url: str, *, ids: Iterable[int] | None = None) -> DeliveryReport:
    """:func:`deliver` through the SMTP server at ``smtp_url``."""
    from notices.smtp import smtp_sender

    return deliver(store, smtp_sender(smtp_url), ids=ids)
