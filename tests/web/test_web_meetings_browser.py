"""A commission's meetings in a real browser (Chromium through Playwright,
as tests/web/test_web_browser.py): an agent schedules two weekly meetings,
puts an NOI's hearing on the first, opens it on the day (the form offers
the noticed session), continues it to the next meeting at 7:30 p.m., and
downloads that meeting's posting, whose "Posted ... at" is the town's wall
clock while the server's own zone is UTC."""

from __future__ import annotations

import io
import os
import time
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from test_web_browser import CHROMIUM, browser, serving, walkthrough  # noqa: F401 - the shared fixture and helpers

from notices.render import clocktime

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")
FID = "CAN-NOI-2026-001"


@pytest.fixture
def server_in_utc():
    """The process's (so the server thread's) zone set to UTC for the test."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if old is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = old
    time.tzset()


def test_an_agent_continues_a_hearing_to_the_next_meeting_and_posts_it_in_town_time(
    browser,  # noqa: F811
    tmp_path,
    tmp_path_factory,
    server_in_utc,
):
    from pypdf import PdfReader

    day = {"today": date(2026, 12, 3)}
    with serving(tmp_path, lambda: day["today"]) as (base, store), walkthrough(browser, base, tmp_path_factory, "meetings") as w:
        w.login("canton-agent")
        w.page.click('nav a:has-text("Meetings")')
        w.page.wait_for_selector("#schedule-meeting")
        w.page.fill('#schedule-meeting [name="at"]', "2026-12-15T19:00")
        w.page.fill('#schedule-meeting [name="every_weeks"]', "1")
        w.page.fill('#schedule-meeting [name="count"]', "2")
        w.page.click('#schedule-meeting button:has-text("Schedule")')
        w.page.wait_for_selector("section.meeting")
        w.shot("scheduled")
        first, second = w.page.locator("section.meeting").all()
        assert "to be posted by Friday, December 11, 2026, 7:00 p.m." in first.inner_text()
        first.locator("summary").click()
        first.locator('form[action$="/hear"] [name="filing"]').fill(FID)
        first.locator('button:has-text("Schedule the hearing")').click()
        w.page.wait_for_selector(f'section.meeting >> text="{FID}"')
        w.shot("heard")

        day["today"] = date(2026, 12, 15)  # the evening of the first meeting
        w.page.goto(f"{base}/filings/{FID}")
        w.page.select_option("#event-type", "hearing-opened")
        w.page.wait_for_selector('#event-form input[name="type"][value="hearing-opened"]', state="attached")
        assert w.page.input_value('#event-form [name="f_date"]') == "2026-12-15"  # the noticed session
        w.page.click('#event-form button:has-text("Record: Public hearing opened")')
        w.page.wait_for_selector("#state")
        assert "hearing-open" in w.state()

        w.page.click('nav a:has-text("Meetings")')
        second = w.page.locator("section.meeting").nth(1)
        second.locator("summary").click()
        second.locator('form[action$="/continue"] [name="filing"]').fill(FID)
        second.locator('form[action$="/continue"] [name="time"]').fill("19:30")
        second.locator('button:has-text("Continue the hearing")').click()
        w.page.wait_for_selector('li:has-text("7:30 p.m.: Continued hearing")')
        w.shot("continued")
        second = w.page.locator("section.meeting").nth(1)
        assert "to be posted by Friday, December 18, 2026, 7:00 p.m." in second.inner_text()

        boston = ZoneInfo("America/New_York")
        before = datetime.now(boston)
        with w.page.expect_download() as info:
            second.locator('button:has-text("Post the meeting now")').click()
        after = datetime.now(boston)
        text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(open(info.value.path(), "rb").read())).pages)
        text = " ".join(text.split())
        stamps = {f"Posted Tuesday, December 15, 2026 at {clocktime(t)}" for t in (before, after)}
        assert any(s in text for s in stamps), (stamps, text[:400])
        assert datetime.now().astimezone().utcoffset().total_seconds() == 0  # the server's own zone is UTC
        assert "7:30 p.m.: Continued public hearing on the Notice of Intent (CAN-NOI-2026-001)" in text.replace("- ", "-")
        w.page.reload()
        assert "Posted Tuesday, December 15, 2026, " in w.page.locator("section.meeting").nth(1).inner_text()
        w.shot("posted")
