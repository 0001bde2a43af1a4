"""The calendar's fast paths give what the plain ways give: months counted
without dateutil, named closed days found by bisection, and a remembered
reckoning equal to a fresh one."""

from datetime import date, datetime, timedelta

from dateutil.relativedelta import relativedelta
from hypothesis import given, settings
from hypothesis import strategies as st

from calendars import BusinessCalendar, CalendarError
from calendars.rules import (
    BusinessDays,
    BusinessDaysBackward,
    BusinessHours,
    BusinessHoursBackward,
    CalendarDays,
    CalendarDaysBackward,
    DayBefore,
    Hours,
    LastBusinessDayBefore,
    Months,
    Roll,
)

DAYS = st.dates(min_value=date(2001, 1, 1), max_value=date(2095, 12, 31))
CAL = BusinessCalendar("massachusetts", closures={date(2026, 12, 24): "Christmas Eve closure"})


@given(DAYS, st.integers(min_value=0, max_value=60))
def test_months_counted_without_dateutil_land_where_relativedelta_lands(day, n):
    assert Months(n)._step(day, n) == day + relativedelta(months=n)


def test_month_ends_and_leap_days_are_kept_as_the_statute_counts_them():
    assert Months(1)._step(date(2026, 1, 31), 1) == date(2026, 2, 28)
    assert Months(18)._step(date(2026, 8, 31), 18) == date(2028, 2, 29)
    assert Months(12)._step(date(2099, 2, 28), 12) == date(2100, 2, 28)  # 2100 is not a leap year


@settings(deadline=None)  # the first example loads years of holidays
@given(DAYS, st.integers(min_value=0, max_value=400))
def test_named_closed_days_are_the_closed_days_that_are_not_plain_weekends(first, span):
    last = first + timedelta(days=span)
    expected = [(d, r) for d, r in CAL.closed_between(first, last) if r not in ("Saturday", "Sunday")]
    assert CAL.named_closed_between(first, last) == expected


def test_a_town_closure_is_named_between_its_neighbours():
    assert (date(2026, 12, 24), "Christmas Eve closure") in CAL.named_closed_between(date(2026, 12, 20), date(2026, 12, 31))


@settings(deadline=None)
@given(DAYS | st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2095, 12, 31)), st.integers(0, 40))
def test_a_remembered_reckoning_is_the_fresh_one(start, n):
    for rule in (CalendarDays(21), BusinessDays(10), Months(36)):
        fresh = rule.reckon(CAL, start, n)
        assert CAL.reckon(rule, start, n) == fresh
        assert CAL.reckon(rule, start, n) == fresh  # the second time from the memo


# -- business days and hours by index, against the day-by-day walk -----------------

SATURDAYS_CLOSED = BusinessCalendar(
    "saturdays-closed",
    saturdays_closed_by_vote=True,
    closures={date(2031, 11, 28): "Friday after Thanksgiving", date(2044, 2, 9): "storm closure"},
)
SUFFOLK = BusinessCalendar("boston", suffolk=True)
CALENDARS = st.sampled_from([CAL, SATURDAYS_CLOSED, SUFFOLK])
MOMENTS = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 12, 31, 23, 59))
HOURS = st.integers(0, 24 * 40) | st.sampled_from([24, 48, 72, 96, 24 * 200, 24 * 200 + 1, 24 * 400])


def _outcome(f, *args):
    """What ``f(*args)`` gives, or the calendar's refusal, to compare two ways of counting."""
    try:
        return f(*args)
    except CalendarError as exc:
        return ("refused", str(exc))


def _walk_business_days(cal, day, n):
    """The n-th business day after (n > 0) or before (n < 0) ``day``, one day at a time."""
    step = timedelta(days=1 if n > 0 else -1)
    for _ in range(abs(n)):
        day += step
        while not cal.is_business_day(day):
            day += step
    return day


@settings(deadline=None, max_examples=300)
@given(CALENDARS, st.dates(min_value=date(2001, 1, 1), max_value=date(2099, 6, 30)), st.integers(-300, 300))
def test_business_days_counted_by_index_are_the_days_walked_one_by_one(cal, day, n):
    assert cal.add_business_days(day, n) == _walk_business_days(cal, day, n)


