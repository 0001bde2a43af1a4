"""The workbench's list pages: Today (the docket, with CSV and ICS
exports), Filings (search), the DPW schedule, the rule book, the calendar
subscription and an applicant's deposit account.  Each reads one query of
:mod:`models.read.workbench` within the user's towns and kinds."""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import QueryParams

from models.handle import Store
from models.read import workbench
from models.types import User
from workflows.rulebook import KINDS
from workflows.spreadsheet import csv_text

from ..bodies import PostedForm
from ..deps import SettingsDep, StaffUser, StoreDep, Today, UsersDep
from ..render import render
from ..values import number_or
from .enforcement_words import CLOCK_LABELS

__all__ = ["router", "user_scope"]

router = APIRouter()
DEFAULT_WITHIN = 14
#: rows the Today page shows; the CSV and ICS exports hold the whole view
TODAY_ROWS = 200
CALENDAR_WITHIN = 365
#: the columns of /today.csv, written by the one CSV writer (formula-safe)
TODAY_CSV_COLUMNS = (
    "due",
    "weekday",
    "status",
    "filing",
    "town",
    "kind",
    "state",
    "site",
    "applicant",
    "clock",
    "action",
    "rule",
)
STREET = "street-opening"


def user_scope(user: User, town: str | None = None, kind: str | None = None) -> tuple[list[str] | None, list[str]]:
    """The towns (None: all) and kinds a user's query covers, narrowed by
    the page's filters; a filter outside the user's scope narrows to nothing."""
    kinds = [k for k in user.kinds if not kind or k == kind]
    towns = None if user.all_towns else list(user.towns)
    if town:
        towns = [town] if towns is None or town in towns else []
    return towns, kinds


def _docket(q: QueryParams, user: User, store: Store, as_of: date, limit: int | None = None):
    within = number_or(q.get("within"), DEFAULT_WITHIN, 0, 366)
    town, kind, status = q.get("town") or None, q.get("kind") or None, q.get("status") or None
    if status not in (None, "open", "overdue"):
        status = None
    towns, kinds = user_scope(user, town, kind)
    # in date order, overdue (before today) come first, then the soonest
    rows = workbench.docket(
        store,
        as_of=as_of,
        within=within,
        towns=towns,
        kinds=kinds,
        status=status,
        limit=limit,
        open_only=True,  # the sweep's docket: a closed filing's clocks are no task
    )
    filters = {"within": within, "town": town or "", "kind": kind or "", "status": status or ""}
    return rows, filters


@router.get("/")
def home(user: StaffUser):
    return RedirectResponse("/today", status_code=303)


@router.get("/today")
def today(request: Request, user: StaffUser, store: StoreDep, as_of: Today):
    from models.read.docket_counts import docket_counts
    from workflows.clock_rows import one_row_per_act

    rows, filters = _docket(request.query_params, user, store, as_of, limit=TODAY_ROWS + 1)
    more = len(rows) > TODAY_ROWS
    query = "&".join(f"{k}={v}" for k, v in filters.items() if v != "")
    towns, kinds = user_scope(user, filters["town"] or None, filters["kind"] or None)
    counts = docket_counts(store, as_of=as_of, within=filters["within"], towns=towns, kinds=kinds)
    ctx = {
        "rows": rows[:TODAY_ROWS],
        "acts": one_row_per_act(rows[:TODAY_ROWS], clock=lambda r: r.clock, group=lambda r: r.filing),
        "counts": counts,
        "more": more,
        "filters": filters,
        "kinds": user.kinds,
        "towns": user.visible_towns(),
        "query": query,
    }
    from models.read.submitted import submitted_filings

    from .enforcement_pages import enforcement_docket, keeps_enforcement

    to_check, sent_back = submitted_filings(store)  # online applications
    ctx["submitted"] = [r for r in to_check if user.may_see(r.town, r.kind)]
    ctx["sent_back"] = [r for r in sent_back if user.may_see(r.town, r.kind)]
    ctx["enforcement"] = enforcement_docket(store, user, as_of, filters["within"])  # the enforcement cases' own deadlines
    ctx["enforcement_clocks"] = CLOCK_LABELS
    ctx["may_enforce"] = keeps_enforcement(user)  # else a violation's row sends them to the filing, not to enforcement
    return render(request, "staff/today.html", ctx, user=user)


@router.get("/today.csv")
def today_csv(request: Request, user: StaffUser, store: StoreDep, as_of: Today):
    rows, _ = _docket(request.query_params, user, store, as_of)
    body = csv_text(
        TODAY_CSV_COLUMNS,
        (
            (r.date, r.date.strftime("%a"), r.status, r.filing, r.town, r.kind, r.state, r.address, r.applicant, r.clock)
            + (r.action, r.rule)
            for r in rows
        ),
    )
    return Response(body, media_type="text/csv", headers={"Content-Disposition": 'attachment; filename="docket.csv"'})


