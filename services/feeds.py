"""Calendar feeds (iCalendar): a docket's rows for a user's calendar (the
workbench's Today export and live subscription), and the feed of every
open filing of a town and department (``permits ics``).  Written by
:mod:`notices.ics`; a filing's items are :func:`sweep.calendar_items.calendar_items`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import NamedTuple

__all__ = ["docket_feed", "Feed", "filings_feed"]


def docket_feed(rows: Iterable, as_of: date, name: str) -> bytes:
    """An ICS document of docket rows (:class:`models.read.queries.DocketRow`):
    one event per clock, its UID the filing's and the clock's."""
    from notices.ics import CalendarItem, build_feed
    from sweep.calendar_items import item_uid
    from workflows.departments import department_of

    items = [
        CalendarItem(
            item_uid(r.filing, r.clock, r.town),
            r.town,
            department_of(r.kind),
            r.filing,
            r.clock,
            r.date,
            r.at,
            f"{r.filing}: {r.action}" + (" [OVERDUE]" if r.status == "overdue" else ""),
            f"{r.action}.\nRule: {r.rule}\nHow: {r.explanation}\nFiling: {r.filing} ({r.kind}, {r.town})"
            + (f" at {r.address}" if r.address else ""),
        )
        for r in rows
    ]
    return build_feed(items, as_of, name)


class Feed(NamedTuple):
    body: bytes
    events: int
    name: str
    unreadable: int


def filings_feed(filings: str, *, as_of: date, town: str | None = None, department: str | None = None) -> Feed:
    """The feed of every open filing in ``filings`` (the store's URL, or a
    folder or .jsonl file of filing JSON) of ``town`` and ``department``
    (None: all), as they stand on ``as_of``; ``unreadable`` counts the
    records that could not be replayed (``permits sweep`` lists them)."""
    from notices.ics import build_feed, feed_name
    from sweep.agenda import is_open
    from sweep.calendar_items import calendar_items
    from sweep.run import BadRecord
    from sweep.store_source import open_source
    from workflows.errors import PermitsError
    from workflows.replay import replay
    from workflows.towns import town as town_profile

    if town:
        town_profile(town)  # an unknown town is a one-line error
    items, bad = [], 0
    for f in open_source(filings).open_filings():
        if isinstance(f, BadRecord) or (town and f.town != town):
            bad += isinstance(f, BadRecord)
            continue
        try:
            r = replay(f, as_of)
        except PermitsError:
            bad += 1
            continue
        if is_open(r):
            items += [i for i in calendar_items(f, r, as_of) if not department or i.department == department]
    name = feed_name(town, department)
    return Feed(build_feed(items, as_of, name), len(items), name, bad)
