"""In Chromium (issue 21, items 3 and 4): an applicant applies online and
reads that the town is checking completeness; the agent marks it
incomplete, naming the project description; the applicant corrects the
description on the status page and resubmits; the agent marks it
complete; the emails (receipt, incomplete, receipt again, complete) reach
a real SMTP server (aiosmtpd), and the status page lists them.  axe-core
finds no serious or critical violation on the status page at each step,
at a desktop's width and a phone's (390 px), and it never scrolls
sideways.  Skipped when no ``chromium`` is on the PATH."""

from __future__ import annotations

import shutil
from datetime import date

import pytest
from axekit import serious_violations
from fastapi.testclient import TestClient
from mailkit import body, smtp_server
from webkit import PASSWORD, USERS, make_store, register, serving

from notices.smtp import smtp_sender
from services.mail import deliver
from web.deps import context_of

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")
TODAY = date(2026, 12, 3)
WIDTHS = ({"width": 1280, "height": 900}, {"width": 390, "height": 844})
FIELDS = {
    "address": "9 Pleasant St",
    "parcel": "C-12-7",
    "description": "a deck",
    "applicant_name": "Ann Lee",
    "applicant_street": "9 Pleasant St",
    "applicant_city": "Canton",
    "applicant_state": "MA",
    "applicant_zip": "02021",
}
CORRECTED = "a deck on piers, 60 feet from the bordering vegetated wetland of Pequit Brook"


@pytest.fixture
def app(tmp_path, monkeypatch):
    from web.app import create_app

    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
    store = make_store(f"sqlite:///{tmp_path / 'permits.db'}")
    application = create_app(store, secret="browser-test", today=lambda: TODAY)
    register(TestClient(application, follow_redirects=False), "ann@example.org", store)  # the emailed link followed
    yield application
    store.engine.dispose()


def _check(page, where: str, problems: list) -> None:
    for size in WIDTHS:
        page.set_viewport_size(size)
        problems += [f"{where} at {size['width']} px: {v}" for v in serious_violations(page)]
        if page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1"):
            problems.append(f"{where} at {size['width']} px scrolls sideways")
    page.set_viewport_size(WIDTHS[0])


def _login(page, base, email):
    page.goto(base + "/login")
    page.fill('input[name="email"]', email)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button:has-text("Log in")')


def test_apply_be_found_incomplete_correct_the_named_field_resubmit_be_found_complete_and_get_word_of_each(app, tmp_path):
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    plan = tmp_path / "site-plan.pdf"
    plan.write_bytes(b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")
    with smtp_server() as sink, serving(app) as port, sync_playwright() as p:
        base = f"http://127.0.0.1:{port}"
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        ann, agent = browser.new_context().new_page(), browser.new_context().new_page()
        try:
            _login(ann, base, "ann@example.org")
            ann.wait_for_url("**/my")
            ann.goto(base + "/my/apply?kind=noi&town=canton")
            ann.select_option('select[name="town"]', "canton")
            for name, value in FIELDS.items():
                ann.fill(f'[name="{name}"]', value)
            ann.check('input[name="owner_is_applicant"]')
            ann.set_input_files('input[name="plan"]', str(plan))
            ann.click("#submit-application")
            ann.wait_for_url("**/my/filings/*")
            fid = ann.url.rsplit("/", 1)[1]
            assert "Check that the application is complete" in ann.inner_text("#town")
            assert "Nothing is due from you now" in ann.inner_text("#yours")
            assert "Site: 9 Pleasant St" in ann.inner_text("#site")
            assert "Receipt of your application" in ann.inner_text("#emails")
            _check(ann, "status page, submitted", problems)

            _login(agent, base, USERS["canton-agent"][0])
            agent.wait_for_url("**/today")
            agent.goto(f"{base}/filings/{fid}")
            agent.fill('textarea[name="reasons"]', "Project description: say how far the deck is from the wetland.")
            agent.click("#mark-incomplete")
            agent.wait_for_selector("#submission")

            ann.reload()
            yours = ann.inner_text("#yours")
            assert "Correct what the town named and submit the application again" in yours
            assert "say how far the deck is from the wetland" in yours
            _check(ann, "status page, sent back", problems)
            ann.fill('textarea[name="c_description"]', CORRECTED)
            ann.click('#resubmit button[type="submit"]')
            ann.wait_for_selector("#town")
            assert ann.locator("#resubmit").count() == 0
            assert ann.inner_text("#project-description") == CORRECTED
            assert "Check that the application is complete" in ann.inner_text("#town")

            agent.goto(f"{base}/filings/{fid}")
            assert f"Project description: {CORRECTED} (was a deck)" in agent.inner_text("body")
            agent.click("#mark-complete")
            agent.wait_for_selector('#state[data-state="filed"]')

            ann.reload()
            assert "The town received the complete application on Thursday, December 3, 2026" in ann.inner_text("#words")
            assert "Open the public hearing by" in ann.inner_text("#town")
            report = deliver(context_of(app).store, smtp_sender(sink.url))
            assert report.failed == 0, report.errors
            ann.reload()
            emails = ann.inner_text("#emails")
            for title in ("Receipt of your application", "Application found incomplete", "Application found complete"):
                assert title in emails
            assert "waiting to go" not in emails
            _check(ann, "status page, complete", problems)
        finally:
            ann.screenshot(path=str(tmp_path / "last.png"), full_page=True)
            browser.close()
    registration, *word = sink.to("ann@example.org")  # the registration's link was queued first, undelivered
    assert registration["Subject"] == "Finish your registration"
    subjects = [m["Subject"] for m in word]
    assert subjects == [
        f"Received: application {fid}",
        f"Application {fid} is incomplete",
        f"Received: application {fid}",
        f"Application {fid} is complete",
    ], subjects
    assert all(f"filing {fid}" in body(m) and "Why you got this" in body(m) for m in word)
    assert problems == [], problems
