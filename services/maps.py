"""The workbench map's GeoJSON: the filings a user may see, filtered as the
filings list is, each on its parcel (a point below
:data:`parcels.geo.OUTLINE_ZOOM`, the parcel's outline from it up,
simplified for the zoom), coloured by kind and status in the browser; and
a filing's own map, its parcel and its abutters' parcels.

A filing is placed by the parcel it names (map-lot id or LOC_ID), else by
its site address, on the town's current parcels; a filing placed by
neither is counted, not drawn.  Geometry is the WGS84 kept at import
(models/read/parcels.py): nothing is projected when a map is asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

__all__ = ["MapFeatures", "filings_map", "filing_map", "parcels_in_view", "MAP_LIMIT", "BACKGROUND_LIMIT", "STATUSES"]

#: the most filings one map draws (the list pages its results; a map cannot)
MAP_LIMIT = 5000
#: the most parcels drawn as a map's background
BACKGROUND_LIMIT = 4000
#: the map's status filter: every filing, those with a deadline to act on, the overdue
STATUSES = ("", "open", "overdue")
#: a filing's feature's properties, in this order
PROPERTIES = ("id", "url", "kind", "kind_label", "state", "status", "site", "parcel")


@dataclass(frozen=True)
class MapFeatures:
    """The GeoJSON text, how many filings it draws, how many matched but
    could not be placed, and whether the filings were more than the map draws."""

    geojson: str
    drawn: int
    unplaced: int
    truncated: bool = False


def _status(next_date: date | None, as_of: date) -> str:
    if next_date is None:
        return "none"
    return "overdue" if next_date < as_of else "due"


def _geometries(found: Sequence[tuple], outline: bool):
    import numpy as np
    import shapely

    if outline:
        return shapely.from_wkb(np.array([f[4] for f in found], dtype=object))
    return shapely.points(np.array([[f[2], f[3]] for f in found], dtype=float).reshape(-1, 2))


def filings_map(
    store,
    *,
    towns: Sequence[str] | None,
    kinds: Sequence[str],
    as_of: date,
    zoom: int,
    text: str = "",
    state: str | None = None,
    status: str = "",
    labels: Mapping[str, str] | None = None,
) -> MapFeatures:
    """The filings of these towns (None: all) and kinds whose id, address,
    parcel or applicant matches ``text`` (as the filings list matches), in
    ``state``; ``status`` ``open`` keeps those with a deadline to act on,
    ``overdue`` those whose next deadline is before ``as_of``.  Each
    feature's properties: id, url, kind (and ``kind_label`` from
    ``labels``), state, status (``overdue``, ``due`` or ``none``), site,
    parcel."""
    from models.read import parcels as stored
    from models.read.map_sites import map_sites
    from parcels.geo import OUTLINE_ZOOM, feature_collection, point_rows, tolerance_for_zoom
    from parcels.sites import site_key

    outline = zoom >= OUTLINE_ZOOM
    rows, more = map_sites(store, towns=towns, kinds=kinds, text=text, state=state, limit=MAP_LIMIT, outline=outline)
    if status == "open":
        rows = [r for r in rows if r.next_deadline_date is not None]
    elif status == "overdue":
        rows = [r for r in rows if r.next_deadline_date is not None and r.next_deadline_date < as_of]
    ids = [(r.town, (r.parcel or "").strip()) for r in rows]
    # the parcel the query joined, where its id was written as the look-up asks for it (stripped, in capitals);
    # every other filing looked up by its id as given or in capitals, then its LOC_ID, then its address
    found_at: dict[tuple[str, str], tuple] = {}
    others = []  # the filings the query placed on no parcel
    for i, (r, key) in enumerate(zip(rows, ids)):
        if r.where is not None and r.parcel == key[1] == key[1].upper():
            found_at.setdefault(key, r.where)
        else:
            others.append(i)
    rest = [(ids[i][0], ids[i][1], "") for i in others if (ids[i][0], ids[i][1].upper()) not in found_at]
    if rest:
        found_at.update(stored.located(store, rest, outline=outline))
    # the site address only for the filings their parcel id did not place
    unplaced = {i: site_key(rows[i].address) for i in others if (ids[i][0], ids[i][1].upper()) not in found_at}
    if unplaced:
        found_at.update(stored.located(store, [(rows[i].town, "", key) for i, key in unplaced.items() if key], outline=outline))
    found, properties = [], []
    from workflows.stage import stage_name

    label_of = (labels or {}).get
    for i, (r, (town, parcel)) in enumerate(zip(rows, ids)):
        where = found_at.get((town, parcel.upper())) if i not in unplaced else found_at.get((town, unplaced[i]))
        if where is None:
            continue
        found.append(where)
        properties.append(
            (
                r.id,
                f"/filings/{r.id}",
                r.kind,
                label_of(r.kind, r.kind),
                stage_name(r.kind, r.state),  # the stage in people's words (workflows/stage.py)
                _status(r.next_deadline_date, as_of),
                r.address or "",
                where[1] or where[0],
            )
        )
    if outline:
        geometries = _geometries(found, outline) if found else []
        text_out = feature_collection(
            geometries, [dict(zip(PROPERTIES, p)) for p in properties], tolerance=tolerance_for_zoom(zoom)
        )
    else:  # the point kept at import for each: written with the properties from one template
        text_out = point_rows([(f[2], f[3]) for f in found], PROPERTIES, properties)
    return MapFeatures(text_out, len(found), len(rows) - len(found), more)


def filing_map(store, filing_id: str) -> MapFeatures:
    """A filing's parcel (``role`` ``site``) and its abutters' parcels
    (``role`` ``abutter``): those the list computed from the parcels named,
    else those of an uploaded list found among the town's parcels by their
    ids.  Outlines, not simplified."""
    import numpy as np
    import shapely

    from models.read import parcels as stored
    from models.read import workbench
    from parcels.geo import feature_collection
    from parcels.sites import site_key

    summary = workbench.summary(store, filing_id)
    parcel = (summary.parcel or "").strip()
    key = site_key(summary.address)
    site = stored.located(store, [(summary.town, parcel, key)])
    where = site.get((summary.town, parcel.upper())) if parcel else None
    where = where or site.get((summary.town, key))
    shapes, properties = [], []
    if where is not None:
        shapes.append(where[4])
        properties.append({"role": "site", "label": where[1] or where[0], "id": filing_id})
    source = stored.abutter_source(store, filing_id)
    listed: list[tuple[str, str]] = []
    if source is not None and source["source"] == "parcels" and source.get("parcels"):
        listed = [tuple(p) for p in source["parcels"]]
        for town, loc, map_par, wkb in stored.outlines(store, listed):
            shapes.append(wkb)
            properties.append({"role": "abutter", "label": map_par or loc, "town": town})
    else:
        ids = sorted(
            {p for row in workbench.abutters(store, filing_id) for p in (row.get("parcels") or [row.get("parcel")]) if p}
        )
        found = stored.located(store, [(summary.town, p, "") for p in ids])
        seen = set()
        for p in ids:
            hit = found.get((summary.town, p.upper()))
            if hit is not None and hit[0] not in seen and (where is None or hit[0] != where[0]):
                seen.add(hit[0])
                shapes.append(hit[4])
                properties.append({"role": "abutter", "label": hit[1] or hit[0], "town": summary.town})
    geometries = shapely.from_wkb(np.array(shapes, dtype=object)) if shapes else []
    return MapFeatures(feature_collection(geometries, properties), len(shapes), 0 if where is not None else 1)


def parcels_in_view(store, *, towns: Sequence[str] | None, box: tuple[float, float, float, float], zoom: int) -> MapFeatures:
    """The background of a map with no basemap: the outlines of these
    towns' parcels (None: all) in the longitude and latitude ``box`` (west,
    south, east, north), from :data:`parcels.geo.BACKGROUND_ZOOM` up (none
    below it: too many to draw), simplified for the zoom.  Properties: the
    map-lot id and the L3 polygon type (``ROW``, ``WATER``...)."""
    import numpy as np
    import shapely

    from models.read import parcels as stored
    from parcels.geo import BACKGROUND_ZOOM, box_to_state_plane, feature_collection, tolerance_for_zoom

    west, south, east, north = box
    if zoom < BACKGROUND_ZOOM or not (-180 <= west < east <= 180 and -90 <= south < north <= 90):
        return MapFeatures(feature_collection([], []), 0, 0)
    rows = stored.in_box(store, towns, box_to_state_plane(west, south, east, north), BACKGROUND_LIMIT + 1)
    truncated = len(rows) > BACKGROUND_LIMIT
    rows = rows[:BACKGROUND_LIMIT]
    geometries = shapely.from_wkb(np.array([r[4] for r in rows], dtype=object)) if rows else []
    properties = [{"label": r[2] or r[1], "type": r[3]} for r in rows]
    return MapFeatures(feature_collection(geometries, properties, tolerance=tolerance_for_zoom(zoom)), len(rows), 0, truncated)
