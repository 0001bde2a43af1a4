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

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from models.errors import StaleFiling, UnknownFiling
from models.handle import Store
from models.read import workbench
from models.types import User
from notices.log import WAYS
from workflows.errors import PermitsError
from workflows.filing import VOID
from workflows.ids import BadFilingId, check_filing_id

from ..bodies import AbutterListForm, PostedForm, seq_of
from ..deps import StaffUser, StoreDep, Today, WebContext, WebDep
from ..forms import APPLICANT_TYPES, KIND_LABELS, FormErrors
from ..refusals import refusal
from ..render import render
from ..values import day, whole_number
from .forms import NEW_FILING_FIELDS, event_json, form_defaults, new_filing, offered_fields, towns_for

__all__ = ["router", "visible_filing", "filing_page_response"]

router = APIRouter()


def visible_filing(store: Store, user: User, fid: str) -> workbench.FilingSummary:
    """The filing ``fid`` if the user's role and towns cover it; any other
    id (unknown, malformed, another town's) is the same 404."""
    try:
        summary = workbench.summary(store, check_filing_id(fid))
    except (BadFilingId, UnknownFiling):
        raise HTTPException(404) from None
    if not user.may_see(summary.town, summary.kind):
        raise HTTPException(404)
    return summary


def filing_page_response(
    request: Request, web: WebContext, user: User, fid: str, *, error=None, field_errors=None, values=None, status=200, event=None
):
    """The filing's page, with ``error`` (a refusal: an exception is said in
    people's words, web/refusals.py) and
    the form's ``values`` and ``field_errors`` when a post was refused."""
    from services.notice_log import StoreNoticeLog
    from services.notices import fitting_notices
    from workflows.offered import offers

    store = web.store
    summary = visible_filing(store, user, fid)
    if isinstance(error, PermitsError):  # a refusal, said in people's words
        error = refusal(error, summary.kind)
    filing, _ = store.load(fid)
    as_of, now = web.today(), web.now()
    result = store.replayer(filing, as_of)
    history = store.history(fid)
    reasons = {h["raw"].get("voids"): h["raw"].get("reason") for h in history if h["type"] == VOID}
    # only the events the machine would take today (workflows/offered.py), each with the choices that fit
    offered = {o.event: o for o in offers(filing, as_of, now, [c.id for c in result.clocks])}
    allowed = list(offered)
    event = event if event is not None else request.query_params.get("event")
    if event not in allowed:
        event = None
    fields = offered_fields(filing.kind, event, offered[event]) if event else []
    defaults = form_defaults(fields, as_of, now)
    unnoticed_needed = False
    if event == "hearing-opened":  # by default, the latest session the hearing was noticed for, if it has come
        from workflows.meetings import noticed_sessions

        come = [d for d in noticed_sessions(filing) if d <= as_of]
        if come:
            defaults["date"] = come[-1].isoformat()
        unnoticed_needed = not come  # a day no session was noticed for is confirmed (M.G.L. c.30A §20(b))
    abutter_list = workbench.abutters(store, fid)
    notices = fitting_notices(filing, result, abutter_list=bool(abutter_list))
    # a notice mailed to each abutter waits for the abutter list, and says so
    waiting = [k for k in fitting_notices(filing, result) if k not in notices]
    from workflows.clock_rows import nearest_open, one_row_per_act
    from workflows.docket import is_optional

    from .submission_view import documents_context

    ctx = {
        "s": summary,
        "filing": filing,
        "result": result,
        "history": history,
        "reasons": reasons,
        "allowed": allowed,
        "event": event,
        "fields": fields,
        "defaults": defaults,
        "unnoticed_needed": unnoticed_needed,
        "clock_ids": [c.id for c in result.clocks],
        "notices": notices,
        "waiting_notices": waiting,
        "ways": WAYS,
        "abutters": abutter_list,
        "abutters_version": workbench.abutters_version(abutter_list),
        "sent": StoreNoticeLog(store).sendings(fid),
        "error": error,
        "field_errors": field_errors or {},
        "values": values or {},
        "heard_under": _heard_under(filing),
        "kind_label": KIND_LABELS[filing.kind],
        "clock_rows": one_row_per_act(result.clocks),
        "next_clock": nearest_open(result.clocks, lambda cid: is_optional(filing.town, filing.kind, cid)),
        **documents_context(web.uploads, filing, notices, abutter_list),
    }
    from .parcel_facts import parcel_context

    ctx.update(parcel_context(store, web.settings, summary))  # its parcel, where its abutter list came from
    from .deposit_pages import ledger_section

    ctx["ledger"] = ledger_section(store, fid, filing.kind)  # a street opening's fees and deposit
    from workflows.certificates import certificate_lines
    from workflows.replay import live_events

    ctx["certificates"] = certificate_lines(filing.kind, live_events(filing))  # what a Certificate closed, its recording
    ctx["photos"] = web.uploads.of_filing(fid, "photo")  # its inspections' photos
    from ..fee_view import fee_section

    ctx.update(fee=fee_section(store, filing), fee_form=True, fee_seq=summary.last_seq)  # the fee, its payments and the form
    return render(request, "staff/filing.html", ctx, user=user, status=status)


