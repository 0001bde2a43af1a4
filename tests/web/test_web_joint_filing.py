"""Every Notice of Intent under the Act (issue 31): a Notice of Intent filed
in Canton through the workbench's New filing is heard under the Wetlands
Protection Act as well as Canton's by-law unless the agent says otherwise
with a reason: its replay runs the Act's ``wpa:`` clocks, its legal notice
cites 310 CMR 10.00 beside the by-law, and the abutter list computed from
the assessors' parcels is the union of both laws' (on the test block of
tests/parcelkit.py: Canton 15-5 alone names 4 owners, the Act 7), each
owner with the rules that put them on it.  Apply online does the same, and
the calendar feed holds the hearing scheduled, with its time and place."""

from __future__ import annotations

import html
from datetime import date, datetime

import icalendar
import parcelkit as kit
import pytest
from webkit import client, login

from services.parcel_abutters import filing_abutters
from services.record import record_event
from workflows.replay import replay

ACT_CITATION = "310 CMR 10.05(4)(a)"
BYLAW_CITATION = "Canton Wetlands By-Law 15-5"


@pytest.fixture
def block_web(store, tmp_path):
    kit.import_block(store, tmp_path)
    return client(store)


def _new_noi(web, token, **more):
    form = {
        "csrf": token, "kind": "noi", "town": "canton", "filed": "2026-12-01", "address": "Q3 Elm St",
        "parcel": kit.block_map_lot(kit.BLOCK_SUBJECT), "description": "an addition within the buffer zone",
        "applicant_name": "Q3 Builders LLC", "applicant_street": "3 Q3 Lane", "applicant_city": "Canton",
        "applicant_state": "MA", "applicant_zip": "02021", **more,
    }  # fmt: skip
    return web.post("/filings/new", data=form)


def _schedule(store, fid):
    """The hearing, scheduled for Thursday, December 17, 2026 at 7:00 p.m."""
    raw = {"type": "hearing-scheduled", "date": "2026-12-02", "hearing": "2026-12-17", "at": "2026-12-17T19:00"}
    record_event(store, fid, raw, by="agent@canton.example", today=date(2026, 12, 3), now=None, mail_from=None)


def _owners(result) -> set[str]:
    return {p.name.removeprefix("OWNER OF ") for p in result.parties}


def test_a_web_noi_in_canton_is_heard_under_the_act_too_with_its_clocks_citations_and_the_acts_abutters(block_web, store):
    token = login(block_web, "canton-agent")
    form = block_web.get("/filings/new?kind=noi").text
    assert 'name="heard_under" value="joint" checked' in form and "Wetlands Protection Act" in form
    r = _new_noi(block_web, token)
    assert r.status_code == 303, r.text
    fid = r.headers["location"].rsplit("/", 1)[1]
    filing, _ = store.load(fid)
    assert filing.also == ("wpa",)
    clocks = {c.id for c in replay(filing, date(2026, 12, 3)).clocks}
    assert {"hearing-open", "wpa:hearing-open"} <= clocks  # both laws' clocks
    page = html.unescape(block_web.get(f"/filings/{fid}").text)
    assert "Heard under the Wetlands Protection Act (M.G.L. c.131 §40; 310 CMR 10.00) and the Canton Wetlands By-Law" in page

    # the legal notice cites both laws
    _schedule(store, fid)
    r = block_web.get(f"/filings/{fid}/notices/legal-notice")
    assert r.status_code == 200, r.text
    notice = " ".join(html.unescape(r.text).split())
    assert (
        "In accordance with the Wetlands Protection Act (M.G.L. c.131 §40; 310 CMR 10.00) and the Canton Wetlands By-Law (Art. XV)"
        in notice
    )
    assert "Thursday, December 17, 2026 at 7:00 p.m." in notice

    # the abutter list: the union of the by-law's 4 owners and the Act's 7
    result = filing_abutters(store, fid)
    assert _owners(result) == kit.BLOCK_ACT and len(result.parties) == 7
    rules = {item.label: item.rules for item in result.listed}
    for lot in kit.BLOCK_BYLAW:
        assert rules[kit.block_map_lot(lot)] == (BYLAW_CITATION, ACT_CITATION), lot
    for lot in kit.BLOCK_ACT - kit.BLOCK_BYLAW:
        assert rules[kit.block_map_lot(lot)] == (ACT_CITATION,), lot
    review = html.unescape(block_web.get(f"/filings/{fid}/abutters/parcels").text)
    assert "<strong>7</strong> letter(s)" in review
    assert f"OWNER OF S, 1 S LANE, CANTON, MA 02021 <small>(9-2; abutter; by {ACT_CITATION})</small>" in review
    assert f"(7-2; abutter; by {BYLAW_CITATION} (Canton Wetlands By-Law 15-5)" not in review  # the citation is named once
    assert f"by {BYLAW_CITATION} and {ACT_CITATION})" in review


def test_an_agent_may_hear_a_noi_under_the_bylaw_alone_only_with_a_reason_kept_on_the_filing(block_web, store):
    token = login(block_web, "canton-agent")
    r = _new_noi(block_web, token, heard_under="bylaw")
    assert r.status_code == 422 and "say why this filing is heard under the by-law alone" in html.unescape(r.text)
    reason = "filed before the Act's jurisdiction was found: the by-law's buffer alone"
    r = _new_noi(block_web, token, heard_under="bylaw", bylaw_reason=reason)
    assert r.status_code == 303, r.text
    fid = r.headers["location"].rsplit("/", 1)[1]
    filing, _ = store.load(fid)
    assert filing.also == () and filing.extra["bylaw_only"]["reason"] == reason
    assert filing.extra["bylaw_only"]["by"] == "agent@canton.example"
    assert not any(c.id.startswith("wpa:") for c in replay(filing, date(2026, 12, 3)).clocks)
    assert f"alone, for this reason: {reason}" in html.unescape(block_web.get(f"/filings/{fid}").text)
    assert _owners(filing_abutters(store, fid)) == kit.BLOCK_BYLAW  # Canton 15-5's 4 owners


def test_the_calendar_feed_holds_the_scheduled_hearing_with_its_time_and_place_and_one_event_per_act(block_web, store):
    token = login(block_web, "canton-agent")
    fid = _new_noi(block_web, token).headers["location"].rsplit("/", 1)[1]
    _schedule(store, fid)
    page = block_web.get("/calendar").text
    url = page.split('id="calendar-url">', 1)[1].split("<", 1)[0]
    r = block_web.get(url.replace("http://testserver", ""))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/calendar")
    events = {str(e["UID"]): e for e in icalendar.Calendar.from_ical(r.content).walk("VEVENT")}
    hearing = events[f"{fid}/hearing@permits.canton"]
    assert hearing.decoded("dtstart") == datetime(2026, 12, 17, 19, 0, tzinfo=hearing.decoded("dtstart").tzinfo)
    assert str(hearing.decoded("dtstart").tzinfo) == "America/New_York"
    assert str(hearing["LOCATION"]) == "Memorial Hall, 801 Washington Street, Canton"  # the office's meeting place
    assert "7:00 p.m." in str(hearing["DESCRIPTION"])
    mine = [e for uid, e in events.items() if uid.startswith(f"{fid}/")]
    titles = [str(e["SUMMARY"]) for e in mine]
    assert len(titles) == len(set(titles)), titles  # the by-law's and the Act's deadline for one act: one event
    newspaper = [t for t in titles if "newspaper" in t.lower() or "notice" in t.lower()]
    assert newspaper and all("(binds)" in t for t in newspaper if "under" in t)
