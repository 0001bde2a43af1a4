"""Rules mended after review against the by-law texts."""

import pytest

from tests._filings import clocks_by_id, ev, replayed
from workflows.errors import MalformedEvent


def test_an_extension_signed_before_its_clock_starts_still_moves_it():
    r = replayed(
        "saugus",
        "noi",
        ev("filed", "2026-03-02"),
        ev("hearing-opened", "2026-03-16"),
        ev("clock-extended", "2026-03-16", clock="decision", to="2026-05-01"),
        ev("hearing-closed", "2026-03-30"),
        as_of="2026-04-25",
    )
    decision = clocks_by_id(r)["decision"]
    assert decision.date.isoformat() == "2026-05-01"
    assert decision.status == "open"
    assert "extended in writing on 2026-03-16" in decision.explanation


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


@pytest.mark.parametrize("bad", ["2026-W49-1", "20261201", "2026-1-05"])
def test_only_calendar_dates_in_yyyy_mm_dd_are_accepted(bad):
    with pytest.raises(MalformedEvent) as err:
        replayed("canton", "noi", ev("filed", bad))
    assert "is not a date (YYYY-MM-DD)" in str(err.value)