@settings(deadline=None, max_examples=300)
@given(CALENDARS, MOMENTS, HOURS)
def test_business_hours_counted_by_whole_days_end_where_the_hour_by_hour_walk_ends(cal, start, hours):
    assert _outcome(cal.add_business_hours, start, hours) == _outcome(cal._add_business_hours_by_steps, start, hours)


@settings(deadline=None, max_examples=300)
@given(CALENDARS, MOMENTS, HOURS)
def test_business_hours_counted_back_by_whole_days_end_where_the_walk_back_ends(cal, start, hours):
    assert _outcome(cal.subtract_business_hours, start, hours) == _outcome(cal._subtract_business_hours_by_steps, start, hours)


@settings(deadline=None, max_examples=300)
@given(CALENDARS, st.dates(min_value=date(2000, 1, 1), max_value=date(2100, 12, 31)), st.integers(0, 30))
def test_whole_days_of_business_hours_from_a_midnight_end_where_the_walk_ends(cal, day, days):
    start = datetime.combine(day, datetime.min.time())  # a hearing recorded by its day alone
    for hours in (24 * days, 24 * days + 5):
        assert _outcome(cal.subtract_business_hours, start, hours) == _outcome(
            cal._subtract_business_hours_by_steps, start, hours
        )
        assert _outcome(cal.add_business_hours, start, hours) == _outcome(cal._add_business_hours_by_steps, start, hours)


def test_seventy_two_business_hours_pass_over_a_holiday_weekend():
    # Friday 2026-05-22 10:00; Memorial Day is Monday 2026-05-25: 14 h Friday, then Tuesday, Wednesday, 10 h Thursday
    assert CAL.add_business_hours(datetime(2026, 5, 22, 10), 72) == datetime(2026, 5, 28, 10)
    assert CAL.subtract_business_hours(datetime(2026, 5, 28, 10), 72) == datetime(2026, 5, 22, 10)


def test_business_hours_pass_over_a_saturday_whether_or_not_the_town_closed_it_by_vote():
    # business hours never count Saturdays (M.G.L. c.82 §40A), vote or not
    friday = datetime(2031, 11, 21, 12)
    assert CAL.add_business_hours(friday, 24) == SATURDAYS_CLOSED.add_business_hours(friday, 24) == datetime(2031, 11, 24, 12)


# -- the day alone (when) is the reckoning's day -------------------------------------

RULES = st.sampled_from(
    [
        CalendarDays(21),
        CalendarDays(10, roll=Roll.NONE),
        CalendarDays(14, roll=Roll.BACKWARD),
        CalendarDays(20, roll=Roll.STATUTE),
        CalendarDaysBackward(7),
        BusinessDays(5),
        BusinessDaysBackward(5),
        BusinessHours(72),
        BusinessHoursBackward(48),
        Hours(24),
        Months(36),
        Months(1, roll=Roll.FORWARD),
        Months(18, roll=Roll.STATUTE),
        LastBusinessDayBefore(12, 1),
        DayBefore(12, 1),
    ]
)
STARTS = st.dates(min_value=date(2000, 1, 1), max_value=date(2100, 12, 31)) | MOMENTS


def _reckoned(rule, cal, start, count):
    r = rule.reckon(cal, start, count)
    return r.date, r.at


@settings(deadline=None, max_examples=400)
@given(RULES, CALENDARS, STARTS, st.none() | st.integers(0, 60))
def test_the_day_alone_is_the_day_of_the_full_reckoning(rule, cal, start, count):
    assert _outcome(rule.when, cal, start, count) == _outcome(_reckoned, rule, cal, start, count)
    assert _outcome(cal.when, rule, start, count) == _outcome(_reckoned, rule, cal, start, count)  # and from the memo


@settings(deadline=None)
@given(RULES, CALENDARS, st.dates(min_value=date(2001, 1, 1), max_value=date(2099, 1, 1)))
def test_a_rule_says_which_way_it_counts_as_its_reckoning_does(rule, cal, start):
    assert rule.direction == rule.reckon(cal, start).direction


def test_forgetting_the_reckonings_forgets_the_days_alone_too():
    cal = BusinessCalendar("forgetful")
    cal.when(CalendarDays(21), date(2026, 3, 30))
    cal.reckon(CalendarDays(21), date(2026, 3, 30))
    cal.forget_reckonings()
    assert cal._whens == {} and cal._reckonings == {}
    assert cal.when(CalendarDays(21), date(2026, 3, 30)) == (date(2026, 4, 21), None)  # Patriots' Day, rolled
