"""What a filing says about its project and its people, read for a page:
the project's description, the site and its assessors' parcel, and each
party (applicant, owner, contractor) with every contact given (mailing
address, telephone, email, a contractor's licence and insurance).

An online application stores these as :func:`web.apply.application`
writes them (``project.description``, ``site.address``/``site.parcel``,
``applicant``/``owner`` with ``address.street/city/state/zip``, ``phone``,
``email``; a street opening's ``contractor`` with ``license`` and
``insurance``); a filing imported from a file may give a party as a bare
name, or leave any of it out.  Whatever is not given is absent, never a
placeholder or a Python value.  Pure: reads the filing's JSON only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Party", "Particulars", "particulars", "PARTY_ROLES"]

#: the parties a filing may name, in the order a page shows them, with their titles
PARTY_ROLES = (("applicant", "Applicant"), ("owner", "Owner of the property"), ("contractor", "Contractor"))


@dataclass(frozen=True)
class Party:
    role: str
    title: str
    name: str
    address: tuple[str, ...] = ()  # the mailing address's lines
    phone: str = ""
    email: str = ""
    #: further particulars, (label, text): a contractor's licence, its insurance
    more: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Particulars:
    description: str
    site: str
    parcel: str
    parties: tuple[Party, ...] = ()
    owner_is_applicant: bool = False
    #: an online application's own facts, (label, text): owner's permission, length of the opening...
    application: tuple[tuple[str, str], ...] = field(default_factory=tuple)


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _address(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value.strip(),) if value.strip() else ()
    if not isinstance(value, Mapping):
        return ()
    street = _text(value.get("street"))
    city, state, zip_code = _text(value.get("city")), _text(value.get("state")), _text(value.get("zip"))
    last = ", ".join(p for p in (city, " ".join(p for p in (state, zip_code) if p)) if p)
    return tuple(p for p in (street, last) if p)


def _contractor_more(raw: Mapping) -> tuple[tuple[str, str], ...]:
    more = []
    licence = raw.get("license")
    if isinstance(licence, Mapping) and _text(licence.get("number")):
        expires = _text(licence.get("expires"))
        more.append(("Licence", _text(licence["number"]) + (f", expires {expires}" if expires else "")))
    for cover in raw.get("insurance") or ():
        if isinstance(cover, Mapping) and _text(cover.get("insurer")):
            expires = _text(cover.get("expires"))
            more.append(("Insurance", _text(cover["insurer"]) + (f", expires {expires}" if expires else "")))
    return tuple(more)


def _party(role: str, title: str, raw: Any) -> Party | None:
    if isinstance(raw, str):
        return Party(role, title, raw.strip()) if raw.strip() else None
    if not isinstance(raw, Mapping) or not _text(raw.get("name")):
        return None
    more = _contractor_more(raw) if role == "contractor" else ()
    return Party(
        role, title, _text(raw["name"]), _address(raw.get("address")), _text(raw.get("phone")), _text(raw.get("email")), more
    )


def particulars(filing) -> Particulars:
    """The filing's project, site and parties as its JSON gives them."""
    extra = filing.extra
    site = extra.get("site") if isinstance(extra.get("site"), Mapping) else {}
    project = extra.get("project") if isinstance(extra.get("project"), Mapping) else {}
    parcel = _text(extra.get("parcel")) or _text(site.get("parcel"))
    if parcel == "(not given)":
        parcel = ""
    parties = []
    for role, title in PARTY_ROLES:
        party = _party(role, title, extra.get(role))
        if party is not None:
            parties.append(party)
    applicant = next((p for p in parties if p.role == "applicant"), None)
    owner = next((p for p in parties if p.role == "owner"), None)
    same = applicant is not None and owner is not None and (applicant.name, applicant.address) == (owner.name, owner.address)
    if same:
        parties = [p for p in parties if p.role != "owner"]
    application = extra.get("application") if isinstance(extra.get("application"), Mapping) else {}
    facts = []
    if application:
        facts.append(("Submitted online by", _text(application.get("submitted_by")) or "the applicant"))
        if not same:
            facts.append(("Owner's written permission", "given" if application.get("owner_consent") else "not given"))
        if isinstance(application.get("length_ft"), int):
            facts.append(("Length of the opening", f"{application['length_ft']:,} feet"))
        if _text(application.get("applicant")):
            facts.append(("Applicant type", _text(application["applicant"])))
    return Particulars(
        _text(project.get("description")),
        _text(extra.get("address")) or _text(site.get("address")),
        parcel,
        tuple(parties),
        same,
        tuple(facts),
    )
