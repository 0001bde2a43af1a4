"""The applicant's side of the workbench: my filings, apply online (with
its site picker), and each filing's status page with its notices, its
plans, the application sent back to be corrected and the renewal request.
Accepting an invitation is a step of the front door (web/account/).

An applicant is a user with the role ``applicant`` (models/accounts/applicants.py).
Every route under ``/my`` finds the filing among those the account may see
(:meth:`models.accounts.applicants.Applicants.may_see`); anything else, an unknown id,
a malformed one or another applicant's, is the same 404, and so is a plan
or a notice of such a filing.  Forms carry the CSRF token and the filing's
sequence number.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from config import Settings
from models.errors import StaleFiling, UnknownFiling, UnknownUpload, UploadRefused
from models.types import Account
from services.bootstrap import Applicants
from workflows.errors import PermitsError
from workflows.ids import BadFilingId, check_filing_id

from ..bodies import PlanForm, PostedForm, seq_of
from ..deps import Applicant, ApplicantsDep, Now, SettingsDep, StoreDep, Today, UploadsDep, WebContext, WebDep, web_context
from ..forms import APPLICANT_TYPES, KIND_LABELS, FormErrors
from ..refusals import refusal
from ..render import render
from ..site_picker import found_json
from ..values import whole_number
from .apply import application, fields_for, towns_offering

__all__ = ["router", "owned_filing", "status_page"]

router = APIRouter()


def _limits(settings: Settings):
    """The account's limits for a day (PERMITS_APPLICATIONS_PER_DAY, PERMITS_UPLOAD_MB_PER_DAY)."""
    from models.types import DailyLimits

    return DailyLimits(settings.applications_per_day, settings.upload_bytes_per_day)


def _mine(applicants: Applicants, account: Account, fid: str) -> str:
    try:
        check_filing_id(fid)
    except BadFilingId:
        raise HTTPException(404) from None
    if not applicants.may_see(account, fid):
        raise HTTPException(404)
    return fid


# -- my filings ----------------------------------------------------------------


@router.get("/my")
def my_filings(request: Request, applicant: Applicant, applicants: ApplicantsDep):
    user, account = applicant
    rows = applicants.filings_visible_to(account)
    kinds = [(k, KIND_LABELS[k]) for k in KIND_LABELS if towns_offering(k)]
    return render(request, "applicant/my_filings.html", {"rows": rows, "account": account, "kinds": kinds}, user=user)


@router.get("/my/apply")
def apply_page(request: Request, applicant: Applicant, uploads: UploadsDep, kind: str = "", town: str = ""):
    user, _ = applicant
    if kind and kind not in KIND_LABELS:
        raise HTTPException(404)
    return _apply_form(request, uploads.limit, user, kind, {"town": town}, {})


def _apply_form(request, plan_limit: int, user, kind, values, errors, status=200):
    ctx = {
        "kind": kind,
        "kind_label": KIND_LABELS.get(kind, ""),
        "kinds": [(k, KIND_LABELS[k], towns_offering(k)) for k in KIND_LABELS if towns_offering(k)],
        "towns": towns_offering(kind) if kind else [],
        "fields": fields_for(kind) if kind else [],
        "applicant_types": APPLICANT_TYPES,
        "values": values,
        "errors": errors,
        "max_mb": plan_limit // (1024 * 1024),
    }
    from ..fee_view import apply_fees

    web = web_context(request)  # the fee before submitting: the one in force today
    ctx["apply_fees"] = apply_fees(web.store, kind, ctx["towns"], on=web.today()) if kind else []
    return render(request, "applicant/apply.html", ctx, user=user, status=status)


