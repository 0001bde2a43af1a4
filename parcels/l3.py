"""MassGIS Level 3 assessors' parcels, read through pyogrio (GDAL).

A town's L3 download is a tax-parcel polygon layer (``M050TaxPar`` for
Canton, town 50: ``LOC_ID``, ``MAP_PAR_ID``, ``POLY_TYPE``...) and an
assessing table (``M050Assess``: ``PROP_ID``, ``LOC_ID``, ``SITE_ADDR``,
``OWNER1``, ``OWN_ADDR``, ``OWN_CITY``, ``OWN_STATE``, ``OWN_ZIP``, ``FY``...)
joined on ``LOC_ID``, in Massachusetts State Plane (EPSG:26986, metres).
:func:`read_l3` takes the folder of shapefiles (or one ``.shp`` of it, or
its ``.zip``), a GeoPackage or a file geodatabase (``.gdb``): GDAL opens
each as a dataset of layers.  The layers are found by their L3 names
(``*TaxPar``, ``*Assess``) unless named; a field named otherwise is mapped
(:class:`FieldMap`, ``--field OWN_ZIP=ZIPCODE``).

Whatever cannot be imported as it is (a layer not found, a field missing,
another projection, a layer or a parcel without geometry, no fiscal year)
is one :class:`~parcels.errors.ParcelFileError` naming it, raised before
anything is written.  :func:`write_l3` writes the same schema (the demo's
parcels, the tests' and the benchmarks').
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import shapely

from . import repair as _bounds
from .errors import ParcelFileError
from .repair import bounded, dataset_bytes, readable

__all__ = [
    "PARCEL_FIELDS",
    "ASSESS_FIELDS",
    "STATE_PLANE",
    "WAYS",
    "WATER",
    "FieldMap",
    "Owner",
    "L3Layer",
    "read_l3",
    "write_l3",
    "layer_names",
]

#: the tax-parcel layer's fields the engine reads (the L3 standard's names)
PARCEL_FIELDS = ("LOC_ID", "MAP_PAR_ID", "POLY_TYPE")
#: the assessing table's fields the engine reads; FY may instead be given
ASSESS_FIELDS = ("PROP_ID", "LOC_ID", "SITE_ADDR", "OWNER1", "OWN_ADDR", "OWN_CITY", "OWN_STATE", "OWN_ZIP", "FY")
#: Massachusetts State Plane, Mainland zone, metres: the L3 standard's
STATE_PLANE = 26986
#: the same projection on the later realisations of NAD83 (HARN, NSRS2007,
#: 2011): the same coordinates to a few centimetres
_SAME_PROJECTION = {STATE_PLANE, 2805, 3585, 6492}
#: the L3 polygon types that are a public or private way, and water
WAYS = ("ROW", "PRIV_ROW")
WATER = ("WATER",)
_POLYGONS = ("Polygon", "MultiPolygon", "Polygon Z", "MultiPolygon Z", "Polygon M", "MultiPolygon M")


@dataclass(frozen=True)
class FieldMap:
    """Which field of the file holds each L3 field: ``{L3 name: their name}``
    for those named otherwise (``--field OWN_ZIP=ZIPCODE``)."""

    names: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, pairs: Sequence[str]) -> FieldMap:
        out = {}
        known = set(PARCEL_FIELDS) | set(ASSESS_FIELDS)
        for pair in pairs:
            l3, sep, theirs = pair.partition("=")
            l3, theirs = l3.strip().upper(), theirs.strip()
            if not sep or not theirs or l3 not in known:
                raise ParcelFileError(f"--field {pair!r}: give L3NAME=THEIRS with an L3 name of {', '.join(sorted(known))}")
            out[l3] = theirs
        return cls(out)

    def name(self, l3: str) -> str:
        return self.names.get(l3, l3)


@dataclass(frozen=True)
class Owner:
    """One record of the assessing table: who owns a parcel and where they get mail."""

    loc_id: str
    prop_id: str
    site_addr: str
    name: str
    street: str
    city: str
    state: str
    zip: str


@dataclass
class L3Layer:
    """A town's parcels as read: one entry per polygon (``loc_id``,
    ``map_par_id``, ``poly_type``, ``geometry``: valid shapely polygons in
    EPSG:26986) and the assessing table's ``owners``."""

    source: str
    parcels_layer: str
    assess_layer: str
    crs: str
    fiscal_year: int
    loc_id: list[str]
    map_par_id: list[str]
    poly_type: list[str]
    geometry: np.ndarray
    owners: list[Owner]
    repaired: int = 0  # invalid polygons made valid (shapely.make_valid)
    unmatched: int = 0  # assessing records whose LOC_ID is on no polygon
    merged: int = 0  # polygons joined to another of the same LOC_ID (one parcel drawn in parts)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (LOC_ID, why) of the parcels left out

    def __len__(self) -> int:
        return len(self.loc_id)


