"""Issue 35: a small parcel file must not take the machine.  A parcel of
100,000 self-intersecting vertices (2.5 MB of GeoPackage ran make_valid past
200 s at 5.7 GB), a shapefile cut short and padded with zeros (a GEOS
traceback), a repair that would run for minutes: each is refused by the
parcel's LOC_ID or in one line naming the file, and the rest imported
(parcels/repair.py)."""

import numpy as np
import parcelkit
import pytest
import shapely
from kit import assert_one_line, run_inprocess

import parcels.repair as bounds
from models.handle import Store
from parcels.l3 import write_l3
from services.database import upgrade_store


@pytest.fixture
def url(tmp_path):
    u = f"sqlite:///{tmp_path / 'permits.db'}"
    upgrade_store(Store(u))
    return u


def _scribble(n: int, seed: int = 1):
    """A polygon of n random vertices inside lot S3: a ring crossing itself
    thousands of times, as no assessor draws a parcel."""
    pts = np.random.default_rng(seed).uniform(0, 1, (n, 2)) * [20, 30] + [parcelkit.X0 + 40, parcelkit.Y0]
    return shapely.Polygon(pts)


def _town_with_s3(target, polygon, *, only=False, driver="gpkg"):
    parcels, owners = parcelkit.layer(parcelkit.TOWN)
    s3 = next(i for i, p in enumerate(parcels) if p[0] == "L_S3")
    parcels[s3] = (*parcels[s3][:3], polygon)
    chosen = [parcels[s3]] if only else parcels
    return write_l3(target, parcelkit.TOWN_NUMBER, chosen, owners, fiscal_year=2026, driver=driver)


def _import(capsys, url, path):
    return run_inprocess(capsys, "parcels", "import", str(path), "--town", "saugus", "--db", url, "--by", "assessor")


def _layers(url):
    from services.parcels import parcel_layers

    return parcel_layers(Store(url))


def test_a_parcel_of_100000_vertices_is_refused_by_its_loc_id_and_the_rest_are_imported(tmp_path, url, capsys):
    path = _town_with_s3(tmp_path / "saugus.gpkg", _scribble(100_000))
    ended = _import(capsys, url, path)
    assert ended.code == 0, ended.err
    assert "28 parcels" in ended.out
    assert "1 parcel(s) refused and left out (LOC_ID L_S3: 100,001 vertices, over the 50,000 a parcel may have)" in ended.out
    (layer,) = _layers(url)
    assert layer.parcels == 28


def test_a_file_whose_only_parcel_is_100000_vertices_is_one_line_and_nothing_written(tmp_path, url, capsys):
    path = _town_with_s3(tmp_path / "one.gpkg", _scribble(100_000), only=True)
    ended = _import(capsys, url, path)
    assert_one_line(ended, "LOC_ID L_S3", "100,001 vertices, over the 50,000 a parcel may have", "nothing was imported")
    assert _layers(url) == []


def test_a_repair_over_its_time_is_refused_by_loc_id_and_the_rest_imported(tmp_path, url, capsys, monkeypatch):
    """500 vertices, under the cap, whose make_valid runs for minutes: the
    repair is stopped at its budget (1 s here, 10 s in use), not waited for."""
    monkeypatch.setattr(bounds, "REPAIR_SECONDS", 1.0)
    path = _town_with_s3(tmp_path / "saugus.gpkg", _scribble(500))
    ended = _import(capsys, url, path)
    assert ended.code == 0, ended.err
    assert "LOC_ID L_S3: invalid, and its repair takes more than 1 second" in ended.out
    (layer,) = _layers(url)
    assert layer.parcels == 28


def test_a_repair_over_its_memory_is_refused_and_the_other_invalid_polygons_are_repaired():
    bow = shapely.Polygon([(0, 0), (1, 1), (1, 0), (0, 1)])  # a bow tie: invalid, repaired into two triangles
    fixed, refused = bounds.repair(np.array([bow, _scribble(20_000), bow], dtype=object), seconds=60, memory_mb=20)
    assert [r.index for r in refused] == [1]
    assert refused[0].why == "its repair needs more than 20 MB"
    assert fixed[1] is None
    assert fixed[0].is_valid and fixed[2].is_valid and fixed[0].area == pytest.approx(0.5)


def test_an_ordinary_invalid_parcel_is_still_repaired(tmp_path, url, capsys):
    x, y = parcelkit.X0 + 40, parcelkit.Y0
    bow = shapely.Polygon([(x, y), (x + 20, y + 30), (x + 20, y), (x, y + 30)])
    ended = _import(capsys, url, _town_with_s3(tmp_path / "saugus.gpkg", bow))
    assert ended.code == 0, ended.err
    assert "29 parcels" in ended.out and "1 invalid polygon(s) repaired" in ended.out and "refused" not in ended.out


@pytest.mark.parametrize("cut", [0.05, 0.5, 0.8])
def test_a_shapefile_cut_short_and_padded_with_zeros_is_one_line(tmp_path, url, capsys, cut):
    """The issue's file: the .shp truncated and padded back to its length
    with zeros; GEOS met a ring that does not close and raised."""
    s3 = shapely.box(parcelkit.X0 + 40, parcelkit.Y0, parcelkit.X0 + 60, parcelkit.Y0 + 30).segmentize(0.05)
    folder = _town_with_s3(tmp_path / "M262", s3, driver="shapefile")
    shp = folder / "M262TaxPar.shp"
    data = shp.read_bytes()
    keep = int(len(data) * cut)
    shp.write_bytes(data[:keep] + b"\0" * (len(data) - keep))
    ended = _import(capsys, url, folder)
    line = assert_one_line(ended, "parcels layer M262TaxPar: feature", "nothing was imported")
    assert "damaged" in line or "has no geometry" in line
    assert _layers(url) == []


def test_the_shapefile_cut_inside_a_ring_names_the_damage(tmp_path, url, capsys):
    s3 = shapely.box(parcelkit.X0 + 40, parcelkit.Y0, parcelkit.X0 + 60, parcelkit.Y0 + 30).segmentize(0.05)
    folder = _town_with_s3(tmp_path / "M262", s3, driver="shapefile")
    shp = folder / "M262TaxPar.shp"
    data = shp.read_bytes()
    shp.write_bytes(data[: len(data) // 2] + b"\0" * (len(data) - len(data) // 2))
    ended = _import(capsys, url, folder)
    assert_one_line(
        ended, "feature 3 (LOC_ID L_S3) has a geometry that cannot be read", "the file is damaged", "download it again"
    )


def test_a_download_over_the_size_cap_is_refused_naming_it(tmp_path, url, capsys, monkeypatch):
    monkeypatch.setattr(bounds, "MAX_FILE_MB", 1)
    path = _town_with_s3(tmp_path / "big.gpkg", _scribble(100_000))  # 1.7 MB
    ended = _import(capsys, url, path)
    assert_one_line(ended, f"parcels {path}: 2 MB, over the 1 MB a parcel download may be", "nothing was imported")
    assert _layers(url) == []
