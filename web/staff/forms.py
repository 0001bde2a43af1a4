"""What the staff's forms ask for and how their text becomes the filing
format's JSON.  The core checks the result again; these functions only
turn strings into the right JSON types and name the field at fault (what
every audience's forms share, the kinds' labels and the errors by field, is
:mod:`web.forms`).

- :func:`event_fields`: the inputs an event type needs (required first,
  then optional), each with the HTML input it is shown as.
- :func:`event_json`: a submitted event form as a raw event.
- :func:`new_filing`: a submitted new-filing form as a filing's JSON, or
  the errors by field (nothing is written until there are none).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from workflows.event_fields import EVENT_FIELDS, VOID, optional_fields
from workflows.ids import BadFilingId, check_filing_id
from workflows.rulebook import KINDS
from workflows.towns import registry

from ..forms import APPLICANT_TYPES, MAX_LENGTH_FT, FormErrors
from ..values import day, moment, one_line, whole_number

__all__ = [
    "Field",
    "event_fields",
    "offered_fields",
    "form_defaults",
    "event_json",
    "new_filing",
    "towns_for",
    "NEW_FILING_FIELDS",
    "HEARD_UNDER",
]

_ZIP = re.compile(r"\d{5}(-\d{4})?")


@dataclass(frozen=True)
class Field:
    name: str
    kind: str  # date, moment, day-or-moment, bool, int, str, clock, position, lines (a textarea, one per line), or "choice"
    required: bool
    choices: tuple[str, ...] = ()

    @property
    def input_type(self) -> str:
        """The HTML input: a date picker for a day (which also takes a day
        typed as 12/17/2026: :func:`web.values.day`), a date-and-time picker
        for a moment."""
        return {
            "date": "date",
            "day-or-moment": "date",
            "moment": "datetime-local",
            "int": "number",
            "position": "number",
        }.get(self.kind, "text")

    @property
    def hint(self) -> str:
        """How to type it where the browser shows no picker."""
        return {"date": "e.g. 12/17/2026", "day-or-moment": "e.g. 12/17/2026", "moment": "e.g. 12/17/2026 7:00 p.m."}.get(
            self.kind, ""
        )

    @property
    def label(self) -> str:
        from workflows.vocabulary import field_name

        return field_name(self.name)


def event_fields(kind: str, etype: str) -> list[Field]:
    """The fields of an event type of a permit kind, ``date`` first."""
    table = EVENT_FIELDS[kind].get(etype)
    if table is None:
        return []
    out = []
    for name, kf in table.items():
        out.append(Field(name, "choice" if isinstance(kf, tuple) else kf, True, kf if isinstance(kf, tuple) else ()))
    optional = optional_fields(kind, etype)
    for name, kf in optional.items():
        if name not in table:
            out.append(Field(name, "choice" if isinstance(kf, tuple) else kf, False, kf if isinstance(kf, tuple) else ()))
    if etype == "notice-posted":  # given by its moment, the date follows
        out = [f if f.name != "date" else Field("date", "date", False) for f in out]
    return out


def offered_fields(kind: str, etype: str, offer) -> list[Field]:
    """The fields of an offered event (:class:`workflows.offered.Offer`),
    each choice, yes-or-no and clock narrowed to the values that fit the
    filing now (a bool's as "true"/"false")."""
    out = []
    for f in event_fields(kind, etype):
        fitting = offer.choices.get(f.name) if offer is not None else None
        if fitting is not None:
            values = tuple(("true" if v else "false") if isinstance(v, bool) else str(v) for v in fitting)
            f = Field(f.name, f.kind, f.required, values)
        elif f.kind == "bool":
            f = Field(f.name, f.kind, f.required, ("true", "false"))
        out.append(f)
    return out


def form_defaults(fields: list[Field], today: date, now) -> dict[str, str]:
    """What the event form fills in before a person types: the day of the
    event (today), a moment (now, the town's wall time, to the minute), and
    a choice when only one value fits."""
    out = {}
    for f in fields:
        if f.name == "date" and f.kind == "date":
            out[f.name] = today.isoformat()
        elif f.kind == "moment" and f.required:
            out[f.name] = now.strftime("%Y-%m-%dT%H:%M")
        elif f.required and f.kind in ("choice", "bool", "clock") and len(f.choices) == 1:
            out[f.name] = f.choices[0]
    return out


def _convert(f: Field, text: str):
    if f.kind in ("int", "position"):
        return whole_number(text)
    if f.kind == "bool":
        if text not in ("true", "false"):
            raise ValueError("yes or no")
        return text == "true"
    if f.kind == "moment":
        return moment(text).isoformat(timespec="minutes")
    if f.kind == "lines":  # one item a line; blank lines dropped (the core checks the rest)
        return [line.strip() for line in text.splitlines() if line.strip()]
    if f.kind == "date":
        return day(text).isoformat()
    if f.kind == "day-or-moment":  # a day (from the date picker or typed), or a day and a time
        try:
            return day(text).isoformat()
        except ValueError:
            try:
                return moment(text).isoformat(timespec="minutes")
            except ValueError:
                raise ValueError("a date, such as 12/17/2026") from None
    return text


def event_json(kind: str, etype: str, form: Mapping[str, str]) -> dict:
    """The raw event a submitted form describes.  Raises FormErrors naming
    each field that is missing or not of its kind."""
    if etype not in EVENT_FIELDS[kind] or etype == VOID:
        raise FormErrors({"type": f"{etype!r} is not an event of a {kind} filing"})
    raw: dict = {"type": etype}
    errors = {}
    for f in event_fields(kind, etype):
        text = (form.get(f"f_{f.name}") or "").strip()
        if not text:
            if f.required:
                errors[f.name] = "required"
            continue
        try:
            raw[f.name] = _convert(f, text)
        except ValueError as exc:
            errors[f.name] = f"“{text[:60]}” is not {exc}"
    if etype == "notice-posted" and "date" not in raw and "at" not in raw:
        errors["at"] = "give the time it was posted, or a date"
    if errors:
        raise FormErrors(errors)
    return raw


#: the new-filing form: (name, label, kinds it is asked for, required)
NEW_FILING_FIELDS = (
    ("id", "Filing id (leave blank for a new number)", KINDS, False),
    ("town", "Town", KINDS, True),
    ("filed", "Filed on", KINDS, True),
    ("address", "Site address", KINDS, True),
    ("parcel", "Assessors' parcel", ("noi", "rda", "land-disturbance"), True),
    ("description", "Project description", KINDS, True),
    ("applicant_name", "Applicant", KINDS, True),
    ("applicant_street", "Applicant's street address", KINDS, True),
    ("applicant_city", "Applicant's city or town", KINDS, True),
    ("applicant_state", "Applicant's state", KINDS, True),
    ("applicant_zip", "Applicant's ZIP code", KINDS, True),
    ("owner_name", "Owner (blank: the applicant)", KINDS, False),
    ("owner_street", "Owner's street address", KINDS, False),
    ("owner_city", "Owner's city or town", KINDS, False),
    ("owner_state", "Owner's state", KINDS, False),
    ("owner_zip", "Owner's ZIP code", KINDS, False),
    ("hearing_place", "Hearing place", ("noi", "rda", "land-disturbance"), False),
    ("length_ft", "Length of the opening (feet)", ("street-opening",), True),
    ("applicant_type", "Applicant type", ("street-opening",), True),
    ("contractor", "Contractor", ("street-opening",), True),
    ("dig_safe", "Dig Safe ticket (if obtained)", ("street-opening",), False),
)
#: the letterhead of a filing in a jurisdiction that declares no office (the
#: state defaults): a name, a place and the title that signs, never a user's
#: email; a town's own office supplies all of it (notices.context.with_office_defaults)
_AUTHORITY = {
    "street-opening": (
        "Department of Public Works",
        "the Department of Public Works, Town Hall, during office hours",
        "Superintendent of Public Works",
    ),
}
_CONSERVATION = ("Conservation Commission", "the Conservation Office, Town Hall, during office hours", "Conservation Agent")
#: the New filing form's choice for an NOI or RDA: heard under the Act too (the default), or the by-law alone
HEARD_UNDER = ("joint", "bylaw")


def towns_for(kind: str, visible: tuple[str, ...]) -> list[str]:
    """The user's towns that run this permit kind."""
    known = registry()
    return [t for t in visible if t in known and kind in known[t].permits]


def new_filing(kind: str, form: Mapping[str, str], *, towns: list[str], today: date, by: str = "") -> dict:
    """A new filing's JSON (one ``filed`` event, and ``dig-safe-obtained``
    when a ticket is given), without a number unless one was given (the
    service gives the next: :func:`services.numbering.file_new`).  A town's
    NOI or RDA is heard under the Wetlands Protection Act too
    (``also: ["wpa"]``) unless the form says the by-law alone, with a
    reason (kept as ``bylaw_only``, with ``by`` who recorded it).  Raises
    FormErrors naming every field at fault."""
    from workflows.jurisdictions import ACT_ID, act_applies

    if kind not in KINDS:
        raise FormErrors({"kind": f"unknown permit kind {kind!r}"})
    v = {name: (form.get(name) or "").strip() for name, _, kinds, _ in NEW_FILING_FIELDS if kind in kinds}
    errors = {name: "required" for name, _, kinds, req in NEW_FILING_FIELDS if kind in kinds and req and not v[name]}
    for name, text in v.items():
        if name != "description":  # the one field of many lines
            try:
                one_line(text)
            except ValueError as exc:
                errors.setdefault(name, str(exc))
    if v["town"] and v["town"] not in towns:
        errors["town"] = f"choose one of: {', '.join(towns) or '(none of your towns runs this permit)'}"
    if v["id"]:
        try:
            check_filing_id(v["id"])
        except BadFilingId as exc:
            errors["id"] = str(exc)
    filed = None
    if v["filed"]:
        try:
            filed = day(v["filed"])
            if filed > today:
                errors["filed"] = f"{filed} is after today ({today}): record a filing once it is filed"
        except ValueError as exc:
            errors["filed"] = str(exc)
    for who in ("applicant", "owner"):
        z = v.get(f"{who}_zip")
        if z and not _ZIP.fullmatch(z):
            errors[f"{who}_zip"] = "a ZIP code such as 02021"
        st = v.get(f"{who}_state")
        if st and not re.fullmatch(r"[A-Za-z]{2}", st):
            errors[f"{who}_state"] = "two letters, e.g. MA"
    if v["owner_name"] and not all(v[f"owner_{p}"] for p in ("street", "city", "state", "zip")):
        errors["owner_street"] = "give the owner's full mailing address, or leave the owner blank"
    heard = (form.get("heard_under") or "joint").strip()
    reason = (form.get("bylaw_reason") or "").strip()
    if kind in ("noi", "rda"):
        if heard not in HEARD_UNDER:
            errors["heard_under"] = "the by-law and the Act, or the by-law alone"
        elif heard == "bylaw" and not reason:
            errors["bylaw_reason"] = "say why this filing is heard under the by-law alone"
        elif len(reason) > 500:
            errors["bylaw_reason"] = "at most 500 characters"
    if kind == "street-opening":
        if v["length_ft"]:
            try:
                length_ft = whole_number(v["length_ft"], 1, MAX_LENGTH_FT)
            except ValueError:
                errors["length_ft"] = f"a whole number of feet, 1 to {MAX_LENGTH_FT:,}"
        if v["applicant_type"] and v["applicant_type"] not in APPLICANT_TYPES:
            errors["applicant_type"] = f"one of: {', '.join(APPLICANT_TYPES)}"
    if errors:
        raise FormErrors(errors)

    def party(who):
        return {
            "name": v[f"{who}_name"],
            "address": {
                "street": v[f"{who}_street"],
                "city": v[f"{who}_city"],
                "state": v[f"{who}_state"].upper(),
                "zip": v[f"{who}_zip"],
            },
        }

    name, where, title = _AUTHORITY.get(kind, _CONSERVATION)
    obj: dict = {"town": v["town"], "kind": kind}
    if v["id"]:  # else the next of the town's running numbers, given as it is filed (services/numbering.py)
        obj["id"] = v["id"]
    if act_applies(v["town"], kind):
        if heard == "bylaw":
            obj["also"] = []
            obj["bylaw_only"] = {"reason": reason, "by": by, "on": today.isoformat()}
        else:
            obj["also"] = [ACT_ID]
    obj["address"] = v["address"]
    obj["site"] = {"address": v["address"]}
    if v.get("parcel"):
        obj["parcel"] = obj["site"]["parcel"] = v["parcel"]
    obj["project"] = {"description": v["description"]}
    obj["applicant"] = party("applicant")
    obj["owner"] = party("owner") if v["owner_name"] else party("applicant")
    office = registry()[v["town"]].office(kind) if v["town"] in registry() else None
    if office is None:  # the state defaults: the filing carries its letterhead
        obj["authority"] = {"name": name, "address": "Town Hall", "signer": title}
        obj["plans"] = {"where": where}
    filed_event: dict = {"type": "filed", "date": filed.isoformat()}
    events = [filed_event]
    if kind == "street-opening":
        obj["contractor"] = {"name": v["contractor"]}
        filed_event["applicant"] = v["applicant_type"]
        filed_event["length_ft"] = length_ft
        if v["dig_safe"]:
            events.append({"type": "dig-safe-obtained", "date": filed.isoformat(), "ticket": v["dig_safe"]})
    elif v["hearing_place"] or office is None:  # a town's hearings meet where its office says, unless the form names a place
        obj["hearing"] = {"place": v["hearing_place"] or "Town Hall"}
    obj["events"] = events
    return obj
