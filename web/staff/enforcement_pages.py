"""Enforcement in the workbench: the cases of the user's towns with what
they have due, opening a case on a violation (on a filing or at a site),
one case's page (its steps, tickets and fines, clocks with their rules and
notices), and the posts that record each step through
:mod:`services.enforcement`, the functions ``permits enforcement`` calls.

Enforcement is the conservation office's: a user sees a case when their
role and towns cover the town's wetlands filings (:meth:`User.may_see` of
an NOI there); anyone else, and any unknown or malformed case id, gets the
same 404.  Every post carries the CSRF token and the case's sequence number
as the page saw it; a refusal is shown on the page in the rule's words, with
nothing written.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from models.errors import StaleFiling, UnknownCase, UnknownFiling
from models.handle import Store
from models.read.enforcement import EnforcementRecord
from models.types import User
from services.enforcement import STEPS
from workflows.errors import PermitsError
from workflows.event_fields import ENFORCEMENT
from workflows.ids import BadFilingId, check_filing_id
from workflows.towns import registry

from ..bodies import PostedForm, seq_of
from ..deps import Now, StaffUser, StoreDep, Today
from ..forms import FormErrors
from ..refusals import refusal
from ..render import render
from ..values import day as read_day
from ..values import whole_number
from .enforcement_words import CLOCK_LABELS, STATE_LABELS, STEP_LABELS
from .forms import event_fields, event_json

__all__ = ["router", "visible_case", "enforcement_docket", "keeps_enforcement"]

router = APIRouter()
#: the kind whose visibility stands for the conservation office's
CONSERVATION = "noi"

#: the steps the generic form records: services.enforcement.STEPS, the
#: first (a violation observed, which opens a case) offered last on an open case
OTHER_STEPS = (*STEPS[1:], STEPS[0])


def _may_enforce(user: User, town_id: str) -> bool:
    return user.may_see(town_id, CONSERVATION)


def _towns(user: User) -> list[str]:
    """The user's towns with a fine schedule (a by-law to open a case under)."""
    known = registry()
    return [t for t in user.visible_towns() if t in known and known[t].fines and _may_enforce(user, t)]


def keeps_enforcement(user: User) -> bool:
    """Whether the user may open the enforcement pages (a case, a new one)."""
    return bool(_towns(user))


def _enforcer(user: User) -> User:
    """The staff user, if they keep enforcement in a town (else 404)."""
    if not _towns(user):
        raise HTTPException(404)
    return user


def visible_case(store: Store, user: User, cid: str):
    """The case ``cid`` and its row, if the user may see its town; any other
    id (unknown, malformed, another town's) is the same 404."""
    try:
        case, row = EnforcementRecord(store).load(check_filing_id(cid))
    except (BadFilingId, UnknownCase):
        raise HTTPException(404) from None
    if not _may_enforce(user, case.town):
        raise HTTPException(404)
    return case, row


def enforcement_docket(store: Store, user: User, as_of: date, within: int) -> list[dict]:
    """What the enforcement cases of the user's towns have due within
    ``within`` days (overdue ones and violations included), for the Today
    page; [] for a user who keeps no enforcement."""
    towns = _towns(user)
    if not towns:
        return []
    return EnforcementRecord(store).docket(as_of=as_of, within=within, towns=towns)


@router.get("/enforcement")
def cases(request: Request, staff: StaffUser, store: StoreDep, today: Today):
    user = _enforcer(staff)
    record = EnforcementRecord(store)
    filing = request.query_params.get("filing") or None
    if filing is not None:
        try:
            check_filing_id(filing)
        except BadFilingId:
            raise HTTPException(404) from None
    towns = _towns(user)
    rows = record.cases(towns=towns, filing=filing)
    docket = record.docket(as_of=today, within=14, towns=towns)
    ctx = {"rows": rows, "docket": docket, "filing": filing, "states": STATE_LABELS, "clock_labels": CLOCK_LABELS}
    return render(request, "staff/enforcement_list.html", ctx, user=user)


def _new_page(request, user, values, errors, status=200):
    towns = _towns(user)
    schedules = [(t, s.id, s.bylaw) for t in towns for s in registry()[t].fines.values()]
    ctx = {"values": values, "errors": errors, "towns": towns, "schedules": schedules}
    return render(request, "staff/enforcement_new.html", ctx, user=user, status=status)


