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
        self.owned = np.array([bool(o) for o in self.owners], dtype=bool)
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
