"""The rest of a permit's life in a real browser (Playwright driving
Debian's Chromium, as tests/web/test_web_browser.py does): a Saugus Order
taken to its recorded Certificate of Compliance, and an enforcement case
from the violation seen to its tickets, each notice downloaded and read;
and the case's page at a phone's width.

Skipped when no ``chromium`` is on the PATH."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pytest
from test_web_browser import CHROMIUM, browser, serving, walkthrough  # noqa: F401 - the browser fixture is used by name

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")


def _pdf_text(download) -> str:
    from pypdf import PdfReader

    pdf = PdfReader(io.BytesIO(Path(download.path()).read_bytes()))
    return " ".join(p.extract_text() for p in pdf.pages)


def test_an_agent_takes_a_saugus_order_to_its_recorded_certificate_of_compliance(browser, tmp_path, tmp_path_factory):  # noqa: F811
    today = [date(2027, 6, 10)]  # the app's day, moved on as the walk goes
    with serving(tmp_path, lambda: today[0]) as (base, store), walkthrough(browser, base, tmp_path_factory, "certificate") as w:
        w.login("saugus-agent")
        w.page.goto(base + "/filings/SAU-NOI-2026-001")
        w.record("hearing-opened", date="2026-12-15", unnoticed=True)  # no meeting noticed it in this store
        w.record("hearing-closed", date="2026-12-15")
        w.record("permit-issued", date="2026-12-22", conditions="Erosion controls before any work.")
        w.record("permit-recorded", date="2027-01-05")
        w.record("recording-certified", date="2027-01-06")
        w.record("work-started", date="2027-01-12")
        passed = w.clock_row("recording-before-work")
        assert passed.get_attribute("class") == "passed" and "508.08 §7.9" in passed.inner_text()
        w.record("certificate-requested", date="2027-06-01", requested_by="Neponset Builders LLC", scope="complete")
        decision = w.clock_row("certificate-decision")
        assert "Tuesday, June 22, 2027" in decision.inner_text() and decision.get_attribute("class") == "open"
        today[0] = date(2027, 6, 30)
        w.record(
            "certificate-issued",
            date="2027-06-15",
            scope="complete",
            continuing="The 25-foot no-disturb zone stays unmowed.\nThe swale is kept clear.",
        )
        assert w.state() == "certified" and w.clock_row("certificate-decision").get_attribute("class") == "met"
        with w.page.expect_download() as info:
            w.page.locator('#notices li:has-text("Certificate of Compliance") button:has-text("Download PDF")').click()
        text = _pdf_text(info.value)
        assert "Certificate of Compliance" in text and "The swale is kept clear." in text and "SAU-NOI-2026-001" in text
        w.record("certificate-recorded", date="2027-06-22", instrument="Book 41234, Page 12")
        assert w.state() == "completed"
        assert w.page.locator("#record").inner_text().count("nothing more can be recorded now") == 1
    assert [h["type"] for h in store.history("SAU-NOI-2026-001")][-4:] == [
        "work-started",
        "certificate-requested",
        "certificate-issued",
        "certificate-recorded",
    ]


def test_an_agent_takes_an_enforcement_case_from_the_violation_to_its_tickets(browser, tmp_path, tmp_path_factory):  # noqa: F811
    from models.read.enforcement import EnforcementRecord

    with serving(tmp_path, date(2026, 12, 9)) as (base, store), walkthrough(browser, base, tmp_path_factory, "enforcement") as w:
        w.login("saugus-agent")
        w.page.goto(base + "/filings/SAU-NOI-2026-001")
        w.page.click('#enforcement-links a:has-text("Open a case")')
        form = w.page.locator("#new-case")
        for name, value in {
            "violator": "Neponset Builders LLC",
            "provision": "508.08 §2 (work in the buffer zone without a permit)",
            "description": "fill placed along the marsh",
            "date": "2026-12-01",
        }.items():
            form.locator(f'[name="{name}"]').fill(value)
        assert form.locator('[name="filing"]').input_value() == "SAU-NOI-2026-001"
        w.shot("open")
        form.locator('button:has-text("Open the case")').click()
        w.page.wait_for_selector("#state")
        case = w.page.url.rsplit("/", 1)[1]
        assert case == "SAU-ENF-2026-0001" and w.page.inner_text("#state") == "Violation on record"

        w.page.locator('#notice-form [name="date"]').fill("2026-12-02")
        w.page.locator('#notice-form button:has-text("Record the notice")').click()
        w.page.wait_for_selector("#state")
        assert w.page.inner_text("#state") == "Notice of violation sent"

        w.page.click("#order-form summary")
        w.page.locator('#order-form [name="date"]').fill("2026-12-03")
        w.page.locator('#order-form [name="comply_by"]').fill("2026-12-31")
        w.page.locator('#order-form [name="requires"]').fill("Remove the fill.\nReplant the buffer zone.")
        w.page.locator('#order-form button:has-text("Issue the Order")').click()
        w.page.wait_for_selector("#state")
        assert w.page.inner_text("#state") == "Under an Enforcement Order"
        w.shot("ordered")

        w.page.click("#ticket-form summary")
        w.page.locator('#ticket-form [name="date"]').fill("2026-12-08")
        w.page.locator('#ticket-form [name="provisions"]').fill("508.08 §2")
        w.page.locator('#ticket-form [name="first_day"]').fill("2026-12-04")
        w.page.locator('#ticket-form [name="last_day"]').fill("2026-12-07")
        w.page.locator('#ticket-form button:has-text("Issue the tickets")').click()
        w.page.wait_for_selector("#fines")
        assert w.page.locator("#error").count() == 0
        assert "4 ticket(s), $375 in fines" in w.page.inner_text("#fines")
        assert "fourth offense" in w.page.inner_text("#tickets")
        w.shot("tickets")
        with w.page.expect_download() as info:
            w.page.locator('#notices li:has-text("Notice of non-criminal disposition") button:has-text("Download PDF")').click()
        text = _pdf_text(info.value)
        assert "Non-Criminal Disposition" in text and "$200.00" in text and "$375.00" in text

        w.page.goto(base + "/today?within=30")
        assert case in w.page.inner_text("#enforcement-due")

        phone = browser.new_page(viewport={"width": 390, "height": 844})
        try:
            phone.context.add_cookies(w.page.context.cookies())
            phone.goto(f"{base}/enforcement/{case}")
            assert phone.inner_text("#state") == "Under an Enforcement Order"
            wide = phone.evaluate("document.querySelector('main').scrollWidth")
            assert wide <= 390, f"the case page is {wide} px wide at a phone's 390"
            phone.screenshot(path=str(w.folder / "phone.png"), full_page=True)
        finally:
            phone.close()
    replay = EnforcementRecord(store).replay("SAU-ENF-2026-0001", date(2026, 12, 9))
    assert [t.fine for t in replay.tickets] == [25, 50, 100, 200]
