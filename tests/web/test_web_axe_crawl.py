"""Every staff and applicant page of the demo in Chromium (issue 19: "axe-core finds no
serious or critical violation on any staff page"; "no sideways scroll on
any staff page" at 390 px): Today, the filings list and a filing page of
each kind, new filing, the DPW schedule's two tabs, deposits, meetings, the
map, enforcement (list, new, a case), the rule book, the calendar, users
and the password page, each at a desktop's width and a phone's, as an
administrator (who sees every section); and every page of the demo's
applicant (My filings, the apply form of each kind, each of their filings'
status page, the password page) likewise (issue 21).  The pages come from the demo's
own store (:func:`services.demo.make_demo_store`: later stages, meetings,
enforcement cases, parcels), so what a town sees first is what is checked.

The same walk reads each page's words (issue 32, item 2), for every role:
the administrator, a conservation agent, DPW staff and the applicant, each
on their own pages (:data:`ROLE_PAGES`, and a filing of each kind they may
open): no event id, clock id, raw field name, Python value, ISO date, 24-hour
time, zone abbreviation or ``applicant:`` account on any of them (the text a
person reads, closed ``<details>`` included), at both widths.
Skipped when no ``chromium`` is on the PATH."""

from __future__ import annotations

import re
import shutil
from datetime import date

import pytest
from axekit import serious_violations
from webkit import PASSWORD, serving

from workflows.event_fields import EVENT_FIELDS
from workflows.rulebook import CLOCK_TYPES

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")
AS_OF = date(2026, 12, 3)
WIDTHS = ({"width": 1280, "height": 900}, {"width": 390, "height": 844})
ADMIN = "axe-admin@permits.example"
PAGES = (
    "/today",
    "/filings",
    "/filings/new",
    "/schedule",
    "/schedule?tab=other",
    "/deposits",
    "/meetings",
    "/map",
    "/enforcement",
    "/enforcement/new",
    "/rules",
    "/calendar",
    "/users",
    "/password",
)
#: the pages of the demo's agent and DPW staff in Canton, beside a filing of each kind they may open
ROLE_PAGES = {
    "agent@canton.example": ("/today", "/filings", "/filings/new", "/meetings", "/map", "/enforcement", "/rules", "/calendar"),
    "dpw@canton.example": ("/today", "/filings", "/filings/new", "/schedule", "/schedule?tab=other", "/deposits", "/map"),
}
_IDS = {e for table in EVENT_FIELDS.values() for e in table if "-" in e} | {c for c in CLOCK_TYPES if "-" in c}
#: what a person never reads: an id, a raw field, a Python value, an ISO day, a 24-hour time, a zone
ENGINE = re.compile(
    r"(?<![\w/-])(?:" + "|".join(sorted(map(re.escape, _IDS), key=len, reverse=True)) + r")(?![\w-])"
    r"|\b\d{4}-\d{2}-\d{2}\b|\b[ECMP][SD]T\b|\bUTC\b"
    r"|(?<![\d:.])\d{1,2}:\d{2}(?!\s*(?:[ap]\.m\.|noon|midnight))(?!\d)"
    r"|· (?:offense|fine|delivered|[a-z]+_[a-z_]+): |\bapplicant:[\w.+-]+@"
    r"|\bNone\b|\bTrue\b|\bFalse\b|\{'|\be\.g\. [a-z]+-[a-z]+"
)
#: the text a person reads, the closed <details> included (not scripts, styles or attribute values)
_TEXT = """() => { const c = document.body.cloneNode(true);
  c.querySelectorAll('script,style,template').forEach(e => e.remove());
  return c.textContent; }"""


