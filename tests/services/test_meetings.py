"""A commission's meetings (services/meetings.py, workflows/meetings.py): a
meeting's Open Meeting Law posting is due 48 hours before it, not counting
Saturdays, Sundays and legal holidays (M.G.L. c.30A §20(b)); a hearing put
on a meeting is scheduled for it; a continuance to a later meeting puts the
continued session on that meeting's posting; "hearing opened" on a day no
session was noticed for is refused until confirmed.  On SQLite and
PostgreSQL."""

from datetime import date, datetime, time

import pytest
from storekit import snapshot
from webkit import make_store

from models.errors import UnknownMeeting
from notices.errors import NoticeRefused
from services import meetings
from services.imports import import_filings
from services.record import record_event
from workflows.meetings import MeetingRefused, UnnoticedSession, posting_deadline
from workflows.towns import town

FID = "CAN-NOI-2026-001"
TODAY = date(2026, 12, 3)


def test_posting_for_a_meeting_on_the_tuesday_after_patriots_day_is_due_the_thursday_before():
    # 2027-04-19 is Patriots' Day: Tuesday 7 p.m. less 19 h (Tue), Mon passed over, 24 h (Fri), weekend passed over, 5 h (Thu)
    r = posting_deadline(town("canton"), datetime(2027, 4, 20, 19, 0))
    assert r.at == datetime(2027, 4, 15, 19, 0)
    assert [s.reason for s in r.skipped] == ["Patriots' Day"]


def test_posting_for_a_monday_meeting_after_a_saturday_holiday_counts_the_friday():
    # Independence Day 2026 is a Saturday, not moved to the Friday in Massachusetts (c.4 §7 cl.18)
    r = posting_deadline(town("canton"), datetime(2026, 7, 6, 19, 0))
    assert r.at == datetime(2026, 7, 2, 19, 0)


def test_posting_for_a_plain_tuesday_meeting_is_due_the_friday_before_at_the_same_hour():
    assert posting_deadline(town("canton"), datetime(2026, 12, 15, 19, 0)).at == datetime(2026, 12, 11, 19, 0)


def _two_meetings(store):
    return meetings.schedule_meetings(
        store, town="canton", first=datetime(2026, 12, 15, 19, 0), every_weeks=1, count=2, by="agent", today=TODAY
    )


def test_a_continued_hearing_is_on_the_later_meetings_posting_with_its_time(db_url):
    store = make_store(db_url)
    first, second = _two_meetings(store)
    meetings.add_business(store, first, "Minutes of December 1")
    meetings.hear_at_meeting(store, first, FID, by="agent", today=TODAY)
    filing, _ = store.load(FID)
    assert filing.events[-1].type == "hearing-scheduled" and filing.events[-1].at == datetime(2026, 12, 15, 19, 0)
    _, html = meetings.produce_posting(store, first, now=datetime(2026, 12, 10, 11, 54), fmt="html")
    assert "Posted Thursday, December 10, 2026 at 11:54 a.m." in html
    assert "Public hearing on the Notice of Intent (CAN-NOI-2026-001)" in html and "Minutes of December 1" in html
    session = date(2026, 12, 15)
    record_event(
        store,
        FID,
        {"type": "hearing-opened", "date": "2026-12-15"},
        by="agent",
        today=session,
        now=datetime(2026, 12, 15, 19, 5),
        mail_from="x@example.org",
    )
    meetings.continue_hearing(store, FID, second, at=time(19, 30), day=session, by="agent", today=session)
    filing, _ = store.load(FID)
    last = filing.events[-1]
    assert (last.type, last.get("to"), last.at) == ("hearing-continued", date(2026, 12, 22), datetime(2026, 12, 22, 19, 30))
    view = meetings.meeting_view(store, second)
    assert view.deadline.at == datetime(2026, 12, 18, 19, 0)  # the continued session's own posting clock
    assert view.meeting.posted_at is None
    _, html = meetings.produce_posting(store, second, now=datetime(2026, 12, 16, 9, 30), fmt="html")
    assert "7:30 p.m.: Continued public hearing on the Notice of Intent (CAN-NOI-2026-001)" in html
    assert meetings.meeting_view(store, second).meeting.posted_at == datetime(2026, 12, 16, 9, 30)


def test_a_posting_after_its_deadline_is_refused_and_nothing_recorded(db_url):
    store = make_store(db_url)
    first, _ = _two_meetings(store)
    before = snapshot(db_url)
    with pytest.raises(NoticeRefused, match=r"must be up by 2026-12-11 19:00.*c\.30A §20\(b\)"):
        meetings.produce_posting(store, first, now=datetime(2026, 12, 11, 19, 1), fmt="html")
    assert snapshot(db_url) == before


