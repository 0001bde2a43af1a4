"""The ICS writer: calendar items (hearings and meetings, with their time
and place; deadlines, inspections, patch windows) as an iCalendar document
(RFC 5545).  The sweep's feeds
(:mod:`sweep.calendar_items` picks a filing's items) and the workbench's live
calendar are both written here.

:func:`build_feed` writes the document line by line, held to the bytes the
``icalendar`` package gives (:func:`build_feed_icalendar`).

Each event's UID is ``{filing}/{clock}@permits.{town}`` (the hearing's is
``{filing}/hearing@permits.{town}``): it does not depend on the date, so a
continued hearing or an extended deadline *moves* the event in a calendar
that re-imports the feed instead of adding a second one.  ``DTSTAMP`` is
``as_of`` (not the wall clock) and ``SEQUENCE`` grows with the event's
date, so the same store and the same day give byte-identical feeds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

__all__ = [
    "CalendarItem",
    "build_feed",
    "build_feed_icalendar",
    "feed_name",
    "feed_head",
    "feed_stamp",
    "vevent",
    "is_aware",
    "fold",
    "FEED_END",
    "LOCAL",
]

LOCAL = ZoneInfo("America/New_York")


@dataclass(frozen=True)
class CalendarItem:
    uid: str
    town: str
    department: str
    filing: str
    what: str
    day: date
    at: datetime | None
    summary: str
    description: str
    sequence: int = 0
    location: str = ""  # where it happens (a hearing's or a meeting's place), "" for a deadline


def feed_name(town: str | None, department: str | None) -> str:
    return f"{town or 'all-towns'}-{department or 'all-departments'}"


def build_feed(items: Iterable[CalendarItem], as_of: date, name: str) -> bytes:
    """An ICS document of ``items``, sorted by date and UID so the same
    items always give the same bytes.

    Written line by line, not through ``icalendar``'s objects (its
    parameter objects and character-by-character line folding were about
    70% of a 10,000-filing sweep): the same bytes as ``icalendar`` 7 gives
    for these properties (tests/notices/test_ics_writer.py holds the two equal and
    parses the feeds back with ``icalendar``).  The one VTIMEZONE a feed
    with timed items needs is ``icalendar``'s own, made once."""
    items = sorted(items, key=lambda i: (i.day, i.uid))
    if any(is_aware(i) for i in items):
        return build_feed_icalendar(items, as_of, name)  # an aware time: icalendar names its zone
    stamp = feed_stamp(as_of)
    return feed_head(name, any(i.at is not None for i in items)) + b"".join(vevent(i, stamp) for i in items) + FEED_END


def is_aware(item: CalendarItem) -> bool:
    """An item whose time carries its own zone: only ``icalendar`` writes it."""
    return item.at is not None and item.at.tzinfo is not None


def feed_stamp(as_of: date) -> bytes:
    """Every event's DTSTAMP line: ``as_of``, not the wall clock."""
    return f"DTSTAMP:{_ymd(as_of)}T060000Z".encode()


#: The line that ends a feed.
FEED_END = b"END:VCALENDAR\r\n"


def feed_head(name: str, timed: bool) -> bytes:
    """A feed's opening lines, and the VTIMEZONE when any event is ``timed``."""
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//ma-permits//permit clocks//EN",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{_text(f'Permits: {name}')}",
        "X-WR-TIMEZONE:America/New_York",
    ]
    out = [fold(line) for line in lines]
    if timed:
        out.append(_vtimezone())
    return b"\r\n".join(out) + b"\r\n"


def vevent(item: CalendarItem, stamp: bytes) -> bytes:
    """One item's VEVENT lines (a date, or a local time without a zone),
    each ended by CRLF: a feed is its head, its events in (day, UID) order
    and :data:`FEED_END`, so the sweep's report can write them as they come."""
    if item.at is not None:
        end = item.at + timedelta(hours=1)
        start_line = f"DTSTART;TZID=America/New_York:{item.at:%Y%m%dT%H%M%S}".encode()
        end_line = f"DTEND;TZID=America/New_York:{end:%Y%m%dT%H%M%S}".encode()
    else:
        start_line, end_line = _day_lines(item.day)
    return b"\r\n".join(
        (
            b"BEGIN:VEVENT",
            fold(f"SUMMARY:{_text(item.summary)}"),
            start_line,
            end_line,
            stamp,
            fold(f"UID:{_text(item.uid)}"),
            b"SEQUENCE:%d" % item.sequence,
            _categories(item.department, item.town),
            fold(f"DESCRIPTION:{_text(item.description)}"),
            *((fold(f"LOCATION:{_text(item.location)}"),) if item.location else ()),
            b"TRANSP:TRANSPARENT",
            b"END:VEVENT",
            b"",
        )
    )


