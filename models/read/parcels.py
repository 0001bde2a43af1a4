"""The assessors' parcels in the store, read: the current layers, the rows
an abutter search is built from, finding a parcel by address or id, the
filings' parcels for the map, and where a filing's abutter list came from.
A town's import replacing its parcels is :mod:`models.store.parcels`.

Plain values in and out (WKB bytes, text, numbers): the geometry is
:mod:`parcels`' work, the rules of who may see what are the web's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import and_, func, null, or_, select

from models.handle import Store
from models.schema.parcel_tables import AbutterList, ParcelLayer, ParcelOwnerRow, ParcelRow

__all__ = [
    "Layer",
    "FoundParcel",
    "PARCEL_COLUMNS",
    "OWNER_COLUMNS",
    "current_layers",
    "layers_version",
    "all_layers",
    "index_rows",
    "find",
    "parcel",
    "owners_of",
    "outlines",
    "in_box",
    "located",
    "abutter_source",
    "utc_naive",
    "SOURCE_FIELDS",
]

LAYER, PARCEL, OWNER, SOURCE = ParcelLayer.__table__, ParcelRow.__table__, ParcelOwnerRow.__table__, AbutterList.__table__
#: a parcel row's columns, in the order :func:`replace_layer` takes them
PARCEL_COLUMNS = (
    "loc_id",
    "map_par_id",
    "poly_type",
    "site_addr",
    "geometry",
    "wgs84",
    "lon",
    "lat",
    "minx",
    "miny",
    "maxx",
    "maxy",
)
#: an owner row's columns, in the order :func:`replace_layer` takes them
OWNER_COLUMNS = ("loc_id", "prop_id", "site_addr", "site_key", "name", "street", "city", "state", "zip")
#: what :func:`abutter_source` answers and ``workbench.replace_abutters(source=)`` takes
SOURCE_FIELDS = (
    "source",
    "file_name",
    "layer_id",
    "town",
    "fiscal_year",
    "loc_id",
    "parcel",
    "rule",
    "parcels",
    "made_by",
    "made_at",
)
LAYER_COLUMNS = ("id", "town", "fiscal_year", "source", "parcels", "owners", "imported_at", "imported_by", "replaced_at")


@dataclass(frozen=True)
class Layer:
    """One import of a town's parcels."""

    id: int
    town: str
    fiscal_year: int
    source: str
    parcels: int
    owners: int
    imported_at: datetime
    imported_by: str
    replaced_at: datetime | None


@dataclass(frozen=True)
class FoundParcel:
    """A parcel found by address or id, with its owners (name, street, city, state, zip)."""

    town: str
    loc_id: str
    map_par_id: str
    site_addr: str
    lon: float
    lat: float
    fiscal_year: int
    owners: tuple[tuple[str, str, str, str, str], ...]


def utc_naive(moment: datetime) -> datetime:
    """A moment as the parcel tables keep it: UTC, without its zone."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def _layer(row) -> Layer:
    return Layer(*row)


def _layers(store: Store, *where) -> list[Layer]:
    query = select(*[LAYER.c[n] for n in LAYER_COLUMNS]).where(*where).order_by(LAYER.c.town, LAYER.c.id)
    with store.reader.connect() as conn:
        return [_layer(r) for r in conn.execute(query)]


def current_layers(store: Store, towns: Iterable[str] | None = None) -> list[Layer]:
    """Each town's current layer (of ``towns``, or every town), by town."""
    where = [LAYER.c.replaced_at.is_(None)]
    if towns is not None:
        where.append(LAYER.c.town.in_(list(towns)))
    return _layers(store, *where)


def layers_version(store: Store) -> tuple[int, int]:
    """What the current layers are a function of: (how many imports were
    ever made, the last one's id).  Layers are only ever added, each import
    adding one and marking the one it replaces in the same transaction
    (:func:`replace_layer`), so the count grows with every import committed,
    in whatever order they commit; while it is the same, what a process
    read of the current layers still holds.  One plain statement on a
    pooled connection, no statement to compile: a check each request can
    afford (read it before the layers, so they are never older than it)."""
    conn = store.reader.raw_connection()
    try:
        cursor = conn.cursor()
        try:
            cursor.execute("SELECT count(*), max(id) FROM parcel_layer")
            count, last = cursor.fetchone()
        finally:
            cursor.close()
    finally:
        conn.close()
    return int(count or 0), int(last or 0)


