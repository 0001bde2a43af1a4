"""Mansfield: the Wetlands By-Law Ch. 15 and the Stormwater By-Law Ch. 25
Part B, the Land Disturbance Permit (workflows/towns/mansfield.py;
mansfield.txt lines 1367-1530 and 2450-2870).

- Ch. 15 §4.1: the wetlands clocks are the state's, adopted and cited so.
- Ch. 15 §4.4: a public hearing for every application, an RDA too.
- Ch. 25 §7.E: no hearing until every board has reported or has been
  allowed forty days after receipt.
- Ch. 25 §7.G: the hearing within 60 days of a complete application; its
  notice by newspaper, posting and certified mail 14 days before; the mail
  receipts in before it opens; final action within 60 days of the close.
- Ch. 25 §11: the construction notice a week before work starts.
- Ch. 25 §12, §13, §15: the surety posted before land disturbance, released
  after the final report and the certificate of completion.
"""

from datetime import date

import pytest
from _filings import OYSTER, clocks_by_id, ev, refused, replayed

from workflows.enforcement import parse_case
from workflows.enforcement_replay import replay_case
from workflows.errors import TransitionRefused
from workflows.towns import town, wpa

# -- wetlands: the state's clocks, adopted (Ch. 15 §4.1), and a hearing for all (§4.4) ---


@pytest.mark.parametrize("kind", ["noi", "rda"])
def test_mansfield_wetlands_clocks_are_the_wpa_clocks_cited_as_adopted(kind):
    mansfield, state = town("mansfield").rules(kind), wpa.PROFILE.rules(kind)
    assert [c.id for c in mansfield.clocks] == [c.id for c in state.clocks]
    for ours, theirs in zip(mansfield.clocks, state.clocks):
        assert (ours.measure, ours.start, ours.met_by) == (theirs.measure, theirs.start, theirs.met_by)
        assert ours.citation.startswith(theirs.citation)
        assert "Mansfield" in ours.citation and "adopts" in ours.citation
    assert (mansfield.renewal, mansfield.renewals_allowed) == (state.renewal, state.renewals_allowed)
    assert mansfield.bylaw.startswith(state.bylaw) and "Mansfield" in mansfield.bylaw


def test_mansfield_noi_runs_on_the_states_21_days_with_appeal_period_and_three_years():
    r = replayed(
        "mansfield",
        "noi",
        ev("filed", "2026-09-08"),
        ev("hearing-scheduled", "2026-09-09", hearing="2026-09-22"),
        ev("notice-published", "2026-09-14"),
        ev("hearing-opened", "2026-09-22"),
        ev("hearing-closed", "2026-10-06"),
        ev("permit-issued", "2026-10-20"),
        as_of="2026-10-21",
    )
    c = clocks_by_id(r)
    assert c["hearing-open"].date.isoformat() == "2026-09-29"
    # five business days before Tue 09-22: 21, 18, 17, 16, 15
    assert c["newspaper-notice"].date.isoformat() == "2026-09-15"
    assert (c["decision"].date.isoformat(), c["decision"].status) == ("2026-10-27", "met")
    assert "as Mansfield Wetlands By-Law Ch. 15 §4.1 adopts it" in c["decision"].rule
    # ten business days after Tue 10-20: 21 22 23 26 27 28 29 30, 11-02, 11-03
    assert (c["appeal-period"].date.isoformat(), c["appeal-period"].status) == ("2026-11-03", "open")
    assert c["permit-expiry"].date.isoformat() == "2029-10-20"
    assert c["renewal-request"].date.isoformat() == "2029-09-20"