@lru_cache(maxsize=4096)
def _day_lines(day: date) -> tuple[bytes, bytes]:
    """A whole day's DTSTART and DTEND lines, made once a day."""
    return (
        b"DTSTART;VALUE=DATE:" + _ymd(day).encode(),
        b"DTEND;VALUE=DATE:" + _ymd(day + timedelta(days=1)).encode(),
    )


@lru_cache(maxsize=256)
def _categories(department: str, town: str) -> bytes:
    return fold(f"CATEGORIES:{_text(department)},{_text(town)}")


def _ymd(day: date) -> str:
    return day.isoformat().replace("-", "")


_SPECIAL = re.compile(r"[\\;,\r\n]")


def _text(value: str) -> str:
    """RFC 5545 TEXT escaping, as icalendar does it (order matters)."""
    if _SPECIAL.search(value) is None:
        return value
    return (
        value.replace(r"\N", "\n")
        .replace("\\", "\\\\")
        .replace(";", r"\;")
        .replace(",", r"\,")
        .replace("\r\n", r"\n")
        .replace("\n", r"\n")
        .replace("\r", r"\n")
    )


def fold(line: str) -> bytes:
    """The content line in UTF-8, folded as icalendar folds: at most 74
    octets a line, never inside a character, and a backslash or caret
    that would end a line moved to the next (icalendar issue #1501)."""
    raw = line.encode("utf-8")
    if len(raw) <= 74:
        return raw
    parts, start, size = [], 0, len(raw)
    while size - start > 74:
        end = start + 74
        while raw[end] & 0xC0 == 0x80:  # inside a character: fold before it
            end -= 1
        if end - start > 1 and raw[end - 1] in b"\\^":
            end -= 1
        parts.append(raw[start:end])
        start = end
    parts.append(raw[start:])
    return b"\r\n ".join(parts)


_VTIMEZONE: list[bytes] = []


def _vtimezone() -> bytes:
    """icalendar's VTIMEZONE for America/New_York (its default span of
    years, the same for every feed), without the final line break."""
    if not _VTIMEZONE:
        from icalendar import Calendar, Event

        cal, ev = Calendar(), Event()
        ev.add("dtstart", datetime(2026, 1, 1, 12, tzinfo=LOCAL))
        cal.add_component(ev)
        cal.add_missing_timezones()
        text = cal.to_ical()
        begin, end = text.index(b"BEGIN:VTIMEZONE"), text.index(b"END:VTIMEZONE\r\n") + len(b"END:VTIMEZONE")
        _VTIMEZONE.append(text[begin:end])
    return _VTIMEZONE[0]


def build_feed_icalendar(items: Iterable[CalendarItem], as_of: date, name: str) -> bytes:
    """The feed built with ``icalendar``'s objects: the reference the fast
    writer is held to, and the writer for a time with its own zone."""
    from icalendar import Calendar, Event

    cal = Calendar()
    cal.add("prodid", "-//ma-permits//permit clocks//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", f"Permits: {name}")
    cal.add("x-wr-timezone", "America/New_York")
    stamp = datetime.combine(as_of, time(6, 0), tzinfo=UTC)
    for item in sorted(items, key=lambda i: (i.day, i.uid)):
        ev = Event()
        ev.add("uid", item.uid)
        ev.add("dtstamp", stamp)
        ev.add("sequence", item.sequence)
        ev.add("summary", item.summary)
        ev.add("description", item.description)
        ev.add("categories", [item.department, item.town])
        if item.location:
            ev.add("location", item.location)
        if item.at is not None:
            start = item.at if item.at.tzinfo else item.at.replace(tzinfo=LOCAL)
            ev.add("dtstart", start)
            ev.add("dtend", start + timedelta(hours=1))
        else:
            ev.add("dtstart", item.day)
            ev.add("dtend", item.day + timedelta(days=1))
        ev.add("transp", "TRANSPARENT")
        cal.add_component(ev)
    if any(i.at is not None for i in items):
        cal.add_missing_timezones()
    return cal.to_ical()
