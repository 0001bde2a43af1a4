"""Canton: the Wetlands By-Law (General By-Laws Art. XV) and the Street
Opening By-Law 16-12 with its fee and deposit schedule
(workflows/towns/canton.py; canton.txt lines 1-233 and 633-1500).

Wetlands By-Law:
- 15-3 (the text before Section 4): an emergency project gives notice
  within 24 hours of its start and files within 21 days.
- 15-5: the hearing within 21 days; its newspaper notice five working days
  before; the applicant's objection to a continuance closes the hearing; no
  decision before the hearing closes, and the permit (NOI) or the
  determination (RDA) within 31 days of the close.
- 15-6: no final action until the boards have had 14 days; the boards the
  notice goes to.
- 15-7: a permit for three years, renewed once, for a year, on a request
  made before it expires.

Street Opening By-Law 16-12:
- §5, §11.4(f): the deposit refunded after the final inspection, and not
  while the holder is in Default (a missed winter patch is one).
- §6 and its fee schedule: after-hours inspections at $50 an hour, paid
  within 15 days of the bill.
- §7: after an emergency opening, the application the next business day.
- §10.1: a permit for thirty days, renewed once, on a written request made
  before it expires; no excavation once it has expired.
- §10.2: each inspection at its stage.  §10.3: 72 business hours' notice of
  the work.  §10.4: no permit without a Dig Safe number.
- §11.2: flowable fill (CDF) cures 24 hours before the permanent patch.
- §11.3: the temporary patch kept a year; for work over 30 feet, the winter
  patch prior to December 1st.
- §11.4: the permanent patch 12 to 18 months after the temporary one; the
  settlement and certification answers; a utility's own patch on 72 hours'
  notice.  §11.5: a cement concrete way is temporarily patched first.
- §12: a suspension of 1 to 21 days; revocation after a hearing noticed five
  days ahead.

Elsewhere: the deposit schedule itself (test_deposits.py), the Dig Safe
clocks of M.G.L. c.82 §40A (test_violations.py) and the date traps counted
on Canton's clocks (test_clock_traps.py).
"""

from datetime import date, datetime

import pytest
from _filings import (
    CANTON_NOI_OPEN,
    DIG,
    OYSTER,
    _minimal,
    _street_issued,
    _text,
    clock,
    clocks_by_id,
    ev,
    refused,
    replayed,
    street,
)

from workflows.errors import TransitionRefused
from workflows.towns import town

# -- Wetlands: the NOI (Art. XV 15-5..15-7) ----------------------------------------------


def canton_noi(*after_close, as_of="2026-06-09", also=None):
    return replayed(
        "canton",
        "noi",
        ev("filed", "2026-03-30"),
        ev("abutters-notified", "2026-03-30"),
        ev("boards-notified", "2026-03-30"),
        ev("hearing-scheduled", "2026-03-31", hearing="2026-04-14"),
        ev("notice-published", "2026-04-06"),
        ev("notice-posted", "2026-04-09"),
        ev("hearing-opened", "2026-04-14"),
        ev("hearing-continued", "2026-04-14", to="2026-05-05"),
        ev("hearing-closed", "2026-05-05"),
        *after_close,
        as_of=as_of,
        also=also,
    )


def test_canton_noi_hearing_notices_and_continuance_then_a_late_permit():
    r = canton_noi(ev("permit-issued", "2026-06-08"))
    c = clocks_by_id(r)
    assert r.state == "issued"
    # 03-30 + 21 = Mon 04-20, Patriots' Day -> Tue 04-21
    assert (c["hearing-open"].date.isoformat(), c["hearing-open"].status) == ("2026-04-21", "met")
    assert "Patriots' Day" in c["hearing-open"].explanation
    # five working days before Tue 04-14: 13, 10, 9, 8, 7
    assert (c["newspaper-notice"].date.isoformat(), c["newspaper-notice"].status) == ("2026-04-07", "met")
    # boards had 14 days from 03-30: final action from day 15
    assert (c["board-comment"].type, c["board-comment"].date.isoformat()) == ("earliest", "2026-04-14")
    # continued to 05-05 and closed then: 05-05 + 31 = Fri 06-05; issued Mon 06-08
    assert (c["decision"].date.isoformat(), c["decision"].status) == ("2026-06-05", "late")
    assert c["decision"].rule == "Canton Wetlands By-Law 15-5, 15-7"
    assert OYSTER in c["decision"].explanation
    assert (c["permit-expiry"].date.isoformat(), c["permit-expiry"].status) == ("2029-06-08", "active")