def test_mansfield_rda_decided_within_21_days_of_receipt():
    r = replayed(
        "mansfield",
        "rda",
        ev("filed", "2026-10-01"),
        ev("hearing-opened", "2026-10-20"),
        ev("hearing-closed", "2026-10-20"),  # Ch. 15 §4.4: a hearing for every application
        ev("determination-issued", "2026-10-23", positive=False),
        as_of="2026-10-23",
    )
    # 10-01 + 21 = Thu 10-22; issued the day after
    assert (r.clock("decision").date.isoformat(), r.clock("decision").status) == ("2026-10-22", "late")
    assert OYSTER in r.clock("decision").explanation


def test_a_mansfield_rda_is_decided_only_after_its_public_hearing_closes():
    """Mansfield Ch. 15 §4.4 (mansfield.txt line 1506): "The Commission shall
    conduct public hearings for all applications filed under this bylaw"."""
    refused(
        "mansfield",
        "rda",
        ev("filed", "2026-06-01"),
        ev("hearing-opened", "2026-06-10"),
        ev("determination-issued", "2026-06-12", positive=False),
        match=r"decision cannot come before the hearing closes.*Ch\. 15 §4\.4",
    )
    r = replayed(
        "mansfield",
        "rda",
        ev("filed", "2026-06-01"),
        ev("hearing-opened", "2026-06-10"),
        ev("hearing-closed", "2026-06-10"),
        ev("determination-issued", "2026-06-12", positive=False),
    )
    assert r.state == "negative-determination"


# -- Land Disturbance (Ch. 25 Part B) from application to construction -------------------


def land_disturbance(*rest, as_of="2026-07-01"):
    return replayed(
        "mansfield",
        "land-disturbance",
        ev("filed", "2026-03-02"),
        ev("boards-notified", "2026-03-02"),
        ev("hearing-scheduled", "2026-03-05", hearing="2026-04-21"),
        ev("notice-published", "2026-04-01"),
        ev("notice-posted", "2026-04-02"),
        ev("abutters-notified", "2026-04-06"),
        *rest,
        as_of=as_of,
    )


def test_land_disturbance_from_application_to_construction_notice():
    r = land_disturbance(
        ev("hearing-opened", "2026-04-21"),
        ev("hearing-closed", "2026-05-05"),
        ev("permit-issued", "2026-06-30"),
        ev("construction-noticed", "2026-07-01", start="2026-07-08"),
    )
    c = clocks_by_id(r)
    assert r.state == "issued"
    assert (c["board-reports"].type, c["board-reports"].date.isoformat()) == ("earliest", "2026-04-12")  # day 41
    assert (c["hearing-open"].date.isoformat(), c["hearing-open"].status) == ("2026-05-01", "met")
    # all three notices by 14 days before 04-21; the last went out 04-06
    assert (c["hearing-notice"].date.isoformat(), c["hearing-notice"].status) == ("2026-04-07", "met")
    # 05-05 + 60 = Sat 07-04, Independence Day -> Mon 07-06
    assert (c["decision"].date.isoformat(), c["decision"].status) == ("2026-07-06", "met")
    assert (c["construction-notice"].date.isoformat(), c["construction-notice"].status) == ("2026-07-01", "met")
    assert "permit-expiry" not in c


def test_land_disturbance_notice_missing_one_channel_is_not_met():
    r = replayed(
        "mansfield",
        "land-disturbance",
        ev("filed", "2026-03-02"),
        ev("boards-notified", "2026-03-02"),
        ev("hearing-scheduled", "2026-03-05", hearing="2026-04-21"),
        ev("notice-published", "2026-04-01"),
        ev("notice-posted", "2026-04-02"),
        as_of="2026-04-08",
    )
    assert r.clock("hearing-notice").status == "overdue"


def test_land_disturbance_denied_late_is_late_without_oyster_creek():
    r = land_disturbance(
        ev("hearing-opened", "2026-04-21"), ev("hearing-closed", "2026-05-05"), ev("permit-denied", "2026-07-07")
    )
    assert r.state == "denied"
    assert r.clock("decision").status == "late"
    assert OYSTER not in r.clock("decision").explanation  # a wetlands case, not the stormwater by-law


