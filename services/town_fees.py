"""The fees a town's office sets (Conservation Commission filing fees are
set by the commission's regulation, not the by-law): ``permits fees set``
and the rule book page's fee form call :func:`set_fee`, which keeps the
change with who made it, when, from which day and why, in one unit of work
(:mod:`models.store.town_fees`).  A filing pays the fee in force on the day
it was filed (:func:`services.fees.filing_fee`)."""

from __future__ import annotations

from datetime import date

from .unit_of_work import UnitOfWork

__all__ = ["set_fee"]


def set_fee(store, town_id: str, kind: str, amount: str, *, effective: date | None, reason: str, by: str) -> int:
    """Set the fee of ``kind`` filings in ``town_id`` to ``amount`` dollars
    for filings filed on or after ``effective``; its cents.  Refused
    (nothing written): UnknownChoice for a town, FeeChangeRefused."""
    from models.store.town_fees import add_fee
    from workflows.fees import check_fee_change
    from workflows.towns import town

    profile = town(town_id)
    cents = check_fee_change(profile, kind, amount, effective, reason)
    with UnitOfWork(store) as uow:
        add_fee(
            uow.conn, town=profile.id, kind=kind, cents=cents, effective=effective, reason=reason.strip(), by=by, now=store.now()
        )
    return cents
