"""Saugus: the Wetlands By-Law 508.08 (workflows/towns/saugus.py; saugus.txt
lines 387-565).

- §5.2: the NOI hearing within 21 days of the completed NOI; its newspaper
  notice not less than five days before (calendar days); the Order within
  21 days of the close, unless the applicant extends in writing.
- §5.3: an RDA determined within 21 days of the receipt of the request,
  with or without a hearing, complete or not.
- §7.6: an Order expires in three years and is renewed once, for a year,
  on a request made thirty days before it expires.
- §7.9: no work until the Order is recorded and its recording certified.
"""

from datetime import date

import pytest
from _filings import OYSTER, clocks_by_id, ev, replayed

from workflows.enforcement import parse_case
from workflows.enforcement_replay import replay_case
from workflows.errors import TransitionRefused
from workflows.fines import fine_for, offense_number
from workflows.towns import town

# -- the NOI (508.08 §5.2, §7.1) ---------------------------------------------------------


def saugus_noi(*after_close, as_of="2026-08-31", published="2026-06-10"):
    return replayed(
        "saugus",
        "noi",
        ev("filed", "2026-06-01"),
        ev("hearing-scheduled", "2026-06-02", hearing="2026-06-16"),
        ev("notice-published", published),
        ev("hearing-opened", "2026-06-16"),
        ev("hearing-continued", "2026-06-16", to="2026-07-07"),
        ev("hearing-closed", "2026-07-07"),
        *after_close,
        as_of=as_of,
    )


def test_saugus_noi_decision_within_21_days_of_the_close_and_extension_in_writing():
    r = saugus_noi(ev("permit-issued", "2026-07-28"))
    c = clocks_by_id(r)
    assert (c["hearing-open"].date.isoformat(), c["hearing-open"].status) == ("2026-06-22", "met")
    # "not less than five days prior": 06-16 - 5 = 06-11, calendar days, no roll
    assert c["newspaper-notice"].date.isoformat() == "2026-06-11"
    assert (c["decision"].date.isoformat(), c["decision"].status) == ("2026-07-28", "met")
    late = saugus_noi(ev("permit-issued", "2026-08-05")).clock("decision")
    assert late.status == "late" and OYSTER in late.explanation
    extended = saugus_noi(
        ev("clock-extended", "2026-07-20", clock="decision", to="2026-08-11"), ev("permit-issued", "2026-08-05")
    ).clock("decision")
    assert (extended.date.isoformat(), extended.status) == ("2026-08-11", "met")


def test_saugus_newspaper_notice_4_days_before_the_hearing_is_late():
    assert saugus_noi(published="2026-06-12").clock("newspaper-notice").status == "late"


def test_saugus_noi_denied_has_no_expiry_clock():
    r = saugus_noi(ev("permit-denied", "2026-07-21"))
    assert r.state == "denied" and r.clock("permit-expiry") is None


# -- the Order's term and its one renewal (508.08 §7.6) ----------------------------------


def test_saugus_noi_renewal_asked_30_days_before_expiry_adds_a_year():
    r = saugus_noi(
        ev("permit-issued", "2026-07-20"),
        ev("renewal-requested", "2029-06-15"),
        ev("permit-renewed", "2029-07-01"),
        as_of="2029-08-01",
    )
    c = clocks_by_id(r)
    assert (c["renewal-request"].date.isoformat(), c["renewal-request"].status) == ("2029-06-20", "met")
    assert (c["permit-expiry"].date.isoformat(), c["permit-expiry"].status) == ("2030-07-20", "active")


SAUGUS_ISSUED = (
    ev("filed", "2026-01-05"),
    ev("hearing-opened", "2026-01-20"),
    ev("hearing-closed", "2026-01-20"),
    ev("permit-issued", "2026-02-02"),  # expires 2029-02-02; ask by 2029-01-03
)


def test_saugus_refuses_a_renewal_asked_inside_the_last_30_days():
    with pytest.raises(TransitionRefused) as err:
        replayed(
            "saugus",
            "noi",
            *SAUGUS_ISSUED,
            ev("renewal-requested", "2029-01-20"),
            ev("permit-renewed", "2029-01-25"),
            as_of="2029-02-01",
        )
    assert "last day to ask, 2029-01-03" in str(err.value)
    assert "Saugus Wetlands By-Law 508.08 §7.6" in str(err.value)


def test_saugus_renews_on_a_request_30_days_ahead():
    r = replayed(
        "saugus",
        "noi",
        *SAUGUS_ISSUED,
        ev("renewal-requested", "2029-01-03"),
        ev("permit-renewed", "2029-01-25"),
        as_of="2029-02-01",
    )
    assert r.state == "renewed"
    assert clocks_by_id(r)["permit-expiry"].date.isoformat() == "2030-02-02"


# -- the RDA: within 21 days of receipt, hearing or not (508.08 §5.3) --------------------


