"""The demo's generated assessors' parcels (demo/parcels.py): the Level 3
schema the importer reads, a lot for every generated filing's site with its
map-lot id and owner, neighbours on both sides of the way, a pond in
Canton; and ``permits demo`` imports them, so the map places every filing
and a filing's abutters can be computed."""

from __future__ import annotations

from datetime import date

import shapely

from demo.generate import generate
from demo.parcels import demo_town, grid_town
from parcels.l3 import read_l3, write_l3

AS_OF = date(2026, 11, 30)
FILINGS = list(generate(120, AS_OF, seed=2026))


def test_every_filing_of_a_town_has_its_lot_with_its_parcel_id_or_its_address(tmp_path):
    for town in ("canton", "saugus", "mansfield", "wpa"):
        parcels, owners = demo_town(town, FILINGS)
        ids = {p[1] for p in parcels}
        sites = {o.site_addr for o in owners}
        for f in (f for f in FILINGS if f["town"] == town):
            assert f["site"]["parcel"] in ids or f["site"]["address"].upper() in sites, f["id"]
        assert len({p[0] for p in parcels}) == len(parcels)  # LOC_IDs unique


def test_the_demo_layer_is_read_back_as_the_level_3_schema(tmp_path):
    parcels, owners = demo_town("canton", FILINGS)
    layer = read_l3(write_l3(tmp_path / "M050", 50, parcels, owners, fiscal_year=2026))
    assert (layer.parcels_layer, layer.assess_layer, layer.fiscal_year, layer.crs) == (
        "M050TaxPar",
        "M050Assess",
        2026,
        "EPSG:26986",
    )
    assert len(layer) == len(parcels) and len(layer.owners) == len(owners)
    assert {"FEE", "ROW", "WATER"} <= set(layer.poly_type)  # lots, ways and Reservoir Pond


def test_lots_face_each_other_across_their_way_and_never_overlap():
    parcels, owners = demo_town("saugus", FILINGS)
    lots = [p[3] for p in parcels if p[2] == "FEE"]
    left, _ = shapely.STRtree(lots).query(lots, predicate="overlaps")
    assert len(left) == 0
    sites = {o.site_addr for o in owners}
    for f in (f for f in FILINGS if f["town"] == "saugus"):
        number, street = f["site"]["address"].upper().split(" ", 1)
        # odd numbers north of the way, even south: the lot across has the next number
        assert f"{int(number) + 1} {street}" in sites and f"{int(number) - 1 or 1} {street}" in sites


def test_the_benchmarks_grid_has_the_parcels_asked_for():
    parcels, owners = grid_town(1000, per_street=50)
    assert len(owners) == 1000 and sum(p[2] == "FEE" for p in parcels) == 1000 and sum(p[2] == "ROW" for p in parcels) == 10


def test_permits_demo_imports_the_parcels_and_the_map_places_every_filing(tmp_path, monkeypatch, capsys):
    from cli.main import main
    from models.handle import Store
    from services.maps import filings_map
    from services.parcel_abutters import filing_abutters
    from workflows.rulebook import KINDS

    monkeypatch.setenv("PERMITS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--no-prefect", "--no-serve", "--as-of", "2026-11-30", "--count", "60", "--notices", "0"]) == 0
    assert "Generated assessors' parcels (MassGIS Level 3 schema, FY2026)" in capsys.readouterr().out
    store = Store(f"sqlite:///{tmp_path / 'data' / 'demo' / 'permits.db'}")
    shown = filings_map(store, towns=None, kinds=KINDS, as_of=AS_OF, zoom=13)
    every = len(store.list_filings())  # the 60 generated and the later stages' (Manchester-by-the-Sea's among them)
    # one emergency certification's site is "Route 106 at the Wading River":
    # no street number to place it by, so it is counted, not placed
    assert every > 60 and shown.drawn == every - 1 and shown.unplaced == 1
    noi = next(r.id for r in store.list_filings() if r.kind == "noi")
    assert filing_abutters(store, noi).parties  # every site has neighbours
    store.engine.dispose()
