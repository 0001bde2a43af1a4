"""The assessors' parcels written: a town's import replacing its current
layer, and where a filing's abutter list came from, each on the connection
of the service layer's unit of work.  Their reads are :mod:`models.read.parcels`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from models.errors import OlderParcels, StaleParcels
from models.read.parcels import (
    LAYER,
    LAYER_COLUMNS,
    OWNER,
    OWNER_COLUMNS,
    PARCEL,
    PARCEL_COLUMNS,
    SOURCE,
    SOURCE_FIELDS,
    Layer,
    utc_naive,
)
from models.store import bulk

__all__ = ["replace_layer", "write_source"]


def replace_layer(
    conn: Connection,
    town: str,
    layer: dict,
    parcels: Sequence[tuple],
    owners: Sequence[tuple],
    *,
    by: str,
    now: datetime,
    expect_current: int | None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Layer, Layer | None]:
    """The town's parcels become ``parcels`` and ``owners`` (tuples in
    :data:`PARCEL_COLUMNS` and :data:`OWNER_COLUMNS` order) of a new layer
    (``layer``: fiscal_year, source, parcels_layer, assess_layer, crs), in
    the caller's unit of work (``conn``): the current layer, if any, is marked replaced and its
    parcels and owners deleted.  ``expect_current``: the id of the layer
    the caller saw as current (None: none); if another import got there
    first, StaleParcels and nothing written.  OlderParcels when the current
    layer's fiscal year is later than the new one's.  The new layer and the
    one it replaced.  ``progress`` is told each chunk of parcels written."""
    stamp = utc_naive(now)
    current = conn.execute(
        select(*[LAYER.c[n] for n in LAYER_COLUMNS]).where(LAYER.c.town == town, LAYER.c.replaced_at.is_(None)).with_for_update()
    ).first()
    current = Layer(*current) if current is not None else None
    if (current.id if current else None) != expect_current:
        raise StaleParcels(town)
    if current is not None and current.fiscal_year > layer["fiscal_year"]:
        raise OlderParcels(town, layer["fiscal_year"], current.fiscal_year)
    if current is not None:
        conn.execute(delete(OWNER).where(OWNER.c.layer_id == current.id))
        conn.execute(delete(PARCEL).where(PARCEL.c.layer_id == current.id))
        conn.execute(update(LAYER).where(LAYER.c.id == current.id).values(replaced_at=stamp))
    try:
        new_id = conn.execute(
            insert(LAYER).values(
                town=town,
                parcels=len(parcels),
                owners=len(owners),
                imported_at=stamp,
                imported_by=by,
                **{k: layer[k] for k in ("fiscal_year", "source", "parcels_layer", "assess_layer", "crs")},
            )
        ).inserted_primary_key[0]
    except IntegrityError:  # another import made a current layer for the town meanwhile
        raise StaleParcels(town) from None
    _insert(conn, PARCEL, ("layer_id", "town", *PARCEL_COLUMNS), [(new_id, town, *p) for p in parcels], progress)
    _insert(conn, OWNER, ("layer_id", *OWNER_COLUMNS), [(new_id, *o) for o in owners])
    made = Layer(new_id, town, layer["fiscal_year"], layer["source"], len(parcels), len(owners), stamp, by, None)
    return made, current


def _insert(conn, table, names: tuple[str, ...], rows: list[tuple], progress=None, chunk: int = 5000) -> None:
    for i in range(0, len(rows), chunk):
        bulk.insert_rows(conn, table, names, rows[i : i + chunk])
        if progress is not None:
            progress(len(rows[i : i + chunk]))


def write_source(conn, filing_id: str, source: dict | None) -> None:
    """On the unit of work's ``conn``: the filing's list came from ``source`` (None: forget)."""
    conn.execute(delete(SOURCE).where(SOURCE.c.filing_id == filing_id))
    if source is not None:
        values = {k: source.get(k) for k in SOURCE_FIELDS}
        values["made_at"] = utc_naive(values["made_at"])
        conn.execute(insert(SOURCE).values(filing_id=filing_id, **values))
