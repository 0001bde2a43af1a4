"""A generated Level 3 parcel set whose abutters are known by construction.

Metres in Massachusetts State Plane (EPSG:26986), from an origin near
Saugus.  Lots are 20 m wide and 30 m deep; ``Main St`` is a 12 m (39 ft)
way, ``the Boulevard`` a 40 m (131 ft) one; ``Pond`` is 50 m (164 ft)
across.  The town line runs at x = 190: the ``T`` lots are in the next
town (imported as ``canton``, the second town this store knows)::

    y 112..142   M1  M2  M3  M4  M5  M6
    y  72..112   ================ the Boulevard (ROW, 40 m) ================
    y  42..72    N1  N2  N3  N4  N5  N6
    y  30..42    ======================== Main St (ROW, 12 m) ==========================
    y   0..30    S1  S2  S3  S4  S5  S6 |          | E1 | T1  T3
    y -30..0     B1  B2  B3  B4  B5  B6 |   Pond   | E2 | T2
                 x: 0  20  40  60  80 100 120      170  190 210 230

Owners: Maple Realty Trust owns S2 and S4 (one mailing address: one
letter); J. Smith owns N2 and N4 at two addresses (two letters); N3 is
two condominium units (two owners).  The ways and the pond have no owner.
"""

from __future__ import annotations

from pathlib import Path

import shapely

from parcels.index import IndexedParcel, ParcelIndex, ParcelOwner
from parcels.l3 import Owner, write_l3

X0, Y0 = 250_000.0, 920_000.0
TOWN, NEXT_TOWN = "saugus", "canton"
TOWN_NUMBER, NEXT_NUMBER = 262, 50
FY = 2026
MAPS = {"S": 1, "B": 2, "N": 3, "M": 4, "E": 5, "T": 9}


def _box(x0, y0, x1, y1):
    return shapely.box(X0 + x0, Y0 + y0, X0 + x1, Y0 + y1)


def _lots():
    """(name, town, poly_type, polygon) of every polygon of the layout."""
    out = []
    for row, (y0, y1) in {"S": (0, 30), "B": (-30, 0), "N": (42, 72), "M": (112, 142)}.items():
        for k in range(6):
            out.append((f"{row}{k + 1}", TOWN, "FEE", _box(20 * k, y0, 20 * k + 20, y1)))
    out.append(("E1", TOWN, "FEE", _box(170, 0, 190, 30)))
    out.append(("E2", TOWN, "FEE", _box(170, -30, 190, 0)))
    out.append(("MAIN", TOWN, "ROW", _box(-40, 30, 200, 42)))
    out.append(("BLVD", TOWN, "ROW", _box(-40, 72, 200, 112)))
    out.append(("POND", TOWN, "WATER", _box(120, -30, 170, 30)))
    out.append(("T1", NEXT_TOWN, "FEE", _box(190, 0, 210, 30)))
    out.append(("T2", NEXT_TOWN, "FEE", _box(190, -30, 210, 0)))
    out.append(("T3", NEXT_TOWN, "FEE", _box(210, 0, 230, 30)))
    return out


LOTS = _lots()


def loc_id(name: str) -> str:
    return f"L_{name}"


def map_lot(name: str) -> str:
    """The map-lot id of a lot: S3 is 1-3, T1 is 9-1; ways and water have none."""
    return f"{MAPS[name[0]]}-{name[1:]}" if name[0] in MAPS and name[1:].isdigit() else ""


def _city(town):
    return ("Saugus", "01906") if town == TOWN else ("Canton", "02021")


