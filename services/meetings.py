"""A commission's meetings: schedule one (or a run of them, every week or
two), put a filing's hearing on a meeting's agenda, continue a hearing to a
later meeting with its time, add other business, and produce the meeting's
Open Meeting Law posting listing all of it.  ``permits meetings ...`` and
the workbench's Meetings page (web/meeting_pages.py) call these.

Putting a hearing on a meeting records the filing's ``hearing-scheduled``
(the meeting's day and time), with what it causes (:mod:`services.effects`:
the applicant told of the hearing at the meeting's place), and the agenda
item in one unit of work; continuing records ``hearing-continued`` with ``to`` and
``at`` the later meeting's, and its item.  An item added to a meeting
already posted takes the posting down (``posted_at`` cleared): the posting
must list it, so it goes up again, in time (c.30A §20(b)).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import NamedTuple

from workflows.meetings import MeetingRefused, posting_deadline
from workflows.towns import town as town_profile

from .record import record_in
from .unit_of_work import UnitOfWork

__all__ = [
    "MeetingView",
    "MAX_RUN",
    "schedule_meeting",
    "schedule_meetings",
    "hear_at_meeting",
    "continue_hearing",
    "add_business",
    "meetings_view",
    "meeting_view",
    "produce_posting",
    "board_of",
]

#: the most meetings one recurring request schedules
MAX_RUN = 26
_HEARD = ("noi", "rda", "land-disturbance")


class MeetingView(NamedTuple):
    """A meeting with its agenda in words and its posting's clock."""

    meeting: object
    items: list
    deadline: object


def board_of(town_id: str) -> tuple[object, object]:
    """(the town's profile, its conservation commission's office)."""
    profile = town_profile(town_id)
    office = profile.office("noi")
    if office is None:
        raise MeetingRefused(f"{profile.name} declares no conservation commission to hold meetings")
    return profile, office


def _minute(moment: datetime) -> datetime:
    return moment.replace(second=0, microsecond=0, tzinfo=None)


def _insert(conn, store, *, town, office, starts_at, place, by):
    from models.store.meetings import add_meeting

    return add_meeting(conn, town=town, board=office.name, starts_at=starts_at, place=place, by=by, now=store.now())


def schedule_meeting(store, *, town: str, starts_at: datetime, place: str = "", by: str, today: date) -> int:
    """A meeting of the town's conservation commission at ``starts_at`` (the
    town's wall time), at ``place`` (default: where its hearings meet); its
    id.  A meeting is scheduled ahead: not before ``today``."""
    return schedule_meetings(store, town=town, first=starts_at, place=place, by=by, today=today)[0]


def schedule_meetings(
    store, *, town: str, first: datetime, every_weeks: int = 0, count: int = 1, place: str = "", by: str, today: date
) -> list[int]:
    """``count`` meetings from ``first``, every ``every_weeks`` weeks (a
    convenience: the commission's set evenings), in one unit of work; a day
    that is a legal holiday or a closure is left out (listed in the error if
    every one is).  Their ids."""
    from sqlalchemy.exc import IntegrityError

    profile, office = board_of(town)
    first = _minute(first)
    if first.date() < today:
        raise MeetingRefused(f"a meeting on {first.date().isoformat()} is in the past: meetings are scheduled ahead")
    if not 1 <= count <= MAX_RUN or (count > 1 and not 1 <= every_weeks <= 4):
        raise MeetingRefused(f"a run of meetings is 1 to {MAX_RUN} meetings, every 1 to 4 weeks")
    place = (place or office.meeting_place or office.address).strip()[:200]
    days = [first + timedelta(weeks=every_weeks * i) for i in range(count)]
    open_days = [d for d in days if profile.calendar.is_business_day(d.date()) or d.weekday() >= 5]
    if not open_days:
        raise MeetingRefused(f"{first.date().isoformat()} is a legal holiday or a closure: no meeting is set on it")
    try:
        with UnitOfWork(store) as uow:
            return [_insert(uow.conn, store, town=profile.id, office=office, starts_at=d, place=place, by=by) for d in open_days]
    except IntegrityError:
        raise MeetingRefused(f"the {office.name} already meets at one of those times") from None


