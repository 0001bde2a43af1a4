"""A meeting's Open Meeting Law posting (notices/meeting_posting.py) against
its golden files, its 48-hour check, and the state's documents (WPA Form 5
and Form 2) in words: the MassDEP file number, the vote, the appeal
paragraph, the members' signature lines, and no engine text.

Regenerate after an intended change, then review the diff:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/notices/test_meeting_posting.py
"""

import os
import re
from datetime import date, datetime
from pathlib import Path

import pytest
from notice_fixtures import DATED, as_of_for, filing_for

from models.read.meetings import Meeting
from notices.errors import NoticeRefused
from notices.meeting_posting import PostingItem, render_posting
from notices.produce import produce
from workflows.meetings import posting_deadline
from workflows.replay import replay
from workflows.towns import town

GOLDEN = Path(__file__).parent / "golden" / "notices"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
PROFILE = town("canton")
OFFICE = PROFILE.office("noi")
MEETING = Meeting(7, "canton", OFFICE.name, date(2027, 4, 20), datetime(2027, 4, 20, 19, 0), OFFICE.meeting_place, None)
ITEMS = [
    PostingItem("business", title="Minutes of April 6, 2027"),
    PostingItem(
        "hearing",
        filing_id="CAN-NOI-2027-000012",
        permit="Notice of Intent",
        applicant="Neponset Builders LLC",
        address="40 Washington St",
        description="a single-family house within the buffer zone",
        bylaw="Canton Wetlands By-Law (Art. XV)",
    ),
    PostingItem(
        "continued",
        at=datetime(2027, 4, 20, 19, 30),
        filing_id="CAN-RDA-2027-000003",
        permit="Request for Determination of Applicability",
        applicant="M. Sullivan",
        address="12 Elm St",
        description="a deck",
        bylaw="Canton Wetlands By-Law (Art. XV)",
    ),
]


def _posting(fmt, dated=datetime(2027, 4, 14, 11, 54)):
    deadline = posting_deadline(PROFILE, MEETING.starts_at)
    return render_posting(MEETING, ITEMS, profile=PROFILE, office=OFFICE, deadline=deadline, dated=dated, fmt=fmt)


@pytest.mark.parametrize("fmt", ["html", "txt"])
def test_the_meeting_posting_matches_its_golden_file(fmt):
    content = _posting(fmt)
    path = GOLDEN / f"canton-meeting-posting.{fmt}"
    if UPDATE:
        path.write_text(content, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run UPDATE_GOLDEN=1"
    assert content == path.read_text(encoding="utf-8")


def test_the_posting_lists_every_hearing_and_the_business_and_its_deadline_passes_over_patriots_day():
    """The 48 hours before a Tuesday 7 p.m. meeting pass over Monday, April
    19, 2027 (Patriots' Day) and the weekend: the deadline is Thursday at
    7 p.m., which the agenda not yet posted prints; the posting put up is
    the public's and prints only its stamp (issue 31: no office deadline on
    what the town posts or mails)."""
    assert posting_deadline(PROFILE, MEETING.starts_at).at == datetime(2027, 4, 15, 19, 0)
    text = _posting("txt")
    assert "Posted Wednesday, April 14, 2027 at 11:54 a.m." in text
    assert "Public hearing on the Notice of Intent (CAN-NOI-2027-000012)" in text
    assert "7:30 p.m.: Continued public hearing on the Request for Determination of Applicability (CAN-RDA-2027-000003)" in text
    assert "Minutes of April 6, 2027" in text
    assert "to be posted by" not in text and "in time" not in text
    assert "Posted under the Open Meeting Law, M.G.L. c.30A §20(b)." in text


def test_a_posting_stamped_after_its_deadline_is_refused():
    with pytest.raises(NoticeRefused, match="must be up by 2027-04-15 19:00"):
        _posting("html", dated=datetime(2027, 4, 15, 19, 1))


def test_the_agenda_before_posting_says_when_it_must_go_up():
    assert "not yet posted: to be posted by Thursday, April 15, 2027 at 7:00 p.m." in _posting("txt", dated=None)


_ENGINE = re.compile(r"permit-issued|determination-issued|\bTrue\b|\bFalse\b|\bNone\b|on or before|\d{4}-\d{2}-\d{2}")


@pytest.mark.parametrize("notice, kind", [("permit", "noi"), ("determination", "rda")])
def test_the_state_documents_carry_the_file_number_vote_appeal_and_signatures_and_no_engine_text(notice, kind):
    filing = filing_for("wpa", kind, notice)
    text = produce(filing, replay(filing, as_of_for(kind, notice)), notice, fmt="txt", dated=DATED)[0].content
    assert "MassDEP File Number:" in text
    assert "Date of the vote  Tuesday, December 22, 2026" in text
    assert "within ten business days of the date of issuance" in text and "310 CMR 10.05(7)(c)" in text
    assert text.count("Signature: ______") == 5
    assert not _ENGINE.search(text), _ENGINE.search(text)


def test_the_order_prints_the_file_number_massdep_assigned():
    filing = filing_for("canton", "noi", "permit")
    text = produce(filing, replay(filing, as_of_for("noi", "permit")), "permit", fmt="txt", dated=DATED)[0].content
    assert "MassDEP File Number: SE 073-1234" in text
