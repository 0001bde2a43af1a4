"""Failed logins in a real browser (Playwright driving Debian's Chromium),
the emails taken by a real SMTP server (aiosmtpd): five wrong passwords
pause this browser's address for the admin's account; the right password
then gets the same answer and an emailed link, which logs in from its
page; the Users page lists the day's failed logins.  axe-core finds no
serious or critical violation on the paused login page, the link's page
and the Users page, at a desktop's width and a phone's (390 px), where no
page scrolls sideways (models/accounts/login_pauses.py)."""

from __future__ import annotations

from datetime import date

import pytest
from mailkit import smtp_server
from test_web_browser import CHROMIUM, serving, walkthrough
from test_web_front_door_browser import accessible, browser, emailed  # noqa: F401 - the module's browser
from webkit import PASSWORD, USERS

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")

BASE = "http://permits.canton.example"
ADMIN, AGENT = USERS["admin"][0], USERS["canton-agent"][0]


def log_in(p, base: str, email: str, password: str) -> None:
    p.goto(base + "/login")
    p.fill('input[name="email"]', email)
    p.fill('input[name="password"]', password)
    p.click('button:has-text("Log in")')


def both_widths(p, name: str) -> None:
    accessible(p, name)
    p.set_viewport_size({"width": 390, "height": 844})
    accessible(p, f"{name} at 390 px")
    p.set_viewport_size({"width": 1280, "height": 800})


def test_a_paused_browser_logs_in_by_the_emailed_link_and_the_admin_sees_the_failures(
    browser, tmp_path, tmp_path_factory, monkeypatch
):  # noqa: F811
    with smtp_server() as sink:
        monkeypatch.setenv("PERMITS_SMTP_URL", sink.url)
        monkeypatch.setenv("PERMITS_BASE_URL", BASE)
        monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
        with serving(tmp_path, date(2026, 12, 3)) as (base, _store), walkthrough(browser, base, tmp_path_factory, "pauses") as w:
            p = w.page
            for _ in range(5):
                log_in(p, base, AGENT, "not the password")  # someone guessing at the agent's account
                log_in(p, base, ADMIN, "not the password")
            assert "wrong email or password" in p.inner_text('[role="alert"]')
            log_in(p, base, ADMIN, PASSWORD)
            alert = p.inner_text('[role="alert"]')
            assert "logins to it from here are paused until" in alert and "emailed to the account" in alert
            assert "/login" in p.url
            both_widths(p, "paused login")
            w.shot("paused")
            p.goto(base + emailed(sink, ADMIN, "/login/link/", 1))
            both_widths(p, "the login link's page")
            p.click('button:has-text("Log in")')
            p.wait_for_url("**/today")
            p.goto(base + "/users")
            table = p.inner_text("#failed-logins")
            assert AGENT in table and "127.0.0.1" in table and "paused" in table
            assert "logins from some place paused" in p.inner_text(f'tr[data-email="{AGENT}"]')
            both_widths(p, "users")
            w.shot("users")
            p.click(f'tr[data-email="{AGENT}"] button:has-text("End the pauses")')
            p.wait_for_url("**/users**")
            assert "logins from some place paused" not in p.inner_text(f'tr[data-email="{AGENT}"]')
