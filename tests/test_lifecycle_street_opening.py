"""A Canton Street Opening Permit (16-12) through every branch of its life:
emergency start, term and renewal, the work notice, the four inspections,
flowable fill, the temporary patch and its window, the winter patch,
settlement and certification answers, suspension, revocation and refund.
Dates are worked by hand from the rules of docs/reference/dates.md ("How dates are counted") and the by-law sections each test cites."""

import pytest
from _filings import ev, replayed

from workflows.errors import TransitionRefused

DIG = ev("dig-safe-obtained", "2026-06-01", ticket="20262201234")


def issued(*events, as_of="2026-06-30", filed=None):
    return replayed(
        "canton",
        "street-opening",
        filed or ev("filed", "2026-06-01", applicant="private", length_ft=20),
        DIG,
        ev("permit-issued", "2026-06-01"),
        *events,
        as_of=as_of,
    )


def patched(temporary="2026-06-15", *events, as_of="2026-12-31", **kw):
    """Issued, dug, backfilled with gravel, temporarily patched."""
    return issued(
        ev("excavation-started", "2026-06-08"),
        ev("inspected", "2026-06-09", stage="pre-backfill", result="pass"),
        ev("backfilled", "2026-06-10", material="gravel"),
        ev("temporary-patch-placed", temporary),
        *events,
        as_of=as_of,
        **kw,
    )


# -- emergency ---------------------------------------------------------------


def test_emergency_work_on_the_eve_of_thanksgiving_is_filed_by_the_friday_after():
    r = replayed(
        "canton",
        "street-opening",
        ev("emergency-work-started", at="2026-11-25T22:00"),
        ev("filed", "2026-11-27", emergency=True),
        as_of="2026-11-27",
    )
    clock = r.clock("emergency-filing")
    # next business day after Wed 11-25: Thu 11-26 is Thanksgiving, Fri 11-27 is open
    assert (clock.type, clock.date.isoformat(), clock.status) == ("deadline", "2026-11-27", "met")
    assert "Thanksgiving" in clock.explanation and clock.rule.endswith("16-12 §7")
    assert r.state == "applied"


def test_emergency_application_filed_the_monday_after_is_late():
    r = replayed(
        "canton",
        "street-opening",
        ev("emergency-work-started", at="2026-11-25T22:00"),
        ev("filed", "2026-11-30", emergency=True),
        as_of="2026-12-01",
    )
    assert r.clock("emergency-filing").status == "late"


def test_emergency_without_an_application_yet_is_open_then_overdue():
    start = ev("emergency-work-started", at="2026-06-05T06:00")  # Friday
    assert replayed("canton", "street-opening", start, as_of="2026-06-08").clock("emergency-filing").status == "open"
    assert replayed("canton", "street-opening", start, as_of="2026-06-09").clock("emergency-filing").status == "overdue"


# -- term and renewal (§10.1) ---------------------------------------------------


def test_permit_is_valid_30_days_from_issuance_without_rolling():
    r = issued(as_of="2026-07-01")
    expiry = r.clock("permit-expiry")
    assert (expiry.type, expiry.date.isoformat(), expiry.status) == ("expiry", "2026-07-01", "active")
    assert issued(as_of="2026-07-02").clock("permit-expiry").status == "expired"
    assert r.clock("renewal-request").date.isoformat() == "2026-07-01"


def test_one_renewal_adds_30_days_counted_from_the_expiry_it_replaces():
    r = issued(ev("renewal-requested", "2026-06-25"), ev("permit-renewed", "2026-06-29"), as_of="2026-07-15")
    expiry = r.clock("permit-expiry")
    assert expiry.date.isoformat() == "2026-07-31"
    assert expiry.status == "active"
    assert "renewed 1 time(s)" in expiry.explanation and "16-12 §10.1" in expiry.explanation
    assert r.clock("renewal-request").status == "met"


# -- notice of work (§10.3) -------------------------------------------------------


