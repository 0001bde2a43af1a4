"""Recording what really happened: the hearing's time, the day a
decision issued, extensions with an end, histories that cannot have
happened, notices no longer due once the hearing opened, demo data on
business days, and the dual-jurisdiction appeal period on the permit."""

from datetime import date, datetime

import pytest
from _filings import ev, filing, replayed

from calendars import BusinessCalendar
from demo.generate import TOWN_ACTS, generate
from workflows.errors import MalformedEvent
from workflows.filing import parse_filing

NOI_OPEN = (ev("filed", "2026-06-01"),)


def test_a_hearing_time_moves_the_open_meeting_law_posting_deadline_to_48_business_hours_before_it():
    """M.G.L. c.30A §20(b): 48 hours before the meeting, not counting
    Saturdays, Sundays and legal holidays.  Hearing Tue 2026-06-16 19:00:
    Tue 19 h + Mon 24 h + Fri 5 h -> Fri 06-12 19:00 (not midnight)."""
    r = replayed(
        "canton", "noi", *NOI_OPEN, ev("hearing-scheduled", "2026-06-02", hearing="2026-06-16T19:00"), as_of="2026-06-03"
    )
    c = r.clock("hearing-posting")
    assert c.at == datetime(2026, 6, 12, 19, 0)
    same = replayed(
        "canton",
        "noi",
        *NOI_OPEN,
        ev("hearing-scheduled", "2026-06-02", hearing="2026-06-16", at="2026-06-16T19:00"),
        as_of="2026-06-03",
    )
    assert same.clock("hearing-posting").at == c.at


def test_a_hearing_time_on_another_day_than_the_hearing_is_refused():
    with pytest.raises(MalformedEvent, match="not on the hearing's day"):
        replayed("canton", "noi", *NOI_OPEN, ev("hearing-scheduled", "2026-06-02", hearing="2026-06-16", at="2026-06-17T19:00"))


def test_a_decision_is_judged_on_the_day_it_issued_not_the_day_of_the_vote():
    """310 CMR 10.05(6)(a), M.G.L. c.131 §40: the Order is *issued* within 21
    days (Oyster Creek v. Harwich, 449 Mass. 859): voted in time but mailed
    late is late."""
    r = replayed(
        "wpa",
        "noi",
        *NOI_OPEN,
        ev("hearing-opened", "2026-06-10"),
        ev("hearing-closed", "2026-06-10"),
        ev("permit-issued", "2026-07-06", voted="2026-06-30"),
        as_of="2026-07-07",
    )
    c = r.clock("decision")
    assert (c.date, c.status) == (date(2026, 7, 1), "late")
    assert "voted 2026-06-30: judged on the day it issued, not the vote" in c.explanation


def test_a_vote_after_the_issuance_is_refused():
    with pytest.raises(MalformedEvent, match="a decision issues after its vote"):
        parse_filing(filing("wpa", "noi", ev("filed", "2026-06-01"), ev("permit-issued", "2026-06-05", voted="2026-06-06")))


def test_an_extension_or_waiver_without_an_end_date_is_refused_with_the_reason():
    """Canton 15-5, Saugus 508.08 §5.2: "unless the applicant authorizes an
    extension in writing": valid only for the period it states."""
    with pytest.raises(MalformedEvent, match="valid only for a stated period"):
        parse_filing(filing("canton", "noi", ev("filed", "2026-06-01"), ev("clock-extended", "2026-06-05", clock="hearing-open")))


def test_an_extension_ending_before_it_was_signed_is_refused():
    with pytest.raises(MalformedEvent, match=r"field 'to' \(2026-06-04\) is before the event's own date"):
        parse_filing(
            filing(
                "canton",
                "noi",
                ev("filed", "2026-06-01"),
                ev("clock-extended", "2026-06-05", clock="hearing-open", to="2026-06-04"),
            )
        )


