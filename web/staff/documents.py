"""What was submitted, and the filing's documents, on the staff page of a
filing: the project, the site and parcel, the parties with every contact
given (:mod:`workflows.particulars`), the plans uploaded online, the
notices that fit now and those sent, the decision, and an abutter
notice's certified-mail list and mailing labels (:mod:`services.mailing`).

Every route finds the filing within the user's role and towns first
(:func:`web.staff.filing_pages.visible_filing`: else 404), and a plan only
among the filing's own uploads (another filing's token is a 404 too).
Downloading renders; nothing is recorded.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from models.errors import UnknownUpload
from workflows.errors import PermitsError

from ..deps import StaffUser, StoreDep, UploadsDep, WebDep
from .filing_pages import filing_page_response, visible_filing

__all__ = ["router"]

router = APIRouter()


@router.get("/filings/{fid}/plans/{token}")
def staff_plan(fid: str, token: str, user: StaffUser, store: StoreDep, uploads: UploadsDep):
    """A plan of this filing, uploaded with its online application."""
    summary = visible_filing(store, user, fid)
    try:
        row, data = uploads.read(token, filing_id=summary.id)
    except UnknownUpload:
        raise HTTPException(404) from None
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{summary.id}-plan.pdf"', "X-Content-Type-Options": "nosniff"},
    )


@router.get("/filings/{fid}/notices/{kind}/{which}.{ext}")
def notice_mailing(request: Request, fid: str, kind: str, which: str, ext: str, user: StaffUser, web: WebDep):
    """An abutter notice's certified-mail list (CSV) or mailing labels (PDF)."""
    from services.mailing import MAILINGS, mailing

    summary = visible_filing(web.store, user, fid)
    if MAILINGS.get(which) != ext:
        raise HTTPException(404)
    try:
        out = mailing(web.store, summary.id, kind, which, as_of=web.today(), now=web.now())
    except PermitsError as exc:
        return filing_page_response(request, web, user, fid, error=exc, status=422)
    media = "text/csv" if ext == "csv" else "application/pdf"
    return Response(out.content, media_type=media, headers={"Content-Disposition": f'attachment; filename="{out.filename}"'})
