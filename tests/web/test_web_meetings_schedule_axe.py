"""axe-core (tests/web/axekit.py) on the Meetings page and on both tabs of
the DPW schedule, at a desktop's width and at a phone's (390 px), with a
meeting's forms and a schedule row's inspection form opened: no serious or
critical violation; and neither page scrolls sideways at 390 px.

Skipped when no ``chromium`` is on the PATH (``.ci/run`` installs it)."""

from __future__ import annotations

from datetime import date, datetime

import pytest
import storekit
from axekit import serious_violations
from test_web_browser import CHROMIUM, Walk, browser, serving, walkthrough  # noqa: F401 (the module's fixture)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")

TODAY = date(2026, 12, 3)
WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def _no_sideways_scroll(w: Walk, what: str) -> None:
    wide, inner = w.page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert wide <= inner, f"{what} scrolls sideways at {inner} px: {wide} px wide"


def _checked(w: Walk, what: str, width: str) -> None:
    assert serious_violations(w.page) == [], f"{what} at {width}"
    if width == "phone":
        _no_sideways_scroll(w, what)
    w.shot(f"{what.replace(' ', '-')}-{width}")


def _setting_up(store) -> None:
    from services.meetings import add_business, hear_at_meeting, schedule_meetings

    first, _ = schedule_meetings(
        store, town="canton", first=datetime(2026, 12, 15, 19, 0), every_weeks=1, count=2, by="setup", today=TODAY
    )
    hear_at_meeting(store, first, "CAN-NOI-2026-001", by="setup", today=TODAY)
    add_business(store, first, "Minutes of the November 17 meeting")
    for raw in (
        {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "20264801234"},
        {"type": "permit-issued", "date": "2026-12-01"},
        {"type": "work-noticed", "at": "2026-12-01T09:00"},
        {"type": "excavation-started", "date": "2026-12-02"},
    ):
        storekit.append(store, "CAN-SOP-2026-001", raw, by="setup")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_meetings_page_has_no_serious_violation_and_no_sideways_scroll(browser, tmp_path, tmp_path_factory, width):  # noqa: F811
    with serving(tmp_path, TODAY) as (base, store), walkthrough(browser, base, tmp_path_factory, f"meet-axe-{width}") as w:
        _setting_up(store)
        w.page.set_viewport_size(WIDTHS[width])
        w.login("canton-agent")
        w.page.goto(base + "/meetings")
        w.page.wait_for_selector("section.meeting")
        assert "CAN-NOI-2026-001" in w.page.locator("section.meeting").first.inner_text()
        _checked(w, "the meetings page", width)
        for summary in w.page.locator("section.meeting summary").all():
            summary.click()
        _checked(w, "the meetings page with its forms open", width)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_both_tabs_of_the_dpw_schedule_have_no_serious_violation(browser, tmp_path, tmp_path_factory, width):  # noqa: F811
    with serving(tmp_path, TODAY) as (base, store), walkthrough(browser, base, tmp_path_factory, f"sched-axe-{width}") as w:
        _setting_up(store)
        w.page.set_viewport_size(WIDTHS[width])
        w.login("canton-dpw")
        w.page.goto(base + "/schedule")
        assert "trench inspection" in w.page.locator("#rows").inner_text()
        _checked(w, "the inspections tab", width)
        w.page.locator("#rows li summary").first.click()
        _checked(w, "the inspections tab with a form open", width)
        w.page.goto(base + "/schedule?tab=other")
        assert w.page.locator("#rows li").count() > 0
        _checked(w, "the other dates tab", width)
