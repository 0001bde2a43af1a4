"""What an applicant may correct when the town sends an online application
back as incomplete, and the corrections read as lines for the record.

The particulars the town may find wanting (the project's description, the
site, the assessors' parcel, the applicant's name, mailing address and
telephone) are :data:`CORRECTABLE`: each with its label and where the
filing's JSON keeps it (docs/reference/filing-format.md: ``project``,
``site``, ``applicant``).  The applicant's email is not among them: it is
the account the filing is followed with.

:func:`corrected` takes the filing's fields and what the applicant typed
and returns the fields as corrected with one line per change (``Site
address: 12 Elm St (was 9 Central St)``), which the resubmission's
``submitted`` event keeps as ``corrected``: the record says what changed,
and the fields are rewritten to match.  A value left as it was is no
change; a required one emptied, one too long or a ZIP code or state that
is not one is :class:`BadCorrection`, naming the field.  Pure: no I/O.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from .errors import PermitsError

__all__ = ["CORRECTABLE", "MAX_CORRECTION", "BadCorrection", "current_values", "corrected"]

#: the longest value a correction may give (the application form's own limit)
MAX_CORRECTION = 2000

#: (form name, label, path in the filing's JSON, required)
CORRECTABLE: tuple[tuple[str, str, tuple[str, ...], bool], ...] = (
    ("description", "Project description", ("project", "description"), True),
    ("address", "Site address", ("site", "address"), True),
    ("parcel", "Assessors' parcel", ("site", "parcel"), False),
    ("applicant_name", "Applicant's name", ("applicant", "name"), True),
    ("applicant_street", "Applicant's street address", ("applicant", "address", "street"), True),
    ("applicant_city", "Applicant's city or town", ("applicant", "address", "city"), True),
    ("applicant_state", "Applicant's state", ("applicant", "address", "state"), True),
    ("applicant_zip", "Applicant's ZIP code", ("applicant", "address", "zip"), True),
    ("applicant_phone", "Applicant's telephone", ("applicant", "phone"), False),
)

_ZIP = re.compile(r"\d{5}(-\d{4})?")
_STATE = re.compile(r"[A-Za-z]{2}")


class BadCorrection(PermitsError):
    """A correction the application form itself would refuse."""

    def __init__(self, name: str, label: str, why: str):
        self.field, self.label = name, label
        super().__init__(f"{label}: {why}")


def _get(extra: Mapping, path: tuple[str, ...]) -> str:
    node: Any = extra
    for part in path:
        node = node.get(part) if isinstance(node, Mapping) else None
    if path == ("site", "address") and not isinstance(node, str):
        node = extra.get("address")  # a filing keyed by its top-level address
    if path == ("site", "parcel") and not isinstance(node, str):
        node = extra.get("parcel")
    return node if isinstance(node, str) and node != "(not given)" else ""


def current_values(extra: Mapping) -> dict[str, str]:
    """Each correctable field's value on the filing now (empty: not given)."""
    return {name: _get(extra, path) for name, _, path, _ in CORRECTABLE}


def _check(name: str, label: str, required: bool, value: str) -> str:
    if required and not value:
        raise BadCorrection(name, label, "required: it cannot be left empty")
    if len(value) > MAX_CORRECTION:
        raise BadCorrection(name, label, f"too long ({MAX_CORRECTION:,} characters at most)")
    if name == "applicant_zip" and not _ZIP.fullmatch(value):
        raise BadCorrection(name, label, "a ZIP code such as 02021")
    if name == "applicant_state":
        if not _STATE.fullmatch(value):
            raise BadCorrection(name, label, "two letters, e.g. MA")
        value = value.upper()
    return value


def corrected(extra: Mapping, values: Mapping[str, str]) -> tuple[dict, list[str]]:
    """(the filing's fields with ``values`` put in, one line per change).
    ``values``: form name to text, those not given left as they are."""
    now = current_values(extra)
    out: dict = copy.deepcopy(dict(extra))
    lines = []
    for name, label, path, required in CORRECTABLE:
        if name not in values:
            continue
        value = " ".join(str(values[name]).split()) if name != "description" else str(values[name]).strip()
        value = _check(name, label, required, value)
        if value == now[name]:
            continue
        node = out
        for part in path[:-1]:
            if not isinstance(node.get(part), dict):
                node[part] = {}
            node = node[part]
        node[path[-1]] = value
        if path in (("site", "address"), ("site", "parcel")) and path[-1] in out:
            out[path[-1]] = value  # the top-level copy the filing list and the notices read
        if path[0] == "applicant" and isinstance(out.get("owner"), dict) and _same_party(extra):
            owner = out["owner"]  # the applicant who owns the property is the owner too
            for part in path[1:-1]:
                owner = owner.setdefault(part, {}) if isinstance(owner.get(part, {}), dict) else owner
            owner[path[-1]] = value
        lines.append(f"{label}: {value or '(removed)'} (was {now[name] or 'not given'})")
    return out, lines


def _same_party(extra: Mapping) -> bool:
    """The owner is the applicant (the application said "I own the property")."""
    a, o = extra.get("applicant"), extra.get("owner")
    return (
        isinstance(a, Mapping)
        and isinstance(o, Mapping)
        and a.get("name") == o.get("name")
        and a.get("address") == o.get("address")
    )
