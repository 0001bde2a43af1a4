"""The calendar of one filing: the dated things a calendar should hold (each
session of its hearing until it closes, with its time and place; every
clock still ahead or overdue, one item per act), as
:class:`notices.ics.CalendarItem` values the ICS writer turns into a feed.
Pure: a filing and its replay in, items out.
"""

from __future__ import annotations

from datetime import date, datetime

from notices.ics import CalendarItem
from workflows.departments import department_of
from workflows.vocabulary import kind_name
from workflows.written import day_written, time_written

__all__ = ["calendar_items", "hearing_items", "hearing_place", "CALENDAR_STATUSES", "item_uid"]

#: Clocks still ahead (or overdue) belong on the calendar; met, passed and
#: expired ones are history.
CALENDAR_STATUSES = frozenset({"open", "overdue", "waiting", "active"})

_TITLES = {
    "hearing-open": "hearing must open",
    "newspaper-notice": "newspaper notice due",
    "hearing-posting": "meeting posting due",
    "hearing-notice": "hearing notices due",
    "board-comment": "boards' comment period ends",
    "board-reports": "board reports period ends",
    "decision": "decision due",
    "appeal-period": "appeal period ends",
    "permit-expiry": "permit expires",
    "renewal-request": "renewal request due",
    "construction-notice": "construction notice due",
    "work-notice": "excavation may start",
    "emergency-filing": "emergency application due",
    "temporary-patch-maintenance": "temporary patch maintenance year ends",
    "permanent-patch-window-opens": "permanent patch window opens",
    "permanent-patch-window-closes": "permanent patch window closes",
    "cdf-cure": "flowable fill cured",
    "winter-patch": "winter patch due (before Dec 1)",
    "settlement-answer": "settlement answer due",
    "certification-answer": "certification answer due",
    "suspension-ends": "suspension ends",
    "revocation-notice": "revocation hearing notice due",
    "after-hours-payment": "after-hours payment due",
}


def item_uid(filing_id: str, what: str, town: str) -> str:
    """``{filing}/{clock}@permits.{town}``: it does not depend on the date,
    so a moved deadline moves the event in a calendar that re-imports."""
    return f"{filing_id}/{what}@permits.{town}"


def _day(value) -> date:
    return value if isinstance(value, date) and not isinstance(value, datetime) else date.fromisoformat(str(value)[:10])


def _moment(value) -> datetime | None:
    if value is None:
        return None
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def _town_name(town_id: str) -> str:
    from workflows.towns import registry

    profile = registry().get(town_id)
    return profile.name if profile is not None else town_id


def hearing_place(filing) -> str:
    """Where the filing's hearing meets: the place the filing gives, else
    where the town's office holds its hearings ("" when neither says)."""
    extra = getattr(filing, "extra", None) or {}
    given = extra.get("hearing")
    if isinstance(given, dict) and isinstance(given.get("place"), str) and given["place"].strip():
        return given["place"].strip()
    from workflows.towns import registry

    profile = registry().get(filing.town)
    office = profile.office(filing.kind) if profile is not None and filing.kind in profile.permits else None
    return office.meeting_place if office is not None else ""


def hearing_items(filing, as_of: date, *, place: str | None = None, site: str = "") -> list[CalendarItem]:
    """Each session of the filing's hearing from ``as_of`` on, with its time
    and place (``place``, else :func:`hearing_place`), until the hearing
    closes: the next session's UID is the hearing's (``{filing}/hearing``),
    so a continuance moves it; a later one already noticed has its own."""
    from workflows.meetings import hearing_sessions
    from workflows.replay import live_events

    events = live_events(filing)
    if any(e.type in ("hearing-closed", "continuance-objected", "withdrawn") for e in events):
        return []
    moves = sum(1 for e in events if e.type in ("hearing-scheduled", "hearing-continued")) - 1
    where = place if place is not None else hearing_place(filing)
    dept = department_of(filing.kind)
    out = []
    ahead = [(day, at) for day, at in hearing_sessions(filing) if day >= as_of]
    for n, (day, at) in enumerate(ahead):
        what = "hearing" if n == 0 else f"hearing-{n + 1}"
        when = f"{day_written(day)}" + (f", {time_written(at)}" if at is not None else "")
        out.append(
            CalendarItem(
                item_uid(filing.id, what, filing.town),
                filing.town,
                dept,
                filing.id,
                what,
                day,
                at,
                f"{filing.id}: public hearing{site}",
                f"Public hearing on {filing.id} ({kind_name(filing.kind)}, {_town_name(filing.town)}){site}: {when}"
                + (f", at {where}" if where else "")
                + f".\nFiling: {filing.id}",
                max(moves, 0),
                where,
            )
        )
    return out


def calendar_items(filing, replay, as_of: date) -> list[CalendarItem]:
    """The filing's calendar: each session of its hearing still ahead (until
    the hearing closes), with its time and place, and every clock still
    ahead or overdue, the by-law's and the Act's deadline for one act as one
    item naming the one that binds (the earlier:
    :func:`workflows.clock_rows.one_row_per_act`)."""
    from workflows.clock_rows import act_of, one_row_per_act

    dept = department_of(replay.kind)
    site = ""
    extra = getattr(filing, "extra", None) or {}
    if isinstance(extra.get("site"), dict):
        site = f" at {extra['site'].get('address', '')}".rstrip()
    items: list[CalendarItem] = hearing_items(filing, as_of, site=site)
    moves: dict[str, int] = {}
    for e in filing.events:
        if e.type == "clock-extended":
            moves[e.get("clock")] = moves.get(e.get("clock"), 0) + 1
        elif e.type == "permit-renewed":
            moves["permit-expiry"] = moves.get("permit-expiry", 0) + 1
    ahead = [c for c in replay.clocks if c.status in CALENDAR_STATUSES]
    for row in one_row_per_act(ahead):
        c = row.shown
        act = act_of(c.id)
        title = _TITLES.get(act, c.id)
        if ":" in c.id and not row.others:  # another jurisdiction's alone
            title = f"{title} ({c.id.split(':', 1)[0]})"
        status = " [OVERDUE]" if c.status == "overdue" else ""
        binds = ""
        if row.others:
            title = f"{title}, under {c.rule} (binds)"
            binds = "".join(
                f"\nAlso counted under {o.rule}: {day_written(_day(o.date))}, later or the same day" for o in row.others
            )
        items.append(
            CalendarItem(
                item_uid(filing.id, act if row.others or ":" not in c.id else c.id, filing.town),
                filing.town,
                dept,
                filing.id,
                c.id,
                _day(c.date),
                _moment(getattr(c, "at", None)),
                f"{filing.id}: {title}{status}",
                f"{title}: {c.type} {c.status}.\nRule: {c.rule}\nHow: {c.explanation}{binds}\n"
                f"Filing: {filing.id} ({filing.kind}, {filing.town}){site}, state {replay.state}",
                moves.get(c.id, 0),
            )
        )
    return items
