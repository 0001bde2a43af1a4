"""A filing's page shows what a Certificate of Compliance ended (310 CMR
10.05; WPA Form 8B): the Order's expiry and renewal request closed by the
Certificate, with its day; no next deadline; the Certificate and where the
Registry of Deeds recorded it (book and page).  A partial Certificate
leaves the rest of the Order in force, and the page says so."""

from __future__ import annotations

import re

from webkit import login

from services.imports import import_filings

ORDER = [
    {"type": "filed", "date": "2025-03-03"},
    {"type": "hearing-opened", "date": "2025-03-17"},
    {"type": "hearing-closed", "date": "2025-03-17"},
    {"type": "permit-issued", "date": "2025-03-21"},
    {"type": "permit-recorded", "date": "2025-03-26"},
    {"type": "certificate-requested", "date": "2026-10-01", "requested_by": "the owner", "scope": "complete"},
]


def _filing(fid: str, *events) -> dict:
    return {
        "town": "wpa",
        "kind": "noi",
        "id": fid,
        "address": "9 Bolivar St",
        "applicant": "A. Holder",
        "events": [*ORDER, *events],
    }


def _status_of(page: str, clock_id: str) -> str:
    row = re.search(rf'<tr class="(\w+)" data-clock="{re.escape(clock_id)}">(.*?)</tr>', page, re.S)
    assert row, clock_id
    return re.findall(r"<td>(.*?)</td>", row.group(2), re.S)[-2]


def test_a_complete_certificate_shows_the_order_closed_with_its_day_and_the_registrys_book_and_page(web, store):
    fid = "WPA-NOI-2025-000101"
    import_filings(
        store,
        [
            _filing(
                fid,
                {"type": "certificate-issued", "date": "2026-10-13", "scope": "complete"},
                {"type": "certificate-recorded", "date": "2026-10-20", "book": "41234", "page": "12"},
            )
        ],
        by="test",
    )
    login(web, "admin")
    page = web.get(f"/filings/{fid}").text
    assert _status_of(page, "permit-expiry") == "closed by the Certificate"
    assert _status_of(page, "renewal-request") == "closed by the Certificate"
    assert "closed by Certificate of Compliance issued (WPA Form 8B) on Tuesday, October 13, 2026 (entry 7)" in page
    assert 'id="next-deadline"' not in page  # nothing is due
    lines = page.split('id="certificates"')[1].split("</ul>")[0]
    assert "The Certificate of Compliance, for all the work, issued Tuesday, October 13, 2026: the Order is closed." in lines
    assert "Recorded at the Registry of Deeds Tuesday, October 20, 2026, Book 41234, Page 12." in lines


def test_a_partial_certificate_shows_its_part_and_the_rest_of_the_order_in_force(web, store):
    fid = "WPA-NOI-2025-000102"
    partial = {"type": "certificate-issued", "date": "2026-10-13", "scope": "partial", "portion": "Lot 1 and its driveway"}
    import_filings(store, [_filing(fid, partial)], by="test")
    login(web, "admin")
    page = web.get(f"/filings/{fid}").text
    assert _status_of(page, "permit-expiry") == "in force"
    lines = page.split('id="certificates"')[1].split("</ul>")[0]
    assert "partial, for Lot 1 and its driveway, issued Tuesday, October 13, 2026: the rest of the Order stays in force." in lines
    assert 'id="next-deadline"' in page  # the renewal request is still ahead