def all_layers(store: Store, town: str | None = None) -> list[Layer]:
    """Every import, the replaced ones too, by town and in the order made."""
    return _layers(store, *([LAYER.c.town == town] if town else []))


def index_rows(store: Store, layer: Layer, neighbours: Sequence[Layer], margin: float) -> tuple[list[tuple], dict]:
    """What an abutter search over ``layer`` is built from: its parcels and
    the parcels of the ``neighbours`` layers within ``margin`` metres of
    its extent, each (layer id, town, loc_id, map_par_id, poly_type,
    site_addr, geometry WKB); and the owners by (layer id, loc_id), each
    (name, street, city, state, zip), in the assessing table's order."""
    with store.reader.connect() as conn:
        extent = conn.execute(
            select(func.min(PARCEL.c.minx), func.min(PARCEL.c.miny), func.max(PARCEL.c.maxx), func.max(PARCEL.c.maxy)).where(
                PARCEL.c.layer_id == layer.id
            )
        ).first()
        columns = [PARCEL.c[n] for n in ("layer_id", "town", "loc_id", "map_par_id", "poly_type", "site_addr", "geometry")]
        wanted = [PARCEL.c.layer_id == layer.id]
        others = [n.id for n in neighbours if n.id != layer.id]
        if others and extent[0] is not None:
            x0, y0, x1, y1 = extent
            wanted.append(
                and_(
                    PARCEL.c.layer_id.in_(others),
                    PARCEL.c.maxx >= x0 - margin,
                    PARCEL.c.minx <= x1 + margin,
                    PARCEL.c.maxy >= y0 - margin,
                    PARCEL.c.miny <= y1 + margin,
                )
            )
        rows = [tuple(r) for r in conn.execute(select(*columns).where(or_(*wanted)).order_by(PARCEL.c.id))]
        ids = [layer.id, *others]
        owners: dict[tuple[int, str], list[tuple]] = {}
        query = (
            select(OWNER.c.layer_id, OWNER.c.loc_id, OWNER.c.name, OWNER.c.street, OWNER.c.city, OWNER.c.state, OWNER.c.zip)
            .where(OWNER.c.layer_id.in_(ids))
            .order_by(OWNER.c.id)
        )
        for lid, loc, *owner in conn.execute(query):
            owners.setdefault((lid, loc), []).append(tuple(owner))
    return rows, owners


def _found(conn, rows) -> list[FoundParcel]:
    """FoundParcels of (layer_id, town, loc_id, map_par_id, site_addr, lon, lat, fiscal_year) rows."""
    keys = [(r[0], r[2]) for r in rows]
    owners: dict[tuple[int, str], list[tuple]] = {}
    for lid in {k[0] for k in keys}:
        locs = [k[1] for k in keys if k[0] == lid]
        for chunk in range(0, len(locs), 500):
            query = (
                select(OWNER.c.loc_id, OWNER.c.name, OWNER.c.street, OWNER.c.city, OWNER.c.state, OWNER.c.zip)
                .where(OWNER.c.layer_id == lid, OWNER.c.loc_id.in_(locs[chunk : chunk + 500]))
                .order_by(OWNER.c.id)
            )
            for loc, *owner in conn.execute(query):
                owners.setdefault((lid, loc), []).append(tuple(owner))
    return [FoundParcel(r[1], r[2], r[3], r[4], r[5], r[6], r[7], tuple(owners.get((r[0], r[2]), ()))) for r in rows]


