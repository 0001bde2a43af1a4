"""The public site's pages: the open data (BLDS's Permits, Inspections
and StatusChanges, :mod:`services.open_data`) of every town and of each,
with no login.  A route added to :data:`router` is served (web/app.py
includes it); it takes no user and shows only what a town's public record
holds (web/public/__init__.py): never an email, a telephone number, a
payment, an upload or an enforcement case."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from ..deps import StoreDep, Today
from ..render import render

__all__ = ["router"]

router = APIRouter()

#: the public's copy is a day's: a cache may keep it an hour
_CACHE = {"Cache-Control": "public, max-age=3600"}


@router.get("/open-data")
def open_data_index(request: Request):
    """What the open data holds, and a link to each file."""
    from services.open_data import DATASETS
    from workflows.towns import registry

    towns = [(t.id, t.name) for t in registry().values() if t.id != "wpa"]
    return render(request, "public/open_data.html", {"datasets": DATASETS, "towns": towns}, user=None)


@router.get("/open-data/{name}.{fmt}")
def open_data_all(name: str, fmt: str, store: StoreDep, as_of: Today):
    return _file(store, name, fmt, None, as_of)


@router.get("/open-data/{town}/{name}.{fmt}")
def open_data_town(town: str, name: str, fmt: str, store: StoreDep, as_of: Today):
    from workflows.towns import registry

    if town not in registry() or town == "wpa":
        raise HTTPException(404)
    return _file(store, name, fmt, [town], as_of)


def _file(store, name: str, fmt: str, towns, as_of) -> Response:
    from services.open_data import DATASETS, FORMATS, dataset, encode

    if name not in DATASETS or fmt not in FORMATS or (fmt == "geojson" and name != "permits"):
        raise HTTPException(404)
    body = encode(name, dataset(store, name, towns=towns, as_of=as_of), fmt)
    media = FORMATS[fmt] + ("; charset=utf-8" if fmt == "csv" else "")
    return Response(body, media_type=media, headers=_CACHE)
