"""The people and places of generated filings: who applied, where, which
board hears it, what conditions it carries; in the shape the notices read
(docs/reference/notices.md, "Filing fields the notices read").  Data and one pure function of
a seeded ``random.Random``; used by :mod:`demo.generate`."""

from __future__ import annotations

__all__ = ["parties", "BOARDS"]

_STREETS = {
    "canton": (
        "Washington St",
        "Neponset St",
        "Pleasant St",
        "Bolivar St",
        "Chapman St",
        "Randolph St",
        "Sherman St",
        "Walpole St",
        "Turnpike St",
        "Blue Hill River Rd",
        "Revere St",
        "Elm St",
    ),
    "saugus": (
        "Central St",
        "Lincoln Ave",
        "Winter St",
        "Main St",
        "Essex St",
        "Walnut St",
        "Hamilton St",
        "Water St",
        "Vine St",
        "Denver St",
    ),
    "mansfield": (
        "Chauncy St",
        "School St",
        "Franklin St",
        "East St",
        "West St",
        "Elm St",
        "Copeland Dr",
        "Otis St",
        "Fruit St",
        "Gilbert St",
    ),
    "wpa": ("Main St", "Pond St", "River Rd", "Mill St", "Brook St", "Lake Ave"),
}
_PEOPLE = (
    "A. Rossi",
    "B. Nguyen",
    "C. O'Brien",
    "D. Patel",
    "E. Murphy",
    "F. Silva",
    "G. Cohen",
    "H. Kowalski",
    "I. Santos",
    "J. Sullivan",
    "K. Chen",
    "L. Moreau",
)
_UTILITIES = ("Eversource Gas", "Eversource Electric", "National Grid", "Comcast", "Verizon", "Canton Water Division")
BOARDS = ("planning", "dpw", "health", "engineering", "building")  # Mansfield 25 §7.E ids

_PLACES = {  # city, zip, where the board meets and keeps its plans
    "canton": ("Canton", "02021", "Canton Town Hall, 801 Washington Street"),
    "saugus": ("Saugus", "01906", "Saugus Town Hall, 298 Central Street"),
    "mansfield": ("Mansfield", "02048", "Mansfield Town Hall, 6 Park Row"),
    "wpa": ("Sharon", "02067", "Sharon Community Center, 219 Massapoag Avenue"),
}
_NEWSPAPERS = {
    "canton": "The Canton Citizen",
    "saugus": "The Saugus Advertiser",
    "mansfield": "The Sun Chronicle",
    "wpa": "The Sharon Advocate",
}
_WORK = {
    "noi": (
        "an addition within the buffer zone",
        "a replacement septic system within 100 ft of a wetland",
        "a driveway crossing of an intermittent stream",
        "a single-family house in the buffer zone",
    ),
    "rda": (
        "a deck within the buffer zone",
        "removal of hazardous trees near a bordering vegetated wetland",
        "a fence 60 ft from a bank",
        "a shed within the buffer zone",
    ),
    "land-disturbance": (
        "a 14-lot subdivision disturbing 6 acres",
        "a warehouse and parking lot on 3.2 acres",
        "a solar array clearing 4 acres",
    ),
    "street-opening": (
        "a gas service connection",
        "a water service repair",
        "a sewer connection",
        "an electric conduit across the way",
        "a curb cut for a driveway",
    ),
}

_CONDITIONS = {
    "noi": (
        "erosion controls in place before work and inspected by the agent",
        "no work within 25 ft of the wetland",
        "record this Order at the Registry of Deeds before work",
        "as-built plan before a Certificate of Compliance",
    ),
    "rda": ("silt fence along the limit of work", "no stockpiles within 50 ft of the resource area", "work only in dry weather"),
    "land-disturbance": (
        "weekly inspections and monthly reports by the permittee",
        "surety before work begins",
        "as-built plan and final report before release of surety",
    ),
    "street-opening": (
        "police detail unless waived",
        "trench plated or patched at the end of each day",
        "permanent patch 12 to 18 months after the temporary patch",
    ),
}
_REASONS = {
    "noi": ("the application does not show that the work meets the by-law's performance standards",),
    "rda": ("insufficient information to determine the boundary of the resource area",),
    "land-disturbance": ("insufficient information on stormwater management",),
    "street-opening": (
        "the street was paved within the last five years and an alternative exists",
        "failure to place a Winter Preparation Patch before December 1 (a Default)",
    ),
}


def _party(rng, name: str, town: str) -> dict:
    city, zip_code, _ = _PLACES[town]
    return {
        "name": name,
        "address": {
            "street": f"{rng.randint(1, 480)} {rng.choice(_STREETS[town])}",
            "city": city,
            "state": "MA",
            "zip": zip_code,
        },
    }


#: the paving contractors of the generated street openings
_CONTRACTORS = ("Neponset Paving Co.", "Blue Hill Excavating", "Route 138 Utilities Inc.", "Ponkapoag Site Work")


def parties(rng, town: str, kind: str) -> dict:
    """The record's people and places, in the shape the notices read
    (``applicant.address.street``, ``site.parcel``, ``authority.signer``)."""
    city, _, hall = _PLACES[town]
    street = kind == "street-opening"
    utility = street and rng.random() < 0.35
    applicant = _party(rng, _UTILITIES[rng.randrange(len(_UTILITIES))] if utility else _PEOPLE[rng.randrange(len(_PEOPLE))], town)
    site = f"{rng.randint(1, 480)} {rng.choice(_STREETS[town])}"
    body = "Department of Public Works" if street else "Conservation Commission"
    out = {
        "applicant": applicant,
        "site": {"address": site, "parcel": f"{rng.randint(1, 60)}-{rng.randint(1, 250)}"},
        "project": {"description": rng.choice(_WORK[kind])},
        "authority": {
            "name": f"{city} {body}",
            "address": hall,
            "signer": f"{rng.choice(_PEOPLE)}, {'Superintendent' if street else 'Agent'}",
        },
    }
    out["conditions"] = list(rng.sample(_CONDITIONS[kind], 2))
    out["reasons"] = [rng.choice(_REASONS[kind])]
    if street:
        # chosen from the site, not drawn: the random sequence (and every
        # other generated field) stays as it was
        out["contractor"] = {"name": _CONTRACTORS[sum(map(ord, site)) % len(_CONTRACTORS)]}
        out["hearing"] = {"place": hall}
        out["settlement"] = {"allowed": True, "remarks": "no settlement found; the permanent patch may go in"}
        deposit = rng.choice((300, 600, 1500, 2000))
        out["deposit"] = {"amount": deposit, "deductions": []}
    if not street:
        out["plans"] = {"where": f"the {body} office, {hall}"}
        out["newspaper"] = _NEWSPAPERS[town]
        out["hearing"] = {"place": hall}
        if rng.random() < 0.3:
            out["owner"] = _party(rng, _PEOPLE[rng.randrange(len(_PEOPLE))], town)
    if town != "wpa":
        # A town's office (its profile) supplies these; only filings under the
        # state defaults carry their own.  Drawn all the same, so a seed gives
        # the same filings as before.
        for key in ("authority", "plans", "newspaper", "hearing"):
            out.pop(key, None)
    return out
