"""The workbench's map: the user's filings on the assessors' parcels,
filtered as the Filings list is (search, kind, town, state) and by status
(a deadline to act on, overdue), each linking to its filing; the parcels
in view as its background when no tile server is set
(``PERMITS_MAP_TILES_URL``); and a filing's own map, its parcel and its
abutters' parcels.

The page is HTML with a ``data-`` attribute per URL and setting; the map
itself is Leaflet (vendored in web/static with its licence) driven by
web/static/map.js: no inline script, nothing from a CDN.  The GeoJSON
routes answer only within the user's role and towns: another town's
parcels or filings are a 404, never a 403.
"""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from starlette.datastructures import QueryParams

from config import Settings
from models.types import User

from ..deps import SettingsDep, StaffUser, StoreDep, Today
from ..forms import KIND_LABELS
from ..render import render
from ..values import coordinate, number_or
from .filing_pages import visible_filing

__all__ = ["router", "GEOJSON", "DEFAULT_ZOOM"]

router = APIRouter()
GEOJSON = "application/geo+json"
DEFAULT_ZOOM = 14
_STATUS_WORDS = {"": "any", "open": "a deadline to act on", "overdue": "overdue"}


def _int(text: str | None, default: int, lo: int, hi: int) -> int:
    return number_or(text, default, lo, hi)


def _filters(q: QueryParams) -> dict:
    """The map's filters, as the Filings list reads them (the user's scope
    narrows them: :func:`_scope`)."""
    from services.maps import STATUSES

    status = q.get("status") or ""
    return {
        "q": q.get("q", "")[:200],
        "kind": q.get("kind") or "",
        "town": q.get("town") or "",
        "state": q.get("state", "")[:60],
        "status": status if status in STATUSES else "",
    }


def _scope(user: User, town: str, kind: str) -> tuple[list[str] | None, list[str]]:
    kinds = [k for k in user.kinds if not kind or k == kind]
    towns = None if user.all_towns else list(user.towns)
    if town:
        towns = [town] if towns is None or town in towns else []
    return towns, kinds


def _tiles(settings: Settings) -> dict:
    return {"tiles_url": settings.map_tiles_url or "", "tiles_attribution": settings.map_tiles_attribution}


@router.get("/map")
def map_page(request: Request, user: StaffUser, settings: SettingsDep):
    from workflows.stage_choices import stage_choices

    filters = _filters(request.query_params)
    query = urlencode({k: v for k, v in filters.items() if v})
    ctx = {
        "filters": filters,
        "kinds": [(k, KIND_LABELS[k]) for k in user.kinds],
        "towns": user.visible_towns(),
        "statuses": list(_STATUS_WORDS.items()),
        "states": stage_choices(_scope(user, filters["town"], filters["kind"])[1]),
        "features_url": "/map/filings.geojson" + (f"?{query}" if query else ""),
        "list_url": "/filings" + (f"?{query}" if query else ""),
        **_tiles(settings),
    }
    return render(request, "staff/map.html", ctx, user=user)


@router.get("/map/filings.geojson")
def map_filings(request: Request, user: StaffUser, store: StoreDep, today: Today):
    from services.maps import filings_map

    f = _filters(request.query_params)
    towns, kinds = _scope(user, f["town"], f["kind"])
    zoom = _int(request.query_params.get("zoom"), DEFAULT_ZOOM, 0, 22)
    found = filings_map(
        store,
        towns=towns,
        kinds=kinds,
        as_of=today,
        zoom=zoom,
        text=f["q"],
        state=f["state"] or None,
        status=f["status"],
        labels=KIND_LABELS,
    )
    headers = {"X-Filings-Drawn": str(found.drawn), "X-Filings-Unplaced": str(found.unplaced)}
    if found.truncated:
        headers["X-Filings-Truncated"] = "1"
    return Response(found.geojson, media_type=GEOJSON, headers=headers)


def _box(text: str) -> tuple[float, float, float, float] | None:
    try:
        values = tuple(coordinate(v) for v in text.split(","))
    except ValueError:
        return None
    return values if len(values) == 4 else None


@router.get("/map/parcels.geojson")
def map_parcels(request: Request, user: StaffUser, store: StoreDep):
    """The parcels in view (``bbox=west,south,east,north``) of the user's
    towns, the background of a map without a basemap."""
    from services.maps import parcels_in_view

    q = request.query_params
    town = q.get("town") or ""
    if town and town not in user.visible_towns():
        raise HTTPException(404)
    box = _box(q.get("bbox", ""))
    if box is None:
        raise HTTPException(400, "bbox=west,south,east,north in degrees")
    towns = [town] if town else (None if user.all_towns else list(user.towns))
    found = parcels_in_view(store, towns=towns, box=box, zoom=_int(q.get("zoom"), 0, 0, 22))
    return Response(found.geojson, media_type=GEOJSON, headers={"X-Parcels-Drawn": str(found.drawn)})


@router.get("/filings/{fid}/map.geojson")
def filing_map(fid: str, user: StaffUser, store: StoreDep):
    from services.maps import filing_map as parcels_of_filing

    summary = visible_filing(store, user, fid)
    return Response(parcels_of_filing(store, summary.id).geojson, media_type=GEOJSON)
