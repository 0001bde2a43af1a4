"""The next day the sweep has work for a filing: pure.

    next_change(replay, as_of, pending=False) -> date

The incremental sweep (``permits sweep``; ``--all`` sweeps every open
filing) takes only the filings whose ``next_change_on`` has come, and
those an event, an import or a repair has touched since (those writers
store the day they wrote, so the next sweep looks).  After sweeping a
filing it stores the day this module gives: the first day after ``as_of``
on which time alone may change anything the sweep keeps or makes for it.
Conservative by construction: a day too early costs one replay; a day too
late would be a clock left stale or a reminder not sent, so every rule
below errs early.

What may change with time alone, for a history that does not change:

- a clock's status (:func:`workflows.clocks.evaluate_clocks`), while it
  is still running: a deadline or a period ``open`` or ``active`` through
  its day is ``overdue``, ``met`` (a period that runs out) or ``expired``
  the day after (an optional deadline is dropped); an earliest day is
  ``waiting`` before its day and ``passed`` on it.  A settled status (met,
  late, passed, overdue, expired, a violation...) no longer moves with
  time.  Each monthly report and each year of a maintenance term begins on
  the day the one before is due (:func:`workflows.running_duties.monthly_reports`,
  :func:`workflows.maintenance.annual_notices`), whatever its status;
- a reminder of a running clock (:func:`sweep.agenda.reminders_due`) enters its window
  :data:`~sweep.agenda.REMINDER_LEAD_DAYS` before its clock's day, and
  the applicant's reminder email (:func:`notices.email.reminder_emails`)
  :data:`~notices.email.REMINDER_DAYS` before a deadline, the renewal
  window :data:`~notices.email.RENEWAL_WINDOW_DAYS` before the last day to
  ask;
- a clock notice (:data:`sweep.agenda.CLOCK_NOTICES`) follows its clock's
  status (above); an event notice (:data:`sweep.agenda.EVENT_NOTICES`) is
  due from its event, which is recorded (so the filing is swept that day)
  and leaves its window with nothing to make.

And an output due but not made (``pending``: a notice listed and not made,
refused, or a failure) keeps the filing due: the next sweep, the same day
or later, tries again, as a full sweep would.  :data:`NO_CHANGE` when nothing will change with time alone.
"""

from __future__ import annotations

from datetime import date, timedelta

from notices.email import REMINDER_DAYS, RENEWAL_WINDOW_DAYS
from sweep.agenda import REMINDER_LEAD_DAYS

__all__ = ["next_change", "NO_CHANGE"]

#: the day stored when time alone changes nothing: only an event will
NO_CHANGE = date.max

_ONE = timedelta(days=1)
#: the statuses that change with time alone (evaluate_clocks): a deadline
#: open (overdue, or met for a period, the day after), an earliest day
#: waiting, a permit active, a clock whose status the record cannot tell
#: (unknown: it stands for open or overdue); every other status is settled
#: by the record (met, late, passed, overdue, expired, premature, violated...)
_RUNNING = ("open", "waiting", "active", "unknown")
#: clocks of which a new one begins on the day the last one is due
_PERIODIC = ("monthly-report", "annual-notice")


def _day(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value)[:10])


def next_change(replay, as_of: date, *, pending: bool = False) -> date:
    """The first day after ``as_of`` on which ``replay``'s clocks, the
    reminders or the notices due for it may differ from ``as_of``'s
    (``pending``: something due was not made: ``as_of`` itself, so the
    next sweep, even the same day, takes the filing again)."""
    if pending:
        return as_of
    best = NO_CHANGE
    for c in replay.clocks:
        day = _day(c.date)
        base = c.id.rsplit(":", 1)[-1]
        days = []
        if base in _PERIODIC:
            days.append(day)  # the next month's report, the next year's notice, begins
        if c.status in _RUNNING:
            if c.type == "earliest":
                days.append(day)  # waiting before its day, passed on it
            elif c.type in ("deadline", "expiry"):
                days.append(day + _ONE)  # open or active through its day
            else:
                days += [day, day + _ONE]
            lead = REMINDER_LEAD_DAYS.get(base)
            if lead is not None:
                days.append(day - timedelta(days=lead))
            if c.type == "deadline":
                days.append(day - timedelta(days=REMINDER_DAYS))
                if base == "renewal-request":
                    days.append(day - timedelta(days=RENEWAL_WINDOW_DAYS))
        for d in days:
            if as_of < d < best:
                best = d
    return best
