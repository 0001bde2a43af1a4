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

from .auth import checked_form, current_user
from .filing_pages import filing_page_response, visible_filing

__all__ = ["router", "submitted_for"]

router = APIRouter()


def submitted_for(store, user) -> list:
    """The applications submitted online that the user's role and towns
    cover, oldest first."""
    rows = [r for r in store.list_filings(state="submitted") if user.may_see(r.town, r.kind)]
    return sorted(rows, key=lambda r: r.id)


async def _posted(request: Request, fid: str):
    """(user, form, the form's sequence number, the day it names: today when
    blank); the filing in the user's scope, else 404."""
    user = current_user(request)
    visible_filing(request, user, fid)
    form = await checked_form(request)
    seq = str(form.get("seq") or "")
    if not seq.isdigit():
        raise HTTPException(400, "The form has no sequence number: reload the page.")
    day_text = str(form.get("date") or "") or request.app.state.today().isoformat()
    try:
        day = date.fromisoformat(day_text)
    except ValueError:
        raise HTTPException(422, f"{day_text!r} is not a date (YYYY-MM-DD).") from None
    return user, form, int(seq), day


def _refused(request, user, fid, exc):
    return filing_page_response(request, user, fid, error=str(exc), status=409 if isinstance(exc, StaleFiling) else 422)


def _context(request: Request) -> dict:
    """What every recording service takes from the app: today, the moment,
    the sender of emails."""
    state = request.app.state
    return {"today": state.today(), "now": state.now(), "mail_from": state.settings.mail_from}


@router.post("/filings/{fid}/complete")
async def mark_complete(request: Request, fid: str):
    from services.record import mark_complete as complete

    user, _, seq, day = await _posted(request, fid)
    try:
        complete(request.app.state.store, fid, day=day, by=user.email, expect_seq=seq, **_context(request))
    except PermitsError as exc:
        return _refused(request, user, fid, exc)
    return RedirectResponse(f"/filings/{fid}", status_code=303)


@router.post("/filings/{fid}/incomplete")
async def mark_incomplete(request: Request, fid: str):
    from services.record import mark_incomplete as incomplete

    user, form, seq, day = await _posted(request, fid)
    reasons = str(form.get("reasons") or "")
    try:
        incomplete(request.app.state.store, fid, day=day, reasons=reasons, by=user.email, expect_seq=seq, **_context(request))
    except PermitsError as exc:
        return _refused(request, user, fid, exc)
    return RedirectResponse(f"/filings/{fid}", status_code=303)


@router.post("/filings/{fid}/invite")
async def invite(request: Request, fid: str):
    """Invite an applicant, owner or contractor to follow the filing online:
    a single-use link, emailed through the outbox."""
    from services.invite import invite as send_invitation

    user = current_user(request)
    visible_filing(request, user, fid)
    form = await checked_form(request)
    state = request.app.state
    try:
        send_invitation(
            state.store,
            fid,
            str(form.get("email") or ""),
            by=user.email,
            base_url=str(request.base_url),
            now=state.now(),
            mail_from=state.settings.mail_from,
        )
    except PermitsError as exc:
        return filing_page_response(request, user, fid, error=str(exc), status=422)
    return RedirectResponse(f"/filings/{fid}#invite", status_code=303)
