"""A commission's meetings, the pure half: the Open Meeting Law posting's
clock for a meeting, and the sessions of a filing's hearing that were
noticed (the one it was scheduled for, and each it was continued to).

A meeting is posted once, listing every hearing and other business on its
agenda, at least 48 hours before it begins, not counting Saturdays,
Sundays and legal holidays (M.G.L. c.30A §20(b): the state's
``hearing-posting`` clock, :data:`workflows.towns.wpa.HEARING_POSTING`,
counted from the meeting's start).  A continued hearing is heard at a later
meeting, whose own posting is that session's notice: so continuing a
hearing to a meeting starts that meeting's posting clock, if it had none.

Pure: no clock, no store.  The record of meetings is models/store/meetings.py,
the actions services/meetings.py.
"""

from __future__ import annotations

from datetime import date, datetime

from calendars import Reckoning

from .errors import PermitsError
from .event_fields import VOID
from .towns.wpa import HEARING_POSTING, OPEN_MEETING

__all__ = [
    "POSTING_HOURS",
    "POSTING_RULE",
    "MeetingRefused",
    "UnnoticedSession",
    "posting_deadline",
    "noticed_sessions",
    "hearing_sessions",
    "noticed_session",
    "check_opening",
]

#: the Open Meeting Law's notice, in hours not counting Saturdays, Sundays and legal holidays
POSTING_HOURS = HEARING_POSTING.measure.count
#: the rule the posting's clock cites
POSTING_RULE = OPEN_MEETING


class MeetingRefused(PermitsError):
    """A meeting, an agenda item or a continuance the rules do not allow."""


class UnnoticedSession(MeetingRefused):
    """A hearing opened on a day for which no session was noticed."""

    def __init__(self, filing_id: str, day: date, sessions: tuple[date, ...]):
        self.filing, self.day, self.sessions = filing_id, day, sessions
        noticed = ", ".join(d.isoformat() for d in sessions) or "none"
        super().__init__(
            f"{filing_id}: no session of the hearing was noticed for {day.isoformat()} (noticed: {noticed}); "
            f"a hearing opens at a noticed session ({POSTING_RULE}): confirm to record it anyway"
        )


def posting_deadline(profile, starts: datetime) -> Reckoning:
    """The latest moment the meeting's posting may go up: 48 business hours
    before ``starts`` (the meeting's wall time in the town), counted back
    over business days only, so a Saturday, Sunday or legal holiday is
    passed over whole (c.30A §20(b)).  Its ``at`` is the deadline; its
    ``skipped`` names each day passed over.  Never rolls."""
    return HEARING_POSTING.measure.reckon(profile.calendar, starts)


def _live(filing):
    voided = {e.fields.get("voids") for e in filing.events if e.type == VOID}
    return [e for e in filing.events if e.position not in voided and e.type != VOID]


def _day(value) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    return value if isinstance(value, date) else None


def hearing_sessions(filing) -> tuple[tuple[date, datetime | None], ...]:
    """Each session of the filing's hearing that was noticed, (day, time or
    None), in order: the latest scheduled hearing (a hearing set again
    before it opens replaces the earlier one) and each session it was
    continued to, with the time the continuance gives."""
    scheduled: tuple[date, datetime | None] | None = None
    continued: list[tuple[date, datetime | None]] = []
    for e in _live(filing):
        if e.type == "hearing-scheduled":
            day = _day(e.at) or _day(e.get("hearing"))
            if day is not None:
                scheduled = (day, _moment(e.at) or _moment(e.get("hearing")))
        elif e.type == "hearing-continued":
            to = _day(e.at) or _day(e.get("to"))
            if to is not None:
                continued.append((to, _moment(e.at)))
    sessions = ([scheduled] if scheduled else []) + continued
    seen: dict[date, tuple[date, datetime | None]] = {}
    for day, at in sessions:
        if day not in seen or (at is not None and seen[day][1] is None):
            seen[day] = (day, at)
    return tuple(seen.values())


def _moment(value) -> datetime | None:
    return value if isinstance(value, datetime) else None


def noticed_sessions(filing) -> tuple[date, ...]:
    """The days a session of the filing's hearing was noticed for: the
    latest scheduled hearing (a hearing set again before it opens replaces
    the earlier date) and each day it was continued to, in order."""
    return tuple(day for day, _ in hearing_sessions(filing))


def noticed_session(filing) -> date | None:
    """The session a "hearing opened" is for, by default: the one the
    hearing was scheduled for (None: no hearing scheduled)."""
    sessions = noticed_sessions(filing)
    return sessions[0] if sessions else None


def check_opening(filing, day: date) -> None:
    """:class:`UnnoticedSession` when ``day`` is not a day a session of the
    filing's hearing was noticed for."""
    sessions = noticed_sessions(filing)
    if day not in sessions:
        raise UnnoticedSession(filing.id, day, sessions)