@router.get("/enforcement/new")
def new_form(request: Request, staff: StaffUser, store: StoreDep, today: Today):
    user = _enforcer(staff)
    values = {}
    filing = request.query_params.get("filing")
    if filing:
        from .filing_pages import visible_filing

        summary = visible_filing(store, user, filing)
        values = {"filing": summary.id, "town": summary.town, "address": summary.address or "", "parcel": summary.parcel or ""}
        values["violator"] = summary.applicant or ""
        violation = request.query_params.get("violation")
        if violation:
            values.update(_from_violation(store, summary, violation, today))
    return _new_page(request, user, values, {})


def _from_violation(store: Store, summary, clock_id: str, today: date) -> dict:
    """The case form's fields filled from a violation on the filing's
    record (the clock ``clock_id`` the replay found violated): the by-law
    its town fines under, the rule as the provision, the act seen and its
    day.  {} when the filing has no such violation today."""
    from workflows.before_work import WORK
    from workflows.replay import live_events
    from workflows.violations import VIOLATIONS
    from workflows.vocabulary import clock_name, event_name
    from workflows.written import day_written

    filing, _ = store.load(summary.id)
    clock = store.replayer(filing, today).clock(clock_id)
    if clock is None or clock.status not in VIOLATIONS:
        return {}
    act = next((e for e in live_events(filing) if e.type in WORK and e.date >= clock.date), None)
    day = act.date if act is not None else clock.date
    seen = f"{event_name(filing.kind, act.type)} on {day_written(day)}" if act is not None else day_written(day)
    what = act.get("what") if act is not None else None
    out = {
        "provision": clock.rule,
        "description": f"{clock_name(clock.id)}: {seen}" + (f" ({what})" if what else ""),
        "date": day.isoformat(),
    }
    bylaw = "stormwater" if filing.kind == "land-disturbance" else "wetlands"
    if bylaw in registry()[filing.town].fines:
        out["bylaw"] = bylaw
    return out


@router.post("/enforcement/new")
def new_submit(request: Request, staff: StaffUser, form: PostedForm, store: StoreDep, today: Today):
    from services.enforcement import open_case

    user = _enforcer(staff)
    v = {
        k: str(form.get(k) or "").strip()
        for k in ("town", "bylaw", "violator", "provision", "description", "date", "filing", "address", "parcel")
        + tuple(f"violator_{p}" for p in _ADDRESS_PARTS)
    }
    errors = {k: "required" for k in ("town", "bylaw", "violator", "provision", "description", "date") if not v[k]}
    if v["town"] and v["town"] not in _towns(user):
        errors["town"] = f"choose one of: {', '.join(_towns(user))}"
    try:
        day = read_day(v["date"]) if v["date"] else None
    except ValueError:
        errors["date"], day = "a date, YYYY-MM-DD", None
    try:
        violator_address = _address(form, "violator", required=False)
    except FormErrors as exc:
        errors.update(exc.errors)
        violator_address = None
    if errors:
        return _new_page(request, user, v, errors, status=422)
    if v["filing"]:  # a filing outside the user's towns is not found, as its page is: ids cannot be probed
        from .filing_pages import visible_filing

        visible_filing(store, user, v["filing"])
    try:
        opened = open_case(
            store,
            town_id=v["town"],
            bylaw=v["bylaw"],
            violator=v["violator"],
            provision=v["provision"],
            description=v["description"],
            day=day,
            by=user.email,
            today=today,
            filing=v["filing"] or None,
            address=v["address"] or None,
            parcel=v["parcel"] or None,
            violator_address=violator_address,
        )
    except UnknownFiling:
        return _new_page(request, user, v, {"filing": "no such filing of your towns"}, status=422)
    except PermitsError as exc:
        return _new_page(request, user, v, {"": refusal(exc)}, status=422)
    return RedirectResponse(f"/enforcement/{opened.case}", status_code=303)


