"""Rules of the by-laws the engine once lacked, seen from where a by-law has
none of them: there the event is refused, or nothing is flagged.

The rules themselves are in the town files, one trap test each, citing the
by-law line: towns/test_canton.py (emergency projects, 15-3; the objection
that closes a hearing, 15-5; a utility's own patch and the missed winter
patch, 16-12 §11.4, §11.3(c)), towns/test_saugus.py (work before recording
and its written certification, 508.08 §7.9) and towns/test_mansfield.py (the
boards, the mail receipts and the surety, Ch. 25 §7.E, §7.G, §12).  Work
before recording is no longer one of them: every state Order holds it back
(towns/test_wpa.py)."""

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