def test_land_disturbance_permit_is_not_renewable():
    with pytest.raises(TransitionRefused, match="cannot be renewed"):
        land_disturbance(
            ev("hearing-opened", "2026-04-21"),
            ev("hearing-closed", "2026-05-05"),
            ev("permit-issued", "2026-06-30"),
            ev("renewal-requested", "2026-07-01"),
        )


# -- every board's report or 40 days before the hearing (Ch. 25 §7.E) --------------------


BOARDS = ("planning", "dpw", "health", "engineering", "building")


def _ld(*rest):
    return (ev("filed", "2026-03-02"), ev("boards-notified", "2026-03-02"), *rest)


def test_the_land_disturbance_hearing_waits_for_every_boards_report_or_40_days():
    """Mansfield 25 §7.E (mansfield.txt lines 2662-2666): until the agencies
    "have allowed forty (40) days to elapse after receipt": boards notified
    03-02, so day 40 (04-11) is still inside; the earliest hearing is day 41."""
    reports = [ev("board-reported", "2026-03-20", board=b) for b in BOARDS[:4]]
    refused(
        "mansfield",
        "land-disturbance",
        *_ld(*reports, ev("hearing-opened", "2026-04-11")),
        match=r"cannot open before 2026-04-12: building has not reported and have not been allowed 40 full days "
        r"after 2026-03-02 \(Mansfield 25 §7\.E\)",
    )


def test_the_land_disturbance_hearing_may_open_on_day_41_or_once_all_have_reported():
    """Mansfield 25 §7.E: read as Canton's 14 days are (15-6: from day 15)."""
    assert replayed("mansfield", "land-disturbance", *_ld(ev("hearing-opened", "2026-04-12"))).state == "hearing-open"
    reports = [ev("board-reported", "2026-03-20", board=b.title()) for b in BOARDS]
    assert replayed("mansfield", "land-disturbance", *_ld(*reports, ev("hearing-opened", "2026-03-25"))).state == "hearing-open"


def test_the_land_disturbance_hearing_needs_the_boards_to_have_the_application():
    refused(
        "mansfield",
        "land-disturbance",
        ev("filed", "2026-03-02"),
        ev("hearing-opened", "2026-05-01"),
        match=r"no boards-notified event .*\(Mansfield 25 §7\.E\)",
    )


def _mansfield_ld(*more, receipts=True):
    boards = [ev("board-reported", "2026-03-20", board=b) for b in ("building", "dpw", "engineering", "health", "planning")]
    return replayed(
        "mansfield",
        "land-disturbance",
        ev("filed", "2026-03-02"),
        ev("boards-notified", "2026-03-02"),
        *boards,
        *([ev("mail-receipts-submitted", "2026-04-01")] if receipts else []),
        ev("hearing-opened", "2026-04-21"),
        ev("hearing-closed", "2026-05-05"),
        ev("permit-issued", "2026-06-01"),
        *more,
        as_of="2026-12-31",
    )


def test_a_mansfield_ld_hearing_before_day_41_is_not_premature_once_every_board_has_reported():
    """Mansfield 25 §7.E: "until it has received reports from said agencies,
    or until said agencies have allowed forty (40) days to elapse"."""
    r = _mansfield_ld()  # all five boards reported 03-20; hearing 04-21 is day 50 anyway
    early = replayed(
        "mansfield",
        "land-disturbance",
        ev("filed", "2026-03-02"),
        ev("boards-notified", "2026-03-02"),
        *[ev("board-reported", "2026-03-20", board=b) for b in ("building", "dpw", "engineering", "health", "planning")],
        ev("mail-receipts-submitted", "2026-03-21"),
        ev("hearing-opened", "2026-03-25"),
        as_of="2026-03-26",
    )
    assert early.clock("board-reports").status == "passed"
    assert r.clock("board-reports").status == "passed"


