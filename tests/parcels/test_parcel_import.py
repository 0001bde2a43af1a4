"""`permits parcels import`: a town's MassGIS Level 3 download as MassGIS
gives it (a folder of shapefiles, one .shp of it, its .zip), a GeoPackage
and a file geodatabase; fields mapped; and every kind of file that cannot
be imported refused with one line naming what is wrong, exit status 2, and
nothing written."""

import zipfile
from datetime import UTC, datetime

import numpy as np
import parcelkit as kit
import pytest
import shapely
from pyogrio.raw import write
from storekit import snapshot

from cli.main import main
from models.handle import Store
from parcels.l3 import ASSESS_FIELDS, PARCEL_FIELDS
from services.database import upgrade_store

NOW = datetime(2026, 12, 3, 15, 0, tzinfo=UTC)


@pytest.fixture
def url(tmp_path):
    u = f"sqlite:///{tmp_path / 'permits.db'}"
    upgrade_store(Store(u))
    return u


def imported(url, path, *extra, town=kit.TOWN):
    return main(["parcels", "import", str(path), "--town", town, "--db", url, "--by", "assessor", *extra])


def _layers(url):
    from services.parcels import parcel_layers

    return parcel_layers(Store(url))


@pytest.mark.parametrize("driver", ["shapefile", "gpkg", "gdb"])
def test_a_town_is_imported_from_its_shapefiles_a_geopackage_or_a_file_geodatabase(tmp_path, url, driver, capsys):
    target = {"shapefile": tmp_path / "M262", "gpkg": tmp_path / "saugus.gpkg", "gdb": tmp_path / "saugus.gdb"}[driver]
    path = kit.write_town(target, driver=driver)
    assert imported(url, path) == 0
    out = capsys.readouterr().out
    assert "saugus: 29 parcels and 27 assessing records of FY2026" in out and "(M262TaxPar, M262Assess)" in out
    (layer,) = _layers(url)
    assert (layer.town, layer.fiscal_year, layer.parcels, layer.owners, layer.imported_by) == ("saugus", 2026, 29, 27, "assessor")


def test_an_import_says_each_stage_on_standard_error_and_counts_the_parcels_written(tmp_path, url):
    """No silent minutes (issue 24): reading, projecting and writing are each
    told as they start; the parcels written are counted by the progress the
    command hands the service (a bar on a terminal, a line a stage off it)."""
    from services.parcels import import_parcels

    told, counted = [], []

    class Count:
        def start(self, total):
            counted.append(("start", total))

        def update(self, n):
            counted.append(("update", n))

    path = kit.write_town(tmp_path / "M262")
    import_parcels(Store(url), str(path), town=kit.TOWN, by="assessor", now=NOW, say=told.append, progress=Count())
    assert told[0].startswith("Reading the parcels and the assessing table at ")
    assert told[1].startswith("Read 29 parcels and 27 owners; projecting them to WGS84")
    assert counted[0] == ("start", 29) and sum(n for what, n in counted[1:] if what == "update") == 29


def test_the_import_command_tells_its_stages_on_a_terminal_and_keeps_a_log_to_its_counts(tmp_path, url, capsys, monkeypatch):
    import sys

    path = kit.write_town(tmp_path / "M262")
    assert imported(url, path) == 0
    out, err = capsys.readouterr()
    assert err == "" and "saugus: 29 parcels" in out  # a log: fewer parcels than a count is drawn for
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert imported(url, path) == 0
    out, err = capsys.readouterr()
    assert "permits: Reading the parcels" in err and "projecting them to WGS84" in err
    assert "Reading" not in out


def test_one_shp_of_the_download_or_its_zip_is_taken_as_the_download(tmp_path, url):
    folder = kit.write_town(tmp_path / "M262")
    assert imported(url, folder / "M262TaxPar.shp") == 0
    archive = tmp_path / "M262.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for f in folder.iterdir():
            z.write(f, f.name)
    assert imported(url, archive) == 0
    assert [layer.source for layer in _layers(url)] == ["M262.zip"]