def test_an_item_added_after_the_posting_takes_it_down(db_url):
    store = make_store(db_url)
    first, _ = _two_meetings(store)
    meetings.produce_posting(store, first, now=datetime(2026, 12, 4, 9, 0), fmt="html")
    meetings.add_business(store, first, "Election of officers")
    assert meetings.meeting_view(store, first).meeting.posted_at is None


def test_hearing_opened_on_a_day_no_session_was_noticed_is_refused_until_confirmed(db_url):
    store = make_store(db_url)
    first, _ = _two_meetings(store)
    meetings.hear_at_meeting(store, first, FID, by="agent", today=TODAY)
    before = snapshot(db_url)
    wrong = {"type": "hearing-opened", "date": "2026-12-16"}
    kw = dict(by="agent", today=date(2026, 12, 16), now=datetime(2026, 12, 16, 9, 0), mail_from="x@example.org")
    with pytest.raises(UnnoticedSession, match="no session of the hearing was noticed for 2026-12-16 .noticed: 2026-12-15."):
        record_event(store, FID, wrong, **kw)
    assert snapshot(db_url) == before
    assert record_event(store, FID, wrong, unnoticed=True, **kw).state == "hearing-open"


def test_a_meeting_in_the_past_a_holiday_and_a_twice_scheduled_time_are_refused(db_url):
    store = make_store(db_url)
    with pytest.raises(MeetingRefused, match="in the past"):
        meetings.schedule_meeting(store, town="canton", starts_at=datetime(2026, 12, 1, 19, 0), by="a", today=TODAY)
    with pytest.raises(MeetingRefused, match="legal holiday"):
        meetings.schedule_meeting(store, town="canton", starts_at=datetime(2026, 12, 25, 19, 0), by="a", today=TODAY)
    _two_meetings(store)
    before = snapshot(db_url)
    with pytest.raises(MeetingRefused, match="already meets"):
        _two_meetings(store)
    assert snapshot(db_url) == before


def test_a_weekly_run_of_friday_meetings_leaves_out_christmas_and_new_years_day(db_url):
    store = make_store(db_url)
    first = datetime(2026, 12, 18, 19, 0)
    ids = meetings.schedule_meetings(store, town="canton", first=first, every_weeks=1, count=4, by="a", today=TODAY)
    days = [v.meeting.day for v in meetings.meetings_view(store, "canton", since=TODAY)]
    assert len(ids) == 2 and days == [date(2026, 12, 18), date(2027, 1, 8)]


def test_another_towns_filing_cannot_be_heard_at_a_meeting_and_an_unknown_meeting_is_named(db_url):
    store = make_store(db_url)
    first, _ = _two_meetings(store)
    with pytest.raises(MeetingRefused, match="not a filing the"):
        meetings.hear_at_meeting(store, first, "SAU-NOI-2026-001", by="agent", today=TODAY)
    with pytest.raises(UnknownMeeting):
        meetings.hear_at_meeting(store, 999, FID, by="agent", today=TODAY)


def test_a_filing_that_names_its_applicant_and_address_as_plain_text_is_on_the_agenda_in_words(db_url):
    from storekit import NOI

    store = make_store(db_url)
    import_filings(store, [NOI], by="test")
    mid = meetings.schedule_meeting(store, town="canton", starts_at=datetime(2026, 12, 15, 19, 0), by="a", today=TODAY)
    meetings.hear_at_meeting(store, mid, NOI["id"], by="agent", today=TODAY)
    item = meetings.meeting_view(store, mid).items[0]
    assert (item.applicant, item.address) == ("J. Doe", "12 Washington St")


def test_a_hearing_set_again_before_it_opens_leaves_the_first_meetings_agenda(db_url):
    store = make_store(db_url)
    first, second = _two_meetings(store)
    meetings.hear_at_meeting(store, first, FID, by="agent", today=TODAY)
    meetings.produce_posting(store, first, now=datetime(2026, 12, 4, 9, 0), fmt="html")
    meetings.hear_at_meeting(store, second, FID, by="agent", today=TODAY)
    assert meetings.meeting_view(store, first).items == []
    assert meetings.meeting_view(store, first).meeting.posted_at is None  # posted again, without it
    assert [i.filing_id for i in meetings.meeting_view(store, second).items] == [FID]
