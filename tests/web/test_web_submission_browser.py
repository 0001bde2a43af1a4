"""In Chromium (issue 19): an agent opens an NOI applied for online from
"to check" on Today, reads its description and contacts, downloads its
plans and marks it complete; axe-core finds no serious or critical
violation on the staff pages this walk touches, at a desktop's width and
a phone's (390 px), and none of those pages scrolls sideways.  Skipped
when no ``chromium`` is on the PATH."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest
from axekit import serious_violations
from fastapi.testclient import TestClient
from webkit import PASSWORD, USERS, make_store, register, serving

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")
TODAY = date(2026, 12, 3)
PDF = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
FORM = {
    "town": "canton",
    "address": "9 Pleasant St",
    "parcel": "C-12-7",
    "description": "a deck within the 100-foot buffer zone of Pequit Brook",
    "applicant_name": "Ann Lee",
    "applicant_street": "9 Pleasant St",
    "applicant_city": "Canton",
    "applicant_state": "MA",
    "applicant_zip": "02021",
    "applicant_phone": "781-555-0134",
    "owner_is_applicant": "yes",
}
WIDTHS = ({"width": 1280, "height": 900}, {"width": 390, "height": 844})


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The workbench over a store holding one NOI applied for online."""
    from web.app import create_app

    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
    store = make_store(f"sqlite:///{tmp_path / 'permits.db'}")
    application = create_app(store, secret="browser-test", today=lambda: TODAY)
    c = TestClient(application, follow_redirects=False)
    token = register(c, "ann@example.org", store)  # the emailed link followed (issue 21)
    r = c.post("/my/apply/noi", data={"csrf": token, **FORM}, files={"plan": ("site-plan.pdf", PDF, "application/pdf")})
    assert r.status_code == 303, r.text
    application.state.applied = r.headers["location"].rsplit("/", 1)[1]
    yield application
    store.engine.dispose()


def _check(page, where: str, problems: list) -> None:
    for size in WIDTHS:
        page.set_viewport_size(size)
        problems += [f"{where} at {size['width']} px: {v}" for v in serious_violations(page)]
        if page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1"):
            problems.append(f"{where} at {size['width']} px scrolls sideways")
    page.set_viewport_size(WIDTHS[0])


def test_an_agent_checks_an_online_noi_reads_it_downloads_its_plans_and_marks_it_complete(app, tmp_path):
    from playwright.sync_api import sync_playwright

    fid = app.state.applied
    problems: list[str] = []
    refused: list[str] = []
    with serving(app) as port, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(accept_downloads=True)
        page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
        base = f"http://127.0.0.1:{port}"
        try:
            page.goto(base + "/")
            page.fill('input[name="email"]', USERS["canton-agent"][0])
            page.fill('input[name="password"]', PASSWORD)
            page.click('button:has-text("Log in")')
            page.wait_for_url("**/today")
            assert page.get_attribute('nav a[href="/today"]', "aria-current") == "page"
            page.keyboard.press("Tab")
            assert page.evaluate("() => document.activeElement.className") == "skip-link"
            _check(page, "Today", problems)
            page.click(f'#submitted a:text-is("{fid}")')
            page.wait_for_selector("#submission-details")
            assert page.inner_text("#project-description") == FORM["description"]
            applicant = page.inner_text("#party-applicant")
            assert "Ann Lee" in applicant and "781-555-0134" in applicant and "ann@example.org" in applicant
            assert "and owner of the property" in applicant
            _check(page, "the filing page", problems)
            with page.expect_download() as info:
                page.click('#plans a:has-text("site-plan.pdf")')
            assert Path(info.value.path()).read_bytes() == PDF
            page.click("#mark-complete")
            page.wait_for_selector('#state[data-state="filed"]')
            assert page.inner_text("#state") == "Filed"
            assert page.locator("#error").count() == 0
            assert "Public hearing to open" in page.inner_text("#next-deadline")
            page.goto(base + "/filings")
            _check(page, "Filings", problems)
            page.goto(base + "/today")
            assert page.locator("#submitted").count() == 0  # nothing left to check
        finally:
            page.screenshot(path=str(tmp_path / "last.png"), full_page=True)
            browser.close()
    assert refused == [], refused
    assert problems == [], problems


