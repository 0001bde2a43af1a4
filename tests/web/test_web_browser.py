"""The workbench in a real browser: Playwright driving Debian's Chromium
(``apt-get install chromium``; Playwright's own browser download cannot work
on these machines) against uvicorn serving the app in a thread on a free
127.0.0.1 port.  Each walkthrough keeps its screenshots in a temporary
folder, named in the failure message.

Skipped when no ``chromium`` is on the PATH (``.ci/run`` installs it)."""

from __future__ import annotations

import io
import re
import shutil
import socket
import threading
import time
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import pytest
from webkit import PASSWORD, USERS, make_store

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")

ABUTTERS_CSV = """Map/Lot,Owner Name,Mailing Address
12-034,Amelie Cote,"14 Elm St, Canton, MA 02021"
12-040,Wei Chen,"9 Oak Rd, Stoughton, MA 02072"
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(tmp_path: Path, today):
    """The workbench over a fresh store, in a thread; its base URL.
    ``today`` is a date, or a function giving the app's today (a test
    that lets days pass)."""
    import uvicorn

    from web.app import create_app

    store = make_store(f"sqlite:///{tmp_path / 'permits.db'}")
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(store, secret="browser-test", today=today if callable(today) else lambda: today),
            host="127.0.0.1",
            port=port,
            log_level="warning",
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", store
    finally:
        server.should_exit = True
        thread.join(10)
        store.engine.dispose()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


class Walk:
    """A page with a screenshot at every step, kept under ``folder``."""

    def __init__(self, page, base: str, folder: Path):
        self.page, self.base, self.folder, self.step = page, base, folder, 0

    def shot(self, name: str) -> None:
        self.step += 1
        self.page.screenshot(path=str(self.folder / f"{self.step:02d}-{name}.png"), full_page=True)

    def login(self, who: str) -> None:
        self.page.goto(self.base + "/")
        self.page.fill('input[name="email"]', USERS[who][0])
        self.page.fill('input[name="password"]', PASSWORD)
        self.page.click('button:has-text("Log in")')
        self.page.wait_for_url("**/today")

    def new_filing(self, kind: str, fields: dict) -> str:
        self.page.click('nav a:has-text("New filing")')
        self.page.select_option("#kind", kind)
        self.page.click('button:has-text("Choose")')
        for name, value in fields.items():
            loc = self.page.locator(f'#new-filing [name="{name}"]')
            if loc.evaluate("e => e.tagName") == "SELECT":
                loc.select_option(value)
            else:
                loc.fill(value)
        self.shot(f"new-{kind}")
        self.page.click('button:has-text("File it")')
        self.page.wait_for_selector("#state")
        return self.page.url.rsplit("/", 1)[1]

    def record(self, etype: str, unnoticed: bool = False, **fields) -> None:
        """Record ``etype`` with ``fields``; ``unnoticed``: confirm a hearing
        opened on a day no session was noticed for (c.30A §20(b))."""
        self.page.select_option("#event-type", etype)  # htmx swaps in the event's fields
        self.page.wait_for_selector(f'#event-form input[name="type"][value="{etype}"]', state="attached")
        if unnoticed:
            self.page.check('#event-form input[name="unnoticed"]')
        for name, value in fields.items():
            loc = self.page.locator(f'#event-form [name="f_{name}"]')
            if loc.evaluate("e => e.tagName") == "SELECT":
                loc.select_option(value)
            else:
                loc.fill(value)
        self.page.click('#event-form button[type="submit"]')  # "Record: Order of Conditions issued"...
        self.page.wait_for_selector("#state")
        error = self.page.locator("#error")
        assert error.count() == 0, f"{etype}: {error.inner_text()}"
        self.shot(etype)

    def state(self) -> str:
        return self.page.get_attribute("#state", "data-state")  # the words are the vocabulary's

    def clock_row(self, clock_id: str):
        return self.page.locator(f'#clocks tr[data-clock="{clock_id}"]')


@contextmanager
def walkthrough(browser, base: str, tmp_path_factory, name: str):
    """A walk through the workbench; at its end, no page may have had
    anything refused by its Content-Security-Policy (an inline script or
    style, a request elsewhere) or thrown a script error."""
    folder = tmp_path_factory.mktemp(f"screens-{name}")
    page = browser.new_page(accept_downloads=True)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(f"script error: {e}"))
    walk = Walk(page, base, folder)
    try:
        yield walk
        assert refused == [], f"refused by the page's policy: {refused}"
    except BaseException as exc:
        try:
            walk.shot("failure")
        finally:
            raise AssertionError(f"{name} failed ({exc}); screenshots in {folder}") from exc
    finally:
        page.close()


def test_an_agent_takes_a_canton_noi_from_the_new_filing_form_to_an_issued_order(browser, tmp_path, tmp_path_factory):
    from pypdf import PdfReader

    with serving(tmp_path, date(2026, 12, 22)) as (base, store), walkthrough(browser, base, tmp_path_factory, "noi") as w:
        w.login("canton-agent")
        fid = w.new_filing(
            "noi",
            {
                "id": "CAN-NOI-2026-900",
                "town": "canton",
                "filed": "2026-12-01",
                "address": "40 Washington St",
                "parcel": "12-033",
                "description": "a single-family house within the buffer zone",
                "applicant_name": "Neponset Builders LLC",
                "applicant_street": "200 Turnpike St",
                "applicant_city": "Canton",
                "applicant_state": "MA",
                "applicant_zip": "02021",
                "hearing_place": "Town Hall, Room 201",
            },
        )
        assert fid == "CAN-NOI-2026-900" and w.state() == "filed"
        w.record("boards-notified", date="2026-12-01")
        w.record("hearing-scheduled", date="2026-12-02", hearing="2026-12-15", at="2026-12-15T19:00")
        posting = w.clock_row("hearing-posting")
        assert "Friday, December 11, 2026, 7:00 p.m." in posting.inner_text()  # 48 business hours before Tuesday 19:00
        explanation = posting.locator(".explanation")
        assert not explanation.is_visible()
        posting.locator("summary").first.click()  # a joint filing's row also says which law binds
        assert explanation.is_visible() and "hour" in explanation.inner_text()
        w.shot("explanation")

        w.page.set_input_files(
            '#abutters input[type="file"]', {"name": "abutters.csv", "mimeType": "text/csv", "buffer": ABUTTERS_CSV.encode()}
        )
        w.page.click('#abutters button:has-text("Upload")')
        w.page.wait_for_selector('#abutters td:text-is("Wei Chen")')
        source = w.page.inner_text("#abutter-source")  # when the list was uploaded, in people's words
        assert "p.m." in source or "a.m." in source or "noon" in source or "midnight" in source
        assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{2}:\d{2}(?! [ap]\.m\.)", source)  # 10:24 p.m. is words
        w.shot("abutters")
        with w.page.expect_download() as info:
            w.page.locator('#notices li:has-text("Notice to abutters") button:has-text("Download PDF")').click()
        pdf = PdfReader(io.BytesIO(Path(info.value.path()).read_bytes()))
        text = " ".join(p.extract_text() for p in pdf.pages)
        assert "Wei Chen" in text and "40 Washington St" in text and "CAN-NOI-2026-900" in text
        w.page.reload()
        assert w.page.locator("#sent").count() == 0  # downloading the letters is not sending them
        item = w.page.locator('#notice-list > li:has-text("Notice to abutters")')
        item.locator("summary:has-text('Record it as sent')").click()
        assert item.locator('select[name="how"]').input_value() == "certified-mail"  # the Act's way to the abutters
        item.locator('button:has-text("Record as sent")').click()
        w.page.wait_for_selector("#sent")
        sent = w.page.inner_text("#sent")
        assert "Notice to abutters to AMELIE COTE and WEI CHEN, by" in sent  # the names, as the post office writes them
        assert "by certified mail; recorded by Dana Reyes" in sent

        w.record("notice-published", date="2026-12-07")
        w.record("notice-posted", at="2026-12-10T09:00")
        w.record("hearing-opened", date="2026-12-15")
        w.record("hearing-closed", date="2026-12-15")
        w.record("permit-issued", date="2026-12-22")
        assert w.state() == "issued"
        assert "done in time" in w.clock_row("wpa:decision").inner_text()  # met: the Act's 21 days bind this joint filing
    assert [h["recorded_by"] for h in store.history(fid)] == [USERS["canton-agent"][0]] * 8


def test_dpw_staff_take_a_street_opening_to_its_temporary_patch_and_find_it_on_the_schedule(browser, tmp_path, tmp_path_factory):
    with serving(tmp_path, date(2026, 12, 10)) as (base, store), walkthrough(browser, base, tmp_path_factory, "street") as w:
        w.login("canton-dpw")
        fid = w.new_filing(
            "street-opening",
            {
                "town": "canton",
                "filed": "2026-12-01",
                "address": "77 Pleasant St",
                "description": "a 30-foot gas service trench",
                "applicant_name": "Columbia Gas",
                "applicant_street": "1 Main St",
                "applicant_city": "Canton",
                "applicant_state": "MA",
                "applicant_zip": "02021",
                "length_ft": "30",
                "applicant_type": "utility",
                "contractor": "Acme Paving",
                "dig_safe": "20264801234",
            },
        )
        assert fid.startswith("CAN-SOP-2026-") and w.state() == "applied"
        w.record("permit-issued", date="2026-12-02")
        w.record("work-noticed", at="2026-12-03T09:00")
        w.record("excavation-started", date="2026-12-07")
        w.record("inspected", date="2026-12-08", stage="pre-backfill", result="pass")
        w.record("backfilled", date="2026-12-08", material="gravel")
        w.record("temporary-patch-placed", date="2026-12-09")
        assert w.state() == "temporary-patch"

        w.page.click('nav a:has-text("DPW schedule")')
        row = w.page.locator("#rows li", has=w.page.locator(f'a:text-is("{fid}")')).filter(has_text="temporary patch inspection")
        assert row.count() == 1 and row.is_visible()
        text = row.inner_text()
        assert "Wed, Dec 9, 2026" in text and "77 Pleasant St" in text and "Acme Paving" in text
        w.shot("schedule")
        row.locator("summary").click()
        row.locator('button:has-text("Record the inspection")').click()  # stage preset to temporary-patch, result pass
        w.page.wait_for_url("**/schedule?tab=inspections")  # back on the schedule
        assert w.page.locator("#error").count() == 0
        assert "temporary patch inspection" not in w.page.inner_text("#rows")

        w.page.click('nav a:has-text("Filings")')
        assert w.page.locator('a:text-is("CAN-SOP-2026-001")').count() == 1
        w.page.fill('input[name="q"]', "77 pleasant")  # htmx searches as the user types, no submit
        w.page.wait_for_selector('a:text-is("CAN-SOP-2026-001")', state="detached")
        assert w.page.locator(f'#results a:text-is("{fid}")').count() == 1
        w.shot("search")

        w.page.click('header a:has-text("Password")')
        w.page.fill('input[name="current"]', PASSWORD)
        w.page.fill('input[name="new"]', "patched before the frost")
        w.page.fill('input[name="new2"]', "patched before the frost")
        w.page.click('button:has-text("Change password")')
        w.page.wait_for_selector("#changed")
        w.shot("password")
        assert w.page.locator("#error").count() == 0
        w.page.click('nav a:has-text("Today")')  # still logged in
        w.page.wait_for_url("**/today")
    assert store.history(fid)[-1]["raw"] == {
        "type": "inspected",
        "date": "2026-12-10",
        "stage": "temporary-patch",
        "result": "pass",
    }
