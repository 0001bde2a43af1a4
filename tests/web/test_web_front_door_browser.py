"""The front door in a real browser (Playwright driving Debian's
Chromium), the emails taken by a real SMTP server (aiosmtpd): from the
login page an applicant registers, follows the link from the captured
email, finishes and lands on My filings; then forgets the password, asks
for a reset from the login page's link, follows the emailed link and
chooses a new one, after which a session opened before no longer opens
/my.  axe-core (vendored) finds no serious or critical violation on the
login, register, forgot, reset and finishing pages, at a desktop's width
and a phone's (390 px), where no page scrolls sideways."""

from __future__ import annotations

import time
from datetime import date

import pytest
from axekit import serious_violations
from mailkit import smtp_server
from test_web_browser import CHROMIUM, serving, walkthrough
from webkit import PASSWORD

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")

BASE = "http://permits.canton.example"  # PERMITS_BASE_URL: the links' host; the test follows their paths
NEW = "a new passphrase 21"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def emailed(sink, address: str, prefix: str, count: int) -> str:
    """The path of the link of the ``count``-th email to ``address``, once
    the server has it (the workbench sends after answering)."""
    deadline = time.monotonic() + 15
    while len(sink.to(address)) < count:
        assert time.monotonic() < deadline, f"no email {count} to {address}"
        time.sleep(0.05)
    link = sink.link(address, prefix)
    assert link.startswith(BASE + prefix), link
    return link[len(BASE) :]


def accessible(page, name: str) -> None:
    assert serious_violations(page) == [], name
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{name} scrolls sideways"


def test_register_follow_the_emailed_link_then_forget_the_password_and_reset_it(browser, tmp_path, tmp_path_factory, monkeypatch):
    with smtp_server() as sink:
        monkeypatch.setenv("PERMITS_SMTP_URL", sink.url)
        monkeypatch.setenv("PERMITS_BASE_URL", BASE)
        monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
        with serving(tmp_path, date(2026, 12, 3)) as (base, _store), walkthrough(browser, base, tmp_path_factory, "door") as w:
            p = w.page
            p.goto(base + "/login")
            accessible(p, "login")
            p.click('a:has-text("Register to apply online")')
            p.wait_for_url("**/register")
            accessible(p, "register")
            p.fill('input[name="email"]', "ann.lee@example.org")
            p.fill('input[name="password"]', PASSWORD)
            p.fill('input[name="password2"]', PASSWORD)
            p.click('button:has-text("Register")')
            assert "We have sent an email to ann.lee@example.org" in p.inner_text("#answer")
            accessible(p, "check your email")
            w.shot("registered")
            p.goto(base + emailed(sink, "ann.lee@example.org", "/confirm/", 1))
            accessible(p, "finish registering")
            p.fill('input[name="password"]', PASSWORD)
            p.click('button:has-text("Finish registering")')
            p.wait_for_url("**/my")
            w.shot("my filings")

            # a session opened before the reset, in another browser
            other = browser.new_context()
            before = other.new_page()
            before.goto(base + "/login")
            before.fill('input[name="email"]', "ann.lee@example.org")
            before.fill('input[name="password"]', PASSWORD)
            before.click('button:has-text("Log in")')
            before.wait_for_url("**/my")

            p.click('button:has-text("Log out")')
            p.wait_for_url("**/login")
            p.click('a:has-text("Forgot your password?")')
            p.wait_for_url("**/forgot")
            accessible(p, "forgot")
            p.fill('input[name="email"]', "ann.lee@example.org")
            p.click('button:has-text("Send me a link")')
            assert "If an account uses ann.lee@example.org" in p.inner_text("#answer")
            p.goto(base + emailed(sink, "ann.lee@example.org", "/reset/", 2))
            accessible(p, "reset")
            p.fill('input[name="new"]', NEW)
            p.fill('input[name="new2"]', NEW)
            p.click('button:has-text("Change the password")')
            p.wait_for_url("**/my")
            w.shot("reset")

            before.goto(base + "/my")
            assert "/login" in before.url  # the session from before the reset is ended
            other.close()

            p.click('button:has-text("Log out")')
            p.fill('input[name="email"]', "ann.lee@example.org")
            p.fill('input[name="password"]', NEW)
            p.click('button:has-text("Log in")')
            p.wait_for_url("**/my")


@pytest.mark.parametrize("path", ["/login", "/register", "/forgot"])
def test_the_front_doors_pages_at_a_phones_width_have_no_serious_violation(browser, tmp_path, path):
    with serving(tmp_path, date(2026, 12, 3)) as (base, _store):
        page = browser.new_page(viewport={"width": 390, "height": 844})
        try:
            page.goto(base + path)
            accessible(page, path)
        finally:
            page.close()


def test_the_axe_check_finds_a_serious_violation_when_there_is_one(browser):
    """The control: a form field without a label is a serious violation."""
    page = browser.new_page()
    try:
        page.set_content('<!doctype html><html lang="en"><title>t</title><main><input type="text"></main></html>')
        assert any(v.startswith("label:") for v in serious_violations(page))
    finally:
        page.close()
