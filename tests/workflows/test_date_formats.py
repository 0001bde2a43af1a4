"""A date in a filing is a calendar date written YYYY-MM-DD
(docs/reference/filing-format.md, "Dates and times"): a week date, the compact form and
a month or day without its leading zero are refused as malformed."""

import pytest
from _filings import ev, replayed

from workflows.errors import MalformedEvent


@pytest.mark.parametrize("bad", ["2026-W49-1", "20261201", "2026-1-05"])
def test_only_calendar_dates_in_yyyy_mm_dd_are_accepted(bad):
    with pytest.raises(MalformedEvent) as err:
        replayed("canton", "noi", ev("filed", bad))
    assert "is not a date (YYYY-MM-DD)" in str(err.value)
