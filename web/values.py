"""The one parser of the numbers, dates and moments a form or a query
string carries.  Every route reads them through these functions, never
through ``int()``, ``str.isdigit()`` or ``date.fromisoformat()`` (a test
checks the web package for those).

Strict, because Python's own readers are generous: ``"²".isdigit()`` is
true and ``int("²")`` then fails; ``int("٣")`` is 3 (an Arabic-Indic
digit), ``int(" 7_0 ")`` is 70; ``date.fromisoformat`` takes
``"20261201"`` and ``"2026-W49-2"``, ``datetime.fromisoformat`` a time zone.
Here a whole number is 1 to :data:`MAX_DIGITS` ASCII digits within its
bounds; a date is ``YYYY-MM-DD`` (what a date picker sends) or the day as
people in Massachusetts type it, ``M/D/YYYY`` ("12/17/2026", where a browser
shows no picker or a person types into one), in ASCII digits, a real day,
in the years the calendar serves
(:data:`calendars.FIRST_YEAR`–:data:`calendars.LAST_YEAR`); a moment is
``YYYY-MM-DDTHH:MM`` (seconds allowed, as a browser's ``datetime-local``
input may send them) or ``M/D/YYYY`` and a time of day ("12/17/2026 7:00
p.m.", "12/17/2026 19:00"), in the town's time, no zone.

A field of one line (a name, an address, a parcel id) is read through
:func:`one_line`: a line break, tab or other control character is refused
(:func:`workflows.inputs.one_line_problem`), where it would split a
letter's address block, an email's header or a CSV row.

Each raises ValueError whose message says what was expected, in people's
words ("a whole number from 1 to 100000", "a date, such as 12/17/2026");
the caller names the field.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from calendars import FIRST_YEAR, LAST_YEAR

__all__ = ["MAX_DIGITS", "DAY_WORDS", "MOMENT_WORDS", "one_line", "whole_number", "number_or", "day", "moment", "coordinate"]

#: the most digits a whole number of a form may have (a sequence number,
#: a length in feet, a count of days)
MAX_DIGITS = 9
_DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_DAY = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_TYPED_DAY = re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})")
_TYPED_MOMENT = re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4}),? +([0-9]{1,2}):([0-9]{2}) *(?:([AaPp])\.?[Mm]\.?)?")
#: what a date and a moment look like, said the way the forms' hints say it
DAY_WORDS = "a date, such as 12/17/2026"
MOMENT_WORDS = "a date and a time of day, such as 12/17/2026 7:00 p.m."
_COORDINATE = re.compile(r"-?[0-9]{1,3}(\.[0-9]{1,15})?")
_MOMENT = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?")


def whole_number(text: str, lo: int = 0, hi: int = 10**MAX_DIGITS - 1) -> int:
    """``text`` as a whole number from ``lo`` to ``hi``: ASCII digits only,
    no sign, no spaces; ValueError otherwise."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        raise ValueError(f"a whole number from {lo} to {hi}")
    value = int(text)
    if not lo <= value <= hi:
        raise ValueError(f"a whole number from {lo} to {hi}")
    return value


def number_or(text: str | None, default: int, lo: int, hi: int) -> int:
    """A query's whole number: ``default`` when absent or not a whole number,
    else clamped to ``lo``..``hi`` (a page never refuses a filter; it shows
    the one it used)."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        return default
    return min(max(int(text), lo), hi)


def _year(y: int) -> None:
    if not FIRST_YEAR <= y <= LAST_YEAR:
        raise ValueError(f"a date from {FIRST_YEAR} to {LAST_YEAR}, such as 12/17/2026")


def day(text: str) -> date:
    """``text`` as a date, ``YYYY-MM-DD`` or ``M/D/YYYY``; ValueError otherwise."""
    if not isinstance(text, str):
        raise ValueError(DAY_WORDS)
    m = _DAY.fullmatch(text)
    if m is not None:
        y, mo, d = (int(g) for g in m.groups())
    else:
        m = _TYPED_DAY.fullmatch(text)
        if m is None:
            raise ValueError(DAY_WORDS)
        mo, d, y = (int(g) for g in m.groups())
    _year(y)
    try:
        return date(y, mo, d)
    except ValueError:
        raise ValueError(f"{DAY_WORDS} ({text} is no day of the calendar)") from None


def moment(text: str) -> datetime:
    """``text`` as a date and a time of day, ``YYYY-MM-DDTHH:MM`` or
    ``M/D/YYYY H:MM`` with a.m. or p.m. (or on the 24-hour clock), naive
    (the town's time); ValueError otherwise."""
    if not isinstance(text, str):
        raise ValueError(MOMENT_WORDS)
    m = _MOMENT.fullmatch(text)
    if m is not None:
        y, mo, d, h, mi = (int(g) for g in m.groups()[:5])
        s = int(m.group(6) or 0)
    else:
        m = _TYPED_MOMENT.fullmatch(text.strip())
        if m is None:
            raise ValueError(MOMENT_WORDS)
        mo, d, y, h, mi = (int(g) for g in m.groups()[:5])
        s, half = 0, (m.group(6) or "").lower()
        if half:
            if not 1 <= h <= 12:
                raise ValueError(MOMENT_WORDS)
            h = h % 12 + (12 if half == "p" else 0)
    _year(y)
    try:
        return datetime(y, mo, d, h, mi, s)
    except ValueError:
        raise ValueError(MOMENT_WORDS) from None


def coordinate(text: str) -> float:
    """A longitude or latitude of a query (the map's view): ASCII digits, an
    optional sign and decimals, within -180..180; ValueError otherwise (no
    ``nan``, ``inf``, exponent or full-width digit, which ``float()`` takes)."""
    if not isinstance(text, str) or not _COORDINATE.fullmatch(text.strip()):
        raise ValueError("a longitude or latitude in decimal degrees")
    value = float(text)
    if not -180.0 <= value <= 180.0:
        raise ValueError("a longitude or latitude from -180 to 180")
    return value


def one_line(text: str) -> str:
    """``text`` stripped, when it is one line without control characters;
    ValueError saying what it holds otherwise."""
    from workflows.inputs import one_line_problem

    problem = one_line_problem(text)
    if problem:
        raise ValueError(problem)
    return text.strip()
