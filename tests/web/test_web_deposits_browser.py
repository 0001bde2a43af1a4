"""A street opening's deposit in a real browser (Playwright driving Debian's
Chromium), issue 31's walk: DPW staff file a Canton street opening (a
40-foot trench in the paved way: $1,000.00 refundable deposit at $25.00 a
linear foot, and the $50.00 application fee, Canton 16-12 §4 and its Fee
Schedule); the deposit is charged, not held, until a payment toward it is
received; after the final inspection a refund larger than what the Town
holds is refused with the amounts named and nothing recorded, and a
refund within it is accepted; the filing's page, the Deposits page and
the CSV the treasurer downloads from it show the same charged, received,
held and refunded.  A street opening of a municipal department (§6: no
fees and no deposits) shows no charge at all and is on neither list.
axe-core (tests/web/axekit.py) finds nothing serious or critical on the
pages of the walk at desktop width and a phone's (390 px), and none of
them scrolls sideways.  Skipped when no ``chromium`` is on the PATH."""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path

import pytest
from axekit import serious_violations
from test_web_browser import CHROMIUM, serving, walkthrough

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")

TODAY = date(2026, 12, 3)
WIDTHS = ({"width": 1280, "height": 900}, {"width": 390, "height": 844})
FIGURES = ("charged", "received", "held", "refunded")
CSV_FIGURES = {"charged": "Charged", "received": "Received", "held": "Held", "refunded": "Refunded"}
FILING = {
    "filed": "2026-11-18",
    "town": "canton",
    "address": "77 Pleasant St",
    "description": "a 40-foot water service trench in the paved way",
    "applicant_street": "77 Pleasant St",
    "applicant_city": "Canton",
    "applicant_state": "MA",
    "applicant_zip": "02021",
    "length_ft": "40",
    "contractor": "Acme Paving",
}


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


def _on_the_filing(p) -> dict:
    return {f: p.inner_text(f"#deposit-{f}") for f in FIGURES}


def _on_the_deposits_page(p, fid: str) -> dict:
    row = p.locator(f'#deposits tr[data-filing="{fid}"]')
    return {f: row.locator(f"td.{f}").inner_text() for f in FIGURES}


def _in_the_csv(p, fid: str) -> dict | None:
    """The permit's figures in the CSV the Deposits page's link downloads,
    written as the page writes them; None when the permit is not in it."""
    from workflows.deposits import money

    with p.expect_download() as got:
        p.click("#deposits-csv")
    text = Path(got.value.path()).read_text(encoding="utf-8-sig")
    for row in csv.DictReader(io.StringIO(text)):
        if row["Permit"] == fid:
            return {f: money(round(float(row[column]) * 100)) for f, column in CSV_FIGURES.items()}
    return None


def _refund(p, amount: str, reason: str):
    p.select_option("#event-type", "deposit-refunded")
    p.wait_for_selector('#event-form input[name="type"][value="deposit-refunded"]', state="attached")
    p.fill('#event-form [name="f_date"]', TODAY.isoformat())
    p.fill('#event-form [name="f_amount"]', amount)
    p.fill('#event-form [name="f_reason"]', reason)
    p.click('#event-form button[type="submit"]')
    p.wait_for_selector("#state")


