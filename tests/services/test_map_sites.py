"""The map's filings joined to their parcels in one statement
(models/read/map_sites.py) place each filing where the look-up of one filing
at a time (models.read.parcels.located: the map-lot id as given or in
capitals, else the LOC_ID) places it, on SQLite and PostgreSQL, whatever
way its parcel id is written."""

import json
from datetime import date

import parcelkit as kit
import pytest

from models.handle import Store
from models.read import parcels as stored
from services.database import upgrade_store
from services.imports import import_filings
from services.maps import filings_map

WRITTEN = {  # filing number: (town, the parcel id as the filing writes it)
    1: (kit.TOWN, "1-3"),  # a map-lot id, as the assessors write it
    2: (kit.TOWN, " 1-4  "),  # with spaces about it
    3: (kit.TOWN, "l_s5"),  # a LOC_ID, in small letters
    4: (kit.TOWN, "L_N2"),  # a LOC_ID as written
    5: (kit.TOWN, "9-9"),  # no such parcel
    6: (kit.NEXT_TOWN, "9-1"),  # the next town's lot
    7: (kit.TOWN, ""),  # none given
}


def _filing(n: int, town: str, parcel: str) -> dict:
    prefix = "SAU" if town == kit.TOWN else "CAN"
    return {
        **kit.FILING,
        "town": town,
        "id": f"{prefix}-NOI-2026-{900 + n}",
        "site": {"address": "1 Nowhere Road", "parcel": parcel},
    }


def _one_at_a_time(store, town: str, parcel: str):
    key = parcel.strip()
    return stored.located(store, [(town, key, "")]).get((town, key.upper())) if key else None


@pytest.mark.parametrize("zoom", [13, 17])
def test_each_filing_is_placed_where_its_own_look_up_places_it(db_url, tmp_path, zoom):
    store = Store(db_url)
    upgrade_store(store)
    kit.import_towns(store, tmp_path)
    import_filings(store, [_filing(n, *w) for n, w in WRITTEN.items()], by="clerk")
    made = filings_map(store, towns=None, kinds=["noi"], as_of=date(2026, 12, 3), zoom=zoom)
    drawn = {f["properties"]["id"]: f for f in json.loads(made.geojson)["features"]}
    expected = {}
    for n, (town, parcel) in WRITTEN.items():
        where = _one_at_a_time(store, town, parcel)
        if where is not None:
            expected[_filing(n, town, parcel)["id"]] = (where[1] or where[0], where[2], where[3])
    assert len(expected) == 5 and made.drawn == 5 and made.unplaced == 2
    assert {i: f["properties"]["parcel"] for i, f in drawn.items()} == {i: e[0] for i, e in expected.items()}
    if zoom == 13:
        assert {i: f["geometry"]["coordinates"] for i, f in drawn.items()} == {i: [e[1], e[2]] for i, e in expected.items()}
    else:
        assert {f["geometry"]["type"] for f in drawn.values()} == {"Polygon"}
