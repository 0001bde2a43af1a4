"""An explanation of a roll names each closed day on its own date: the day
the count landed on first (a weekend day by its weekday, a holiday by its
name), then every closed day passed over, then the day it rolled to.

The trap that started it (issue 20): 21 days after 2023-12-24 land on
Sunday 2024-01-14, and the holiday that kept the next day closed is
Martin Luther King Jr. Day on Monday the 15th, not on the Sunday.  The
property: over 2000-2100, on every kind of calendar, every holiday an
explanation names is on the day it says, and every weekday it names is
that date's weekday.
"""

import re
from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from calendars import (
    ROLL_PAST_SUNDAY_AND_HOLIDAY,
    ROLL_TO_NEXT_BUSINESS_DAY,
    BusinessCalendar,
    CalendarDays,
    LastBusinessDayBefore,
    Months,
    legal_holidays,
)
from cli.main import main

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
CALENDARS = (
    BusinessCalendar("massachusetts"),
    BusinessCalendar("boston", suffolk=True),
    BusinessCalendar("saturdays-closed", saturdays_closed_by_vote=True),
    BusinessCalendar("storm-town", closures={date(2015, 1, 27): "Blizzard closure", date(2078, 12, 24): "Christmas Eve"}),
)
RULES = (
    CalendarDays(21, ROLL_TO_NEXT_BUSINESS_DAY),
    CalendarDays(31, ROLL_TO_NEXT_BUSINESS_DAY),
    CalendarDays(60, ROLL_PAST_SUNDAY_AND_HOLIDAY),
    CalendarDays(0, ROLL_TO_NEXT_BUSINESS_DAY),
    Months(18, ROLL_PAST_SUNDAY_AND_HOLIDAY),
    Months(12, ROLL_TO_NEXT_BUSINESS_DAY),
    LastBusinessDayBefore(12, 1),
)
#: the pieces of a roll's account: "lands on D, WHAT" then "; D is WHAT" ...
LANDS = re.compile(r"lands on (\d{4}-\d{2}-\d{2}), (.*?): rolled (forward|backward|forward under M\.G\.L\. c\.4 §9) to")
STEP = re.compile(r"; (?=\d{4}-\d{2}-\d{2} is )")


def _named_days(text: str) -> list[tuple[date, str]]:
    """(date, what the text says it is) for every closed day it names."""
    m = LANDS.search(text)
    if m is None:
        return []
    first, *rest = STEP.split(m.group(2))
    out = [(date.fromisoformat(m.group(1)), first)]
    for piece in rest:
        day, _, what = piece.partition(" is ")
        out.append((date.fromisoformat(day), what))
    return out


def _check(cal: BusinessCalendar, day: date, what: str) -> None:
    """``what`` is true of ``day``: its weekday, then (if named) its holiday."""
    weekday = WEEKDAYS[day.weekday()]
    if what.startswith("a "):
        said, _, name = what[2:].partition(", ")
        assert said == weekday, f"{day} is a {weekday}, not a {said}"
        if name and not name.startswith("town offices closed by vote"):
            assert cal.closed_reason(day) == name, f"{day} is not {name!r}"
        return
    assert day.weekday() < 5, f"{day} is a {weekday} but named only as {what!r}"
    assert cal.closed_reason(day) == what, f"{day} is {cal.closed_reason(day)!r}, not {what!r}"
    holidays = legal_holidays(day.year, cal.suffolk)
    assert holidays.get(day, what) == what or what in cal.closures.values()


def test_the_explanation_names_the_sunday_and_then_the_monday_holiday_on_its_own_day():
    """Issue 20: "lands on 2024-01-14, Sunday, Martin Luther King Jr. Day"
    put the holiday on the Sunday.  The 14th is a Sunday; the holiday is
    Monday the 15th; the deadline, Tuesday the 16th, was right all along."""
    r = CalendarDays(21, ROLL_TO_NEXT_BUSINESS_DAY).reckon(CALENDARS[0], date(2023, 12, 24))
    text = r.describe("hearing closed")
    assert "lands on 2024-01-14, a Sunday; 2024-01-15 is Martin Luther King Jr. Day: rolled forward to 2024-01-16" in text
    assert _named_days(text) == [(date(2024, 1, 14), "a Sunday"), (date(2024, 1, 15), "Martin Luther King Jr. Day")]


def test_permits_clock_says_the_same_for_the_states_decision_clock(capsys):
    assert main(["clock", "noi", "decision", "--town", "wpa", "--from", "2023-12-24"]) == 0
    out = capsys.readouterr().out
    assert "2024-01-16 Tuesday" in out
    assert "lands on 2024-01-14, a Sunday; 2024-01-15 is Martin Luther King Jr. Day: rolled forward to 2024-01-16" in out


def test_a_holiday_on_a_weekend_is_named_with_its_weekday_and_the_monday_it_closes_after_it():
    """M.G.L. c.4 §7 cl.18: New Year's Day 2023 fell on a Sunday, and the
    Monday after it is the legal holiday."""
    text = CalendarDays(0, ROLL_TO_NEXT_BUSINESS_DAY).reckon(CALENDARS[0], date(2023, 1, 1)).describe()
    assert "lands on 2023-01-01, a Sunday, New Year's Day; 2023-01-02 is New Year's Day (observed)" in text


def test_a_friday_holiday_then_the_weekend_are_each_named_on_their_days():
    text = CalendarDays(31, ROLL_TO_NEXT_BUSINESS_DAY).reckon(CALENDARS[0], date(2026, 11, 24)).describe()
    assert (
        "lands on 2026-12-25, Christmas Day; 2026-12-26 is a Saturday; 2026-12-27 is a Sunday: rolled forward to 2026-12-28"
        in text
    )


@settings(max_examples=400, deadline=None)
@given(
    cal=st.sampled_from(CALENDARS),
    rule=st.sampled_from(RULES),
    start=st.dates(min_value=date(2000, 1, 1), max_value=date(2098, 6, 30)),
)
def test_every_day_an_explanation_names_is_what_it_says_over_2000_to_2100(cal, rule, start):
    r = rule.reckon(cal, start)
    text = r.describe("start")
    named = _named_days(text)
    assert len(named) == len(r.rolled)
    if not named:
        return
    assert named[0][0] == r.counted_to  # the day the count landed on comes first
    for day, what in named:
        _check(cal, day, what)
    # the days named are consecutive, from the landing day to the one before the answer
    step = timedelta(days=1 if r.date > r.counted_to else -1)
    assert [d for d, _ in named] == [r.counted_to + i * step for i in range(len(named))]