def test_canton_noi_decision_on_time_is_met_and_open_before_it():
    assert canton_noi(as_of="2026-06-05").clock("decision").status == "open"
    assert canton_noi(as_of="2026-06-06").clock("decision").status == "overdue"
    assert canton_noi(ev("permit-issued", "2026-06-05")).clock("decision").status == "met"


def test_canton_noi_applicant_extension_moves_the_decision():
    r = canton_noi(ev("clock-extended", "2026-05-20", clock="decision", to="2026-06-19"), ev("permit-issued", "2026-06-08"))
    decision = r.clock("decision")
    assert (decision.date.isoformat(), decision.status) == ("2026-06-19", "met")
    assert "extended in writing on 2026-05-20" in decision.explanation


def test_canton_noi_denied_has_no_expiry_clock():
    r = canton_noi(ev("permit-denied", "2026-06-01"))
    assert r.state == "denied"
    assert r.clock("decision").status == "met"
    assert r.clock("permit-expiry") is None and r.clock("renewal-request") is None


def test_canton_noi_heard_also_under_the_wpa_the_earlier_decision_binds():
    r = canton_noi(ev("permit-issued", "2026-06-01"), also=["wpa"])
    c = clocks_by_id(r)
    # town: 05-05 + 31 = 06-05; state: 05-05 + 21 = 05-26
    assert c["wpa:decision"].date.isoformat() == "2026-05-26"
    assert (c["decision"].binding, c["wpa:decision"].binding) == (False, True)
    assert c["wpa:decision"].status == "late" and OYSTER in c["wpa:decision"].explanation
    assert c["decision"].status == "met"
    # the same 21-day hearing clock in both: both bind
    assert (c["hearing-open"].binding, c["wpa:hearing-open"].binding) == (True, True)
    # clocks only the state has carry no binding mark
    assert c["wpa:appeal-period"].binding is None
    assert "binding" not in c["wpa:appeal-period"].as_dict()


def test_a_decision_cannot_come_before_the_hearing_closes_in_canton():
    err = refused(
        "canton",
        "noi",
        *CANTON_NOI_OPEN,
        ev("permit-issued", "2026-06-20"),
        match=r"a decision cannot come before the hearing closes: Canton Wetlands By-Law .* requires a public hearing",
    )
    assert err.rule.startswith("Canton 15-5, 15-7")
    refused(
        "canton",
        "rda",
        *CANTON_NOI_OPEN,
        ev("determination-issued", "2026-06-20", positive=False),
        match=r"before the hearing closes: Canton Wetlands By-Law",
    )


# -- Wetlands: one renewal, for a year, asked before expiry (15-7) -----------------------


def test_canton_noi_renewed_once_for_a_year_from_the_expiry_it_replaces():
    r = canton_noi(
        ev("permit-issued", "2026-06-05"),
        ev("renewal-requested", "2029-05-01"),
        ev("permit-renewed", "2029-05-15"),
        as_of="2030-01-01",
    )
    assert r.state == "renewed"
    assert r.clock("permit-expiry").date.isoformat() == "2030-06-05"
    assert r.clock("renewal-request").status == "met"


def test_canton_renews_on_a_request_made_on_the_expiry_day():
    r = replayed(
        "canton",
        "noi",
        ev("filed", "2026-01-05"),
        ev("hearing-opened", "2026-01-20"),
        ev("hearing-closed", "2026-01-20"),
        ev("permit-issued", "2026-02-02"),
        ev("renewal-requested", "2029-02-02"),
        ev("permit-renewed", "2029-02-10"),
        as_of="2029-03-01",
    )
    assert r.state == "renewed"


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


# -- Wetlands: the RDA, a hearing and a determination within 31 days of its close (15-5) ---


def canton_rda(*after, as_of="2026-07-31"):
    return replayed(
        "canton",
        "rda",
        ev("filed", "2026-06-01"),
        ev("hearing-scheduled", "2026-06-02", hearing="2026-06-16"),
        ev("notice-published", "2026-06-05"),
        ev("hearing-opened", "2026-06-16"),
        *after,
        as_of=as_of,
    )


