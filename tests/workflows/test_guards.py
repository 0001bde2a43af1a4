"""The refusals a user will meet.  Each test asserts that the history is
refused AND that the message cites the rule that refuses it.

Here: the refusals every town makes, and renewals town beside town.  The
refusals of one town's own rules are in its file in towns/: Canton 15-5 and
16-12 §10.1, §10.4, §11.4, §12 in test_canton.py, Mansfield Ch. 15 §4.4 and
Ch. 25 §7.E in test_mansfield.py."""

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
