"""Work with no permit in force is a violation (workflows/unpermitted.py).

- Canton 15-4: "No activities shall commence without receiving and
  complying with a permit issued pursuant to this by-law."
- M.G.L. c.131 §40: "No person shall remove, fill, dredge or alter any area
  subject to protection under this section without the required
  authorization ... receiving and complying with an order of conditions".
- Saugus 508.08 §3: "No person shall remove, fill, dredge ... without
  filing a Notice of Intent ... and receiving and complying with an Order
  of Conditions issued by the Commission."
- Mansfield Ch. 25 Part B §4: "Except as permitted by the Conservation
  Commission ... no person shall perform any activity that results in
  disturbance of an acre or more of land."
"""

from datetime import date

from _filings import ev, replayed

from sweep.agenda import docket_entries

FILED = ev("filed", "2026-03-02")


def test_canton_work_seen_before_any_permit_is_a_violation_citing_15_4_and_the_act():
    """The issue's case: a Canton NOI filed 2026-03-02, work seen 03-10 with
    no Order.  It replayed as `filed` with only the hearing clock open."""
    r = replayed("canton", "noi", FILED, ev("work-observed", "2026-03-10", what="grading"), as_of="2026-03-12", also=["wpa"])
    c = r.clock("work-without-permit")
    assert (r.state, c.type, c.date, c.status) == ("filed", "earliest", date(2026, 3, 10), "violated")
    assert c.rule == "Canton Wetlands By-Law 15-4; M.G.L. c.131 §40"
    assert "work-observed on 2026-03-10 (event 2) before any Order of Conditions" in c.explanation
    assert "without receiving and complying with a permit" in c.explanation
    lines = docket_entries(r, date(2026, 3, 12))
    assert [(e.what, e.status) for e in lines if e.category == "violation"] == [("work-without-permit", "violated")]


def test_a_canton_filing_heard_under_the_bylaw_alone_cites_15_4_only():
    r = replayed("canton", "noi", FILED, ev("work-started", "2026-03-10"))
    assert r.clock("work-without-permit").rule == "Canton Wetlands By-Law 15-4"


def test_work_under_an_order_in_force_is_not_work_without_a_permit():
    r = replayed(
        "canton",
        "noi",
        FILED,
        ev("hearing-opened", "2026-03-16"),
        ev("hearing-closed", "2026-03-16"),
        ev("permit-issued", "2026-03-30"),
        ev("permit-recorded", "2026-04-06"),
        ev("work-started", "2026-04-20"),
        also=["wpa"],
    )
    assert r.clock("work-without-permit") is None
    assert r.clock("recording-before-work").status == "passed"


def test_work_after_expiry_is_the_expiry_violation_only():
    """One act, one violation: work on an expired Order is 310 CMR
    10.05(8)(a)'s (permit-expiry violated), not also work without a permit."""
    r = replayed(
        "wpa",
        "noi",
        FILED,
        ev("hearing-opened", "2026-03-16"),
        ev("hearing-closed", "2026-03-16"),
        ev("permit-issued", "2026-03-20"),
        ev("permit-recorded", "2026-03-25"),
        ev("work-observed", "2029-04-02"),
        as_of="2029-05-01",
    )
    assert r.clock("permit-expiry").status == "violated" and r.clock("work-without-permit") is None


def test_saugus_work_after_a_denial_is_a_violation_citing_section_3():
    r = replayed(
        "saugus",
        "noi",
        FILED,
        ev("hearing-opened", "2026-03-16"),
        ev("hearing-closed", "2026-03-16"),
        ev("permit-denied", "2026-03-30"),
        ev("work-observed", "2026-04-15", what="fill placed in the buffer zone"),
        also=["wpa"],
    )
    c = r.clock("work-without-permit")
    assert r.state == "denied" and c.status == "violated" and c.date == date(2026, 4, 15)
    assert c.rule == "Saugus Wetlands By-Law 508.08 §3; M.G.L. c.131 §40"
    assert "after the permit was denied on 2026-03-30 (event 4)" in c.explanation


def test_work_after_a_revocation_or_a_withdrawal_is_a_violation():
    issued = (FILED, ev("hearing-opened", "2026-03-16"), ev("hearing-closed", "2026-03-16"), ev("permit-issued", "2026-03-20"))
    r = replayed("wpa", "noi", *issued, ev("permit-revoked", "2026-06-01"), ev("work-observed", "2026-06-10"))
    assert "after the permit was revoked on 2026-06-01" in r.clock("work-without-permit").explanation
    w = replayed("wpa", "noi", FILED, ev("withdrawn", "2026-03-05"), ev("work-observed", "2026-03-20"))
    assert "after the filing was withdrawn" in w.clock("work-without-permit").explanation