def _found_query():
    return select(
        PARCEL.c.layer_id,
        PARCEL.c.town,
        PARCEL.c.loc_id,
        PARCEL.c.map_par_id,
        PARCEL.c.site_addr,
        PARCEL.c.lon,
        PARCEL.c.lat,
        LAYER.c.fiscal_year,
    ).join(LAYER, and_(LAYER.c.id == PARCEL.c.layer_id, LAYER.c.replaced_at.is_(None)))


def find(store: Store, town: str, *, key: str, ident: str, limit: int) -> list[FoundParcel]:
    """The town's current parcels whose LOC_ID or map-lot id is ``ident``
    (exactly, any case), then those with an owner record whose site
    address key contains ``key`` (:func:`parcels.sites.site_key`), at most
    ``limit``, by map-lot id."""
    out: list[FoundParcel] = []
    with store.reader.connect() as conn:
        if ident:
            forms = sorted({ident, ident.upper()})
            exact = _found_query().where(PARCEL.c.town == town, or_(PARCEL.c.loc_id.in_(forms), PARCEL.c.map_par_id.in_(forms)))
            out = _found(conn, conn.execute(exact.limit(limit)).all())
        if key and len(out) < limit:
            like = "%" + key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            matching = select(OWNER.c.loc_id).where(
                OWNER.c.layer_id == PARCEL.c.layer_id,
                OWNER.c.loc_id == PARCEL.c.loc_id,
                OWNER.c.site_key.like(like, escape="\\"),
            )
            by_site = (
                _found_query()
                .where(PARCEL.c.town == town, matching.exists())
                .order_by(PARCEL.c.map_par_id, PARCEL.c.loc_id)
                .limit(limit)
            )
            seen = {p.loc_id for p in out}
            rows = [r for r in conn.execute(by_site).all() if r[2] not in seen]
            out += _found(conn, rows[: limit - len(out)])
    return out


def parcel(store: Store, town: str, ident: str) -> FoundParcel | None:
    """The town's current parcel whose LOC_ID, else map-lot id, is ``ident``."""
    found = find(store, town, key="", ident=ident, limit=2)
    exact = [p for p in found if p.loc_id == ident]
    return (exact or found or [None])[0]


def owners_of(store: Store, town: str, loc_ids: Sequence[str]) -> dict[str, tuple]:
    """The owners of these current parcels of the town, by LOC_ID."""
    with store.reader.connect() as conn:
        rows = conn.execute(_found_query().where(PARCEL.c.town == town, PARCEL.c.loc_id.in_(list(loc_ids)))).all()
        return {p.loc_id: p.owners for p in _found(conn, rows)}


def outlines(store: Store, pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str, str, bytes]]:
    """(town, loc_id, map_par_id, WGS84 WKB) of these current parcels, given as (town, loc_id)."""
    by_town: dict[str, list[str]] = {}
    for town, loc in pairs:
        by_town.setdefault(town, []).append(loc)
    out = []
    with store.reader.connect() as conn:
        for town, locs in by_town.items():
            for i in range(0, len(locs), 500):
                query = (
                    select(PARCEL.c.town, PARCEL.c.loc_id, PARCEL.c.map_par_id, PARCEL.c.wgs84)
                    .join(LAYER, and_(LAYER.c.id == PARCEL.c.layer_id, LAYER.c.replaced_at.is_(None)))
                    .where(PARCEL.c.town == town, PARCEL.c.loc_id.in_(locs[i : i + 500]))
                )
                out += [tuple(r) for r in conn.execute(query)]
    return out


def in_box(store: Store, towns: Sequence[str] | None, box: tuple[float, float, float, float], limit: int) -> list[tuple]:
    """(town, loc_id, map_par_id, poly_type, WGS84 WKB) of the current
    parcels of these towns (None: all) whose bounding box meets ``box``
    (State Plane minx, miny, maxx, maxy), at most ``limit``."""
    x0, y0, x1, y1 = box
    query = (
        select(PARCEL.c.town, PARCEL.c.loc_id, PARCEL.c.map_par_id, PARCEL.c.poly_type, PARCEL.c.wgs84)
        .join(LAYER, and_(LAYER.c.id == PARCEL.c.layer_id, LAYER.c.replaced_at.is_(None)))
        .where(PARCEL.c.maxx >= x0, PARCEL.c.minx <= x1, PARCEL.c.maxy >= y0, PARCEL.c.miny <= y1)
        .order_by(PARCEL.c.id)
        .limit(limit)
    )
    if towns is not None:
        query = query.where(PARCEL.c.town.in_(list(towns)))
    with store.reader.connect() as conn:
        return [tuple(r) for r in conn.execute(query)]


