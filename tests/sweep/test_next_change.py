"""The next day the sweep has work for a filing (sweep/next_change.py):
each rule against a real replay, and a property: on no day before it does
anything the sweep keeps or makes differ from the day it was swept."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from demo.generate import generate
from models.store.filings import derived_from
from sweep.agenda import REMINDER_LEAD_DAYS, notices_due, reminders_due
from sweep.next_change import NO_CHANGE, next_change
from workflows.filing import parse_filing
from workflows.replay import replay

AS_OF = date(2026, 11, 30)


class _Clock:
    def __init__(self, cid: str, ctype: str, day: date, status: str = "open"):
        self.id, self.type, self.date, self.status = cid, ctype, day, status


class _Replay:
    def __init__(self, *clocks):
        self.clocks = list(clocks)


def test_a_deadline_changes_the_day_after_its_day_and_its_applicants_reminder_a_week_before():
    # open through its day, overdue the day after (evaluate_clocks); the
    # applicant's reminder email 7 days before (notices/email.py REMINDER_DAYS)
    day = AS_OF + timedelta(days=30)
    assert next_change(_Replay(_Clock("decision", "deadline", day)), AS_OF) == day - timedelta(days=7)
    assert next_change(_Replay(_Clock("decision", "deadline", day)), day - timedelta(days=7)) == day + timedelta(days=1)
    assert next_change(_Replay(_Clock("decision", "deadline", day)), day) == day + timedelta(days=1)
    assert next_change(_Replay(_Clock("decision", "deadline", day)), day + timedelta(days=1)) == NO_CHANGE


def test_a_settled_clock_does_not_change_with_time_but_a_new_month_of_reports_begins_on_the_last_ones_day():
    day = AS_OF + timedelta(days=10)
    for status in ("met", "late", "overdue", "premature", "violated", "passed", "expired"):
        assert next_change(_Replay(_Clock("decision", "deadline", day, status)), AS_OF) == NO_CHANGE
    # Mansfield 25 §11.B: month 2's report is due from the day month 1's is
    assert next_change(_Replay(_Clock("monthly-report", "deadline", day, "met")), AS_OF) == day


def test_an_earliest_day_changes_on_its_day():
    # waiting before its day, passed on it
    day = AS_OF + timedelta(days=20)
    assert next_change(_Replay(_Clock("board-comment", "earliest", day, "waiting")), AS_OF) == day


def test_a_permit_expiry_changes_when_its_reminder_window_opens_60_days_before():
    day = AS_OF + timedelta(days=200)
    assert REMINDER_LEAD_DAYS["permit-expiry"] == 60
    got = next_change(_Replay(_Clock("permit-expiry", "expiry", day, "active")), AS_OF)
    assert got == day - timedelta(days=60)


def test_a_renewal_request_changes_when_the_renewal_window_opens():
    # the applicant's renewal-window email, 60 days before the last day to ask
    day = AS_OF + timedelta(days=300)
    got = next_change(_Replay(_Clock("renewal-request", "deadline", day)), AS_OF)
    assert got == day - timedelta(days=60)


def test_something_due_and_not_made_keeps_the_filing_due_the_same_day():
    day = AS_OF + timedelta(days=300)
    assert next_change(_Replay(_Clock("decision", "deadline", day)), AS_OF, pending=True) == AS_OF


def test_a_filing_with_no_clock_ahead_changes_only_by_an_event():
    assert next_change(_Replay(), AS_OF) == NO_CHANGE
    assert next_change(_Replay(_Clock("decision", "deadline", AS_OF - timedelta(days=5), "met")), AS_OF) == NO_CHANGE


def _what_the_sweep_sees(filing, day: date):
    r = replay(filing, day)
    kept = derived_from(filing.town, filing.kind, str(getattr(r, "stage", "") or r.state), r.clocks, day)
    return (
        kept.state,
        kept.next_date,
        kept.next_clock,
        tuple(tuple(sorted((k, str(v)) for k, v in c.items())) for c in kept.clocks),
        tuple(x.key for x in reminders_due(r, day)),
        tuple(n.key for n in notices_due(r, day, filing.events) if not n.key.split(":")[2].startswith("event-")),
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_nothing_the_sweep_keeps_or_makes_changes_before_the_day_it_names(seed):
    """For generated filings, every day from the sweep's day up to the day
    next_change names keeps the same derived rows, reminders and clock
    notices as the sweep's day (an event notice is due from its event,
    which makes the filing due by itself)."""
    checked = 0
    for obj in generate(60, AS_OF, seed=seed):
        filing = parse_filing(obj)
        swept = _what_the_sweep_sees(filing, AS_OF)
        until = next_change(replay(filing, AS_OF), AS_OF)
        last = min(until - timedelta(days=1), AS_OF + timedelta(days=120))
        day = AS_OF + timedelta(days=1)
        while day <= last:
            assert _what_the_sweep_sees(filing, day) == swept, (filing.id, day, until)
            day += timedelta(days=1)
            checked += 1
    assert checked > 1000
