"""Calendar feeds (iCalendar): a user's calendar (the workbench's live
subscription: the hearings of their towns, each session with its time and
place, the commission's meetings, and the docket's deadlines and
inspections), the docket's rows alone (the Today page's export), and the
feed of every open filing of a town and department (``permits ics``).
Written by :mod:`notices.ics`; a filing's items are
:func:`sweep.calendar_items.calendar_items`.

The by-law's and the Act's deadline for one act of a joint filing are one
event, titled with the one that binds (the earlier), the other named in
its description (:func:`workflows.clock_rows.one_row_per_act`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, timedelta
from typing import NamedTuple

__all__ = ["docket_feed", "docket_items", "Feed", "filings_feed", "user_feed", "hearing_and_meeting_items"]


def docket_items(rows: Iterable) -> list:
    """Docket rows (:class:`models.read.queries.DocketRow`) as calendar
    items: one per filing and act, the clock that binds shown."""
    from notices.ics import CalendarItem
    from notices.render import explained
    from sweep.calendar_items import item_uid
    from workflows.clock_rows import act_of, one_row_per_act
    from workflows.departments import department_of
    from workflows.written import day_written

    items = []
    for row in one_row_per_act(list(rows), clock=lambda r: r.clock, group=lambda r: r.filing):
        r = row.shown
        act = act_of(r.clock)
        summary = f"{r.filing}: {r.action}" + (f", under {r.rule} (binds)" if row.others else "")
        also = "".join(f"\nAlso counted under {o.rule}: {day_written(o.date)}" for o in row.others)
        items.append(
            CalendarItem(
                item_uid(r.filing, act if row.others else r.clock, r.town),
                r.town,
                department_of(r.kind),
                r.filing,
                r.clock,
                r.date,
                r.at,
                summary + (" [OVERDUE]" if r.status == "overdue" else ""),
                f"{r.action}.\nRule: {r.rule}\nHow: {explained(r.explanation, r.kind)}{also}\n"
                f"Filing: {r.filing} ({r.kind}, {r.town})" + (f" at {r.address}" if r.address else ""),
            )
        )
    return items


def docket_feed(rows: Iterable, as_of: date, name: str) -> bytes:
    """An ICS document of docket rows: one event per filing and act, its
    UID the filing's and the act's."""
    from notices.ics import build_feed

    return build_feed(docket_items(rows), as_of, name)


def hearing_and_meeting_items(store, *, towns: Sequence[str] | None, kinds: Sequence[str], as_of: date, until: date) -> list:
    """The hearings of ``towns`` (None: all) and ``kinds`` still to be held
    from ``as_of`` through ``until``, each session with its time and place
    (a meeting's place when the session is on a meeting's agenda, else the
    filing's or its office's), and the meetings of the commissions of those
    towns, with their time and place."""
    from models.read.hearings import meetings_from, pending_hearings
    from notices.ics import CalendarItem
    from sweep.calendar_items import hearing_items, hearing_place
    from workflows.departments import department_of
    from workflows.towns import registry
    from workflows.written import day_written, time_written

    heard = [k for k in kinds if k in ("noi", "rda", "land-disturbance")]
    if not heard:
        return []
    pending = pending_hearings(store, towns=towns, kinds=heard)
    meeting_towns = sorted(set(towns) if towns is not None else set(registry()))
    meetings = meetings_from(store, towns=meeting_towns, since=as_of, until=until)
    at_meeting = {(m.town, m.day): m for m in meetings}
    items = []
    for p in pending:
        f = p.filing
        site = f" at {p.address}" if p.address else ""
        for item in hearing_items(f, as_of, place=hearing_place(f), site=site):
            if item.day > until:
                continue
            meeting = at_meeting.get((f.town, item.day))
            if meeting is not None and meeting.place and meeting.place != item.location:
                item = _moved(item, meeting.place)
            items.append(item)
    for m in meetings:
        profile = registry().get(m.town)
        items.append(
            CalendarItem(
                f"meeting-{m.id}@permits.{m.town}",
                m.town,
                department_of("noi"),
                "",
                "meeting",
                m.day,
                m.starts_at,
                f"{m.board} meeting, {profile.name if profile else m.town}",
                f"Meeting of the {m.board}: {day_written(m.day)}, {time_written(m.starts_at)}, at {m.place}.",
                0,
                m.place,
            )
        )
    return items


def _moved(item, place: str):
    """The item with its place, and its description, at the meeting's place."""
    from dataclasses import replace

    text = item.description.replace(f", at {item.location}.", f", at {place}.") if item.location else item.description
    return replace(item, location=place, description=text)


def user_feed(store, *, towns: Sequence[str] | None, kinds: Sequence[str], as_of: date, within: int, name: str) -> bytes:
    """A user's calendar for ``within`` days from ``as_of``: the hearings
    and meetings of their towns (:func:`hearing_and_meeting_items`) and
    their docket's deadlines and inspections (:func:`docket_items`)."""
    from models.read import workbench
    from notices.ics import build_feed

    rows = workbench.docket(store, as_of=as_of, within=within, towns=towns, kinds=kinds)
    until = as_of + timedelta(days=within)
    items = docket_items(rows) + hearing_and_meeting_items(store, towns=towns, kinds=kinds, as_of=as_of, until=until)
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
