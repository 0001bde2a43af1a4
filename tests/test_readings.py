"""Readings of ambiguous by-law text, one trap test each,
each citing the text it reads (docs/reference/readings.md gives the reasons)."""

from datetime import date, datetime

import pytest
from _filings import ev, replayed

from calendars import ROLL_PAST_SUNDAY_AND_HOLIDAY, BusinessCalendar, CalendarDays
from workflows.errors import TransitionRefused
from workflows.rulebook import TownProfile
from workflows.towns import town

# -- Saturdays: M.G.L. c.4 §9, c.41 §110A; 310 CMR 10.05(1) ---------------------------------


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


def test_a_wetlands_period_still_rolls_off_a_saturday_naming_310_cmr_10_05_1():
    """310 CMR 10.05(1): wetlands periods end on a business day, Saturdays
    included.  06-13 + 21 = Saturday 07-04 (Independence Day) -> Monday 07-06."""
    r = replayed("saugus", "noi", ev("filed", "2026-06-13"), as_of="2026-06-14")
    c = r.clock("hearing-open")
    assert c.date == date(2026, 7, 6) and "310 CMR 10.05(1)" in c.explanation


def test_a_street_opening_deadline_on_a_saturday_is_not_moved_in_canton():
    """Canton 16-12 §11.4(d) (30 days to answer) counted under M.G.L. c.4 §9."""
    c = town("canton").rules("street-opening").clock("certification-answer")
    r = c.measure.reckon(town("canton").calendar, date(2027, 7, 1))
    assert r.date == date(2027, 7, 31)


# -- the winter patch (Canton 16-12 §11.3(c)) ------------------------------------------------


def test_a_winter_patch_clock_with_no_length_on_record_is_unknown_with_its_reason():
    """Canton 16-12 §11.3(c) applies to work "that exceeds 30 feet in length";
    with no length_ft the engine cannot tell, and says so."""
    r = replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-06-01"),
        ev("dig-safe-obtained", "2026-06-01", ticket="1"),
        ev("permit-issued", "2026-06-02"),
        ev("work-noticed", at="2026-06-02T08:00"),
        ev("excavation-started", "2026-06-08"),
        as_of="2026-11-20",
    )
    c = r.clock("winter-patch")
    assert (c.status, c.date) == ("unknown", date(2026, 11, 30))
    assert "gives no length" in c.explanation and "16-12 §11.3(c)" in c.explanation


# -- the CDF cure (Canton 16-12 §11.2) --------------------------------------------------------


def test_the_cdf_cure_counts_24_hours_from_placement_or_from_the_end_of_a_date_only_day():
    """Canton 16-12 §11.2: "wait twenty-four hours for the CDF to cure prior to
    applying the Permanent Patch"."""

    def cure(backfill, patch):
        return replayed(
            "canton",
            "street-opening",
            ev("filed", "2026-06-01", length_ft=20),
            ev("dig-safe-obtained", "2026-06-01", ticket="1"),
            ev("permit-issued", "2026-06-02"),
            ev("work-noticed", at="2026-06-02T08:00"),
            ev("excavation-started", "2026-06-08"),
            backfill,
            patch,
            as_of="2026-06-20",
        ).clock("cdf-cure")

    timed = cure(ev("backfilled", at="2026-06-10T14:00", material="cdf"), ev("permanent-patch-placed", at="2026-06-11T13:00"))
    assert timed.at == datetime(2026, 6, 11, 14, 0) and timed.status == "premature"
    dated = cure(ev("backfilled", "2026-06-10", material="cdf"), ev("permanent-patch-placed", "2026-06-11"))
    assert dated.at == datetime(2026, 6, 12, 0, 0) and dated.status == "premature"
    assert "counted from the end of 2026-06-10" in dated.explanation


# -- State Orders: extensions repeatable (310 CMR 10.05(8)(a)) --------------------------------


def test_a_state_order_may_be_extended_again_for_up_to_three_years_each():
    """310 CMR 10.05(8)(a): an Order may be extended "for one or more periods
    of up to three years each"."""
    r = replayed(
        "wpa",
        "noi",
        ev("filed", "2026-01-05"),
        ev("hearing-opened", "2026-01-20"),
        ev("hearing-closed", "2026-01-20"),
        ev("permit-issued", "2026-02-02"),
        ev("renewal-requested", "2028-12-01"),
        ev("permit-renewed", "2028-12-15"),
        ev("renewal-requested", "2031-12-01"),
        ev("permit-renewed", "2031-12-15"),
        as_of="2032-01-01",
    )
    assert r.clock("permit-expiry").date == date(2035, 2, 2)
    assert "renewed 2 time(s)" in r.clock("permit-expiry").explanation


def test_after_one_extension_the_next_request_is_counted_from_the_new_expiry():
    r = replayed(
        "wpa",
        "noi",
        ev("filed", "2026-01-05"),
        ev("hearing-opened", "2026-01-20"),
        ev("hearing-closed", "2026-01-20"),
        ev("permit-issued", "2026-02-02"),
        ev("renewal-requested", "2028-12-01"),
        ev("permit-renewed", "2028-12-15"),
        as_of="2031-12-01",
    )
    c = r.clock("renewal-request")
    assert (c.date, c.status) == (date(2032, 1, 3), "open")  # 30 days before 2032-02-02


def test_a_canton_order_is_still_renewed_only_once():
    """Canton Wetlands By-Law 15-7: one renewal."""
    with pytest.raises(TransitionRefused, match="only once"):
        replayed(
            "canton",
            "noi",
            ev("filed", "2026-01-05"),
            ev("hearing-opened", "2026-01-20"),
            ev("hearing-closed", "2026-01-20"),
            ev("permit-issued", "2026-02-02"),
            ev("renewal-requested", "2028-12-01"),
            ev("permit-renewed", "2028-12-15"),
            ev("renewal-requested", "2029-12-01"),
        )
