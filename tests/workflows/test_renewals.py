"""The renewal-request clock, which a holder may leave unused (``optional``
in the rule book): open before its day, and no longer shown once its day has
passed with no request, the permit simply expiring (here on a Canton street
opening permit, 16-12 §10.1).

How often, for how long and how far ahead each town renews is in its file
in towns/; renewals refused town beside town, in test_guards.py."""

from _filings import clocks_by_id, ev, replayed


def test_a_renewal_nobody_asked_for_is_not_overdue_once_its_day_has_passed():
    r = replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-05-01"),
        ev("dig-safe-obtained", "2026-05-02", ticket="20261234567"),
        ev("permit-issued", "2026-05-04"),
        as_of="2026-07-01",
    )
    by_id = clocks_by_id(r)
    assert "renewal-request" not in by_id
    assert by_id["permit-expiry"].status == "expired"


def test_a_renewal_not_yet_asked_is_open_before_its_day():
    r = replayed(
        "canton",
        "street-opening",
        ev("filed", "2026-05-01"),
        ev("dig-safe-obtained", "2026-05-02", ticket="20261234567"),
        ev("permit-issued", "2026-05-04"),
        as_of="2026-05-20",
    )
    assert clocks_by_id(r)["renewal-request"].status == "open"
