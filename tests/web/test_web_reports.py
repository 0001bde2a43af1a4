"""The Reports page (/reports) and the Filings list's exports: staff only,
a town outside the user's or a board outside their role is not found
(404), every table is on the page and in its CSV and the XLSX, the
annual report is a PDF, the Filings list's CSV and XLSX hold the rows the
page shows with the same filters; and in Debian's Chromium at 1280 and
390 px the page has a chart beside each table, axe-clean, no sideways
scroll."""

from __future__ import annotations

import csv
import html
import io
import re
import shutil

import pytest
from webkit import login

PAGES = ["/reports", "/reports/received.csv", "/reports/report.xlsx", "/reports/annual.pdf", "/filings.csv", "/filings.xlsx"]


@pytest.mark.parametrize("path", PAGES)
def test_a_stranger_is_sent_to_the_login_page(web, path):
    r = web.get(path)
    assert r.status_code == 303 and r.headers["location"].startswith("/login")


@pytest.mark.parametrize(
    "who, query",
    [
        ("saugus-agent", "town=canton"),  # another town
        ("canton-agent", "board=dpw"),  # a board outside the role
        ("canton-dpw", "board=conservation"),
        ("canton-agent", "kind=street-opening"),
        ("canton-agent", "town=..%2Fetc"),
    ],
)
def test_a_report_outside_the_users_towns_or_role_is_not_found(web, who, query):
    login(web, who)
    for path in ("/reports", "/reports/received.csv", "/reports/report.xlsx", "/reports/annual.pdf"):
        assert web.get(f"{path}?{query}").status_code == 404, path


def test_every_table_is_on_the_page_and_in_its_csv_and_the_xlsx(web):
    from openpyxl import load_workbook

    login(web, "canton-agent")
    page = web.get("/reports?year=2026").text
    keys = re.findall(r'<table id="table-([a-z]+)"', page)
    assert keys[:5] == ["received", "timeliness", "late", "decisions", "hearings"] and "enforcement" in keys
    assert page.count("<svg") == len(re.findall(r'<figure class="chart">', page)) >= 4
    assert not re.search(r"\b\d{4}-\d{2}-\d{2}\b", re.sub(r"<[^>]+>", " ", page))  # no ISO date in the words
    march = next(csv.reader(io.StringIO(web.get("/reports/received.csv?year=2026").text)))
    assert march == ["Month", "Notice of Intent", "Request for Determination of Applicability", "Total"]
    book = load_workbook(io.BytesIO(web.get("/reports/report.xlsx?year=2026").content))
    assert len(book.sheetnames) == len(keys)
    assert web.get("/reports/nosuch.csv").status_code == 404
    pdf = web.get("/reports/annual.pdf?year=2026")
    assert pdf.headers["content-type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_the_filings_lists_csv_and_xlsx_hold_the_rows_the_page_shows_with_its_filters(web):
    from openpyxl import load_workbook

    login(web, "admin")
    for query in ("kind=noi", "town=canton", "q=Washington", ""):
        page = web.get(f"/filings?{query}").text
        shown = re.findall(r'<td><a href="/filings/([A-Z0-9-]+)">', page)
        rows = list(csv.reader(io.StringIO(web.get(f"/filings.csv?{query}").text)))[1:]
        sheet = load_workbook(io.BytesIO(web.get(f"/filings.xlsx?{query}").content))["Filings"]
        in_book = [r[0] for r in sheet.iter_rows(min_row=2, values_only=True)]
        assert [r[0] for r in rows] == shown == in_book, query
        # the page links to the files with the filters in force
        links = re.search(r'<p id="exports">.*?href="(/filings\.csv\?[^"]*)".*?href="(/filings\.xlsx\?[^"]*)"', page, re.S)
        csv_link = html.unescape(links.group(1))
        assert [r[0] for r in csv.reader(io.StringIO(web.get(csv_link).text))][1:] == shown, csv_link


CHROMIUM = shutil.which("chromium")
WIDTHS = [{"width": 1280, "height": 900}, {"width": 390, "height": 844}]


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH")
def test_the_reports_page_in_chromium_at_1280_and_390_px_is_axe_clean(store):
    from axekit import serious_violations
    from playwright.sync_api import sync_playwright
    from webkit import PASSWORD, TODAY, serving

    from web.app import create_app

    problems = []
    with serving(create_app(store, secret="test-secret", today=lambda: TODAY)) as port, sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = b.new_page()
        base = f"http://127.0.0.1:{port}"
        page.goto(f"{base}/login")
        page.fill('[name="email"]', "agent@canton.example")
        page.fill('[name="password"]', PASSWORD)
        page.click('button[type="submit"]')
        page.goto(f"{base}/reports?year=2026")
        for size in WIDTHS:
            page.set_viewport_size(size)
            problems += [f"{size['width']} px: {v}" for v in serious_violations(page)]
            if page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1"):
                problems.append(f"{size['width']} px scrolls sideways")
            assert page.locator("figure.chart svg").count() >= 4
        b.close()
    assert problems == []
