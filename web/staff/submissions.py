"""Staff's side of online applications, and invitations: the filings submitted online wait on
the Today page until staff find each complete (a ``filed`` event dated the
day of receipt of the complete application, from which the clocks count) or
incomplete with reasons (``found-incomplete``; the reasons are emailed to the
applicant through the outbox and shown on their status page).

Each post carries the CSRF token and the sequence number the page showed;
the filing must be in the user's scope (else 404) and ``submitted``.
"""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse

from models.errors import StaleFiling
from workflows.errors import PermitsError

from ..bodies import PostedForm, seq_of
from ..deps import StaffUser, WebContext, WebDep
from ..values import day
from .filing_pages import filing_page_response, visible_filing

__all__ = ["router", "submitted_for"]

router = APIRouter()


def submitted_for(store, user) -> list:
    """The applications submitted online that the user's role and towns
    cover and that wait on the office (not those sent back to the
    applicant), by id."""
    from models.read.submitted import submitted_filings

    return [r for r in submitted_filings(store)[0] if user.may_see(r.town, r.kind)]


def _posted(web: WebContext, fid: str, user, form) -> tuple[int, date]:
    """(the form's sequence number, the day it names: today when blank); the
    filing in the user's scope, else 404."""
    visible_filing(web.store, user, fid)
    seq = seq_of(form)
    day_text = str(form.get("date") or "")
    if not day_text:
        return seq, web.today()
    try:
        return seq, day(day_text)
    except ValueError as exc:
        raise HTTPException(422, f"The day of receipt: {str(exc)[0].upper()}{str(exc)[1:]}.") from None


def _refused(request, web, user, fid, exc):
    return filing_page_response(request, web, user, fid, error=exc, status=409 if isinstance(exc, StaleFiling) else 422)


def _context(web: WebContext) -> dict:
    """What every recording service takes from the app: today, the moment,
    the sender of emails."""
    return {"today": web.today(), "now": web.now(), "mail_from": web.settings.mail_from}


@router.post("/filings/{fid}/complete")
def mark_complete(request: Request, fid: str, user: StaffUser, form: PostedForm, web: WebDep):
    from services.record import mark_complete as complete

    seq, received = _posted(web, fid, user, form)
    try:
        complete(web.store, fid, day=received, by=user.email, expect_seq=seq, **_context(web))
    except PermitsError as exc:
        return _refused(request, web, user, fid, exc)
    return RedirectResponse(f"/filings/{fid}", status_code=303)


@router.post("/filings/{fid}/incomplete")
def mark_incomplete(request: Request, fid: str, user: StaffUser, form: PostedForm, web: WebDep):
    from services.record import mark_incomplete as incomplete

    seq, received = _posted(web, fid, user, form)
    reasons = str(form.get("reasons") or "")
    try:
        incomplete(web.store, fid, day=received, reasons=reasons, by=user.email, expect_seq=seq, **_context(web))
    except PermitsError as exc:
        return _refused(request, web, user, fid, exc)
    return RedirectResponse(f"/filings/{fid}", status_code=303)


@router.post("/filings/{fid}/invite")
def invite(request: Request, fid: str, user: StaffUser, form: PostedForm, web: WebDep):
    """Invite an applicant, owner or contractor to follow the filing online:
    a single-use link, emailed through the outbox."""
    from services.invite import invite as send_invitation

    visible_filing(web.store, user, fid)
    try:
        send_invitation(
            web.store,
            fid,
            str(form.get("email") or ""),
            by=user.email,
            base_url=web.settings.base_url,  # PERMITS_BASE_URL, never the request's Host
            now=web.now(),
            mail_from=web.settings.mail_from,
        )
    except PermitsError as exc:
        return filing_page_response(request, web, user, fid, error=exc, status=422)
    return RedirectResponse(f"/filings/{fid}#invite", status_code=303)
