"""Date traps, one named test each (docs/reference/dates.md).

Each test counts with a town's own clock from the rule book where the town
has one, so a wrong declaration fails here as surely as a wrong calendar.
The winter patch's own last day, November 30 whatever the weekday (Canton
16-12 §11.3(c)), is read in towns/test_canton.py.
"""

from datetime import date, datetime, timedelta

import pytest
from _filings import clock

from calendars import (
    ROLL_TO_NEXT_BUSINESS_DAY,
    BusinessCalendar,
    BusinessDays,
    BusinessHours,
    CalendarDays,
    CalendarError,
    Hours,
    LastBusinessDayBefore,
    Months,
)
from workflows.rulebook import TownProfile
from workflows.towns import town

FRIDAY_AFTER_THANKSGIVING_2026 = date(2026, 11, 27)


def reasons(steps):
    return [s.reason for s in steps]


# -- Patriots' Day ---------------------------------------------------------


def test_hearing_deadline_on_patriots_day_rolls_to_tuesday():
    r = clock("canton", "noi", "hearing-open")(date(2026, 3, 30))
    assert r.counted_to == date(2026, 4, 20)  # 21 days: a Monday, Patriots' Day
    assert r.date == date(2026, 4, 21)
    assert [(s.date, s.reason) for s in r.rolled] == [(date(2026, 4, 20), "Patriots' Day")]
    assert "Patriots' Day" in r.describe()
    assert "2026-04-21" in r.describe()


# -- July 4 on a weekend -----------------------------------------------------


def test_july_4_2026_on_saturday_leaves_friday_july_3_a_business_day():
    cal = town("canton").calendar
    assert date(2026, 7, 4).weekday() == 5
    assert cal.is_business_day(date(2026, 7, 3))
    # A 21-day clock landing on Friday July 3 stays there.
    assert clock("canton", "noi", "hearing-open")(date(2026, 6, 12)).date == date(2026, 7, 3)


def test_a_21_day_clock_landing_on_saturday_july_4_2026_rolls_to_monday_july_6():
    r = clock("saugus", "noi", "hearing-open")(date(2026, 6, 13))
    assert r.counted_to == date(2026, 7, 4)
    assert r.date == date(2026, 7, 6)
    assert "Independence Day" in reasons(r.rolled)


def test_july_4_2027_on_sunday_closes_monday_july_5():
    cal = town("mansfield").calendar
    assert date(2027, 7, 4).weekday() == 6
    assert not cal.is_business_day(date(2027, 7, 5))


def test_a_21_day_clock_landing_on_sunday_july_4_2027_rolls_to_tuesday_july_6():
    r = clock("mansfield", "noi", "hearing-open")(date(2027, 6, 13))
    assert r.counted_to == date(2027, 7, 4)
    assert r.date == date(2027, 7, 6)
    assert [s.date for s in r.rolled] == [date(2027, 7, 4), date(2027, 7, 5)]
    assert "Independence Day (observed)" in reasons(r.rolled)


# -- The Friday after Thanksgiving ---------------------------------------------


def test_friday_after_thanksgiving_is_a_business_day_unless_the_town_closes_it():
    assert town("canton").calendar.is_business_day(FRIDAY_AFTER_THANKSGIVING_2026)
    closed = BusinessCalendar("canton", closures={FRIDAY_AFTER_THANKSGIVING_2026: "Friday after Thanksgiving"})
    assert not closed.is_business_day(FRIDAY_AFTER_THANKSGIVING_2026)
    assert closed.closed_reason(FRIDAY_AFTER_THANKSGIVING_2026) == "Friday after Thanksgiving"