def test_canton_rda_determination_within_31_days_of_the_close():
    r = canton_rda(ev("hearing-closed", "2026-06-16"), ev("determination-issued", "2026-07-10", positive=False))
    assert r.state == "negative-determination"
    # 06-16 + 31 = Fri 07-17
    assert (r.clock("decision").date.isoformat(), r.clock("decision").status) == ("2026-07-17", "met")
    assert r.clock("decision").rule == "Canton Wetlands By-Law 15-5"


def test_canton_rda_late_positive_determination_cites_oyster_creek():
    r = canton_rda(ev("hearing-closed", "2026-06-16"), ev("determination-issued", "2026-07-20", positive=True))
    assert r.state == "positive-determination"
    assert r.clock("decision").status == "late"
    assert OYSTER in r.clock("decision").explanation


# -- Wetlands: the applicant's objection to a continuance closes the hearing (15-5) ------


def test_in_canton_the_applicants_objection_to_a_continuance_closes_the_hearing():
    """canton.txt lines 89-91 (15-5): "In the event the applicant objects to a
    continuance or postponement, the hearing shall be closed"; the 31-day
    decision clock runs from that day."""
    r = replayed(
        "canton",
        "noi",
        ev("filed", "2026-06-01"),
        ev("hearing-opened", "2026-06-16"),
        ev("continuance-objected", "2026-06-16"),
        as_of="2026-06-20",
    )
    assert r.state == "hearing-closed"
    assert r.clock("decision").date.isoformat() == "2026-07-17"


# -- Wetlands: the boards, 14 days before final action (15-6) ----------------------------


def test_a_final_action_inside_cantons_14_day_board_window_is_premature_and_kept():
    """Canton Wetlands By-Law 15-6: no final action until the boards have had
    14 days from receipt of notice; boards notified 06-01, so from 06-16."""
    r = replayed(
        "canton",
        "noi",
        ev("filed", "2026-06-01"),
        ev("boards-notified", "2026-06-01"),
        ev("hearing-opened", "2026-06-08"),
        ev("hearing-closed", "2026-06-08"),
        ev("permit-issued", "2026-06-10"),
        as_of="2026-06-20",
    )
    c = r.clock("board-comment")
    assert (c.status, c.date) == ("premature", date(2026, 6, 16))
    assert "PREMATURE: permit-issued on 2026-06-10 (event 5) came before 2026-06-16" in c.explanation
    assert "15-6" in c.explanation
    assert r.state == "issued"  # the act happened: the record keeps it


def test_the_board_memo_lists_the_boards_of_canton_15_6():
    text = _text(_minimal("canton", "noi", "board-memo"), "noi", "board-memo")
    for board in ("Select Board", "Zoning Board of Appeals", "Fire Chief", "Building Inspector"):
        assert board in text
    assert "Canton Wetlands By-Law 15-6" in text


# -- Wetlands: emergency projects (15-3) -------------------------------------------------


def test_a_canton_emergency_project_gives_notice_within_24_hours_and_files_within_21_days():
    """canton.txt lines 10-17: advance notice "prior to commencement of work or
    within 24 hours after commencement"; "within 21 days of commencement of
    an emergency project a permit application shall be filed"."""
    r = replayed(
        "canton",
        "noi",
        ev("emergency-work-started", at="2026-06-05T22:00"),
        ev("emergency-noticed", at="2026-06-06T21:00"),
        ev("filed", "2026-06-26"),
        as_of="2026-06-27",
    )
    notice, filed = r.clock("emergency-notice"), r.clock("emergency-filing")
    assert (notice.at, notice.status) == (datetime(2026, 6, 6, 22, 0), "met")
    assert filed.date.isoformat() == "2026-06-26" and filed.status == "met"
    assert "emergency projects" in filed.rule
    late = replayed(
        "canton",
        "noi",
        ev("emergency-work-started", at="2026-06-05T22:00"),
        ev("emergency-noticed", at="2026-06-07T09:00"),
        ev("filed", "2026-06-29"),
        as_of="2026-06-30",
    )
    assert late.clock("emergency-notice").status == "late" and late.clock("emergency-filing").status == "late"


def test_a_notice_given_before_the_emergency_work_starts_meets_the_notice_clock():
    r = replayed(
        "canton",
        "noi",
        ev("emergency-noticed", at="2026-06-05T20:00"),
        ev("emergency-work-started", at="2026-06-05T22:00"),
        as_of="2026-06-06",
    )
    assert r.clock("emergency-notice").status == "met" and r.state == "emergency-work"
    assert r.clock("emergency-filing").status == "open"


