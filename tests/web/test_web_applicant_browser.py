"""The applicant's side in a real browser (Playwright driving Debian's
Chromium, as the workbench's browser tests do): an applicant registers,
files a Saugus NOI with a plan PDF, staff mark it complete, the applicant
sees the hearing-open deadline on the status page, staff issue the
decision with its conditions from the workbench's form, the applicant
downloads it and finds the conditions printed.  Screenshots are kept under a temporary folder
named on failure.  Skipped when no ``chromium`` is on the PATH."""

from __future__ import annotations

import io
import re
from datetime import date
from pathlib import Path

import pytest
import storekit
from test_web_browser import CHROMIUM, serving, walkthrough
from webkit import PASSWORD, emailed_link

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")

PLAN = b"%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def test_an_applicant_files_a_saugus_noi_online_and_downloads_the_decision(browser, tmp_path, tmp_path_factory, monkeypatch):
    from pypdf import PdfReader

    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
    clock = {"today": date(2026, 12, 3)}  # the app's today; the decision comes two weeks later
    with serving(tmp_path, lambda: clock["today"]) as (base, store), walkthrough(browser, base, tmp_path_factory, "apply") as w:
        p = w.page
        p.goto(base + "/register")
        p.fill('input[name="email"]', "ann.lee@example.org")
        p.fill('input[name="password"]', PASSWORD)
        p.fill('input[name="password2"]', PASSWORD)
        p.click('button:has-text("Register")')
        p.wait_for_selector("#answer")
        p.goto(base + emailed_link(store, "ann.lee@example.org", "/confirm/"))  # the link in the email
        p.fill('input[name="password"]', PASSWORD)
        p.click('button:has-text("Finish registering")')
        p.wait_for_url("**/my")
        w.shot("registered")
        p.click('a:has-text("Notice of Intent")')
        p.select_option('select[name="town"]', "saugus")
        for name, value in {
            "address": "9 Central St",
            "parcel": "C-12-7",
            "description": "a deck within the 100-foot buffer zone",
            "applicant_name": "Ann Lee",
            "applicant_street": "9 Central St",
            "applicant_city": "Saugus",
            "applicant_state": "MA",
            "applicant_zip": "01906",
        }.items():
            p.fill(f'[name="{name}"]', value)
        p.check('input[name="owner_is_applicant"]')
        p.set_input_files('input[name="plan"]', {"name": "site-plan.pdf", "mimeType": "application/pdf", "buffer": PLAN})
        w.shot("application")
        p.click("#submit-application")
        p.wait_for_selector("#words")
        assert "the town is checking that it is complete" in p.inner_text("#words")
        fid = p.url.rsplit("/", 1)[1]
        assert re.fullmatch(r"SAU-NOI-2026-\d{6}", fid), fid  # the next of Saugus's running numbers
        with p.expect_download() as plan:
            p.click('#plans a:has-text("site-plan.pdf")')
        assert Path(plan.value.path()).read_bytes() == PLAN
        w.shot("submitted")
        p.click('button:has-text("Log out")')

        w.login("saugus-agent")
        assert fid in p.inner_text("#submitted")
        p.click(f'#submitted a:has-text("{fid}")')
        p.fill('#submission input[name="date"] >> nth=0', "2026-12-03")
        p.click("#mark-complete")
        p.wait_for_selector("#state")
        assert w.state() == "filed"
        w.shot("marked-complete")
        p.click('button:has-text("Log out")')

        p.goto(base + "/login?next=/my")
        p.fill('input[name="email"]', "ann.lee@example.org")
        p.fill('input[name="password"]', PASSWORD)
        p.click('button:has-text("Log in")')
        p.wait_for_url("**/my")
        p.click(f'a:has-text("{fid}")')
        town_next = p.inner_text("#town")
        assert "Open the public hearing by Thursday, December 24, 2026" in town_next and "508.08 §5.2" in town_next
        w.shot("hearing-deadline")

        status_page = p.url
        for event in (
            {"type": "hearing-scheduled", "date": "2026-12-04", "hearing": "2026-12-17", "at": "2026-12-17T19:00"},
            {"type": "hearing-opened", "date": "2026-12-17"},
            {"type": "hearing-closed", "date": "2026-12-17"},
        ):
            storekit.append(store, fid, event, by="agent@saugus.example")  # the workbench's own browser tests drive these forms
        clock["today"] = date(2026, 12, 18)
        p.click('button:has-text("Log out")')

        w.login("saugus-agent")
        p.goto(f"{base}/filings/{fid}")
        w.record(
            "permit-issued",
            date="2026-12-18",
            conditions="Erosion controls installed before any work.\n\nNo work within 25 feet of the wetland.\n",
        )
        assert w.state() == "issued"
        timeline = p.inner_text("#timeline")
        assert "Erosion controls installed before any work." in timeline and "No work within 25 feet of the wetland." in timeline
        p.click('button:has-text("Log out")')

        p.goto(base + "/login?next=/my")
        p.fill('input[name="email"]', "ann.lee@example.org")
        p.fill('input[name="password"]', PASSWORD)
        p.click('button:has-text("Log in")')
        p.wait_for_url("**/my")
        p.goto(status_page)
        assert "The permit is issued." in p.inner_text("#words")
        with p.expect_download() as decision:
            p.click('#documents a[data-kind="permit"]')
        text = " ".join(pg.extract_text() for pg in PdfReader(io.BytesIO(Path(decision.value.path()).read_bytes())).pages)
        assert fid in text and "9 Central St" in text and "Erosion controls installed" in text
        assert "No work within 25 feet of the wetland." in text
        w.shot("decision")