# -- the mail receipts (Ch. 25 §7.G) and the surety (§12, §13, §15) ----------------------


def test_a_mansfield_ld_hearing_opened_before_the_mail_receipts_is_flagged():
    """mansfield.txt lines 2678-2680 (Ch. 25 §7.G): "Copies of the certified
    mail receipts shall be submitted ... prior to opening the public hearing"."""
    c = _mansfield_ld(receipts=False).clock("mail-receipts")
    assert c.status == "violated" and "§7.G" in c.rule
    assert _mansfield_ld().clock("mail-receipts") is None


def test_mansfield_land_disturbance_before_the_required_surety_is_flagged():
    """mansfield.txt lines 2773-2775 (Ch. 25 §12): the surety is posted
    "before the start of land disturbance activity"."""
    r = _mansfield_ld(ev("surety-required", "2026-06-01"), ev("work-started", "2026-06-10"))
    c = r.clock("surety")
    assert (c.status, c.date.isoformat()) == ("violated", "2026-06-10") and "§12" in c.rule
    ok = _mansfield_ld(ev("surety-required", "2026-06-01"), ev("surety-posted", "2026-06-05"), ev("work-started", "2026-06-10"))
    assert ok.clock("surety") is None


def test_the_surety_is_released_only_after_the_final_report_and_the_certificate_of_completion():
    """mansfield.txt lines 2779-2781 (Ch. 25 §12, §13, §15)."""
    early = _mansfield_ld(ev("final-report-filed", "2026-10-01"), ev("surety-released", "2026-10-02"))
    assert "no certificate-issued before it" in early.clock("surety").explanation  # the certificate of completion
    ok = _mansfield_ld(
        ev("final-report-filed", "2026-10-01"), ev("completion-certified", "2026-10-15"), ev("surety-released", "2026-10-20")
    )
    assert ok.state == "completed" and ok.clock("surety") is None


# -- who receives the abutter notice: the state's for wetlands, abutting owners for stormwater --


def test_mansfield_wetlands_adopt_the_states_abutters_and_land_disturbance_notifies_the_abutting_owners():
    import parcelkit as kit

    from parcels.abutters import abutters_of
    from workflows.towns import abutter_rule

    wetlands = abutter_rule("mansfield", "noi")
    assert (
        wetlands.within_feet == 100
        and wetlands.citation == "310 CMR 10.05(4)(a), as Mansfield Wetlands By-Law Ch. 15 §4.1 adopts it"
    )
    stormwater = abutter_rule("mansfield", "land-disturbance")
    assert stormwater.citation == "Mansfield Stormwater By-Law Ch. 25 Part B §2 (abutter), §7.G"
    idx = kit.index()
    got = kit.names(idx, [h.position for h in abutters_of(idx, idx.find("saugus", "1-3"), stormwater)])
    assert got == {"S2", "S4", "B2", "B3", "B4"}  # abutting the site; not across Main St
    letter = _mansfield_ld(
        ev("final-report-filed", "2026-10-01"),
        ev("certificate-issued", "2026-10-15", scope="complete"),
        ev("surety-released", "2026-10-20"),
    )
    assert letter.state == "completed" and letter.clock("surety") is None


# -- the certificate of completion (Ch. 25 Part B §15) ---------------------------------------


def test_the_land_disturbance_certificate_of_completion_ends_the_permit_and_is_for_all_the_work():
    """mansfield.txt 2842-2845 (§15): "a letter certifying completion upon
    receipt and approval of the final reports and/or upon otherwise
    determining that all work of the permit has been satisfactorily
    completed"; §12: a phase's part of the surety before."""
    r = _mansfield_ld(
        ev("surety-required", "2026-06-01"),
        ev("surety-posted", "2026-06-05"),
        ev("surety-released", "2026-08-01", phase="Phase 1 (the access road)"),
        ev("final-report-filed", "2026-10-01"),
        ev("certificate-issued", "2026-10-15", scope="complete"),
    )
    assert r.state == "completed" and r.clock("surety") is None  # a phase's release comes before the report
    refused(
        "mansfield",
        "land-disturbance",
        *_LD_ISSUED,
        ev("certificate-issued", "2026-10-15", scope="partial"),
        match="certifies that all the work of the permit is completed",
    )


