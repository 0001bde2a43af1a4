"""One filing in the workbench: its page (state, clocks with their
explanations, timeline, the event form, voids, abutters, notices), the
posts that change it, and the new-filing form.

Every route first finds the filing within the user's scope: an unknown
id, a malformed one and one outside the user's role or towns are the same
404.  Every post carries the CSRF token and the filing's sequence number
as the form saw it; the store refuses the write if another event landed
since ("changed since you opened it").  The abutter list's form also
carries the list's version, so a list someone else uploaded meanwhile is
not silently replaced.  A refusal by the core is shown on
the page in its own words, with nothing written.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from models import workbench
from models.errors import StaleFiling, UnknownFiling
from models.users import User
from workflows.errors import PermitsError
from workflows.filing import VOID
from workflows.ids import BadFilingId, check_filing_id

from .auth import checked_form, current_user
from .forms import APPLICANT_TYPES, KIND_LABELS, NEW_FILING_FIELDS, FormErrors, event_fields, event_json, new_filing, towns_for
from .render import render

__all__ = ["router"]

router = APIRouter()
MAX_UPLOAD = 2_000_000


def _visible(request: Request, user: User, fid: str) -> workbench.FilingSummary:
    try:
        summary = workbench.summary(request.app.state.store, check_filing_id(fid))
    except (BadFilingId, UnknownFiling):
        raise HTTPException(404) from None
    if not user.may_see(summary.town, summary.kind):
        raise HTTPException(404)
    return summary


def _now(request: Request) -> datetime:
    """A notice's date and time: the app's today at the wall clock's time."""
    return datetime.combine(request.app.state.today(), datetime.now().time()).replace(second=0, microsecond=0)


def _abutter_parties(store, fid: str):
    """The stored abutter list as the notices' parties (or None)."""
    from notices.abutters import parse_abutters

    rows = workbench.abutters(store, fid)
    if not rows:
        return None
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["Parcel", "Owner", "Mailing Address"])
    for r in rows:
        w.writerow([r["parcel"] or "", r["name"], r["address"] or ""])
    return parse_abutters(buf.getvalue(), "the stored abutter list")


def _page(request: Request, user: User, fid: str, *, error=None, field_errors=None, values=None, status=200, event=None):
    from notices.kinds import NOTICE_KINDS
    from notices.store_log import StoreNoticeLog
    from workflows.replay import MACHINES
    from workflows.towns import town

    store = request.app.state.store
    summary = _visible(request, user, fid)
    filing, _ = store.load(fid)
    as_of = request.app.state.today()
    result = store.replayer(filing, as_of)
    history = store.history(fid)
    reasons = {h["raw"].get("voids"): h["raw"].get("reason") for h in history if h["type"] == VOID}
    allowed = [e for e in MACHINES[filing.kind].allowed(result.state) if e != VOID]
    event = event if event is not None else request.query_params.get("event")
    if event not in allowed:
        event = None
    profile = town(filing.town)
    abutter_list = workbench.abutters(store, fid)
    on_record = {e.type for e in filing.events}
    notices = [
        k
        for k in NOTICE_KINDS.values()
        if k.applies(profile, filing.kind)
        and result.state in k.states
        and all(on_record & set(group) for group in k.needs_events)
    ]
    ctx = {
        "s": summary,
        "filing": filing,
        "result": result,
        "history": history,
        "reasons": reasons,
        "allowed": allowed,
        "event": event,
        "fields": event_fields(filing.kind, event) if event else [],
        "clock_ids": [c.id for c in result.clocks],
        "notices": notices,
        "abutters": abutter_list,
        "abutters_version": workbench.abutters_version(abutter_list),
        "sent": StoreNoticeLog(store).entries(fid),
        "error": error,
        "field_errors": field_errors or {},
        "values": values or {},
        "kind_label": KIND_LABELS[filing.kind],
    }
    return render(request, "filing.html", ctx, user=user, status=status)


@router.get("/filings/new")
def new_form(request: Request, kind: str = ""):
    user = current_user(request)
    if kind and kind not in user.kinds:
        raise HTTPException(404)
    return _new_page(request, user, kind, {}, {})


def _new_page(request, user, kind, values, errors, status=200):
    fields = [(n, label, req) for n, label, kinds, req in NEW_FILING_FIELDS if kind in kinds] if kind else []
    ctx = {
        "kind": kind,
        "kinds": [(k, KIND_LABELS[k]) for k in user.kinds],
        "fields": fields,
        "towns": towns_for(kind, user.visible_towns()) if kind else [],
        "applicant_types": APPLICANT_TYPES,
        "values": values,
        "errors": errors,
    }
    return render(request, "new_filing.html", ctx, user=user, status=status)


@router.post("/filings/new")
async def new_submit(request: Request):
    user = current_user(request)
    form = await checked_form(request)
    kind = str(form.get("kind") or "")
    if kind not in user.kinds:
        raise HTTPException(404)
    values = {k: str(v) for k, v in form.items() if isinstance(v, str)}
    towns = towns_for(kind, user.visible_towns())
    try:
        obj = new_filing(kind, values, towns=towns, signer=user.email, today=request.app.state.today())
        request.app.state.store.import_filings([obj], by=user.email)
    except FormErrors as exc:
        return _new_page(request, user, kind, values, exc.errors, status=422)
    except PermitsError as exc:
        return _new_page(request, user, kind, values, {"": str(exc)}, status=422)
    return RedirectResponse(f"/filings/{obj['id']}", status_code=303)


