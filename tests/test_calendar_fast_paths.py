"""The calendar's fast paths give what the plain ways give: months counted
without dateutil, named closed days found by bisection, and a remembered
reckoning equal to a fresh one."""

from datetime import date, datetime, timedelta

from dateutil.relativedelta import relativedelta
from hypothesis import given, settings
from hypothesis import strategies as st

from calendars import BusinessCalendar
from calendars.rules import BusinessDays, CalendarDays, Months

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
