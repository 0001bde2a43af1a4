"""The workbench map's filings, each with the parcel its parcel id names on
its town's current layer, in one query (:func:`map_sites`).

The filings are those :func:`models.workbench.map_rows` finds (the same
:func:`models.search.page_ids`); the query joins them to the parcel whose
map-lot id (MAP_PAR_ID) is the filing's parcel id exactly, the lowest
parcel row where several have it (what the look-up by id,
:func:`models.parcels.located`, finds first through its index).  The ids are
bound as one JSON array, and the rows read through the driver's cursor: a
map's 2,000 filings are one statement and one parameter, not 2,000 bound
values expanded and 2,000 result rows wrapped twice.  The SQL is fixed text
per database; nothing a user typed is in it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .queries import as_date
from .search import Scope, page_ids
from .service import Store
from .workbench import MapRow

__all__ = ["map_sites"]

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
) -> tuple[list[MapRow], bool, dict[str, tuple]]:
    """(the rows :func:`models.workbench.map_rows` gives, whether there were
    more, {filing id: (loc_id, map_par_id, lon, lat, WGS84 WKB or None)} for
    those whose parcel id is a current parcel's map-lot id as written)."""
    with store.reader.connect() as conn:
        ids = page_ids(conn, Scope(towns, kinds, state, None), text.strip(), limit + 1)
        cursor = conn.connection.cursor()
        try:
            cursor.execute(_SQL[(conn.dialect.name, outline)], (json.dumps(ids),))
            found = cursor.fetchall()
        finally:
            cursor.close()
    rows: list[MapRow] = []
    placed: dict[str, tuple] = {}
    lowest: dict[str, int] = {}
    for r in found:
        if not rows or rows[-1].id != r[0]:
            rows.append(MapRow(r[0], r[1], r[2], r[3], r[4], r[5], None if r[6] is None else as_date(r[6])))
        if r[7] is not None and r[12] < lowest.get(r[0], r[12] + 1):  # several parcels with the map-lot id: the lowest row
            lowest[r[0]] = r[12]
            placed[r[0]] = (r[7], r[8], r[9], r[10], bytes(r[11]) if r[11] is not None else None)
    return rows[:limit], len(rows) > limit, placed