def layer_names(path: str | Path) -> list[str]:
    """The layers of the dataset at ``path`` (a folder, .zip, .gpkg, .gdb)."""
    import pyogrio

    try:
        return [str(name) for name, _ in pyogrio.list_layers(str(path))]
    except Exception as exc:  # GDAL's DataSourceError and kin: the file is not a dataset
        why = _first_line(exc)
        if "not recognized as being in a supported file format" in why or "No such file" in why:
            why = "not a folder of shapefiles, a .zip of them, a GeoPackage or a file geodatabase"
        raise ParcelFileError(f"parcels {path}: cannot be read as parcels ({why})") from None


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _dataset(path: str | Path) -> tuple[str, str | None]:
    """The dataset GDAL opens for ``path``, and the parcels layer it names
    (a ``.shp`` names its own)."""
    p = Path(path)
    if not p.exists():
        raise ParcelFileError(f"parcels {p}: no such file or folder")
    if p.is_file() and p.suffix.lower() == ".shp":
        return str(p.parent), p.stem
    if p.is_file() and p.suffix.lower() == ".dbf":
        raise ParcelFileError(f"parcels {p}: a table, not the parcels' polygons; give the folder or its TaxPar .shp")
    return str(p), None


def _pick(layers: list[str], given: str | None, suffix: str, what: str, option: str, source: str) -> str:
    if given:
        found = [name for name in layers if name.lower() == given.lower()]
        if not found:
            raise ParcelFileError(f"parcels {source}: no {what} layer {given!r} (layers: {', '.join(layers) or 'none'})")
        return found[0]
    found = [name for name in layers if name.lower().endswith(suffix.lower())]
    if len(found) != 1:
        how = "none" if not found else f"{len(found)}: {', '.join(found)}"
        raise ParcelFileError(
            f"parcels {source}: {how} of its layers is named *{suffix} ({what}); name it with {option} "
            f"(layers: {', '.join(layers) or 'none'})"
        )
    return found[0]


def _columns(meta: dict, data: list, wanted: Sequence[str], fields: FieldMap, what: str, optional=()) -> dict[str, list]:
    names = [str(n) for n in meta["fields"]]
    lower = {n.lower(): i for i, n in enumerate(names)}
    out = {}
    for l3 in wanted:
        theirs = fields.name(l3)
        i = lower.get(theirs.lower())
        if i is None:
            if l3 in optional:
                continue
            raise ParcelFileError(
                f"{what}: no field {theirs}" + (f" (for {l3})" if theirs != l3 else "") + f" (fields: {', '.join(names)}); "
                f"map yours with --field {l3}=NAME"
            )
        out[l3] = [_text(v) for v in data[i]]
    return out


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if value != value:  # NaN: an empty numeric cell
            return ""
        if value.is_integer():
            return str(int(value))
    return str(value).strip()


def _check_crs(crs: str | None, what: str) -> str:
    from pyproj import CRS

    if not crs:
        raise ParcelFileError(
            f"{what}: no projection given (.prj missing): MassGIS Level 3 parcels are in "
            f"Massachusetts State Plane, EPSG:{STATE_PLANE}"
        )
    try:
        c = CRS.from_user_input(crs)
    except Exception as exc:  # pyproj's CRSError: a .prj it cannot read
        raise ParcelFileError(f"{what}: its projection cannot be read ({_first_line(exc)})") from None
    epsg = c.to_epsg(min_confidence=20)
    if epsg in _SAME_PROJECTION:
        return f"EPSG:{epsg}"
    code = f"EPSG:{epsg}" if epsg else "no EPSG code"
    raise ParcelFileError(
        f"{what}: in {c.name} ({code}), not Massachusetts State Plane in metres (EPSG:{STATE_PLANE}), the projection of "
        f"MassGIS Level 3 parcels; reproject it first (ogr2ogr -t_srs EPSG:{STATE_PLANE})"
    )