#: a Mansfield land disturbance permit issued, as _mansfield_ld builds it
_LD_ISSUED = (
    ev("filed", "2026-03-02"),
    ev("boards-notified", "2026-03-02"),
    *(ev("board-reported", "2026-03-20", board=b) for b in ("building", "dpw", "engineering", "health", "planning")),
    ev("mail-receipts-submitted", "2026-04-01"),
    ev("hearing-opened", "2026-04-21"),
    ev("hearing-closed", "2026-05-05"),
    ev("permit-issued", "2026-06-01"),
)


# -- enforcement (Ch. 25 Part B §14, mansfield.txt 2795-2841) ---------------------------------


def _stormwater_case(*events, as_of="2026-12-31"):
    obj = {"town": "mansfield", "id": "MAN-ENF-2026-0001", "bylaw": "stormwater", "violator": {"name": "Rumford Devco LLC"}}
    obj["events"] = [
        ev(
            "violation-observed",
            "2026-04-01",
            provision="§14.B.1 (erosion control)",
            description="silt fence down along the brook",
        ),
        ev("order-issued", "2026-04-02", comply_by="2026-04-17", requires=["Repair the silt fence.", "Remove the sediment."]),
        *events,
    ]
    return replay_case(parse_case(obj), date.fromisoformat(as_of))


def test_mansfields_cost_notice_is_due_30_days_after_the_towns_abatement_rolled_off_a_sunday():
    """§14.B.3: "Within thirty (30) days after completing all measures
    necessary to abate the violation ... the violator and the property owner
    shall be notified of the costs incurred by the Town".  Abated Friday
    2026-05-08: day 30 is Sunday 06-07, so Monday 06-08 (M.G.L. c.4 §9)."""
    r = _stormwater_case(ev("town-abated", "2026-05-08"), as_of="2026-05-20")
    c = r.clock("cost-notice")
    assert (c.type, c.date.isoformat(), c.status) == ("deadline", "2026-06-08", "open")
    assert "lands on 2026-06-07, a Sunday: rolled forward under M.G.L. c.4 §9 to 2026-06-08" in c.explanation
    assert c.rule == "Mansfield Stormwater By-Law Ch. 25 Part B §14.B.3"


def test_the_protest_runs_30_days_from_receipt_then_the_costs_are_due_and_a_lien_follows():
    """§14.B.3: a written protest "within thirty (30) days of receipt of the
    notification"; unpaid by then, the costs "become a special assessment
    ... and shall constitute a lien"; interest "after the thirty-first day
    following the day on which the costs were due"."""
    noticed = ev("costs-noticed", "2026-06-05", amount=4200, received="2026-06-08")
    r = _stormwater_case(ev("town-abated", "2026-05-08"), noticed, as_of="2026-06-20")
    assert r.clock("cost-protest").date.isoformat() == "2026-07-08"
    later = _stormwater_case(ev("town-abated", "2026-05-08"), noticed, as_of="2026-08-20")
    assert later.clock("cost-protest") is None  # the violator's chance, passed unused
    due, lien, interest = later.clock("costs-due"), later.clock("costs-lien"), later.clock("cost-interest")
    assert (due.date.isoformat(), due.status) == ("2026-07-08", "overdue")
    assert (lien.date.isoformat(), lien.status) == ("2026-07-09", "passed")
    assert (interest.date.isoformat(), interest.status) == ("2026-08-09", "passed")


