"""Permits for recurring maintenance (workflows/maintenance.py).

- Canton 15-7 (canton.txt 120-123): "the Commission in its discretion may
  issue a permit expiring five years from the date of issuance for
  recurring or continuous maintenance work, provided that annual
  notification of time and location of work is given to the Commission."
- Saugus 508.08 §7.6: "for a period up to five (5) years ... for recurring
  or continuous maintenance work, provided that annual notification ..."
"""

from datetime import date

from _filings import ev, refused, replayed

CLOSED = (ev("filed", "2026-03-02"), ev("hearing-opened", "2026-03-16"), ev("hearing-closed", "2026-03-16"))


def test_a_canton_maintenance_permit_runs_five_years_with_a_notice_each_year():
    r = replayed(
        "canton",
        "noi",
        *CLOSED,
        ev("permit-issued", "2026-04-01", term_years=5),
        ev("maintenance-noticed", "2026-05-01"),
        as_of="2027-06-01",
    )
    expiry = r.clock("permit-expiry")
    assert (expiry.date, expiry.status) == (date(2031, 4, 1), "active")
    years = [(c.date, c.status) for c in r.clocks if c.id == "annual-notice"]
    assert years == [(date(2027, 4, 1), "met"), (date(2028, 4, 1), "open")]
    assert all(c.rule == "Canton Wetlands By-Law 15-7" for c in r.clocks if c.id == "annual-notice")
    missed = replayed("canton", "noi", *CLOSED, ev("permit-issued", "2026-04-01", term_years=5), as_of="2027-06-01")
    assert [c.status for c in missed.clocks if c.id == "annual-notice"] == ["overdue", "open"]


def test_a_term_longer_than_the_bylaw_allows_is_refused_naming_the_rule():
    refused(
        "saugus",
        "noi",
        *CLOSED,
        ev("permit-issued", "2026-04-01", term_years=6),
        match=r"at most 5 years from issuance, not 6 \(Saugus Wetlands By-Law 508.08 §7.6\)",
    )
    refused("wpa", "noi", *CLOSED, ev("permit-issued", "2026-04-01", term_years=5), match="allows no other")


def test_a_permit_without_a_term_runs_three_years_and_owes_no_annual_notice():
    r = replayed("saugus", "noi", *CLOSED, ev("permit-issued", "2026-04-01"), as_of="2027-06-01")
    assert r.clock("permit-expiry").date == date(2029, 4, 1) and r.clock("annual-notice") is None
    four = replayed("saugus", "noi", *CLOSED, ev("permit-issued", "2026-04-01", term_years=4), as_of="2026-05-01")
    assert four.clock("permit-expiry").date == date(2030, 4, 1)
    assert [c.date for c in four.clocks if c.id == "annual-notice"] == [date(2027, 4, 1)]