def test_work_notice_counts_72_business_hours_and_friday_july_3_2026_is_a_business_day():
    # Thu 07-02 14:00: Thu 10 h + Fri 24 h + Mon 24 h + Tue 14 h = 72 h.  July 4 is a
    # Saturday; the statute does not close the Friday (M.G.L. c.4 §7 cl.18).
    r = issued(ev("work-noticed", at="2026-07-02T14:00"), as_of="2026-07-07")
    clock = r.clock("work-notice")
    assert clock.type == "earliest"
    assert clock.at.isoformat(timespec="minutes") == "2026-07-07T14:00"
    assert clock.status == "passed"
    assert issued(ev("work-noticed", at="2026-07-02T14:00"), as_of="2026-07-06").clock("work-notice").status == "waiting"


# -- inspections (§10.2), patches (§11) and the refund (§5, §11.4(f)) ------------


def test_the_four_inspections_lead_to_the_final_inspection_and_the_deposit_refund():
    r = patched(
        "2026-06-15",
        ev("inspected", "2026-06-16", stage="temporary-patch", result="pass"),
        ev("inspected", "2027-06-16", stage="settlement", result="pass"),
        ev("settlement-answered", "2027-06-22"),
        ev("permanent-patch-placed", "2027-07-01"),
        ev("inspected", "2027-07-02", stage="permanent-patch", result="pass"),
        ev("deposit-refunded", "2027-07-09"),
        as_of="2027-07-10",
    )
    assert r.state == "closed"
    c = {x.id: x for x in r.clocks}
    assert c["settlement-answer"].date.isoformat() == "2027-06-23"
    assert c["settlement-answer"].status == "met"
    assert c["permanent-patch-window-opens"].status == "passed"
    assert c["permanent-patch-window-closes"].status == "met"


def test_a_failed_final_inspection_keeps_the_deposit():
    r = patched(
        "2026-06-15",
        ev("permanent-patch-placed", "2027-07-01"),
        ev("inspected", "2027-07-02", stage="permanent-patch", result="fail"),
        as_of="2027-07-03",
    )
    assert r.state == "permanent-patch"
    with pytest.raises(TransitionRefused, match="deposit-refunded is not allowed"):
        patched(
            "2026-06-15",
            ev("permanent-patch-placed", "2027-07-01"),
            ev("inspected", "2027-07-02", stage="permanent-patch", result="fail"),
            ev("deposit-refunded", "2027-07-03"),
        )


def test_an_inspection_out_of_its_stage_is_refused_citing_10_2():
    with pytest.raises(TransitionRefused, match=r"settlement inspection does not fit.*16-12 §10\.2"):
        issued(ev("excavation-started", "2026-06-08"), ev("inspected", "2026-06-09", stage="settlement", result="pass"))


def test_flowable_fill_cures_24_hours_then_takes_the_permanent_patch_without_a_temporary_one():
    r = issued(
        ev("excavation-started", "2026-06-08"),
        ev("backfilled", at="2026-06-10T09:30", material="cdf"),
        ev("permanent-patch-placed", at="2026-06-11T10:00"),
        ev("inspected", "2026-06-12", stage="permanent-patch", result="pass"),
        as_of="2026-06-12",
    )
    cure = r.clock("cdf-cure")  # 24 hours from placement (§11.2)
    assert (cure.type, cure.at.isoformat(timespec="minutes"), cure.status) == ("earliest", "2026-06-11T09:30", "passed")
    assert r.state == "final-inspected"
    assert r.clock("temporary-patch-maintenance") is None
    assert r.clock("permanent-patch-window-closes") is None


def test_a_temporary_patch_over_flowable_fill_is_allowed_and_opens_no_patch_window():
    """Canton 16-12 §11.2: over CDF "a Temporary Patch need not be installed"
    (allowed, not forbidden); §11.4: the 12-18 month window is "except when
    installed over Controlled Density Fill"."""
    r = issued(
        ev("excavation-started", "2026-06-08"),
        ev("backfilled", "2026-06-10", material="cdf"),
        ev("temporary-patch-placed", "2026-06-11"),
    )
    assert r.state == "temporary-patch"
    assert r.clock("permanent-patch-window-opens") is None and r.clock("permanent-patch-window-closes") is None


