"""Rules of the by-laws the engine once lacked, seen from where a by-law has
none of them: there the event is refused, or nothing is flagged.

The rules themselves are in the town files, one trap test each, citing the
by-law line: towns/test_canton.py (emergency projects, 15-3; the objection
that closes a hearing, 15-5; a utility's own patch and the missed winter
patch, 16-12 §11.4, §11.3(c)), towns/test_saugus.py (work before recording,
508.08 §7.9) and towns/test_mansfield.py (the boards, the mail receipts and
the surety, Ch. 25 §7.E, §7.G, §12)."""

import pytest
from _filings import ev, replayed

from workflows.errors import TransitionRefused


def test_an_emergency_project_is_refused_where_the_by_law_provides_none():
    with pytest.raises(TransitionRefused, match="provides no emergency project"):
        replayed("saugus", "noi", ev("emergency-work-started", at="2026-06-05T22:00"))


def test_elsewhere_an_objection_does_not_close_the_hearing():
    with pytest.raises(TransitionRefused, match="does not close a hearing on the applicant's objection"):
        replayed(
            "saugus",
            "noi",
            ev("filed", "2026-06-01"),
            ev("hearing-opened", "2026-06-16"),
            ev("continuance-objected", "2026-06-16"),
        )


def test_work_before_recording_is_not_flagged_where_the_by_law_does_not_require_it():
    """The rule is Saugus's (508.08 §7.9), declared in its rule book
    (``recording_before_work``); the state defaults here declare none."""
    r = replayed(
        "wpa",
        "noi",
        ev("filed", "2026-03-02"),
        ev("hearing-opened", "2026-03-16"),
        ev("hearing-closed", "2026-03-16"),
        ev("permit-issued", "2026-03-30"),
        ev("work-started", "2026-04-20"),
        as_of="2026-06-30",
    )
    assert r.clock("recording-before-work") is None