def engine_words(text: str) -> list[str]:
    return sorted({text[max(0, m.start() - 40) : m.end() + 20].strip() for m in ENGINE.finditer(text)})


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The workbench over the demo's store (40 generated filings and the
    later stages), with an administrator; the pages to visit."""
    from config import load
    from models.handle import Store
    from models.read.enforcement import EnforcementRecord
    from services.demo import make_demo_store, seed_demo_logins
    from services.users import add_user
    from web.app import create_app
    from workflows.rulebook import KINDS

    folder = tmp_path_factory.mktemp("staff-axe")
    settings = load({"PERMITS_DATA_DIR": str(folder)})
    made = make_demo_store(settings, as_of=AS_OF, count=40, seed=3)
    store = Store(made.url)
    add_user(store, ADMIN, PASSWORD, "admin", [])
    rows = store.list_filings()
    filings = [next(r.id for r in rows if r.kind == kind) for kind in KINDS]
    cases = [c.id for c in EnforcementRecord(store).cases()][:1]
    pages = [*PAGES, *(f"/filings/{fid}" for fid in filings), *(f"/enforcement/{cid}" for cid in cases)]
    app = create_app(store, secret="staff-axe", today=lambda: AS_OF)
    logins = seed_demo_logins(made.url, AS_OF)
    applicant = logins.applicant, logins.password, logins.applicant_filings
    staff = {}
    for email, secret, role, towns in logins.staff:
        if email in ROLE_PAGES:
            mine = [r for r in rows if r.town in towns and (r.kind == "street-opening") == (role == "dpw")]
            seen = {r.kind: r.id for r in reversed(mine)}  # a filing of each kind, the first listed
            cases = [c.id for c in EnforcementRecord(store).cases() if c.town in towns][:1] if role == "agent" else []
            own = [*ROLE_PAGES[email], *(f"/filings/{fid}" for fid in seen.values()), *(f"/enforcement/{c}" for c in cases)]
            staff[email] = (secret, own)
    yield app, pages, applicant, staff
    store.engine.dispose()


def _problems(page, base: str, pages) -> list[str]:
    """Each page's serious axe violations and sideways scroll at both widths."""
    problems = []
    for path in pages:
        for size in WIDTHS:
            page.set_viewport_size(size)
            answer = page.goto(base + path)
            assert answer is not None and answer.status == 200, f"{path}: {answer and answer.status}"
            page.wait_for_load_state("networkidle")
            where = f"{path} at {size['width']} px"
            problems += [f"{where}: {v}" for v in serious_violations(page)]
            problems += [f"{where} reads {w!r}" for w in engine_words(page.evaluate(_TEXT))]
            if page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1"):
                problems.append(f"{where} scrolls sideways")
    return problems


def _logged_in(p, base: str, email: str, password: str, landing: str):
    browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    page = browser.new_page()
    page.goto(base + "/login")
    page.fill('input[name="email"]', email)
    page.fill('input[name="password"]', password)
    page.click('button:has-text("Log in")')
    page.wait_for_url(f"**{landing}")
    return browser, page


def test_no_staff_page_of_the_demo_has_a_serious_violation_or_scrolls_sideways(demo):
    from playwright.sync_api import sync_playwright

    app, pages, _, _ = demo
    with serving(app) as port, sync_playwright() as p:
        base = f"http://127.0.0.1:{port}"
        browser, page = _logged_in(p, base, ADMIN, PASSWORD, "/today")
        try:
            problems = _problems(page, base, pages)
        finally:
            browser.close()
    assert len(pages) >= len(PAGES) + 4  # a filing page of each kind and a case were visited
    assert problems == []


def test_no_page_of_the_demo_applicant_has_a_serious_violation_or_scrolls_sideways(demo):
    from playwright.sync_api import sync_playwright

    from web.forms import KIND_LABELS

    app, _, (email, password, filings), _ = demo
    assert filings  # the demo applicant follows filings of their own
    pages = ["/my", "/my/apply", *(f"/my/apply?kind={k}" for k in KIND_LABELS), "/password"]
    pages += [f"/my/filings/{fid}" for fid in filings]
    with serving(app) as port, sync_playwright() as p:
        base = f"http://127.0.0.1:{port}"
        browser, page = _logged_in(p, base, email, password, "/my")
        try:
            problems = _problems(page, base, pages)
        finally:
            browser.close()
    assert problems == []


@pytest.mark.parametrize("email", sorted(ROLE_PAGES))
def test_no_page_of_the_demos_agent_or_dpw_staff_has_an_engine_word_or_a_serious_violation(demo, email):
    from playwright.sync_api import sync_playwright

    app, _, _, staff = demo
    password, pages = staff[email]
    assert len(pages) > len(ROLE_PAGES[email])  # their filings (and an agent's case) were found
    with serving(app) as port, sync_playwright() as p:
        base = f"http://127.0.0.1:{port}"
        browser, page = _logged_in(p, base, email, password, "/today")
        try:
            problems = _problems(page, base, pages)
        finally:
            browser.close()
    assert problems == []


def test_the_word_check_finds_what_people_should_not_read():
    for bad in (
        "State: permit-issued",
        "recorded 2026-12-03 11:54 EST",
        "starts 19:00",
        "· offense: 1 · fine: 300",
        "by applicant:pat.resident@example.com",
        "complete: True",
        "e.g. hearing-open",
    ):
        assert engine_words(bad), bad
    fine = "Order of Conditions issued Thursday, December 3, 2026, 7:00 p.m. · Day of the offense: Friday, Dec 4 · 12:00 noon"
    assert engine_words(fine) == []
