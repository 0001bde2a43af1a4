"""The assessors' parcels in the staff's workbench: finding a site's parcel
(the new-filing form's site picker, :mod:`web.site_picker`), and the
abutter list computed from the parcels, reviewed and then used (an agent's
page).  What a filing's page says of its parcel is
:mod:`web.staff.parcel_facts`; the applicant's site picker is
web/applicant/my_filings.py's.

Staff find parcels of their own towns (the applicant those of the towns
that take applications online: the assessors' records are public).  A
town outside that is a 404.  Every post carries the CSRF token, the
filing's sequence number, its list's version and the reviewed list's
digest: a list changed since the page was drawn is not replaced.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse

from models.errors import StaleFiling
from models.handle import Store
from workflows.errors import PermitsError

from ..bodies import PostedForm, seq_of
from ..deps import StaffUser, StoreDep
from ..refusals import refusal
from ..render import render
from ..site_picker import found_json
from .filing_pages import visible_filing

__all__ = ["router"]

router = APIRouter()


@router.get("/parcels/find.json")
def find_for_staff(user: StaffUser, store: StoreDep, town: str = "", q: str = ""):
    if town not in user.visible_towns():
        raise HTTPException(404)
    return found_json(store, town, q[:200])


def _review(request: Request, store: Store, user, fid: str, *, error: str | None = None, status: int = 200):
    from models.read import parcels as stored
    from models.read import workbench
    from services.parcel_abutters import filing_abutters

    summary = visible_filing(store, user, fid)
    if summary.kind == "street-opening":
        raise HTTPException(404)
    computed, problem = None, None
    try:
        computed = filing_abutters(store, fid)
    except PermitsError as exc:
        problem = refusal(exc, summary.kind)
    rows = workbench.abutters(store, fid)
    source = stored.abutter_source(store, fid)
    ctx = {
        "s": summary,
        "computed": computed,
        "problem": problem,
        "error": error,
        "source": source,
        "abutters_version": workbench.abutters_version(rows),
        "stored_count": len(rows),
    }
    return render(request, "staff/abutters_review.html", ctx, user=user, status=status)


@router.get("/filings/{fid}/abutters/parcels")
def review_page(request: Request, fid: str, user: StaffUser, store: StoreDep):
    return _review(request, store, user, fid)


@router.post("/filings/{fid}/abutters/parcels")
def use_list(request: Request, fid: str, user: StaffUser, form: PostedForm, store: StoreDep):
    from services.parcel_abutters import use_parcel_abutters

    summary = visible_filing(store, user, fid)
    if summary.kind == "street-opening":
        raise HTTPException(404)
    seq, version, digest = seq_of(form), form.get("abutters_version"), form.get("digest")
    if not (seq is not None and isinstance(version, str) and isinstance(digest, str)):
        raise HTTPException(400, "The form is incomplete: reload the page.")
    try:
        use_parcel_abutters(
            store,
            fid,
            digest=digest,
            by=user.email,
            now=store.now(),
            expect_seq=seq,
            expect_version=version,
        )
    except StaleFiling as exc:
        return _review(request, store, user, fid, error=refusal(exc, summary.kind), status=409)
    except PermitsError as exc:
        return _review(request, store, user, fid, error=refusal(exc, summary.kind), status=422)
    return RedirectResponse(f"/filings/{fid}#abutters", status_code=303)
