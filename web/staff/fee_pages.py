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

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse

from models.errors import StaleFiling
from workflows.errors import PermitsError

from ..bodies import PostedForm, seq_of
from ..deps import Admin, StaffUser, WebDep
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


@router.post("/rules/fees")
def set_fee_form(request: Request, user: Admin, form: PostedForm, web: WebDep):
    """An admin sets a fee a commission sets by regulation, from a day,
    with why (:func:`services.town_fees.set_fee`); a refusal is shown on
    the rule book in the rule's words, nothing written."""
    from services.town_fees import set_fee

    from ..refusals import refusal
    from ..render import render
    from .pages import fee_book, rule_book

    values = {k: str(form.get(k) or "")[:300] for k in ("fee", "amount", "effective", "reason")}
    town_id, _, kind = values["fee"].partition("/")
    error = ""
    try:
        effective = day(values["effective"]) if values["effective"] else None
    except ValueError as exc:
        effective, error = None, f"The day the fee takes effect: {exc}."
    if not error:
        try:
            if town_id not in user.visible_towns():
                raise HTTPException(404)
            set_fee(web.store, town_id, kind, values["amount"], effective=effective, reason=values["reason"], by=user.email)
        except PermitsError as exc:
            error = refusal(exc)
    if not error:
        return RedirectResponse("/rules#fees", status_code=303)
    towns, guards = rule_book()
    ctx = {"towns": towns, "guards": guards, **fee_book(web.store, user, web.today(), error=error, values=values)}
    return render(request, "staff/rules.html", ctx, user=user, status=422)
