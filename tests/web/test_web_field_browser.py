"""An inspector in the field: the DPW schedule and Today on a phone's
width (390 px) in Chromium, nothing scrolling sideways; a failed trench
inspection recorded from the schedule with a photo, back on the schedule
with its filters, the re-inspection listed on its day.

Skipped when no ``chromium`` is on the PATH (``.ci/run`` installs it)."""

from __future__ import annotations

import struct
import zlib
from datetime import date

import pytest
import storekit
from test_web_browser import CHROMIUM, Walk, browser, serving, walkthrough  # noqa: F401 (the module's fixture)

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")

FID = "CAN-SOP-2026-001"
PHONE = {"width": 390, "height": 844}


def _png() -> bytes:
    """A real 2x2 PNG, as a phone's camera app might save one."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\x00" + b"\x80\x40\x20" * 2 for _ in range(2))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def _no_sideways_scroll(w: Walk, what: str) -> None:
    wide, inner = w.page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert wide <= inner, f"{what} scrolls sideways at {inner} px: {wide} px wide"


def test_an_inspector_on_a_phone_records_a_failed_trench_inspection_with_a_photo_and_sees_the_re_inspection(
    browser,  # noqa: F811
    tmp_path,
    tmp_path_factory,
):
    with serving(tmp_path, date(2026, 12, 3)) as (base, store), walkthrough(browser, base, tmp_path_factory, "field") as w:
        for raw in (
            {"type": "dig-safe-obtained", "date": "2026-12-01", "ticket": "20264801234"},
            {"type": "permit-issued", "date": "2026-12-01"},
            {"type": "work-noticed", "at": "2026-12-01T09:00"},
            {"type": "excavation-started", "date": "2026-12-02"},
        ):
            storekit.append(store, FID, raw, by="setup")
        w.page.set_viewport_size(PHONE)
        w.login("canton-dpw")
        _no_sideways_scroll(w, "Today")
        w.shot("today-phone")
        w.page.goto(base + "/schedule?street=pleasant")
        _no_sideways_scroll(w, "the schedule")
        card = w.page.locator("#rows li", has=w.page.locator(f'a:text-is("{FID}")'))
        assert card.count() == 1 and "trench inspection" in card.inner_text()
        card.locator("summary").click()
        _no_sideways_scroll(w, "the schedule with a form open")
        form = card.locator("form")
        assert form.locator('select[name="stage"] option').all_inner_texts() == ["trench, before backfilling"]
        form.locator('input[name="result"][value="fail"]').check()
        form.locator('input[name="time"]').fill("10:15")
        form.locator('textarea[name="notes"]').fill("north end of the trench")
        form.locator('input[name="defect"]').fill("bedding under the pipe not compacted")
        form.locator('input[name="reinspect"]').fill("2026-12-07")
        form.locator('input[name="photos"]').set_input_files({"name": "trench.png", "mimeType": "image/png", "buffer": _png()})
        w.shot("form-phone")
        form.locator('button:has-text("Record the inspection")').click()
        w.page.wait_for_url("**/schedule?tab=inspections&street=pleasant")
        assert w.page.locator("#error").count() == 0
        again = w.page.locator("#rows li", has=w.page.locator(f'a:text-is("{FID}")'))
        assert again.count() == 1
        text = again.inner_text()
        assert "re-inspection after a failed inspection" in text and "Mon, Dec 7, 2026" in text
        _no_sideways_scroll(w, "the schedule after recording")
        w.shot("re-inspection-phone")
        w.page.goto(f"{base}/filings/{FID}")
        link = w.page.locator('#photos a:has(img[alt="Inspection photo trench.png"])')  # a thumbnail, with its alt text
        assert link.count() == 1
        thumb = w.page.locator('#photos img[alt="Inspection photo trench.png"]')
        thumb.scroll_into_view_if_needed()  # drawn lazily, once in view
        w.page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=thumb.element_handle(), timeout=10_000)
        assert w.page.locator('#timeline img[alt^="Photo 1 of the inspection of"]').count() == 1  # not its token
        response = w.page.request.get(base + link.get_attribute("href"))
        assert response.status == 200 and response.body() == _png()
        w.page.goto(base + "/deposits")
        _no_sideways_scroll(w, "Deposits")
    raw = store.history(FID)[-1]["raw"]
    assert (raw["result"], raw["defect"], raw["reinspect"], raw["at"]) == (
        "fail",
        "bedding under the pipe not compacted",
        "2026-12-07",
        "2026-12-03T10:15",
    )
