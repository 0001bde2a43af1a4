"""Site addresses as the assessors write them and as people type them,
made comparable: ``"40 Washington Street"``, ``"40 WASHINGTON ST"`` and
``"40 washington st."`` have one :func:`site_key`.  The one table of street
suffixes: the parcels' look-ups (:mod:`parcels.sites`, which hands it on)
and the filings' search (:mod:`models.read.search`, through
:func:`spaced_key` and :func:`site_pattern`) both read it.  Pure text."""

from __future__ import annotations

import re

__all__ = ["site_key", "spaced_key", "site_pattern", "SUFFIXES", "DIRECTIONS"]

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
#: the directions a street's name may carry, and theirs
DIRECTIONS = {"NORTH": "N", "SOUTH": "S", "EAST": "E", "WEST": "W"}
#: the words a key may hold for a suffix or a direction, written either way
_ABBREVIATED = frozenset(SUFFIXES.values()) | frozenset(DIRECTIONS.values())
_SPELLED = frozenset(SUFFIXES) | frozenset(DIRECTIONS)


def _words(text: str | None) -> list[str]:
    return re.sub(r"[^A-Z0-9# ]+", " ", (text or "").upper()).split()


def site_key(text: str | None) -> str:
    """Upper case, punctuation dropped, spaces collapsed, suffixes and
    directions abbreviated: the form two addresses are compared in."""
    return " ".join(SUFFIXES.get(w, DIRECTIONS.get(w, w)) for w in _words(text))


def spaced_key(address: str | None) -> str | None:
    """The address's :func:`site_key` between two spaces (``" 109 SHERMAN
    ST "``), so a word of it can be found whole; None for no address."""
    key = site_key(address)
    return f" {key} " if key else None


def site_pattern(text: str) -> str | None:
    """What a typed address is looked for as among :func:`spaced_key`\\ s:
    its :func:`site_key`, with a space before its first word and after its
    last when that word is a suffix or a direction, so "109 Sherman
    Street" finds "109 Sherman St" (``"109 SHERMAN ST "``) and "Street"
    alone finds the word St, not every "Stone".  None when the text has no
    word, or its pattern would be shorter than three characters (no
    trigram index can answer it)."""
    words = _words(text)
    if not words:
        return None
    key = " ".join(SUFFIXES.get(w, DIRECTIONS.get(w, w)) for w in words)
    whole = _ABBREVIATED | _SPELLED
    pattern = (" " if words[0] in whole else "") + key + (" " if words[-1] in whole else "")
    return pattern if len(pattern) >= 3 else None
