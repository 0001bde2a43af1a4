"""Wetlands and stormwater filings across their whole life, per town and
kind: Canton (noi, rda), Saugus (noi, rda), Mansfield (noi and rda on the
state's timelines; land-disturbance) and the state alone (`wpa`).  Dates are
worked by hand from the by-law sections each test cites; each test says how."""

import pytest
from _filings import OYSTER, clocks_by_id, ev, replayed

# -- Canton NOI (Art. XV 15-5..15-7) -----------------------------------------------


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


# -- Canton RDA: a hearing, and a determination within 31 days of its close ---------


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


# -- one NOI life in every town: continuance, extension, late, denial, renewal ----------------

NOI_TOWNS = [  # town, decision deadline (close 03-31 + 21 or 31 days), expiry of 04-14 issuance + 3 years + renewal (1 or 3)
    ("canton", "2026-05-01", "2030-04-14"),
    ("saugus", "2026-04-21", "2030-04-14"),
    ("mansfield", "2026-04-21", "2032-04-14"),
    ("wpa", "2026-04-21", "2032-04-14"),
]


def _noi_life(town, *after_close, as_of="2026-06-01"):
    return replayed(
        town,
        "noi",
        ev("filed", "2026-03-02"),
        ev("hearing-scheduled", "2026-03-03", hearing="2026-03-17"),
        ev("hearing-opened", "2026-03-17"),
        ev("hearing-continued", "2026-03-17", to="2026-03-31"),
        ev("hearing-closed", "2026-03-31"),
        *after_close,
        as_of=as_of,
    )


@pytest.mark.parametrize("town, deadline, renewed", NOI_TOWNS)
def test_noi_life_in_every_town(town, deadline, renewed):
    late = _noi_life(town, ev("permit-issued", "2026-05-12")).clock("decision")
    assert (late.date.isoformat(), late.status) == (deadline, "late")
    assert OYSTER in late.explanation
    extended = _noi_life(
        town, ev("clock-extended", "2026-04-10", clock="decision", to="2026-05-15"), ev("permit-issued", "2026-05-12")
    ).clock("decision")
    assert (extended.date.isoformat(), extended.status) == ("2026-05-15", "met")
    denied = _noi_life(town, ev("permit-denied", "2026-04-14"))
    assert denied.state == "denied" and denied.clock("decision").status == "met"
    assert denied.clock("permit-expiry") is None
    life = _noi_life(
        town,
        ev("permit-issued", "2026-04-14"),
        ev("renewal-requested", "2029-03-01"),
        ev("permit-renewed", "2029-03-15"),
        as_of="2029-04-01",
    )
    assert life.state == "renewed"
    assert life.clock("permit-expiry").date.isoformat() == renewed
