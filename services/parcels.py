"""The assessors' parcels: import a town's (``permits parcels import``), list
the imports, find a parcel by address or id (the site picker of the
new-filing and apply forms, ``permits parcels find``), check a filing's
site against them, and the in-memory index an abutter search runs on.

The index of a town (its parcels and the nearby parcels of every other
imported town, in an STRtree) is built from the store once per set of
current layers and kept for the process: an import makes a new layer, so
the next search builds a new index; nothing else changes a layer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from services.sweep import Progress

__all__ = [
    "ImportResult",
    "SiteMatch",
    "import_parcels",
    "parcel_layers",
    "find_parcels",
    "site_match",
    "town_index",
    "town_time",
    "TOWN_ZONE",
    "NEIGHBOUR_MARGIN_M",
    "FIND_LIMIT",
]

#: the towns' zone: every moment is shown in it
TOWN_ZONE = "America/New_York"
#: other towns' parcels this close to a town's extent go into its index
#: (metres): more than any rule reaches across a town line
NEIGHBOUR_MARGIN_M = 1000.0
FIND_LIMIT = 10
_CACHE_SIZE = 4
_cache: OrderedDict[tuple, object] = OrderedDict()
_cache_lock = threading.Lock()
#: each store's current layers as last read, with the layers_version they were read at
_layers: dict[str, tuple[tuple[int, int], list]] = {}


@dataclass(frozen=True)
class ImportResult:
    """What an import did: the new layer, the one it replaced (or None),
    and what was noticed on the way."""

    layer: object  # models.read.parcels.Layer
    replaced: object | None
    parcels_layer: str
    assess_layer: str
    repaired: int
    unmatched: int
    merged: int
    refused: tuple[tuple[str, str], ...] = ()  # (LOC_ID, why) of the parcels left out (parcels/repair.py)

    def summary(self) -> str:
        layer = self.layer
        text = (
            f"{layer.town}: {layer.parcels:,} parcels and {layer.owners:,} assessing records of FY{layer.fiscal_year} "
            f"imported from {layer.source} ({self.parcels_layer}, {self.assess_layer})"
        )
        if self.replaced is not None:
            text += f", replacing FY{self.replaced.fiscal_year}'s ({self.replaced.parcels:,} parcels)"
        notes = []
        if self.repaired:
            notes.append(f"{self.repaired} invalid polygon(s) repaired")
        if self.merged:
            notes.append(f"{self.merged} polygon(s) joined to another part of their LOC_ID")
        if self.unmatched:
            notes.append(f"{self.unmatched} assessing record(s) on no polygon left out")
        if self.refused:
            shown = "; ".join(f"LOC_ID {loc}: {why}" for loc, why in self.refused[:5])
            more = f"; and {len(self.refused) - 5} more" if len(self.refused) > 5 else ""
            notes.append(f"{len(self.refused)} parcel(s) refused and left out ({shown}{more})")
        return text + (f"; {'; '.join(notes)}" if notes else "")


def town_time(moment: datetime | None) -> str:
    """A stamp kept in UTC (naive or aware) as the town's clock reads it:
    ``2026-12-03 10:00``."""
    from datetime import UTC
    from zoneinfo import ZoneInfo

    if moment is None:
        return ""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(ZoneInfo(TOWN_ZONE)).strftime("%Y-%m-%d %H:%M")


def _town(town_id: str):
    from workflows.towns import town

    return town(town_id)


def import_parcels(
    store,
    path: str,
    *,
    town: str,
    by: str,
    now: datetime,
    parcels_layer: str | None = None,
    assess_layer: str | None = None,
    fields: Sequence[str] = (),
    fiscal_year: int | None = None,
    say: Callable[[str], None] = lambda text: None,
    progress: Progress | None = None,
) -> ImportResult:
    """Read the L3 layers at ``path`` (:func:`parcels.l3.read_l3`) and make
    them the town's parcels, in one transaction (a newer fiscal year, or the
    same one, replaces the current parcels; an older one is refused).
    ParcelFileError, OlderParcels or StaleParcels name what is wrong, with
    nothing written.  ``say`` is told each stage as it starts;
    ``progress`` (:class:`services.sweep.Progress`) counts the parcels
    written."""
    import shapely

    from models.read import parcels as stored
    from parcels.geo import inside_points, to_wgs84
    from parcels.l3 import FieldMap, read_l3
    from parcels.sites import site_key

    _town(town)
    say(f"Reading the parcels and the assessing table at {path}...")
    layer = read_l3(
        path, parcels_layer=parcels_layer, assess_layer=assess_layer, fields=FieldMap.parse(fields), fiscal_year=fiscal_year
    )
    current = stored.current_layers(store, [town])
    geometry = layer.geometry
    say(f"Read {len(layer.loc_id):,} parcels and {len(layer.owners):,} owners; projecting them to WGS84 for the map...")
    wkb = shapely.to_wkb(geometry)
    wgs84 = shapely.to_wkb(to_wgs84(geometry))
    points = inside_points(geometry)
    bounds = shapely.bounds(geometry)
    site: dict[str, str] = {}
    for o in layer.owners:
        site.setdefault(o.loc_id, o.site_addr)
    rows = [
        (
            loc,
            layer.map_par_id[i],
            layer.poly_type[i],
            site.get(loc, ""),
            wkb[i],
            wgs84[i],
            *points[i].tolist(),
            *bounds[i].tolist(),
        )
        for i, loc in enumerate(layer.loc_id)
    ]
    owners = [
        (o.loc_id, o.prop_id, o.site_addr, site_key(o.site_addr), o.name, o.street, o.city, o.state, o.zip) for o in layer.owners
    ]
    fields_of_layer = {
        "fiscal_year": layer.fiscal_year,
        "source": layer.source,
        "parcels_layer": layer.parcels_layer,
        "assess_layer": layer.assess_layer,
        "crs": layer.crs,
    }
    if progress is not None:
        progress.start(len(rows))
    from models.store.parcels import replace_layer

    from .unit_of_work import UnitOfWork

    with UnitOfWork(store) as uow:
        made, replaced = replace_layer(
            uow.conn,
            town,
            fields_of_layer,
            rows,
            owners,
            by=by,
            now=now,
            expect_current=current[0].id if current else None,
            progress=progress.update if progress is not None else None,
        )
    return ImportResult(
        made,
        replaced,
        layer.parcels_layer,
        layer.assess_layer,
        layer.repaired,
        layer.unmatched,
        layer.merged,
        tuple(layer.refused),
    )


def parcel_layers(store, *, town: str | None = None, replaced: bool = False) -> list:
    """The current layer of each town (or of ``town``); ``replaced``: every
    import, the replaced ones too."""
    from models.read import parcels as stored

    if town is not None:
        _town(town)
    if replaced:
        return stored.all_layers(store, town)
    return stored.current_layers(store, None if town is None else [town])


def find_parcels(store, town: str, text: str, *, limit: int = FIND_LIMIT) -> list:
    """The town's current parcels whose LOC_ID or map-lot id is ``text``,
    then those whose site address contains it (``models.read.parcels.FoundParcel``)."""
    from models.read import parcels as stored
    from parcels.sites import site_key

    _town(town)
    text = (text or "").strip()[:200]
    if not text:
        return []
    return stored.find(store, town, key=site_key(text), ident=text, limit=max(1, min(limit, 50)))


@dataclass(frozen=True)
class SiteMatch:
    """A filing's site against the town's parcels: ``parcel`` the one it
    names (by id, else by address), None when none matches; ``checked``
    False when the town has no parcels to check against."""

    checked: bool
    parcel: object | None  # models.read.parcels.FoundParcel
    fiscal_year: int | None

    @property
    def warning(self) -> str | None:
        if not self.checked or self.parcel is not None:
            return None
        return (
            f"This site matches no parcel of the assessors' FY{self.fiscal_year} parcels: "
            "check the address and the map-lot id against the assessors' map."
        )


def site_match(store, town: str, *, address: str | None, parcel: str | None) -> SiteMatch:
    """Which current parcel of the town a site names: its parcel id (LOC_ID
    or map-lot id), else its address."""
    from models.read import parcels as stored
    from parcels.sites import site_key

    layers = stored.current_layers(store, [town])
    if not layers:
        return SiteMatch(False, None, None)
    found = stored.parcel(store, town, parcel.strip()) if parcel and parcel.strip() else None
    if found is None and address and site_key(address):
        key = site_key(address)
        found = next((p for p in stored.find(store, town, key=key, ident="", limit=5) if _same_site(p, key)), None)
    return SiteMatch(True, found, layers[0].fiscal_year)


def _same_site(found, key: str) -> bool:
    """The parcel's site address is ``key``, or a unit of it (``31 MAIN ST UNIT 2``)."""
    from parcels.sites import site_key

    site = site_key(found.site_addr)
    return site == key or site.startswith(key + " ")


