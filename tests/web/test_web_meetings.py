"""The Meetings page (web/staff/meeting_pages.py): only the town's conservation
staff (and an admin) see a town's meetings, anyone else the same 404 as for
a meeting that does not exist; every post carries the CSRF token; a
refusal writes nothing; the same actions through ``permits meetings``
leave the same record."""

from __future__ import annotations

import re

import pytest
from storekit import snapshot
from webkit import client, login

from cli.main import main

FID = "CAN-NOI-2026-001"


def _db(store) -> str:
    return str(store.engine.url)


def _schedule(web, token, at="2026-12-15T19:00", **more):
    return web.post("/meetings", data={"csrf": token, "town": "canton", "at": at, **more})


def _meeting_id(web) -> str:
    return re.search(r'id="meeting-(\d+)"', web.get("/meetings?town=canton").text).group(1)


def test_a_stranger_is_sent_to_the_login_page(web):
    r = web.get("/meetings?town=canton")
    assert r.status_code == 303 and r.headers["location"].startswith("/login?next=")


@pytest.mark.parametrize("who, status", [("canton-agent", 200), ("admin", 200), ("saugus-agent", 404), ("canton-dpw", 404)])
def test_only_the_towns_conservation_staff_see_its_meetings(web, who, status):
    login(web, who)
    assert web.get("/meetings?town=canton").status_code == status


def test_an_unknown_town_and_a_malformed_or_unknown_meeting_are_404(web):
    login(web, "canton-agent")
    assert web.get("/meetings?town=atlantis").status_code == 404
    assert web.get("/meetings/abc/agenda.pdf").status_code == 404
    assert web.get("/meetings/999/agenda.pdf").status_code == 404


def test_an_agent_schedules_a_meeting_hears_a_filing_and_posts_the_agenda(web, store):
    token = login(web, "canton-agent")
    assert _schedule(web, token).status_code == 303
    mid = _meeting_id(web)
    page = web.get("/meetings?town=canton").text
    assert "to be posted by Friday, December 11, 2026, 7:00 p.m." in page
    r = web.post(f"/meetings/{mid}/hear", data={"csrf": token, "filing": FID})
    assert r.status_code == 303, r.text
    filing, _ = store.load(FID)
    assert filing.events[-1].type == "hearing-scheduled"
    assert FID in web.get("/meetings?town=canton").text
    agenda = web.get(f"/meetings/{mid}/agenda.pdf")
    assert agenda.status_code == 200 and agenda.content.startswith(b"%PDF")
    posted = web.post(f"/meetings/{mid}/posting", data={"csrf": token})
    assert posted.status_code == 200 and posted.headers["content-type"] == "application/pdf"
    assert "Posted Thursday, December 3, 2026, " in web.get("/meetings?town=canton").text


def test_a_post_without_the_csrf_token_writes_nothing(web, store):
    token = login(web, "canton-agent")
    before = snapshot(_db(store))
    r = web.post("/meetings", data={"town": "canton", "at": "2026-12-15T19:00"})
    assert r.status_code in (400, 403)
    assert snapshot(_db(store)) == before
    _schedule(web, token)
    mid = _meeting_id(web)
    before = snapshot(_db(store))
    for action, data in (("hear", {"filing": FID}), ("business", {"title": "Minutes"}), ("posting", {})):
        assert web.post(f"/meetings/{mid}/{action}", data=data).status_code in (400, 403)
    assert snapshot(_db(store)) == before


def test_another_towns_agent_cannot_touch_a_meeting_and_nothing_is_written(store):
    canton, saugus = client(store), client(store)
    _schedule(canton, login(canton, "canton-agent"))
    mid = _meeting_id(canton)
    token = login(saugus, "saugus-agent")
    before = snapshot(_db(store))
    for action, data in (("hear", {"filing": FID}), ("continue", {"filing": FID}), ("business", {"title": "x"}), ("posting", {})):
        assert saugus.post(f"/meetings/{mid}/{action}", data={"csrf": token, **data}).status_code == 404
    assert saugus.get(f"/meetings/{mid}/agenda.pdf").status_code == 404
    assert snapshot(_db(store)) == before


