"""The refusals a user will meet.  Each test asserts that the history is
refused AND that the message cites the rule that refuses it."""

import pytest
from _filings import CANTON_NOI_OPEN, _street_issued, ev, refused, replayed

# -- the hearing -------------------------------------------------------------------


@pytest.mark.parametrize(
    "town, kind, bylaw",
    [
        ("canton", "noi", r"Canton Wetlands By-Law"),
        ("saugus", "noi", r"Saugus Wetlands By-Law 508\.08"),
        ("mansfield", "land-disturbance", r"Mansfield Stormwater By-Law Ch\. 25"),
    ],
)
def test_a_hearing_cannot_close_before_it_opens(town, kind, bylaw):
    err = refused(
        town,
        kind,
        ev("filed", "2026-06-01"),
        ev("hearing-scheduled", "2026-06-02", hearing="2026-06-16"),
        ev("hearing-closed", "2026-06-16"),
        match=rf"a hearing cannot close before it opens \({bylaw}",
    )
    assert (err.position, err.event, err.state) == (3, "hearing-closed", "hearing-scheduled")
    assert "15-5" in err.rule and "§5.2" in err.rule


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


def test_saugus_and_the_state_decide_an_rda_without_waiting_for_a_hearing():
    for town in ("saugus", "wpa"):
        r = replayed(
            town,
            "rda",
            ev("filed", "2026-06-01"),
            ev("hearing-opened", "2026-06-10"),
            ev("determination-issued", "2026-06-12", positive=False),
        )
        assert r.state == "negative-determination"


def test_a_hearing_is_continued_only_to_a_later_date():
    refused(
        "canton",
        "noi",
        *CANTON_NOI_OPEN,
        ev("hearing-continued", "2026-06-16", to="2026-06-16"),
        match=r"continued to a date certain after the session.*Canton Wetlands By-Law",
    )


# -- the Dig Safe number (16-12 §10.4) ---------------------------------------------------


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


# -- renewal: at most once, only before expiry ---------------------------------------------


def _canton_noi_issued(*rest):
    return (*CANTON_NOI_OPEN, ev("hearing-closed", "2026-06-16"), ev("permit-issued", "2026-07-01"), *rest)


def _saugus_noi_issued(*rest):
    return (
        ev("filed", "2026-06-01"),
        ev("hearing-opened", "2026-06-16"),
        ev("hearing-closed", "2026-06-16"),
        ev("permit-issued", "2026-07-01"),
        *rest,
    )


@pytest.mark.parametrize(
    "town, kind, history, second, cite",
    [
        ("canton", "noi", _canton_noi_issued, ("2029-05-01", "2029-05-15", "2030-05-01"), r"Canton Wetlands By-Law 15-7"),
        (
            "saugus",
            "noi",
            _saugus_noi_issued,
            ("2029-05-01", "2029-05-15", "2030-05-01"),
            r"Saugus Wetlands By-Law 508\.08 §7\.6",
        ),
        (
            "canton",
            "street-opening",
            _street_issued,
            ("2026-06-20", "2026-06-25", "2026-07-20"),
            r"Canton Street Opening By-Law 16-12 §10\.1",
        ),
    ],
)
def test_a_permit_renews_at_most_once(town, kind, history, second, cite):
    asked, renewed, again = second
    events = history(ev("renewal-requested", asked), ev("permit-renewed", renewed), ev("renewal-requested", again))
    refused(town, kind, *events, match=rf"renewed only once \({cite}\)")


@pytest.mark.parametrize(
    "town, kind, history, late, expiry, cite",
    [
        ("canton", "noi", _canton_noi_issued, "2029-07-02", "2029-07-01", r"Canton Wetlands By-Law 15-7"),
        ("saugus", "noi", _saugus_noi_issued, "2029-07-02", "2029-07-01", r"Saugus Wetlands By-Law 508\.08 §7\.6"),
        ("canton", "street-opening", _street_issued, "2026-07-02", "2026-07-01", r"Canton Street Opening By-Law 16-12 §10\.1"),
    ],
)
def test_a_permit_renews_only_before_it_expires(town, kind, history, late, expiry, cite):
    refused(
        town,
        kind,
        *history(ev("renewal-requested", late)),
        match=rf"after the permit expired on {expiry}: an expired permit cannot be renewed \({cite}\)",
    )


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


# -- street opening: certification window, suspension ------------------------------------------


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