def _current_ids(conn, towns: Iterable[str]) -> dict[str, int]:
    rows = conn.execute(select(LAYER.c.town, LAYER.c.id).where(LAYER.c.replaced_at.is_(None), LAYER.c.town.in_(list(towns))))
    return dict(rows.all())


def _chunks(values: list, size: int = 500):
    for i in range(0, len(values), size):
        yield values[i : i + size]


def located(store: Store, sites: Sequence[tuple[str, str, str]], *, outline: bool = True) -> dict[tuple[str, str], tuple]:
    """Where each (town, parcel id, site key) is: the current parcel whose
    map-lot id or LOC_ID is the parcel id (as given, or in capitals), else
    one with an owner record at that site address.  {(town, parcel id in
    capitals or site key): (loc_id, map_par_id, lon, lat, WGS84 WKB)}, for
    those found (``outline`` False: None for the WKB, which is not read).  Each lookup an index's (``ix_parcel_town_map_par_id``,
    ``ix_parcel_town_loc_id``, ``ix_parcel_owner_layer_site_key``)."""
    found: dict[tuple[str, str], tuple] = {}
    columns = (PARCEL.c.loc_id, PARCEL.c.map_par_id, PARCEL.c.lon, PARCEL.c.lat)
    columns += (PARCEL.c.wgs84,) if outline else (null(),)
    with store.reader.connect() as conn:
        layers = _current_ids(conn, {s[0] for s in sites})
        for town, layer_id in sorted(layers.items()):
            given = {s[1] for s in sites if s[0] == town and s[1]}
            ids = sorted(given | {g.upper() for g in given})
            for name in ("map_par_id", "loc_id"):
                if name == "loc_id":  # only those no map-lot id matched
                    ids = [i for i in ids if (town, i.upper()) not in found]
                for chunk in _chunks(ids):
                    query = select(*columns).where(
                        PARCEL.c.town == town, PARCEL.c[name].in_(chunk), PARCEL.c.layer_id == layer_id
                    )
                    for row in conn.execute(query):
                        key = (row[1] if name == "map_par_id" else row[0]).upper()
                        found.setdefault((town, key), tuple(row))
            keys = sorted({s[2] for s in sites if s[0] == town and s[2] and (town, s[1].upper()) not in found})
            at: dict[str, str] = {}
            for chunk in _chunks(keys):
                query = select(OWNER.c.site_key, OWNER.c.loc_id).where(OWNER.c.layer_id == layer_id, OWNER.c.site_key.in_(chunk))
                for key, loc in conn.execute(query):
                    at.setdefault(key, loc)
            by_loc: dict[str, tuple] = {}
            for chunk in _chunks(sorted(set(at.values()))):
                query = select(*columns).where(PARCEL.c.town == town, PARCEL.c.loc_id.in_(chunk), PARCEL.c.layer_id == layer_id)
                by_loc.update((row[0], tuple(row)) for row in conn.execute(query))
            for key, loc in at.items():
                if loc in by_loc:
                    found.setdefault((town, key), by_loc[loc])
    return found


def abutter_source(store: Store, filing_id: str) -> dict | None:
    """Where the filing's abutter list came from (:data:`SOURCE_FIELDS`),
    or None when nothing says (no list, or one kept before parcels)."""
    with store.reader.connect() as conn:
        row = conn.execute(select(*[SOURCE.c[n] for n in SOURCE_FIELDS]).where(SOURCE.c.filing_id == filing_id)).first()
    return dict(zip(SOURCE_FIELDS, row)) if row is not None else None