# -- Street opening: emergency (16-12 §7) ------------------------------------------------


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


# -- Street opening: term and renewal (16-12 §10.1) --------------------------------------


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


def test_a_renewal_on_the_last_day_of_the_term_is_in_time():
    r = replayed(
        "canton", "street-opening", *_street_issued(ev("renewal-requested", "2026-07-01"), ev("permit-renewed", "2026-07-01"))
    )
    assert r.clock("permit-expiry").date.isoformat() == "2026-07-31"


def test_a_renewal_is_granted_only_on_a_written_request():
    refused(
        "canton",
        "street-opening",
        *_street_issued(ev("permit-renewed", "2026-06-25")),
        match=r"no renewal request is on record.*16-12 §10\.1",
    )


def test_excavation_on_an_expired_street_permit_is_flagged_citing_10_1():
    """Canton 16-12 §10.1: a Street Opening Permit is valid for thirty days;
    issued 06-01, it expires 07-01."""
    r = street(ev("work-noticed", at="2026-07-01T09:00"), ev("excavation-started", "2026-07-06"))
    c = r.clock("permit-expiry")
    assert (c.status, c.date) == ("violated", date(2026, 7, 1))
    assert "excavation-started on 2026-07-06 (event 5) after the permit expired on 2026-07-01" in c.explanation
    assert "16-12 §10.1" in c.rule
    assert r.state == "excavating"


def test_excavation_within_the_renewed_term_is_not_flagged():
    r = street(
        ev("renewal-requested", "2026-06-25"),
        ev("permit-renewed", "2026-06-26"),
        ev("work-noticed", at="2026-07-01T09:00"),
        ev("excavation-started", "2026-07-06"),
    )
    assert r.clock("permit-expiry").status != "violated"


# -- Street opening: notice of work (16-12 §10.3) ----------------------------------------


def test_work_notice_counts_72_business_hours_and_friday_july_3_2026_is_a_business_day():
    # Thu 07-02 14:00: Thu 10 h + Fri 24 h + Mon 24 h + Tue 14 h = 72 h.  July 4 is a
    # Saturday; the statute does not close the Friday (M.G.L. c.4 §7 cl.18).
    r = issued(ev("work-noticed", at="2026-07-02T14:00"), as_of="2026-07-07")
    clock = r.clock("work-notice")
    assert clock.type == "earliest"
    assert clock.at.isoformat(timespec="minutes") == "2026-07-07T14:00"
    assert clock.status == "passed"
    assert issued(ev("work-noticed", at="2026-07-02T14:00"), as_of="2026-07-06").clock("work-notice").status == "waiting"


def test_excavation_before_the_72_hour_work_notice_has_run_is_premature():
    """Canton 16-12 §10.3: notice seventy-two hours in advance of the work."""
    r = street(ev("work-noticed", at="2026-06-08T09:00"), ev("excavation-started", "2026-06-09"))
    c = r.clock("work-notice")
    assert c.status == "premature"
    assert "excavation-started on 2026-06-09 (event 5) came before 2026-06-11T09:00" in c.explanation
    assert "16-12 §10.3" in c.explanation


def test_excavation_with_no_work_notice_on_record_is_flagged_citing_10_3():
    """Canton 16-12 §10.3: "must give notice of the intended Street Opening
    Work seventy-two hours in advance", except in emergency situations."""
    r = street(ev("excavation-started", "2026-06-09"))
    c = r.clock("work-notice")
    assert (c.status, c.date, c.type) == ("violated", date(2026, 6, 9), "earliest")
    assert "with no work notice on record" in c.explanation and "16-12 §10.3" in c.rule


def test_emergency_excavation_needs_no_work_notice():
    r = replayed(
        "canton",
        "street-opening",
        ev("emergency-work-started", at="2026-06-01T22:00"),
        ev("filed", "2026-06-02", emergency=True),
        DIG,
        ev("permit-issued", "2026-06-02"),
        ev("excavation-started", "2026-06-02"),
        as_of="2026-06-05",
    )
    assert r.clock("work-notice") is None


# -- Street opening: the Dig Safe number (16-12 §10.4) -----------------------------------


def test_no_street_opening_permit_without_a_dig_safe_number():
    err = refused(
        "canton",
        "street-opening",
        ev("filed", "2026-06-01"),
        ev("permit-issued", "2026-06-02"),
        match=r"^TEST-1: event 2 \(permit-issued\): Can't issue the permit: no Dig Safe number "
        r"\(Canton 16-12 §10\.4\)$",
    )
    assert err.rule == "Canton 16-12 §10.4"