def _write(folder, *, parcels=None, assess=None, crs="EPSG:26986", geometry="polygons", pfields=None, afields=None):
    """The layout's download with changes: fields renamed or dropped, another
    projection, points for polygons, a parcel without geometry."""
    folder.mkdir()
    lots = [(kit.loc_id(n), kit.map_lot(n), t, g) for n, town, t, g in kit.LOTS if town == kit.TOWN]
    owners = [o for n, town, _, _ in kit.LOTS if town == kit.TOWN for o in kit.owners_of(n, town)]
    pfields = pfields or list(PARCEL_FIELDS)
    pvalues = {"LOC_ID": [p[0] for p in lots], "MAP_PAR_ID": [p[1] for p in lots], "POLY_TYPE": [p[2] for p in lots]}
    geoms = np.array([p[3] for p in lots], dtype=object)
    if geometry == "points":
        geoms = shapely.centroid(geoms)
    wkb = shapely.to_wkb(geoms)
    if geometry == "one missing":
        wkb[3] = None
    gtype = "Point" if geometry == "points" else "Polygon"
    names = [f for f in pfields if f.split("=")[0] in pvalues]
    write(
        str(folder / "M262TaxPar.shp"),
        wkb,
        [np.array(pvalues[f.split("=")[0]], dtype=object) for f in names],
        [f.split("=")[-1] for f in names],
        crs=crs,
        driver="ESRI Shapefile",
        geometry_type=gtype,
    )
    afields = afields or list(ASSESS_FIELDS)
    avalues = {
        "PROP_ID": [o.prop_id for o in owners],
        "LOC_ID": [o.loc_id for o in owners],
        "SITE_ADDR": [o.site_addr for o in owners],
        "OWNER1": [o.name for o in owners],
        "OWN_ADDR": [o.street for o in owners],
        "OWN_CITY": [o.city for o in owners],
        "OWN_STATE": [o.state for o in owners],
        "OWN_ZIP": [o.zip for o in owners],
        "FY": [assess if assess is not None else "2026"] * len(owners),
    }
    names = [f for f in afields if f.split("=")[0] in avalues]
    write(
        str(folder / "M262Assess.dbf"),
        None,
        [np.array(avalues[f.split("=")[0]], dtype=object) for f in names],
        [f.split("=")[-1] for f in names],
        driver="ESRI Shapefile",
        geometry_type=None,
    )
    return folder


def test_fields_named_otherwise_are_mapped_with_field_options(tmp_path, url):
    path = _write(tmp_path / "x", afields=[*[f for f in ASSESS_FIELDS if f != "OWN_ZIP"], "OWN_ZIP=ZIPCODE"])
    assert imported(url, path) == 2  # the L3 name is missing
    assert imported(url, path, "--field", "OWN_ZIP=ZIPCODE") == 0


def test_a_table_without_a_fiscal_year_field_takes_the_year_given(tmp_path, url):
    path = _write(tmp_path / "x", afields=[f for f in ASSESS_FIELDS if f != "FY"])
    assert imported(url, path) == 2
    assert imported(url, path, "--fiscal-year", "2025") == 0
    assert _layers(url)[0].fiscal_year == 2025


def _broken(tmp_path, case):
    """(the path to import, its extra options, what its one line must say)."""
    x = tmp_path / "x"
    if case == "no such path":
        return tmp_path / "nowhere", (), "no such file or folder"
    if case == "a folder without parcels":
        x.mkdir()
        (x / "readme.txt").write_text("nothing here")
        return x, (), "cannot be read as parcels"
    if case == "no TaxPar layer":
        path = kit.write_town(x)
        for f in path.glob("M262TaxPar.*"):
            f.rename(path / f.name.replace("TaxPar", "Parcels"))
        return path, (), "none of its layers is named *TaxPar (parcels); name it with --parcels-layer"
    if case == "a parcels layer named that is not there":
        return kit.write_town(x), ("--parcels-layer", "M999TaxPar"), "no parcels layer 'M999TaxPar' (layers: "
    if case == "no assessing table":
        path = kit.write_town(x)
        for f in path.glob("M262Assess.*"):
            f.unlink()
        return path, (), "none of its layers is named *Assess (assessing)"
    if case == "a parcel field missing":
        return _write(x, pfields=["LOC_ID", "POLY_TYPE"]), (), "parcels layer M262TaxPar: no field MAP_PAR_ID"
    if case == "an owner field missing":
        fields = [f for f in ASSESS_FIELDS if f != "OWN_CITY"]
        return _write(x, afields=fields), (), "assessing table M262Assess: no field OWN_CITY"
    if case == "another projection":
        return _write(x, crs="EPSG:4326"), (), "in WGS 84 (EPSG:4326), not Massachusetts State Plane in metres (EPSG:26986)"
    if case == "state plane in feet":
        return _write(x, crs="EPSG:2249"), (), "(EPSG:2249), not Massachusetts State Plane in metres"
    if case == "no projection":
        path = _write(x)
        (path / "M262TaxPar.prj").unlink()
        return path, (), "no projection given (.prj missing)"
    if case == "the table given as the parcels":
        return kit.write_town(x), ("--parcels-layer", "M262Assess"), "has no geometry (a table, not the parcels' polygons)"
    if case == "points, not polygons":
        return _write(x, geometry="points"), (), "holds Point geometry, not the parcels' polygons"
    if case == "a parcel without geometry":
        return _write(x, geometry="one missing"), (), "feature 4 (LOC_ID L_S4) has no geometry"
    if case == "no fiscal year":
        return _write(x, assess=""), (), "no fiscal year in its FY field; give it with --fiscal-year YYYY"
    if case == "a fiscal year that is none":
        return _write(x, assess="next year"), (), "FY 'next year' is not a fiscal year"
    if case == "a bad field option":
        return kit.write_town(x), ("--field", "ZIP"), "--field 'ZIP': give L3NAME=THEIRS"
    if case == "a dbf alone":
        return kit.write_town(x) / "M262Assess.dbf", (), "a table, not the parcels' polygons"
    if case == "not a dataset":
        bad = tmp_path / "parcels.gpkg"
        bad.write_text("this is not a GeoPackage")
        return bad, (), "cannot be read as parcels"
    raise AssertionError(case)