def _meeting_for(store, meeting_id: int):
    from models.read.meetings import meeting

    with store.engine.connect() as conn:
        return meeting(conn, meeting_id)


def _agenda_item(conn, meeting_id: int, kind: str, *, filing_id=None, title="", at=None) -> None:
    """The meeting's agenda item, and its posting taken down (it must list
    the item), on the unit of work's ``conn``.  A hearing scheduled again
    before it opens leaves the agenda of the meeting it was first set for
    (whose posting goes up again without it)."""
    from sqlalchemy import delete, select, update

    from models.read.meetings import meeting_of_filing
    from models.schema.meeting_tables import ITEM, MEETING
    from models.store.meetings import add_item

    if filing_id is not None and meeting_of_filing(conn, meeting_id, filing_id) is not None:
        raise MeetingRefused(f"{filing_id} is already on the agenda of meeting {meeting_id}")
    changed = {meeting_id}
    if kind == "hearing":
        earlier = ITEM.c.filing_id == filing_id, ITEM.c.kind == "hearing", ITEM.c.meeting_id != meeting_id
        changed |= set(conn.execute(select(ITEM.c.meeting_id).where(*earlier)).scalars())
        conn.execute(delete(ITEM).where(*earlier))
    add_item(conn, meeting_id, kind, filing_id=filing_id, title=title, at=at)
    conn.execute(update(MEETING).where(MEETING.c.id.in_(changed)).values(posted_at=None))


def _check_filing(store, m, filing_id: str):
    filing, _ = store.load(filing_id)
    if filing.kind not in _HEARD or filing.town != m.town:
        raise MeetingRefused(f"{filing_id} is not a filing the {m.board} hears")
    return filing


def hear_at_meeting(
    store,
    meeting_id: int,
    filing_id: str,
    *,
    by: str,
    today: date,
    expect_seq: int | None = None,
    now: datetime | None = None,
    mail_from: str | None = None,
):
    """Schedule the filing's hearing at the meeting: ``hearing-scheduled``
    with the meeting's day and time, and the agenda item, in one
    unit of work.  The filing's state must allow it (the replay decides).
    With ``mail_from`` and ``now``, the applicant's email of the hearing."""
    m = _meeting_for(store, meeting_id)
    _check_filing(store, m, filing_id)
    raw = {
        "type": "hearing-scheduled",
        "date": today.isoformat(),
        "hearing": m.day.isoformat(),
        "at": m.starts_at.isoformat(timespec="minutes"),
    }
    with UnitOfWork(store) as uow:
        recorded, _ = record_in(
            uow, filing_id, raw, by=by, today=today, expect_seq=expect_seq, now=now, mail_from=mail_from, place=m.place
        )
        _agenda_item(uow.conn, m.id, "hearing", filing_id=filing_id)
    return recorded


def continue_hearing(
    store,
    filing_id: str,
    meeting_id: int,
    *,
    at: time | None = None,
    day: date,
    by: str,
    today: date,
    expect_seq: int | None = None,
    now: datetime | None = None,
    mail_from: str | None = None,
):
    """Continue the filing's open hearing, at the session of ``day``, to the
    meeting: ``hearing-continued`` with ``to`` the meeting's day and ``at``
    its time (``at`` given: the hearing's own time that evening), and the
    continued session's agenda item, which starts that meeting's posting
    clock.  The meeting must be later than ``day`` (the replay's guard).
    With ``mail_from`` and ``now``, the applicant's email of the continuance."""
    m = _meeting_for(store, meeting_id)
    _check_filing(store, m, filing_id)
    starts = datetime.combine(m.day, at) if at is not None else m.starts_at
    if starts < m.starts_at:
        raise MeetingRefused(
            f"the meeting of {m.day.isoformat()} begins at {m.starts_at:%H:%M}: a hearing in it cannot begin before"
        )
    raw = {
        "type": "hearing-continued",
        "date": day.isoformat(),
        "to": m.day.isoformat(),
        "at": starts.isoformat(timespec="minutes"),
    }
    with UnitOfWork(store) as uow:
        recorded, _ = record_in(
            uow, filing_id, raw, by=by, today=today, expect_seq=expect_seq, now=now, mail_from=mail_from, place=m.place
        )
        _agenda_item(uow.conn, m.id, "continued", filing_id=filing_id, at=starts if at is not None else None)
    return recorded


