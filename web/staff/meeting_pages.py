"""The Meetings page of a town's conservation commission: its meetings
ahead with their agendas and posting clocks, and the forms that schedule a
meeting (or a weekly run), put a filing's hearing on one, continue a
hearing to one with its time, add other business, post the meeting
(a PDF stamped with the town's wall clock, recorded as posted) and print
its agenda.  Every action is :mod:`services.meetings`'.

Who may see it: conservation staff of the town (and an admin); anyone else
gets the same 404 as for a town or meeting that does not exist.  Every post
carries the CSRF token (web/bodies.py); a refusal is shown on the page in
the rule's words, with nothing written.
"""

from __future__ import annotations

from datetime import date, datetime

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from config import Settings
from models.errors import UnknownFiling, UnknownMeeting
from models.handle import Store
from models.types import User
from workflows.errors import PermitsError
from workflows.ids import BadFilingId, check_filing_id

from ..bodies import PostedForm
from ..deps import Now, SettingsDep, StaffUser, StoreDep, Today
from ..refusals import refusal
from ..render import render
from ..values import moment, number_or, whole_number

__all__ = ["router"]

router = APIRouter()
_KIND = "noi"  # the commission's permits: who may see one sees its meetings


def _town(user: User, town: str) -> str:
    if not town or town not in user.visible_towns() or not user.may_see(town, _KIND):
        raise HTTPException(404)
    return town


def _meeting(store: Store, user: User, mid: int):
    from services.meetings import meeting_view

    try:
        view = meeting_view(store, mid)
    except UnknownMeeting:
        raise HTTPException(404) from None
    _town(user, view.meeting.town)
    return view


def _mid(text: str) -> int:
    try:
        return whole_number(text, 1, 2**31 - 1)
    except ValueError:
        raise HTTPException(404) from None


def _page(request: Request, store: Store, today: date, user: User, town: str, *, error: str = "", status: int = 200):
    from services.meetings import board_of, meetings_view

    _, office = board_of(town)
    ctx = {
        "town": town,
        "towns": [t for t in user.visible_towns() if user.may_see(t, _KIND)],
        "board": office.name,
        "place": office.meeting_place,
        "views": meetings_view(store, town, since=today),
        "error": error,
    }
    return render(request, "staff/meetings.html", ctx, user=user, status=status)


@router.get("/meetings")
def meetings_page(request: Request, user: StaffUser, store: StoreDep, today: Today, town: str = ""):
    if not town:
        towns = [t for t in user.visible_towns() if user.may_see(t, _KIND)]
        if not towns:
            raise HTTPException(404)
        return RedirectResponse(f"/meetings?town={towns[0]}", status_code=303)
    return _page(request, store, today, user, _town(user, town))


@router.post("/meetings")
def schedule(request: Request, user: StaffUser, form: PostedForm, store: StoreDep, today: Today):
    from services.meetings import schedule_meetings

    town = _town(user, str(form.get("town") or ""))
    try:
        first = moment(str(form.get("at") or ""))
        every = number_or(str(form.get("every_weeks") or ""), 0, 0, 4)
        count = number_or(str(form.get("count") or ""), 1, 1, 26)
    except ValueError as exc:
        return _page(request, store, today, user, town, error=f"The meeting's date and time: {exc}.", status=422)
    try:
        schedule_meetings(
            store,
            town=town,
            first=first,
            every_weeks=every,
            count=count,
            place=str(form.get("place") or ""),
            by=user.email,
            today=today,
        )
    except PermitsError as exc:
        return _page(request, store, today, user, town, error=refusal(exc), status=422)
    return RedirectResponse(f"/meetings?town={town}", status_code=303)


def _filing(form) -> str | None:
    try:
        return check_filing_id(str(form.get("filing") or "").strip())
    except BadFilingId:
        return None


def _word(now: datetime, settings: Settings) -> dict:
    """The moment and the sender of the applicant's email of the hearing."""
    return {"now": now, "mail_from": settings.mail_from}


