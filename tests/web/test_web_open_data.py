"""The public site's open data (web/public/pages.py): no login, each town's
and every town's files, a cache's header; an unknown town, dataset or
format is a 404."""

from __future__ import annotations

import csv
import io

from webkit import client


def test_anyone_reads_the_open_data_without_a_login(store):
    anon = client(store)
    index = anon.get("/open-data")
    assert index.status_code == 200 and 'href="/open-data/canton/permits.csv"' in index.text
    r = anon.get("/open-data/canton/permits.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert r.headers["cache-control"] == "public, max-age=3600"
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert {row["PermitNum"] for row in rows} == {"CAN-NOI-2026-001", "CAN-SOP-2026-001"}
    assert anon.get("/open-data/permits.json").json()[0]["PermitNum"]
    assert anon.get("/open-data/saugus/permits.geojson").json()["type"] == "FeatureCollection"
    assert anon.get("/open-data/status-changes.csv").status_code == 200


def test_an_unknown_town_dataset_or_format_is_not_found(store):
    anon = client(store)
    for path in ("/open-data/boston/permits.csv", "/open-data/wpa/permits.csv", "/open-data/secrets.csv", "/open-data/permits.xml",
                 "/open-data/inspections.geojson"):  # fmt: skip
        assert anon.get(path).status_code == 404, path