def test_after_a_protest_the_costs_are_due_30_days_after_the_decision_and_an_early_lien_is_premature():
    r = _stormwater_case(
        ev("town-abated", "2026-05-08"),
        ev("costs-noticed", "2026-06-05", amount=4200),
        ev("costs-protested", "2026-06-20"),
        ev("costs-decided", "2026-07-15", amount=3600),
        ev("lien-recorded", "2026-08-01"),
        as_of="2026-09-01",
    )
    due, lien = r.clock("costs-due"), r.clock("costs-lien")
    assert due.date.isoformat() == "2026-08-14" and lien.status == "premature"


def test_mansfield_stormwater_tickets_are_300_a_day():
    """§14.C: "The penalty for each violation shall be $300. Each day or part
    thereof that such violation occurs or continues shall constitute a
    separate offense"."""
    r = _stormwater_case(
        ev("ticket-issued", "2026-04-20", provision="§14.B order", offense_day="2026-04-18", offense=1, fine=300),
        ev("ticket-issued", "2026-04-20", provision="§14.B order", offense_day="2026-04-19", offense=2, fine=300),
    )
    assert r.fines == 600 and r.clock("compliance").status == "overdue"


def test_an_enforcement_order_of_2024_is_not_extended_by_the_2024_permit_extension_act():
    """St. 2024 c.238 §280 extends approvals in effect in 2023-2024; an
    enforcement order is excluded (St. 2010 c.240 §173 by its own terms; the
    later Acts read the same: docs/reference/readings.md): its date to comply
    by stands, and the explanation says so."""
    obj = {"town": "mansfield", "id": "MAN-ENF-2024-0003", "bylaw": "stormwater", "violator": "Rumford Devco LLC"}
    obj["events"] = [
        ev("violation-observed", "2024-06-03", provision="§14.B.1", description="sediment in the brook"),
        ev("order-issued", "2024-06-04", comply_by="2024-07-05", requires=["Stabilize the slope."]),
    ]
    c = replay_case(parse_case(obj), date(2024, 8, 1)).clock("compliance")
    assert (c.date.isoformat(), c.status) == ("2024-07-05", "overdue")
    assert "not extended by St. 2024 c.238 §280" in c.explanation and "excludes enforcement orders" in c.explanation


def test_town_costs_are_refused_where_the_by_law_recovers_none_and_mansfield_wetlands_take_no_tickets():
    from workflows.fines import NoTickets, fine_for

    with pytest.raises(TransitionRefused, match="sets no recovery of the town's costs"):
        replay_case(
            parse_case(
                {
                    "town": "saugus",
                    "id": "SAU-ENF-2026-0009",
                    "bylaw": "wetlands",
                    "violator": "X",
                    "events": [
                        ev("violation-observed", "2026-04-01", provision="§2", description="fill"),
                        ev("town-abated", "2026-04-20"),
                    ],
                }
            ),
            date(2026, 5, 1),
        )
    with pytest.raises(NoTickets, match="Enforcement Appendix lists Chapter 15 as 'Not Applicable'"):
        fine_for("Mansfield", town("mansfield").fine_schedule("wetlands"), 1)


# -- the street excavation permit (Ch. 5 §IV-V, mansfield.txt 365-385) ------------------------


def _street(*more, as_of="2026-07-01"):
    return replayed(
        "mansfield",
        "street-opening",
        ev("filed", "2026-05-01"),
        ev("dig-safe-obtained", "2026-05-04", ticket="20261234567"),
        ev("permit-issued", "2026-05-06"),
        *more,
        as_of=as_of,
    )