def test_a_refused_schedule_says_why_and_writes_nothing(web, store):
    token = login(web, "canton-agent")
    before = snapshot(_db(store))
    r = _schedule(web, token, at="2026-12-25T19:00")
    assert r.status_code == 422 and "legal holiday" in r.text
    r = _schedule(web, token, at="2026-12-15 7pm")
    assert r.status_code == 422 and "a date and a time of day, such as 12/17/2026 7:00 p.m." in r.text
    r = web.post(f"/meetings/{'1'}/hear", data={"csrf": token, "filing": "SAU-NOI-2026-001"})
    assert r.status_code == 404  # no meeting yet
    assert snapshot(_db(store)) == before


def test_hearing_opened_defaults_to_the_noticed_session_and_warns_on_another_day(store):
    from datetime import date, datetime

    from fastapi.testclient import TestClient

    from services.meetings import hear_at_meeting, schedule_meeting
    from web.app import create_app

    mid = schedule_meeting(store, town="canton", starts_at=datetime(2026, 12, 15, 19, 0), by="agent", today=date(2026, 12, 3))
    hear_at_meeting(store, mid, FID, by="agent", today=date(2026, 12, 3))
    web = TestClient(create_app(store, secret="test-secret", today=lambda: date(2026, 12, 16)), follow_redirects=False)
    token = login(web, "canton-agent")
    page = web.get(f"/filings/{FID}?event=hearing-opened").text
    assert 'name="f_date" value="2026-12-15"' in page
    seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
    form = {"csrf": token, "seq": seq, "type": "hearing-opened", "f_date": "2026-12-16"}
    before = snapshot(_db(store))
    r = web.post(f"/filings/{FID}/events", data=form)
    assert (
        r.status_code == 422
        and "No session of the hearing was noticed for Wednesday, December 16, 2026 (noticed: Tuesday, December 15, 2026)"
        in r.text
    )
    assert snapshot(_db(store)) == before
    assert web.post(f"/filings/{FID}/events", data={**form, "unnoticed": "yes"}).status_code == 303
    filing, _ = store.load(FID)
    assert (filing.events[-1].type, filing.events[-1].date) == ("hearing-opened", date(2026, 12, 16))


def test_the_command_line_schedules_hears_and_posts_as_the_web_does(store, tmp_path, capsys):
    db = _db(store)
    assert main(["meetings", "add", "--town", "canton", "--at", "2026-12-15T19:00", "--as-of", "2026-12-03", "--db", db]) == 0
    assert main(["meetings", "hear", "--meeting", "1", "--filing", FID, "--as-of", "2026-12-03", "--db", db]) == 0
    assert main(["meetings", "business", "--meeting", "1", "--title", "Minutes", "--db", db]) == 0
    assert main(["meetings", "agenda", "--meeting", "1", "--format", "html", "--out", str(tmp_path), "--db", db]) == 0
    html = (tmp_path / "canton-meeting-2026-12-15-posting.html").read_text()
    assert f"Public hearing on the Notice of Intent ({FID})" in html and "Minutes" in html
    capsys.readouterr()
    assert main(["meetings", "list", "--town", "canton", "--as-of", "2026-12-03", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "2026-12-15 Tue 19:00" in out and f"hearing: {FID}" in out and "to be posted by 2026-12-11 19:00" in out
    web = client(store)
    login(web, "canton-agent")
    assert FID in web.get("/meetings?town=canton").text  # the web reads the record the command line wrote


def test_the_command_line_refuses_a_bad_meeting_number_in_one_line(store, capsys):
    assert main(["meetings", "hear", "--meeting", "x1", "--filing", FID, "--db", _db(store)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--meeting 'x1'" in err[0]


def test_the_command_line_warns_on_a_hearing_opened_on_a_day_not_noticed_and_records_it_when_told(store, capsys):
    from datetime import date, datetime

    from services.meetings import hear_at_meeting, schedule_meeting

    mid = schedule_meeting(store, town="canton", starts_at=datetime(2026, 12, 15, 19, 0), by="agent", today=date(2026, 12, 3))
    hear_at_meeting(store, mid, FID, by="agent", today=date(2026, 12, 3))
    db = _db(store)
    before = snapshot(db)
    args = ["record", FID, "hearing-opened", "--date", "2026-12-16", "--as-of", "2026-12-16", "--db", db]
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no session of the hearing was noticed for 2026-12-16 (noticed: 2026-12-15)" in err[0]
    assert snapshot(db) == before
    assert main([*args, "--not-noticed"]) == 0
    assert "state hearing-open" in capsys.readouterr().out
