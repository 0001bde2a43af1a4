"""In Debian's Chromium, at 1280 and 390 px: an admin sets a commission's
fee on the rule book page and finds it in force and in the history; an
anonymous visitor opens the open data's page and downloads a town's
permits; axe finds nothing serious and no page scrolls sideways."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium")
WIDTHS = [{"width": 1280, "height": 900}, {"width": 390, "height": 844}]


def _check(page, problems: list[str], where: str) -> None:
    from axekit import serious_violations

    for size in WIDTHS:
        page.set_viewport_size(size)
        problems += [f"{where} at {size['width']} px: {v}" for v in serious_violations(page)]
        if page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1"):
            problems.append(f"{where} at {size['width']} px scrolls sideways")


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH")
def test_an_admin_sets_a_fee_and_a_visitor_downloads_the_open_data(store):
    from playwright.sync_api import sync_playwright
    from webkit import PASSWORD, TODAY, serving

    from web.app import create_app

    problems: list[str] = []
    with serving(create_app(store, secret="test-secret", today=lambda: TODAY)) as port, sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = b.new_page(accept_downloads=True)
        base = f"http://127.0.0.1:{port}"
        page.goto(f"{base}/login")
        page.fill('[name="email"]', "admin@permits.example")
        page.fill('[name="password"]', PASSWORD)
        page.click('button[type="submit"]')
        page.goto(f"{base}/rules")
        page.click("#fee-form summary")
        page.select_option('#fee-form select[name="fee"]', "saugus/rda")
        page.fill('#fee-form [name="amount"]', "75")
        page.fill('#fee-form [name="effective"]', "2026-12-01")
        page.fill('#fee-form [name="reason"]', "Commission vote of November 18, 2026")
        page.click('#fee-form button[type="submit"]')
        page.wait_for_selector("#fee-history")
        assert "Saugus, Request for Determination of Applicability: filing fee $75.00" in page.inner_text("#fees-in-force")
        history = page.inner_text("#fee-history")
        assert (
            "$75.00 for filings filed from Tuesday, December 1, 2026" in history and "Commission vote of November 18" in history
        )
        _check(page, problems, "/rules")
        anon = b.new_page(accept_downloads=True)
        anon.goto(f"{base}/open-data")
        _check(anon, problems, "/open-data")
        with anon.expect_download() as got:
            anon.click('a[href="/open-data/canton/permits.csv"]')
        text = open(got.value.path(), encoding="utf-8").read()
        assert text.startswith("PermitNum,Description,AppliedDate") and "CAN-NOI-2026-001" in text and "SAU-" not in text
        b.close()
    assert problems == []
