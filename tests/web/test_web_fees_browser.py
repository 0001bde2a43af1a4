"""The fee and an inspection asked for online in a real browser (Playwright
driving Debian's Chromium): an applicant applies for a Canton street opening
seeing its fee, the DPW finds it complete and records the payment, the
applicant asks for the trench inspection, it appears on the DPW schedule,
the inspector records it and the applicant's page shows the result; the
receipt emailed on submission names the filing and its fee, and the
inspection's result reaches the applicant by email too (issue 21's walk).
axe-core (tests/web/axekit.py) finds nothing serious or critical on the
pages of this walk at desktop width and a phone's (390 px), and none of
them scrolls sideways.  Skipped when no ``chromium`` is on the PATH."""

from __future__ import annotations

from datetime import date

import pytest
import storekit
from axekit import serious_violations
from test_web_browser import CHROMIUM, serving, walkthrough
from webkit import PASSWORD, emailed_link

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")

PLAN = b"%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n"
WIDTHS = ({"width": 1280, "height": 900}, {"width": 390, "height": 844})
TODAY = date(2026, 12, 3)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _check(page, where: str, problems: list) -> None:
    for size in WIDTHS:
        page.set_viewport_size(size)
        problems += [f"{where} at {size['width']} px: {v}" for v in serious_violations(page)]
        if page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1"):
            problems.append(f"{where} at {size['width']} px scrolls sideways")
    page.set_viewport_size(WIDTHS[0])


def _emailed(store, address: str, kind: str) -> list[str]:
    """The bodies of the emails of ``kind`` queued to ``address``."""
    from email import message_from_bytes
    from email.policy import default

    from models.read.outbox import Outbox

    outbox = Outbox(store)
    return [
        message_from_bytes(outbox.message(e.id), policy=default).get_body(("plain",)).get_content()
        for e in outbox.entries()
        if e.address == address and e.kind == kind
    ]


def _log_in_as_ann(p, base):
    p.goto(base + "/login?next=/my")
    p.fill('input[name="email"]', "ann.lee@example.org")
    p.fill('input[name="password"]', PASSWORD)
    p.click('button:has-text("Log in")')
    p.wait_for_url("**/my")


