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

from _filings import clocks_by_id, ev, refused, replayed

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


# -- the rest of an Order's life (issue 20): every state Order, whatever the by-law adds -----

ORDER = (
    ev("filed", "2026-03-02"),
    ev("hearing-opened", "2026-03-16"),
    ev("hearing-closed", "2026-03-16"),
    ev("permit-issued", "2026-03-20"),  # a Friday
)


def order(*more, town="wpa", as_of="2026-12-31"):
    return replayed(town, "noi", *ORDER, *more, as_of=as_of)


def test_a_certificate_asked_on_the_friday_before_a_monday_holiday_is_due_21_days_after_that_friday():
    """310 CMR 10.05 (WPA Form 8A, 8B): the Certificate is issued or denied
    "within 21 days of receipt" of the written request.  Asked Friday
    2027-02-12, before Presidents' Day (Monday 02-15): day 0 is the Friday,
    the holiday at the start moves nothing, day 21 is Friday 2027-03-05."""
    r = order(
        ev("certificate-requested", "2027-02-12", requested_by="Neponset Builders LLC", scope="complete"), as_of="2027-02-16"
    )
    c = r.clock("certificate-decision")
    assert (c.date, c.status, c.type) == (date(2027, 3, 5), "open", "deadline")
    assert "21 calendar days after 2027-02-12 (Certificate of Compliance requested in writing); is 2027-03-05" in c.explanation
    assert "310 CMR 10.05" in c.rule and "WPA Forms 8A, 8B" in c.rule


def test_a_certificate_due_on_patriots_day_is_due_the_tuesday_after():
    """310 CMR 10.05(1): a period of more than ten days whose last day is a
    legal holiday ends on the next business day: asked 2027-03-29, day 21
    is Monday 2027-04-19, Patriots' Day."""
    r = order(ev("certificate-requested", "2027-03-29", requested_by="the owner", scope="complete"), as_of="2027-04-01")
    c = r.clock("certificate-decision")
    assert c.date == date(2027, 4, 20)
    assert "lands on 2027-04-19, Patriots' Day: rolled forward to 2027-04-20" in c.explanation


def test_a_complete_certificate_leaves_the_order_certified_and_its_recording_ends_the_filing():
    asked = ev("certificate-requested", "2027-02-12", requested_by="the owner", scope="complete")
    issued = ev("certificate-issued", "2027-03-01", scope="complete", continuing=["The swale is maintained in perpetuity."])
    certified = order(asked, issued)
    assert certified.state == "certified"
    assert certified.clock("certificate-decision").status == "met"
    done = order(asked, issued, ev("certificate-recorded", "2027-03-08", instrument="Book 41234, Page 12"))
    assert done.state == "completed"


def test_a_certificate_decided_after_21_days_is_late_and_a_denial_keeps_the_order_in_force():
    asked = ev("certificate-requested", "2027-02-12", requested_by="the owner", scope="complete")
    r = order(asked, ev("certificate-denied", "2027-03-09", reasons=["The replication area has not taken."]))
    assert r.state == "issued"
    c = r.clock("certificate-decision")
    assert (c.status, c.date) == ("late", date(2027, 3, 5))
    assert "4 days after the deadline" in c.explanation


def test_a_partial_certificate_leaves_the_rest_of_the_order_in_force_and_may_be_recorded():
    partial = ev("certificate-issued", "2027-03-01", scope="partial", portion="Lot 1 only")
    r = order(
        ev("certificate-requested", "2027-02-12", requested_by="the owner", scope="partial"),
        partial,
        ev("certificate-recorded", "2027-03-08"),
    )
    assert r.state == "issued"


def test_recording_a_certificate_that_was_never_issued_is_refused():
    refused("wpa", "noi", *ORDER, ev("certificate-recorded", "2027-03-08"), match="no Certificate of Compliance is on record")


def test_work_begun_on_day_9_of_the_appeal_period_is_premature():
    """310 CMR 10.05(7)(c) and the Order's general conditions: no work until
    the appeal period, ten business days from issuance ending at the close
    of business on the tenth, has passed.  Issued Friday 2026-03-20: day 9
    is Thursday 04-02, day 10 Friday 04-03; work may begin Saturday 04-04."""
    r = order(ev("permit-recorded", "2026-03-25"), ev("work-started", "2026-04-02"))
    c = r.clock("appeal-before-work")
    assert (c.type, c.date, c.status) == ("earliest", date(2026, 4, 4), "premature")
    assert "the period ends at the close of business on 2026-04-03" in c.explanation
    assert "PREMATURE: work-started on 2026-04-02 (event 6)" in c.explanation
    on_day_10 = order(ev("permit-recorded", "2026-03-25"), ev("work-started", "2026-04-03"))
    assert on_day_10.clock("appeal-before-work").status == "premature"
    after = order(ev("permit-recorded", "2026-03-25"), ev("work-started", "2026-04-04"))
    assert after.clock("appeal-before-work").status == "passed"