def case_page(
    request: Request,
    store: Store,
    today: date,
    user: User,
    cid: str,
    *,
    error=None,
    field_errors=None,
    values=None,
    status=200,
    step=None,
):
    """The case's page as of ``today``, with ``error`` (a refusal in the
    rule's words) and the form's ``values`` and ``field_errors`` when a post
    was refused."""
    from notices.enforcement import fitting_case_notices
    from workflows.enforcement_replay import replay_case

    case, row = visible_case(store, user, cid)
    record = EnforcementRecord(store)
    replay = replay_case(case, today)
    step = step if step is not None else request.query_params.get("step")
    if step not in OTHER_STEPS:
        step = None
    schedule = registry()[case.town].fine_schedule(case.bylaw)
    ctx = {
        "case": case,
        "row": row,
        "replay": replay,
        "history": record.history(cid),
        "schedule": schedule,
        "labels": STEP_LABELS,
        "clock_labels": CLOCK_LABELS,
        "states": STATE_LABELS,
        "steps": OTHER_STEPS,
        "step": step,
        "fields": [f for f in event_fields(ENFORCEMENT, step) if f.name != "date"] if step else [],
        "notices": fitting_case_notices(case, replay),
        "error": error,
        "field_errors": field_errors or {},
        "values": values or {},
    }
    return render(request, "staff/enforcement_case.html", ctx, user=user, status=status)


@router.get("/enforcement/{cid}")
def case_view(request: Request, cid: str, staff: StaffUser, store: StoreDep, today: Today):
    return case_page(request, store, today, _enforcer(staff), cid)


def _seq(form) -> int:
    return seq_of(form)


def _date(form, name: str = "date") -> date:
    try:
        return read_day(str(form.get(name) or ""))
    except ValueError:
        raise FormErrors({name: "a date, YYYY-MM-DD"}) from None


def _lines(text) -> list[str]:
    return [line.strip() for line in str(text or "").splitlines() if line.strip()]


_ADDRESS_PARTS = ("street", "city", "state", "zip")


def _address(form, prefix: str, *, required: bool) -> dict[str, str] | None:
    """The mailing address the form gives (``{prefix}_street``... ), None
    when it gives none and none is ``required``; FormErrors naming each
    part missing or malformed (the service checks it again)."""
    parts = {k: str(form.get(f"{prefix}_{k}") or "").strip() for k in _ADDRESS_PARTS}
    if not any(parts.values()) and not required:
        return None
    errors = {f"{prefix}_{k}": "required" for k, v in parts.items() if not v}
    if parts["state"] and not re.fullmatch(r"[A-Za-z]{2}", parts["state"]):
        errors[f"{prefix}_state"] = "two letters, e.g. MA"
    if parts["zip"] and not re.fullmatch(r"\d{5}(-\d{4})?", parts["zip"]):
        errors[f"{prefix}_zip"] = "a ZIP code such as 02021"
    if errors:
        if required and not any(parts.values()):
            errors = {f"{prefix}_street": "a ticket that is mailed goes to the violator's mailing address (M.G.L. c.40 §21D)"}
        raise FormErrors(errors)
    return parts


def _post(request: Request, store: Store, today: date, staff: User, cid: str, form, action):
    """Check the user keeps enforcement, the case's scope and the form, run
    ``action(form, store, user, today)`` and go back to the case; a refusal
    is the page with the rule's words and nothing written."""
    user = _enforcer(staff)
    visible_case(store, user, cid)
    values = {k: str(v) for k, v in form.items() if isinstance(v, str)}
    try:
        action(form, store, user, today)
    except FormErrors as exc:
        return case_page(
            request,
            store,
            today,
            user,
            cid,
            error="Check the fields marked.",
            field_errors=exc.errors,
            values=values,
            status=422,
            step=values.get("type"),
        )
    except StaleFiling as exc:
        return case_page(request, store, today, user, cid, error=refusal(exc), status=409)
    except PermitsError as exc:
        return case_page(request, store, today, user, cid, error=refusal(exc), values=values, status=422, step=values.get("type"))
    return RedirectResponse(f"/enforcement/{cid}#history", status_code=303)


@router.post("/enforcement/{cid}/notice")
def notice_post(request: Request, cid: str, staff: StaffUser, form: PostedForm, store: StoreDep, today: Today):
    from services.enforcement import notice_violation

    def act(form, store, user, today):
        notice_violation(
            store,
            cid,
            day=_date(form),
            delivered=str(form.get("delivered") or "") or None,
            by=user.email,
            today=today,
            expect_seq=_seq(form),
        )

    return _post(request, store, today, staff, cid, form, act)


@router.post("/enforcement/{cid}/order")
def order_post(request: Request, cid: str, staff: StaffUser, form: PostedForm, store: StoreDep, today: Today):
    from services.enforcement import issue_order

    def act(form, store, user, today):
        requires = _lines(form.get("requires"))
        if not requires:
            raise FormErrors({"requires": "say what the Order requires, one line each"})
        issue_order(
            store,
            cid,
            day=_date(form),
            comply_by=_date(form, "comply_by"),
            requires=requires,
            by=user.email,
            today=today,
            expect_seq=_seq(form),
        )

    return _post(request, store, today, staff, cid, form, act)