CASES = [
    "no such path",
    "a folder without parcels",
    "no TaxPar layer",
    "a parcels layer named that is not there",
    "no assessing table",
    "a parcel field missing",
    "an owner field missing",
    "another projection",
    "state plane in feet",
    "no projection",
    "the table given as the parcels",
    "points, not polygons",
    "a parcel without geometry",
    "no fiscal year",
    "a fiscal year that is none",
    "a bad field option",
    "a dbf alone",
    "not a dataset",
]


@pytest.mark.parametrize("case", CASES)
def test_a_download_that_cannot_be_imported_is_refused_with_one_line_and_nothing_written(tmp_path, url, capsys, case):
    assert imported(url, kit.write_town(tmp_path / "first")) == 0  # the town's parcels before
    before = snapshot(url)
    capsys.readouterr()
    path, extra, says = _broken(tmp_path, case)
    assert imported(url, path, *extra) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("permits: error: "), err
    assert says in err, err
    assert "nothing was imported" in err
    assert snapshot(url) == before


def test_an_unknown_town_is_refused_with_the_towns_there_are(tmp_path, url, capsys):
    assert imported(url, kit.write_town(tmp_path / "x"), town="boston") == 2
    assert (
        "unknown town 'boston'; choose one of: canton, manchester-by-the-sea, mansfield, saugus, wpa" in capsys.readouterr().err
    )


def test_invalid_polygons_are_repaired_and_parts_of_one_loc_id_joined(tmp_path, url, capsys):
    from parcels.l3 import write_l3

    parcels, owners = kit.layer(kit.TOWN)
    bowtie = shapely.Polygon(
        [(kit.X0, kit.Y0 - 60), (kit.X0 + 10, kit.Y0 - 50), (kit.X0 + 10, kit.Y0 - 60), (kit.X0, kit.Y0 - 50)]
    )
    parcels = [
        *parcels,
        ("L_BOW", "8-1", "FEE", bowtie),
        ("L_S1", "1-1", "FEE", shapely.box(kit.X0, kit.Y0 - 80, kit.X0 + 5, kit.Y0 - 70)),
    ]
    write_l3(tmp_path / "x", kit.TOWN_NUMBER, parcels, owners, fiscal_year=2026)
    assert imported(url, tmp_path / "x") == 0
    out = capsys.readouterr().out
    assert "1 invalid polygon(s) repaired" in out and "1 polygon(s) joined to another part of their LOC_ID" in out
    assert _layers(url)[0].parcels == 30  # 29, the bow tie, and S1's second part joined to it


def test_a_newer_fiscal_year_replaces_the_towns_parcels_and_keeps_the_old_layer_on_record(tmp_path, url, capsys):
    from services.parcels import parcel_layers

    assert imported(url, kit.write_town(tmp_path / "a", fiscal_year=2025)) == 0
    assert imported(url, kit.write_town(tmp_path / "b", fiscal_year=2026)) == 0
    assert "replacing FY2025's (29 parcels)" in capsys.readouterr().out
    store = Store(url)
    assert [(layer.fiscal_year, layer.replaced_at is None) for layer in parcel_layers(store, replaced=True)] == [
        (2025, False),
        (2026, True),
    ]
    from sqlalchemy import text

    with store.engine.connect() as conn:
        assert conn.execute(text("select count(*) from parcel")).scalar() == 29
        assert conn.execute(text("select count(*) from parcel_owner")).scalar() == 27
    assert imported(url, kit.write_town(tmp_path / "c", fiscal_year=2024)) == 2  # older than the current
    assert "saugus's parcels are FY2026; these are FY2024, older" in capsys.readouterr().err


def test_the_importer_keeps_the_geometry_in_state_plane_and_wgs84(tmp_path, url):
    from sqlalchemy import text

    assert imported(url, kit.write_town(tmp_path / "a")) == 0
    with Store(url).engine.connect() as conn:
        wkb, wgs, lon, lat, minx = conn.execute(
            text("select geometry, wgs84, lon, lat, minx from parcel where loc_id = 'L_S3'")
        ).one()
    s3 = next(g for n, _, _, g in kit.LOTS if n == "S3")
    assert shapely.equals(shapely.from_wkb(wkb), s3) and minx == s3.bounds[0]
    outline = shapely.from_wkb(wgs)
    assert -71 < outline.centroid.x < -70.8 and 42.4 < outline.centroid.y < 42.6  # Saugus
    assert outline.contains(shapely.Point(lon, lat))