def add_business(store, meeting_id: int, title: str) -> int:
    """Another item of business on the meeting's agenda (minutes, a
    discussion); the posting goes up again with it."""
    title = " ".join(str(title).split())[:300]
    if not title:
        raise MeetingRefused("an item of business needs its title")
    m = _meeting_for(store, meeting_id)
    with UnitOfWork(store) as uow:
        _agenda_item(uow.conn, m.id, "business", title=title)
    return m.id


def _part(value, name: str) -> str:
    """A filing's field as text: itself when it is text (``"applicant":
    "J. Doe"``), its ``name`` part when it is an object, else ""."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return str(value.get(name) or "")
    return ""


def _items(store, items) -> list:
    """The agenda's items in words, the filings on it read in one query."""
    from models.read.meetings import agenda_filings
    from notices.context import PERMIT_LABELS
    from notices.meeting_posting import PostingItem
    from workflows.jurisdictions import laws_heard_under

    with store.reader.connect() as conn:
        filings = agenda_filings(conn, [i.filing_id for i in items if i.filing_id is not None])
    out = []
    for i in items:
        if i.filing_id is None or i.filing_id not in filings:
            out.append(PostingItem(i.kind, title=i.title, at=i.at))
            continue
        town_id, kind, extra, also = filings[i.filing_id]
        out.append(
            PostingItem(
                i.kind,
                at=i.at,
                filing_id=i.filing_id,
                permit=PERMIT_LABELS[kind],
                applicant=_part(extra.get("applicant"), "name"),
                address=_part(extra.get("site"), "address") or _part(extra.get("address"), "street"),
                description=_part(extra.get("project"), "description"),
                bylaw=laws_heard_under(town_id, kind, also),
            )
        )
    return out


def meetings_view(store, town: str, *, since: date) -> list[MeetingView]:
    """The town's meetings from ``since`` on, each with its agenda in words
    and its posting's deadline."""
    from models.read.meetings import agenda_of, meetings_of

    profile, _ = board_of(town)
    with store.engine.connect() as conn:
        meetings = meetings_of(conn, profile.id, since=since)
        agendas = agenda_of(conn, [m.id for m in meetings])
    return [MeetingView(m, _items(store, agendas[m.id]), posting_deadline(profile, m.starts_at)) for m in meetings]


def meeting_view(store, meeting_id: int) -> MeetingView:
    from models.read.meetings import agenda_of, meeting

    with store.engine.connect() as conn:
        m = meeting(conn, meeting_id)
        agenda = agenda_of(conn, [m.id])[m.id]
    profile, _ = board_of(m.town)
    return MeetingView(m, _items(store, agenda), posting_deadline(profile, m.starts_at))


def produce_posting(store, meeting_id: int, *, now: datetime | None, fmt: str = "pdf"):
    """The meeting's posting as ``fmt``: stamped ``now`` (the town's wall
    time) and recorded as posted (the first stamp is kept), or, with
    ``now`` None, the agenda as it stands, not posted.  A stamp after the
    48-hour deadline is refused with the rule, nothing recorded.
    (filename, content)."""
    from models.store.meetings import mark_posted
    from notices.meeting_posting import posting_filename, render_posting

    view = meeting_view(store, meeting_id)
    profile, office = board_of(view.meeting.town)
    m = view.meeting
    dated = m.posted_at or now if now is not None else None
    content = render_posting(m, view.items, profile=profile, office=office, deadline=view.deadline, dated=dated, fmt=fmt)
    if now is not None and m.posted_at is None:
        with UnitOfWork(store) as uow:
            mark_posted(uow.conn, m.id, dated)
    return posting_filename(m, fmt), content
