"""The parcels of a town and its neighbours in memory: their polygons in an
STRtree (shapely), each with its town, ids, type, owners and fiscal year.

Built from what the store keeps (WKB and plain values: the caller reads
them), once per set of imported layers: :mod:`services.parcels` keeps the
index of the current layers and builds a new one when a town's parcels are
imported again.  Positions in the index are what :mod:`parcels.abutters`
answers with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from .l3 import WATER, WAYS

__all__ = ["ParcelOwner", "IndexedParcel", "ParcelIndex"]


@dataclass(frozen=True)
class ParcelOwner:
    """An owner of a parcel and their mailing address, as the assessing table gives them."""

    name: str
    street: str
    city: str
    state: str
    zip: str

    @property
    def complete(self) -> bool:
        return bool(self.name and self.street and self.city and self.zip)


@dataclass(frozen=True)
class IndexedParcel:
    """One parcel as the index holds it (plain values; its polygon is
    ``ParcelIndex.geometry[position]``)."""

    town: str
    loc_id: str
    map_par_id: str
    poly_type: str
    site_addr: str
    fiscal_year: int
    layer_id: int

    @property
    def label(self) -> str:
        """The id people cite: the map-lot id, else the LOC_ID."""
        return self.map_par_id or self.loc_id


class ParcelIndex:
    """``parcels`` (one :class:`IndexedParcel` each), their ``wkb``
    polygons (EPSG:26986, metres) and ``owners`` (a tuple each)."""

    def __init__(self, parcels: Sequence[IndexedParcel], wkb: Sequence[bytes], owners: Sequence[tuple[ParcelOwner, ...]]):
        if not (len(parcels) == len(wkb) == len(owners)):
            raise ValueError("one polygon and one owner tuple per parcel")
        self.parcels = list(parcels)
        self.owners = list(owners)
        self.geometry = shapely.from_wkb(np.asarray(wkb, dtype=object)) if len(wkb) else np.array([], dtype=object)
        self.tree = shapely.STRtree(self.geometry)
        types = np.array([p.poly_type for p in self.parcels], dtype=object)
        self.is_way = np.isin(types, WAYS)
        self.is_water = np.isin(types, WATER)
        if len(self.geometry):
            shapely.prepare(self.geometry[self.is_way | self.is_water])  # the lines across them test points in them
        self.owned = np.array([bool(o) for o in self.owners], dtype=bool)
        self.labels = [p.label for p in self.parcels]
        self._samples: tuple | None = None
        self._edges: tuple | None = None
        self._touching: dict[float, tuple[np.ndarray, np.ndarray]] = {}
        self._made: dict[tuple, object] = {}
        self._by_loc: dict[tuple[str, str], int] = {}
        self._by_map: dict[tuple[str, str], int] = {}
        for i, p in enumerate(self.parcels):
            if p.loc_id:
                self._by_loc.setdefault((p.town, p.loc_id), i)
            if p.map_par_id:
                self._by_map.setdefault((p.town, p.map_par_id.upper()), i)

    def __len__(self) -> int:
        return len(self.parcels)

    def find(self, town: str, parcel_id: str) -> int | None:
        """The position of the town's parcel whose LOC_ID, else map-lot id
        (MAP_PAR_ID, any case), is ``parcel_id``; None when none is."""
        key = parcel_id.strip()
        found = self._by_loc.get((town, key))
        return found if found is not None else self._by_map.get((town, key.upper()))

    def made(self, key: tuple, make):
        """What ``make()`` returns, made the first time ``key`` is asked for
        and kept with the index (what a search derives from every parcel at
        once: :mod:`parcels.opposite`).  Two threads asking at once may both
        make it; either's is kept, both are the same."""
        found = self._made.get(key)
        if found is None:
            found = self._made[key] = make()
        return found

    def all_samples(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`samples` of every parcel: the points (n, 2), the normals
        (n, 2), and each parcel's first row (len(self) + 1 offsets)."""
        if self._samples is None:
            self._samples = _all_samples(self.geometry, SAMPLE_SPACING_M)
        return self._samples

    def sample_rows(self, positions: np.ndarray) -> np.ndarray:
        """The rows of :meth:`all_samples` of each of ``positions``, one parcel's after the other's."""
        return _ranges(self.all_samples()[2], np.asarray(positions, dtype=np.intp))

    def samples(self, position: int) -> tuple[np.ndarray, np.ndarray]:
        """Points along the outer boundary of the parcel at ``position``, one
        every ``spacing`` metres of each edge (at least one, at its middle),
        and the outward unit normal there: ((n, 2), (n, 2)).  Made for every
        parcel at once the first time one is asked for."""
        starts, normals, offsets = self.all_samples()
        lo, hi = offsets[position], offsets[position + 1]
        return starts[lo:hi], normals[lo:hi]

    def touching(self, positions: int | np.ndarray | Sequence[int], distance: float) -> np.ndarray:
        """The positions of the parcels within ``distance`` metres of any of
        the parcels at ``positions`` (one position, or several; each of those included): what
        ``tree.query(geometry[positions], predicate="dwithin",
        distance=distance)`` answers on its right, grouped by the position
        asked about.  The pairs of every parcel are found in one query of
        the whole index the first time a distance is asked for, and kept."""
        offsets, right = self._pairs(distance)
        if isinstance(positions, int):  # one parcel's: its rows as they are
            return right[offsets[positions] : offsets[positions + 1]]
        return right[_ranges(offsets, np.asarray(positions, dtype=np.intp))]

    def touching_pairs(self, distance: float) -> tuple[np.ndarray, np.ndarray]:
        """Every pair (left, right) of :meth:`touching`, by left: the
        parcels within ``distance`` metres of each other (each with itself)."""
        offsets, right = self._pairs(distance)
        return np.repeat(np.arange(len(self.geometry)), np.diff(offsets)), right

    def _pairs(self, distance: float) -> tuple[np.ndarray, np.ndarray]:
        found = self._touching.get(distance)
        if found is None:
            if len(self.geometry):
                left, right = self.tree.query(self.geometry, predicate="dwithin", distance=distance)
                order = np.argsort(left, kind="stable")
                left, right = left[order], right[order]
            else:
                left = right = np.array([], dtype=np.intp)
            found = self._touching[distance] = (np.searchsorted(left, np.arange(len(self.geometry) + 1)), right)
        return found

    def edges(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The edges of every ring of the parcels at ``positions``, in that
        order (each parcel's rings, each ring's edges in turn): their
        starts (n, 2), their vectors to their ends (n, 2) and the position
        of the parcel each belongs to (n,).  Made for every parcel at once
        the first time one is asked for."""
        if self._edges is None:
            self._edges = _all_edges(self.geometry)
        rows, offsets = self._edges
        picked = rows[_ranges(offsets, np.asarray(positions, dtype=np.intp))]
        return picked[:, 0:2], picked[:, 2:4], picked[:, 4].astype(np.intp)

    def edge_counts(self, positions: np.ndarray) -> np.ndarray:
        """How many rows :meth:`edges` gives for each of ``positions``."""
        if self._edges is None:
            self._edges = _all_edges(self.geometry)
        offsets = self._edges[1]
        positions = np.asarray(positions, dtype=np.intp)
        return offsets[positions + 1] - offsets[positions]


def _ranges(offsets: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """The rows ``offsets[p]:offsets[p + 1]`` of each of ``positions``, one after the other."""
    lo, hi = offsets[positions], offsets[positions + 1]
    counts = hi - lo
    total = int(counts.sum())
    if not total:
        return np.array([], dtype=np.intp)
    return np.repeat(lo - (np.cumsum(counts) - counts), counts) + np.arange(total)


def _all_edges(geometry: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`ParcelIndex.edges` of every parcel, one row each (start x, y,
    vector x, y, the parcel's position), and each parcel's first row (n + 1 offsets)."""
    if not len(geometry):
        return np.zeros((0, 5)), np.zeros(1, dtype=np.intp)
    rings, ring_of = shapely.get_rings(geometry, return_index=True)
    coords, which = shapely.get_coordinates(rings, return_index=True)
    same = which[:-1] == which[1:]
    owner = ring_of[which[:-1][same]]
    rows = np.column_stack([coords[:-1][same], (coords[1:] - coords[:-1])[same], owner])
    return rows, np.searchsorted(owner, np.arange(len(geometry) + 1))


#: the spacing of the points :meth:`ParcelIndex.samples` gives
SAMPLE_SPACING_M = 5.0


def _all_samples(geometry: np.ndarray, spacing: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:meth:`ParcelIndex.samples` of every parcel, in one pass: the points
    and normals of all, and each parcel's first row (n + 1 offsets)."""
    parts, owner = shapely.get_parts(geometry, return_index=True)
    rings = shapely.get_exterior_ring(parts)
    coords, ring_of = shapely.get_coordinates(rings, return_index=True)
    same = ring_of[:-1] == ring_of[1:]
    a, seg, ring = coords[:-1][same], (coords[1:] - coords[:-1])[same], ring_of[:-1][same]
    size = np.hypot(seg[:, 0], seg[:, 1])
    ok = size >= 1.0
    a, seg, size, ring = a[ok], seg[ok], size[ok], ring[ok]
    # outward: to the right of a counter-clockwise ring, to the left of a clockwise one
    sign = np.where(shapely.is_ccw(rings), 1.0, -1.0)[ring]
    normal = (sign / size)[:, None] * np.column_stack([seg[:, 1], -seg[:, 0]])
    counts = np.maximum(1, (size // spacing).astype(np.intp))
    edge = np.repeat(np.arange(len(a)), counts)
    k = np.arange(len(edge)) - np.repeat(np.cumsum(counts) - counts, counts)
    t = (k + 0.5) / counts[edge]
    starts = a[edge] + seg[edge] * t[:, None]
    normals = normal[edge]
    parcel = owner[ring[edge]]
    offsets = np.searchsorted(parcel, np.arange(len(geometry) + 1))
    return starts, normals, offsets
