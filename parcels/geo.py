"""Geometry for the map: State Plane (EPSG:26986, metres) to longitude and
latitude (WGS84, EPSG:4326) through pyproj, and GeoJSON written by GEOS
(shapely), simplified for the zoom the map asks for.

A parcel's WGS84 outline and a point inside it are made once, at import
(:func:`to_wgs84`, :func:`inside_points`); the map's features are then
:func:`feature_collection` of them, no projection at request time.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from json.encoder import encode_basestring

import numpy as np
import shapely

from .l3 import STATE_PLANE

__all__ = [
    "to_wgs84",
    "inside_points",
    "box_to_state_plane",
    "feature_collection",
    "point_collection",
    "point_rows",
    "tolerance_for_zoom",
    "OUTLINE_ZOOM",
    "BACKGROUND_ZOOM",
    "PRECISION_DEG",
]

#: from this zoom up the map draws parcel outlines; below it, points
OUTLINE_ZOOM = 15
#: from this zoom up the map draws every parcel in view as its background
BACKGROUND_ZOOM = 16
#: coordinates sent to the browser are rounded to this (about 1 cm)
PRECISION_DEG = 1e-7
#: outlines of at most this many points are sent as they are, whatever the zoom
_SIMPLE = 16
#: each feature's geometry is written first as this number, then replaced:
#: ``"geometry":`` and a number cannot come out of a string json.dumps wrote
#: (its quotes would be escaped), and every property is a string
_MARK = -1.5e308
_MARKED = '"geometry":-1.5e+308'
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


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


def box_to_state_plane(west: float, south: float, east: float, north: float, epsg: int = STATE_PLANE) -> tuple:
    """The State Plane box (minx, miny, maxx, maxy) holding a longitude and
    latitude box (its four corners projected)."""
    from pyproj import Transformer

    back = Transformer.from_crs(4326, epsg, always_xy=True)
    xs, ys = back.transform([west, west, east, east], [south, north, south, north])
    return min(xs), min(ys), max(xs), max(ys)


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
    shapes = geometries
    if tolerance:  # a lot of a few corners has nothing to lose: only the detailed outlines are simplified
        detailed = shapely.get_num_coordinates(geometries) > _SIMPLE
        if detailed.any():
            shapes = geometries.copy()
            shapes[detailed] = shapely.simplify(geometries[detailed], tolerance, preserve_topology=True)
    written = shapely.to_geojson(shapes).tolist()
    # one json.dumps for every feature, each geometry a marker then replaced by GEOS's text
    text = _ENCODE(
        {"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": _MARK, "properties": p} for p in properties]}
    )
    pieces = text.split(_MARKED)
    if len(pieces) != len(written) + 1:
        raise ValueError("a property held the geometry's marker")
    out = [pieces[0]]
    for g, rest in zip(written, pieces[1:]):
        out.append('"geometry":')
        out.append(g)
        out.append(rest)
    return "".join(out)


def point_collection(points: Sequence[tuple[float, float]], properties: Sequence[dict]) -> str:
    """A GeoJSON FeatureCollection of points ((longitude, latitude) each,
    WGS84) with their properties: the text :func:`feature_collection`
    writes for the same points, in one ``json`` encoding (nothing for GEOS
    to make or write)."""
    if len(points) != len(properties):
        raise ValueError("one properties mapping per point")
    features = [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [lon, lat]}, "properties": p}
        for (lon, lat), p in zip(points, properties)
    ]
    return _ENCODE({"type": "FeatureCollection", "features": features})


def point_rows(points: Sequence[tuple[float, float]], names: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The text :func:`point_collection` writes for the same points, each
    with the properties ``dict(zip(names, row))`` (``names`` distinct), written feature by
    feature from one template: each coordinate by ``float.__repr__`` and
    each value by ``json``'s own string encoder, what ``json`` writes for
    a finite float and a string (no dict made, nothing walked).  Where a
    coordinate is not a finite float or a value not a string, the whole
    is written by :func:`point_collection` instead."""
    if len(points) != len(rows):
        raise ValueError("one properties row per point")
    if not points:
        return point_collection([], [])
    feature = (
        '{"type":"Feature","geometry":{"type":"Point","coordinates":[%s,%s]},"properties":{'
        + ",".join(encode_basestring(n).replace("%", "%%") + ":%s" for n in names)
        + "}}"
    )
    values = len(names)
    write, text = float.__repr__, encode_basestring
    try:
        if not math.isfinite(sum(map(sum, points))):  # a NaN or an infinity among them (or a sum too large: the same)
            raise TypeError
        features = []
        for (lon, lat), row in zip(points, rows):
            if len(row) != values:
                raise TypeError
            features.append(feature % (write(lon), write(lat), *map(text, row)))
    except TypeError:  # a coordinate not a float (None, an int), a value not a string, a row not of the names
        return point_collection(points, [dict(zip(names, row)) for row in rows])
    return '{"type":"FeatureCollection","features":[' + ",".join(features) + "]}"
