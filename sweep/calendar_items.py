"""The calendar of one filing: the dated things a calendar should hold (its
hearing until it closes, every clock still ahead or overdue), as
:class:`notices.ics.CalendarItem` values the ICS writer turns into a feed.
Pure: a filing and its replay in, items out.
"""

from __future__ import annotations

from datetime import date, datetime

from notices.ics import CalendarItem
from workflows.departments import department_of

__all__ = ["calendar_items", "CALENDAR_STATUSES", "item_uid"]

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


def calendar_items(filing, replay, as_of: date) -> list[CalendarItem]:
    """The filing's calendar: its hearing (the scheduled or continued date,
    until the hearing closes) and every clock still ahead or overdue."""
    dept = department_of(replay.kind)
    site = ""
    extra = getattr(filing, "extra", None) or {}
    if isinstance(extra.get("site"), dict):
        site = f" at {extra['site'].get('address', '')}".rstrip()
    items: list[CalendarItem] = []
    hearing_day, hearing_at, closed, hearing_moves = None, None, False, -1
    moves: dict[str, int] = {}
    for e in filing.events:
        if e.type == "hearing-scheduled":
            hearing_day, hearing_at, closed = e.get("hearing"), e.at, False
            hearing_moves += 1
        elif e.type == "hearing-continued":
            hearing_day, hearing_at = e.get("to"), None
            hearing_moves += 1
        elif e.type == "hearing-closed":
            closed = True
        elif e.type == "clock-extended":
            moves[e.get("clock")] = moves.get(e.get("clock"), 0) + 1
        elif e.type == "permit-renewed":
            moves["permit-expiry"] = moves.get("permit-expiry", 0) + 1
    if hearing_day is not None and not closed:
        items.append(
            CalendarItem(
                item_uid(filing.id, "hearing", filing.town),
                filing.town,
                dept,
                filing.id,
                "hearing",
                hearing_day,
                hearing_at,
                f"{filing.id}: public hearing{site}",
                f"Public hearing on {filing.id} ({filing.kind}, {filing.town}){site}.\nFiling: {filing.id}",
                max(hearing_moves, 0),
            )
        )
    for c in replay.clocks:
        if c.status not in CALENDAR_STATUSES:
            continue
        base = c.id.rsplit(":", 1)[-1]
        title = _TITLES.get(base, c.id)
        if ":" in c.id:
            title = f"{title} ({c.id.split(':', 1)[0]})"
        status = " [OVERDUE]" if c.status == "overdue" else ""
        items.append(
            CalendarItem(
                item_uid(filing.id, c.id, filing.town),
                filing.town,
                dept,
                filing.id,
                c.id,
                _day(c.date),
                _moment(getattr(c, "at", None)),
                f"{filing.id}: {title}{status}",
                f"{title}: {c.type} {c.status}.\nRule: {c.rule}\nHow: {c.explanation}\n"
                f"Filing: {filing.id} ({filing.kind}, {filing.town}){site}, state {replay.state}",
                moves.get(c.id, 0),
            )
        )
    return items
