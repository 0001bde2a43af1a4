"""A clock extended in writing (``clock-extended``, docs/reference/filing-format.md):
the applicant's written extension (Canton 15-5, Saugus 508.08 §5.2:
"unless the applicant authorizes an extension in writing") moves the clock
it names to its new date, even when it is signed before that clock starts.

The event's own fields (an end date, not before the day it was signed) are
checked in test_recording.py; a town's decision extended, in the town's file
in towns/; the Permit Extension Acts, in test_extension_acts.py."""

from _filings import clocks_by_id, ev, replayed


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