def _feed(user: User, rows, as_of: date) -> Response:
    from services.feeds import docket_feed

    body = docket_feed(rows, as_of, f"{user.email}")
    return Response(body, media_type="text/calendar", headers={"Content-Disposition": 'attachment; filename="docket.ics"'})


@router.get("/today.ics")
def today_ics(request: Request, user: StaffUser, store: StoreDep, as_of: Today):
    rows, _ = _docket(request.query_params, user, store, as_of)
    return _feed(user, rows, as_of)


@router.get("/filings")
def filings(request: Request, user: StaffUser, store: StoreDep):
    from models.read.filing_list import SORTS, filing_list
    from workflows.stage_choices import stage_choices

    q = request.query_params
    text, state, town, kind = q.get("q", "")[:200], q.get("state") or None, q.get("town") or None, q.get("kind") or None
    sort = q.get("sort") if q.get("sort") in SORTS else "id"
    descending = q.get("order") == "desc"
    page = number_or(q.get("page"), 1, 1, 1_000_000)
    towns, kinds = user_scope(user, town, kind)
    states = stage_choices(kinds)  # each stage once, in people's words (workflows/stage.py)
    if state not in {s for s, _ in states}:
        state = None
    listing = filing_list(
        store,
        towns=towns,
        kinds=kinds,
        text=text,
        state=state,
        sort=sort,
        descending=descending,
        page=page,
    )
    filters = {"q": text, "state": state or "", "town": town or "", "kind": kind or "", "sort": sort}
    filters["order"] = "desc" if descending else ""
    ctx = {
        "listing": listing,
        "rows": listing.rows,
        "filters": filters,
        "kinds": user.kinds,
        "towns": user.visible_towns(),
        "states": states,
        "sorts": [(key, words) for key, (words, _) in SORTS.items()],
    }
    return render(request, "staff/filings.html", ctx, user=user)


def rule_book():
    from workflows.replay import MACHINES
    from workflows.towns import registry

    towns = []
    for profile in registry().values():
        permits = []
        for kind in KINDS:
            if kind not in profile.permits:
                continue
            rules = profile.permits[kind]
            permits.append({"kind": kind, "bylaw": rules.bylaw, "clocks": [c.as_dict() for c in rules.clocks]})
        towns.append({"id": profile.id, "name": profile.name, "permits": permits})
    guards = {
        kind: [{"name": g.name.replace("_", " "), "citation": g.citation} for g in m.guards.values()]
        for kind, m in MACHINES.items()
    }
    return towns, guards


@router.get("/rules")
def rules(request: Request, user: StaffUser, store: StoreDep, today: Today):
    towns, guards = rule_book()
    ctx = {"towns": towns, "guards": guards, **fee_book(store, user, today)}
    return render(request, "staff/rules.html", ctx, user=user)


def fee_book(store: Store, user: User, today: date, *, error: str = "", values: dict | None = None) -> dict:
    """The rule book's fees that the commissions set by regulation, for the
    user's towns: each one in force today, the history of their changes
    (latest first), and, for an admin, the form that sets one."""
    from models.read.town_fees import fee_changes
    from services.fees import fee_for_kind
    from workflows.towns import registry

    settable = []
    for town_id in user.visible_towns():
        profile = registry()[town_id]
        for kind, rule in profile.fees.items():
            if rule.setting:
                fee = fee_for_kind(store, town_id, kind, on=today)
                settable.append({"town": town_id, "name": profile.name, "kind": kind, "rule": rule, "words": fee.words()})
    return {
        "fees": settable,
        "fee_changes": fee_changes(store, user.visible_towns()),
        "fee_error": error,
        "fee_values": values or {},
    }


@router.get("/calendar")
def calendar(request: Request, user: StaffUser, settings: SettingsDep):
    # the configured address (PERMITS_BASE_URL), never the request's Host header
    url = settings.base_url.rstrip("/") + f"/calendar/{user.calendar_token}.ics"
    return render(request, "staff/calendar.html", {"url": url}, user=user)


@router.post("/calendar/reset")
def calendar_reset(user: StaffUser, form: PostedForm, store: StoreDep):
    from services.users import reset_calendar_token

    reset_calendar_token(store, user.id)
    return RedirectResponse("/calendar", status_code=303)


@router.get("/calendar/{token}.ics")
def calendar_feed(token: str, users: UsersDep, store: StoreDep, as_of: Today):
    """The user's live feed: no login (calendar programs cannot), the
    secret token is the key; a reset token is a 404."""
    from services.feeds import user_feed

    user = users.by_calendar_token(token) if 16 <= len(token) <= 64 else None
    if user is None:
        raise HTTPException(404)
    towns, kinds = user_scope(user)
    body = user_feed(store, towns=towns, kinds=kinds, as_of=as_of, within=CALENDAR_WITHIN, name=user.email)
    return Response(body, media_type="text/calendar", headers={"Content-Disposition": 'attachment; filename="calendar.ics"'})
