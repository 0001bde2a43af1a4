"""The site picker's answer (web/static/site_picker.js, the shared
template ``site_picker.html``): the parcels of a town whose LOC_ID or
map-lot id is what was typed, then those whose site address contains it
(:func:`services.parcels.find_parcels`), as JSON, for the staff's
new-filing form and the applicant's apply form.  Each room's route decides whose towns may
be searched (web/staff/parcel_pages.py: the user's; web/applicant/: the
towns that take applications online)."""

from __future__ import annotations

from fastapi.responses import JSONResponse

__all__ = ["FIND_MIN_CHARS", "found_json"]

FIND_MIN_CHARS = 2


def found_json(store, town: str, text: str) -> JSONResponse:
    """The parcels of ``town`` matching ``text`` (none for fewer than
    :data:`FIND_MIN_CHARS` characters), with the layer's fiscal year."""
    from models.read import parcels as stored
    from services.parcels import find_parcels

    layers = stored.current_layers(store, [town])
    found = find_parcels(store, town, text) if len(text.strip()) >= FIND_MIN_CHARS else []
    rows = []
    for p in found:
        owner = p.owners[0] if p.owners else None
        rows.append(
            {
                "loc_id": p.loc_id,
                "map_par_id": p.map_par_id,
                "site_addr": p.site_addr,
                "owners": len(p.owners),
                "owner": dict(zip(("name", "street", "city", "state", "zip"), owner)) if owner else None,
            }
        )
    return JSONResponse({"town": town, "fiscal_year": layers[0].fiscal_year if layers else None, "parcels": rows})