def _heard_under(filing) -> str:
    """The laws the filing is heard under, in words, with the reason it is
    heard under the by-law alone when it is ("" where only the town's rules
    apply to the kind and it names no other)."""
    from workflows.jurisdictions import act_applies, bylaw_only_reason, laws_heard_under

    laws = laws_heard_under(filing.town, filing.kind, filing.also)
    if act_applies(filing.town, filing.kind) and "wpa" not in filing.also:
        reason = bylaw_only_reason(filing.extra)
        return f"the {laws} alone" + (f", for this reason: {reason}" if reason else "")
    return f"the {laws}" if filing.also or act_applies(filing.town, filing.kind) else ""


@router.get("/filings/new")
def new_form(request: Request, user: StaffUser, kind: str = ""):
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
    return render(request, "staff/new_filing.html", ctx, user=user, status=status)


@router.post("/filings/new")
def new_submit(request: Request, user: StaffUser, form: PostedForm, store: StoreDep, today: Today):
    from services.numbering import file_new

    kind = str(form.get("kind") or "")
    if kind not in user.kinds:
        raise HTTPException(404)
    values = {k: str(v) for k, v in form.items() if isinstance(v, str)}
    towns = towns_for(kind, user.visible_towns())
    try:
        obj = new_filing(kind, values, towns=towns, today=today, by=user.email)
        filing_id = file_new(store, obj, by=user.email)
    except FormErrors as exc:
        return _new_page(request, user, kind, values, exc.errors, status=422)
    except PermitsError as exc:
        return _new_page(request, user, kind, values, {"": refusal(exc, kind)}, status=422)
    return RedirectResponse(f"/filings/{filing_id}", status_code=303)


@router.get("/filings/{fid}")
def filing_page(request: Request, fid: str, user: StaffUser, web: WebDep):
    return filing_page_response(request, web, user, fid)


@router.post("/filings/{fid}/events")
def record_event_form(request: Request, fid: str, user: StaffUser, form: PostedForm, web: WebDep):
    from services.record import record_event

    summary = visible_filing(web.store, user, fid)
    values = {k: str(v) for k, v in form.items() if isinstance(v, str)}
    etype = values.get("type", "")
    try:
        raw = event_json(summary.kind, etype, values)
        record_event(
            web.store,
            fid,
            raw,
            by=user.email,
            today=web.today(),
            now=web.now(),
            mail_from=web.settings.mail_from,
            expect_seq=seq_of(form),
            unnoticed=bool(form.get("unnoticed")),
        )
    except FormErrors as exc:
        return filing_page_response(
            request,
            web,
            user,
            fid,
            error="Check the fields marked.",
            field_errors=exc.errors,
            values=values,
            status=422,
            event=etype,
        )
    except StaleFiling as exc:
        return filing_page_response(request, web, user, fid, error=exc, status=409, event=etype)
    except PermitsError as exc:
        return filing_page_response(request, web, user, fid, error=exc, values=values, status=422, event=etype)
    return RedirectResponse(f"/filings/{fid}#timeline", status_code=303)


@router.post("/filings/{fid}/void")
def void_event_form(request: Request, fid: str, user: StaffUser, form: PostedForm, web: WebDep):
    from services.record import void_event

    visible_filing(web.store, user, fid)
    reason = str(form.get("reason") or "").strip()
    try:
        target = whole_number(str(form.get("voids") or ""), 1)
    except ValueError:
        target = None
    if not reason or target is None:
        return filing_page_response(request, web, user, fid, error="To void an event, choose it and say why.", status=422)
    today = web.today()
    try:
        void_event(web.store, fid, target, reason=reason, day=today, by=user.email, today=today, expect_seq=seq_of(form))
    except PermitsError as exc:
        return filing_page_response(request, web, user, fid, error=exc, status=409 if isinstance(exc, StaleFiling) else 422)
    return RedirectResponse(f"/filings/{fid}#timeline", status_code=303)


