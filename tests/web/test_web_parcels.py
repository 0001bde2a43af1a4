"""The parcels in the workbench through Starlette's TestClient: who sees
which town's parcels and filings on the map (404, never 403), the site
picker's search for staff and applicants, a filing's parcel and the
warning for a site that matches none, and the abutter list computed from
the parcels, reviewed and used, as the command line computes it, never
over an uploaded assessors' list, never when stale."""

from __future__ import annotations

import html
import json
import re

import parcelkit as kit
import pytest
from storekit import snapshot
from webkit import client, login

from cli.main import main
from models.read import parcels as stored
from services.abutters import stored_abutters
from services.imports import import_filings
from services.parcel_abutters import compute_abutters

FID = kit.FILING["id"]  # a Saugus NOI on parcel 1-3


@pytest.fixture
def parcel_web(store, tmp_path):
    import_filings(store, [kit.FILING], by="clerk")
    kit.import_towns(store, tmp_path)  # Saugus and, past the town line, Canton
    return client(store)


def features(r) -> list[dict]:
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/geo+json"), r.text
    return json.loads(r.text)["features"]


# -- who sees what ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/map", "/map/filings.geojson", "/map/parcels.geojson?bbox=0,0,1,1", "/parcels/find.json?town=saugus&q=main",
     f"/filings/{FID}/map.geojson", f"/filings/{FID}/abutters/parcels"],
)  # fmt: skip
def test_the_map_and_the_parcels_send_a_stranger_to_the_login_page(parcel_web, path):
    r = parcel_web.get(path)
    assert r.status_code == 303 and r.headers["location"].startswith("/login?next=")


def test_an_agent_sees_only_the_filings_of_their_towns_on_the_map(parcel_web):
    login(parcel_web, "saugus-agent")
    ids = {f["properties"]["id"] for f in features(parcel_web.get("/map/filings.geojson"))}
    assert ids == {FID}  # SAU-NOI-2026-001 names parcel 12-033, which Saugus's parcels do not have: not drawn
    assert features(parcel_web.get("/map/filings.geojson?town=canton")) == []  # another town narrows to nothing


def test_a_conservation_agent_of_canton_sees_no_saugus_filing_or_parcel(parcel_web):
    login(parcel_web, "canton-agent")
    assert features(parcel_web.get("/map/filings.geojson")) == []
    for path in (f"/filings/{FID}/map.geojson", f"/filings/{FID}/abutters/parcels", "/parcels/find.json?town=saugus&q=main st"):
        assert parcel_web.get(path).status_code == 404, path
    assert parcel_web.get("/map/parcels.geojson?town=saugus&bbox=-71,42,-70,43&zoom=17").status_code == 404
    box = "-70.8920,42.5286,-70.8880,42.5300"  # the layout's corner with Canton's lots past the town line
    labels = {f["properties"]["label"] for f in features(parcel_web.get(f"/map/parcels.geojson?bbox={box}&zoom=18"))}
    assert labels and labels <= {"9-1", "9-2", "9-3"}  # Canton's own parcels only


def test_dpw_staff_see_street_openings_only_and_no_wetlands_abutters(parcel_web):
    login(parcel_web, "canton-dpw")
    r = parcel_web.get("/map/filings.geojson")
    assert all(f["properties"]["kind"] == "street-opening" for f in features(r))
    assert parcel_web.get("/filings/CAN-SOP-2026-001/abutters/parcels").status_code == 404  # a street opening has none
    assert parcel_web.get("/filings/CAN-NOI-2026-001/map.geojson").status_code == 404


def test_a_malformed_box_or_filing_id_is_refused(parcel_web):
    login(parcel_web, "saugus-agent")
    assert parcel_web.get("/map/parcels.geojson?bbox=west,south").status_code == 400
    assert parcel_web.get("/filings/..%2Fetc/map.geojson").status_code == 404
    assert parcel_web.get("/filings/SAU-NOI-2026-999/abutters/parcels").status_code == 404


def test_the_map_draws_points_below_zoom_15_and_outlines_from_it_and_marks_the_overdue(parcel_web, store):
    login(parcel_web, "admin")
    (point,) = features(parcel_web.get("/map/filings.geojson?zoom=12&town=saugus"))
    assert point["geometry"]["type"] == "Point"
    (outline,) = features(parcel_web.get("/map/filings.geojson?zoom=18&town=saugus"))
    assert outline["geometry"]["type"] == "Polygon"
    p = outline["properties"]
    assert (p["url"], p["kind_label"], p["parcel"], p["status"]) == (
        f"/filings/{FID}",
        "Notice of Intent (wetlands)",
        "1-3",
        "due",
    )
    assert features(parcel_web.get("/map/filings.geojson?status=overdue&town=saugus")) == []  # its hearing is not yet late


