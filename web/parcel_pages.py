"""The assessors' parcels in the workbench: finding a site's parcel (the
new-filing and apply forms' site picker, web/static/site_picker.js), and
the abutter list computed from the parcels, reviewed and then used (an
agent's page).  What a filing's page says of its parcel is
:mod:`web.parcel_facts`.

Staff find parcels of their own towns; an applicant those of the towns
that take applications online (the assessors' records are public).  A
town outside that is a 404.  Every post carries the CSRF token, the
filing's sequence number, its list's version and the reviewed list's
digest: a list changed since the page was drawn is not replaced.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse

from models.errors import StaleFiling
from workflows.errors import PermitsError

from .auth import StaffUser, current_user
from .bodies import PostedForm, seq_of
from .filing_pages import visible_filing
from .render import render

__all__ = ["router", "FIND_MIN_CHARS"]

router = APIRouter()
FIND_MIN_CHARS = 2


def _found_json(store, town: str, text: str) -> JSONResponse:
    from models.read import parcels as stored
    from services.parcels import find_parcels

    layers = stored.current_layers(store, [town])
    found = find_parcels(store, town, text) if len(text.strip()) >= FIND_MIN_CHARS else []
    rows = []
    for p in found:
        owner = p.owners[0] if p.owners else None
        rows.append(
            {
                "loc_id": p.loc_id,
                "map_par_id": p.map_par_id,
                "site_addr": p.site_addr,
                "owners": len(p.owners),
                "owner": dict(zip(("name", "street", "city", "state", "zip"), owner)) if owner else None,
            }
        )
    return JSONResponse({"town": town, "fiscal_year": layers[0].fiscal_year if layers else None, "parcels": rows})


@router.get("/parcels/find.json")
def find_for_staff(request: Request, town: str = "", q: str = ""):
    user = current_user(request)
    if town not in user.visible_towns():
        raise HTTPException(404)
    return _found_json(request.app.state.store, town, q[:200])


@router.get("/my/parcels/find.json")
def find_for_applicant(request: Request, town: str = "", q: str = ""):
    from .applicant_pages import current_applicant
    from .apply import towns_offering
    from .forms import KIND_LABELS

    current_applicant(request)
    if town not in {t for k in KIND_LABELS for t in towns_offering(k)}:
        raise HTTPException(404)
    return _found_json(request.app.state.store, town, q[:200])


def _review(request: Request, user, fid: str, *, error: str | None = None, status: int = 200):
    from models.read import parcels as stored
    from models.read import workbench
    from services.parcel_abutters import filing_abutters

    summary = visible_filing(request, user, fid)
    if summary.kind == "street-opening":
        raise HTTPException(404)
    store = request.app.state.store
    computed, problem = None, None
    try:
        computed = filing_abutters(store, fid)
    except PermitsError as exc:
        problem = str(exc)
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
    return render(request, "abutters_review.html", ctx, user=user, status=status)


@router.get("/filings/{fid}/abutters/parcels")
def review_page(request: Request, fid: str):
    user = current_user(request)
    return _review(request, user, fid)


@router.post("/filings/{fid}/abutters/parcels")
def use_list(request: Request, fid: str, user: StaffUser, form: PostedForm):
    from services.parcel_abutters import use_parcel_abutters

    summary = visible_filing(request, user, fid)
    if summary.kind == "street-opening":
        raise HTTPException(404)
    seq, version, digest = seq_of(form), form.get("abutters_version"), form.get("digest")
    if not (seq is not None and isinstance(version, str) and isinstance(digest, str)):
        raise HTTPException(400, "The form is incomplete: reload the page.")
    try:
        use_parcel_abutters(
            request.app.state.store,
            fid,
            digest=digest,
            by=user.email,
            now=request.app.state.store.now(),
            expect_seq=seq,
            expect_version=version,
        )
    except StaleFiling as exc:
        return _review(request, user, fid, error=str(exc), status=409)
    except PermitsError as exc:
        return _review(request, user, fid, error=str(exc), status=422)
    return RedirectResponse(f"/filings/{fid}#abutters", status_code=303)
