"""Inspections asked for online (Canton 16-12 §10.2): on a street
opening's status page the applicant (or its contractor, through the
applicant's account) asks for the inspection of a stage that fits the
permit now, on a preferred business day
(``POST /my/filings/{fid}/inspection-request``,
:func:`services.inspection_requests.ask_inspection`); the page lists the
requests and the inspections' results; the DPW schedule's Inspections tab
lists the open requests of the user's towns (the sections are drawn by
:mod:`web.inspection_request_view`),
each with the form that records the inspection against it.

The filing must be one the account may see (anything else is the same
404 as an unknown id); the form carries the CSRF token and the filing's
sequence number; a refusal is shown on the status page in words, with
nothing written.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from models.errors import StaleFiling
from workflows.errors import PermitsError

from ..bodies import PostedForm, seq_of
from ..deps import Applicant, WebDep
from ..refusals import refusal
from ..values import day
from .my_filings import owned_filing, status_page

__all__ = ["router"]

router = APIRouter()


@router.post("/my/filings/{fid}/inspection-request")
def ask_inspection_form(request: Request, fid: str, applicant: Applicant, form: PostedForm, web: WebDep):
    from services.inspection_requests import ask_inspection

    user, account = applicant
    owned_filing(web.applicants, account, fid)
    try:
        preferred = day(str(form.get("preferred") or ""))
    except ValueError as exc:
        return status_page(request, web, user, account, fid, error=f"The preferred day: {exc}", status=422)
    try:
        ask_inspection(
            web.store,
            fid,
            stage=str(form.get("stage") or ""),
            preferred=preferred,
            by=account.email,
            notes=str(form.get("notes") or ""),
            today=web.today(),
            expect_seq=seq_of(form),
        )
    except StaleFiling as exc:
        return status_page(request, web, user, account, fid, error=refusal(exc, "street-opening"), status=409)
    except PermitsError as exc:
        return status_page(request, web, user, account, fid, error=refusal(exc, "street-opening"), status=422)
    return RedirectResponse(f"/my/filings/{fid}#inspections", status_code=303)
