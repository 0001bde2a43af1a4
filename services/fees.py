"""A filing's application fee and the payments on record against it: the
applicant's status page and the apply form read :func:`fee_standing` and
:func:`fee_for_kind`; :func:`fee_line` is the fee in words for a receipt.
Recording a payment is :func:`services.payments.record_payment`.

The fee is the core's (:func:`workflows.fees.fee_for`, each town's
``FeeRule`` with its citation).  A payment is a ``payment-received`` event
in the filing's history (append-only; a mistaken one is voided, never
edited), recorded through :func:`services.record.record_event`, which
checks in the event's transaction that the payments on record add up
(:func:`workflows.fees.check_filing`): more than is due, or anything where
nothing is due, is refused with nothing written, however the event was
recorded (``permits record ... payment-received`` too).  No card is
processed: the record of payment is what the town keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "FeeStanding",
    "filing_fee",
    "fee_for_kind",
    "entered_fees",
    "fee_line",
    "fee_standing",
]


def entered_fees(conn, town_id: str, kind: str):
    """The fees the town's office set for ``kind`` filings, by the day each
    took effect (:func:`services.town_fees.set_fee`), read on ``conn``."""
    from models.read.town_fees import fees_in_force

    return fees_in_force(conn, town_id, kind)


def filing_fee(store, filing, conn=None):
    """The :class:`workflows.fees.Fee` the filing owes with its application
    (a fee the town set: the one in force on the day it was filed), or None
    when its town declares no fee for the kind; read on ``conn`` inside a
    unit of work, else on a reader of ``store``."""
    from workflows.fees import filing_fee as fee_of
    from workflows.replay import live_events
    from workflows.towns import town

    if conn is None:
        with store.reader.connect() as reader:
            entered = entered_fees(reader, filing.town, filing.kind)
    else:
        entered = entered_fees(conn, filing.town, filing.kind)
    return fee_of(filing, town(filing.town), live_events(filing), entered)


def fee_for_kind(store, town_id: str, kind: str, *, on):
    """The fee of a ``kind`` application in ``town_id`` filed ``on`` a day,
    for a private applicant with nothing else known (what the apply form
    shows)."""
    from workflows.fees import fee_for
    from workflows.towns import town

    with store.reader.connect() as reader:
        entered = entered_fees(reader, town_id, kind)
    return fee_for(town(town_id), kind, entered=entered, on=on)


def fee_line(store, filing, conn=None) -> str:
    """The fee in one line of words, for a receipt email: "Fee: ..."."""
    fee = filing_fee(store, filing, conn)
    if fee is None:
        return "Fee: the town charges no application fee for this kind of filing."
    return f"Fee: {fee.words()}."


@dataclass(frozen=True)
class FeeStanding:
    """The fee, the payments on record, what they add up to and what is
    left (None when the fee's amount is not entered)."""

    fee: object
    payments: list
    paid: int
    left: int | None


def fee_standing(store, filing) -> FeeStanding:
    from workflows.fees import payments_of
    from workflows.replay import live_events

    fee = filing_fee(store, filing)
    payments = payments_of(live_events(filing))
    paid = sum(p.cents for p in payments)
    due = fee.due if fee is not None else 0
    return FeeStanding(fee, payments, paid, None if due is None else max(due - paid, 0))
