"""The fee and its payments in the workbench: the fee shown on the apply
form for the kind chosen (each town's, :func:`apply_fees`), on the
applicant's status page and on the staff filing page with what was paid
(:func:`fee_section`), and the staff's payment form
(``POST /filings/{fid}/payments``, :func:`services.payments.record_payment`).

Staff who may see the filing only (another town's, another role's, an
unknown or malformed id: the same 404); the form carries the CSRF token
(checked before its body is read) and the filing's sequence number; a
refusal is shown on the filing page in the rule's words, nothing written.
No card is taken: the payment recorded is the money the town received.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from models.errors import StaleFiling
from workflows.errors import PermitsError

from ..bodies import PostedForm, seq_of
from ..deps import StaffUser, WebDep
from ..values import day
from .filing_pages import filing_page_response, visible_filing

__all__ = ["router"]

router = APIRouter()


@router.post("/filings/{fid}/payments")
def record_payment_form(request: Request, fid: str, user: StaffUser, form: PostedForm, web: WebDep):
    from services.payments import record_payment

    visible_filing(web.store, user, fid)
    today = web.today()
    try:
        on = day(str(form.get("date") or today.isoformat()))
    except ValueError as exc:
        return filing_page_response(request, web, user, fid, error=f"The day of the payment: {exc}", status=422)
    try:
        record_payment(
            web.store,
            fid,
            day=on,
            amount=str(form.get("amount") or ""),
            method=str(form.get("method") or ""),
            reference=str(form.get("reference") or ""),
            toward=str(form.get("toward") or ""),
            by=user.email,
            today=today,
            now=web.now(),
            mail_from=web.settings.mail_from,
            expect_seq=seq_of(form),
        )
    except StaleFiling as exc:
        return filing_page_response(request, web, user, fid, error=exc, status=409)
    except PermitsError as exc:
        return filing_page_response(request, web, user, fid, error=exc, status=422)
    return RedirectResponse(f"/filings/{fid}#fee", status_code=303)