def test_a_hearing_scheduled_for_a_day_before_it_was_scheduled_is_refused():
    with pytest.raises(MalformedEvent, match=r"field 'hearing' \(2026-06-01\) is before the event's own date, 2026-06-02"):
        parse_filing(
            filing("canton", "noi", ev("filed", "2026-06-01"), ev("hearing-scheduled", "2026-06-02", hearing="2026-06-01"))
        )


def test_an_unknown_field_on_an_event_is_refused_naming_it_and_the_known_ones():
    with pytest.raises(MalformedEvent, match=r"unknown field 'hearnig' on a hearing-scheduled event; known: type, date, hearing"):
        parse_filing(
            filing("canton", "noi", ev("filed", "2026-06-01"), ev("hearing-scheduled", "2026-06-02", hearnig="2026-06-16"))
        )


def test_once_the_hearing_has_opened_its_notices_are_no_longer_tasks():
    """An issued permit does not show "overdue hearing-posting" (c.30A §20(b)):
    the posting was missed, and nothing can now be done about it."""
    r = replayed(
        "canton",
        "noi",
        *NOI_OPEN,
        ev("hearing-scheduled", "2026-06-02", hearing="2026-06-16"),
        ev("hearing-opened", "2026-06-16"),
        ev("hearing-closed", "2026-06-16"),
        ev("permit-issued", "2026-06-30"),
        as_of="2026-07-15",
    )
    for clock_id in ("hearing-posting", "newspaper-notice"):
        c = r.clock(clock_id)
        assert c.status == "missed"
        assert "the hearing opened on 2026-06-16 with this not on record" in c.explanation
    assert all(c.id not in ("hearing-posting", "newspaper-notice") for c in r.pending())


def test_the_demonstration_dates_the_towns_acts_on_business_days_only():
    cal = BusinessCalendar()
    bad = []
    for f in generate(400, date(2026, 11, 30), seed=0):
        for e in f["events"]:
            if e["type"] in TOWN_ACTS:
                day = date.fromisoformat(e["date"])
                if not cal.is_business_day(day):
                    bad.append((f["id"], e["type"], day))
            if e["type"] == "hearing-scheduled" and not cal.is_business_day(date.fromisoformat(e["hearing"][:10])):
                bad.append((f["id"], "hearing", e["hearing"]))
    assert bad == []


def test_an_order_under_dual_jurisdiction_prints_the_states_appeal_period():
    """310 CMR 10.05(7)(c): a filing heard under the town's by-law and the
    Act (``also: ["wpa"]``) has the appeal period as ``wpa:appeal-period``."""
    from notice_fixtures import DATED, as_of_for, filing_for

    from notices.produce import produce
    from workflows.replay import replay

    f = filing_for("canton", "noi", "permit", also=["wpa"])
    r = replay(f, as_of_for("noi", "permit"))
    assert r.clock("appeal-period") is None and r.clock("wpa:appeal-period") is not None
    (out,) = [o for o in produce(f, r, "permit", fmt="txt", dated=DATED) if "permit" in o.filename][:1]
    assert "Last day to request a superseding order" in out.content


def test_the_temporary_patch_inspection_is_scheduled_on_a_business_day():
    """Canton 16-12 §10.2(b): an inspection after the temporary patch; the
    DPW inspects on business days, so a Saturday patch is inspected Monday."""
    from sweep.agenda import inspection_schedule
    from workflows.filing import parse_filing as parse

    obj = filing(
        "canton",
        "street-opening",
        ev("filed", "2026-06-01", length_ft=20),
        ev("dig-safe-obtained", "2026-06-01", ticket="1"),
        ev("permit-issued", "2026-06-02"),
        ev("work-noticed", at="2026-06-02T08:00"),
        ev("excavation-started", "2026-06-08"),
        ev("backfilled", "2026-06-10", material="gravel"),
        ev("temporary-patch-placed", "2026-06-13"),  # a Saturday
    )
    f = parse(obj)
    from workflows.replay import replay

    rows = inspection_schedule(replay(f, date(2026, 6, 13)), date(2026, 6, 13), f.events)
    assert [(e.what, e.date) for e in rows if e.what == "temporary patch inspection"] == [
        ("temporary patch inspection", "2026-06-15")
    ]