@router.post("/meetings/{mid}/hear")
def hear(
    request: Request,
    mid: str,
    user: StaffUser,
    form: PostedForm,
    store: StoreDep,
    today: Today,
    now: Now,
    settings: SettingsDep,
):
    from services.meetings import hear_at_meeting

    view = _meeting(store, user, _mid(mid))
    return _act(
        request,
        store,
        today,
        user,
        view,
        form,
        lambda store, fid, today: hear_at_meeting(
            store, view.meeting.id, fid, by=user.email, today=today, **_word(now, settings)
        ),
    )


@router.post("/meetings/{mid}/continue")
def continue_to(
    request: Request,
    mid: str,
    user: StaffUser,
    form: PostedForm,
    store: StoreDep,
    today: Today,
    now: Now,
    settings: SettingsDep,
):
    from services.meetings import continue_hearing

    view = _meeting(store, user, _mid(mid))
    text = str(form.get("time") or "")
    try:  # the session's time that evening, read as the moment of the meeting's day
        at = moment(f"{view.meeting.day.isoformat()}T{text}").time() if text else None
    except ValueError:
        return _page(
            request,
            store,
            today,
            user,
            view.meeting.town,
            error="The continued session's time: HH:MM, such as 19:30.",
            status=422,
        )

    def act(store, fid, today):
        return continue_hearing(store, fid, view.meeting.id, at=at, day=today, by=user.email, today=today, **_word(now, settings))

    return _act(request, store, today, user, view, form, act)


def _act(request, store, today, user, view, form, act):
    town = view.meeting.town
    fid = _filing(form)
    if fid is None:
        return _page(request, store, today, user, town, error="Give the filing's id, such as CAN-NOI-2026-000096.", status=422)
    try:
        summary_town_kind = store.load(fid)[0]
    except UnknownFiling:
        summary_town_kind = None
    if summary_town_kind is None or not user.may_see(summary_town_kind.town, summary_town_kind.kind):
        return _page(request, store, today, user, town, error=f"No filing {fid} among yours.", status=422)
    try:
        act(store, fid, today)
    except PermitsError as exc:
        return _page(request, store, today, user, town, error=refusal(exc), status=422)
    return RedirectResponse(f"/meetings?town={town}#meeting-{view.meeting.id}", status_code=303)


@router.post("/meetings/{mid}/business")
def business(request: Request, mid: str, user: StaffUser, form: PostedForm, store: StoreDep, today: Today):
    from services.meetings import add_business

    view = _meeting(store, user, _mid(mid))
    try:
        add_business(store, view.meeting.id, str(form.get("title") or ""))
    except PermitsError as exc:
        return _page(request, store, today, user, view.meeting.town, error=refusal(exc), status=422)
    return RedirectResponse(f"/meetings?town={view.meeting.town}#meeting-{view.meeting.id}", status_code=303)


@router.post("/meetings/{mid}/posting")
def posting(request: Request, mid: str, user: StaffUser, form: PostedForm, store: StoreDep, today: Today, now: Now):
    """The posting as PDF, stamped now (the town's wall clock) and recorded
    as posted; refused after its deadline."""
    from services.meetings import produce_posting

    view = _meeting(store, user, _mid(mid))
    try:
        name, pdf = produce_posting(store, view.meeting.id, now=now, fmt="pdf")
    except PermitsError as exc:
        return _page(request, store, today, user, view.meeting.town, error=refusal(exc), status=422)
    return Response(pdf, media_type="application/pdf", headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/meetings/{mid}/agenda.pdf")
def agenda(mid: str, user: StaffUser, store: StoreDep):
    """The agenda as it stands (as posted, when it was), as PDF; nothing recorded."""
    from services.meetings import produce_posting

    view = _meeting(store, user, _mid(mid))
    name, pdf = produce_posting(store, view.meeting.id, now=None, fmt="pdf")
    return Response(pdf, media_type="application/pdf", headers={"Content-Disposition": f'inline; filename="{name}"'})
