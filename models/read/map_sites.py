"""The workbench map's filings, each with the parcel its parcel id names on
its town's current layer, in one query (:func:`map_sites`).

The filings are those the workbench's search finds
(:func:`models.read.search.page_ids`, the filings list's filters); the query
joins them to the parcel whose
map-lot id (MAP_PAR_ID) is the filing's parcel id exactly, the lowest
parcel row where several have it (what the look-up by id,
:func:`models.read.parcels.located`, finds first through its index).  The ids are
bound as one JSON array, and the rows read through the driver's cursor: a
map's 2,000 filings are one statement and one parameter, not 2,000 bound
values expanded and 2,000 result rows wrapped twice.  The SQL is fixed text
per database; nothing a user typed is in it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import NamedTuple

from models.handle import Store
from models.read.queries import as_date
from models.read.search import Scope, page_ids

__all__ = ["MapSite", "map_sites"]


class MapSite(NamedTuple):
    """A filing of the map (its id, town, kind, state, site, parcel id and
    next deadline) and ``where``: the parcel the query joined to it,
    (loc_id, map_par_id, lon, lat, WGS84 WKB or None), or None."""

    id: str
    town: str
    kind: str
    state: str
    address: str | None
    parcel: str | None
    next_deadline_date: date | None
    where: tuple | None


_SELECT = (
    "SELECT f.id, f.town, f.kind, f.state, f.address, f.parcel, f.next_deadline_date,"
    " p.loc_id, p.map_par_id, p.lon, p.lat, {wkb}, p.id"
    " FROM filing AS f"
    " LEFT JOIN parcel_layer AS l ON l.town = f.town AND l.replaced_at IS NULL"
    " LEFT JOIN parcel AS p{hint} ON p.town = f.town AND p.map_par_id = f.parcel AND p.layer_id = l.id AND f.parcel <> ''"
    " WHERE f.id IN ({ids})"
    " ORDER BY f.id"
)
_IDS = {"sqlite": "SELECT value FROM json_each(?)", "postgresql": "SELECT json_array_elements_text(CAST(%s AS json))"}
#: (dialect, with the outline) -> the statement: fixed text
#: SQLite's planner, without statistics, would look each parcel up by its town and map-lot id and
#: read its row; the index of migration 0100 holds all the points need (PostgreSQL's chooses by its statistics)
_HINT = {"sqlite": " INDEXED BY ix_parcel_layer_map_site", "postgresql": ""}
_SQL = {
    (d, outline): _SELECT.format(wkb="p.wgs84" if outline else "NULL", ids=ids, hint=_HINT[d] if not outline else "")
    for d, ids in _IDS.items()
    for outline in (True, False)
}


def map_sites(
    store: Store,
    *,
    towns: Sequence[str] | None,
    kinds: Sequence[str],
    text: str = "",
    state: str | None = None,
    limit: int,
    outline: bool,
) -> tuple[list[MapSite], bool]:
    """(the filings the search finds with these filters, at most ``limit``, by id, each a
    :class:`MapSite` whose ``where`` is the parcel whose map-lot id is its
    parcel id as written, if any; whether there were more), from one pass
    over the statement's rows."""
    with store.reader.connect() as conn:
        ids = page_ids(conn, Scope(towns, kinds, state, None), text.strip(), limit + 1)
        cursor = conn.connection.cursor()
        try:
            cursor.execute(_SQL[(conn.dialect.name, outline)], (json.dumps(ids),))
            found = cursor.fetchall()
        finally:
            cursor.close()
    rows: list[MapSite] = []
    last, lowest = None, None  # the filing of the last row, the id of the parcel it was placed on
    for r in found:
        where = None if r[7] is None else (r[7], r[8], r[9], r[10], None if r[11] is None else bytes(r[11]))
        if r[0] != last:
            last, lowest = r[0], None if where is None else r[12]
            rows.append(MapSite(r[0], r[1], r[2], r[3], r[4], r[5], None if r[6] is None else as_date(r[6]), where))
        elif where is not None and (lowest is None or r[12] < lowest):  # several parcels with the map-lot id: the lowest row
            lowest = r[12]
            rows[-1] = rows[-1]._replace(where=where)
    return rows[:limit], len(rows) > limit
