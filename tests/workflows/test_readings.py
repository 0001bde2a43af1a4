"""Readings of ambiguous statute text, one trap test each, each citing the
text it reads (docs/reference/readings.md gives the reasons): when a last day on a
Saturday moves (M.G.L. c.4 §9, c.41 §110A).

The readings of one town's rules are in its file in towns/: the winter
patch, the CDF cure and a street opening's Saturday (Canton 16-12 §11.3(c),
§11.2, §11.4(d)) and the one wetlands renewal (15-7) in test_canton.py; a
wetlands period's Saturday (310 CMR 10.05(1)) and the repeatable state
extensions (10.05(8)(a)) in test_wpa.py."""

from datetime import date

from calendars import ROLL_PAST_SUNDAY_AND_HOLIDAY, BusinessCalendar, CalendarDays
from workflows.rulebook import TownProfile
from workflows.towns import town

# -- Saturdays: M.G.L. c.4 §9, c.41 §110A --------------------------------------------------


def test_a_by_law_last_day_on_a_saturday_stays_unless_the_town_voted_to_close_saturdays():
    """M.G.L. c.4 §9 moves a last day off a Sunday or legal holiday; off a
    Saturday only where the town voted under M.G.L. c.41 §110A."""
    rule = CalendarDays(30, ROLL_PAST_SUNDAY_AND_HOLIDAY)
    start = date(2027, 7, 1)  # + 30 = Saturday 2027-07-31
    open_saturdays = rule.reckon(BusinessCalendar("x"), start)
    assert (open_saturdays.date, open_saturdays.rolled) == (date(2027, 7, 31), ())
    voted = rule.reckon(BusinessCalendar("x", saturdays_closed_by_vote=True), start)
    assert voted.date == date(2027, 8, 2)
    text = voted.describe("certification requested")
    assert "M.G.L. c.41 §110A" in text and "rolled forward under M.G.L. c.4 §9 to 2027-08-02" in text


def test_a_sunday_last_day_moves_under_c4_s9_and_the_explanation_says_so():
    rule = CalendarDays(7, ROLL_PAST_SUNDAY_AND_HOLIDAY)
    r = rule.reckon(BusinessCalendar("x"), date(2027, 7, 25))  # + 7 = Sunday 08-01
    assert r.date == date(2027, 8, 2) and "under M.G.L. c.4 §9" in r.describe()


def test_the_saturday_closure_is_a_town_setting_with_its_citation():
    """TownProfile.saturday_closure cites the c.41 §110A vote; the town's
    calendar follows it.  The shipped towns record no vote."""
    voted = TownProfile(id="x-town", name="X", county="Norfolk", permits={}, saturday_closure="ATM 1999 art. 12 (c.41 §110A)")
    assert voted.calendar.saturdays_closed_by_vote
    for t in ("canton", "mansfield", "saugus"):
        assert town(t).saturday_closure == "" and not town(t).calendar.saturdays_closed_by_vote