def test_a_town_closure_is_skipped_by_a_business_day_count_and_named():
    start = date(2026, 11, 24)  # Tuesday before Thanksgiving
    open_friday = BusinessDays(3).reckon(BusinessCalendar("canton"), start)
    assert open_friday.date == date(2026, 11, 30)  # Wed, Fri, Mon

    closed = BusinessCalendar("canton", closures={FRIDAY_AFTER_THANKSGIVING_2026: "Friday after Thanksgiving"})
    r = BusinessDays(3).reckon(closed, start)
    assert r.date == date(2026, 12, 1)  # Wed, Mon, Tue
    assert [(s.date, s.reason) for s in r.skipped] == [
        (date(2026, 11, 26), "Thanksgiving Day"),
        (FRIDAY_AFTER_THANKSGIVING_2026, "Friday after Thanksgiving"),
    ]
    assert "Friday after Thanksgiving" in r.describe()


def test_a_closure_declared_in_a_town_profile_reaches_its_calendar_and_rolls_a_deadline():
    profile = TownProfile(
        id="closing-town",
        name="Closing Town",
        county="Norfolk",
        permits={},
        closures={FRIDAY_AFTER_THANKSGIVING_2026: "Friday after Thanksgiving"},
    )
    r = CalendarDays(21, ROLL_TO_NEXT_BUSINESS_DAY).reckon(profile.calendar, date(2026, 11, 6))
    assert r.counted_to == FRIDAY_AFTER_THANKSGIVING_2026
    assert r.date == date(2026, 11, 30)
    assert reasons(r.rolled)[0] == "Friday after Thanksgiving"
    # The same clock in a town that stays open does not roll.
    assert clock("canton", "noi", "hearing-open")(date(2026, 11, 6)).date == FRIDAY_AFTER_THANKSGIVING_2026


# -- Christmas -----------------------------------------------------------------


def test_canton_31_day_decision_clock_landing_on_christmas_rolls_to_monday():
    r = clock("canton", "noi", "decision")(date(2026, 11, 24))
    assert r.counted_to == date(2026, 12, 25)  # a Friday
    assert r.date == date(2026, 12, 28)
    assert [s.date for s in r.rolled] == [date(2026, 12, 25), date(2026, 12, 26), date(2026, 12, 27)]
    assert reasons(r.rolled)[0] == "Christmas Day"


# -- Months and February 29 --------------------------------------------------------


def test_an_18_month_window_from_august_31_ends_on_february_29_of_a_leap_year():
    closes = clock("canton", "street-opening", "permanent-patch-window-closes")
    assert closes(date(2026, 8, 31)).date == date(2028, 2, 29)  # a Tuesday: no roll
    assert Months(18).reckon(BusinessCalendar(), date(2026, 8, 31)).date == date(2028, 2, 29)


def test_twelve_months_from_february_28_is_february_28_even_in_a_leap_year():
    cal = BusinessCalendar()
    assert Months(12).reckon(cal, date(2027, 2, 28)).date == date(2028, 2, 28)


def test_twelve_months_from_february_29_is_february_28():
    cal = BusinessCalendar()
    assert Months(12).reckon(cal, date(2028, 2, 29)).date == date(2029, 2, 28)


@pytest.mark.parametrize(
    "start, end",
    [
        (date(2027, 1, 31), date(2027, 2, 28)),
        (date(2028, 1, 31), date(2028, 2, 29)),
        (date(2026, 3, 31), date(2026, 4, 30)),
    ],
)
def test_one_month_from_the_31st_is_the_last_day_of_a_shorter_month(start, end):
    assert Months(1).reckon(BusinessCalendar(), start).date == end


def test_months_are_counted_from_the_start_not_chained():
    cal = BusinessCalendar()
    # Jan 31 + 1 + 1 would be Mar 28; two months from Jan 31 is Mar 31.
    assert Months(2).reckon(cal, date(2027, 1, 31)).date == date(2027, 3, 31)


# -- 72 business hours ---------------------------------------------------------------


def test_72_business_hours_before_labor_day_skip_the_weekend_and_the_holiday():
    r = clock("canton", "street-opening", "work-notice")(datetime(2026, 9, 4, 9, 0))
    assert r.at == datetime(2026, 9, 10, 9, 0)  # Fri 15 h, Tue 24, Wed 24, Thu 9
    assert reasons(r.skipped) == ["Labor Day"]
    # Plain clock hours would have ended on Monday morning.
    assert Hours(72).reckon(town("canton").calendar, datetime(2026, 9, 4, 9, 0)).at == datetime(2026, 9, 7, 9, 0)


