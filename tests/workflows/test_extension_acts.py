"""The Permit Extension Acts applied to permit-expiry, each cited in the
explanation, and the event that records an Act does not apply."""

from datetime import date

import pytest
from _filings import ev, replayed

from workflows.errors import MalformedEvent, TransitionRefused


def order(town, issued, *more, as_of="2026-11-30"):
    return replayed(
        town,
        "noi",
        ev("filed", "2008-01-02"),
        ev("hearing-opened", "2008-01-03"),
        ev("hearing-closed", "2008-01-03"),
        ev("permit-issued", issued),
        *more,
        as_of=as_of,
    )


def test_an_order_in_effect_in_2010_runs_four_more_years_under_the_2010_act_as_amended():
    """St. 2010 c.240 §173 as amended by St. 2012 c.238 §§74-75: approvals in
    effect between 2008-08-15 and 2012-08-15 get four years more.  Issued
    2009-06-01, three years to 2012-06-01, extended to 2016-06-01."""
    c = order("wpa", "2009-06-01").clock("permit-expiry")
    assert c.date == date(2016, 6, 1)
    assert "extended from 2012-06-01 to 2016-06-01 by St. 2010 c.240 §173" in c.explanation
    assert "St. 2012 c.238 §§74-75" in c.explanation


def test_an_order_in_effect_on_march_10_2020_is_tolled_for_the_emergency():
    """St. 2020 c.53 §17: a permit in effect on March 10, 2020 does not lapse
    during the state of emergency (ended June 15, 2021): 462 days added."""
    c = order("canton", "2019-06-03", as_of="2022-01-01").clock("permit-expiry")
    # 2019-06-03 + 36 months = 2022-06-03; + 462 days = 2023-09-08; then in effect
    # in 2023: + 2 years (St. 2024 c.238 §280) = 2025-09-08
    assert "tolled from 2022-06-03 to 2023-09-08 by St. 2020 c.53 §17" in c.explanation
    assert "extended from 2023-09-08 to 2025-09-08 by St. 2024 c.238 §280" in c.explanation
    assert c.date == date(2025, 9, 8)


def test_an_order_in_effect_in_2023_gets_two_more_years_under_the_2024_act():
    """St. 2024 c.238 §280: approvals in effect between 2023-01-01 and
    2025-01-01 get two more years."""
    c = order("saugus", "2024-03-01").clock("permit-expiry")
    assert c.date == date(2029, 3, 1)
    assert "St. 2024 c.238 §280" in c.explanation


def test_an_order_issued_after_the_acts_windows_is_not_extended():
    c = order("wpa", "2025-02-03").clock("permit-expiry")
    assert c.date == date(2028, 2, 3) and "Act" not in c.explanation


def test_a_street_opening_permit_is_not_extended_by_any_act():
    """The Acts cover approvals with terms of years; a 30-day street permit
    (Canton 16-12 §10.1) is not among the kinds they are applied to."""
    r = replayed(
        "canton",
        "street-opening",
        ev("filed", "2024-06-01", length_ft=20),
        ev("dig-safe-obtained", "2024-06-01", ticket="1"),
        ev("permit-issued", "2024-06-03"),
        as_of="2024-06-05",
    )
    assert r.clock("permit-expiry").date == date(2024, 7, 3)


def test_a_filing_records_that_an_act_does_not_apply_and_the_explanation_says_so():
    """A holder's election or a court's ruling: `act-not-applied` names the Act."""
    c = order(
        "saugus", "2024-03-01", ev("act-not-applied", "2024-09-01", act="pea-2024", reason="holder's written election")
    ).clock("permit-expiry")
    assert c.date == date(2027, 3, 1)
    assert (
        "St. 2024 c.238 §280 (Permit Extension Act, 2024) not applied: holder's written election (event 5, 2024-09-01)"
        in c.explanation
    )


def test_an_unknown_act_is_refused_naming_the_known_ones():
    with pytest.raises(MalformedEvent, match="pea-2010, covid-tolling, pea-2024"):
        order("saugus", "2024-03-01", ev("act-not-applied", "2024-09-01", act="pea-2099", reason="x"))


def test_an_act_not_applied_before_the_permit_is_issued_is_refused():
    with pytest.raises(TransitionRefused):
        replayed(
            "saugus",
            "noi",
            ev("filed", "2024-01-02"),
            ev("act-not-applied", "2024-01-03", act="pea-2024", reason="x"),
        )


def test_a_renewal_asked_inside_the_extended_term_is_not_refused_as_after_expiry():
    """The extended expiry is the permit's expiry for every rule (310 CMR
    10.05(8)(a): an expired Order cannot be extended; this one has not expired)."""
    r = order(
        "wpa",
        "2009-06-01",
        ev("renewal-requested", "2016-04-01"),
        ev("permit-renewed", "2016-04-15"),
        as_of="2016-05-01",
    )
    assert r.state == "renewed"
