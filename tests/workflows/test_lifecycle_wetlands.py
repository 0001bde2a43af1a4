"""One NOI life in every town, Canton, Saugus, Mansfield and the state
alone (`wpa`): a continuance, an extension, a late decision, a denial and a
renewal.  Dates are worked by hand from each town's decision clock and term
(NOI_TOWNS says how).  Each town's own filings across their whole life, kind
by kind, are in its file in towns/."""

import pytest
from _filings import OYSTER, ev, replayed

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