def _fiscal_year(values: list[str], given: int | None, what: str) -> int:
    if given is not None:
        if not 2000 <= given <= 2100:
            raise ParcelFileError(f"--fiscal-year {given}: a fiscal year, 2000-2100")
        return given
    years = set()
    for v in values:
        if not v:
            continue
        m = re.fullmatch(r"(?:FY)?\s*(\d{4})", v, re.I)
        if not m or not 2000 <= int(m[1]) <= 2100:
            raise ParcelFileError(f"{what}: FY {v!r} is not a fiscal year (2000-2100)")
        years.add(int(m[1]))
    if not years:
        raise ParcelFileError(f"{what}: no fiscal year in its FY field; give it with --fiscal-year YYYY")
    return max(years)


def _zip(text: str) -> str:
    return text.zfill(5) if re.fullmatch(r"\d{3,4}", text) else text  # a numeric cell drops New England's leading zero


def read_l3(
    path: str | Path,
    *,
    parcels_layer: str | None = None,
    assess_layer: str | None = None,
    fields: FieldMap | None = None,
    fiscal_year: int | None = None,
    repair_seconds: float | None = None,
) -> L3Layer:
    """The parcels and assessing records at ``path`` (see the module's
    docstring); ParcelFileError names what cannot be imported."""
    from pyogrio.raw import read

    fields = fields or FieldMap()
    dataset, named = _dataset(path)
    source = Path(path).name
    size = dataset_bytes(Path(dataset))
    cap = _bounds.MAX_FILE_MB
    if size > cap * 1024 * 1024:
        raise ParcelFileError(
            f"parcels {path}: {size / 1024 / 1024:,.0f} MB, over the {cap:,} MB a parcel download may be "
            "(a town's Level 3 layers are far less)"
        )
    layers = layer_names(dataset)
    parcels_name = _pick(layers, parcels_layer or named, "TaxPar", "parcels", "--parcels-layer", source)
    assess_name = _pick(layers, assess_layer, "Assess", "assessing", "--assess-layer", source)
    what = f"parcels layer {parcels_name}"
    try:
        with warnings.catch_warnings():  # GDAL's warnings (a ring not closed) are judged below, in one line
            warnings.simplefilter("ignore", RuntimeWarning)
            meta, _, wkb, data = read(dataset, layer=parcels_name)
    except Exception as exc:
        raise ParcelFileError(f"{what}: cannot be read ({_first_line(exc)})") from None
    if meta.get("geometry_type") is None or wkb is None:
        raise ParcelFileError(
            f"{what}: has no geometry (a table, not the parcels' polygons); name the polygons with --parcels-layer"
        )
    if meta["geometry_type"] not in _POLYGONS and meta["geometry_type"] != "Unknown":
        raise ParcelFileError(f"{what}: holds {meta['geometry_type']} geometry, not the parcels' polygons")
    crs = _check_crs(meta.get("crs"), what)
    cols = _columns(meta, data, PARCEL_FIELDS, fields, what)
    if not len(wkb):
        raise ParcelFileError(f"{what}: holds no parcels")
    geometry = readable(wkb, cols, what)
    missing = np.flatnonzero(shapely.is_missing(geometry) | shapely.is_empty(geometry))
    if len(missing):
        i = int(missing[0])
        raise ParcelFileError(
            f"{what}: feature {i + 1} (LOC_ID {cols['LOC_ID'][i] or '?'}) has no geometry"
            + (f", nor {len(missing) - 1} other(s)" if len(missing) > 1 else "")
        )
    kinds = shapely.get_type_id(geometry)
    if not np.isin(kinds, (3, 6)).all():  # Polygon, MultiPolygon
        i = int(np.flatnonzero(~np.isin(kinds, (3, 6)))[0])
        raise ParcelFileError(
            f"{what}: feature {i + 1} (LOC_ID {cols['LOC_ID'][i] or '?'}) is a {geometry[i].geom_type}, not a polygon"
        )
    cols, geometry, refused, repaired = bounded(cols, shapely.force_2d(geometry), what, repair_seconds)
    cols, geometry, merged = _one_per_loc_id(cols, geometry)
    assess_what = f"assessing table {assess_name}"
    try:
        ameta, _, _, adata = read(dataset, layer=assess_name, read_geometry=False)
    except Exception as exc:
        raise ParcelFileError(f"{assess_what}: cannot be read ({_first_line(exc)})") from None
    optional = ("FY",) if fiscal_year is not None else ()
    acols = _columns(ameta, adata, ASSESS_FIELDS, fields, assess_what, optional=optional + ("PROP_ID",))
    year = _fiscal_year(acols.get("FY", []), fiscal_year, assess_what)
    n = len(next(iter(acols.values()))) if acols else 0
    prop = acols.get("PROP_ID", [""] * n)
    on_polygon = set(cols["LOC_ID"]) - {""}
    owners, unmatched = [], 0
    for i in range(n):
        loc = acols["LOC_ID"][i]
        if loc not in on_polygon:
            unmatched += 1
            continue
        owners.append(
            Owner(
                loc,
                prop[i],
                acols["SITE_ADDR"][i],
                acols["OWNER1"][i],
                acols["OWN_ADDR"][i],
                acols["OWN_CITY"][i],
                acols["OWN_STATE"][i].upper(),
                _zip(acols["OWN_ZIP"][i]),
            )
        )
    return L3Layer(
        source,
        parcels_name,
        assess_name,
        crs,
        year,
        cols["LOC_ID"],
        cols["MAP_PAR_ID"],
        [t.upper() for t in cols["POLY_TYPE"]],
        geometry,
        owners,
        repaired,
        unmatched,
        merged,
        refused,
    )