@router.post("/enforcement/{cid}/tickets")
def tickets_post(request: Request, cid: str, staff: StaffUser, form: PostedForm, store: StoreDep, today: Today):
    from datetime import timedelta

    from services.enforcement import issue_tickets

    def act(form, store, user, today):
        provisions = _lines(form.get("provisions"))
        if not provisions:
            raise FormErrors({"provisions": "name the provision violated, one line each"})
        first = _date(form, "first_day")
        last = _date(form, "last_day") if form.get("last_day") else first
        if last < first or (last - first).days > 366:
            raise FormErrors({"last_day": f"a day from {first} up to a year after it"})
        days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
        delivered = str(form.get("delivered") or "") or None
        dollars = None
        if form.get("amount"):
            try:
                dollars = whole_number(str(form.get("amount")).strip())
            except ValueError:
                raise FormErrors({"amount": "a whole number of dollars"}) from None
        issue_tickets(
            store,
            cid,
            day=_date(form),
            provisions=provisions,
            days=days,
            delivered=delivered,
            mailed_to=_address(form, "mail", required=delivered == "mailed"),
            by=user.email,
            today=today,
            expect_seq=_seq(form),
            dollars=dollars,
        )

    return _post(request, store, today, staff, cid, form, act)


@router.post("/enforcement/{cid}/steps")
def step_post(request: Request, cid: str, staff: StaffUser, form: PostedForm, store: StoreDep, today: Today):
    from services.enforcement import record_step

    def act(form, store, user, today):
        etype = str(form.get("type") or "")
        if etype not in OTHER_STEPS:
            raise FormErrors({"type": "choose the step to record"})
        values = {k: str(v) for k, v in form.items() if isinstance(v, str)}
        raw = event_json(ENFORCEMENT, etype, values)
        record_step(store, cid, raw, by=user.email, today=today, expect_seq=_seq(form))

    return _post(request, store, today, staff, cid, form, act)


@router.post("/enforcement/{cid}/void")
def void_post(request: Request, cid: str, staff: StaffUser, form: PostedForm, store: StoreDep, today: Today):
    from services.enforcement import void_step

    def act(form, store, user, today):
        try:
            target = whole_number(str(form.get("voids") or ""), 1)
        except ValueError:
            raise FormErrors({"voids": "choose the step to void"}) from None
        void_step(
            store,
            cid,
            target,
            reason=str(form.get("reason") or ""),
            day=today,
            by=user.email,
            today=today,
            expect_seq=_seq(form),
        )

    return _post(request, store, today, staff, cid, form, act)


def _notice(store: Store, today: date, now: datetime, user: User, cid: str, kind: str, fmt: str):
    """The case's notice ``kind`` rendered as ``fmt``, dated ``now``,
    nothing recorded (a PermitsError when it does not fit the case)."""
    from notices.enforcement import produce_case_notice
    from workflows.enforcement_replay import replay_case

    case, _ = visible_case(store, user, cid)
    return produce_case_notice(case, replay_case(case, today), kind, fmt=fmt, dated=now)


@router.get("/enforcement/{cid}/notices/{kind}")
def notice_preview(request: Request, cid: str, kind: str, staff: StaffUser, store: StoreDep, today: Today, now: Now):
    """The notice as HTML, as it would be sent: nothing recorded."""
    user = _enforcer(staff)
    try:
        outputs = _notice(store, today, now, user, cid, kind, "html")
    except PermitsError as exc:
        return case_page(request, store, today, user, cid, error=refusal(exc), status=422)
    return HTMLResponse(
        str(outputs[0].content), headers={"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"}
    )


@router.post("/enforcement/{cid}/notices/{kind}")
def notice_pdf(
    request: Request, cid: str, kind: str, staff: StaffUser, form: PostedForm, store: StoreDep, today: Today, now: Now
):
    user = _enforcer(staff)
    try:
        outputs = _notice(store, today, now, user, cid, kind, "pdf")
    except PermitsError as exc:
        return case_page(request, store, today, user, cid, error=refusal(exc), status=422)
    pdf = outputs[0]
    return Response(
        pdf.content, media_type=pdf.media_type, headers={"Content-Disposition": f'attachment; filename="{pdf.filename}"'}
    )