def test_a_canton_street_opening_from_its_fee_to_its_trench_inspection(browser, tmp_path, tmp_path_factory, monkeypatch):
    monkeypatch.setenv("PERMITS_UPLOADS_DIR", str(tmp_path / "uploads"))
    problems: list[str] = []
    with serving(tmp_path, TODAY) as (base, store), walkthrough(browser, base, tmp_path_factory, "fees") as w:
        p = w.page
        p.goto(base + "/register")
        p.fill('input[name="email"]', "ann.lee@example.org")
        p.fill('input[name="password"]', PASSWORD)
        p.fill('input[name="password2"]', PASSWORD)
        p.click('button:has-text("Register")')
        p.wait_for_selector("#answer")
        p.goto(base + emailed_link(store, "ann.lee@example.org", "/confirm/"))
        p.fill('input[name="password"]', PASSWORD)
        p.click('button:has-text("Finish registering")')
        p.wait_for_url("**/my")

        p.goto(base + "/my/apply?kind=street-opening")
        fee = p.inner_text("#fee-before")
        assert "Canton: application fee $50.00; refundable deposit $300.00" in fee and "$25.00 a linear ft" in fee
        _check(p, "apply form", problems)
        w.shot("fee-before-submitting")
        p.select_option('select[name="town"]', "canton")
        for name, value in {
            "address": "12 Pleasant St",
            "description": "a 40-foot water service trench",
            "applicant_name": "Ann Lee",
            "applicant_street": "12 Pleasant St",
            "applicant_city": "Canton",
            "applicant_state": "MA",
            "applicant_zip": "02021",
            "length_ft": "40",
            "contractor_name": "Acme Paving",
            "contractor_license": "PWC-19",
            "contractor_license_expires": "2027-06-30",
            "insurer": "Mass Mutual",
            "insurance_expires": "2027-01-01",
            "dig_safe": "20261234567",
        }.items():
            p.fill(f'[name="{name}"]', value)
        p.check('input[name="owner_is_applicant"]')
        p.set_input_files('input[name="plan"]', {"name": "trench.pdf", "mimeType": "application/pdf", "buffer": PLAN})
        p.click("#submit-application")
        p.wait_for_selector("#fee")
        fid = p.url.rsplit("/", 1)[1]
        assert "$1,050.00 in all" in p.inner_text("#fee-words") and "Left to pay: $1,050.00" in p.inner_text("#fee-paid")
        (receipt,) = _emailed(store, "ann.lee@example.org", "receipt")
        assert fid in receipt and "Fee:" in receipt and "$1,050.00" in receipt
        p.click('button:has-text("Log out")')

        w.login("canton-dpw")
        p.goto(f"{base}/filings/{fid}")
        p.fill('#submission input[name="date"] >> nth=0', TODAY.isoformat())
        p.click("#mark-complete")
        p.wait_for_selector("#state")
        p.click("#payment-form summary")
        p.fill('#payment-form input[name="amount"]', "1050.00")
        p.select_option('#payment-form select[name="method"]', "check")
        p.fill('#payment-form input[name="reference"]', "Check 1001")
        _check(p, "filing page with the payment form", problems)
        p.click('#payment-form button:has-text("Record the payment")')
        p.wait_for_selector("#payments")
        assert "Check 1001" in p.inner_text("#payments") and "Left to pay: $0.00" in p.inner_text("#fee-paid")
        # one check for both: the fee paid first, the rest received toward the deposit and held (16-12 §4-5)
        assert "Fees charged $50.00; fees paid $50.00" in p.inner_text("#ledger-fees")
        assert (p.inner_text("#deposit-received"), p.inner_text("#deposit-held")) == ("$1,000.00", "$1,000.00")
        w.shot("payment-recorded")
        for raw in (
            {"type": "permit-issued", "date": TODAY.isoformat()},
            {"type": "work-noticed", "at": f"{TODAY.isoformat()}T08:00"},
            {"type": "excavation-started", "date": TODAY.isoformat()},
        ):
            storekit.append(
                store, fid, raw, by="dpw@canton.example", today=TODAY
            )  # the workbench's own browser tests drive these forms
        p.click('button:has-text("Log out")')

        _log_in_as_ann(p, base)
        p.goto(f"{base}/my/filings/{fid}")
        assert "Paid: $1,050.00." in p.inner_text("#fee-paid")
        p.select_option('#ask-inspection select[name="stage"]', "pre-backfill")
        p.fill('#ask-inspection input[name="preferred"]', "2026-12-05")  # a Saturday
        p.click('#ask-inspection button:has-text("Ask for the inspection")')
        p.wait_for_selector("#error")
        assert "not a business day (Saturday)" in p.inner_text("#error")
        p.fill('#ask-inspection input[name="preferred"]', "2026-12-07")
        p.click('#ask-inspection button:has-text("Ask for the inspection")')
        p.wait_for_selector("#requests")
        assert "waiting for the inspector" in p.inner_text("#requests")
        _check(p, "status page with the request", problems)
        w.shot("inspection-asked")
        p.click('button:has-text("Log out")')

        w.login("canton-dpw")
        p.goto(base + "/schedule")
        asked = p.locator("#inspection-requests")
        assert fid in asked.inner_text() and "trench, before backfilling" in asked.inner_text()
        assert "ann.lee@example.org" in asked.inner_text()
        _check(p, "DPW schedule with the request", problems)
        asked.locator("summary").first.click()
        asked.locator('input[name="notes"], textarea[name="notes"]').first.fill("bedding compacted")
        asked.locator('button:has-text("Record the inspection")').first.click()
        p.wait_for_selector("#inspection-requests")
        assert "No inspection asked for online." in p.inner_text("#inspection-requests")
        w.shot("inspection-recorded")
        p.click('button:has-text("Log out")')

        _log_in_as_ann(p, base)
        p.goto(f"{base}/my/filings/{fid}")
        results = p.inner_text("#inspection-results")
        assert "Trench, before backfilling, Thursday, December 3, 2026: passed" in results
        (result,) = _emailed(store, "ann.lee@example.org", "inspection-result")
        assert fid in result and "passed" in result
        assert "Inspection result" in p.inner_text("#emails")
        _check(p, "status page with the result", problems)
        w.shot("result-shown")
    assert problems == []
