"""The map, the site picker and the abutter list from the parcels in a real
browser: Playwright driving Debian's Chromium against uvicorn serving the
workbench over the generated parcels of tests/parcelkit.py, at a desk's
width and a phone's (390 px), with axe-core (vendored in tests/web/vendor/, run by tests/web/axekit.py)
finding nothing serious.  Screenshots are kept in a temporary folder named
in a failure's message.

Skipped when no ``chromium`` is on the PATH (``.ci/run`` installs it)."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import parcelkit as kit
import pytest
from axekit import serious_violations
from webkit import PASSWORD, USERS, make_store

from services.imports import import_filings

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on the PATH (apt-get install chromium)")
TODAY = date(2026, 12, 3)
FID = kit.FILING["id"]
#: a Canton NOI on the lot past the town line (T1, map-lot 9-1)
CANTON = {**kit.FILING, "town": "canton", "id": "CAN-NOI-2026-301", "site": {"address": "15 Pond Rd", "parcel": "9-1"}}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(tmp_path: Path):
    import uvicorn

    from web.app import create_app

    store = make_store(f"sqlite:///{tmp_path / 'permits.db'}")
    import_filings(store, [kit.FILING, CANTON], by="clerk")
    kit.import_towns(store, tmp_path / "parcels")
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(store, secret="map-test", today=lambda: TODAY), host="127.0.0.1", port=port, log_level="warning"
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


@contextmanager
def page_for(browser, base, folder: Path, width: int = 1280):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if msg.type == "error" and "Failed to load resource" not in msg.text else None,
    )
    page.on(
        "response",
        lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 and not r.url.endswith("/favicon.ico") else None,
    )
    try:
        yield page, errors
    except Exception as exc:
        page.screenshot(path=str(folder / "failure.png"), full_page=True)
        raise AssertionError(f"{exc} (screenshots in {folder})") from exc
    finally:
        context.close()


def login(page, base, who):
    page.goto(base + "/")
    page.fill('input[name="email"]', USERS[who][0])
    page.fill('input[name="password"]', PASSWORD)
    page.click('button:has-text("Log in")')
    page.wait_for_url("**/today")


def serious(page) -> list[str]:
    """axe-core's serious and critical violations on the page, named."""
    # a popup fades in (Leaflet's opacity transition): read its colours once it is opaque,
    # or axe measures the contrast of a half-drawn popup on a loaded machine
    page.wait_for_function(
        "() => [...document.querySelectorAll('.leaflet-popup, .leaflet-tooltip')].every(e => getComputedStyle(e).opacity === '1')"
    )
    return serious_violations(page)


def test_an_agent_finds_their_filings_on_the_map_and_follows_one_to_its_page(browser, tmp_path, tmp_path_factory):
    folder = tmp_path_factory.mktemp("map-shots")
    with serving(tmp_path) as (base, _), page_for(browser, base, folder) as (page, errors):
        login(page, base, "saugus-agent")
        page.click('nav a:has-text("Map")')
        page.wait_for_selector(f'#map-list a:text-is("{FID}")')
        assert page.locator("#map-list li").count() == 1  # Saugus's own: the Canton filing is not drawn for them
        assert "1 filing(s) on the map" in page.inner_text("#map-count")
        shapes = page.locator("#map path.leaflet-interactive")
        shapes.first.wait_for()
        page.screenshot(path=str(folder / "01-map.png"), full_page=True)
        shapes.first.click(force=True)
        link = page.locator(f'.leaflet-popup a.map-filing:text-is("{FID}")')
        link.wait_for()
        assert "Notice of Intent (wetlands)" in page.inner_text(".leaflet-popup") and "a deadline to act on" in page.inner_text(
            ".leaflet-popup"
        )
        assert serious(page) == []
        link.click()
        page.wait_for_url(f"**/filings/{FID}")
        assert "Parcel 1-3 of the assessors' FY2026 parcels" in page.inner_text("#parcel")
        page.locator("#filing-map path.leaflet-interactive").first.wait_for()
        assert errors == []


def test_the_map_at_a_phones_width_keeps_the_filings_and_their_links(browser, tmp_path, tmp_path_factory):
    folder = tmp_path_factory.mktemp("map-phone")
    with serving(tmp_path) as (base, _), page_for(browser, base, folder, width=390) as (page, errors):
        login(page, base, "admin")
        page.goto(base + "/map")
        page.wait_for_selector(f'#map-list a:text-is("{CANTON["id"]}")')
        assert page.locator("#map-list li").count() == 2  # the admin sees both towns
        box = page.locator("#map").bounding_box()
        assert box["width"] <= 390 and box["height"] > 200
        assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1  # no sideways scrolling
        page.screenshot(path=str(folder / "01-phone.png"), full_page=True)
        assert serious(page) == []
        assert errors == []


def test_an_agent_picks_the_site_from_the_parcels_and_uses_the_abutter_list_they_reviewed(browser, tmp_path, tmp_path_factory):
    folder = tmp_path_factory.mktemp("picker-shots")
    with serving(tmp_path) as (base, store), page_for(browser, base, folder) as (page, errors):
        login(page, base, "saugus-agent")
        page.goto(base + "/filings/new?kind=noi")
        page.select_option('#new-filing select[name="town"]', "saugus")
        page.fill("#site-search", "50 main")
        page.click('#site-results button:has-text("1-5")')
        assert page.input_value('#new-filing [name="address"]') == "50 Main St"
        assert page.input_value('#new-filing [name="parcel"]') == "1-5"
        assert page.input_value('#new-filing [name="owner_name"]') == "OWNER OF S5"
        assert page.input_value('#new-filing [name="owner_zip"]') == "01906"
        assert serious(page) == []
        page.screenshot(path=str(folder / "01-picked.png"), full_page=True)
        for name, value in {
            "filed": "2026-12-02",
            "description": "a deck",
            "applicant_name": "Deck Co",
            "applicant_street": "1 Deck St",
            "applicant_city": "Saugus",
            "applicant_zip": "01906",
        }.items():
            page.fill(f'#new-filing [name="{name}"]', value)
        page.click('button:has-text("File it")')
        page.wait_for_selector("#state")
        fid = page.url.rsplit("/", 1)[1]
        assert page.locator("#site-warning").count() == 0 and "Parcel 1-5" in page.inner_text("#parcel")
        page.click("#compute-abutters")
        page.wait_for_selector("#computed")
        assert "directly opposite on a way" in page.inner_text("#computed")
        assert serious(page) == []
        page.click('#use-list button:has-text("Use this list")')
        page.wait_for_selector("#abutter-source")
        assert "computed from the assessors' FY2026 parcels (parcel 1-5;" in page.inner_text("#abutter-source")
        page.locator("#filing-map path.leaflet-interactive").nth(3).wait_for()  # the site and its abutters' parcels
        page.screenshot(path=str(folder / "02-used.png"), full_page=True)
        assert errors == []
    from services.abutters import stored_abutters

    assert any(p.parcels == ("3-5",) for p in stored_abutters(store, fid))  # N5, directly opposite 1-5
