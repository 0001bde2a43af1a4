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

- a clock's status (:func:`workflows.clocks.evaluate_clocks`): a
  deadline or a period is ``open``/``active`` through its day and
  ``overdue``/``met``/``expired`` the day after; an earliest day is
  ``waiting`` before its day and ``passed`` on it; an optional deadline
  past its day is dropped the day after.  So each clock's day and the day
  after.  Each monthly report and each year of a maintenance term begins
  on the day the one before is due (:func:`workflows.running_duties.monthly_reports`,
  :func:`workflows.maintenance.annual_notices`): a clock's day again;
- a reminder (:func:`sweep.agenda.reminders_due`) enters its window
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
        leads = [0, -1]  # the day itself, and the day after
        lead = REMINDER_LEAD_DAYS.get(base)
        if lead is not None:
            leads.append(lead)
        if c.type == "deadline":
            leads.append(REMINDER_DAYS)
            if base == "renewal-request":
                leads.append(RENEWAL_WINDOW_DAYS)
        for n in leads:
            if n >= 0 and day - timedelta(days=n) > as_of:
                candidate = day - timedelta(days=n)
            elif n < 0 and day > as_of - _ONE:  # the day after: day + 1 > as_of
                candidate = day + _ONE if day < date.max else NO_CHANGE
            else:
                continue
            if candidate < best:
                best = candidate
    return best
