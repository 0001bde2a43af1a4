"""The filings the open data publishes (:mod:`services.open_data`), each
with the point of the parcel its parcel id names on its town's current
layer (the same join the workbench map makes, :mod:`models.read.map_sites`),
in one statement per town."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import and_, select

from models.schema.parcel_tables import ParcelLayer, ParcelRow
from models.schema.tables import FilingRow

__all__ = ["OpenFiling", "open_filings"]

FILING, LAYER, PARCEL = FilingRow.__table__, ParcelLayer.__table__, ParcelRow.__table__


class OpenFiling(NamedTuple):
    id: str
    town: str
    kind: str
    parcel: str
    point: tuple[float, float] | None  # (longitude, latitude) of its parcel


def open_filings(store, towns: Sequence[str] | None) -> list[OpenFiling]:
    """Every filing of ``towns`` (None: every town), by id, with its
    parcel's point where the town's current parcels have it."""
    layer = and_(LAYER.c.town == FILING.c.town, LAYER.c.replaced_at.is_(None))
    parcel = and_(
        PARCEL.c.town == FILING.c.town,
        PARCEL.c.map_par_id == FILING.c.parcel,
        PARCEL.c.layer_id == LAYER.c.id,
        FILING.c.parcel != "",
    )
    query = (
        select(FILING.c.id, FILING.c.town, FILING.c.kind, FILING.c.parcel, PARCEL.c.lon, PARCEL.c.lat)
        .select_from(FILING.outerjoin(LAYER, layer).outerjoin(PARCEL, parcel))
        .order_by(FILING.c.id, PARCEL.c.id)
    )
    if towns is not None:
        query = query.where(FILING.c.town.in_(list(towns)))
    out: dict[str, OpenFiling] = {}
    with store.reader.connect() as conn:
        for fid, town, kind, parcel_id, lon, lat in conn.execute(query):
            if fid not in out:  # the lowest parcel row, where several have the id
                point = (float(lon), float(lat)) if lon is not None and lat is not None else None
                out[fid] = OpenFiling(fid, town, kind, parcel_id or "", point)
    return list(out.values())
