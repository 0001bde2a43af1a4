"""Record a payment against a filing's application fee: ``permits payments
record`` and the filing page's payment form both call :func:`record_payment`.

A payment is a ``payment-received`` event in the filing's history
(append-only; a mistaken one is voided, never edited), recorded through
:func:`services.record.record_event`, whose effects check in the same unit
of work that the payments on record add up (:func:`workflows.fees.check_filing`):
more than is due, or anything where nothing is due, is refused with nothing
written, however the event was recorded (``permits record ...
payment-received`` too).  No card is processed: the record of payment is
what the town keeps.
"""

from __future__ import annotations

from datetime import date, datetime

__all__ = ["record_payment"]


def record_payment(
    store,
    filing_id: str,
    *,
    day: date,
    amount: str,
    method: str,
    reference: str = "",
    toward: str = "",
    by: str,
    today: date,
    now: datetime,
    mail_from: str,
    expect_seq: int | None = None,
):
    """Record that the town received ``amount`` (dollars and cents) by
    ``method`` on ``day``, with its ``reference``, ``toward`` the fee or a
    street opening's refundable deposit (""; it does not say: the fees
    first, then the deposit); one unit of work.  A payment toward the
    deposit is the deposit received, which the Town then holds (the
    ledger's ``received`` line, :mod:`workflows.deposit_events`).
    Returns :class:`services.record.Recorded`.  Refused, nothing written:
    PaymentRefused (malformed, or not adding up), EventFromTheFuture,
    StaleFiling, UnknownFiling."""
    from services.record import record_event
    from workflows.fees import payment_event

    raw = payment_event(filing_id, day=day, amount=amount, method=method, reference=reference, toward=toward)
    return record_event(store, filing_id, raw, by=by, today=today, now=now, mail_from=mail_from, expect_seq=expect_seq)