def test_the_users_page_has_no_serious_violation_at_a_desktops_width_or_a_phones(app):
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with serving(app) as port, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        try:
            page.goto(f"http://127.0.0.1:{port}/")
            page.fill('input[name="email"]', USERS["admin"][0])
            page.fill('input[name="password"]', PASSWORD)
            page.click('button:has-text("Log in")')
            page.wait_for_url("**/today")
            page.goto(f"http://127.0.0.1:{port}/users")
            assert page.get_attribute('nav a[href="/users"]', "aria-current") == "page"
            _check(page, "Users", problems)
            page.goto(f"http://127.0.0.1:{port}/filings/CAN-NOI-2026-001")
            _check(page, "a filed NOI's page", problems)
        finally:
            browser.close()
    assert problems == [], problems


def test_an_application_marked_incomplete_is_incomplete_sent_back_in_the_header_the_filter_the_applicants_list_and_today(
    app, tmp_path
):
    """Issue 32, "Done when": an agent marks the online NOI incomplete in
    Chromium; its header, the Filings list filtered by "Incomplete, sent
    back to the applicant" (1 filing), the applicant's My filings and
    Today all say so, and then the applicant's resubmission puts it back to
    "Submitted online, to check" everywhere."""
    from playwright.sync_api import sync_playwright

    fid = app.state.applied
    sent_back = "Incomplete, sent back to the applicant"
    with serving(app) as port, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        base = f"http://127.0.0.1:{port}"
        agent = browser.new_page()
        ann = browser.new_page()
        try:
            agent.goto(base + "/")
            agent.fill('input[name="email"]', USERS["canton-agent"][0])
            agent.fill('input[name="password"]', PASSWORD)
            agent.click('button:has-text("Log in")')
            agent.wait_for_url("**/today")
            agent.click(f'#submitted a:text-is("{fid}")')
            agent.wait_for_selector("#state")
            assert agent.inner_text("#state") == "Submitted online, to check"
            agent.fill('textarea[name="reasons"]', "The site plan is not stamped by a registered engineer.")
            agent.click("#mark-incomplete")
            agent.wait_for_selector('#state[data-state="incomplete"]')
            assert agent.inner_text("#state") == sent_back  # the header
            agent.goto(base + "/filings")
            agent.select_option('select[name="state"]', label=sent_back)
            agent.click('#filing-filters button[type="submit"]')
            agent.wait_for_url("**state=incomplete**")
            assert agent.inner_text("#total") == "1 filing."  # the filter
            assert agent.inner_text("#results tbody tr td:nth-child(4)") == sent_back
            agent.goto(base + "/today")  # Today
            assert sent_back + ": 1" in agent.inner_text("#sent-back summary")
            assert agent.locator("#submitted").count() == 0
            ann.goto(base + "/login")
            ann.fill('input[name="email"]', "ann@example.org")
            ann.fill('input[name="password"]', PASSWORD)
            ann.click('button:has-text("Log in")')
            ann.wait_for_url("**/my")
            assert ann.inner_text(f'tr:has(a:text-is("{fid}")) td.stage') == sent_back  # the applicant's list
            ann.click(f'a:text-is("{fid}")')
            assert ann.inner_text("#state") == sent_back
            ann.fill('input[name="c_address"]', "9 Pleasant Street")
            ann.click('#resubmit button[type="submit"]')
            ann.wait_for_selector('#state[data-state="submitted"]')
            assert ann.inner_text("#state") == "Submitted online, to check"
            ann.goto(base + "/my")
            assert ann.inner_text(f'tr:has(a:text-is("{fid}")) td.stage') == "Submitted online, to check"
            agent.goto(base + "/today")
            assert agent.locator(f'#submitted a:text-is("{fid}")').count() == 1 and agent.locator("#sent-back").count() == 0
            agent.goto(f"{base}/filings/{fid}")
            assert agent.inner_text("#state") == "Submitted online, to check"
        finally:
            agent.screenshot(path=str(tmp_path / "agent.png"), full_page=True)
            ann.screenshot(path=str(tmp_path / "ann.png"), full_page=True)
            browser.close()