def test_a_deposit_charged_received_refused_beyond_what_is_held_then_refunded_and_a_municipal_permit_charged_nothing(
    browser, tmp_path, tmp_path_factory
):
    problems: list[str] = []
    with serving(tmp_path, TODAY) as (base, store), walkthrough(browser, base, tmp_path_factory, "deposits") as w:
        p = w.page
        w.login("canton-dpw")
        fid = w.new_filing("street-opening", {**FILING, "applicant_name": "Ann Lee", "applicant_type": "private"})
        assert _on_the_filing(p) == {"charged": "$1,000.00", "received": "$0.00", "held": "$0.00", "refunded": "$0.00"}
        assert "Fees charged $50.00; fees paid $0.00" in p.inner_text("#ledger-fees")

        p.click("#payment-form summary")  # the deposit is received: a payment toward it
        p.fill('#payment-form input[name="amount"]', "1000.00")
        p.select_option('#payment-form select[name="toward"]', "deposit")
        p.select_option('#payment-form select[name="method"]', "check")
        p.fill('#payment-form input[name="reference"]', "Check 2040")
        p.fill('#payment-form input[name="date"]', "2026-11-18")
        _check(p, "street opening with its ledger and the payment form", problems)
        p.click('#payment-form button:has-text("Record the payment")')
        p.wait_for_selector("#payments")
        assert "Check 2040" in p.inner_text("#payments")
        assert _on_the_filing(p) == {"charged": "$1,000.00", "received": "$1,000.00", "held": "$1,000.00", "refunded": "$0.00"}
        w.shot("deposit-received")

        w.record("dig-safe-obtained", date="2026-11-18", ticket="20261234567")
        w.record("work-noticed", at="2026-11-18T09:00")  # 72 hours before the work (§10.3)
        w.record("permit-issued", date="2026-11-20")
        w.record("excavation-started", date="2026-11-24")
        w.record("backfilled", date="2026-11-24", material="gravel")
        w.record("permanent-patch-placed", date="2026-11-30")
        w.record("inspected", date="2026-12-01", stage="permanent-patch", result="pass")
        seq = store.load(fid)[1].last_seq

        _refund(p, "1200.00", "final inspection passed")  # more than the Town holds: refused
        assert (
            "a refund of $1,200.00 is more than the $1,000.00 the Town holds for it "
            "($1,000.00 received, less $0.00 kept or refunded) (Canton 16-12 §5)"
        ) in p.inner_text("#error")
        assert store.load(fid)[1].last_seq == seq  # nothing recorded
        _check(p, "the refund refused", problems)
        w.shot("refund-refused")

        p.goto(f"{base}/filings/{fid}")
        _refund(p, "600.00", "part of the deposit, the rest held for the settlement")
        assert p.locator("#error").count() == 0
        assert store.load(fid)[1].last_seq == seq + 1
        figures = {"charged": "$1,000.00", "received": "$1,000.00", "held": "$400.00", "refunded": "$600.00"}
        assert _on_the_filing(p) == figures
        w.shot("refunded")

        p.goto(f"{base}/deposits")
        p.select_option('#deposit-filters select[name="town"]', "canton")
        p.fill('#deposit-filters input[name="aged"]', "10")  # charged on November 18: 15 days ago
        p.click('#deposit-filters button:has-text("Show")')
        p.wait_for_selector("#deposits")
        assert _on_the_deposits_page(p, fid) == figures
        assert _in_the_csv(p, fid) == figures  # the link keeps the filters
        _check(p, "the Deposits page", problems)
        w.shot("deposits-page")
        p.fill('#deposit-filters input[name="aged"]', "16")
        p.click('#deposit-filters button:has-text("Show")')
        p.wait_for_selector("#deposits")
        assert p.locator(f'#deposits tr[data-filing="{fid}"]').count() == 0 and _in_the_csv(p, fid) is None
        p.goto(f"{base}/deposits?town=canton")

        p.goto(base + "/filings")  # a municipal department's opening: no fee, no deposit (§6)
        town_dpw = w.new_filing(
            "street-opening", {**FILING, "applicant_name": "Town of Canton Water Department", "applicant_type": "municipal"}
        )
        assert "Nothing is charged for this permit" in p.inner_text("#ledger-none")
        ledger_and_fee = p.inner_text("#ledger") + p.inner_text("#fee")
        assert "$" not in ledger_and_fee and "charged $" not in p.inner_text("main")
        assert p.locator("#deposit-charged, #payment-form, #fee-paid").count() == 0
        _check(p, "a municipal department's street opening", problems)
        w.shot("municipal-owes-nothing")
        p.goto(f"{base}/deposits?town=canton")
        assert p.locator(f'#deposits tr[data-filing="{town_dpw}"]').count() == 0
        assert _in_the_csv(p, town_dpw) is None
    assert problems == []