def test_work_after_a_positive_determination_is_a_violation_and_after_a_negative_one_is_not():
    """A positive Determination: the work needs a Notice of Intent (and an
    Order) first; a negative one lets it go ahead for its three years."""
    pos = replayed(
        "wpa", "rda", FILED, ev("determination-issued", "2026-03-10", positive=True), ev("work-observed", "2026-04-01")
    )
    c = pos.clock("work-without-permit")
    assert c.status == "violated" and "after the positive Determination of 2026-03-10" in c.explanation
    assert c.rule == "M.G.L. c.131 §40"
    neg = replayed(
        "wpa", "rda", FILED, ev("determination-issued", "2026-03-10", positive=False), ev("work-observed", "2026-04-01")
    )
    assert neg.clock("work-without-permit") is None
    early = replayed("wpa", "rda", FILED, ev("work-observed", "2026-03-05"))
    assert early.clock("work-without-permit").status == "violated"
    expired = replayed(
        "wpa", "rda", FILED, ev("determination-issued", "2026-03-10", positive=False), ev("work-observed", "2029-04-01")
    )
    assert "after the Determination expired on 2029-03-10" in expired.clock("work-without-permit").explanation


def test_mansfield_land_disturbance_before_its_permit_is_a_violation_citing_section_4():
    r = replayed("mansfield", "land-disturbance", FILED, ev("work-started", "2026-03-20"))
    c = r.clock("work-without-permit")
    assert c.status == "violated" and c.rule == "Mansfield Stormwater By-Law Ch. 25 Part B §4"


def test_only_the_first_unpermitted_work_is_named():
    r = replayed("wpa", "noi", FILED, ev("work-observed", "2026-03-05"), ev("work-observed", "2026-03-09"))
    assert [c.date for c in r.clocks if c.id == "work-without-permit"] == [date(2026, 3, 5)]


def test_a_canton_emergency_project_is_judged_by_its_own_clocks_until_its_application_is_due():
    """Canton 15-3 exempts a certified emergency project, "provided that
    within 21 days of commencement ... a permit application shall be
    filed": until then its work is its clocks' to judge."""
    start = ev("emergency-work-started", at="2026-05-01T07:00")
    inside = replayed("canton", "noi", start, ev("emergency-noticed", at="2026-05-01T09:00"), ev("work-observed", "2026-05-10"))
    assert inside.clock("work-without-permit") is None
    after = replayed(
        "canton",
        "noi",
        start,
        ev("emergency-noticed", at="2026-05-01T09:00"),
        ev("filed", "2026-05-15"),
        ev("work-observed", "2026-06-01"),
    )
    assert after.clock("work-without-permit").status == "violated"


# -- emergency certifications to their end (310 CMR 10.06; c.131 §40) ---------------------

CERT = ev("emergency-certified", "2026-05-01", days=20, work="replace the failed culvert")


def test_work_after_the_certifications_last_day_is_violated_even_with_a_notice_of_intent_filed():
    """310 CMR 10.06(3): the certified work only, "not to exceed 30 days";
    c.131 §40: no alteration without an Order.  An NOI filed during the
    certification does not allow work after it ends (issue 33: it flagged
    nothing, and showed the certification "expired")."""
    r = replayed("wpa", "noi", CERT, ev("filed", "2026-05-15"), ev("work-observed", "2026-05-25"), as_of="2026-06-01")
    c = r.clock("emergency-certification")
    assert (c.date, c.status) == (date(2026, 5, 21), "violated")
    assert c.rule == "310 CMR 10.06(1)-(3); M.G.L. c.131 §40"
    assert "work-observed on 2026-05-25 (event 3) after the emergency certification's last day, 2026-05-21" in c.explanation
    assert r.clock("emergency-continuation") is None  # the filing it asks for is on record
    assert r.clock("work-without-permit") is None  # one act, one violation
    assert [e.what for e in docket_entries(r, date(2026, 6, 1)) if e.category == "violation"] == ["emergency-certification"]


def test_work_after_the_certification_with_no_filing_is_violated_and_the_filing_overdue():
    r = replayed("wpa", "noi", CERT, ev("work-started", "2026-05-25"), as_of="2026-06-01")
    assert r.clock("emergency-certification").status == "violated"
    assert r.clock("emergency-continuation").status == "overdue"


def test_work_inside_the_certification_or_under_the_order_that_followed_it_is_no_violation():
    inside = replayed("wpa", "noi", CERT, ev("work-observed", "2026-05-21"), as_of="2026-06-01")
    assert inside.clock("emergency-certification").status == "expired"
    ordered = replayed(
        "wpa",
        "noi",
        CERT,
        ev("filed", "2026-05-15"),
        ev("hearing-opened", "2026-05-20"),
        ev("hearing-closed", "2026-05-20"),
        ev("permit-issued", "2026-05-21"),
        ev("permit-recorded", "2026-05-22"),
        ev("work-observed", "2026-06-10"),
        as_of="2026-06-15",
    )
    assert ordered.clock("emergency-certification").status == "expired"
    assert ordered.clock("work-without-permit") is None
