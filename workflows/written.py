"""Dates and times as people write them, for every page, notice and line
of the command line's human output ("Tuesday, April 21, 2026", "7:00 p.m.");
the JSON and the store keep ISO dates.  Pure: formats what it is given,
reads no clock and no locale (the words are English whatever the server's
locale).
"""

from __future__ import annotations

import re
from datetime import date, datetime, time

__all__ = ["day_written", "short_day", "time_written", "moment_written", "when_written", "dates_written"]

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def _as_day(value) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str) and value:
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


def day_written(value) -> str:
    """``Tuesday, April 21, 2026``; "" for no day."""
    d = _as_day(value)
    if d is None:
        return ""
    return f"{_DAYS[d.weekday()]}, {_MONTHS[d.month - 1]} {d.day}, {d.year}"


def short_day(value) -> str:
    """``Tue, Apr 21, 2026``: for a table's column."""
    d = _as_day(value)
    if d is None:
        return ""
    return f"{_DAYS[d.weekday()][:3]}, {_MONTHS[d.month - 1][:3]} {d.day}, {d.year}"


def time_written(value) -> str:
    """``7:00 p.m.``, ``12:00 noon``, ``12:00 midnight``; "" for none."""
    if isinstance(value, datetime):
        value = value.time()
    if not isinstance(value, time):
        return ""
    if (value.hour, value.minute) == (12, 0):
        return "12:00 noon"
    if (value.hour, value.minute) == (0, 0):
        return "12:00 midnight"
    hour = value.hour % 12 or 12
    return f"{hour}:{value.minute:02d} {'a.m.' if value.hour < 12 else 'p.m.'}"


def moment_written(value) -> str:
    """``Tuesday, April 21, 2026, 7:00 p.m.`` for a moment (a datetime or
    its ISO text); a bare day is written as a day."""
    if isinstance(value, str) and value:
        try:
            value = datetime.fromisoformat(value) if "T" in value or " " in value else date.fromisoformat(value)
        except ValueError:
            return value
    if isinstance(value, datetime):
        return f"{day_written(value)}, {time_written(value)}"
    return day_written(value)


def when_written(day, at=None) -> str:
    """A deadline's day, and its time when the clock counts hours."""
    return f"{day_written(day)}, {time_written(at)}" if at is not None else day_written(day)


_ISO_IN_TEXT = re.compile(r"(?<![\w-])(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::\d{2})?)?(?![\w-])")


def dates_written(text: str) -> str:
    """``text`` (an explanation, a refusal) with each ISO day and moment in
    it written as people write them: "21 days after 2026-11-03" becomes
    "21 days after Tuesday, November 3, 2026", "2026-11-17T19:00" becomes
    "Tuesday, November 17, 2026, 7:00 p.m.".  What is not a real day is
    left as it is."""

    def one(m) -> str:
        try:
            d = date.fromisoformat(m.group(1))
        except ValueError:
            return m.group(0)
        if m.group(2):
            hh, mm = map(int, m.group(2).split(":"))
            if hh > 23 or mm > 59:
                return m.group(0)
            return f"{day_written(d)}, {time_written(time(hh, mm))}"
        return day_written(d)

    return _ISO_IN_TEXT.sub(one, str(text))
