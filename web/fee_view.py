"""The fee's sections, for the pages that show them: the apply form (each
town's fee for the kind chosen, :func:`apply_fees`), the applicant's status
page and the staff filing page (the fee, the payments, what is left:
:func:`fee_section`).  The payment form's route is :mod:`web.staff.fee_pages`."""

from __future__ import annotations

__all__ = ["fee_section", "apply_fees"]


def fee_section(store, filing) -> dict:
    """The fee section's context: the fee's lines in words, the payments
    with the methods' words, what was paid and what is left."""
    from services.fees import fee_standing
    from workflows.fees import DEPOSIT_LINE, METHODS, dollars

    got = fee_standing(store, filing)
    deposit = got.fee is not None and any(ln.what == DEPOSIT_LINE and ln.cents for ln in got.fee.lines)
    return {
        "fee": got.fee,
        "payments": got.payments,
        "paid": dollars(got.paid),
        "left": None if got.left is None else dollars(got.left),
        "dollars": dollars,
        "methods": METHODS,
        "words": got.fee.words() if got.fee is not None else "The town charges no application fee for this kind of filing.",
        # nothing is owed (a municipal department, a waiver, no fee): no figure, no payment form
        "owes_nothing": got.fee is None or (got.fee.due == 0 and not got.payments),
        # a street opening's payment says what it is for: the fee, or the refundable deposit; left as
        # first offered, the fee left to pay first, then the deposit (as `permits payments` without
        # --toward): one check for the whole $1,050.00 is one payment
        "toward": (
            [("", "the fee first, then the deposit"), ("fee", "the application fee"), ("deposit", "the refundable deposit")]
            if deposit
            else []
        ),
    }


def apply_fees(store, kind: str, towns, *, on) -> list[tuple[str, str]]:
    """(town, the fee in words) for each town offering ``kind``, as filed ``on`` a day."""
    from services.fees import fee_for_kind
    from workflows.deposit_events import TRENCH
    from workflows.deposits import SCHEDULE
    from workflows.fees import DEPOSIT_LINE

    out = []
    for t in towns:
        fee = fee_for_kind(store, t, kind, on=on)
        words = fee.words() if fee is not None else "no application fee is declared"
        if fee is not None and any(ln.what == DEPOSIT_LINE for ln in fee.lines):
            item = SCHEDULE[TRENCH]
            words += (
                f". The deposit above is for one opening with no length given; with the length of the trench it is "
                f"${item.cents / 100:,.2f} a {item.unit} ({item.description}; {item.citation})"
            )
        out.append((t, words))
    return out
