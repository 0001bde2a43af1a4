"""Site addresses as the assessors write them and as people type them,
made comparable: ``"40 Washington Street"``, ``"40 WASHINGTON ST"`` and
``"40 washington st."`` have one :func:`site_key`.  Pure text."""

from __future__ import annotations

import re

__all__ = ["site_key", "SUFFIXES"]

#: street suffixes and their USPS abbreviations (Publication 28, the common ones)
SUFFIXES = {
    "STREET": "ST",
    "AVENUE": "AVE",
    "AV": "AVE",
    "ROAD": "RD",
    "DRIVE": "DR",
    "LANE": "LN",
    "COURT": "CT",
    "PLACE": "PL",
    "TERRACE": "TER",
    "CIRCLE": "CIR",
    "BOULEVARD": "BLVD",
    "PARKWAY": "PKWY",
    "HIGHWAY": "HWY",
    "TURNPIKE": "TPKE",
    "SQUARE": "SQ",
    "WAY": "WAY",
}
_DIRECTIONS = {"NORTH": "N", "SOUTH": "S", "EAST": "E", "WEST": "W"}


def site_key(text: str | None) -> str:
    """Upper case, punctuation dropped, spaces collapsed, suffixes and
    directions abbreviated: the form two addresses are compared in."""
    words = re.sub(r"[^A-Z0-9# ]+", " ", (text or "").upper()).split()
    return " ".join(SUFFIXES.get(w, _DIRECTIONS.get(w, w)) for w in words)
