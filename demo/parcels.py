"""Generated assessors' parcels in the MassGIS Level 3 schema, made by the
project for the demonstration, the tests and the benchmarks: no real
town's data.  Pure and seeded.

:func:`demo_town` lays out the streets of a demo town's filings, each a
12 m way (an L3 ``ROW`` polygon) with 20 m by 30 m lots on both sides,
odd numbers north and even south, at the house numbers the filings name
and a few either side; the filing's lot carries its map-lot id and its
owner (or applicant), the others generated owners, some of whom hold
several lots at one mailing address; one town has a pond between two
streets.  :func:`grid_town` is a plain grid of ``n`` lots for the
benchmarks.  Coordinates are Massachusetts State Plane (EPSG:26986)
metres near each town's centre.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping

import shapely

from parcels.l3 import Owner

__all__ = ["TOWN_NUMBERS", "ORIGINS", "demo_town", "grid_town", "FISCAL_YEAR"]

#: MassGIS's town numbers (the ``M050`` of Canton's files); the state
#: defaults' demo filings are sited in Sharon
TOWN_NUMBERS = {"canton": 50, "manchester-by-the-sea": 166, "mansfield": 167, "saugus": 262, "wpa": 266}
#: each town's centre, State Plane metres (pyproj, from its latitude and longitude)
ORIGINS = {
    "canton": (229338.0, 878680.0),
    "manchester-by-the-sea": (260036.0, 925517.0),
    "mansfield": (223268.0, 864773.0),
    "saugus": (240217.0, 912723.0),
    "wpa": (226542.0, 874892.0),
}
FISCAL_YEAR = 2026
LOT_W, LOT_D, WAY_W, STREET_GAP = 20.0, 30.0, 12.0, 140.0
NEIGHBOURS = 3  # lots generated either side of a filing's
_PEOPLE = (
    "ALLEN, RUTH",
    "BERNIER, PAUL",
    "COSTA, MARIA",
    "DOYLE, KEVIN",
    "EATON, SUSAN",
    "FARIA, JOSE",
    "GRANT, HELEN",
    "HOGAN, PETER",
    "IRWIN, CLARE",
    "JOYCE, MARK",
    "KANE, LINDA",
    "LYONS, BRIAN",
    "MORAN, ANNE",
    "NOLAN, JAMES",
    "OKAFOR, GRACE",
    "PRICE, DANIEL",
)
_SUFFIX = re.compile(r"^(\d+)\s+(.+)$")


def _owner_of(filing: Mapping) -> tuple[str, str, str, str, str] | None:
    who = filing.get("owner") or filing.get("applicant")
    if not isinstance(who, Mapping) or not isinstance(who.get("address"), Mapping):
        return None
    a = who["address"]
    return (str(who["name"]).upper(), str(a["street"]).upper(), str(a["city"]).upper(), str(a["state"]).upper(), str(a["zip"]))


def _site(filing: Mapping) -> tuple[int, str, str] | None:
    site = filing.get("site") or {}
    text = site.get("address") or filing.get("address") or ""
    m = _SUFFIX.match(text.strip())
    if not m:
        return None
    return int(m[1]), m[2].upper(), str(site.get("parcel") or filing.get("parcel") or "")


def demo_town(town: str, filings: Iterable[Mapping], *, seed: int = 2026) -> tuple[list[tuple], list[Owner]]:
    """The L3 layer of ``town`` for these (generated) filings: (parcels as
    (LOC_ID, MAP_PAR_ID, POLY_TYPE, polygon), assessing records)."""
    rng = random.Random(f"{seed}-{town}-parcels")
    x0, y0 = ORIGINS[town]
    sites: dict[str, dict[int, tuple[str, tuple | None]]] = {}
    for f in filings:
        if f.get("town") != town:
            continue
        found = _site(f)
        if found is None:
            continue
        number, street, parcel = found
        sites.setdefault(street, {}).setdefault(number, (parcel, _owner_of(f)))
    parcels: list[tuple] = []
    owners: list[Owner] = []
    used_ids: set[str] = set()
    city = {
        "canton": "CANTON",
        "manchester-by-the-sea": "MANCHESTER",
        "saugus": "SAUGUS",
        "mansfield": "MANSFIELD",
        "wpa": "SHARON",
    }[town]
    zipc = {"canton": "02021", "manchester-by-the-sea": "01944", "saugus": "01906", "mansfield": "02048", "wpa": "02067"}[town]
    holders: list[tuple[str, str]] = []  # owners of several lots: (name, mailing street)
    for k, street in enumerate(sorted(sites)):
        y = y0 + k * STREET_GAP
        numbers = set()
        for n in sites[street]:
            numbers.update(m for m in range(n - 2 * NEIGHBOURS, n + 2 * NEIGHBOURS + 1) if m > 0)  # both sides of the way
        xs = [n // 2 for n in numbers]
        left, right = min(xs), max(xs) + 1
        way = shapely.box(x0 + left * LOT_W - LOT_W, y, x0 + right * LOT_W + LOT_W, y + WAY_W)
        parcels.append((f"W_{town[:3].upper()}_{k:03d}", "", "ROW", way))
        for n in sorted(numbers):
            i = n // 2
            north = n % 2 == 1
            lot = shapely.box(
                x0 + i * LOT_W, y + WAY_W if north else y - LOT_D, x0 + (i + 1) * LOT_W, y + WAY_W + LOT_D if north else y
            )
            given, owner = sites[street].get(n, ("", None))
            map_par = given if given and given not in used_ids else f"{100 + k}-{n}"
            used_ids.add(map_par)
            loc = f"F_{int(lot.bounds[0]):06d}_{int(lot.bounds[1]):06d}"
            parcels.append((loc, map_par, "FEE", lot))
            site_addr = f"{n} {street}"
            if owner is None:
                if holders and rng.random() < 0.15:
                    name, mail = rng.choice(holders)
                else:
                    name = rng.choice(_PEOPLE)
                    mail = site_addr if rng.random() < 0.8 else f"{rng.randint(1, 400)} {rng.choice(sorted(sites))}"
                    if rng.random() < 0.1:
                        holders.append((name, mail))
                owner = (name, mail, city, "MA", zipc)
            owners.append(Owner(loc, f"{map_par}-0", site_addr, *owner))
    if town == "canton" and len(sites) > 1:  # Reservoir Pond, behind the first street's north lots
        y = y0 + WAY_W + LOT_D
        parcels.append(("W_CAN_POND", "", "WATER", shapely.box(x0, y, x0 + 300.0, y0 + STREET_GAP - LOT_D)))
    return parcels, owners


def grid_town(n: int, *, origin: tuple[float, float] = (229338.0, 878680.0), per_street: int = 100, seed: int = 1):
    """``n`` lots in the L3 schema for the benchmarks: streets of
    ``per_street`` lots a side, 12 m ways between.  (parcels, assessing records)."""
    rng = random.Random(seed)
    x0, y0 = origin
    parcels: list[tuple] = []
    owners: list[Owner] = []
    streets = -(-n // (2 * per_street))
    for k in range(streets):
        y = y0 + k * (WAY_W + 2 * LOT_D)
        parcels.append((f"W_{k:04d}", "", "ROW", shapely.box(x0 - LOT_W, y, x0 + (per_street + 1) * LOT_W, y + WAY_W)))
        for side in (0, 1):
            for i in range(per_street):
                if len(owners) >= n:
                    break
                lot_y = y + WAY_W if side else y - LOT_D  # a south lot backs onto the last street's north lot
                lot = shapely.box(x0 + i * LOT_W, lot_y, x0 + (i + 1) * LOT_W, lot_y + LOT_D)
                loc = f"F_{k:04d}_{side}_{i:03d}"
                number = 2 * i + 1 + side
                name = f"OWNER {rng.randrange(n):06d}"
                owners.append(Owner(loc, loc, f"{number} STREET {k}", name, f"{number} STREET {k}", "CANTON", "MA", "02021"))
                parcels.append((loc, f"{k}-{2 * i + side}", "FEE", lot))
    return parcels, owners