# -- Street opening: inspections (16-12 §10.2), patches (§11) and the refund (§5, §11.4(f)) ---


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


def test_a_permanent_patch_before_the_12_month_window_opens_is_premature():
    """Canton 16-12 §11.4: permanent patches not less than twelve months from
    the temporary patch."""
    r = street(
        ev("work-noticed", at="2026-06-01T09:00"),
        ev("excavation-started", "2026-06-08"),
        ev("backfilled", "2026-06-10", material="gravel"),
        ev("temporary-patch-placed", "2026-06-15"),
        ev("permanent-patch-placed", "2027-01-15"),
        as_of="2027-02-01",
    )
    c = r.clock("permanent-patch-window-opens")
    assert (c.status, c.date) == ("premature", date(2027, 6, 15))
    assert "permanent-patch-placed on 2027-01-15" in c.explanation and "§11.4" in c.explanation
    assert r.state == "permanent-patch"


# -- Street opening: the winter patch, prior to December 1st (16-12 §11.3(c)) ------------


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


def test_winter_patch_is_due_november_30_even_on_a_saturday():
    """Canton 16-12 §11.3(c): "prior to December 1st of that year": the last
    day is November 30 whatever the day of the week (docs/reference/readings.md).
    The last business day before it is only a scheduling target."""
    winter = clock("canton", "street-opening", "winter-patch")
    r = winter(date(2024, 6, 3))
    assert r.date == date(2024, 11, 30)  # a Saturday: no roll back to Friday
    assert r.rolled == ()
    assert "December 1 2024" in r.describe()
    assert "a business-day target to schedule by: 2024-11-29" in r.describe()
    assert winter(date(2026, 6, 1)).date == date(2026, 11, 30)  # a Monday


def test_winter_patch_for_work_opened_on_or_after_december_1_aims_at_next_year():
    winter = clock("canton", "street-opening", "winter-patch")
    assert winter(date(2024, 12, 1)).date == date(2025, 11, 30)  # a Sunday: still the last day
    assert winter(date(2024, 12, 2)).date == date(2025, 11, 30)
    assert winter(date(2024, 11, 29)).date == date(2024, 11, 30)


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


