"""Staff accounts by invitation in a real browser (issue 32, item 6;
Playwright driving Debian's Chromium): an admin invites a member of staff
from the Users page, with no mail server set reads the invitation on the
Emails page, and the person follows its link, chooses a password and lands
on Today named by their name; the link used once is refused in words.  A
user given a temporary password is held on Password until they choose
their own.  axe-core finds nothing serious on the Users, joining and
Password pages at a desktop's width and a phone's (390 px), where none
scrolls sideways."""

from __future__ import annotations

from datetime import date

import pytest
from axekit import serious_violations
from test_web_browser import CHROMIUM, serving, walkthrough
from webkit import PASSWORD, USERS

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")

BASE = "http://permits.canton.example"  # PERMITS_BASE_URL: the links' host; the test follows their paths
NEW = "kim.ortiz@canton.example"
THEIRS = "a passphrase of kims own"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def accessible(page, name: str) -> None:
    assert serious_violations(page) == [], name
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{name} scrolls sideways"


def _log_in(page, base: str, email: str, password: str) -> None:
    page.goto(base + "/login")
    page.fill('input[name="email"]', email)
    page.fill('input[name="password"]', password)
    page.click('button:has-text("Log in")')


def test_an_admin_invites_a_member_of_staff_who_joins_from_the_link_read_on_the_emails_page(
    browser, tmp_path, tmp_path_factory, monkeypatch
):
    monkeypatch.delenv("PERMITS_SMTP_URL", raising=False)
    monkeypatch.setenv("PERMITS_BASE_URL", BASE)
    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
    with serving(tmp_path, date(2026, 12, 3)) as (base, _store), walkthrough(browser, base, tmp_path_factory, "invite") as w:
        p = w.page
        w.login("admin")
        p.click('nav a:has-text("Users")')
        p.wait_for_url("**/users")
        p.fill('#invite input[name="email"]', NEW)
        p.fill('#invite input[name="full_name"]', "Kim Ortiz")
        p.fill('#invite input[name="title"]', "Conservation Agent")
        p.select_option('#invite select[name="role"]', "agent")
        p.check('#invite input[name="town"][value="canton"]')
        p.click('button:has-text("Send the invitation")')
        done = p.inner_text("#done")
        assert f"An invitation was emailed to {NEW}" in done and "it waits on the Emails page" in done
        row = p.locator(f'#users tr[data-email="{NEW}"]')
        assert "Kim Ortiz" in row.inner_text() and "invited, not joined yet" in row.inner_text()
        w.shot("invited")
        p.click('nav a:has-text("Emails")')
        p.wait_for_url("**/emails")
        p.locator("#emails tbody tr", has_text=NEW).locator("a", has_text="invited").click()
        p.wait_for_selector("#body")
        href = p.locator(f'#body a[href^="{BASE}/welcome/"]').get_attribute("href")
        w.shot("the invitation")

        for width in (390, 1280):  # the phone only looks: the desktop joins
            context = browser.new_context(viewport={"width": width, "height": 900})
            kim = context.new_page()
            kim.goto(base + href[len(BASE) :])
            assert NEW in kim.inner_text("main")
            accessible(kim, f"the joining page at {width} px")
            if width == 1280:
                kim.fill('input[name="new"]', THEIRS)
                kim.fill('input[name="new2"]', THEIRS + " but not")
                kim.click('button:has-text("Join")')
                assert "the two passwords differ" in kim.inner_text("#error")
                kim.fill('input[name="new"]', THEIRS)
                kim.fill('input[name="new2"]', THEIRS)
                kim.click('button:has-text("Join")')
                kim.wait_for_url("**/today")
                assert "Kim Ortiz (agent: canton)" in kim.inner_text("header")
            context.close()

        again = browser.new_context(viewport={"width": 390, "height": 900})
        late = again.new_page()
        late.goto(base + href[len(BASE) :])  # used once already
        text = late.inner_text("main")
        assert "used already" in text and "Ask whoever invited you to send it again" in text and "Forgot your password?" in text
        accessible(late, "a used invitation at 390 px")
        _log_in(late, base, NEW, THEIRS)
        late.wait_for_url("**/today")
        again.close()

        p.goto(base + "/users")
        row = p.locator(f'#users tr[data-email="{NEW}"]')
        assert "active" in row.inner_text() and "invited" not in row.inner_text()
        accessible(p, "the Users page at 1280 px")
        narrow = browser.new_context(viewport={"width": 390, "height": 900})
        n = narrow.new_page()
        _log_in(n, base, USERS["admin"][0], PASSWORD)
        n.wait_for_url("**/today")
        n.goto(base + "/users")
        accessible(n, "the Users page at 390 px")
        narrow.close()


def test_a_temporary_password_holds_the_user_on_password_until_they_choose_their_own(
    browser, tmp_path, tmp_path_factory, monkeypatch
):
    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
    dpw = USERS["canton-dpw"][0]
    with serving(tmp_path, date(2026, 12, 3)) as (base, _store), walkthrough(browser, base, tmp_path_factory, "temp") as w:
        p = w.page
        w.login("admin")
        p.goto(base + "/users")
        p.locator(f'#users tr[data-email="{dpw}"]').locator('button:has-text("Set a temporary password")').click()
        done = p.inner_text("#done")
        temporary = done.split(": ", 1)[1].split(" ", 1)[0]
        assert "they choose their own when they next log in" in done

        for width in (1280, 390):
            context = browser.new_context(viewport={"width": width, "height": 900})
            c = context.new_page()
            _log_in(c, base, dpw, temporary if width == 1280 else THEIRS)
            c.wait_for_url("**/password" if width == 1280 else "**/today")
            if width == 1280:
                assert "set by an admin" in c.inner_text("#must-change")
                accessible(c, "Password, to be changed, at 1280 px")
                c.goto(base + "/schedule")
                assert c.url.endswith("/password")
                c.fill('input[name="current"]', temporary)
                c.fill('input[name="new"]', THEIRS)
                c.fill('input[name="new2"]', THEIRS)
                c.click('button:has-text("Change")')
                assert "Your password was changed" in c.inner_text("#changed")
                c.click('a:has-text("Go on to your work")')
                c.wait_for_url("**/today")
            else:
                c.goto(base + "/password")
                assert c.locator("#must-change").count() == 0
                accessible(c, "Password at 390 px")
            context.close()
