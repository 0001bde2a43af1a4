"""The state's rules as every town inherits them: the Wetlands Protection
Act, M.G.L. c.131 §40, and its regulations, 310 CMR 10.05
(workflows/towns/wpa.py), for a filing under the state alone (``wpa``) and
in a town that runs the state's clocks (Mansfield adopts them, Ch. 15 §4.1;
a wetlands period rolls in every town as 10.05(1) rolls it).

- 310 CMR 10.05(1): a period ends on a business day, Saturdays included.
- 310 CMR 10.05(3): an RDA determined within 21 days of the request.
- 310 CMR 10.05(5)(b), (6)(a): the NOI hearing within 21 days, its newspaper
  notice five business days before, the Order within 21 days of the close.
- 310 CMR 10.05(7)(c): ten business days to ask for a superseding order,
  after an Order, a denial or a determination.
- 310 CMR 10.05(6)(d), (8)(a): an Order is valid three years, and extended
  for one or more periods of up to three years each.
"""

from datetime import date

from _filings import clocks_by_id, ev, replayed

# -- the Act alone: the RDA (310 CMR 10.05(3)) and the NOI (10.05(5)(b), (6)(a)) ---------


def test_wpa_rda_positive_determination_with_appeal_period():
    r = replayed(
        "wpa", "rda", ev("filed", "2026-10-01"), ev("determination-issued", "2026-10-15", positive=True), as_of="2026-10-20"
    )
    c = clocks_by_id(r)
    assert r.state == "positive-determination"
    assert (c["decision"].date.isoformat(), c["decision"].status) == ("2026-10-22", "met")
    assert c["appeal-period"].date.isoformat() == "2026-10-29"


def test_wpa_noi_over_the_new_year_then_denied():
    r = replayed(
        "wpa",
        "noi",
        ev("filed", "2026-12-10"),
        ev("hearing-scheduled", "2026-12-11", hearing="2026-12-29"),
        ev("notice-published", "2026-12-21"),
        ev("hearing-opened", "2026-12-29"),
        ev("hearing-continued", "2026-12-29", to="2027-01-05"),
        ev("hearing-closed", "2027-01-05"),
        ev("permit-denied", "2027-01-20"),
        as_of="2027-02-01",
    )
    c = clocks_by_id(r)
    assert r.state == "denied"
    assert c["hearing-open"].date.isoformat() == "2026-12-31"
    # five business days before Tue 12-29: 28, 24, 23, 22, 21 (Christmas not counted)
    assert c["newspaper-notice"].date.isoformat() == "2026-12-21"
    assert (c["decision"].date.isoformat(), c["decision"].status) == ("2027-01-26", "met")
    assert "permit-expiry" not in c


# -- the appeal period (310 CMR 10.05(7)(c)) ---------------------------------------------


def test_a_denial_starts_the_state_appeal_period():
    r = replayed(
        "wpa",
        "noi",
        ev("filed", "2026-12-01"),
        ev("hearing-opened", "2026-12-15"),
        ev("hearing-closed", "2026-12-15"),
        ev("permit-denied", "2026-12-29"),
        as_of="2027-01-05",
    )
    appeal = clocks_by_id(r)["appeal-period"]
    # 10 business days after Dec 29, New Year's Day not counted
    assert appeal.date.isoformat() == "2027-01-13"
    assert appeal.status == "open"
    assert "permit-expiry" not in clocks_by_id(r)


def test_appeal_period_still_shows_after_a_final_rda_determination():
    r = replayed(
        "mansfield",
        "rda",
        ev("filed", "2026-10-01"),
        ev("hearing-opened", "2026-10-14"),
        ev("hearing-closed", "2026-10-14"),
        ev("determination-issued", "2026-10-15", positive=False),
        as_of="2026-10-16",
    )
    appeal = r.clock("appeal-period")
    assert appeal is not None, "the 10-business-day appeal period runs from the determination"
    assert (appeal.date.isoformat(), appeal.status) == ("2026-10-29", "open")


# -- extensions of an Order (310 CMR 10.05(8)(a)) ----------------------------------------


def test_wpa_noi_renewal_extends_by_the_states_period():
    r = replayed(
        "wpa",
        "noi",
        ev("filed", "2026-01-05"),
        ev("hearing-opened", "2026-01-20"),
        ev("hearing-closed", "2026-01-20"),
        ev("permit-issued", "2026-02-02"),
        ev("renewal-requested", "2028-12-01"),
        ev("permit-renewed", "2028-12-15"),
        as_of="2029-03-01",
    )
    assert r.clock("permit-expiry").date.isoformat() == "2032-02-02"


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


# -- a period ends on a business day, Saturdays included (310 CMR 10.05(1)) --------------


def test_a_wetlands_period_still_rolls_off_a_saturday_naming_310_cmr_10_05_1():
    """310 CMR 10.05(1): wetlands periods end on a business day, Saturdays
    included.  06-13 + 21 = Saturday 07-04 (Independence Day) -> Monday 07-06."""
    r = replayed("saugus", "noi", ev("filed", "2026-06-13"), as_of="2026-06-14")
    c = r.clock("hearing-open")
    assert c.date == date(2026, 7, 6) and "310 CMR 10.05(1)" in c.explanation


# -- 310 CMR 10.05(4)(a): who receives the abutter notice -------------------------------------


def test_the_state_notifies_owners_within_100_feet_and_those_directly_opposite_on_a_wider_way():
    import parcelkit as kit

    from parcels.abutters import abutters_of
    from workflows.towns import abutter_rule

    rule = abutter_rule("wpa", "noi")
    assert (rule.citation, rule.within_feet, rule.opposite_on_ways) == ("310 CMR 10.05(4)(a)", 100, True)
    idx = kit.index()
    got = kit.names(idx, [h.position for h in abutters_of(idx, idx.find("saugus", "3-3"), rule)])
    assert "M3" in got and not {"M2", "M4"} & got  # 131 ft across the Boulevard: only the lot directly opposite