def test_saugus_rda_decided_within_21_days_of_receipt_without_a_hearing():
    r = replayed("saugus", "rda", ev("filed", "2026-06-01"), ev("determination-issued", "2026-06-19", positive=False))
    assert r.state == "negative-determination"
    assert (r.clock("decision").date.isoformat(), r.clock("decision").status) == ("2026-06-22", "met")
    assert r.clock("decision").rule == "Saugus Wetlands By-Law 508.08 §5.3"


def test_saugus_rda_late_determination_is_late_not_an_error():
    r = replayed("saugus", "rda", ev("filed", "2026-06-01"), ev("determination-issued", "2026-06-25", positive=True))
    assert r.state == "positive-determination"
    assert r.clock("decision").status == "late"
    assert OYSTER in r.clock("decision").explanation


def test_saugus_rda_counts_21_days_from_receipt_even_when_incomplete():
    """Saugus 508.08 §5.3 (saugus.txt line 477): "within twenty-one days of the
    receipt by the Commission of a written request", unlike §5.2's "completed
    NOI" two lines above."""
    r = replayed(
        "saugus", "rda", ev("filed", "2026-06-01", complete=False), ev("deemed-complete", "2026-06-10"), as_of="2026-06-12"
    )
    assert r.state == "filed"
    assert (r.clock("decision").date.isoformat(), r.clock("decision").status) == ("2026-06-22", "open")
    assert "request received" in r.clock("decision").explanation


# -- no work before the Order is recorded and that is certified (508.08 §7.9) ------------


def _saugus_order(*more):
    return replayed(
        "saugus",
        "noi",
        ev("filed", "2026-03-02"),
        ev("hearing-opened", "2026-03-16"),
        ev("hearing-closed", "2026-03-16"),
        ev("permit-issued", "2026-03-30"),
        *more,
        as_of="2026-06-30",
    )


def test_saugus_work_before_the_permit_is_recorded_and_certified_is_flagged():
    """saugus.txt line 513 (508.08 §7.9): no work until the permit is recorded
    in the Registry of Deeds "and until the holder of the permit certifies in
    writing to the Commission that the permit has been recorded"."""
    r = _saugus_order(ev("permit-recorded", "2026-04-10"), ev("work-started", "2026-04-20"))
    c = r.clock("recording-before-work")
    assert (c.status, c.date.isoformat()) == ("violated", "2026-04-20")
    assert "no recording-certified before it" in c.explanation and "508.08 §7.9" in c.rule
    ok = _saugus_order(
        ev("permit-recorded", "2026-04-10"), ev("recording-certified", "2026-04-12"), ev("work-started", "2026-04-20")
    )
    passed = ok.clock("recording-before-work")
    assert (passed.status, passed.date.isoformat()) == ("passed", "2026-04-12")  # the later of the two: the certification


# -- §5.4: who receives the abutter notice ------------------------------------------------


def test_saugus_abutter_notice_goes_to_those_directly_opposite_and_to_abutters_to_abutters_within_300_feet():
    import parcelkit as kit

    from parcels.abutters import a2a_ring, abutters_of
    from workflows.towns import abutter_rule

    rule = abutter_rule("saugus", "noi")
    assert (rule.citation, rule.within_feet, rule.opposite_on_ways, rule.abutters_to_abutters_feet) == (
        "Saugus Wetlands By-Law 508.08 §5.4",
        0,
        True,
        300,
    )
    assert abutter_rule("saugus", "rda") == rule  # "any person filing a NOI or a RDA"
    idx = kit.index()
    hits = {kit.names(idx, [h.position]).pop(): h.ring for h in abutters_of(idx, idx.find("saugus", "1-3"), rule)}
    assert hits["N3"] == "abutter"  # directly opposite on Main St
    assert hits["N2"] == a2a_ring(300)  # diagonally across: only as an abutter's abutter


# -- enforcement: the non-criminal disposition schedule (saugus.txt line 563) --------------

SAUGUS_FINES = town("saugus").fine_schedule("wetlands")


def _case(*events, as_of="2026-12-31"):
    obj = {"town": "saugus", "id": "SAU-ENF-2026-0001", "bylaw": "wetlands", "violator": {"name": "Lynn Fells LLC"}}
    obj["events"] = [
        ev("violation-observed", "2026-02-02", provision="508.08 §2", description="fill in the buffer zone"),
        *events,
    ]
    return replay_case(parse_case(obj), date.fromisoformat(as_of))


def _ticket(day, offense_day, offense, fine, provision="508.08 §2"):
    return ev("ticket-issued", day, provision=provision, offense_day=offense_day, offense=offense, fine=fine)


def test_a_saugus_fourth_offense_within_the_year_costs_200():
    """saugus.txt line 563: "$25.00 for the first offense; $50.00 for the
    second offense; $100.00 for the third offense and $200.00 for the fourth
    and each subsequent offense", each day a separate offense."""
    r = _case(
        _ticket("2026-02-10", "2026-02-03", 1, 25),
        _ticket("2026-04-10", "2026-04-06", 2, 50),
        _ticket("2026-07-10", "2026-07-06", 3, 100),
        _ticket("2026-11-10", "2026-11-09", 4, 200),
    )
    assert [(t.offense, t.fine, t.label) for t in r.tickets][-1] == (4, 200, "fourth offense (fourth and each later offense)")
    assert r.fines == 375
    assert fine_for("Saugus", SAUGUS_FINES, 9).dollars == 200  # "and each subsequent offense"