def town_index(store, town: str):
    """(the town's ParcelIndex, its current layer): its parcels and those of
    every other town within :data:`NEIGHBOUR_MARGIN_M`, built once per set
    of current layers.  NoParcels when the town has none imported."""
    from parcels.errors import NoParcels

    _town(town)
    layers = _current_layers(store)
    mine = next((layer for layer in layers if layer.town == town), None)
    if mine is None:
        raise NoParcels(town)
    key = (store.url, mine.id, tuple(sorted(layer.id for layer in layers)))
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found, mine
    built = _build(store, mine, layers)
    with _cache_lock:
        _cache[key] = built
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return built, mine


def _current_layers(store) -> list:
    """Every town's current layer, read again only when an import was made
    since (models.read.parcels.layers_version: one cheap statement)."""
    from models.read import parcels as stored

    version = stored.layers_version(store)
    with _cache_lock:
        seen = _layers.get(store.url)
    if seen is not None and seen[0] == version:
        return seen[1]
    layers = stored.current_layers(store)
    with _cache_lock:
        _layers[store.url] = (version, layers)
        while len(_layers) > 4 * _CACHE_SIZE:
            _layers.pop(next(iter(_layers)))
    return layers


def _build(store, mine, layers):
    from models.read import parcels as stored
    from parcels.index import IndexedParcel, ParcelIndex, ParcelOwner

    rows, owners = stored.index_rows(store, mine, layers, NEIGHBOUR_MARGIN_M)
    years = {layer.id: layer.fiscal_year for layer in layers}
    parcels, wkb, owned = [], [], []
    for layer_id, town, loc, map_par, poly_type, site, geometry in rows:
        parcels.append(IndexedParcel(town, loc, map_par, poly_type, site, years[layer_id], layer_id))
        wkb.append(geometry)
        owned.append(tuple(ParcelOwner(*o) for o in owners.get((layer_id, loc), ())))
    return ParcelIndex(parcels, wkb, owned)
