"""The DPW schedule in the workbench: the inspections due (one tab) and the
other dates (another), filtered by town, street, contractor and days, a
page at a time (:func:`services.schedule.schedule_page`); each inspection
row's form records an inspection with its time, notes, photos and, on a
fail, the defect and the re-inspection day
(:func:`services.inspections.record_inspection`), and comes back to the
same page of the schedule with its filters.  A photo is read back only
through its token by staff who may see the filing.

DPW staff (and admins) of the filing's town only: any other user, an
unknown or malformed id, another town's filing are the same 404; every
post carries the CSRF token (checked before its body is parsed) and the
filing's sequence number; a refusal is shown on the schedule in the rule's
words, with nothing written.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from models.errors import StaleFiling
from models.handle import Store
from models.types import User
from services.inspections import MAX_PHOTOS
from workflows.errors import PermitsError
from workflows.ids import BadFilingId, check_filing_id
from workflows.inspections import INSPECTION_NAMES, STAGE_NAMES

from ..bodies import seq_of, upload_form, upload_limit
from ..deps import StaffUser, StoreDep, Today, UploadsDep, WebDep
from ..refusals import refusal
from ..render import render
from ..values import day, moment, number_or
from .filing_pages import visible_filing

__all__ = ["router", "FILTERS"]

router = APIRouter()
STREET = "street-opening"
#: the query's filters a page keeps (and a recording comes back to)
FILTERS = ("tab", "town", "street", "contractor", "from", "to", "page")


def _dpw(user: User) -> User:
    """The staff user, if they keep street openings (else 404)."""
    if STREET not in user.kinds:
        raise HTTPException(404)
    return user


def _towns(user: User) -> list[str]:
    from workflows.towns import registry

    runs = {t for t, p in registry().items() if STREET in p.permits}
    return [t for t in user.visible_towns() if t in runs]


def _filters(source) -> dict[str, str]:
    """The page's filters from a query or a form (``q_`` fields), each kept
    only when it reads: a date that is not one is dropped, not trusted."""
    get = source.get
    out = {k: str(get(k) or "")[:100].strip() for k in FILTERS}
    out["tab"] = "other" if out["tab"] == "other" else "inspections"
    for k in ("from", "to"):
        try:
            out[k] = day(out[k]).isoformat() if out[k] else ""
        except ValueError:
            out[k] = ""
    out["page"] = str(number_or(out["page"] or None, 1, 1, 100_000))
    return out


def _query(filters: dict[str, str], **change) -> str:
    merged = {**filters, **change}
    return urlencode({k: v for k, v in merged.items() if v and not (k == "page" and v == "1")})


def schedule_response(
    request: Request, store: Store, as_of: date, user: User, filters: dict[str, str], *, error=None, status=200
):
    from services.schedule import schedule_page

    visible = _towns(user)
    towns: list[str] | None = None if user.all_towns else visible
    if filters["town"]:
        towns = [filters["town"]] if filters["town"] in visible else []
    within = number_or(request.query_params.get("within"), 42, 0, 366)
    got = schedule_page(
        store,
        as_of=as_of,
        towns=towns,
        tab=filters["tab"],
        within=within,
        street=filters["street"],
        contractor=filters["contractor"],
        since=day(filters["from"]) if filters["from"] else None,
        until=day(filters["to"]) if filters["to"] else None,
        page=number_or(str(filters["page"]), 1, 1, 1_000_000),
    )
    ctx = {
        "got": got,
        "filters": filters,
        "towns": visible,
        "within": within,
        "stage_names": STAGE_NAMES,
        "inspection_names": INSPECTION_NAMES,
        "error": error,
        "here": _query(filters),
        "prev": _query(filters, page=str(got.page - 1)) if got.page > 1 else None,
        "next": _query(filters, page=str(got.page + 1)) if got.more else None,
        "tab_links": {t: _query({**filters, "page": "1"}, tab=t) for t in ("inspections", "other")},
        "max_photos": _max_photos(),
    }
    from ..inspection_request_view import schedule_requests

    ctx["requests"] = schedule_requests(store, towns) if got.tab == "inspections" else []  # asked for online
    return render(request, "staff/schedule.html", ctx, user=user, status=status)


def _max_photos() -> int:
    from services.inspections import MAX_PHOTOS

    return MAX_PHOTOS


@router.get("/schedule")
def schedule(request: Request, user: StaffUser, store: StoreDep, today: Today):
    return schedule_response(request, store, today, _dpw(user), _filters(request.query_params))


#: an inspection's form with up to MAX_PHOTOS photos, within the upload limit
#: in all (PERMITS_UPLOAD_MAX_MB) and PERMITS_FORM_MAX_KB for its fields; its
#: CSRF token checked before the body is parsed (web/bodies.py)
PhotoForm = Annotated[FormData, Depends(upload_form(upload_limit, files=MAX_PHOTOS))]


@router.post("/schedule/inspections")
def record_from_schedule(request: Request, user: StaffUser, form: PhotoForm, web: WebDep):
    from services.inspections import record_inspection

    if STREET not in user.kinds:
        raise HTTPException(404)
    fid = str(form.get("filing") or "")
    try:
        check_filing_id(fid)
    except BadFilingId:
        raise HTTPException(404) from None
    store, uploads = web.store, web.uploads
    summary = visible_filing(store, user, fid)
    if summary.kind != STREET:
        raise HTTPException(404)
    filters = _filters({k: form.get(f"q_{k}") for k in FILTERS})
    today = web.today()
    try:
        on = day(str(form.get("date") or today.isoformat()))
        at_text = str(form.get("time") or "").strip()
        at = moment(f"{on.isoformat()}T{at_text}").time() if at_text else None
        reinspect_text = str(form.get("reinspect") or "").strip()
        reinspect = day(reinspect_text) if reinspect_text else None
    except ValueError as exc:
        return schedule_response(request, store, today, user, filters, error=f"{fid}: {exc}", status=422)
    photos = []
    for item in form.getlist("photos"):
        if isinstance(item, str) or not item.filename:
            continue
        photos.append((item.filename, item.file.read(uploads.limit + 1)))
    try:
        record_inspection(
            store,
            uploads,
            fid,
            day=on,
            stage=str(form.get("stage") or ""),
            result=str(form.get("result") or ""),
            at=at,
            notes=str(form.get("notes") or ""),
            defect=str(form.get("defect") or ""),
            reinspect=reinspect,
            photos=photos,
            by=user.email,
            today=today,
            now=web.now(),
            mail_from=web.settings.mail_from,
            expect_seq=seq_of(form),
        )
    except StaleFiling as exc:
        return schedule_response(request, store, today, user, filters, error=refusal(exc, "street-opening"), status=409)
    except PermitsError as exc:
        return schedule_response(request, store, today, user, filters, error=refusal(exc, "street-opening"), status=422)
    query = _query(filters)
    return RedirectResponse("/schedule" + (f"?{query}" if query else ""), status_code=303)


@router.get("/filings/{fid}/photos/{token}")
def inspection_photo(fid: str, token: str, user: StaffUser, store: StoreDep, uploads: UploadsDep):
    """A photo of the filing's inspections: staff who may see the filing."""
    from models.errors import UnknownUpload

    visible_filing(store, user, fid)
    try:
        row, data = uploads.read(token, filing_id=fid)
    except UnknownUpload:
        raise HTTPException(404) from None
    if row.media_type not in ("image/jpeg", "image/png"):
        raise HTTPException(404)
    return Response(
        data,
        media_type=row.media_type,
        headers={"Content-Disposition": "inline", "X-Content-Type-Options": "nosniff", "Cache-Control": "private"},
    )
