"""Geometry for the map: State Plane (EPSG:26986, metres) to longitude and
latitude (WGS84, EPSG:4326) through pyproj, and GeoJSON written by GEOS
(shapely), simplified for the zoom the map asks for.

A parcel's WGS84 outline and a point inside it are made once, at import
(:func:`to_wgs84`, :func:`inside_points`); the map's features are then
:func:`feature_collection` of them, no projection at request time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import shapely

from .l3 import STATE_PLANE

__all__ = ["to_wgs84", "inside_points", "feature_collection", "tolerance_for_zoom", "OUTLINE_ZOOM", "PRECISION_DEG"]

#: from this zoom up the map draws parcel outlines; below it, points
OUTLINE_ZOOM = 15
#: coordinates sent to the browser are rounded to this (about 1 cm)
PRECISION_DEG = 1e-7


@lru_cache(maxsize=4)
def _transformer(epsg: int):
    from pyproj import Transformer

    return Transformer.from_crs(epsg, 4326, always_xy=True)


def _project(xy: np.ndarray, epsg: int) -> np.ndarray:
    lon, lat = _transformer(epsg).transform(xy[:, 0], xy[:, 1])
    return np.column_stack([lon, lat])


def to_wgs84(geometries: np.ndarray, epsg: int = STATE_PLANE) -> np.ndarray:
    """The geometries in longitude and latitude (one pyproj call for all
    their coordinates), rounded to :data:`PRECISION_DEG`."""
    projected = shapely.transform(geometries, lambda xy: _project(xy, epsg))
    return shapely.set_precision(projected, PRECISION_DEG, mode="pointwise")


def inside_points(geometries: np.ndarray, epsg: int = STATE_PLANE) -> np.ndarray:
    """(lon, lat) of a point inside each polygon (on its surface, never in
    a hole or outside a bent lot), shape (n, 2)."""
    points = shapely.point_on_surface(geometries)
    return _project(shapely.get_coordinates(points), epsg) if len(points) else np.zeros((0, 2))


def tolerance_for_zoom(zoom: int) -> float:
    """About one screen pixel at ``zoom``, in degrees (256-pixel tiles)."""
    return 360.0 / (256 * 2 ** max(0, min(zoom, 22)))


def feature_collection(geometries: np.ndarray, properties: Sequence[dict], *, tolerance: float = 0.0) -> str:
    """A GeoJSON FeatureCollection: each geometry (WGS84) simplified to
    ``tolerance`` degrees (topology kept: an outline never crosses itself)
    and written by GEOS, with its properties written by ``json.dumps``."""
    if len(geometries) != len(properties):
        raise ValueError("one properties mapping per geometry")
    if not len(geometries):
        return '{"type":"FeatureCollection","features":[]}'
    shapes = shapely.simplify(geometries, tolerance, preserve_topology=True) if tolerance else geometries
    written = shapely.to_geojson(shapes)
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    features = ",".join(
        f'{{"type":"Feature","geometry":{g},"properties":{dumps(p)}}}' for g, p in zip(written.tolist(), properties)
    )
    return f'{{"type":"FeatureCollection","features":[{features}]}}'