def test_work_while_an_appeal_is_pending_is_a_violation_until_it_is_decided():
    """WPA Form 5's general conditions: no work until every appeal taken is
    finished.  A request for a superseding order filed 04-01 and decided
    06-15: work on 05-01 is a violation, work on 06-16 is not."""
    asked = ev("appeal-requested", "2026-04-01", by="an abutter")
    r = order(ev("permit-recorded", "2026-03-25"), asked, ev("work-started", "2026-05-01"))
    c = r.clock("appeal-before-work")
    assert c.status == "violated" and "while the appeal of 2026-04-01 (event 6) was pending, not yet decided" in c.explanation
    ok = order(ev("permit-recorded", "2026-03-25"), asked, ev("appeal-decided", "2026-06-15"), ev("work-started", "2026-06-16"))
    assert ok.clock("appeal-before-work").status == "passed"


def test_a_state_orders_work_before_its_recording_is_a_violation():
    """M.G.L. c.131 §40 and WPA Form 5's general conditions: no work until
    the Order is recorded at the Registry of Deeds (issue 20: it went
    unflagged outside Saugus)."""
    r = order(ev("work-started", "2026-04-20"))
    c = r.clock("recording-before-work")
    assert (c.status, c.date) == ("violated", date(2026, 4, 20))
    assert "no permit-recorded before it" in c.explanation and "WPA Form 5" in c.rule
    late = order(ev("work-started", "2026-04-20"), ev("permit-recorded", "2026-04-27"))
    assert (late.clock("recording-before-work").status, late.clock("recording-before-work").date) == (
        "premature",
        date(2026, 4, 27),
    )
    ok = order(ev("permit-recorded", "2026-04-01"), ev("work-started", "2026-04-20"))
    assert ok.clock("recording-before-work").status == "passed"


def test_work_after_the_order_expired_is_violated_not_expired():
    """310 CMR 10.05(8)(a): work on an expired Order is a violation; an
    expired Order cannot be extended (issue 20: it showed `expired`)."""
    r = order(ev("permit-recorded", "2026-03-25"), ev("work-observed", "2029-04-02", what="grading"), as_of="2029-05-01")
    c = r.clock("permit-expiry")
    assert (c.date, c.status) == (date(2029, 3, 20), "violated")
    assert "work-observed on 2029-04-02 (event 6) after the permit expired on 2029-03-20" in c.explanation
    assert "310 CMR 10.05(8)(a)" in c.explanation


def test_an_emergency_certification_of_more_than_30_days_needs_the_commissioners_approval():
    """310 CMR 10.06(3): emergency work "shall not exceed 30 days ... unless
    written approval of the Commissioner is obtained"."""
    refused(
        "wpa",
        "noi",
        ev("emergency-certified", "2026-05-01", days=45, work="shore up the dam"),
        match="at most 30 days of work, not 45",
    )
    r = replayed(
        "wpa",
        "noi",
        ev("emergency-certified", "2026-05-01", days=45, work="shore up the dam", commissioner_approved=True),
        as_of="2026-05-02",
    )
    assert r.state == "emergency-work" and r.clock("emergency-certification").date == date(2026, 6, 15)


def test_work_inside_the_certification_is_allowed_and_after_it_without_a_filing_is_overdue():
    """310 CMR 10.06(1)-(3): the certified work only, for its days; work that
    goes on needs a Notice of Intent.  Certified 05-01 for 20 days (to 05-21,
    never rolled: a limit on work, not a day at the office)."""
    cert = ev("emergency-certified", "2026-05-01", days=20, work="replace the failed culvert")
    inside = replayed("wpa", "noi", cert, ev("work-observed", "2026-05-10"), as_of="2026-05-15")
    assert inside.clock("emergency-certification").status == "active" and inside.clock("emergency-continuation") is None
    on = replayed("wpa", "noi", cert, ev("work-observed", "2026-05-25"), as_of="2026-06-01")
    c = on.clock("emergency-continuation")
    assert (c.type, c.date, c.status) == ("deadline", date(2026, 5, 21), "overdue")
    filed = replayed("wpa", "noi", cert, ev("work-observed", "2026-05-25"), ev("filed", "2026-05-28"), as_of="2026-06-01")
    assert filed.clock("emergency-continuation").status == "late" and filed.state == "filed"
