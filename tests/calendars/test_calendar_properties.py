"""Properties of the business-day calendar, checked by Hypothesis over
2001-2098 on three calendars: the statute's, a Suffolk County one, and a
town that closes every Friday after Thanksgiving.

Where a property could be satisfied by a wrong answer (a roll that goes too
far still lands on a business day), the test also checks the answer against
a plain day-by-day or hour-by-hour walk written here.
"""

from datetime import date, datetime, time, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from calendars import ROLL_TO_NEXT_BUSINESS_DAY, BusinessCalendar, BusinessHoursBackward, CalendarDays


def _fridays_after_thanksgiving():
    out = {}
    for year in range(2001, 2099):
        nov1 = date(year, 11, 1)
        thanksgiving = nov1 + timedelta(days=(3 - nov1.weekday()) % 7 + 21)
        out[thanksgiving + timedelta(days=1)] = "Friday after Thanksgiving"
    return out


CALENDARS = (
    BusinessCalendar("massachusetts"),
    BusinessCalendar("boston", suffolk=True),
    BusinessCalendar("closing-town", closures=_fridays_after_thanksgiving()),
)

calendars = st.sampled_from(CALENDARS)
days = st.dates(min_value=date(2001, 1, 1), max_value=date(2098, 12, 31))
# n + m business days (up to 800, about 3.2 years) must stay inside 2100.
early_days = st.dates(min_value=date(2001, 1, 1), max_value=date(2095, 12, 31))
counts = st.integers(min_value=0, max_value=400)
positive_counts = st.integers(min_value=1, max_value=400)

PROPERTY = settings(max_examples=150, deadline=None)


def walk_business_days(cal, day, n):
    """The n-th business day after ``day`` (n >= 1), one day at a time."""
    while n:
        day += timedelta(days=1)
        if cal.is_business_day(day):
            n -= 1
    return day


def walk_business_hours(cal, moment, n):
    """The end of the n-th whole hour (n >= 1) after ``moment`` that lies on
    a business day, one hour at a time."""
    while True:
        if cal.is_business_day(moment.date()):
            n -= 1
        moment += timedelta(hours=1)
        if n == 0:
            return moment


def walk_business_hours_back(cal, moment, n):
    """The start of the n-th whole hour (n >= 1) before ``moment`` that lies
    on a business day, one hour at a time."""
    while n:
        moment -= timedelta(hours=1)
        if cal.is_business_day(moment.date()):
            n -= 1
    return moment


def business_hours_between(cal, start, end):
    """Whole hours in [start, end) that lie on business days."""
    hours, moment = 0, start
    while moment < end:
        if cal.is_business_day(moment.date()):
            hours += 1
        moment += timedelta(hours=1)
    return hours


def business_days_between(cal, first, last) -> int:
    """How many business days lie in (first, last], counted one day at a
    time: the oracle the fast paths are held to."""
    return sum(cal.is_business_day(first + timedelta(days=i)) for i in range(1, (last - first).days + 1))


@PROPERTY
@given(calendars, days, counts)
def test_a_rolled_deadline_is_the_first_business_day_on_or_after_the_counted_day(cal, start, n):
    r = CalendarDays(n, ROLL_TO_NEXT_BUSINESS_DAY).reckon(cal, start)
    assert r.counted_to == start + timedelta(days=n)
    assert cal.is_business_day(r.date)
    assert r.date >= r.counted_to
    # ... and not one day later than it has to be: everything it passed is closed
    assert all(not cal.is_business_day(r.counted_to + timedelta(days=i)) for i in range((r.date - r.counted_to).days))
    assert [s.date for s in r.rolled] == [r.counted_to + timedelta(days=i) for i in range((r.date - r.counted_to).days)]


@PROPERTY
@given(calendars, days)
def test_roll_forward_and_backward_find_the_nearest_business_day(cal, day):
    forward, backward = cal.roll_forward(day), cal.roll_backward(day)
    assert cal.is_business_day(forward) and cal.is_business_day(backward)
    assert backward <= day <= forward
    if cal.is_business_day(day):
        assert forward == backward == day
    else:
        assert walk_business_days(cal, day, 1) == forward
        assert cal.add_business_days(day, -1) == backward


@PROPERTY
@given(calendars, days, st.integers(min_value=1, max_value=60))
def test_add_business_days_agrees_with_a_day_by_day_walk(cal, start, n):
    assert cal.add_business_days(start, n) == walk_business_days(cal, start, n)


@PROPERTY
@given(calendars, early_days, counts, counts)
def test_n_then_m_business_days_equals_n_plus_m_from_a_business_day(cal, start, n, m):
    start = cal.roll_forward(start)
    assert cal.add_business_days(cal.add_business_days(start, n), m) == cal.add_business_days(start, n + m)


@PROPERTY
@given(calendars, early_days, positive_counts, positive_counts)
def test_n_then_m_business_days_equals_n_plus_m_from_any_start(cal, start, n, m):
    # Day 0 is the start even when it is closed: the first count leaves it
    # for a business day, and the second count carries on from there.
    once = cal.add_business_days(start, n)
    assert cal.is_business_day(once) and once > start
    assert cal.add_business_days(once, m) == cal.add_business_days(start, n + m)


@PROPERTY
@given(calendars, st.dates(min_value=date(2003, 1, 1), max_value=date(2098, 12, 31)), counts)
def test_backward_then_forward_by_n_business_days_returns_to_the_business_day(cal, start, n):
    start = cal.roll_forward(start)
    back = cal.add_business_days(start, -n)
    assert cal.is_business_day(back)
    assert business_days_between(cal, back, start) == n
    assert cal.add_business_days(back, n) == start


@PROPERTY
@given(calendars, days, counts)
def test_add_business_days_walks_n_business_days_counted_one_day_at_a_time(cal, start, n):
    assert business_days_between(cal, start, cal.add_business_days(start, n)) == n


@settings(max_examples=100, deadline=None)
@given(calendars, days, st.integers(min_value=0, max_value=23), st.integers(min_value=1, max_value=120))
def test_add_business_hours_agrees_with_an_hour_by_hour_walk(cal, day, hour, n):
    start = datetime.combine(day, time(hour))
    end = cal.add_business_hours(start, n)
    assert end == walk_business_hours(cal, start, n)
    assert business_hours_between(cal, start, end) == n
    # It ends as soon as the n-th hour is counted: one hour less is n - 1.
    assert business_hours_between(cal, start, end - timedelta(hours=1)) == n - 1


@settings(max_examples=100, deadline=None)
@given(calendars, days, st.integers(min_value=0, max_value=23), st.integers(min_value=1, max_value=120))
def test_business_hours_backward_agrees_with_an_hour_by_hour_walk(cal, day, hour, n):
    start = datetime.combine(day, time(hour))
    r = BusinessHoursBackward(n).reckon(cal, start)
    assert r.at == walk_business_hours_back(cal, start, n)
    assert business_hours_between(cal, r.at, start) == n
    assert r.rolled == ()