def test_a_cement_concrete_way_is_temporarily_patched_before_its_permanent_patch_citing_11_5():
    """Canton 16-12 §11.5: an excavation in a cement concrete way is
    "Temporarily Patched as described in paragraph 3", flowable fill or not."""
    concrete = ev("filed", "2026-06-01", length_ft=20, surface="cement-concrete")
    with pytest.raises(TransitionRefused, match=r"cement concrete way is temporarily patched.*16-12 §11\.5") as err:
        issued(
            ev("excavation-started", "2026-06-08"),
            ev("backfilled", "2026-06-10", material="cdf"),
            ev("permanent-patch-placed", "2026-06-12"),
            filed=concrete,
        )
    assert err.value.event == "permanent-patch-placed"
    r = issued(
        ev("excavation-started", "2026-06-08"),
        ev("backfilled", "2026-06-10", material="cdf"),
        ev("temporary-patch-placed", "2026-06-11"),
        ev("permanent-patch-placed", "2026-06-12"),
        filed=concrete,
    )
    assert r.state == "permanent-patch"


def test_the_temporary_patch_is_maintained_for_a_year():
    clock = patched("2026-06-15", as_of="2027-06-15").clock("temporary-patch-maintenance")
    assert (clock.type, clock.date.isoformat(), clock.status) == ("expiry", "2027-06-15", "active")
    assert patched("2026-06-15", as_of="2027-06-16").clock("temporary-patch-maintenance").status == "expired"


def test_permanent_patch_window_is_12_to_18_months_and_ends_on_leap_day_2028():
    r = patched("2026-08-31", as_of="2027-08-30")
    opens, closes = r.clock("permanent-patch-window-opens"), r.clock("permanent-patch-window-closes")
    assert (opens.type, opens.date.isoformat(), opens.status) == ("earliest", "2027-08-31", "waiting")
    assert (closes.type, closes.date.isoformat(), closes.status) == ("deadline", "2028-02-29", "open")
    assert patched("2026-08-31", as_of="2028-03-01").clock("permanent-patch-window-closes").status == "overdue"


def test_winter_patch_for_work_over_30_feet_is_due_the_last_business_day_before_december_1():
    over = ev("filed", "2026-06-01", length_ft=45)
    r = issued(ev("excavation-started", "2026-06-08"), ev("winter-patch-placed", "2026-11-25"), filed=over, as_of="2026-12-01")
    clock = r.clock("winter-patch")
    assert (clock.type, clock.date.isoformat(), clock.status) == ("deadline", "2026-11-30", "met")
    assert "16-12 §11.3(c)" in clock.rule


def test_winter_patch_in_2025_is_due_sunday_november_30_and_a_saturday_patch_is_no_default():
    """Canton 16-12 §11.3(c): "prior to December 1st": November 30 is the last
    day whatever the weekday; a patch on Saturday the 29th is in time."""

    def winter(*more, as_of="2025-12-01"):
        return replayed(
            "canton",
            "street-opening",
            ev("filed", "2025-09-01", length_ft=31),
            ev("dig-safe-obtained", "2025-09-01", ticket="2025"),
            ev("permit-issued", "2025-09-02"),
            ev("excavation-started", "2025-09-08"),
            *more,
            as_of=as_of,
        ).clock("winter-patch")

    clock = winter()
    assert clock.date.isoformat() == "2025-11-30"
    assert clock.status == "overdue"
    assert "schedule by: 2025-11-28" in clock.explanation
    assert winter(ev("winter-patch-placed", "2025-11-29")).status == "met"


def test_no_winter_patch_clock_for_30_feet_or_less():
    r = issued(ev("excavation-started", "2026-06-08"), filed=ev("filed", "2026-06-01", length_ft=30))
    assert r.clock("winter-patch") is None