def test_72_business_hours_across_thanksgiving_and_a_town_closed_friday():
    start = datetime(2026, 11, 24, 14, 0)  # Tuesday
    assert clock("canton", "street-opening", "work-notice")(start).at == datetime(2026, 11, 30, 14, 0)
    closed = BusinessCalendar("x", closures={FRIDAY_AFTER_THANKSGIVING_2026: "Friday after Thanksgiving"})
    r = BusinessHours(72).reckon(closed, start)
    assert r.at == datetime(2026, 12, 1, 14, 0)
    assert reasons(r.skipped) == ["Thanksgiving Day", "Friday after Thanksgiving"]


def test_72_business_hours_from_a_holiday_start_at_midnight_of_the_next_business_day():
    r = BusinessHours(72).reckon(town("canton").calendar, datetime(2026, 9, 7, 15, 0))  # Labor Day
    assert r.at == datetime(2026, 9, 11, 0, 0)  # Tue, Wed, Thu in full


def test_72_business_hours_ending_at_midnight_before_a_weekend_end_at_that_midnight_not_monday():
    # Wed, Thu and Fri in full: the 72nd hour ends Saturday 00:00, and work
    # may start then (an earliest clock): waiting for Monday would be wrong.
    r = clock("canton", "street-opening", "work-notice")(datetime(2026, 9, 9, 0, 0))
    assert r.at == datetime(2026, 9, 12, 0, 0)


def test_72_business_hours_ending_at_midnight_before_thanksgiving_do_not_name_it():
    r = clock("canton", "street-opening", "work-notice")(datetime(2026, 11, 23, 0, 0))
    assert r.at == datetime(2026, 11, 26, 0, 0)  # Mon, Tue, Wed in full
    assert r.skipped == ()
    assert "Thanksgiving" not in r.describe()
    # One hour later, the count does pass over Thanksgiving, and says so.
    later = clock("canton", "street-opening", "work-notice")(datetime(2026, 11, 23, 1, 0))
    assert later.at == datetime(2026, 11, 27, 1, 0)
    assert reasons(later.skipped) == ["Thanksgiving Day"]


# -- Backward counts never roll ------------------------------------------------------


def test_canton_newspaper_notice_is_five_working_days_before_the_hearing_skipping_patriots_day():
    r = clock("canton", "noi", "newspaper-notice")(date(2026, 4, 23))  # Thursday hearing
    assert r.date == date(2026, 4, 15)  # 22, 21, (20 Patriots' Day), 17, 16, 15
    assert r.rolled == () and r.roll == "none"
    assert reasons(r.skipped) == ["Patriots' Day"]


def test_canton_newspaper_notice_before_a_monday_hearing_passes_the_weekend_and_juneteenth():
    r = clock("canton", "noi", "newspaper-notice")(date(2026, 6, 22))
    assert r.date == date(2026, 6, 12)  # (Sun, Sat, Fri 19 Juneteenth) 18, 17, 16, 15, 12
    assert reasons(r.skipped) == ["Juneteenth National Independence Day"]


def test_saugus_newspaper_notice_five_calendar_days_before_may_fall_on_a_sunday_and_stays_there():
    r = clock("saugus", "noi", "newspaper-notice")(date(2026, 4, 24))  # Friday hearing
    assert r.date == date(2026, 4, 19)
    assert r.date.weekday() == 6
    assert r.rolled == () and r.roll == "none"


def test_a_backward_count_landing_on_a_holiday_does_not_move():
    # Mansfield: notice at least 14 days before a hearing on 2026-07-18 is due 2026-07-04.
    r = clock("mansfield", "land-disturbance", "hearing-notice")(date(2026, 7, 18))
    assert r.date == date(2026, 7, 4)
    assert town("mansfield").calendar.closed_reason(r.date) == "Independence Day"
    assert r.rolled == ()


# -- The winter patch ------------------------------------------------------------------