@router.post("/filings/{fid}/abutters")
def upload_abutters(request: Request, fid: str, user: StaffUser, form: AbutterListForm, web: WebDep):
    from services.abutters import MAX_LIST_BYTES, upload_abutter_list

    visible_filing(web.store, user, fid)
    seq, version = seq_of(form), form.get("abutters_version")
    if not isinstance(version, str):
        raise HTTPException(400, "The form has no abutter list version: reload the page.")
    upload = form.get("csv")
    if upload is None or isinstance(upload, str):
        return filing_page_response(request, web, user, fid, error="Choose the assessors' abutter list (a CSV file).", status=422)
    data = upload.file.read(MAX_LIST_BYTES + 1)
    try:
        upload_abutter_list(
            web.store,
            fid,
            data,
            (upload.filename or "upload.csv")[:120],
            expect_seq=seq,
            expect_version=version,
            by=user.email,
        )
    except StaleFiling as exc:
        return filing_page_response(request, web, user, fid, error=exc, status=409)
    except PermitsError as exc:
        return filing_page_response(request, web, user, fid, error=exc, status=422)
    return RedirectResponse(f"/filings/{fid}#abutters", status_code=303)


@router.get("/filings/{fid}/notices/{kind}")
def preview_notice(request: Request, fid: str, kind: str, user: StaffUser, web: WebDep):
    """The notice as HTML, as it would be (or was) sent: nothing recorded."""
    from services.abutters import stored_abutters
    from services.notice_log import StoreNoticeLog
    from services.notices import render_notice

    store = web.store
    visible_filing(store, user, fid)
    try:
        filing, _ = store.load(fid)
        _, _, outputs, _ = render_notice(
            filing,
            kind,
            as_of=web.today(),
            now=web.now(),
            fmt="html",
            abutters=stored_abutters(store, fid),
            log=StoreNoticeLog(store),
        )
    except PermitsError as exc:
        return filing_page_response(request, web, user, fid, error=exc, status=422)
    return HTMLResponse(
        str(outputs[0].content), headers={"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"}
    )


@router.post("/filings/{fid}/notices/{kind}")
def download_notice(request: Request, fid: str, kind: str, user: StaffUser, form: PostedForm, web: WebDep):
    """The notice as PDF, to print or send: nothing recorded (producing a
    letter is not sending it; :func:`record_notice_sent` is).  A notice
    recorded as sent is the letter as it was sent, dated then."""
    from services.abutters import stored_abutters
    from services.notice_log import StoreNoticeLog
    from services.notices import render_notice

    store = web.store
    visible_filing(store, user, fid)
    try:
        filing, _ = store.load(fid)
        _, _, outputs, _ = render_notice(
            filing,
            kind,
            as_of=web.today(),
            now=web.now(),
            fmt="pdf",
            abutters=stored_abutters(store, fid),
            log=StoreNoticeLog(store),
        )
    except PermitsError as exc:
        return filing_page_response(request, web, user, fid, error=exc, status=422)
    pdf = outputs[0]
    return Response(
        pdf.content, media_type=pdf.media_type, headers={"Content-Disposition": f'attachment; filename="{pdf.filename}"'}
    )


@router.post("/filings/{fid}/notices/{kind}/sent")
def record_notice_sent(request: Request, fid: str, kind: str, user: StaffUser, form: PostedForm, web: WebDep):
    """Record that the notice went, on the day and in the way the form
    says, to all its recipients (a second sending only when asked for)."""
    from services.notices import record_sent

    visible_filing(web.store, user, fid)
    today = web.today()
    try:
        on = day(str(form.get("on"))) if form.get("on") else today
    except ValueError as exc:
        return filing_page_response(request, web, user, fid, error=f"The day it was sent: {exc}.", status=422)
    try:
        record_sent(
            web.store,
            fid,
            kind,
            how=str(form.get("how") or ""),
            on=on,
            by=user.email,
            again=bool(form.get("again")),
            as_of=today,
            now=web.now(),
        )
    except PermitsError as exc:
        return filing_page_response(request, web, user, fid, error=exc, status=422)
    return RedirectResponse(f"/filings/{fid}#sent", status_code=303)