def owners_of(name: str, town: str) -> list[Owner]:
    if name in ("MAIN", "BLVD", "POND"):
        return []
    loc, n = loc_id(name), name[1:]
    site = {"S": f"{n}0 MAIN ST", "N": f"{n}1 MAIN ST", "B": f"{n}0 BACK ST", "M": f"{n}1 BLVD"}.get(name[0], f"{n}5 POND RD")
    city, zipc = _city(town)
    if name in ("S2", "S4"):
        return [Owner(loc, f"P{name}", site, "MAPLE REALTY TRUST", "5 MAIN ST", "SAUGUS", "MA", "01906")]
    if name == "N2":
        return [Owner(loc, "PN2", site, "J. SMITH", "1 ELM ST", "SAUGUS", "MA", "01906")]
    if name == "N4":
        return [Owner(loc, "PN4", site, "J. SMITH", "9 OAK RD", "LYNN", "MA", "01902")]
    if name == "N3":
        return [
            Owner(loc, "PN3-1", "31 MAIN ST UNIT 1", "A. ALVAREZ", "30 MAIN ST UNIT 1", "SAUGUS", "MA", "01906"),
            Owner(loc, "PN3-2", "31 MAIN ST UNIT 2", "B. BROWN", "30 MAIN ST UNIT 2", "SAUGUS", "MA", "01906"),
        ]
    return [Owner(loc, f"P{name}", site, f"OWNER OF {name}", f"{n} {name} WAY", city.upper(), "MA", zipc)]


def layer(town: str):
    """(parcels, owners) of ``town`` in write_l3's form."""
    parcels = [(loc_id(n), map_lot(n), t, g) for n, tw, t, g in LOTS if tw == town]
    owners = [o for n, tw, _, _ in LOTS if tw == town for o in owners_of(n, tw)]
    return parcels, owners


def write_town(target: Path, town: str = TOWN, driver: str = "shapefile", fiscal_year: int = FY) -> Path:
    parcels, owners = layer(town)
    number = TOWN_NUMBER if town == TOWN else NEXT_NUMBER
    return write_l3(target, number, parcels, owners, fiscal_year=fiscal_year, driver=driver)


def index() -> ParcelIndex:
    """Both towns' parcels in an index, as the service builds it from the store."""
    parcels, wkb, owners = [], [], []
    for name, town, poly_type, geom in LOTS:
        parcels.append(IndexedParcel(town, loc_id(name), map_lot(name), poly_type, "", FY, 1))
        wkb.append(shapely.to_wkb(geom))
        owners.append(tuple(ParcelOwner(o.name, o.street, o.city, o.state, o.zip) for o in owners_of(name, town)))
    return ParcelIndex(parcels, wkb, owners)


def names(idx: ParcelIndex, positions) -> set[str]:
    """The layout's names of these index positions (L_S3 -> S3)."""
    return {idx.parcels[i].loc_id.removeprefix("L_") for i in positions}


#: a Saugus NOI on S3 (map-lot 1-3), filed, its hearing not yet scheduled
FILING = {
    "town": TOWN,
    "kind": "noi",
    "id": "SAU-NOI-2026-101",
    "site": {"address": "30 Main Street", "parcel": "1-3"},
    "applicant": {"name": "S3 Builders LLC", "address": {"street": "3 S3 Way", "city": "Saugus", "state": "MA", "zip": "01906"}},
    "project": {"description": "an addition within the buffer zone"},
    "events": [{"type": "filed", "date": "2026-12-01"}],
}


def import_towns(store, folder: Path, *, fiscal_year: int = FY, towns=(TOWN, NEXT_TOWN)):
    """Write the layout's towns as L3 downloads under ``folder`` and import
    them into ``store`` through the service; the import results."""
    from datetime import UTC, datetime

    from services.parcels import import_parcels

    out = []
    for town in towns:
        path = write_town(folder / f"{town}-{fiscal_year}", town, fiscal_year=fiscal_year)
        out.append(import_parcels(store, str(path), town=town, by="assessor", now=datetime(2026, 12, 2, 14, 0, tzinfo=UTC)))
    return out