@router.get("/filings/{fid}")
def filing_page(request: Request, fid: str):
    user = current_user(request)
    return _page(request, user, fid)


def _seq(form) -> int:
    text = str(form.get("seq") or "")
    if not text.isdigit():
        raise HTTPException(400, "The form has no sequence number: reload the page.")
    return int(text)


@router.post("/filings/{fid}/events")
async def record_event(request: Request, fid: str):
    user = current_user(request)
    summary = _visible(request, user, fid)
    form = await checked_form(request)
    values = {k: str(v) for k, v in form.items() if isinstance(v, str)}
    etype = values.get("type", "")
    try:
        raw = event_json(summary.kind, etype, values)
        request.app.state.store.record(fid, raw, by=user.email, expect_seq=_seq(form), today=request.app.state.today())
    except FormErrors as exc:
        return _page(
            request, user, fid, error="Check the fields marked.", field_errors=exc.errors, values=values, status=422, event=etype
        )
    except StaleFiling as exc:
        return _page(request, user, fid, error=str(exc), status=409, event=etype)
    except PermitsError as exc:
        return _page(request, user, fid, error=str(exc), values=values, status=422, event=etype)
    return RedirectResponse(f"/filings/{fid}#timeline", status_code=303)


@router.post("/filings/{fid}/void")
async def void_event(request: Request, fid: str):
    user = current_user(request)
    _visible(request, user, fid)
    form = await checked_form(request)
    reason = str(form.get("reason") or "").strip()
    target = str(form.get("voids") or "")
    if not reason or not target.isdigit():
        return _page(request, user, fid, error="To void an event, choose it and say why.", status=422)
    try:
        request.app.state.store.void(
            fid, int(target), reason=reason[:500], day=request.app.state.today(), by=user.email, expect_seq=_seq(form)
        )
    except PermitsError as exc:
        return _page(request, user, fid, error=str(exc), status=409 if isinstance(exc, StaleFiling) else 422)
    return RedirectResponse(f"/filings/{fid}#timeline", status_code=303)


@router.post("/filings/{fid}/abutters")
async def upload_abutters(request: Request, fid: str):
    from notices.abutters import parse_abutters

    user = current_user(request)
    _visible(request, user, fid)
    form = await checked_form(request)
    seq, version = _seq(form), form.get("abutters_version")
    if not isinstance(version, str):
        raise HTTPException(400, "The form has no abutter list version: reload the page.")
    upload = form.get("csv")
    if upload is None or isinstance(upload, str):
        return _page(request, user, fid, error="Choose the assessors' abutter list (a CSV file).", status=422)
    data = await upload.read(MAX_UPLOAD + 1)
    if len(data) > MAX_UPLOAD:
        return _page(request, user, fid, error="The abutter list is over 2 MB: is it the right file?", status=422)
    try:
        parties = parse_abutters(data.decode("utf-8-sig"), "the uploaded abutter list")
    except UnicodeDecodeError:
        return _page(request, user, fid, error="The abutter list is not UTF-8 text: save it as CSV (UTF-8).", status=422)
    except PermitsError as exc:
        return _page(request, user, fid, error=str(exc), status=422)
    rows = [
        {"name": p.name, "address": f"{p.street}, {p.city}, {p.state} {p.zip}", "parcel": ", ".join(p.parcels) or None}
        for p in parties
    ]
    try:
        workbench.replace_abutters(request.app.state.store, fid, rows, expect_seq=seq, expect_version=version)
    except StaleFiling as exc:
        return _page(request, user, fid, error=str(exc), status=409)
    return RedirectResponse(f"/filings/{fid}#abutters", status_code=303)


def _produce(request: Request, user: User, fid: str, kind: str, fmt: str):
    from notices.service import produce

    store = request.app.state.store
    _visible(request, user, fid)
    filing, _ = store.load(fid)
    result = store.replayer(filing, request.app.state.today())
    dated = _now(request)
    return filing, produce(filing, result, kind, abutters=_abutter_parties(store, fid), fmt=fmt, dated=dated), dated


@router.get("/filings/{fid}/notices/{kind}")
def preview_notice(request: Request, fid: str, kind: str):
    user = current_user(request)
    try:
        _, outputs, _ = _produce(request, user, fid, kind, "html")
    except PermitsError as exc:
        return _page(request, user, fid, error=str(exc), status=422)
    return HTMLResponse(
        str(outputs[0].content), headers={"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"}
    )


@router.post("/filings/{fid}/notices/{kind}")
async def download_notice(request: Request, fid: str, kind: str):
    from notices.service import check_not_sent, record_sent
    from notices.store_log import StoreNoticeLog

    user = current_user(request)
    form = await checked_form(request)
    try:
        filing, outputs, dated = _produce(request, user, fid, kind, "pdf")
        log = StoreNoticeLog(request.app.state.store)
        if not form.get("again"):
            check_not_sent(log, fid, outputs)
    except PermitsError as exc:
        return _page(request, user, fid, error=str(exc), status=422)
    pdf = outputs[0]
    record_sent(log, fid, outputs, dated, [o.filename for o in outputs])
    return Response(
        pdf.content, media_type=pdf.media_type, headers={"Content-Disposition": f'attachment; filename="{pdf.filename}"'}
    )
