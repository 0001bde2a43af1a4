"""Staff's side of online applications, and invitations: the filings submitted online wait on
the Today page until staff find each complete (a ``filed`` event dated the
day of receipt of the complete application, from which the clocks count) or
incomplete with reasons (``found-incomplete``; the reasons are emailed to the
applicant through the outbox and shown on their status page).

Each post carries the CSRF token and the sequence number the page showed;
the filing must be in the user's scope (else 404) and ``submitted``.
"""

from __future__ import annotations

from datetime import date, datetime

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse

from models.errors import StaleFiling
from workflows.errors import PermitsError
from workflows.submission import complete_event, incomplete_event

from .auth import checked_form, current_user

__all__ = ["router", "submitted_for"]

router = APIRouter()


def submitted_for(store, user) -> list:
    """The applications submitted online that the user's role and towns
    cover, oldest first."""
    rows = [r for r in store.list_filings(state="submitted") if user.may_see(r.town, r.kind)]
    return sorted(rows, key=lambda r: r.id)


async def _posted(request: Request, fid: str):
    from . import filing_pages

    user = current_user(request)
    summary = filing_pages._visible(request, user, fid)
    form = await checked_form(request)
    seq = str(form.get("seq") or "")
    if not seq.isdigit():
        raise HTTPException(400, "The form has no sequence number: reload the page.")
    if summary.state not in ("submitted",):
        raise HTTPException(409, f"{fid} is {summary.state!r}, not an application waiting to be checked.")
    day_text = str(form.get("date") or "") or request.app.state.today().isoformat()
    try:
        day = date.fromisoformat(day_text)
    except ValueError:
        raise HTTPException(422, f"{day_text!r} is not a date (YYYY-MM-DD).") from None
    return user, form, int(seq), day


def _refused(request, user, fid, exc):
    from . import filing_pages

    return filing_pages._page(request, user, fid, error=str(exc), status=409 if isinstance(exc, StaleFiling) else 422)


@router.post("/filings/{fid}/complete")
async def mark_complete(request: Request, fid: str):
    user, _, seq, day = await _posted(request, fid)
    store = request.app.state.store
    filing, _ = store.load(fid)
    event = complete_event(day)
    if filing.kind == "street-opening":  # what the filed event carries (FILING-FORMAT.md)
        application = filing.extra.get("application") or {}
        for name in ("applicant", "length_ft"):
            if application.get(name) is not None:
                event[name] = application[name]
    try:
        store.record(fid, event, by=user.email, expect_seq=seq)
    except PermitsError as exc:
        return _refused(request, user, fid, exc)
    return RedirectResponse(f"/filings/{fid}", status_code=303)


@router.post("/filings/{fid}/incomplete")
async def mark_incomplete(request: Request, fid: str):
    from models.outbox import Outbox
    from sweep.mail import incomplete_email, party_emails

    user, form, seq, day = await _posted(request, fid)
    store = request.app.state.store
    try:
        event = incomplete_event(day, str(form.get("reasons") or "")[:2000])
        store.record(fid, event, by=user.email, expect_seq=seq)
    except PermitsError as exc:
        return _refused(request, user, fid, exc)
    filing, _ = store.load(fid)
    now = datetime.now().replace(second=0, microsecond=0)
    emails = [
        incomplete_email(filing, role, address, event["reasons"], now)
        for role, address in party_emails(filing.extra, ("applicant",))
    ]
    if emails:
        Outbox(store).queue(fid, emails)
    return RedirectResponse(f"/filings/{fid}", status_code=303)


@router.post("/filings/{fid}/invite")
async def invite(request: Request, fid: str):
    """Invite an applicant, owner or contractor to follow the filing online:
    a single-use link, emailed through the outbox."""
    from datetime import timedelta

    from models.applicants import INVITATION_DAYS, Applicants
    from models.outbox import Outbox
    from sweep.mail import invitation_email

    from . import filing_pages

    user = current_user(request)
    summary = filing_pages._visible(request, user, fid)
    form = await checked_form(request)
    store = request.app.state.store
    address = str(form.get("email") or "").strip().lower()
    try:
        token = Applicants(store).invite(fid, address, by=user.email)
    except PermitsError as exc:
        return filing_pages._page(request, user, fid, error=str(exc), status=422)
    now = datetime.now().replace(second=0, microsecond=0)
    link = str(request.base_url).rstrip("/") + f"/invitation/{token}"
    expires = (now + timedelta(days=INVITATION_DAYS)).date()
    Outbox(store).queue(fid, [invitation_email(summary.town, fid, address, link, expires, now)])
    return RedirectResponse(f"/filings/{fid}#invite", status_code=303)