@router.post("/my/apply/{kind}")
def apply(
    request: Request,
    kind: str,
    applicant: Applicant,
    form: PlanForm,
    store: StoreDep,
    uploads: UploadsDep,
    today: Today,
    now: Now,
    settings: SettingsDep,
):
    user, account = applicant
    if kind not in KIND_LABELS:
        raise HTTPException(404)
    values = {k: str(v) for k, v in form.items() if isinstance(v, str) and k != "csrf"}
    town = values.get("town", "")
    plan = form.get("plan")
    errors: dict[str, str] = {}
    try:
        obj = application(kind, town, values, email=account.email, today=today)
    except FormErrors as exc:
        errors.update(exc.errors)
    data, name = b"", ""
    if plan is None or isinstance(plan, str) or not plan.filename:
        errors["plan"] = "attach the plans as a PDF file"
    else:
        name, data = plan.filename, plan.file.read(uploads.limit + 1)
        try:
            uploads.check(name, data)
        except UploadRefused as exc:
            errors["plan"] = str(exc)
    if errors:
        return _apply_form(request, uploads.limit, user, kind, values, errors, status=422)
    from services.apply import apply_online

    try:
        filing_id = apply_online(
            store,
            uploads,
            account,
            obj,
            name,
            data,
            limits=_limits(settings),
            now=now,
            mail_from=settings.mail_from,
        )
    except UploadRefused as exc:
        return _apply_form(request, uploads.limit, user, kind, values, {"plan": str(exc)}, status=422)
    except PermitsError as exc:
        return _apply_form(request, uploads.limit, user, kind, values, {"": refusal(exc, kind)}, status=422)
    return RedirectResponse(f"/my/filings/{filing_id}", status_code=303)


@router.get("/my/parcels/find.json")
def find_for_applicant(applicant: Applicant, store: StoreDep, town: str = "", q: str = ""):
    """The apply form's site picker (:mod:`web.site_picker`): the parcels of
    a town that takes applications online (the assessors' records are public)."""
    if town not in {t for k in KIND_LABELS for t in towns_offering(k)}:
        raise HTTPException(404)
    return found_json(store, town, q[:200])


# -- a filing's status page ---------------------------------------------------------


def _documents(filing, result) -> list:
    """The notices the applicant may download now (:func:`services.notices.fitting_notices`)."""
    from services.notices import fitting_notices

    return fitting_notices(filing, result, for_applicant=True)


def _status(request: Request, web: WebContext, user, account: Account, fid: str, *, error=None, status=200, values=None):
    """The status page (web/applicant/status_view.py), with ``error`` (a refusal in
    the rule's words) and the correction form's ``values`` as posted."""
    from .status_view import status_context

    ctx = status_context(web.store, web.uploads, web.today(), account, fid)
    ctx["error"] = error
    if values:
        ctx["current"] = {**ctx["current"], **values}
    from ..fee_view import fee_section
    from ..inspection_request_view import request_section

    # issue 21 items 5-6: the fee and what was paid, the inspections asked for
    ctx.update(fee=fee_section(web.store, ctx["filing"]), fee_form=False, **request_section(ctx["filing"], ctx["result"].state))
    return render(request, "applicant/my_filing.html", ctx, user=user, status=status)


#: the account's filing (else 404) and its status page, for the applicant's
#: other modules' routes (web/applicant/inspection_request_pages.py)
owned_filing, status_page = _mine, _status


@router.get("/my/filings/{fid}")
def my_filing(request: Request, fid: str, applicant: Applicant, web: WebDep):
    user, account = applicant
    return _status(request, web, user, account, _mine(web.applicants, account, fid))


@router.get("/my/filings/{fid}/notices/{kind}.pdf")
def my_notice(fid: str, kind: str, applicant: Applicant, web: WebDep):
    """The applicant's copy of a notice: dated as it was sent when the town
    sent it, else now; nothing recorded."""
    from services.notice_log import StoreNoticeLog
    from services.notices import render_notice

    _, account = applicant
    _mine(web.applicants, account, fid)
    store = web.store
    filing, _ = store.load(fid)
    today = web.today()
    result = store.replayer(filing, today)
    if kind not in {k.id for k in _documents(filing, result)}:
        raise HTTPException(404)
    try:
        _, _, [pdf, *_], _ = render_notice(filing, kind, as_of=today, now=web.now(), fmt="pdf", log=StoreNoticeLog(store))
    except PermitsError:  # the town has not given all the notice needs (its conditions, its reasons)
        raise HTTPException(409, "This document is not ready yet: the town has not finished it. Try again later.") from None
    return Response(
        pdf.content, media_type="application/pdf", headers={"Content-Disposition": f'attachment; filename="{pdf.filename}"'}
    )