def test_the_map_is_filtered_as_the_filings_list_is(parcel_web):
    login(parcel_web, "admin")
    assert len(features(parcel_web.get("/map/filings.geojson?q=S3+Builders"))) == 1  # by applicant
    assert features(parcel_web.get("/map/filings.geojson?q=nobody+at+all")) == []
    assert features(parcel_web.get("/map/filings.geojson?state=permit-issued")) == []
    assert len(features(parcel_web.get("/map/filings.geojson?kind=noi&state=filed"))) == 1


def test_the_map_page_carries_its_settings_as_data_and_no_inline_script(parcel_web):
    login(parcel_web, "saugus-agent")
    page = parcel_web.get("/map?town=saugus&status=open").text
    assert 'data-features="/map/filings.geojson?town=saugus&amp;status=open"' in page
    assert 'data-tiles=""' in page  # no basemap unless the town names its tile server
    assert re.findall(r"<script(?![^>]*\bsrc=)", page) == []
    assert '<a href="/map" aria-current="page">Map</a>' in page


def test_a_town_tile_server_setting_reaches_the_map(store, tmp_path):
    from fastapi.testclient import TestClient
    from webkit import TODAY

    import config
    from web.app import create_app

    settings = config.load({"PERMITS_MAP_TILES_URL": "https://gis.saugus.example/tiles/{z}/{x}/{y}.png"})
    c = TestClient(create_app(store, settings=settings, secret="s", today=lambda: TODAY), follow_redirects=False)
    login(c, "saugus-agent")
    assert 'data-tiles="https://gis.saugus.example/tiles/{z}/{x}/{y}.png"' in c.get("/map").text


# -- the site picker --------------------------------------------------------------------------


def test_the_site_picker_finds_what_permits_parcels_find_finds(parcel_web, store, capsys):
    login(parcel_web, "saugus-agent")
    got = parcel_web.get("/parcels/find.json?town=saugus&q=30 main street").json()
    assert got["fiscal_year"] == 2026
    assert [p["map_par_id"] for p in got["parcels"]] == ["1-3"]
    assert got["parcels"][0]["owner"] == {
        "name": "OWNER OF S3",
        "street": "3 S3 WAY",
        "city": "SAUGUS",
        "state": "MA",
        "zip": "01906",
    }
    assert main(["parcels", "find", "30 main street", "--town", "saugus", "--json", "--db", store.url]) == 0
    assert [p["map_par_id"] for p in json.loads(capsys.readouterr().out)] == ["1-3"]
    assert parcel_web.get("/parcels/find.json?town=saugus&q=3-3").json()["parcels"][0]["owners"] == 2  # two units
    assert parcel_web.get("/parcels/find.json?town=mansfield&q=main").status_code == 404  # not one of theirs


def test_an_applicant_finds_parcels_of_the_towns_that_take_applications(parcel_web):
    from webkit import register

    register(parcel_web, "ann@example.org")  # the emailed link followed (issue 21)
    assert [p["map_par_id"] for p in parcel_web.get("/my/parcels/find.json?town=saugus&q=1-3").json()["parcels"]] == ["1-3"]
    assert parcel_web.get("/my/parcels/find.json?town=wpa&q=1-3").status_code == 404  # the state's defaults take none
    assert parcel_web.get("/parcels/find.json?town=saugus&q=1-3").status_code == 303  # staff's: sent home
    assert 'data-find-url="/my/parcels/find.json"' in parcel_web.get("/my/apply?kind=noi").text


def test_a_filing_shows_its_parcel_and_a_site_that_matches_none_is_filed_with_a_warning(parcel_web, store):
    token = login(parcel_web, "saugus-agent")
    page = parcel_web.get(f"/filings/{FID}").text
    assert "Parcel <strong>1-3</strong> of the assessors' FY2026 parcels: 30 MAIN ST; owner: OWNER OF S3." in page
    assert f'data-features="/filings/{FID}/map.geojson"' in page
    assert 'data-find-url="/parcels/find.json"' in parcel_web.get("/filings/new?kind=noi").text
    form = {
        "csrf": token, "kind": "noi", "town": "saugus", "filed": "2026-12-02", "address": "1 Nowhere Lane", "parcel": "77-77",
        "description": "a shed", "applicant_name": "A", "applicant_street": "1 A St", "applicant_city": "Saugus",
        "applicant_state": "MA", "applicant_zip": "01906",
    }  # fmt: skip
    r = parcel_web.post("/filings/new", data=form)
    assert r.status_code == 303  # allowed
    page = html.unescape(parcel_web.get(r.headers["location"]).text)
    assert 'id="site-warning"' in page and "matches no parcel of the assessors' FY2026 parcels" in page