# -- a Canton block where the by-law and the Act list different owners --------------------------
#
# Canton 15-5 sends the abutter notice to "all abutters ... including those
# across a traveled way or body of water"; the Act (310 CMR 10.05(4)(a)) to
# owners within 100 feet of the property line and those directly opposite on
# a way.  On this block (metres, State Plane, away from the layout above;
# lots 40 m wide, Elm St 12 m (39 ft), the rear lot R 20 m (66 ft) deep) a
# Notice of Intent on Q3 gives the by-law 4 owners and the Act 7::
#
#     y  42..72    P1  P2  P3  P4  P5          (across Elm St)
#     y  30..42    ========= Elm St (ROW, 12 m) =========
#     y   0..30    Q1  Q2  Q3  Q4  Q5
#     y -20..0     R   (one lot, x 0..200)
#     y -50..-20   S   (one lot, x 0..200)
#                  x: 0  40  80 120 160 200
#
# Canton 15-5: Q2, Q4, R (share a line with Q3) and P3 (directly opposite).
# The Act: those four, and P2, P4 (a corner 12 m, 39 ft, across the street)
# and S (20 m, 66 ft, behind R).  Q1, Q5 (131 ft) and P1, P5 (137 ft) are
# out of both.

BLOCK_X0, BLOCK_Y0 = X0 + 2_000.0, Y0
BLOCK_TOWN, BLOCK_MAPS = "canton", {"Q": 7, "P": 8, "R": 9, "S": 9}
BLOCK_SUBJECT = "Q3"
#: the owners each law lists for a filing on Q3
BLOCK_BYLAW = {"Q2", "Q4", "R", "P3"}
BLOCK_ACT = {"Q2", "Q4", "R", "P3", "P2", "P4", "S"}


def _block_box(x0, y0, x1, y1):
    return shapely.box(BLOCK_X0 + x0, BLOCK_Y0 + y0, BLOCK_X0 + x1, BLOCK_Y0 + y1)


def _block_lots():
    out = []
    for row, (y0, y1) in {"Q": (0, 30), "P": (42, 72)}.items():
        for k in range(5):
            out.append((f"{row}{k + 1}", "FEE", _block_box(40 * k, y0, 40 * k + 40, y1)))
    out.append(("R", "FEE", _block_box(0, -20, 200, 0)))
    out.append(("S", "FEE", _block_box(0, -50, 200, -20)))
    out.append(("ELM", "ROW", _block_box(-40, 30, 240, 42)))
    return out


BLOCK_LOTS = _block_lots()


def block_map_lot(name: str) -> str:
    """The map-lot id of a block lot: Q3 is 7-3, R 9-1, S 9-2; the street has none."""
    if name in ("R", "S"):
        return f"9-{1 if name == 'R' else 2}"
    return f"{BLOCK_MAPS[name[0]]}-{name[1:]}" if name[0] in BLOCK_MAPS else ""


def block_owner(name: str) -> Owner | None:
    if name == "ELM":
        return None
    return Owner(f"B_{name}", f"PB{name}", f"{name} ELM ST", f"OWNER OF {name}", f"1 {name} LANE", "CANTON", "MA", "02021")


def write_block(target: Path, fiscal_year: int = FY) -> Path:
    """The block as Canton's L3 download."""
    parcels = [(f"B_{n}", block_map_lot(n), t, g) for n, t, g in BLOCK_LOTS]
    owners = [o for n, _, _ in BLOCK_LOTS if (o := block_owner(n)) is not None]
    return write_l3(target, NEXT_NUMBER, parcels, owners, fiscal_year=fiscal_year)


def import_block(store, folder: Path):
    """Write the block and import it as Canton's parcels through the service."""
    from datetime import UTC, datetime

    from services.parcels import import_parcels

    path = write_block(folder / f"canton-block-{FY}")
    return import_parcels(store, str(path), town=BLOCK_TOWN, by="assessor", now=datetime(2026, 12, 2, 14, 0, tzinfo=UTC))


def block_index() -> ParcelIndex:
    """The block in an index, as the service builds it from the store."""
    parcels, wkb, owners = [], [], []
    for name, poly_type, geom in BLOCK_LOTS:
        parcels.append(IndexedParcel(BLOCK_TOWN, f"B_{name}", block_map_lot(name), poly_type, "", FY, 1))
        wkb.append(shapely.to_wkb(geom))
        o = block_owner(name)
        owners.append((ParcelOwner(o.name, o.street, o.city, o.state, o.zip),) if o else ())
    return ParcelIndex(parcels, wkb, owners)
