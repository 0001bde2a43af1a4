"""Deposits in the workbench (Canton 16-12 §5-6): the open deposits of the
user's towns (charged, held, refunded) a page at a time, an applicant's
whole account, and the ledger section of a street opening's page.  DPW
staff and admins only: anyone else gets a 404."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request

from ..deps import StaffUser, StoreDep
from ..refusals import refusal
from ..render import render
from ..values import number_or

__all__ = ["router", "ledger_section", "dollars"]

router = APIRouter()
STREET = "street-opening"


def dollars(cents: int) -> str:
    return f"-${-cents / 100:,.2f}" if cents < 0 else f"${cents / 100:,.2f}"  # a reversing line's


@router.get("/deposits")
def deposits(request: Request, user: StaffUser, store: StoreDep):
    from models.read.deposits import UnknownApplicant
    from services.deposits import open_deposits
    from services.deposits import statement as applicant_statement

    if STREET not in user.kinds:
        raise HTTPException(404)
    q = request.query_params
    name = q.get("applicant", "")[:200]
    page = number_or(q.get("page"), 1, 1, 100_000)
    towns = None if user.all_towns else list(user.towns)
    rows, total = open_deposits(store, towns=towns, page=page)
    statement, error = None, None
    if name:
        try:
            statement = applicant_statement(store, name).as_dict()
        except UnknownApplicant as exc:
            error = refusal(exc)
    per_page = 100
    ctx = {
        "rows": rows,
        "total": total,
        "page": page,
        "pages": max(1, -(-total // per_page)),
        "name": name,
        "statement": statement,
        "error": error,
        "dollars": dollars,
    }
    return render(request, "staff/deposits.html", ctx, user=user)


def ledger_section(store, filing_id: str, kind: str) -> dict | None:
    """The filing page's ledger section (a street opening's), or None."""
    if kind != STREET:
        return None
    from services.deposits import permit_ledger

    ledger = permit_ledger(store, filing_id)
    return {
        "entries": ledger.entries,
        "charged": dollars(ledger.charged),
        "fees": dollars(ledger.fees),
        "deducted": dollars(ledger.deducted),
        "refunded": dollars(ledger.refunded),
        "held": dollars(ledger.held),
        "paid": dollars(ledger.paid),
        "dollars": dollars,
    }
