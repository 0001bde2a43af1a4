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

import pytest
from _filings import OYSTER, clocks_by_id, ev, refused, replayed

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
    letter = _mansfield_ld(
        ev("final-report-filed", "2026-10-01"),
        ev("certificate-issued", "2026-10-15", scope="complete"),
        ev("surety-released", "2026-10-20"),
    )
    assert letter.state == "completed" and letter.clock("surety") is None