# -- the abutter list from the parcels --------------------------------------------------------


def _review_form(page: str) -> dict:
    form = re.search(r'<form method="post" action="/filings/[^"]+/abutters/parcels".*?</form>', page, re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', form))


def test_an_agent_reviews_and_uses_the_list_the_command_line_computes(parcel_web, store, tmp_path):
    login(parcel_web, "saugus-agent")
    page = parcel_web.get(f"/filings/{FID}/abutters/parcels").text
    assert "of the assessors' <strong>FY2026</strong> parcels" in page and "Saugus Wetlands By-Law 508.08 §5.4" in page
    assert "directly opposite on a way" in page and "abuts an abutter, within 300 ft" in page
    r = parcel_web.post(f"/filings/{FID}/abutters/parcels", data=_review_form(page))
    assert r.status_code == 303 and r.headers["location"] == f"/filings/{FID}#abutters"
    csv_path = tmp_path / "cli.csv"
    assert main(["abutters", "--town", "saugus", "--parcel", "1-3", "--csv", str(csv_path), "--db", store.url]) == 0
    from notices.abutters import read_abutters

    assert stored_abutters(store, FID) == read_abutters(csv_path) == compute_abutters(store, "saugus", "1-3").parties
    page = parcel_web.get(f"/filings/{FID}").text
    assert "This list was computed from the assessors' FY2026 parcels (parcel 1-3;" in page
    shown = {f["properties"]["label"] for f in features(parcel_web.get(f"/filings/{FID}/map.geojson"))}
    assert {"1-3", "3-3", "1-2", "2-5"} <= shown  # the site and its abutters' parcels


def test_an_uploaded_list_wins_and_the_computed_one_is_shown_for_comparison_only(parcel_web, store):
    token = login(parcel_web, "saugus-agent")
    page = parcel_web.get(f"/filings/{FID}").text
    upload = re.search(r'<form method="post" action="/filings/[^"]+/abutters".*?</form>', page, re.S).group(0)
    fields = dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">', upload))
    data = b'Map/Lot,Owner Name,Mailing Address\n1-2,Certified Owner,"5 Main St, Saugus, MA 01906"\n'
    assert (
        parcel_web.post(f"/filings/{FID}/abutters", data=fields, files={"csv": ("certified.csv", data, "text/csv")}).status_code
        == 303
    )
    page = parcel_web.get(f"/filings/{FID}/abutters/parcels").text
    assert 'id="upload-wins"' in page and 'id="use-list"' not in page
    before = snapshot(store.url)
    form = {"csrf": token, "seq": "1", "abutters_version": "x", "digest": compute_abutters(store, "saugus", "1-3").digest}
    r = parcel_web.post(f"/filings/{FID}/abutters/parcels", data=form)
    assert r.status_code == 422 and "wins over one computed from the parcels (Canton 15-5)" in r.text
    assert snapshot(store.url) == before
    assert "the assessors' list uploaded (certified.csv)" in parcel_web.get(f"/filings/{FID}").text


def test_a_stale_or_forged_review_writes_nothing(parcel_web, store):
    token = login(parcel_web, "saugus-agent")
    fields = _review_form(parcel_web.get(f"/filings/{FID}/abutters/parcels").text)
    before = snapshot(store.url)
    r = parcel_web.post(f"/filings/{FID}/abutters/parcels", data={**fields, "digest": "0" * 16})
    assert r.status_code == 422 and "not the one you reviewed" in r.text
    r = parcel_web.post(f"/filings/{FID}/abutters/parcels", data={**fields, "seq": "7"})
    assert r.status_code == 409 and "changed since you opened it" in r.text
    r = parcel_web.post(f"/filings/{FID}/abutters/parcels", data={k: v for k, v in fields.items() if k != "csrf"})
    assert r.status_code == 403
    assert snapshot(store.url) == before
    assert stored.abutter_source(store, FID) is None and token


def test_a_filing_page_without_parcels_imported_says_nothing_of_them(web, store):
    login(web, "canton-agent")
    page = web.get("/filings/CAN-NOI-2026-001").text
    assert 'id="site-warning"' not in page and 'id="compute-abutters"' not in page and 'id="parcel"' not in page
