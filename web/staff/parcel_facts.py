"""What a filing's page says of the assessors' parcels: the parcel its site
names (or a warning when the town's parcels have none), where its abutter
list came from, and the map's tile settings.  Apart from
:mod:`web.staff.parcel_pages` (which reads a filing through
:mod:`web.staff.filing_pages`) so that the filing's page can ask for it without
the two pages importing each other.
"""

from __future__ import annotations

__all__ = ["parcel_context"]


def parcel_context(store, settings, summary) -> dict:
    """What a filing's page says of its parcel (``site_match``: the parcel
    its site names, or a warning when the town's parcels have none), of its
    abutter list's source (``abutter_source``, its time the town's), and
    the map's tile settings."""
    from models.read import parcels as stored
    from services.parcels import site_match, town_time
    from workflows.written import moment_written

    source = stored.abutter_source(store, summary.id)
    if source is not None:  # "Thursday, December 3, 2026, 7:47 p.m.", the town's clock
        made = town_time(source["made_at"])
        source = {**source, "made_at": moment_written(made.replace(" ", "T")) if made else ""}
    return {
        "site_match": site_match(store, summary.town, address=summary.address, parcel=summary.parcel),
        "abutter_source": source,
        "tiles_url": settings.map_tiles_url or "",
        "tiles_attribution": settings.map_tiles_attribution,
    }