def test_a_mansfield_street_opening_is_restored_and_the_permittee_answers_for_repairs_for_one_year():
    """§V: "restore said street ... immediately upon completion of work; and
    the expense of repairs ... accruing within one year thereafter, shall be
    paid by such person"."""
    r = _street(
        ev("excavation-started", "2026-05-11"),
        ev("street-restored", "2026-05-14"),
        ev("repair-required", "2026-09-01", what="settled trench"),
    )
    c = r.clock("repair-liability")
    assert (r.state, c.type, c.date.isoformat(), c.status) == ("restored", "expiry", "2027-05-14", "active")
    assert c.rule == "Mansfield General By-Laws Ch. 5 (Streets and Sidewalks) §V"
    refused(
        "mansfield",
        "street-opening",
        ev("filed", "2026-05-01"),
        ev("permit-issued", "2026-05-06"),
        ev("excavation-started", "2026-05-11"),
        ev("street-restored", "2026-05-14"),
        ev("liability-ended", "2027-05-14"),
        match="the year runs to 2027-05-14",
    )
    closed = _street(
        ev("excavation-started", "2026-05-11"),
        ev("street-restored", "2026-05-14"),
        ev("liability-ended", "2027-05-17"),
        as_of="2027-06-01",
    )
    assert closed.state == "closed"


def test_a_mansfield_permit_issues_without_a_dig_safe_number_but_digging_without_one_is_a_violation():
    """Canton 16-12 §10.4 refuses a permit without a Dig Safe number; Ch. 5
    does not, but M.G.L. c.82 §40A holds every excavation back."""
    r = replayed(
        "mansfield",
        "street-opening",
        ev("filed", "2026-05-01"),
        ev("permit-issued", "2026-05-06"),
        ev("excavation-started", "2026-05-11"),
    )
    c = r.clock("dig-safe-wait")
    assert c.status == "violated" and c.rule == "M.G.L. c.82 §40A"
    assert r.clock("work-notice") is None  # Canton's 72-hour work notice (16-12 §10.3) is Canton's


def test_cantons_patches_deposits_and_suspensions_are_no_steps_of_a_mansfield_street_permit():
    for step in (
        ev("temporary-patch-placed", "2026-05-14"),
        ev("suspended", "2026-05-14", days=5),
        ev("deposit-refunded", "2026-05-14"),
    ):
        refused(
            "mansfield",
            "street-opening",
            ev("filed", "2026-05-01"),
            ev("permit-issued", "2026-05-06"),
            ev("excavation-started", "2026-05-11"),
            step,
            match="no step of a street-opening under Mansfield General By-Laws Ch. 5",
        )


def test_the_mansfield_street_permit_prints_the_by_laws_own_conditions():
    rules = town("mansfield").rules("street-opening")
    texts = [c for c, _ in rules.standing_conditions]
    assert any("lighted lanterns" in t for t in texts) and any("within one year" in t for t in texts)
    assert town("mansfield").office("street-opening").signer == "Town Manager"


# -- the application fee (workflows/fees.py; mansfield.txt lines 1509-1518, 2640-2650, 365-371)


def test_a_mansfield_street_excavation_owes_no_fee_and_a_payment_on_it_is_refused():
    from workflows.errors import PermitsError
    from workflows.fees import PaymentRefused, check_payments, fee_for

    fee = fee_for(town("mansfield"), "street-opening")
    assert fee.due == 0 and "Ch. 5 (Streets and Sidewalks) §IV" in fee.words()  # a written permit, no fee named

    class E:
        type, position, date = "payment-received", 2, date(2026, 12, 3)

        def get(self, name, default=None):
            return {"amount": "10.00", "method": "cash"}.get(name, default)

    with pytest.raises(PaymentRefused, match="nothing is due") as got:
        check_payments("MAN-SOP-2026-001", fee, [E()])
    assert isinstance(got.value, PermitsError)


def test_the_land_disturbance_fee_is_the_commissions_and_names_its_section():
    from dataclasses import replace

    from workflows.fees import fee_for

    assert fee_for(town("mansfield"), "land-disturbance").due is None
    filled = replace(town("mansfield"), settings={"commission_fees": {"land-disturbance": "1,500.00"}})
    fee = fee_for(filled, "land-disturbance")
    assert fee.due == 1_500_00 and fee.lines[0].rule.endswith("§7.B") and fee.state is None