def _one_per_loc_id(cols: dict[str, list], geometry: np.ndarray) -> tuple[dict[str, list], np.ndarray, int]:
    """One entry per LOC_ID: the polygons of a LOC_ID drawn in parts are
    joined (an empty LOC_ID, a way or water without one, stays apart)."""
    first: dict[str, int] = {}
    extra: dict[int, list[int]] = {}
    for i, loc in enumerate(cols["LOC_ID"]):
        if not loc:
            continue
        j = first.setdefault(loc, i)
        if j != i:
            extra.setdefault(j, []).append(i)
    if not extra:
        return cols, geometry, 0
    drop = {i for more in extra.values() for i in more}
    for j, more in extra.items():
        geometry[j] = shapely.union_all(geometry[[j, *more]])
    keep = [i for i in range(len(geometry)) if i not in drop]
    return {k: [v[i] for i in keep] for k, v in cols.items()}, geometry[keep], len(drop)


_DRIVERS = {"shapefile": "ESRI Shapefile", "gpkg": "GPKG", "gdb": "OpenFileGDB"}


def write_l3(
    target: str | Path,
    town_number: int,
    parcels: Sequence[tuple[str, str, str, object]],
    assess: Sequence[Owner],
    *,
    fiscal_year: int,
    driver: str = "shapefile",
    crs: str = f"EPSG:{STATE_PLANE}",
) -> Path:
    """Write an L3 download: ``parcels`` as (LOC_ID, MAP_PAR_ID, POLY_TYPE,
    shapely polygon) and the ``assess`` records, as ``M{nnn}TaxPar`` and
    ``M{nnn}Assess`` in the folder ``target`` (``shapefile``), or the
    GeoPackage or file geodatabase ``target`` (``gpkg``, ``gdb``).  The
    path the reader takes."""
    from pyogrio.raw import write

    target = Path(target)
    stem = f"M{town_number:03d}"
    obj = lambda values: np.array(list(values), dtype=object)  # noqa: E731
    geometry = shapely.to_wkb(np.array([p[3] for p in parcels], dtype=object))
    pfields = list(PARCEL_FIELDS) + ["TOWN_ID"]
    pdata = [obj(p[0] for p in parcels), obj(p[1] for p in parcels), obj(p[2] for p in parcels)]
    pdata.append(np.full(len(parcels), town_number, dtype=np.int32))
    afields = list(ASSESS_FIELDS) + ["TOWN_ID"]
    adata = [
        obj(a.prop_id for a in assess),
        obj(a.loc_id for a in assess),
        obj(a.site_addr for a in assess),
        obj(a.name for a in assess),
        obj(a.street for a in assess),
        obj(a.city for a in assess),
        obj(a.state for a in assess),
        obj(a.zip for a in assess),
        np.full(len(assess), fiscal_year, dtype=np.int32),
        np.full(len(assess), town_number, dtype=np.int32),
    ]
    gdal = _DRIVERS[driver]
    if driver == "shapefile":
        target.mkdir(parents=True, exist_ok=True)
        write(str(target / f"{stem}TaxPar.shp"), geometry, pdata, pfields, crs=crs, driver=gdal, geometry_type="Polygon")
        write(str(target / f"{stem}Assess.dbf"), None, adata, afields, driver=gdal, geometry_type=None)
        return target
    multi = driver == "gdb" or any(p[3].geom_type == "MultiPolygon" for p in parcels)
    geometry_type = "MultiPolygon" if multi else "Polygon"
    write(str(target), geometry, pdata, pfields, layer=f"{stem}TaxPar", crs=crs, driver=gdal, geometry_type=geometry_type)
    write(str(target), None, adata, afields, layer=f"{stem}Assess", driver=gdal, geometry_type=None)
    return target