def test_certification_answer_due_on_a_saturday_stays_there_without_a_saturday_closure_vote():
    """M.G.L. c.4 §9 moves a last day off a Sunday or legal holiday; a
    Saturday only where the town voted under c.41 §110A (Canton has no such
    vote in its profile).  07-01 + 30 = Sat 07-31: the last day."""
    r = patched(
        "2026-06-15",
        ev("certification-requested", "2027-07-01"),
        ev("certification-answered", "2027-07-30", granted=True),
        as_of="2027-08-03",
    )
    clock = r.clock("certification-answer")
    assert (clock.date.isoformat(), clock.status) == ("2027-07-31", "met")
    assert r.state == "permanent-patch"
    assert r.clock("permanent-patch-window-closes").status == "met"  # the certified patch is permanent


def test_certification_refused_leaves_the_temporary_patch_to_be_replaced():
    r = patched(
        "2026-06-15",
        ev("certification-requested", "2027-07-01"),
        ev("certification-answered", "2027-07-20", granted=False),
        as_of="2027-07-21",
    )
    assert r.state == "temporary-patch"
    assert r.clock("permanent-patch-window-closes").status == "open"


def test_certification_may_be_asked_on_the_rolled_last_day_of_the_window():
    # 2026-05-06 + 18 months = Sat 2027-11-06: without a Saturday closure vote
    # the last day stays (M.G.L. c.4 §9), and the guard agrees with the clock.
    r = replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-05-01"),
        ev("dig-safe-obtained", "2026-05-01", ticket="1"),
        ev("permit-issued", "2026-05-04"),
        ev("excavation-started", "2026-05-05"),
        ev("backfilled", "2026-05-06", material="gravel"),
        ev("temporary-patch-placed", "2026-05-06"),
        ev("certification-requested", "2027-11-06"),
        as_of="2027-11-09",
    )
    assert r.clock("permanent-patch-window-closes").date.isoformat() == "2027-11-06"
    assert r.clock("certification-answer").date.isoformat() == "2027-12-06"


def test_suspension_ends_after_its_days():
    r = issued(ev("suspended", "2026-06-10", days=10), as_of="2026-06-20")
    clock = r.clock("suspension-ends")
    assert (clock.type, clock.date.isoformat(), clock.status) == ("expiry", "2026-06-20", "active")


def test_no_refund_while_suspended_in_default():
    with pytest.raises(TransitionRefused, match=r"not refunded while the holder is in Default.*§11\.4\(f\)"):
        patched(
            "2026-06-15",
            ev("permanent-patch-placed", "2027-07-01"),
            ev("inspected", "2027-07-02", stage="permanent-patch", result="pass"),
            ev("suspended", "2027-07-03", days=21),
            ev("deposit-refunded", "2027-07-10"),
        )


def test_revocation_after_a_hearing_noticed_5_days_ahead():
    r = issued(
        ev("revocation-hearing-scheduled", "2026-06-10", hearing="2026-06-16"),
        ev("permit-revoked", "2026-06-16"),
        as_of="2026-06-17",
    )
    clock = r.clock("revocation-notice")
    assert (clock.date.isoformat(), clock.status) == ("2026-06-11", "met")
    assert r.state == "revoked"


def test_revocation_hearing_noticed_4_days_ahead_is_late():
    r = issued(ev("revocation-hearing-scheduled", "2026-06-12", hearing="2026-06-16"), as_of="2026-06-13")
    assert r.clock("revocation-notice").status == "late"


def test_revocation_before_its_hearing_is_refused_citing_12():
    with pytest.raises(TransitionRefused, match=r"comes before its hearing.*16-12 §12"):
        issued(ev("revocation-hearing-scheduled", "2026-06-05", hearing="2026-06-16"), ev("permit-revoked", "2026-06-15"))


def test_after_hours_inspection_is_paid_within_15_days_of_billing():
    r = issued(ev("after-hours-billed", "2026-06-10", hours=2), ev("after-hours-paid", "2026-06-24"), as_of="2026-06-30")
    assert (r.clock("after-hours-payment").date.isoformat(), r.clock("after-hours-payment").status) == ("2026-06-25", "met")


def test_a_denied_street_opening_permit_has_no_term():
    r = replayed("canton", "street-opening", ev("filed", "2026-06-01"), ev("permit-denied", "2026-06-05"))
    assert r.state == "denied"
    assert r.clock("permit-expiry") is None