def test_a_missed_winter_patch_on_one_permit_holds_back_the_applicants_refund_on_another(tmp_path, capsys):
    """Canton 16-12 §11.3(c): a winter patch not done "prior to December 1st"
    is a Default; §11.3(c) and §5: the deposit is returned "provided that the
    Applicant/Permit Holder and Contractor are not in Default"."""
    import json

    from storekit import STREET, write_json

    from cli.main import main

    db = f"sqlite:///{tmp_path / 'p.db'}"
    bakery = {"name": "Main St Bakery", "category": "private"}
    done = {
        **STREET,
        "id": "CAN-SO-2026-300",
        "applicant": bakery,
        "events": [
            {"type": "filed", "date": "2026-06-01", "applicant": "private", "length_ft": 20},
            # the $500.00 deposit of a 20-foot trench received with the application (§4): the Town holds it
            {
                "type": "payment-received",
                "date": "2026-06-01",
                "amount": "500.00",
                "method": "check",
                "reference": "1001",
                "toward": "deposit",
            },
            {"type": "dig-safe-obtained", "date": "2026-06-01", "ticket": "1"},
            {"type": "permit-issued", "date": "2026-06-02"},
            {"type": "work-noticed", "at": "2026-06-02T08:00"},
            {"type": "excavation-started", "date": "2026-06-08"},
            {"type": "backfilled", "date": "2026-06-10", "material": "cdf"},
            {"type": "permanent-patch-placed", "date": "2026-06-12"},
            {"type": "inspected", "date": "2026-06-15", "stage": "permanent-patch", "result": "pass"},
        ],
    }
    open_trench = {
        **STREET,
        "id": "CAN-SO-2026-301",
        "applicant": bakery,
        "events": [
            {"type": "filed", "date": "2026-09-01", "applicant": "private", "length_ft": 45},
            {"type": "dig-safe-obtained", "date": "2026-09-01", "ticket": "2"},
            {"type": "permit-issued", "date": "2026-09-02"},
            {"type": "work-noticed", "at": "2026-09-02T08:00"},
            {"type": "excavation-started", "date": "2026-09-08"},
        ],
    }
    for argv in (
        ["init"],
        ["import", write_json(tmp_path / "a.json", done), write_json(tmp_path / "b.json", open_trench)],
    ):
        assert main([*argv, "--db", db]) == 0, capsys.readouterr().err
    capsys.readouterr()
    refund = ["deposits", "Main St Bakery", "--refund", "--filing", "CAN-SO-2026-300", "--db", db, "--date"]
    assert main([*refund, "2026-12-02"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "held back: the applicant is in Default on CAN-SO-2026-301 (winter patch due 2026-11-30" in err
    assert "16-12 §5, §11.3(c)" in err
    assert main([*refund, "2026-11-30"]) == 0  # before the winter patch was missed
    capsys.readouterr()
    assert main(["deposits", "Main St Bakery", "--json", "--db", db]) == 0
    account = json.loads(capsys.readouterr().out)
    assert [e["entry"] for e in account["entries"]][-1] == "refund"
    assert account["permits"]["CAN-SO-2026-300"]["refunded"] == "500.00"  # what the Town held, released


# -- Street opening: certifying a temporary patch as permanent (16-12 §11.4, §11.4(d)) ---


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


def test_a_street_opening_deadline_on_a_saturday_is_not_moved_in_canton():
    """Canton 16-12 §11.4(d) (30 days to answer) counted under M.G.L. c.4 §9."""
    c = town("canton").rules("street-opening").clock("certification-answer")
    r = c.measure.reckon(town("canton").calendar, date(2027, 7, 1))
    assert r.date == date(2027, 7, 31)


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


def _temporary_patch(*rest):
    return _street_issued(
        ev("excavation-started", "2026-06-08"),
        ev("backfilled", "2026-06-10", material="gravel"),
        ev("temporary-patch-placed", "2026-06-15"),
        *rest,
    )


@pytest.mark.parametrize("asked", ["2027-06-14", "2027-12-16"])
def test_certification_of_a_temporary_patch_is_asked_within_the_permanent_patch_window(asked):
    refused(
        "canton",
        "street-opening",
        *_temporary_patch(ev("certification-requested", asked)),
        match=rf"within the permanent patch window, 2027-06-15 to 2027-12-15 .*; {asked} is outside it "
        r"\(Canton 16-12 §11\.4\)",
    )


def test_certification_on_the_first_and_last_day_of_the_window_is_accepted():
    for asked in ("2027-06-15", "2027-12-15"):
        r = replayed("canton", "street-opening", *_temporary_patch(ev("certification-requested", asked)))
        assert r.clock("certification-answer") is not None


# -- Street opening: a utility's own permanent patch, on 72 hours' notice (16-12 §11.4) ---


def _utility(*events, as_of="2027-07-31"):
    return replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-06-01", applicant="utility", length_ft=20),
        ev("dig-safe-obtained", "2026-06-01", ticket="1"),
        ev("permit-issued", "2026-06-02"),
        ev("work-noticed", at="2026-06-02T08:00"),
        ev("excavation-started", "2026-06-08"),
        ev("backfilled", "2026-06-10", material="gravel"),
        ev("temporary-patch-placed", "2026-06-15"),
        *events,
        as_of=as_of,
    )


def test_a_utility_places_its_own_permanent_patch_72_hours_after_notice():
    """canton.txt lines 1208-1212 (16-12 §11.4): public utilities or municipal
    departments "must give the Awarding Authority and its Representative not
    less than seventy-two hours prior notice"."""
    r = _utility(ev("patch-noticed", at="2027-06-21T09:00"), ev("permanent-patch-placed", at="2027-06-24T10:00"))
    c = r.clock("patch-notice")
    assert (c.at, c.status) == (datetime(2027, 6, 24, 9, 0), "passed")
    early = _utility(ev("patch-noticed", at="2027-06-21T09:00"), ev("permanent-patch-placed", "2027-06-23"))
    assert early.clock("patch-notice").status == "premature"


def test_a_utilitys_permanent_patch_with_no_notice_and_no_approval_is_flagged():
    r = _utility(ev("permanent-patch-placed", "2027-06-24"))
    c = r.clock("patch-notice")
    assert c.status == "violated" and "16-12 §11.4" in c.rule
    assert "no 72 hours' notice and no approval on record" in c.explanation


# -- Street opening: suspension and revocation (16-12 §12) -------------------------------


def test_suspension_ends_after_its_days():
    r = issued(ev("suspended", "2026-06-10", days=10), as_of="2026-06-20")
    clock = r.clock("suspension-ends")
    assert (clock.type, clock.date.isoformat(), clock.status) == ("expiry", "2026-06-20", "active")


@pytest.mark.parametrize("days", [22, 0])
def test_a_suspension_lasts_at_most_21_days(days):
    refused(
        "canton",
        "street-opening",
        *_street_issued(ev("suspended", "2026-06-10", days=days)),
        match=rf"a suspension lasts from 1 to 21 days, not {days} \(Canton 16-12 §12\)",
    )


def test_a_suspension_of_21_days_is_accepted():
    r = replayed("canton", "street-opening", *_street_issued(ev("suspended", "2026-06-10", days=21)))
    assert r.clock("suspension-ends").date.isoformat() == "2026-07-01"


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


# -- Street opening: after-hours inspections (16-12 §6 and its fee schedule) -------------


def test_after_hours_inspection_is_paid_within_15_days_of_billing():
    r = issued(ev("after-hours-billed", "2026-06-10", hours=2), ev("after-hours-paid", "2026-06-24"), as_of="2026-06-30")
    assert (r.clock("after-hours-payment").date.isoformat(), r.clock("after-hours-payment").status) == ("2026-06-25", "met")


def test_the_after_hours_invoice_charges_the_rate_of_the_canton_fee_schedule():
    text = _text(_minimal("canton", "street-opening", "after-hours-invoice"), "street-opening", "after-hours-invoice")
    assert "$150" in text  # 3 hours at $50 (Canton 16-12 §6, fee schedule)
    assert "16-12 §6, fee schedule" in text


# -- Street opening: a denied permit -----------------------------------------------------


def test_a_denied_street_opening_permit_has_no_term():
    r = replayed("canton", "street-opening", ev("filed", "2026-06-01"), ev("permit-denied", "2026-06-05"))
    assert r.state == "denied"
    assert r.clock("permit-expiry") is None


# -- 15-5: who receives the abutter notice --------------------------------------------------


def test_canton_abutter_notice_reaches_across_a_traveled_way_and_a_body_of_water_but_not_further():
    import parcelkit as kit

    from parcels.abutters import abutters_of
    from workflows.towns import abutter_rule

    rule = abutter_rule("canton", "noi")
    assert rule.citation == "Canton Wetlands By-Law 15-5" and rule.within_feet == 0
    idx = kit.index()
    got = kit.names(idx, [h.position for h in abutters_of(idx, idx.find("saugus", "1-6"), rule)])
    assert got == {"S5", "B5", "B6", "N6", "E1"}  # E1 across the pond; S4, 66 ft off but no abutter, is not


def test_canton_street_openings_send_no_abutter_notice():
    from workflows.abutter_rules import NoAbutterRule
    from workflows.towns import abutter_rule

    with pytest.raises(NoAbutterRule):
        abutter_rule("canton", "street-opening")


# -- the rest of an Order's life, and enforcement (issue 20) ---------------------------------


def _canton_order(*more, as_of="2027-06-30"):
    return replayed(
        "canton",
        "noi",
        *CANTON_NOI_OPEN,
        ev("hearing-closed", "2026-06-16"),
        ev("permit-issued", "2026-07-01"),
        *more,
        as_of=as_of,
    )


def test_a_canton_order_has_the_states_certificate_of_compliance_the_by_law_sets_none():
    r = _canton_order(ev("certificate-requested", "2027-05-03", requested_by="the owner", scope="complete"))
    c = r.clock("certificate-decision")
    assert c.date.isoformat() == "2027-05-24" and "310 CMR 10.05" in c.rule


def test_work_on_a_canton_order_before_its_recording_is_flagged_as_the_states_order_would_be():
    """canton.txt sets no recording rule; the Order is also the state's
    (docs/reference/readings.md): no work before it is recorded."""
    c = _canton_order(ev("work-started", "2026-07-20")).clock("recording-before-work")
    assert c.status == "violated" and "M.G.L. c.131 §40" in c.rule


def test_a_canton_emergency_is_certified_for_the_time_certified_at_most_30_days():
    """canton.txt lines 6-17 (15-3): the work "only for the time & place
    certified by the Conservation Commission"; 310 CMR 10.06(3): 30 days."""
    r = replayed(
        "canton", "noi", ev("emergency-certified", "2026-06-05", days=10, work="clear the blocked culvert"), as_of="2026-06-06"
    )
    c = r.clock("emergency-certification")
    assert c.date.isoformat() == "2026-06-15" and "15-3" in c.rule and "310 CMR 10.06(1)-(3)" in c.rule
    refused("canton", "noi", ev("emergency-certified", "2026-06-05", days=31, work="x"), match="at most 30 days")


def test_canton_tickets_are_300_an_offense_each_day_and_each_provision_separate():
    """canton.txt lines 208-215 (15-11): "a fine of not more that $300.00.
    Each day or portion thereof ... and each provision of the by-law,
    regulations, or permit violated shall constitute a separate offense";
    the Commission may use M.G.L. c.40 §21D."""
    from workflows.enforcement import parse_case
    from workflows.enforcement_replay import replay_case

    schedule = town("canton").fine_schedule("wetlands")
    assert (schedule.amounts, schedule.ceiling) == ((300,), 300) and schedule.each_provision
    obj = {
        "town": "canton",
        "id": "CAN-ENF-2026-0001",
        "bylaw": "wetlands",
        "violator": {"name": "Neponset Builders LLC"},
        "events": [
            ev("violation-observed", "2026-08-03", provision="Order condition 4 (silt fence)", description="silt fence down"),
            ev("ticket-issued", "2026-08-05", provision="Order condition 4", offense_day="2026-08-03", offense=1, fine=300),
            ev(
                "ticket-issued",
                "2026-08-05",
                provision="15-4 (work without a permit)",
                offense_day="2026-08-03",
                offense=2,
                fine=300,
            ),
            ev("ticket-issued", "2026-08-05", provision="Order condition 4", offense_day="2026-08-04", offense=3, fine=300),
        ],
    }
    r = replay_case(parse_case(obj), date(2026, 8, 6))
    assert r.fines == 900 and [t.label for t in r.tickets] == ["first offense", "second offense", "third offense"]


# -- the application fee (workflows/fees.py; canton.txt lines 40-50, 850-867, 1470-1478)


def test_a_40_foot_street_trench_owes_the_50_dollar_application_fee_and_a_1000_dollar_deposit():
    from workflows.fees import fee_for
    from workflows.towns import town

    fee = fee_for(town("canton"), "street-opening", length_ft=40)
    assert [(ln.what, ln.cents) for ln in fee.lines] == [("application fee", 50_00), ("refundable deposit", 1_000_00)]
    assert fee.due == 1_050_00 and "Canton 16-12 §4 and Fee Schedule" in fee.words()
    assert fee_for(town("canton"), "street-opening").due == 350_00  # no length: one opening to the center, $300


def test_a_municipal_department_pays_no_street_fee_and_a_gas_company_only_the_application_fee():
    from workflows.fees import fee_for
    from workflows.towns import town

    assert fee_for(town("canton"), "street-opening", applicant="municipal", length_ft=40).due == 0  # §6
    gas = fee_for(town("canton"), "street-opening", applicant="gas-company", length_ft=40)
    assert gas.due == 50_00 and "c.164 exemption" in gas.words()  # §5-6


def test_the_commissions_wetlands_fee_is_the_towns_setting_and_the_state_fee_stays_beside_it():
    from dataclasses import replace

    from workflows.fees import fee_for
    from workflows.towns import town

    blank = fee_for(town("canton"), "noi")
    assert blank.due is None and "not yet entered" in blank.words()
    filled = replace(town("canton"), settings={**town("canton").settings, "commission_fees": {"noi": "125.00", "rda": "50.00"}})
    fee = fee_for(filled, "noi")
    assert fee.due == 125_00 and fee.lines[0].rule == "Canton Wetlands By-Law 15-4"
    assert fee.state is not None and "310 CMR 4.10" in fee.state.rule  # shown, never added to what the town is due
    assert fee_for(filled, "rda").state is None


def test_an_rda_by_a_requester_with_no_financial_connection_is_waived_but_not_an_noi():
    from dataclasses import replace

    from workflows.fees import fee_for
    from workflows.towns import town

    filled = replace(town("canton"), settings={**town("canton").settings, "commission_fees": {"noi": "125.00", "rda": "50.00"}})
    assert fee_for(filled, "rda", applicant="no-financial-connection").due == 0  # 15-4 "shall waive"
    assert fee_for(filled, "noi", applicant="no-financial-connection").due == 125_00
    assert fee_for(filled, "rda", applicant="municipal").due == 50_00  # a government agency's waiver is a "may"