def test_winter_patch_rolls_back_over_a_town_closed_friday_and_thanksgiving():
    closed = BusinessCalendar("x", closures={date(2025, 11, 28): "Friday after Thanksgiving"})
    r = LastBusinessDayBefore(12, 1).reckon(closed, date(2025, 6, 2))
    assert r.date == date(2025, 11, 26)  # Sun 30, Sat 29, Fri 28 closed, Thu 27 Thanksgiving
    assert reasons(r.rolled) == ["Sunday", "Saturday", "Friday after Thanksgiving", "Thanksgiving Day"]


def test_last_business_day_before_takes_month_then_day_positionally():
    rule = LastBusinessDayBefore(12, 1)
    assert (rule.month, rule.day, rule.count) == (12, 1, 0)
    assert LastBusinessDayBefore(7, 1).reckon(BusinessCalendar(), date(2026, 1, 5)).date == date(2026, 6, 30)


# -- Open Meeting Law: 48 business hours backward ------------------------------------------


def business_hours_back_by_walking(cal, moment, hours):
    """Independent check: step back one hour at a time, counting only hours
    that lie on business days."""
    while hours:
        moment -= timedelta(hours=1)
        if cal.is_business_day(moment.date()):
            hours -= 1
    return moment


@pytest.mark.parametrize(
    "hearing, posted_by",
    [
        (datetime(2026, 9, 8, 19, 0), datetime(2026, 9, 3, 19, 0)),  # Tue after Labor Day
        (datetime(2026, 4, 21, 19, 0), datetime(2026, 4, 16, 19, 0)),  # Tue after Patriots' Day
        (datetime(2026, 4, 27, 19, 0), datetime(2026, 4, 23, 19, 0)),  # Monday: the weekend
        (datetime(2026, 11, 30, 18, 30), datetime(2026, 11, 25, 18, 30)),  # Thanksgiving and the weekend
    ],
)
def test_open_meeting_posting_is_48_business_hours_before_the_hearing(hearing, posted_by):
    cal = town("canton").calendar
    r = clock("canton", "noi", "hearing-posting")(hearing)
    assert r.at == posted_by
    assert business_hours_back_by_walking(cal, hearing, 48) == posted_by
    assert r.rolled == ()


def test_open_meeting_posting_before_a_hearing_on_a_date_alone_counts_from_midnight():
    r = clock("saugus", "noi", "hearing-posting")(date(2026, 4, 21))
    assert r.at == datetime(2026, 4, 16, 0, 0)  # Fri 17 and Thu 16 in full


# -- Appeal period ---------------------------------------------------------------------


def test_ten_business_day_appeal_period_skips_thanksgiving():
    r = clock("wpa", "noi", "appeal-period")(date(2026, 11, 20))  # issued Friday
    assert r.date == date(2026, 12, 7)  # would be 12-04 without Thanksgiving
    assert reasons(r.skipped) == ["Thanksgiving Day"]
    assert r.rolled == ()


def test_mansfield_appeal_period_is_the_state_one_and_skips_thanksgiving_too():
    assert clock("mansfield", "noi", "appeal-period")(date(2026, 11, 20)).date == date(2026, 12, 7)


def test_appeal_period_from_a_saturday_issuance_starts_on_monday():
    # Day 0 is the issuance, day 1 the first business day after it.
    assert clock("wpa", "noi", "appeal-period")(date(2026, 11, 21)).date == date(2026, 12, 7)
    assert clock("wpa", "noi", "appeal-period")(date(2026, 11, 23)).date == date(2026, 12, 8)


# -- The calendar's range ----------------------------------------------------------------


def test_rolling_off_the_calendars_range_is_a_calendar_error_not_a_crash():
    cal = BusinessCalendar()
    with pytest.raises(CalendarError, match="2000"):
        cal.roll_backward(date(2000, 1, 1))
    closed_eve = BusinessCalendar("x", closures={date(2100, 12, 31): "storm"})
    with pytest.raises(CalendarError, match="2100"):
        closed_eve.roll_forward(date(2100, 12, 31))
    assert cal.roll_backward(date(2000, 1, 3)) == date(2000, 1, 3)