def test_a_saugus_ticket_priced_wrong_for_its_number_is_refused():
    with pytest.raises(TransitionRefused, match=r"the second offense costs \$50, not \$25"):
        _case(_ticket("2026-02-10", "2026-02-03", 1, 25), _ticket("2026-02-10", "2026-02-04", 2, 25))


def test_a_saugus_ticket_numbered_below_the_cases_own_offenses_is_refused():
    with pytest.raises(TransitionRefused, match="at least the second offense"):
        _case(_ticket("2026-02-10", "2026-02-03", 1, 25), _ticket("2026-02-10", "2026-02-04", 1, 25))


def test_the_same_day_and_provision_is_ticketed_once_but_another_provision_is_another_offense():
    """508.08 §9.5: "each provision of the by-law ... violated shall
    constitute a separate offense"; the non-criminal disposition paragraph:
    each day on which a violation exists."""
    with pytest.raises(TransitionRefused, match="already ticketed"):
        _case(_ticket("2026-02-10", "2026-02-03", 1, 25), _ticket("2026-02-11", "2026-02-03", 2, 50))
    r = _case(_ticket("2026-02-10", "2026-02-03", 1, 25), _ticket("2026-02-10", "2026-02-03", 2, 50, provision="508.08 §7.9"))
    assert [t.provision for t in r.tickets] == ["508.08 §2", "508.08 §7.9"]


def test_saugus_numbers_offenses_with_no_period_a_fourth_two_years_on_still_costs_200():
    """The schedule names no period within which offenses are counted
    (unlike Canton's tobacco by-law, "within one year of the date of the
    first offense", canton.txt 590-593): every earlier offense of the
    violator counts (docs/reference/readings.md)."""
    assert SAUGUS_FINES.window_months is None
    earlier = [date(2023, 1, 5), date(2023, 1, 6), date(2023, 1, 9)]
    assert offense_number(SAUGUS_FINES, earlier, date(2026, 3, 2)) == 4


def test_a_saugus_ticket_gives_21_days_to_appear_and_a_mailed_one_goes_out_within_15_days():
    """M.G.L. c.40 §21D: appear "not later than twenty-one days after the
    date of such notice"; a notice not delivered at the time and place is
    mailed "within fifteen days after said violation"."""
    late = ev(
        "ticket-issued", "2026-02-24", provision="508.08 §2", offense_day="2026-02-03", offense=1, fine=25, delivered="mailed"
    )
    r = _case(late, as_of="2026-03-01")
    appear, mailing = r.clock("ticket-appearance"), r.clock("ticket-mailing")
    assert (appear.date, appear.status) == (date(2026, 3, 17), "open")
    assert (mailing.date, mailing.status) == (date(2026, 2, 18), "late")


def test_a_saugus_enforcement_order_sets_its_date_and_compliance_meets_it():
    order = ev("order-issued", "2026-02-05", comply_by="2026-03-06", requires=["Remove the fill.", "Replant the buffer."])
    r = _case(order, ev("complied", "2026-03-02"), as_of="2026-03-10")
    c = r.clock("compliance")
    assert (r.state, c.date, c.status) == ("complied", date(2026, 3, 6), "met")
    assert "508.08 §9.2" in c.rule and "Remove the fill.; Replant the buffer." in c.explanation
    with pytest.raises(TransitionRefused, match="sets a date to comply by after it issues"):
        _case(ev("order-issued", "2026-02-05", comply_by="2026-02-01", requires=["Remove the fill."]))


def test_a_saugus_certificate_of_compliance_is_the_states_21_days():
    r = _saugus_order(ev("certificate-requested", "2026-09-04", requested_by="the holder", scope="complete"))
    assert r.clock("certificate-decision").date == date(2026, 9, 25)


# -- the filing fee (workflows/fees.py; saugus.txt lines 473, 539)


def test_the_town_of_saugus_filing_an_noi_owes_no_filing_fee_but_its_rda_owes_the_commissions():
    from dataclasses import replace

    from workflows.fees import fee_for
    from workflows.towns import town

    filled = replace(town("saugus"), settings={"commission_fees": {"noi": "100.00", "rda": "40.00"}})
    assert fee_for(filled, "noi").due == 100_00
    by_town = fee_for(filled, "noi", applicant="municipal")
    assert by_town.due == 0 and "508.08 §5.1" in by_town.lines[0].rule  # "No filing fee ... when the Town of Saugus files"
    assert by_town.state is not None  # the state's fee is the state's: §5.1 "in addition to that required by G.L. Ch. 131, 40"
    assert fee_for(filled, "rda", applicant="municipal").due == 40_00  # §5.3 and §10.2: no such exemption