@router.get("/my/filings/{fid}/emails/{notice_id}.pdf")
def my_emailed_notice(fid: str, notice_id: str, applicant: Applicant, applicants: ApplicantsDep, store: StoreDep):
    """The PDF as it was emailed to this account (a decision stays
    downloadable after the filing has moved on)."""
    from email import message_from_bytes
    from email.policy import default

    from models.read.outbox import Outbox

    _, account = applicant
    _mine(applicants, account, fid)
    try:
        notice_id = whole_number(notice_id, 1)
    except ValueError:
        raise HTTPException(404) from None
    outbox = Outbox(store)
    entry = next((e for e in outbox.entries(filing_id=fid) if e.id == notice_id and e.address == account.email), None)
    if entry is None:
        raise HTTPException(404)
    message = message_from_bytes(outbox.message(notice_id) or b"", policy=default)
    pdf = next((a for a in message.iter_attachments() if a.get_content_type() == "application/pdf"), None)
    if pdf is None:
        raise HTTPException(404)
    return Response(
        pdf.get_content(),
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{fid}-{entry.kind}.pdf"'},
    )


@router.get("/my/files/{token}")
def my_file(token: str, applicant: Applicant, applicants: ApplicantsDep, uploads: UploadsDep):
    _, account = applicant
    try:
        row = uploads.find(token)
        if not applicants.may_see(account, row.filing_id):
            raise UnknownUpload()
        data = uploads.content(token)
    except UnknownUpload:
        raise HTTPException(404) from None
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": 'attachment; filename="plan.pdf"', "X-Content-Type-Options": "nosniff"},
    )


@router.post("/my/filings/{fid}/resubmit")
def resubmit(request: Request, fid: str, applicant: Applicant, form: PlanForm, web: WebDep):
    """Send an application the town found incomplete again, with a
    corrected plan if there is one and the particulars as corrected
    (fields ``c_<name>``, :data:`workflows.corrections.CORRECTABLE`;
    :func:`services.apply.resubmit`)."""
    from services.apply import NotSentBack
    from services.apply import resubmit as send_again
    from workflows.corrections import CORRECTABLE

    user, account = applicant
    _mine(web.applicants, account, fid)
    seq = seq_of(form)
    uploads = web.uploads
    plan = form.get("plan")
    data, name = b"", ""
    if plan is not None and not isinstance(plan, str) and plan.filename:
        name, data = plan.filename, plan.file.read(uploads.limit + 1)
    corrections = {n: str(form.get(f"c_{n}")) for n, _, _, _ in CORRECTABLE if isinstance(form.get(f"c_{n}"), str)}
    try:
        send_again(
            web.store,
            uploads,
            account,
            fid,
            today=web.today(),
            expect_seq=seq,
            plan_name=name,
            plan=data,
            limits=_limits(web.settings),
            corrections=corrections,
            now=web.now(),
            mail_from=web.settings.mail_from,
        )
    except NotSentBack:
        return _status(request, web, user, account, fid, error="The town has not sent this application back.", status=409)
    except PermitsError as exc:
        return _status(request, web, user, account, fid, error=refusal(exc), status=422, values=corrections)
    return RedirectResponse(f"/my/filings/{fid}", status_code=303)


@router.post("/my/filings/{fid}/renewal")
def ask_renewal(request: Request, fid: str, applicant: Applicant, form: PostedForm, web: WebDep):
    from services.apply import ask_renewal as ask

    user, account = applicant
    _mine(web.applicants, account, fid)
    seq = seq_of(form)
    try:
        ask(web.store, account, fid, today=web.today(), expect_seq=seq)
    except (StaleFiling, UnknownFiling, PermitsError) as exc:
        return _status(request, web, user, account, fid, error=refusal(exc), status=422)
    return RedirectResponse(f"/my/filings/{fid}", status_code=303)
