"""The legal holidays, held to M.G.L. c.4 §7 cl.18 whatever the `holidays`
package version does (docs/reference/dates.md).

The statute is restated here with plain ``datetime`` arithmetic, independent
of ``calendars.massachusetts`` and of the library, and the two are compared
day for day over fifteen years.
"""

from datetime import date, timedelta

import pytest

from calendars import BusinessCalendar, legal_holidays
from workflows.towns import town

YEARS = range(2021, 2036)  # Juneteenth is a legal holiday from 2021

MONDAY, THURSDAY, SUNDAY = 0, 3, 6


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def last_weekday(year: int, month: int, weekday: int) -> date:
    last = date(year, month + 1, 1) - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def statute_closed_days(year: int) -> set[date]:
    """M.G.L. c.4 §7 cl.18, read on its own."""
    closed = set()
    for month, day in [(1, 1), (6, 19), (7, 4), (11, 11), (12, 25)]:
        fixed = date(year, month, day)
        closed.add(fixed)
        if fixed.weekday() == SUNDAY:
            closed.add(fixed + timedelta(days=1))  # "or the following Monday"
    closed |= {
        nth_weekday(year, 1, MONDAY, 3),  # Martin Luther King Jr. Day
        nth_weekday(year, 2, MONDAY, 3),  # Washington's Birthday
        nth_weekday(year, 4, MONDAY, 3),  # Patriots' Day
        last_weekday(year, 5, MONDAY),  # Memorial Day
        nth_weekday(year, 9, MONDAY, 1),  # Labor Day
        nth_weekday(year, 10, MONDAY, 2),  # Columbus Day
        nth_weekday(year, 11, THURSDAY, 4),  # Thanksgiving Day
    }
    return closed


def test_the_independent_statement_of_the_statute_is_itself_right_for_2026():
    # A fixed point, so a mistake in the helpers above cannot hide.
    assert sorted(statute_closed_days(2026)) == [
        date(2026, 1, 1),
        date(2026, 1, 19),
        date(2026, 2, 16),
        date(2026, 4, 20),
        date(2026, 5, 25),
        date(2026, 6, 19),
        date(2026, 7, 4),
        date(2026, 9, 7),
        date(2026, 10, 12),
        date(2026, 11, 11),
        date(2026, 11, 26),
        date(2026, 12, 25),
    ]


@pytest.mark.parametrize("year", YEARS)
def test_legal_holidays_are_exactly_the_statutes_days(year):
    assert set(legal_holidays(year)) == statute_closed_days(year)


@pytest.mark.parametrize("year", YEARS)
def test_every_statute_weekday_holiday_is_closed_in_every_town(year):
    for town_id in ("canton", "saugus", "mansfield"):
        cal = town(town_id).calendar
        for day in statute_closed_days(year):
            if day.weekday() < 5:
                assert not cal.is_business_day(day), (town_id, day)


@pytest.mark.parametrize("year", YEARS)
def test_no_saturday_holiday_closes_the_friday_before(year):
    cal = BusinessCalendar("massachusetts")
    saturday_holidays = [d for d in statute_closed_days(year) if d.weekday() == 5]
    for saturday in saturday_holidays:
        friday = saturday - timedelta(days=1)
        if friday not in statute_closed_days(friday.year):
            assert cal.is_business_day(friday), (saturday, cal.closed_reason(friday))


@pytest.mark.parametrize(
    "friday, holiday",
    [
        (date(2026, 7, 3), "Independence Day on Saturday 2026-07-04"),
        (date(2027, 6, 18), "Juneteenth on Saturday 2027-06-19"),
        (date(2027, 12, 24), "Christmas on Saturday 2027-12-25"),
        (date(2027, 12, 31), "New Year's Day on Saturday 2028-01-01"),
    ],
)
def test_friday_before_a_saturday_holiday_is_a_business_day(friday, holiday):
    assert friday.weekday() == 4
    cal = town("canton").calendar
    assert cal.is_business_day(friday), holiday
    assert cal.closed_reason(friday + timedelta(days=1)) is not None


def test_sunday_holiday_closes_the_monday_after():
    cal = town("canton").calendar
    assert date(2027, 7, 4).weekday() == SUNDAY
    assert not cal.is_business_day(date(2027, 7, 5))
    assert "Independence Day" in cal.closed_reason(date(2027, 7, 5))
    assert cal.is_business_day(date(2027, 7, 6))


@pytest.mark.parametrize("town_id", ["canton", "saugus", "mansfield"])
@pytest.mark.parametrize(
    "day",
    [
        date(2026, 3, 17),  # Tuesday
        date(2026, 6, 17),  # Wednesday
        date(2027, 3, 17),  # Wednesday
        date(2027, 6, 17),  # Thursday
    ],
)
def test_evacuation_and_bunker_hill_days_are_business_days_outside_suffolk(town_id, day):
    profile = town(town_id)
    assert not profile.suffolk
    assert profile.calendar.is_business_day(day)
    assert day not in legal_holidays(day.year)


@pytest.mark.parametrize(
    "day, name",
    [
        (date(2026, 3, 17), "Evacuation Day"),
        (date(2026, 6, 17), "Bunker Hill Day"),
        (date(2027, 3, 17), "Evacuation Day"),
        (date(2027, 6, 17), "Bunker Hill Day"),
    ],
)
def test_evacuation_and_bunker_hill_days_close_a_suffolk_calendar(day, name):
    boston = BusinessCalendar("boston", suffolk=True)
    assert not boston.is_business_day(day)
    assert name in boston.closed_reason(day)
    assert day in legal_holidays(day.year, suffolk=True)


def test_a_suffolk_calendar_has_the_statute_days_plus_the_two_county_days_only():
    for year in YEARS:
        extra = set(legal_holidays(year, suffolk=True)) - set(legal_holidays(year))
        assert extra == {date(year, 3, 17), date(year, 6, 17)}, year
