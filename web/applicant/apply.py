"""The online application form: what each permit asks of the applicant, and
the filing it becomes (a ``submitted`` history, no clock running).

What is asked follows the by-laws' application requirements: the site, the
project, the applicant and the owner, the owner's consent where the
applicant is not the owner (Canton Art. XV 15-4, Saugus 508.08 §4, Mansfield
25 §7.A: the application is signed by the owner or with the owner's written
permission), the plans as a PDF, and for a street opening the length of the
opening, the contractor with its licence, the insurance certificate (Canton
16-12 §8) and the Dig Safe ticket (§10.4).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date

from workflows.rulebook import KINDS
from workflows.submission import submitted_event
from workflows.towns import registry

from ..forms import APPLICANT_TYPES, KIND_LABELS, MAX_LENGTH_FT, FormErrors
from ..values import day, one_line, whole_number

__all__ = ["APPLY_FIELDS", "fields_for", "towns_offering", "application"]

_ZIP = re.compile(r"\d{5}(-\d{4})?")
_EMAIL = re.compile(r"[^@\s<>,;]{1,64}@[^@\s<>,;]{1,190}\.[A-Za-z]{2,}")
STREET = ("street-opening",)
WET = ("noi", "rda", "land-disturbance")

#: (name, label, kinds, required, input type)
APPLY_FIELDS = (
    ("address", "Site address (street and number)", KINDS, True, "text"),
    ("parcel", "Assessors' parcel (map-lot)", WET, True, "text"),
    ("parcel", "Assessors' parcel (map-lot), if any", STREET, False, "text"),
    ("description", "The project: what work, where on the site, how near the resource area", WET, True, "textarea"),
    ("description", "The work: what is to be dug, why, and for how long", STREET, True, "textarea"),
    ("applicant_name", "Applicant's name (a person or a company)", KINDS, True, "text"),
    ("applicant_street", "Applicant's street address", KINDS, True, "text"),
    ("applicant_city", "Applicant's city or town", KINDS, True, "text"),
    ("applicant_state", "Applicant's state", KINDS, True, "text"),
    ("applicant_zip", "Applicant's ZIP code", KINDS, True, "text"),
    ("applicant_phone", "Applicant's telephone", KINDS, False, "tel"),
    ("owner_is_applicant", "I own the property", KINDS, False, "checkbox"),
    ("owner_name", "Owner's name (if not the applicant)", KINDS, False, "text"),
    ("owner_street", "Owner's street address", KINDS, False, "text"),
    ("owner_city", "Owner's city or town", KINDS, False, "text"),
    ("owner_state", "Owner's state", KINDS, False, "text"),
    ("owner_zip", "Owner's ZIP code", KINDS, False, "text"),
    ("owner_email", "Owner's email (for a copy of the decision)", KINDS, False, "email"),
    ("owner_consent", "The owner has given written permission for this application", KINDS, False, "checkbox"),
    ("length_ft", "Length of the opening (feet)", STREET, True, "number"),
    ("applicant_type", "Applicant type", STREET, True, "select"),
    ("contractor_name", "Contractor", STREET, True, "text"),
    ("contractor_license", "Contractor's Public Works Contractors licence number", STREET, True, "text"),
    ("contractor_license_expires", "Licence expires", STREET, True, "date"),
    ("insurer", "General liability insurer", STREET, True, "text"),
    ("insurance_expires", "Insurance certificate expires", STREET, True, "date"),
    ("dig_safe", "Dig Safe ticket number", STREET, True, "text"),
)


def fields_for(kind: str) -> list[tuple[str, str, bool, str]]:
    return [(n, label, req, typ) for n, label, kinds, req, typ in APPLY_FIELDS if kind in kinds]


def towns_offering(kind: str) -> list[str]:
    """The towns that run this permit kind online (the state's defaults,
    ``wpa``, are no town to apply to)."""
    return sorted(t for t, profile in registry().items() if kind in profile.permits and t != "wpa")


def _date(text: str, errors: dict, name: str, today: date) -> date | None:
    try:
        when = day(text)
    except ValueError as exc:
        errors[name] = str(exc)
        return None
    if when < today:
        errors[name] = f"expired on {when.isoformat()}: give a current one"
    return when


def application(kind: str, town: str, form: Mapping[str, str], *, email: str, today: date) -> dict:
    """The filing JSON of an online application; FormErrors names every
    field at fault.  The plan is checked and stored by the caller."""
    if kind not in KINDS:
        raise FormErrors({"kind": f"unknown permit kind {kind!r}"})
    errors: dict[str, str] = {}
    if town not in towns_offering(kind):
        errors["town"] = f"{KIND_LABELS[kind]}: choose one of {', '.join(towns_offering(kind))}"
    fields = fields_for(kind)
    v = {n: str(form.get(n) or "").strip() for n, _, _, _ in fields}
    for n, _, req, typ in fields:
        if req and not v[n]:
            errors[n] = "required"
        if len(v[n]) > 2000:
            errors[n] = "too long (2,000 characters at most)"
        elif typ != "textarea":
            try:
                one_line(v[n])
            except ValueError as exc:
                errors[n] = str(exc)
    owner_is_applicant = bool(v["owner_is_applicant"])
    if not owner_is_applicant:
        for part in ("name", "street", "city", "state", "zip"):
            if not v[f"owner_{part}"]:
                errors[f"owner_{part}"] = "required unless you own the property"
        if not v["owner_consent"]:
            errors["owner_consent"] = "the owner's written permission is required when you do not own the property"
    for who in ("applicant", "owner"):
        if v[f"{who}_zip"] and not _ZIP.fullmatch(v[f"{who}_zip"]):
            errors[f"{who}_zip"] = "a ZIP code such as 02021"
        if v[f"{who}_state"] and not re.fullmatch(r"[A-Za-z]{2}", v[f"{who}_state"]):
            errors[f"{who}_state"] = "two letters, e.g. MA"
    if v["owner_email"] and not _EMAIL.fullmatch(v["owner_email"]):
        errors["owner_email"] = "an email address such as name@example.org"
    street = {}
    if kind == "street-opening":
        if v["length_ft"]:
            try:
                street["length_ft"] = whole_number(v["length_ft"], 1, MAX_LENGTH_FT)
            except ValueError:
                errors["length_ft"] = f"a whole number of feet, 1 to {MAX_LENGTH_FT:,}"
        if v["applicant_type"] and v["applicant_type"] not in APPLICANT_TYPES:
            errors["applicant_type"] = f"one of: {', '.join(APPLICANT_TYPES)}"
        for n in ("contractor_license_expires", "insurance_expires"):
            if v[n]:
                street[n] = _date(v[n], errors, n, today)
        if v["dig_safe"] and not re.fullmatch(r"[0-9A-Za-z-]{6,20}", v["dig_safe"]):
            errors["dig_safe"] = "the ticket number Dig Safe gave (digits)"
    if errors:
        raise FormErrors(errors)

    def party(who: str, address: str | None) -> dict:
        out = {
            "name": v[f"{who}_name"],
            "address": {
                "street": v[f"{who}_street"],
                "city": v[f"{who}_city"],
                "state": v[f"{who}_state"].upper(),
                "zip": v[f"{who}_zip"],
            },
        }
        if address:
            out["email"] = address.lower()
        return out

    applicant = party("applicant", email)
    if v["applicant_phone"]:
        applicant["phone"] = v["applicant_phone"]
    obj: dict = {"town": town, "kind": kind, "address": v["address"]}  # numbered as it is filed (services/numbering.py)
    if v["parcel"]:
        obj["parcel"] = v["parcel"]
    obj["site"] = {"address": v["address"], "parcel": v["parcel"] or "(not given)"}
    obj["project"] = {"description": v["description"]}
    obj["applicant"] = applicant
    obj["owner"] = dict(applicant) if owner_is_applicant else party("owner", v["owner_email"] or None)
    obj["application"] = {
        "online": True,
        "owner_consent": owner_is_applicant or bool(v["owner_consent"]),
        "submitted_by": email.lower(),
    }
    events = [submitted_event(today)]
    if kind == "street-opening":
        obj["contractor"] = {
            "name": v["contractor_name"],
            "license": {"number": v["contractor_license"], "expires": street["contractor_license_expires"].isoformat()},
            "insurance": [
                {"coverage": "general-liability", "insurer": v["insurer"], "expires": street["insurance_expires"].isoformat()}
            ],
        }
        obj["application"].update({"applicant": v["applicant_type"], "length_ft": street["length_ft"]})
        events.append({"type": "dig-safe-obtained", "date": today.isoformat(), "ticket": v["dig_safe"]})
    obj["events"] = events
    return obj
